//! The RPC source against the loopback test node (`ferroscale-rpc`'s
//! `test-server`) serving real Polkadot blocks across a runtime upgrade:
//! spec 9180 (block 10,000,000's extrinsics) up to and including the block
//! that enacts the upgrade, spec 1,000,001 (block 18,468,942 with its
//! events) after it. Checks each block's spec, that the rows decode without
//! errors, that each runtime's metadata is fetched once and cached, that
//! runtimes are found with far fewer version requests than blocks, that a
//! rerun fetches nothing, and that failing requests are retried.

#![cfg(feature = "rpc")]

mod common;

use std::path::Path;
use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use common::*;
use ferroscale_index::partition::partition_path;
use ferroscale_index::rpc_source::{RpcBlocks, RpcOptions};
use ferroscale_index::{run, Decoders, Gaps, Options, Summary, Table};
use ferroscale_rpc::test_server::{TestNode, TestServer};
use ferroscale_rpc::{BlockingClient, RangeOptions, RetryPolicy};

/// The loopback node across the upgrade (`common::upgrade_node`).
fn node() -> TestNode {
    upgrade_node(|_, _| {}).lifetime(Duration::from_secs(60))
}

fn options(out: &Path, metadata: &Path) -> RpcOptions {
    RpcOptions {
        from: 101,
        to: 114,
        partition_blocks: 5,
        out: out.to_path_buf(),
        metadata_dir: metadata.to_path_buf(),
        range: RangeOptions {
            concurrency: 4,
            retry: RetryPolicy {
                max_attempts: 4,
                initial_backoff: Duration::from_millis(10),
                max_backoff: Duration::from_millis(50),
            },
            ..RangeOptions::default()
        },
        unfinalized: false,
    }
}

fn index(server: &TestServer, url: &str, out: &Path, metadata: &Path) -> (Summary, (u64, u64)) {
    let client = BlockingClient::connect(url).expect("connect");
    let source = RpcBlocks::new(&client, options(out, metadata));
    let skipped = source.skipped();
    let mut pipeline = Options::new(out);
    pipeline.partition_blocks = 5;
    let summary = run(
        source,
        &mut Decoders::with_metadata_dir(metadata, None),
        &pipeline,
    )
    .expect("run");
    let _ = server;
    (summary, skipped.get())
}

fn metadata_requests(server: &TestServer) -> u64 {
    server.requests("state_getMetadata") + server.requests("state_call")
}

#[test]
fn a_range_across_an_upgrade_decodes_with_the_right_runtimes() {
    let dir = temp_dir("rpc");
    let (out, metadata) = (dir.join("out"), dir.join("metadata"));
    let server = node().start().expect("test node");
    let (summary, skipped) = index(&server, &server.ws_url(), &out, &metadata);
    println!("{summary}");
    let x_old = block_10000000().extrinsics.len() as u64;
    let x_new = block_18468942().extrinsics.len() as u64;
    assert_eq!(summary.blocks, 14);
    assert_eq!(summary.errors, 0, "{summary}");
    assert_eq!(summary.extrinsics, 10 * x_old + 4 * x_new);
    assert_eq!(summary.events, 4 * 58);
    assert_eq!((summary.partitions, skipped), (3, (0, 0)));

    // Each block's spec: the parent's runtime (110 ran on 9180).
    let mut specs = Vec::new();
    for (first, last) in [(101, 104), (105, 109), (110, 114)] {
        for b in read_parquet(&partition_path(&out, Table::Blocks, first, last)) {
            let n = b.column(0).as_primitive::<UInt64Type>();
            let s = b
                .column_by_name("spec_version")
                .unwrap()
                .as_primitive::<UInt32Type>();
            let h = b.column_by_name("hash").unwrap().as_string::<i32>();
            for i in 0..b.num_rows() {
                let hash = server.block_hash(n.value(i)).unwrap();
                assert_eq!(h.value(i), ferroscale_core::hex::encode_prefixed(&hash));
                specs.push((n.value(i), s.value(i)));
            }
        }
    }
    let expected: Vec<(u64, u32)> = (101..=114)
        .map(|n| (n, if n <= 110 { 9180 } else { 1_000_001 }))
        .collect();
    assert_eq!(specs, expected);

    // Metadata: fetched once per runtime, cached by spec name and version.
    for spec in [9180, 1_000_001] {
        let cached = metadata.join("polkadot").join(format!("{spec}.scale"));
        assert!(cached.is_file(), "{}", cached.display());
    }
    let fetched = metadata_requests(&server);
    assert!(fetched > 0);
    // Runtimes by bisection: far fewer version requests than blocks.
    let versions = server.requests("state_getRuntimeVersion");
    assert!(
        versions <= 8,
        "{versions} runtime-version requests for 14 blocks"
    );

    // A rerun fetches no block and no metadata: every partition is done.
    let blocks_before = server.requests("chain_getBlock");
    let (again, skipped) = index(&server, &server.http_url(), &out, &metadata);
    assert_eq!((again.blocks, again.partitions), (0, 0));
    assert_eq!(skipped, (3, 14));
    assert_eq!(server.requests("chain_getBlock"), blocks_before);

    // A new output folder with the cache: blocks again, metadata not.
    let (fresh, _) = index(&server, &server.http_url(), &dir.join("out2"), &metadata);
    assert_eq!((fresh.blocks, fresh.errors), (14, 0));
    assert_eq!(metadata_requests(&server), fetched);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn failing_requests_are_retried_and_the_run_completes() {
    let dir = temp_dir("rpc-flaky");
    let server = node()
        .flaky("chain_getBlock", 3)
        .flaky("state_getRuntimeVersion", 2)
        .start()
        .expect("test node");
    let (summary, _) = index(
        &server,
        &server.ws_url(),
        &dir.join("out"),
        &dir.join("metadata"),
    );
    assert_eq!((summary.blocks, summary.errors), (14, 0), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_block_the_node_lacks_is_an_error_naming_it() {
    let dir = temp_dir("rpc-missing");
    let server = node().start().expect("test node");
    let client = BlockingClient::connect(&server.ws_url()).expect("connect");
    let index = |out: &Path, unfinalized: bool| {
        let mut opts = options(out, &dir.join("metadata"));
        opts.to = 130;
        opts.unfinalized = unfinalized;
        let mut pipeline = Options::new(out);
        pipeline.partition_blocks = 5;
        run(
            RpcBlocks::new(&client, opts),
            &mut Decoders::with_metadata_dir(dir.join("metadata"), None),
            &pipeline,
        )
        .expect_err("blocks past the chain's end")
        .to_string()
    };
    // The range stops at the node's finalized head (its best block, 115),
    // naming it, with every final block written: the window 115–119 is
    // cut at 115.
    let out = dir.join("out");
    let text = index(&out, false);
    assert!(
        text.contains("block 116") && text.contains("finalized head (block 115)"),
        "{text}"
    );
    assert!(partition_path(&out, Table::Events, 110, 114).is_file());
    assert!(partition_path(&out, Table::Events, 115, 115).is_file());
    let report = ferroscale_index::check::check(&out, Some((101, 115)), Gaps::Refused);
    assert!(report.is_ok(), "{report}");

    // Unfinalized blocks allowed: the node lacks block 119, which opening
    // window 115–119 asks the runtime after; the blocks before are written.
    let out = dir.join("out-unfinalized");
    let text = index(&out, true);
    assert!(
        text.contains("block 119") && text.contains("no such block"),
        "{text}"
    );
    let report = ferroscale_index::check::check(&out, Some((101, 114)), Gaps::Refused);
    assert!(report.is_ok(), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}
