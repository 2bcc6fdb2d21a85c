//! A large table is written as several row groups, built and compressed
//! side by side: the file reads back as exactly the sorted batch, in as many
//! row groups as the pool has threads (while that keeps each under 16 MiB),
//! each sorted by pallet and name.

mod common;

use arrow_array::cast::AsArray;
use common::*;
use ferroscale_index::partition::{partition_path, write_partition};
use ferroscale_index::pipeline::decode_blocks;
use ferroscale_index::tables::{record_batch, sort_rows};
use ferroscale_index::{Block, Table};
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
    let mut rows = pool.install(|| decode_blocks(&blocks, &decoders));
    assert!(rows.errors.is_empty(), "{:?}", rows.errors);
    let dir = temp_dir("row_groups");
    let (first, last) = (blocks[0].number, blocks[79].number);
    pool.install(|| write_partition(&dir, first, last, &mut rows))
        .expect("written");
    sort_rows(&mut rows);

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
        let expected = record_batch(table, &rows).expect("batch");
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
    // Every row group of `extrinsics` is itself in (pallet, name) order.
    let extrinsics = record_batch(Table::Extrinsics, &rows).expect("batch");
    let pallets = extrinsics
        .column_by_name("pallet")
        .expect("pallet")
        .as_string::<i32>();
    let calls = extrinsics
        .column_by_name("call")
        .expect("call")
        .as_string::<i32>();
    let keys: Vec<(&str, &str)> = pallets
        .iter()
        .zip(calls.iter())
        .map(|(p, c)| (p.unwrap(), c.unwrap()))
        .collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    std::fs::remove_dir_all(&dir).ok();
}
