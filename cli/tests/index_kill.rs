//! `ferroscale index` killed with SIGKILL at moments spread over a run,
//! several times, then run to the end: the dataset equals a clean run's
//! row for row, every block once (`--check`), whatever the kills hit
//! (decoding, writing a partition's files, its manifest entry, the
//! renames).

#![cfg(all(feature = "index", unix))]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use ferroscale_index::check::check;
use ferroscale_index::{Gaps, Table};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

const META: &str = "metadata/polkadot-v14-spec1000001.scale";
const BLOCK: &str = "payloads/polkadot-block-18468942";
const BLOCKS: u64 = 300;

fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-index-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Blocks 1000–1299, each Polkadot block 18,468,942 (its extrinsics and
/// 58 events) under its own number.
fn write_source(dir: &Path) -> PathBuf {
    let extrinsics: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        &format!("{BLOCK}/extrinsics.json"),
    ))
    .expect("extrinsics");
    let events = ferroscale_fixtures::read_string(&format!("{BLOCK}/events.hex"));
    let mut text = String::new();
    for n in 1000..1000 + BLOCKS {
        let line = serde_json::json!({
            "number": n,
            "hash": format!("0x{n:064x}"),
            "spec_version": 1_000_001,
            "extrinsics": extrinsics,
            "events": events.trim(),
        });
        text += &format!("{line}\n");
    }
    let path = dir.join("blocks.jsonl");
    std::fs::write(&path, text).expect("source");
    path
}

fn command(source: &Path, out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ferroscale"));
    c.arg("index")
        .arg("--source")
        .arg(source)
        .arg("--out")
        .arg(out)
        .arg("--metadata")
        .arg(ferroscale_fixtures::path(META))
        .args(["--partition-blocks", "10", "--threads", "2"]);
    c
}

/// Every row of every table, as text, sorted.
fn rows(out: &Path) -> Vec<String> {
    let mut all = Vec::new();
    for table in Table::ALL {
        let Ok(listing) = std::fs::read_dir(out.join(table.name())) else {
            continue;
        };
        for path in listing.map(|e| e.unwrap().path()) {
            if path.extension().is_none_or(|x| x != "parquet") {
                continue;
            }
            let file = std::fs::File::open(&path).unwrap();
            let reader = ParquetRecordBatchReaderBuilder::try_new(file)
                .unwrap()
                .build()
                .unwrap();
            for batch in reader {
                let batch = batch.unwrap();
                for i in 0..batch.num_rows() {
                    let cells: Vec<String> = batch
                        .columns()
                        .iter()
                        .map(|c| format!("{:?}", c.slice(i, 1)))
                        .collect();
                    all.push(format!("{}: {}", table.name(), cells.join(" | ")));
                }
            }
        }
    }
    all.sort();
    all
}

#[test]
fn killed_runs_resume_to_the_clean_dataset() {
    let dir = temp_dir("kill");
    let source = write_source(&dir);
    let clean = dir.join("clean");
    let started = Instant::now();
    let status = command(&source, &clean).status().expect("clean run");
    assert!(status.success());
    let whole = started.elapsed();

    // Kills at fractions of a clean run's time, each run resuming the one
    // before; then a run to the end.
    let out = dir.join("killed");
    let mut killed = 0;
    for fraction in [0.1, 0.25, 0.4, 0.55, 0.7, 0.85] {
        let mut child = command(&source, &out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("run");
        std::thread::sleep(whole.mul_f64(fraction).max(Duration::from_millis(20)));
        if child.try_wait().expect("status").is_none() {
            child.kill().expect("SIGKILL");
            killed += 1;
        }
        child.wait().expect("reaped");
    }
    let last = command(&source, &out).output().expect("last run");
    assert!(
        last.status.success(),
        "{}",
        String::from_utf8_lossy(&last.stderr)
    );
    println!(
        "{killed} runs killed; the last: {}",
        String::from_utf8_lossy(&last.stdout)
    );
    assert!(
        killed >= 3,
        "only {killed} runs were still going when killed"
    );
    let report = check(&out, Some((1000, 1000 + BLOCKS - 1)), Gaps::Refused);
    assert!(report.is_ok(), "{report}");
    assert_eq!(rows(&out), rows(&clean));
    let _ = std::fs::remove_dir_all(&dir);
}
