//! Chain safety and the `blocks` table's header columns, from the loopback
//! node (whose headers carry a BABE pre-digest and hash as a chain's do):
//! each block's header hashes to its hash, its extrinsics have its
//! extrinsics root (one byte changed on the way stops the run at that
//! block), and it names the block before as
//! its parent, within a run and across runs (a node that switched forks
//! between two runs is caught where the new blocks join the old ones);
//! nothing past the finalized head is indexed unless asked, and then it
//! is marked; the roots, digest, slot, author and timestamp are the
//! header's and the block's own.

#![cfg(feature = "rpc")]

mod common;

use std::path::Path;
use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use common::*;
use ferroscale_index::check::check;
use ferroscale_index::rpc_source::{RpcBlocks, RpcOptions};
use ferroscale_index::{run, Decoders, Gaps, IndexError, Options, Summary, Table};
use ferroscale_rpc::test_server::{TestBlock, TestNode, TestRuntime};
use ferroscale_rpc::{BlockingClient, RangeOptions, RetryPolicy};

/// Blocks 100–115 of spec 9180 (block 10,000,000's extrinsics, with its
/// `Timestamp.set`).
fn node() -> TestNode {
    let runtime = TestRuntime::new("polkadot", 9180, vec![ferroscale_fixtures::read(META_9180)]);
    let template = block_10000000();
    let mut node = TestNode::new(runtime).first_number(100);
    for _ in 100..=115 {
        node = node.block(TestBlock {
            runtime: 0,
            extrinsics: template.extrinsics.clone(),
            events: None,
        });
    }
    node.lifetime(Duration::from_secs(60))
}

fn index(
    url: &str,
    out: &Path,
    (from, to): (u64, u64),
    unfinalized: bool,
) -> Result<Summary, IndexError> {
    let client = BlockingClient::connect(url).expect("connect");
    let metadata = out.join("metadata");
    let source = RpcBlocks::new(
        &client,
        RpcOptions {
            from,
            to,
            partition_blocks: 5,
            out: out.to_path_buf(),
            metadata_dir: metadata.clone(),
            range: RangeOptions {
                concurrency: 4,
                retry: RetryPolicy::none(),
                ..RangeOptions::default()
            },
            unfinalized,
        },
    );
    let mut options = Options::new(out);
    options.partition_blocks = 5;
    (options.from, options.to) = (Some(from), Some(to));
    run(
        source,
        &mut Decoders::with_metadata_dir(metadata, None),
        &options,
    )
}

/// Every row of the `blocks` table, by block number.
fn blocks(out: &Path) -> Vec<RecordBatch> {
    let mut batches: Vec<RecordBatch> = std::fs::read_dir(out.join(Table::Blocks.name()))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .flat_map(|p| read_parquet(&p))
        .collect();
    batches.sort_by_key(|b| b.column(0).as_primitive::<UInt64Type>().value(0));
    batches
}

fn texts(batches: &[RecordBatch], name: &str) -> Vec<Option<String>> {
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column_by_name(name).unwrap().as_string::<i32>().clone();
            (0..c.len())
                .map(move |i| c.is_valid(i).then(|| c.value(i).to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_blocks_table_holds_the_header_and_the_chain_is_checked() {
    let dir = temp_dir("chain");
    let server = node().start().expect("node");
    let out = dir.join("out");
    let summary = index(&server.ws_url(), &out, (101, 110), false).expect("run");
    assert_eq!((summary.blocks, summary.errors), (10, 0), "{summary}");

    let b = blocks(&out);
    let (hashes, parents) = (texts(&b, "hash"), texts(&b, "parent_hash"));
    for i in 1..hashes.len() {
        assert_eq!(parents[i], hashes[i - 1], "block {}'s parent", 101 + i);
    }
    let hex = |h: ferroscale_rpc::Hash| ferroscale_core::hex::encode_prefixed(&h);
    assert_eq!(parents[0], server.block_hash(100).map(hex));
    let zeros = Some(format!("0x{}", "00".repeat(32)));
    assert!(texts(&b, "state_root").iter().all(|r| *r == zeros));
    // The node's BABE pre-digest: authority n % 7 at slot n + 1000.
    for batch in &b {
        let col = |name: &str| batch.column_by_name(name).unwrap().clone();
        let (n, slot, author) = (col("number"), col("slot"), col("author_index"));
        let (n, slot) = (
            n.as_primitive::<UInt64Type>(),
            slot.as_primitive::<UInt64Type>(),
        );
        let author = author.as_primitive::<UInt32Type>();
        for i in 0..batch.num_rows() {
            assert_eq!(slot.value(i), n.value(i) + 1000);
            assert_eq!(u64::from(author.value(i)), n.value(i) % 7);
        }
        let finalized = col("finalized");
        assert!(finalized.as_boolean().iter().all(|f| f == Some(true)));
        let digest = col("digest");
        let digest: serde_json::Value =
            serde_json::from_str(digest.as_string::<i32>().value(0)).unwrap();
        assert!(
            digest[0].as_str().unwrap().starts_with("0x0642414245"),
            "{digest}"
        );
    }
    // The timestamp is the block's own `Timestamp.set(now)`.
    let extrinsics = read_parquet(&out.join("extrinsics").join("blocks_101_104.parquet"));
    let args = texts(&extrinsics, "args");
    let calls = texts(&extrinsics, "call");
    let set = calls
        .iter()
        .position(|c| c.as_deref() == Some("set"))
        .expect("Timestamp.set");
    let now: serde_json::Value = serde_json::from_str(args[set].as_deref().unwrap()).unwrap();
    let now = now[0]["value"].as_u64().expect("now");
    let stamps = b[0].column_by_name("timestamp").unwrap().clone();
    assert_eq!(stamps.as_primitive::<UInt64Type>().value(0), now);

    // The same node's next blocks join the ones indexed: no error.
    index(&server.ws_url(), &out, (101, 112), false).expect("the chain goes on");
    assert!(check(&out, Some((101, 112)), Gaps::Refused).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fork_between_two_runs_is_caught_where_the_blocks_meet() {
    let dir = temp_dir("chain-fork");
    let out = dir.join("out");
    let before = node().start().expect("node");
    index(&before.ws_url(), &out, (101, 105), false).expect("first run");
    drop(before);
    // The node now follows another fork from block 104: its 104 and 105
    // are not the ones indexed, and its 106 names its own 105 as parent.
    let after = node().fork(104).start().expect("node");
    let error = index(&after.ws_url(), &out, (101, 110), false)
        .expect_err("the chain changed")
        .to_string();
    assert!(
        error.contains("block 106")
            && error.contains("block 105, indexed before")
            && error.contains("the chain changed"),
        "{error}"
    );
    // Nothing of the other fork was written.
    assert!(check(&out, Some((101, 105)), Gaps::Refused).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_extrinsic_changed_on_the_way_stops_the_run_at_its_block() {
    let dir = temp_dir("chain-tampered");
    let out = dir.join("out");
    // Block 109's second extrinsic with one byte flipped: it may still
    // decode, but its header's extrinsics root no longer matches.
    let server = node().tampered_extrinsic(109, 1).start().expect("node");
    let error = index(&server.ws_url(), &out, (101, 112), false)
        .expect_err("block 109's extrinsics")
        .to_string();
    assert!(
        error.contains("chain: block 109: its ")
            && error.contains("not its header's extrinsics root"),
        "{error}"
    );
    // The blocks before it are written, whole; a node serving them
    // unchanged completes the range.
    assert!(check(&out, Some((101, 108)), Gaps::Refused).is_ok());
    let server = node().start().expect("node");
    index(&server.ws_url(), &out, (101, 112), false).expect("rerun");
    assert!(check(&out, Some((101, 112)), Gaps::Refused).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_that_wrote_nothing_leaves_a_dataset_check_refuses() {
    let dir = temp_dir("chain-nothing");
    let out = dir.join("out");
    // The first block of the range fails: no partition is written, but
    // the range was asked for, and check holds the folder to it.
    let server = node().tampered_extrinsic(101, 1).start().expect("node");
    index(&server.ws_url(), &out, (101, 112), false).expect_err("block 101's extrinsics");
    let report = check(&out, None, Gaps::Refused);
    assert!(!report.is_ok(), "{report:?}");
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.contains("blocks 101..=112 are in no partition")),
        "{:?}",
        report.problems
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn of_two_faults_in_one_partition_the_first_stops_the_run() {
    let dir = temp_dir("chain-two-faults");
    let out = dir.join("out");
    // Partition 105–109: block 106's body is changed (found when the
    // partition's roots are made together) and block 108's header is
    // broken (found as it is read, before that).
    let server = node()
        .tampered_extrinsic(106, 1)
        .broken_parent(108)
        .start()
        .expect("node");
    let error = index(&server.ws_url(), &out, (101, 112), false)
        .expect_err("block 106's extrinsics")
        .to_string();
    assert!(
        error.contains("chain: block 106: its ") && !error.contains("block 108"),
        "{error}"
    );
    // Block 105, before it in its partition, is written.
    assert!(check(&out, Some((101, 105)), Gaps::Refused).is_ok());
    assert!(!check(&out, Some((101, 106)), Gaps::Refused).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_header_that_does_not_hash_to_its_block_stops_the_run() {
    let dir = temp_dir("chain-broken");
    let out = dir.join("out");
    let server = node().broken_parent(108).start().expect("node");
    let error = index(&server.ws_url(), &out, (101, 112), false)
        .expect_err("block 108's header")
        .to_string();
    assert!(
        error.contains("block 108") && error.contains("its header hashes to"),
        "{error}"
    );
    // The blocks before it are written, whole.
    assert!(check(&out, Some((101, 107)), Gaps::Refused).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unfinalized_blocks_are_indexed_only_when_asked_and_then_marked() {
    let dir = temp_dir("chain-final");
    // The last three blocks (113–115) are not final: the head is 112.
    let server = node().unfinalized(3).start().expect("node");
    let error = index(&server.ws_url(), &dir.join("final"), (101, 114), false)
        .expect_err("past the finalized head")
        .to_string();
    assert!(
        error.contains("block 113") && error.contains("(block 112)"),
        "{error}"
    );
    assert!(check(&dir.join("final"), Some((101, 112)), Gaps::Refused).is_ok());

    let out = dir.join("best");
    index(&server.ws_url(), &out, (101, 114), true).expect("unfinalized allowed");
    let b = blocks(&out);
    let finalized: Vec<Option<bool>> = b
        .iter()
        .flat_map(|batch| {
            let c = batch
                .column_by_name("finalized")
                .unwrap()
                .as_boolean()
                .clone();
            (0..c.len())
                .map(move |i| c.is_valid(i).then(|| c.value(i)))
                .collect::<Vec<_>>()
        })
        .collect();
    let expected: Vec<Option<bool>> = (101..=114).map(|n| Some(n <= 112)).collect();
    assert_eq!(finalized, expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn follow_mode_writes_each_partition_once_the_head_passes_it() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = temp_dir("chain-follow");
    let out = dir.join("out");
    // The head starts at 103 and moves one block on every 40 ms, to 115.
    let server = node()
        .unfinalized(12)
        .finalize_every(Duration::from_millis(40))
        .start()
        .expect("node");
    let client = BlockingClient::connect(&server.ws_url()).expect("connect");
    let rpc = RpcOptions {
        from: 101,
        to: 0,
        partition_blocks: 5,
        out: out.clone(),
        metadata_dir: out.join("metadata"),
        range: RangeOptions::default(),
        unfinalized: false,
    };
    let mut options = Options::new(&out);
    options.partition_blocks = 5;
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    let summary = std::thread::scope(|scope| {
        // Stops the run once the partition 110–114 is in the manifest (or
        // after 20 s, which fails the test below).
        scope.spawn(|| {
            let done = out.join("_manifest").join("blocks_110_114.json");
            let started = std::time::Instant::now();
            while !done.exists() && started.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(20));
            }
            stop.store(true, Ordering::Relaxed);
        });
        ferroscale_index::follow::follow(
            &client,
            &rpc,
            &mut Decoders::with_metadata_dir(out.join("metadata"), None),
            &options,
            Duration::from_millis(20),
            &stop,
            &mut |p| seen.push(p.last_block),
        )
    })
    .expect("follow");
    // Partitions as the head passed them, never one before it was whole:
    // block 115 (of partition 115–119) is not written.
    assert_eq!(summary.blocks, 14, "{summary}");
    let partitions: Vec<_> = ferroscale_index::Manifest::scan(&out)
        .unwrap()
        .partitions()
        .collect();
    assert_eq!(partitions, [(101, 104), (105, 109), (110, 114)]);
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    assert!(check(&out, Some((101, 114)), Gaps::Refused).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}
