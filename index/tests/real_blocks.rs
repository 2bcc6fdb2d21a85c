//! The pipeline over real Polkadot blocks (10,000,000 and 18,468,942, two
//! runtimes): the Parquet read back has the rows an independent count
//! gives, every JSON column equals the dynamic layer's value for its item,
//! success flags match the events, and a rerun skips finished partitions.

mod common;

use std::collections::HashMap;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use common::*;
use ferroscale_dynamic::registry::Registry;
use ferroscale_index::partition::partition_path;
use ferroscale_index::source::{block_to_json_line, JsonLines};
use ferroscale_index::{run, Block, Gaps, Options, Table};
use ferroscale_metadata::Metadata;
use ferroscale_value::Value;

/// Both blocks as a JSON-lines file, written at test time.
fn write_source(dir: &Path, blocks: &[Block]) -> std::path::PathBuf {
    let path = dir.join("blocks.jsonl");
    let text: String = blocks
        .iter()
        .map(|b| block_to_json_line(b) + "\n")
        .collect();
    std::fs::write(&path, text).expect("write source");
    path
}

fn run_file(source: &Path, out: &Path) -> ferroscale_index::Summary {
    let file = std::io::BufReader::new(std::fs::File::open(source).expect("source"));
    let mut options = Options::new(out);
    // Both blocks in partitions of their own; two blocks far apart are a
    // sample of the chain.
    options.partition_blocks = 1_000_000;
    options.gaps = Gaps::Allowed;
    run(JsonLines::new(file), &mut decoders(), &options).expect("pipeline")
}

/// The dynamic layer's values for a block, decoded apart from the indexer:
/// a registry of its own, type strings, SS58 format 0 (Polkadot).
struct Independent {
    extrinsics: Vec<Value>,
    events: Option<Vec<Value>>,
}

fn independent(block: &Block, metadata: &str) -> Independent {
    let bytes = ferroscale_fixtures::read(metadata);
    let mut registry = Registry::new();
    registry.load_metadata(&bytes).expect("metadata");
    registry.set_ss58_format(Some(0));
    let extrinsics = block
        .extrinsics
        .iter()
        .map(|x| registry.decode("Extrinsic", x).expect("extrinsic"))
        .collect();
    let events = block.events.as_ref().map(|e| {
        let md = Metadata::load(&bytes).expect("metadata model");
        let system = md
            .pallets
            .iter()
            .find(|p| p.name == "System")
            .expect("System");
        let entry = system
            .storage
            .as_ref()
            .and_then(|s| s.entries.iter().find(|e| e.name == "Events"))
            .expect("System.Events");
        let v = registry
            .decode(&entry.value.to_string(), e)
            .expect("events");
        v.as_items().expect("list").to_vec()
    });
    Independent { extrinsics, events }
}

fn table(out: &Path, t: Table, block: u64) -> RecordBatch {
    let mut batches = read_parquet(&partition_path(out, t, block, block));
    // A one-block partition is far below a row group and a read batch; an
    // empty table has no row group.
    assert!(batches.len() <= 1, "{} of block {block}", t.name());
    batches
        .pop()
        .unwrap_or_else(|| RecordBatch::new_empty(t.schema()))
}

fn strs(b: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let c = b
        .column_by_name(name)
        .unwrap_or_else(|| panic!("column {name}"));
    let c = c.as_string::<i32>();
    (0..c.len())
        .map(|i| c.is_valid(i).then(|| c.value(i).to_string()))
        .collect()
}

fn u32s(b: &RecordBatch, name: &str) -> Vec<Option<u32>> {
    let c = b
        .column_by_name(name)
        .unwrap_or_else(|| panic!("column {name}"))
        .as_primitive::<UInt32Type>();
    (0..c.len())
        .map(|i| c.is_valid(i).then(|| c.value(i)))
        .collect()
}

fn bools(b: &RecordBatch, name: &str) -> Vec<Option<bool>> {
    let c = b
        .column_by_name(name)
        .unwrap_or_else(|| panic!("column {name}"))
        .as_boolean();
    (0..c.len())
        .map(|i| c.is_valid(i).then(|| c.value(i)))
        .collect()
}

#[test]
fn real_blocks_to_parquet_and_back() {
    let dir = temp_dir("real");
    let blocks = [block_10000000(), block_18468942()];
    let source = write_source(&dir, &blocks);
    let out = dir.join("out");
    let summary = run_file(&source, &out);
    println!("{summary}");
    assert_eq!(summary.blocks, 2);
    assert_eq!(summary.partitions, 2);
    assert_eq!(summary.errors, 0, "{summary}");

    let metas = [META_9180, META_1000001];
    for (block, meta) in blocks.iter().zip(metas) {
        let n = block.number;
        let expect = independent(block, meta);

        // blocks
        let b = table(&out, Table::Blocks, n);
        assert_eq!(b.num_rows(), 1);
        assert_eq!(b.column(0).as_primitive::<UInt64Type>().value(0), n);
        assert_eq!(strs(&b, "hash"), vec![Some(block.hash.clone())]);
        assert_eq!(u32s(&b, "spec_version"), vec![Some(block.spec_version)]);
        assert_eq!(
            u32s(&b, "extrinsic_count"),
            vec![Some(block.extrinsics.len() as u32)]
        );
        let event_count = block.events.as_ref().map(|e| compact_prefix(e) as u32);
        assert_eq!(u32s(&b, "event_count"), vec![event_count]);

        // events: one row per record (the vector's own count prefix), each
        // row's JSON the record's attributes, phase and index from the record.
        let ev = table(&out, Table::Events, n);
        let records = expect.events.clone().unwrap_or_default();
        assert_eq!(ev.num_rows() as u32, event_count.unwrap_or(0));
        assert_eq!(ev.num_rows(), records.len());
        let (idx, args, pallets, names) = (
            u32s(&ev, "index"),
            strs(&ev, "args"),
            strs(&ev, "pallet"),
            strs(&ev, "name"),
        );
        let xt_idx = u32s(&ev, "extrinsic_index");
        let phases = strs(&ev, "phase");
        let topics = ev
            .column_by_name("topics")
            .expect("topics")
            .as_list::<i32>();
        let mut outcome: HashMap<u32, bool> = HashMap::new();
        for row in 0..ev.num_rows() {
            let r = &records[idx[row].expect("index") as usize];
            assert_eq!(
                parse_json(args[row].as_deref().unwrap()),
                expected_json(r.get("attributes").unwrap())
            );
            assert_eq!(
                pallets[row].as_deref(),
                r.get("module_id").and_then(Value::as_str)
            );
            assert_eq!(
                names[row].as_deref(),
                r.get("event_id").and_then(Value::as_str)
            );
            assert_eq!(
                phases[row].as_deref(),
                r.get("phase").and_then(Value::as_str)
            );
            assert_eq!(
                xt_idx[row].map(u128::from),
                r.get("extrinsic_idx").and_then(Value::as_u128)
            );
            let t = topics.value(row);
            assert_eq!(
                t.len(),
                r.get("topics").and_then(Value::as_items).unwrap().len()
            );
            if let (Some("System"), Some(name), Some(x)) = (
                r.get("module_id").and_then(Value::as_str),
                r.get("event_id").and_then(Value::as_str),
                r.get("extrinsic_idx").and_then(Value::as_u128),
            ) {
                match name {
                    "ExtrinsicSuccess" => assert!(outcome.insert(x as u32, true).is_none()),
                    "ExtrinsicFailed" => assert!(outcome.insert(x as u32, false).is_none()),
                    _ => {}
                }
            }
        }
        // Sorted by pallet and name within the partition.
        let keys: Vec<_> = pallets.iter().zip(&names).collect();
        assert!(
            keys.windows(2).all(|w| w[0] <= w[1]),
            "events sorted by pallet, name"
        );

        // extrinsics: one row per extrinsic; JSON columns equal the values.
        let xt = table(&out, Table::Extrinsics, n);
        assert_eq!(xt.num_rows(), block.extrinsics.len());
        let (index, args, pallet, call, hash, address, success, signed) = (
            u32s(&xt, "index"),
            strs(&xt, "args"),
            strs(&xt, "pallet"),
            strs(&xt, "call"),
            strs(&xt, "hash"),
            strs(&xt, "address"),
            bools(&xt, "success"),
            bools(&xt, "signed"),
        );
        let (nonce, tip, era, extensions) = (
            xt.column_by_name("nonce")
                .unwrap()
                .as_primitive::<UInt64Type>(),
            strs(&xt, "tip"),
            strs(&xt, "era"),
            strs(&xt, "extensions"),
        );
        let version = xt
            .column_by_name("version")
            .unwrap()
            .as_primitive::<UInt8Type>();
        let length = u32s(&xt, "length");
        for row in 0..xt.num_rows() {
            let i = index[row].unwrap() as usize;
            let v = &expect.extrinsics[i];
            let c = v.get("call").unwrap();
            assert_eq!(
                parse_json(args[row].as_deref().unwrap()),
                expected_json(c.get("call_args").unwrap())
            );
            assert_eq!(
                pallet[row].as_deref(),
                c.get("call_module").and_then(Value::as_str)
            );
            assert_eq!(
                call[row].as_deref(),
                c.get("call_function").and_then(Value::as_str)
            );
            assert_eq!(
                hash[row].as_deref(),
                v.get("extrinsic_hash").and_then(Value::as_str)
            );
            assert_eq!(
                length[row].map(u128::from),
                v.get("extrinsic_length").and_then(Value::as_u128)
            );
            assert_eq!(version.value(row), 4, "these runtimes predate format 5");
            assert_eq!(
                address[row].as_deref(),
                v.get("address").and_then(Value::as_str)
            );
            assert_eq!(signed[row], Some(v.get("address").is_some()));
            if v.get("address").is_some() {
                assert_eq!(
                    Some(nonce.value(row) as u128),
                    v.get("nonce").and_then(Value::as_u128)
                );
                assert!(nonce.is_valid(row));
                assert_eq!(
                    parse_json(tip[row].as_deref().unwrap()),
                    expected_json(v.get("tip").unwrap())
                );
                assert_eq!(
                    parse_json(era[row].as_deref().unwrap()),
                    expected_json(v.get("era").unwrap())
                );
                let J::O(ext) = parse_json(extensions[row].as_deref().unwrap()) else {
                    panic!("extensions is an object")
                };
                for (k, val) in &ext {
                    assert_eq!(*val, expected_json(v.get(k).unwrap()), "extension {k}");
                }
                assert!(ext.iter().any(|(k, _)| k == "nonce"));
            } else {
                assert!(!nonce.is_valid(row) && tip[row].is_none() && extensions[row].is_none());
            }
            // Success from the events; every extrinsic of a block with events has one.
            match &expect.events {
                Some(_) => assert_eq!(success[row], Some(outcome[&(i as u32)]), "extrinsic {i}"),
                None => assert_eq!(success[row], None),
            }
        }
        if block.events.is_some() {
            assert_eq!(
                outcome.len(),
                block.extrinsics.len(),
                "one outcome event per extrinsic"
            );
            assert_eq!(
                signed.iter().filter(|s| **s == Some(true)).count(),
                2,
                "block 18468942: 2 signed"
            );
        }

        // calls: every call of every extrinsic, nested ones under their parent.
        let calls = table(&out, Table::Calls, n);
        let expected_calls: Vec<(u32, Vec<FlatCall>)> = expect
            .extrinsics
            .iter()
            .enumerate()
            .map(|(i, v)| (i as u32, flatten(v.get("call").unwrap())))
            .collect();
        // Only nested calls have rows (the extrinsic's own call, index 0, is
        // its extrinsics row).
        let total: usize = expected_calls
            .iter()
            .map(|(_, c)| c.iter().filter(|(_, _, depth, _)| *depth > 0).count())
            .sum();
        assert_eq!(calls.num_rows(), total);
        let (cx, ci, cp, cd, ca) = (
            u32s(&calls, "extrinsic_index"),
            u32s(&calls, "index"),
            u32s(&calls, "parent_index"),
            u32s(&calls, "depth"),
            strs(&calls, "args"),
        );
        for row in 0..calls.num_rows() {
            let (_, list) = &expected_calls[cx[row].unwrap() as usize];
            let (index, parent, depth, args) = &list[ci[row].unwrap() as usize];
            assert!(*depth > 0);
            assert_eq!(
                (ci[row], cp[row], cd[row]),
                (Some(*index), *parent, Some(*depth))
            );
            assert_eq!(parse_json(ca[row].as_deref().unwrap()), *args);
        }
        let errors = read_parquet(&partition_path(&out, Table::Errors, n, n));
        assert_eq!(errors.iter().map(|b| b.num_rows()).sum::<usize>(), 0);
    }

    // The files are zstd and record their sort order.
    let file =
        std::fs::File::open(partition_path(&out, Table::Events, 18_468_942, 18_468_942)).unwrap();
    let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
    use parquet::file::reader::FileReader;
    let rg = reader.metadata().row_group(0);
    assert!(rg
        .columns()
        .iter()
        .all(|c| matches!(c.compression(), parquet::basic::Compression::ZSTD(_))));
    assert!(rg.sorting_columns().is_some_and(|s| !s.is_empty()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A call as the `calls` table must hold it: (index, parent index, depth, args JSON).
type FlatCall = (u32, Option<u32>, u32, J);

/// Every call inside `call` in pre-order: (index, parent index, depth, args JSON),
/// found by walking the value independently of the indexer.
fn flatten(call: &Value) -> Vec<FlatCall> {
    fn is_call(v: &Value) -> bool {
        v.get("call_module").is_some()
            && v.get("call_function").is_some()
            && v.get("call_args").is_some()
    }
    fn walk(v: &Value, parent: Option<u32>, depth: u32, out: &mut Vec<FlatCall>) {
        if is_call(v) {
            let me = out.len() as u32;
            let args = v.get("call_args").unwrap();
            out.push((me, parent, depth, expected_json(args)));
            inner(args, me, depth, out);
        }
    }
    fn inner(v: &Value, parent: u32, depth: u32, out: &mut Vec<FlatCall>) {
        if is_call(v) {
            return walk(v, Some(parent), depth + 1, out);
        }
        match v {
            Value::List(i) | Value::Tuple(i) => i.iter().for_each(|x| inner(x, parent, depth, out)),
            Value::Dict(e) => e.iter().for_each(|(_, x)| inner(x, parent, depth, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(call, None, 0, &mut out);
    out
}

#[test]
fn rerun_skips_finished_partitions_and_redoes_incomplete_ones() {
    let dir = temp_dir("resume");
    let source = write_source(&dir, &[block_10000000(), block_18468942()]);
    let out = dir.join("out");
    let first = run_file(&source, &out);
    assert_eq!((first.partitions, first.skipped_partitions), (2, 0));
    let kept = partition_path(&out, Table::Extrinsics, 10_000_000, 10_000_000);
    let modified = std::fs::metadata(&kept).unwrap().modified().unwrap();

    let second = run_file(&source, &out);
    assert_eq!((second.partitions, second.skipped_partitions), (0, 2));
    assert_eq!((second.blocks, second.skipped_blocks), (0, 2));
    assert_eq!(
        std::fs::metadata(&kept).unwrap().modified().unwrap(),
        modified
    );

    // Killed between the manifest entry and the renames: the next run
    // renames the files into place and decodes nothing again.
    let pending = partition_path(&out, Table::Calls, 18_468_942, 18_468_942);
    let tmp = pending.with_file_name(".blocks_18468942_18468942.parquet.tmp");
    std::fs::rename(&pending, &tmp).unwrap();
    let third = run_file(&source, &out);
    assert_eq!((third.partitions, third.skipped_partitions), (0, 2));
    assert!(pending.is_file() && !tmp.exists());

    // A file gone, or a temporary file that is not the one the manifest
    // describes: the run stops, naming the file, and decodes nothing.
    std::fs::remove_file(&pending).unwrap();
    std::fs::write(&tmp, b"half").unwrap();
    let file = std::io::BufReader::new(std::fs::File::open(&source).unwrap());
    let error = run(JsonLines::new(file), &mut decoders(), &Options::new(&out))
        .expect_err("a partition's file is gone")
        .to_string();
    assert!(
        error.contains("calls/blocks_18468942_18468942.parquet is missing"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
