//! Typed tables over the loopback node's runtime upgrade (blocks 101–110
//! on spec 9180, 111–114 on spec 1,000,001, as `common::upgrade_node`),
//! read from the node with the runtimes' metadata loaded from a folder as
//! the blocks need them: the range written as one partition and as one
//! partition per block gives the same tables, column for column and row
//! for row, once the per-block files are joined by column name (as
//! DuckDB's `union_by_name` and pyarrow's `unify_schemas` join them), and
//! every column name holds one Arrow type in every file. A second run
//! writes byte-identical schemas.
//!
//! The fixture has no events for block 10,000,000, so the spec 9180 blocks
//! here carry an `ExtrinsicSuccess` per extrinsic, written byte by byte in
//! spec 9180's types (the run decodes them without an error): its
//! `dispatch_info` is another Arrow type in spec 1,000,001 (`weight` became
//! a struct), the retyped field that must get a column of its own in every
//! partition.

#![cfg(feature = "rpc")]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt32Type;
use arrow_array::{new_null_array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Schema};
use common::*;
use ferroscale_index::rpc_source::{RpcBlocks, RpcOptions};
use ferroscale_index::{run, Decoders, Options, Summary};
use ferroscale_rpc::test_server::{TestNode, TestServer};
use ferroscale_rpc::{BlockingClient, RangeOptions};

/// `System.Events` of a spec 9180 block of `n` extrinsics: an
/// `ExtrinsicSuccess` for each (phase `ApplyExtrinsic(i)`; `DispatchInfo {
/// weight: u64, class: Mandatory, pays_fee: Yes }`; no topics).
fn events_9180(n: u32) -> Vec<u8> {
    let mut v = vec![(n as u8) << 2]; // compact length
    for i in 0..n {
        v.push(0); // Phase::ApplyExtrinsic
        v.extend(i.to_le_bytes());
        v.extend([0, 0]); // System (pallet 0), ExtrinsicSuccess (event 0)
        v.extend((1_000_000 * u64::from(i + 1)).to_le_bytes()); // weight
        v.extend([2, 0]); // DispatchClass::Mandatory, Pays::Yes
        v.push(0); // topics: []
    }
    v
}

/// The loopback node of `common::upgrade_node`, with events in the spec
/// 9180 blocks ([`events_9180`]).
fn node() -> TestNode {
    let old_events = events_9180(block_10000000().extrinsics.len() as u32);
    upgrade_node_with(|n, block| {
        if n <= 110 {
            block.events = Some(old_events.clone());
        }
    })
    .lifetime(Duration::from_secs(120))
}

/// Indexes blocks 101–114 with `--typed` in partitions of `width` blocks
/// (block 100's parent is not on the node; 115 is its unfinalized head).
fn index(server: &TestServer, out: &Path, metadata: &Path, width: u64) -> Summary {
    let client = BlockingClient::connect(&server.ws_url()).expect("connect");
    let source = RpcBlocks::new(
        &client,
        RpcOptions {
            from: 101,
            to: 114,
            partition_blocks: width,
            out: out.to_path_buf(),
            metadata_dir: metadata.to_path_buf(),
            range: RangeOptions::default(),
            unfinalized: false,
        },
    );
    let mut options = Options::new(out);
    options.partition_blocks = width;
    options.typed = true;
    run(
        source,
        &mut Decoders::with_metadata_dir(metadata, None),
        &options,
    )
    .expect("run")
}

/// Every typed table's files, by `<kind>/<table>`.
fn tables(out: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut tables = BTreeMap::new();
    for kind in ["events", "calls"] {
        let Ok(dirs) = std::fs::read_dir(out.join("typed").join(kind)) else {
            continue;
        };
        for d in dirs {
            let d = d.expect("dir").path();
            let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
                .expect("table dir")
                .map(|f| f.expect("file").path())
                .collect();
            files.sort();
            let name = d.file_name().unwrap().to_string_lossy().to_string();
            tables.insert(format!("{kind}/{name}"), files);
        }
    }
    tables
}

/// The `ARROW:schema` entry of a Parquet file: its Arrow schema, serialized.
fn arrow_schema_bytes(path: &Path) -> String {
    let file = std::fs::File::open(path).expect("file");
    let builder = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("parquet");
    builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|k| k.key == "ARROW:schema"))
        .and_then(|k| k.value.clone())
        .unwrap_or_else(|| panic!("{}: no ARROW:schema", path.display()))
}

/// `batch` with `schema`'s columns by name, NULL where it has none.
fn by_name(batch: &RecordBatch, schema: &Arc<Schema>) -> RecordBatch {
    let columns: Vec<ArrayRef> = schema
        .fields()
        .iter()
        .map(|f| match batch.column_by_name(f.name()) {
            Some(c) => c.clone(),
            None => new_null_array(f.data_type(), batch.num_rows()),
        })
        .collect();
    RecordBatch::try_new(schema.clone(), columns).expect("joined by name")
}

fn spec_versions(batches: &[RecordBatch]) -> BTreeSet<u32> {
    batches
        .iter()
        .flat_map(|b| {
            let s = b.column_by_name("spec_version").expect("spec_version");
            s.as_primitive::<UInt32Type>().values().to_vec()
        })
        .collect()
}

#[test]
fn a_range_across_the_upgrade_reads_back_as_one_table_per_item() {
    let dir = temp_dir("typed-upgrade");
    let metadata = dir.join("metadata");
    let server = node().start().expect("test node");
    let one = index(&server, &dir.join("one"), &metadata, 100);
    let split = index(&server, &dir.join("split"), &metadata, 1);
    let again = index(&server, &dir.join("again"), &metadata, 1);
    println!("one partition: {one}\none per block: {split}");
    assert_eq!((one.blocks, split.blocks, again.blocks), (14, 14, 14));
    assert_eq!((one.errors, split.errors), (0, 0), "{one}\n{split}");
    // Two `ExtrinsicSuccess` in each of the ten 9180 blocks, 58 events in
    // each of the four others.
    assert_eq!(
        (one.events, split.events),
        (10 * 2 + 4 * 58, 10 * 2 + 4 * 58)
    );
    assert_eq!((one.partitions, split.partitions), (1, 14));

    let (one, split, again) = (
        tables(&dir.join("one")),
        tables(&dir.join("split")),
        tables(&dir.join("again")),
    );
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        split.keys().collect::<Vec<_>>()
    );
    let (mut both, mut rows, mut retyped) = (Vec::new(), 0, Vec::new());
    for (table, files) in &one {
        assert_eq!(files.len(), 1, "{table}: {files:?}");
        let whole: Vec<RecordBatch> = read_parquet(&files[0]);
        // The schema without its metadata (which lists the file's runtimes).
        let schema = Arc::new(Schema::new(whole[0].schema().fields().clone()));
        let parts = &split[table];

        // Byte-identical schemas, run to run.
        let repeated = &again[table];
        assert_eq!(parts.len(), repeated.len(), "{table}");
        for (a, b) in parts.iter().zip(repeated) {
            assert_eq!(
                arrow_schema_bytes(a),
                arrow_schema_bytes(b),
                "{}",
                a.display()
            );
        }

        // Every column name holds one type in every file, and the files'
        // columns together are the whole range's.
        let mut types: BTreeMap<String, DataType> = BTreeMap::new();
        let mut split_batches = Vec::new();
        for f in parts {
            for b in read_parquet(f) {
                for field in b.schema().fields() {
                    let ty = types
                        .entry(field.name().clone())
                        .or_insert_with(|| field.data_type().clone());
                    assert_eq!(ty, field.data_type(), "{table}: column {}", field.name());
                }
                split_batches.push(by_name(&b, &schema));
            }
        }
        let names: BTreeSet<&String> = schema.fields().iter().map(|f| f.name()).collect();
        assert_eq!(types.keys().collect::<BTreeSet<_>>(), names, "{table}");
        for f in schema.fields() {
            assert_eq!(&types[f.name()], f.data_type(), "{table}: {}", f.name());
            if f.name().contains("__v") {
                retyped.push(format!("{table}.{}", f.name()));
            }
        }

        // Row for row: the per-block files joined by name are the one
        // partition's table.
        let whole = arrow_select::concat::concat_batches(
            &schema,
            &whole
                .iter()
                .map(|b| by_name(b, &schema))
                .collect::<Vec<_>>(),
        )
        .expect("concat");
        let joined = arrow_select::concat::concat_batches(&schema, &split_batches).expect("concat");
        assert_eq!(whole, joined, "{table}");
        rows += whole.num_rows();
        if spec_versions(&[whole]).len() == 2 {
            both.push(table.clone());
        }
    }
    println!(
        "{} typed tables, {rows} rows; over both runtimes: {both:?}; retyped columns: {retyped:?}",
        one.len()
    );
    // Timestamp.set, ParaInherent.enter and ExtrinsicSuccess are in every
    // block, before and after the upgrade; ExtrinsicSuccess's dispatch_info
    // was retyped.
    for table in [
        "calls/Timestamp.set",
        "calls/ParaInherent.enter",
        "events/System.ExtrinsicSuccess",
    ] {
        assert!(both.contains(&table.to_string()), "{table}: {both:?}");
    }
    assert_eq!(
        retyped,
        ["events/System.ExtrinsicSuccess.dispatch_info__v1000001"]
    );
    let _ = server;
}
