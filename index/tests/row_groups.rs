//! A large table is written as several row groups, built and compressed
//! side by side: the file reads back as exactly the decoded rows sorted by
//! pallet and name (sorted here, independently of the writer), in as many
//! row groups as the pool has threads (while that keeps each under 16 MiB).

mod common;

use arrow_array::cast::AsArray;
use arrow_array::{RecordBatch, UInt32Array, UInt64Array};
use common::*;
use ferroscale_index::partition::{partition_path, write_partition, Staged};
use ferroscale_index::pipeline::decode_blocks;
use ferroscale_index::{Block, Gaps, Table, Tables};
use parquet::file::reader::{FileReader, SerializedFileReader};

#[test]
fn a_large_table_is_written_as_one_row_group_per_thread() {
    // 80 copies of block 18,468,942: its 50 KB `ParaInherent.enter`
    // renders to 143 KB of JSON, so `extrinsics` is about 11 MB.
    let template = block_18468942();
    let blocks: Vec<Block> = (0..80)
        .map(|i| Block {
            number: template.number + i,
            ..template.clone()
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .expect("pool");
    let decoders = decoders();
    let tables = pool
        .install(|| decode_blocks(&blocks, &decoders))
        .expect("tables");
    assert_eq!(tables.num_rows(Table::Errors), 0);
    let dir = temp_dir("row_groups");
    let (first, last) = (blocks[0].number, blocks[79].number);
    pool.install(|| {
        write_partition(&dir, first, last, &tables, "row_groups test", Gaps::Refused)
            .and_then(Staged::commit)
    })
    .expect("written");

    for (table, groups) in [(Table::Extrinsics, 3), (Table::Blocks, 1)] {
        let path = partition_path(&dir, table, first, last);
        let reader =
            SerializedFileReader::new(std::fs::File::open(&path).expect("file")).expect("parquet");
        assert_eq!(
            reader.metadata().num_row_groups(),
            groups,
            "{}",
            table.name()
        );
        let expected = sorted(&tables, table);
        let mut at = 0;
        for batch in read_parquet(&path) {
            assert_eq!(
                batch,
                expected.slice(at, batch.num_rows()),
                "{}",
                table.name()
            );
            at += batch.num_rows();
        }
        assert_eq!(at, expected.num_rows(), "{}", table.name());
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `table`'s rows in the files' order: `extrinsics` by (pallet, call,
/// block, index), `blocks` by number.
fn sorted(tables: &Tables, table: Table) -> RecordBatch {
    let all = tables.concat(table).expect("concat");
    let text = |name: &str| {
        all.column_by_name(name)
            .expect(name)
            .as_string::<i32>()
            .clone()
    };
    let number = |name: &str| {
        let column = all.column_by_name(name).expect(name);
        let as_u64 = column
            .as_any()
            .downcast_ref::<UInt64Array>()
            .map(|a| a.values().to_vec());
        as_u64.unwrap_or_else(|| {
            let a = column.as_any().downcast_ref::<UInt32Array>().expect(name);
            a.values().iter().map(|v| u64::from(*v)).collect()
        })
    };
    let mut order: Vec<u32> = (0..all.num_rows() as u32).collect();
    match table {
        Table::Extrinsics => {
            let (pallet, call) = (text("pallet"), text("call"));
            let (block, index) = (number("block_number"), number("index"));
            order.sort_by_key(|&r| {
                let r = r as usize;
                (
                    pallet.value(r).to_owned(),
                    call.value(r).to_owned(),
                    block[r],
                    index[r],
                )
            });
        }
        Table::Blocks => {
            let block = number("number");
            order.sort_by_key(|&r| block[r as usize]);
        }
        other => panic!("no order for {}", other.name()),
    }
    arrow_select::take::take_record_batch(&all, &UInt32Array::from(order)).expect("take")
}
