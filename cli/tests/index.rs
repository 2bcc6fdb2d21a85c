//! `ferroscale index` run as a user runs it, on real Polkadot blocks
//! (10,000,000 and 18,468,942, two runtimes) written as a JSON-lines file:
//! the summary counts what an independent decoding counts, the Parquet read
//! back has those rows with each row group sorted by pallet and name, the
//! range options select blocks, and a rerun skips finished partitions.

#![cfg(feature = "index")]

mod common;

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::Array;
use common::*;
use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::{Metadata, TypeRef};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ferroscale"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The JSON summary of `ferroscale ARGS`, which must succeed in silence.
fn ok_json(args: &[&str]) -> serde_json::Value {
    let out = run(args);
    // stderr is a pipe here: no progress line, nothing at all.
    assert!(
        out.stderr.is_empty() || !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    common::ok_json(&out)
}

/// Blocks 0–2 of spec 9180 (block 10,000,000's extrinsics), 100–104 and
/// 200 of spec 1,000,001 (block 18,468,942 with its events).
fn write_source(dir: &Path) -> PathBuf {
    let (x10, x18) = (extrinsics(BLOCK_10M), extrinsics(BLOCK_18M));
    let events = ferroscale_fixtures::read_string(EVENTS_18M);
    let events = events.trim();
    let mut text = String::new();
    for n in 0..3 {
        text += &line(n, 9180, &x10, None);
    }
    for n in (100..105).chain([200]) {
        text += &line(n, 1_000_001, &x18, Some(events));
    }
    let path = dir.join("blocks.jsonl");
    std::fs::write(&path, text).expect("source");
    path
}

/// (pallet, event) → count over block 18,468,942's events, decoded by the
/// dynamic layer apart from the indexer.
fn independent_event_counts() -> BTreeMap<(String, String), u64> {
    let bytes = ferroscale_fixtures::read(META_1000001);
    let md = Metadata::load(&bytes).expect("metadata");
    let entry = md
        .pallet("System")
        .and_then(|p| p.storage.as_ref())
        .and_then(|s| s.entries.iter().find(|e| e.name == "Events"))
        .expect("System.Events");
    let TypeRef::Id(id) = entry.value else {
        panic!("V14 storage has a type id")
    };
    let mut registry = Registry::new();
    registry.load_metadata(&bytes).expect("registry");
    let value = registry
        .decode(
            &format!("scale_info::{id}"),
            &ferroscale_fixtures::read_hex(EVENTS_18M),
        )
        .expect("events");
    let mut counts = BTreeMap::new();
    for record in value.as_items().expect("a list") {
        let key = (
            record
                .get("module_id")
                .and_then(|v| v.as_str())
                .unwrap()
                .to_string(),
            record
                .get("event_id")
                .and_then(|v| v.as_str())
                .unwrap()
                .to_string(),
        );
        *counts.entry(key).or_default() += 1;
    }
    counts
}

/// `DIR/polkadot/<spec>.scale`, the layout the RPC source caches in.
fn metadata_dir(dir: &Path) -> PathBuf {
    let md = dir.join("metadata");
    std::fs::create_dir_all(md.join("polkadot")).unwrap();
    for (spec, name) in [(9180, META_9180), (1_000_001, META_1000001)] {
        std::fs::write(
            md.join("polkadot").join(format!("{spec}.scale")),
            ferroscale_fixtures::read(name),
        )
        .unwrap();
    }
    md
}

#[test]
fn index_writes_sorted_partitions_and_resumes() {
    let dir = temp_dir("file");
    let source = write_source(&dir);
    let md = metadata_dir(&dir);
    let out = dir.join("out");
    let (source_s, md_s, out_s) = (
        source.to_str().unwrap(),
        md.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    let args = [
        "index",
        "--source",
        source_s,
        "--metadata-dir",
        md_s,
        "--out",
        out_s,
        "--from",
        "1",
        "--to",
        "199",
        "--partition-blocks",
        "100",
        "--json",
    ];
    // The file is a sample (blocks 0–2, 100–104, 200): refused as it is,
    // naming the first block missing, with the blocks before it written.
    let r = run(&args);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("block 3 is missing"), "{err}");
    std::fs::remove_dir_all(&out).unwrap();
    let args = [&args[..], &["--allow-gaps"]].concat();
    let summary = ok_json(&args);
    let per_block: u64 = independent_event_counts().values().sum();
    assert_eq!(per_block, 58);
    let (x10, x18) = (
        extrinsics(BLOCK_10M).len() as u64,
        extrinsics(BLOCK_18M).len() as u64,
    );
    // Blocks 1, 2 (block 0 is before --from, 200 after --to) and 100–104.
    assert_eq!(summary["blocks"], 7, "{summary}");
    assert_eq!(summary["extrinsics"], 2 * x10 + 5 * x18, "{summary}");
    assert_eq!(summary["events"], 5 * per_block, "{summary}");
    assert_eq!(summary["errors"], 0, "{summary}");
    assert_eq!(summary["partitions"], 2, "{summary}");
    assert_eq!(summary["skipped_partitions"], 0, "{summary}");

    // The events of blocks 100–104 read back: 5 × each block's (pallet,
    // name) counts, every row group sorted by (pallet, name, block, index)
    // and saying so in its metadata.
    let path = out.join("events").join("blocks_100_104.parquet");
    let reader = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    for rg in reader.metadata().row_groups() {
        let sorted: Vec<String> = rg
            .sorting_columns()
            .expect("sorting columns recorded")
            .iter()
            .map(|c| schema.column(c.column_idx as usize).name().to_string())
            .collect();
        assert_eq!(sorted, ["pallet", "name", "block_number", "index"]);
        assert!(rg
            .columns()
            .iter()
            .all(|c| matches!(c.compression(), parquet::basic::Compression::ZSTD(_))));
    }
    let batches = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap())
        .unwrap()
        .build()
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let mut counts: BTreeMap<(String, String), u64> = BTreeMap::new();
    let mut keys = Vec::new();
    for b in &batches {
        let col = |n: &str| b.column_by_name(n).unwrap().clone();
        let (pallet, name) = (col("pallet"), col("name"));
        let (pallet, name) = (pallet.as_string::<i32>(), name.as_string::<i32>());
        let (block, index) = (col("block_number"), col("index"));
        let (block, index) = (
            block.as_primitive::<UInt64Type>(),
            index.as_primitive::<UInt32Type>(),
        );
        for i in 0..b.num_rows() {
            let key = (pallet.value(i).to_string(), name.value(i).to_string());
            keys.push((key.clone(), block.value(i), index.value(i)));
            *counts.entry(key).or_default() += 1;
        }
        assert_eq!(pallet.null_count(), 0);
    }
    let expected: BTreeMap<_, _> = independent_event_counts()
        .into_iter()
        .map(|(k, n)| (k, 5 * n))
        .collect();
    assert_eq!(counts, expected);
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "rows sorted");

    // Extrinsics and calls say they are sorted by pallet and name too (a
    // table without rows has no row group).
    let mut row_groups = 0;
    for (table, second) in [("extrinsics", "call"), ("calls", "name")] {
        for part in ["blocks_1_2.parquet", "blocks_100_104.parquet"] {
            let path = out.join(table).join(part);
            let reader = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
            let schema = reader.metadata().file_metadata().schema_descr_ptr();
            for rg in reader.metadata().row_groups() {
                let cols: Vec<_> = rg
                    .sorting_columns()
                    .expect("sorting columns")
                    .iter()
                    .map(|c| schema.column(c.column_idx as usize).name().to_string())
                    .collect();
                assert_eq!(&cols[..2], ["pallet", second], "{table}");
                row_groups += 1;
            }
        }
    }
    assert!(row_groups >= 2);
    assert!(!out.join("events").join("blocks_0_2.parquet").exists());
    assert!(out.join("events").join("blocks_1_2.parquet").is_file());
    assert!(!out.join("events").join("blocks_200_200.parquet").exists());

    // A rerun skips both partitions and leaves the files alone.
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let again = ok_json(&args);
    assert_eq!(again["blocks"], 0, "{again}");
    assert_eq!(again["skipped_blocks"], 7, "{again}");
    assert_eq!(again["partitions"], 0, "{again}");
    assert_eq!(again["skipped_partitions"], 2, "{again}");
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        modified
    );

    // --check: every block once, the gaps allowed; refused without.
    let out_s = out.to_str().unwrap();
    let r = run(&["index", "--check", out_s, "--allow-gaps"]);
    let report = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{report}");
    assert!(
        report.contains("2 partitions, blocks 1..=104 (7 blocks), 10 files"),
        "{report}"
    );
    // The run was asked for blocks 1–199 (the manifest records it): the
    // 97 blocks between the partitions and the 95 after them are absent.
    assert!(
        report.contains("192 blocks absent (gaps allowed); runs asked for blocks 1..=199"),
        "{report}"
    );
    let r = run(&["index", "--check", out_s]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains(
            "blocks 3..=99 are in no partition, though a run was asked for blocks 1..=199"
        ),
        "{err}"
    );
    assert!(
        err.contains("blocks 105..=199 are in no partition"),
        "{err}"
    );

    // --metadata files instead of the folder, the whole file, text summary.
    let out2 = dir.join("out2");
    let out = run(&[
        "index",
        "--source",
        source_s,
        "--out",
        out2.to_str().unwrap(),
        "--metadata",
        ferroscale_fixtures::path(META_9180).to_str().unwrap(),
        "--metadata",
        ferroscale_fixtures::path(META_1000001).to_str().unwrap(),
        "--allow-gaps",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("9 blocks (0 skipped as done)"), "{text}");
    assert!(
        text.contains("0 errors; partitions: 1 written, 0 skipped"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn index_errors_name_the_problem() {
    let dir = temp_dir("errors");
    let source = write_source(&dir);
    let out = dir.join("out");
    let (source_s, out_s) = (source.to_str().unwrap(), out.to_str().unwrap());

    // No runtimes given.
    let r = run(&["index", "--source", source_s, "--out", out_s]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("--metadata"));

    // A runtime the folder lacks: its blocks become error rows, the run completes.
    let md = dir.join("md");
    std::fs::create_dir_all(md.join("polkadot")).unwrap();
    std::fs::write(
        md.join("polkadot").join("9180.scale"),
        ferroscale_fixtures::read(META_9180),
    )
    .unwrap();
    let summary = ok_json(&[
        "index",
        "--source",
        source_s,
        "--out",
        out_s,
        "--metadata-dir",
        md.to_str().unwrap(),
        "--json",
        "--allow-gaps",
    ]);
    assert_eq!(summary["blocks"], 9, "{summary}");
    // The six blocks of the missing runtime: a row for each of their items
    // (four extrinsics and the events), each with its bytes.
    let per_block = extrinsics(BLOCK_18M).len() as u64 + 1;
    assert_eq!(summary["errors"], 6 * per_block, "{summary}");

    // A file in the folder that is not that spec's metadata stops the run.
    std::fs::copy(
        ferroscale_fixtures::path(META_9180),
        md.join("polkadot").join("1000001.scale"),
    )
    .unwrap();
    let r = run(&[
        "index",
        "--source",
        source_s,
        "--out",
        dir.join("out2").to_str().unwrap(),
        "--metadata-dir",
        md.to_str().unwrap(),
        "--allow-gaps",
    ]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("1000001.scale") && err.contains("spec version 9180"),
        "{err}"
    );

    // A malformed line is named.
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"number\": 1}\n").unwrap();
    let r = run(&[
        "index",
        "--source",
        bad.to_str().unwrap(),
        "--out",
        out_s,
        "--metadata-dir",
        md.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("line 1"));

    // --to before --from.
    let r = run(&[
        "index",
        "--source",
        source_s,
        "--out",
        out_s,
        "--metadata-dir",
        md.to_str().unwrap(),
        "--from",
        "5",
        "--to",
        "4",
    ]);
    assert_eq!(r.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--url`: the same blocks from the loopback test node (spec 9180 up to
/// block 110, which enacts the upgrade; spec 1,000,001 after), metadata
/// fetched into `OUT/metadata`, a rerun fetching nothing.
#[test]
fn index_from_a_node() {
    let (x10, x18) = (extrinsics(BLOCK_10M), extrinsics(BLOCK_18M));
    let server = upgrade_node(|_, _| {})
        .lifetime(std::time::Duration::from_secs(60))
        .start()
        .expect("test node");
    let dir = temp_dir("url");
    let out = dir.join("out");
    let url = server.ws_url();
    let args = [
        "index",
        "--url",
        &url,
        "--from",
        "101",
        "--to",
        "114",
        "--out",
        out.to_str().unwrap(),
        "--partition-blocks",
        "5",
        "--json",
    ];
    let summary = ok_json(&args);
    let (n10, n18) = (x10.len() as u64, x18.len() as u64);
    assert_eq!(summary["blocks"], 14, "{summary}");
    assert_eq!(summary["errors"], 0, "{summary}");
    assert_eq!(summary["extrinsics"], 10 * n10 + 4 * n18, "{summary}");
    assert_eq!(summary["events"], 4 * 58, "{summary}");
    assert_eq!(summary["partitions"], 3, "{summary}");
    for spec in [9180, 1_000_001] {
        assert!(out
            .join("metadata/polkadot")
            .join(format!("{spec}.scale"))
            .is_file());
    }
    let fetched = server.requests("chain_getBlock");
    let again = ok_json(&args);
    assert_eq!(again["skipped_partitions"], 3, "{again}");
    assert_eq!(again["skipped_blocks"], 14, "{again}");
    assert_eq!(again["blocks"], 0, "{again}");
    assert_eq!(server.requests("chain_getBlock"), fetched);

    // --url without a range is a usage error.
    let r = run(&["index", "--url", &url, "--out", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));

    // --follow: every whole partition the finalized head (115) has passed,
    // then waiting for more until SIGTERM, which stops it cleanly with the
    // summary; started again, it resumes with nothing left to do.
    let followed = dir.join("followed");
    let follow = || {
        let child = Command::new(env!("CARGO_BIN_EXE_ferroscale"))
            .args([
                "index", "--url", &url, "--from", "101", "--follow", "--poll", "0.05",
            ])
            .args(["--partition-blocks", "5", "--json", "--out"])
            .arg(&followed)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("follow");
        let done = followed.join("_manifest").join("blocks_110_114.json");
        let started = std::time::Instant::now();
        while !done.exists() && started.elapsed() < std::time::Duration::from_secs(30) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
        let term = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(term.success());
        let out = child.wait_with_output().expect("follow ends");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("JSON summary")
    };
    let first = follow();
    assert_eq!(
        (first["blocks"].as_u64(), first["partitions"].as_u64()),
        (Some(14), Some(3)),
        "{first}"
    );
    let again = follow();
    assert_eq!(
        (again["blocks"].as_u64(), again["skipped_blocks"].as_u64()),
        (Some(0), Some(14)),
        "{again}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--typed`: the typed tables are written beside the generic ones, listed
/// in the manifest (`--check` reads them), and a rerun skips them too.
#[test]
fn index_typed_writes_the_typed_tables() {
    let dir = temp_dir("typed");
    let source = write_source(&dir);
    let md = metadata_dir(&dir);
    let out = dir.join("out");
    let args = [
        "index",
        "--source",
        source.to_str().unwrap(),
        "--metadata-dir",
        md.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--partition-blocks",
        "100",
        "--allow-gaps",
        "--typed",
        "--json",
    ];
    let summary = ok_json(&args);
    assert_eq!(summary["blocks"], 9);
    // Blocks 100–104 (spec 1,000,001) hold two transfers each.
    let transfers = out.join("typed/events/Balances.Transfer/blocks_100_104.parquet");
    let reader = SerializedFileReader::new(File::open(&transfers).expect("typed file")).unwrap();
    assert_eq!(reader.metadata().file_metadata().num_rows(), 10);
    // Timestamp.set of both runtimes, in their own partitions.
    for file in [
        "blocks_0_2.parquet",
        "blocks_100_104.parquet",
        "blocks_200_200.parquet",
    ] {
        assert!(
            out.join("typed/calls/Timestamp.set").join(file).is_file(),
            "{file}"
        );
    }
    let check = run(&["index", "--check", out.to_str().unwrap(), "--allow-gaps"]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{report}");
    assert!(report.contains("typed files"), "{report}");
    let again = ok_json(&args);
    assert_eq!(again["skipped_blocks"], 9);
}

/// A legacy runtime (Polkadot's V12 metadata, spec 30) indexes through the
/// presets its type strings need, typed tables too; without them the run
/// stops at once, saying so.
#[test]
fn index_reads_a_legacy_runtime_through_its_presets() {
    let dir = temp_dir("legacy");
    let x5 = extrinsics(BLOCK_5M);
    let source = dir.join("blocks.jsonl");
    let text: String = (0..3).map(|n| line(n, 30, &x5, None)).collect();
    std::fs::write(&source, text).expect("source");
    let metadata = dir.join("polkadot-30.scale");
    std::fs::write(&metadata, ferroscale_fixtures::read(META_30)).expect("metadata");
    let out = dir.join("out");
    let mut args = vec![
        "index",
        "--source",
        source.to_str().unwrap(),
        "--metadata",
        metadata.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--typed",
        "--json",
    ];
    let refused = run(&args);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("presets"), "{said}");
    args.extend(["--presets", "core,legacy,polkadot"]);
    let summary = ok_json(&args);
    assert_eq!(summary["blocks"], 3);
    assert_eq!(summary["errors"], 0, "{summary}");
    assert_eq!(summary["extrinsics"], 3 * x5.len() as u64);
    let timestamps = out.join("typed/calls/Timestamp.set/blocks_0_2.parquet");
    let reader = SerializedFileReader::new(File::open(&timestamps).expect("typed file")).unwrap();
    assert_eq!(reader.metadata().file_metadata().num_rows(), 3);
    let check = run(&["index", "--check", out.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{report}");
}
