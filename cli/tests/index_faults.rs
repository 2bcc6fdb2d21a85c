//! `ferroscale index --url ws://…` through the fault-injecting proxy
//! (`ferroscale_rpc::fault_proxy`) in front of the loopback node: dropped
//! connections mid-run, answers later than `--timeout`, JSON-RPC error
//! answers and WebSocket handshakes refused with HTTP 503 are survived
//! within `--retries`, and the dataset equals a clean run's row for row,
//! `--check` passes, no block lost or doubled. A JSON-RPC error that is
//! not transient stops the run with a message naming it, and a rerun
//! completes the range. Each scenario prints a line of the fault table
//! (`cargo test … -- --nocapture`).
//!
//! Corrupted bytes from the node (a block's extrinsic cut short or of an
//! unknown version, a `System.Events` value cut short or claiming a
//! billion records) become rows of the `errors` table with the bytes and
//! the spec version, the block's `event_count` NULL where its events did
//! not decode, and every other item of the block in its table: nothing is
//! dropped silently.

#![cfg(feature = "index")]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::Array;
use common::*;
use ferroscale_rpc::fault_proxy::{only, Fault, FaultProxy, UPGRADE};
use ferroscale_rpc::test_server::{TestBlock, TestServer};

/// The loopback node over blocks 100–115: spec 9180 up to block 110
/// (which enacts the upgrade), spec 1,000,001 with 58 events a block after.
fn node() -> TestServer {
    node_with(|_, _| {})
}

/// [`node`] with each block's extrinsics and events changed by `change`
/// (given the block number) before it serves them.
fn node_with(change: impl Fn(u64, &mut TestBlock)) -> TestServer {
    upgrade_node(change)
        .lifetime(Duration::from_secs(300))
        .start()
        .expect("test node")
}

/// `ferroscale index` over blocks 101–114 of `url` into `out`.
fn index(url: &str, out: &Path, timeout: u64, retries: u32) -> Output {
    index_with(url, out, timeout, retries, &[])
}

/// [`index`] with more arguments.
fn index_with(url: &str, out: &Path, timeout: u64, retries: u32, more: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ferroscale"))
        .args(["index", "--url", url, "--from", "101", "--to", "114"])
        .args(["--partition-blocks", "5", "--concurrency", "4", "--json"])
        .args(["--timeout", &timeout.to_string()])
        .args(["--retries", &retries.to_string(), "--out"])
        .arg(out)
        .args(more)
        .output()
        .expect("the binary runs")
}

/// `ferroscale index --check OUT --from 101 --to 114` passes.
fn check_passes(out: &Path) {
    let r = Command::new(env!("CARGO_BIN_EXE_ferroscale"))
        .args(["index", "--from", "101", "--to", "114", "--check"])
        .arg(out)
        .output()
        .expect("the binary runs");
    assert!(
        r.status.success(),
        "--check {}: {}{}",
        out.display(),
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
}

/// Blocks 101–114 missing from the `blocks` table, and rows beyond one
/// per block: (lost, doubled).
fn lost_and_doubled(out: &Path) -> (u64, u64) {
    let mut seen = BTreeMap::<u64, u64>::new();
    for path in files(out, "blocks") {
        for batch in read_parquet(&path) {
            let numbers = batch
                .column_by_name("number")
                .expect("number")
                .as_primitive::<UInt64Type>();
            for n in numbers.values() {
                *seen.entry(*n).or_default() += 1;
            }
        }
    }
    let lost = (101..=114).filter(|n| !seen.contains_key(n)).count() as u64;
    let doubled = seen.values().map(|c| c - 1).sum();
    (lost, doubled)
}

/// One scenario: the run through a proxy with `plan`, then the checks and
/// a line of the fault table.
fn scenario(
    name: &str,
    server: &TestServer,
    clean: &[String],
    dir: &Path,
    timeout: u64,
    more: &[&str],
    plan: impl Fn(u64, &str) -> Fault + Send + Sync + 'static,
) -> FaultProxy {
    let proxy = FaultProxy::start(&server.http_url(), plan).expect("proxy");
    let out = dir.join(name);
    let summary = ok_json(&index_with(&proxy.ws_url(), &out, timeout, 8, more));
    assert_eq!(summary["blocks"], 14, "{name}: {summary}");
    assert_eq!(summary["errors"], 0, "{name}: {summary}");
    check_passes(&out);
    let (lost, doubled) = lost_and_doubled(&out);
    println!(
        "ws {name}: {} requests, {} faults injected, {} WebSocket handshakes; blocks lost {lost}, doubled {doubled}",
        proxy.requests(),
        proxy.faults(),
        proxy.upgrades()
    );
    assert_eq!((lost, doubled), (0, 0), "{name}");
    assert!(
        rows(&out) == clean,
        "{name}: the rows differ from a clean run's"
    );
    proxy
}

#[test]
fn websocket_faults_are_survived_and_the_dataset_equals_a_clean_run() {
    let dir = temp_dir("ws-faults");
    let server = node();
    let clean_out = dir.join("clean");
    ok_json(&index(&server.ws_url(), &clean_out, 30, 0));
    check_passes(&clean_out);
    let clean = rows(&clean_out);
    assert!(clean.len() > 14, "{} rows", clean.len());

    // The connection dropped, with what is in flight on it, at every 13th
    // message: the client reconnects and asks again.
    let proxy = scenario("dropped", &server, &clean, &dir, 10, &[], |n, method| {
        if method != UPGRADE && n % 13 == 7 {
            Fault::Drop
        } else {
            Fault::Pass
        }
    });
    assert!(proxy.faults() >= 3, "{} faults", proxy.faults());
    assert!(proxy.upgrades() > proxy.faults(), "a reconnection per drop");

    // Every 9th message answered 3 s late, past the 2 s timeout.
    let proxy = scenario("late", &server, &clean, &dir, 2, &[], |n, method| {
        if method != UPGRADE && n % 9 == 4 {
            Fault::Delay(Duration::from_secs(3))
        } else {
            Fault::Pass
        }
    });
    assert!(proxy.faults() >= 3, "{} faults", proxy.faults());

    // Every 5th message answered with a JSON-RPC error a node gives when
    // it is overloaded (internal error, server error).
    let proxy = scenario(
        "rpc-errors",
        &server,
        &clean,
        &dir,
        10,
        &[],
        |n, method| match (method != UPGRADE, n % 10) {
            (true, 2) => Fault::RpcError(-32603),
            (true, 7) => Fault::RpcError(-32000),
            _ => Fault::Pass,
        },
    );
    assert!(proxy.faults() >= 6, "{} faults", proxy.faults());

    // Every other handshake, the first one included, refused with 503;
    // the connection dropped at every 11th message so that reconnections
    // meet them too.
    let refuse = handshakes_refused(2, 0);
    let proxy = scenario(
        "upgrade-503",
        &server,
        &clean,
        &dir,
        10,
        &[],
        move |n, method| match method == UPGRADE {
            true => refuse(),
            false if n % 11 == 6 => Fault::Drop,
            false => Fault::Pass,
        },
    );
    assert!(proxy.upgrades() >= 4, "{} handshakes", proxy.upgrades());

    // All of them at once.
    let refuse = handshakes_refused(3, 1);
    let proxy = scenario("mixed", &server, &clean, &dir, 2, &[], move |n, method| {
        if method == UPGRADE {
            return refuse();
        }
        match n % 19 {
            3 => Fault::Drop,
            8 => Fault::Delay(Duration::from_secs(3)),
            11 => Fault::RpcError(-32603),
            15 => Fault::NotJson,
            _ => Fault::Pass,
        }
    });
    assert!(proxy.faults() >= 8, "{} faults", proxy.faults());

    // All of them again, the blocks asked for in JSON-RPC batches of 4: a
    // fault hits a whole batch, which is asked again whole.
    let refuse = handshakes_refused(3, 1);
    let batches = ["--batch", "4"];
    let proxy = scenario(
        "mixed-batches",
        &server,
        &clean,
        &dir,
        2,
        &batches,
        move |n, method| {
            if method == UPGRADE {
                return refuse();
            }
            match n % 7 {
                2 => Fault::Drop,
                4 if n % 14 == 4 => Fault::Delay(Duration::from_secs(3)),
                5 => Fault::RpcError(-32603),
                _ => Fault::Pass,
            }
        },
    );
    assert!(proxy.faults() >= 4, "{} faults", proxy.faults());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn websocket_faults_that_are_not_transient_are_named() {
    let dir = temp_dir("ws-faults-fatal");
    let server = node();

    // "Invalid params" to every block request from the third on: an answer
    // that does not change, so the run stops at once, naming the code and
    // the block; the blocks fetched before are written.
    let proxy = FaultProxy::start(&server.http_url(), |n, method| {
        if method == "chain_getBlock" && n > 20 {
            Fault::RpcError(-32602)
        } else {
            Fault::Pass
        }
    })
    .expect("proxy");
    let out = dir.join("out");
    let r = index(&proxy.ws_url(), &out, 10, 8);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error -32602") && stderr.contains("block "),
        "{stderr}"
    );
    assert!(!stderr.contains("gave up"), "not retried: {stderr}");

    // Every handshake refused with 503: the run gives up after its tries,
    // saying so.
    let refused = FaultProxy::start(&server.http_url(), only(UPGRADE, Fault::BUSY)).expect("proxy");
    let r = index(&refused.ws_url(), &dir.join("refused"), 10, 2);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("HTTP status 503") && stderr.contains("gave up after 3 tries"),
        "{stderr}"
    );
    assert_eq!(refused.upgrades(), 3);

    // With the node well again, a rerun completes the range: every block
    // once.
    let summary = ok_json(&index(&server.ws_url(), &out, 10, 2));
    assert_eq!(
        summary["blocks"].as_u64().unwrap() + summary["skipped_blocks"].as_u64().unwrap(),
        14,
        "{summary}"
    );
    check_passes(&out);
    assert_eq!(lost_and_doubled(&out), (0, 0));
    println!(
        "ws invalid-params: {} requests, {} faults injected; stopped naming it, rerun: 0 lost, 0 doubled",
        proxy.requests(),
        proxy.faults()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bytes of `x` (an extrinsic with its compact length prefix) after
/// the prefix: where its version byte is.
fn after_prefix(x: &[u8]) -> usize {
    match x[0] & 3 {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => panic!("a test extrinsic is shorter than 2^30 bytes"),
    }
}

/// A column of `batch` by name.
fn column<'b>(batch: &'b arrow_array::RecordBatch, name: &str) -> &'b arrow_array::ArrayRef {
    batch
        .column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

#[test]
fn corrupted_bytes_from_the_node_are_error_rows_with_their_bytes() {
    let events = ferroscale_fixtures::read_hex(EVENTS_18M);
    let mut huge = vec![0xfe, 0xff, 0xff, 0xff]; // compact: 2^30 − 1 records
    huge.extend_from_slice(&events[1..40]);
    let hex = |b: &[u8]| ferroscale_core_hex(b);
    // What the node serves instead of the real bytes, by block and item.
    let mut corrupt = BTreeMap::<(u64, String), (u32, Vec<u8>)>::new();
    let server = {
        let x10 = extrinsic_bytes(BLOCK_10M);
        let x18 = extrinsic_bytes(BLOCK_18M);
        // Block 104: extrinsic 1 cut short (its length prefix says more).
        let short = x10[1][..x10[1].len() - 8].to_vec();
        // Block 113: extrinsic 2 of version 127, which no runtime has.
        let mut unknown = x18[2].clone();
        let version = after_prefix(&unknown);
        unknown[version] = 0x7f;
        // Block 112: its events cut in half; block 114: a count of a
        // billion records before 39 bytes.
        let half = events[..events.len() / 2].to_vec();
        corrupt.insert((104, "extrinsic 1".into()), (9180, short.clone()));
        corrupt.insert((113, "extrinsic 2".into()), (1_000_001, unknown.clone()));
        corrupt.insert((112, "events".into()), (1_000_001, half.clone()));
        corrupt.insert((114, "events".into()), (1_000_001, huge.clone()));
        node_with(move |n, block| match n {
            104 => block.extrinsics[1] = short.clone(),
            112 => block.events = Some(half.clone()),
            113 => block.extrinsics[2] = unknown.clone(),
            114 => block.events = Some(huge.clone()),
            _ => {}
        })
    };
    let dir = temp_dir("corrupt");
    let out = dir.join("out");
    let summary = ok_json(&index(&server.ws_url(), &out, 30, 0));
    assert_eq!(summary["blocks"], 14, "{summary}");
    assert_eq!(summary["errors"], 4, "{summary}");
    check_passes(&out);
    assert_eq!(lost_and_doubled(&out), (0, 0));

    // Each corrupted item is a row of `errors`: its block, item, the spec
    // version it was decoded with, a reason, and the bytes as served.
    let mut found = BTreeMap::new();
    for path in files(&out, "errors") {
        for b in read_parquet(&path) {
            let numbers = column(&b, "block_number").as_primitive::<UInt64Type>();
            let specs = column(&b, "spec_version").as_primitive::<UInt32Type>();
            let (items, errors, bytes) = (
                column(&b, "item").as_string::<i32>(),
                column(&b, "error").as_string::<i32>(),
                column(&b, "bytes").as_string::<i32>(),
            );
            for i in 0..b.num_rows() {
                assert!(!errors.value(i).is_empty());
                println!(
                    "error row: block {} {} (spec {}): {}",
                    numbers.value(i),
                    items.value(i),
                    specs.value(i),
                    errors.value(i)
                );
                found.insert(
                    (numbers.value(i), items.value(i).to_string()),
                    (specs.value(i), bytes.value(i).to_string()),
                );
            }
        }
    }
    let expected: BTreeMap<_, _> = corrupt
        .iter()
        .map(|(k, (spec, b))| (k.clone(), (*spec, hex(b))))
        .collect();
    assert_eq!(found, expected);

    // The blocks: every one there with its extrinsic count; `event_count`
    // NULL where the events did not decode (112, 114), 58 where they did,
    // NULL where the node has none (up to 110; `errors` says which is
    // which). Every extrinsic is a row of `extrinsics` or of `errors`.
    let mut extrinsic_rows = BTreeMap::<u64, u64>::new();
    for path in files(&out, "extrinsics") {
        for b in read_parquet(&path) {
            for n in column(&b, "block_number")
                .as_primitive::<UInt64Type>()
                .values()
            {
                *extrinsic_rows.entry(*n).or_default() += 1;
            }
        }
    }
    let mut event_rows = BTreeMap::<u64, u64>::new();
    for path in files(&out, "events") {
        for b in read_parquet(&path) {
            for n in column(&b, "block_number")
                .as_primitive::<UInt64Type>()
                .values()
            {
                *event_rows.entry(*n).or_default() += 1;
            }
        }
    }
    for path in files(&out, "blocks") {
        for b in read_parquet(&path) {
            let numbers = column(&b, "number").as_primitive::<UInt64Type>();
            let xts = column(&b, "extrinsic_count").as_primitive::<UInt32Type>();
            let evs = column(&b, "event_count").as_primitive::<UInt32Type>();
            for i in 0..b.num_rows() {
                let n = numbers.value(i);
                let failed = corrupt
                    .keys()
                    .filter(|(m, item)| *m == n && item.starts_with("extrinsic"))
                    .count() as u64;
                assert_eq!(
                    extrinsic_rows.get(&n).copied().unwrap_or(0) + failed,
                    u64::from(xts.value(i)),
                    "block {n}"
                );
                let events = (!evs.is_null(i)).then(|| evs.value(i));
                match n {
                    112 | 114 => assert_eq!(events, None, "block {n}"),
                    111..=115 => assert_eq!(events, Some(58), "block {n}"),
                    _ => assert_eq!(events, None, "block {n}"),
                }
                let rows = event_rows.get(&n).copied().unwrap_or(0);
                assert_eq!(rows, u64::from(events.unwrap_or(0)), "block {n}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `0x` hex, as the `errors` table writes bytes.
fn ferroscale_core_hex(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(2 + 2 * bytes.len());
    text.push_str("0x");
    for b in bytes {
        text.push_str(&format!("{b:02x}"));
    }
    text
}
