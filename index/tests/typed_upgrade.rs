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
    upgrade_node(|n, block| {
        if n <= 110 {
            block.events = Some(old_events.clone());
        }
    })
    .lifetime(Duration::from_secs(120))
}

/// Indexes blocks 101–114 with `--typed` in partitions of `width` blocks
/// (block 100's parent is not on the node; 115 is its unfinalized head).
fn index(server: &TestServer, out: &Path, metadata: &Path, width: u64) -> Summary {
    index_range(server, out, metadata, (101, 114), width)
}

/// Indexes blocks `from..=to` with `--typed` in partitions of `width` blocks.
fn index_range(
    server: &TestServer,
    out: &Path,
    metadata: &Path,
    (from, to): (u64, u64),
    width: u64,
) -> Summary {
    let client = BlockingClient::connect(&server.ws_url()).expect("connect");
    let source = RpcBlocks::new(
        &client,
        RpcOptions {
            from,
            to,
            partition_blocks: width,
            out: out.to_path_buf(),
            metadata_dir: metadata.to_path_buf(),
            range: RangeOptions::default(),
            unfinalized: false,
        },
    );
    let mut options = Options::new(out);
    options.partition_blocks = width;
    options.from = Some(from);
    options.to = Some(to);
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

/// Every column of every typed file under `out`, by `<kind>/<table>` then
/// column name: the types it has in the files (more than one: readers that
/// join the files by name meet one name with two types).
fn column_types(out: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut columns: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (table, files) in tables(out) {
        for f in files {
            for b in read_parquet(&f) {
                for field in b.schema().fields() {
                    let types = columns.entry(table.clone()).or_default();
                    let types = types.entry(field.name().clone()).or_default();
                    types.insert(field.data_type().to_string());
                }
            }
        }
    }
    columns
}

/// The columns of each spec's `dispatch_info` in the `System.ExtrinsicSuccess`
/// files under `out`: from the `renamed_columns` of their key-value
/// metadata (a field stored under its own name is not listed).
fn dispatch_info_columns(out: &Path) -> BTreeMap<u32, BTreeSet<String>> {
    let mut found: BTreeMap<u32, BTreeSet<String>> = BTreeMap::new();
    for f in &tables(out)["events/System.ExtrinsicSuccess"] {
        let file = std::fs::File::open(f).expect("file");
        let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
            .expect("parquet");
        let metadata: std::collections::HashMap<String, String> = reader
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .into_iter()
            .flatten()
            .filter_map(|kv| Some((kv.key.clone(), kv.value.clone()?)))
            .collect();
        let renamed =
            ferroscale_index::typed::schema::renamed_columns(&metadata).expect("renamed_columns");
        for b in read_parquet(f) {
            for spec in spec_versions(std::slice::from_ref(&b)) {
                let column = renamed
                    .iter()
                    .find(|(s, field, _)| *s == spec && field == "dispatch_info")
                    .map_or("dispatch_info".to_string(), |(_, _, column)| column.clone());
                found.entry(spec).or_default().insert(column);
            }
        }
    }
    found
}

/// A run over the blocks after the upgrade, then one over the blocks before
/// it into the same folder: the second run sees spec 9180 first, and on its
/// own (a new folder) would give it the bare `dispatch_info`; into the
/// folder, it keeps the names the first run wrote (saved in the manifest)
/// and gives spec 9180's type a column of its own. The same holds for a
/// folder written before the names were saved (the file removed here):
/// they are read from its typed files, then saved.
#[test]
fn a_later_run_over_earlier_blocks_keeps_the_names_the_folder_has() {
    let dir = temp_dir("typed-upgrade-later");
    let metadata = dir.join("metadata");
    let server = node().start().expect("test node");
    let fresh = dir.join("fresh");
    let alone = index_range(&server, &fresh, &metadata, (101, 110), 100);
    assert_eq!(alone.blocks, 10);
    // On its own, the earlier range names spec 9180's field `dispatch_info`.
    let one = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    let own = dispatch_info_columns(&fresh);
    assert_eq!(own[&9180], one(&["dispatch_info"]), "{own:?}");

    for saved_before in [true, false] {
        let out = dir.join(format!("saved-{saved_before}"));
        let after = index_range(&server, &out, &metadata, (111, 114), 100);
        let first = column_types(&out);
        let file = out
            .join("_manifest")
            .join(ferroscale_index::saved_naming::FILE);
        assert!(file.is_file(), "{}", file.display());
        if !saved_before {
            std::fs::remove_file(&file).expect("remove the saved naming");
        }
        let before = index_range(&server, &out, &metadata, (101, 110), 100);
        println!("after the upgrade: {after}\nbefore it, into the same folder: {before}");
        assert_eq!((after.blocks, before.blocks), (4, 10));
        assert_eq!((after.errors, before.errors), (0, 0), "{after}\n{before}");

        // Into the folder, spec 1,000,001's keeps the name the first run
        // gave it, in every file.
        let kept = dispatch_info_columns(&out);
        assert_eq!(kept[&1_000_001], one(&["dispatch_info"]), "{kept:?}");
        assert_eq!(kept[&9180], one(&["dispatch_info__v9180"]), "{kept:?}");

        // Every column of the folder has one type in every file, and every
        // column the first run wrote has the type it wrote.
        let all = column_types(&out);
        for (table, columns) in &all {
            for (column, types) in columns {
                assert_eq!(types.len(), 1, "{table}: column {column} is {types:?}");
                if let Some(was) = first.get(table).and_then(|c| c.get(column)) {
                    assert_eq!(was, types, "{table}: column {column}");
                }
            }
        }

        // The manifest holds the naming: each column with the spec it was
        // given for.
        assert!(file.is_file(), "{}", file.display());
        let saved = ferroscale_index::saved_naming::load(&out).expect("saved naming");
        let success: Vec<(String, u32)> = saved
            .columns()
            .into_iter()
            .filter(|(_, table, _)| *table == "System.ExtrinsicSuccess")
            .flat_map(|(_, _, columns)| columns)
            .map(|(f, spec)| (f.name().clone(), spec))
            .collect();
        assert_eq!(
            success,
            [
                ("dispatch_info".to_string(), 1_000_001),
                ("dispatch_info__v9180".to_string(), 9180)
            ]
        );
    }
    let _ = server;
}

/// `--check` holds every typed file to the folder's saved naming: a saved
/// file that no longer names a file's column, or gives it another type, or
/// that does not read, is a problem naming the file and the column.
#[test]
fn check_finds_typed_files_the_saved_naming_does_not_describe() {
    let dir = temp_dir("typed-upgrade-check-naming");
    let server = node().start().expect("test node");
    let out = dir.join("out");
    let summary = index_range(&server, &out, &dir.join("metadata"), (101, 114), 100);
    assert_eq!((summary.blocks, summary.errors), (14, 0), "{summary}");
    let check = || ferroscale_index::check::check(&out, None, ferroscale_index::Gaps::Refused);
    let clean = check();
    assert!(clean.is_ok(), "{clean}");
    assert!(clean.typed_files > 0, "{clean}");

    let file = out
        .join("_manifest")
        .join(ferroscale_index::saved_naming::FILE);
    let original = std::fs::read(&file).expect("the saved naming");
    // One column of System.ExtrinsicSuccess renamed, then retyped, in the
    // saved file: the table's files are found out, each for that column.
    let edit = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut saved: serde_json::Value = serde_json::from_slice(&original).expect("json");
        let tables = saved["tables"].as_array_mut().expect("tables");
        let table = tables
            .iter_mut()
            .find(|t| t["table"] == "System.ExtrinsicSuccess")
            .expect("System.ExtrinsicSuccess is saved");
        change(&mut table["columns"][0]);
        std::fs::write(&file, serde_json::to_vec(&saved).expect("json")).expect("write");
    };
    let problems_of = |report: &ferroscale_index::check::Report| -> Vec<String> {
        report
            .problems
            .iter()
            .filter(|p| p.contains("System.ExtrinsicSuccess"))
            .cloned()
            .collect()
    };
    edit(&|column| column["name"] = "no_such_column".into());
    let renamed = check();
    let found = problems_of(&renamed);
    assert!(!found.is_empty(), "{renamed}");
    assert!(
        found
            .iter()
            .all(|p| p.contains("column dispatch_info is not in the saved naming")),
        "{renamed}"
    );
    edit(&|column| column["type"] = serde_json::json!("Boolean"));
    let retyped = check();
    let found = problems_of(&retyped);
    assert!(!found.is_empty(), "{retyped}");
    assert!(
        found
            .iter()
            .all(|p| p.contains("column dispatch_info is Struct")
                && p.contains("the saved naming gives it as Boolean")),
        "{retyped}"
    );
    std::fs::write(&file, b"{ not json").expect("write");
    let unreadable = check();
    assert!(
        unreadable
            .problems
            .iter()
            .any(|p| p.contains(ferroscale_index::saved_naming::FILE)),
        "{unreadable}"
    );
    std::fs::write(&file, &original).expect("write");
    assert!(check().is_ok());
    let _ = server;
}
