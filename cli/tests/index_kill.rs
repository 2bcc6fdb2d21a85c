//! `ferroscale index` killed with SIGKILL at moments spread over a run,
//! several times, then run to the end: the dataset equals a clean run's
//! row for row, every block once (`--check`), whatever the kills hit
//! (decoding, writing a partition's files, its manifest entry, the
//! renames).

#![cfg(all(feature = "index", unix))]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::*;
use ferroscale_index::check::check;
use ferroscale_index::Gaps;

const BLOCKS: u64 = 300;

/// Blocks 1000–1299, each Polkadot block 18,468,942 (its extrinsics and
/// 58 events) under its own number.
fn write_source(dir: &Path) -> PathBuf {
    let extrinsics = extrinsics(BLOCK_18M);
    let events = ferroscale_fixtures::read_string(EVENTS_18M);
    let text: String = (1000..1000 + BLOCKS)
        .map(|n| line(n, 1_000_001, &extrinsics, Some(events.trim())))
        .collect();
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
        .arg(ferroscale_fixtures::path(META_1000001))
        .args(["--partition-blocks", "10", "--threads", "2"]);
    c
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

    // Kills at a quarter to a third of a clean run's time, each run
    // resuming the one before; then a run to the end. Each run starts up
    // and skips what is done before it decodes, so every kill still finds
    // its run going, and together the kills fall at many points of the
    // work (here 40–75 % of it was done by the six). Kills at 10 to 85 % of
    // a clean run's time each left the later runs finishing before their
    // kill, which under a loaded machine's timing failed the test.
    let out = dir.join("killed");
    let mut killed = 0;
    for fraction in [0.25, 0.3, 0.35, 0.35, 0.35, 0.3] {
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
