//! The RPC source through a fault-injecting HTTP proxy in front of the
//! loopback node (`ferroscale_rpc::fault_proxy`): 429 with and without
//! `Retry-After`, 503, dropped connections and answers later than the
//! request timeout are retried, and the dataset equals a clean run's (every
//! block once, the same rows); an HTML page instead of JSON-RPC, or faults
//! past the retry budget, stop the run with an error naming the cause,
//! after the blocks fetched before are written, and a rerun completes it.

#![cfg(feature = "rpc")]

mod common;

use std::path::Path;
use std::time::Duration;

use common::*;
use ferroscale_index::check::check;
use ferroscale_index::rpc_source::{RpcBlocks, RpcOptions};
use ferroscale_index::{run, Decoders, Gaps, IndexError, Options, Summary};
use ferroscale_rpc::fault_proxy::{only, Fault, FaultProxy};
use ferroscale_rpc::test_server::TestServer;
use ferroscale_rpc::{BlockingClient, ClientConfig, RangeOptions, RetryPolicy};

/// The loopback node across the upgrade (`common::upgrade_node`).
fn node() -> TestServer {
    upgrade_node(|_, _| {})
        .lifetime(Duration::from_secs(120))
        .start()
        .expect("test node")
}

/// Blocks 101–114 from `url` into `out`, requests timing out after
/// `timeout`, tried `attempts` times.
fn index(url: &str, out: &Path, timeout: Duration, attempts: u32) -> Result<Summary, IndexError> {
    let config = ClientConfig {
        request_timeout: timeout,
        ..ClientConfig::default()
    };
    let client = BlockingClient::connect_with(url, config).expect("connect");
    let metadata = out.join("metadata");
    let source = RpcBlocks::new(
        &client,
        RpcOptions {
            from: 101,
            to: 114,
            partition_blocks: 5,
            out: out.to_path_buf(),
            metadata_dir: metadata.clone(),
            range: RangeOptions {
                concurrency: 4,
                retry: RetryPolicy {
                    max_attempts: attempts,
                    initial_backoff: Duration::from_millis(20),
                    max_backoff: Duration::from_millis(200),
                },
                ..RangeOptions::default()
            },
            unfinalized: false,
        },
    );
    let mut options = Options::new(out);
    options.partition_blocks = 5;
    (options.from, options.to) = (Some(101), Some(114));
    run(
        source,
        &mut Decoders::with_metadata_dir(metadata, None),
        &options,
    )
}

#[test]
fn transient_faults_are_retried_and_the_dataset_equals_a_clean_run() {
    let dir = temp_dir("rpc-faults");
    let server = node();
    let clean = dir.join("clean");
    index(&server.http_url(), &clean, Duration::from_secs(30), 1).expect("clean run");

    // About one request in four gets a fault: 429 (some with Retry-After:
    // 1), 503, 500, a dropped connection, an answer after the timeout.
    let proxy = FaultProxy::start(&server.http_url(), |n, _| match n % 16 {
        1 => Fault::Status {
            status: 429,
            retry_after: (n % 64 == 1).then_some(1),
        },
        5 => Fault::Status {
            status: 503,
            retry_after: None,
        },
        9 => Fault::Drop,
        12 if n % 32 == 12 => Fault::Delay(Duration::from_millis(1500)),
        14 => Fault::Status {
            status: 500,
            retry_after: None,
        },
        _ => Fault::Pass,
    })
    .expect("proxy");
    let faulty = dir.join("faulty");
    let summary = index(&proxy.http_url(), &faulty, Duration::from_secs(1), 8).expect("run");
    assert_eq!((summary.blocks, summary.errors), (14, 0), "{summary}");
    assert!(proxy.faults() >= 10, "{} faults", proxy.faults());
    println!(
        "{} requests, {} faults injected: {summary}",
        proxy.requests(),
        proxy.faults()
    );
    let report = check(&faulty, Some((101, 114)), Gaps::Refused);
    assert!(report.is_ok(), "{report}");
    assert_eq!(rows(&faulty), rows(&clean));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn faults_that_are_not_transient_or_outlive_the_retries_are_named() {
    let dir = temp_dir("rpc-faults-fatal");
    let server = node();

    // A gateway's HTML page where JSON-RPC was expected: the node was
    // reached, and the error says what it answered.
    let html = FaultProxy::start(&server.http_url(), only("chain_getBlock", Fault::NotJson))
        .expect("proxy");
    let error = index(
        &html.http_url(),
        &dir.join("html"),
        Duration::from_secs(5),
        4,
    )
    .expect_err("no JSON")
    .to_string();
    assert!(!error.contains("cannot reach"), "{error}");
    assert!(
        error.contains("not JSON-RPC") || error.contains("malformed"),
        "{error}"
    );

    // A node that answers 503 to every block request: the run gives up
    // after the tries it was given, saying so, with the blocks fetched
    // before kept.
    let busy =
        FaultProxy::start(&server.http_url(), only("chain_getBlock", Fault::BUSY)).expect("proxy");
    let out = dir.join("busy");
    let error = index(&busy.http_url(), &out, Duration::from_secs(5), 3)
        .expect_err("always busy")
        .to_string();
    assert!(
        error.contains("HTTP status 503") && error.contains("gave up after 3 tries"),
        "{error}"
    );
    // The rerun, with the node well again, completes the range.
    let summary = index(&server.http_url(), &out, Duration::from_secs(5), 3).expect("rerun");
    assert_eq!(summary.blocks + summary.skipped_blocks, 14, "{summary}");
    let report = check(&out, Some((101, 114)), Gaps::Refused);
    assert!(report.is_ok(), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}
