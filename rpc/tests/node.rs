//! The client against the loopback test node, answering from the real-chain
//! fixtures: metadata V14/V15/V16 over HTTP and WebSocket, the fallback,
//! every failure kind, and a block range through a node that fails.

use std::time::Duration;

use ferroscale_rpc::test_server::{TestBlock, TestNode, TestRuntime, TestServer};
use ferroscale_rpc::{
    BlockingClient, ClientConfig, Error, FetchedMetadata, MetadataSource, RangeOptions, RetryPolicy,
};
use serde_json::json;

mod common;

const V14: &str = "metadata/polkadot-v14-spec1000001.scale";
const V15: &str = "metadata/polkadot-v15-spec1001002.scale";
const V16: &str = "metadata/polkadot-v16-spec2003000.scale";
const BLOCK: &str = "payloads/polkadot-block-18468942";
const BLOCK_NUMBER: u64 = 18_468_942;

fn fixture(name: &str) -> Vec<u8> {
    ferroscale_fixtures::read(name)
}

fn runtime(files: &[&str]) -> TestRuntime {
    TestRuntime::new(
        "polkadot",
        1000001,
        files.iter().map(|f| fixture(f)).collect(),
    )
}

/// The real block 18468942 (4 extrinsics, 58 events).
fn real_block() -> TestBlock {
    let extrinsics = String::from_utf8(fixture(&format!("{BLOCK}/extrinsics.json"))).unwrap();
    let events = String::from_utf8(fixture(&format!("{BLOCK}/events.hex"))).unwrap();
    TestBlock::from_fixture(0, &extrinsics, Some(&events)).unwrap()
}

fn quick() -> ClientConfig {
    ClientConfig {
        request_timeout: Duration::from_secs(20),
        connect_timeout: Duration::from_secs(5),
        ..ClientConfig::default()
    }
}

/// The newest metadata the node at `url` gives, or why not.
fn newest_metadata(url: &str) -> Result<FetchedMetadata, Error> {
    BlockingClient::connect_with(url, quick())
        .unwrap()
        .metadata(None)
}

fn urls(server: &TestServer) -> [String; 2] {
    [server.http_url(), server.ws_url()]
}

#[test]
fn newest_metadata_over_http_and_ws() {
    // The node offers 14, 15 and 16 (one blob each) and two it does not
    // have or we do not read: 16 is taken.
    let mut rt = runtime(&[V14, V15, V16]);
    rt.offered_versions = Some(vec![14, 15, 16, 17, u32::MAX]);
    let server = TestNode::new(rt).start().unwrap();
    for url in urls(&server) {
        let node = BlockingClient::connect_with(&url, quick()).unwrap();
        let got = node.metadata(None).unwrap();
        assert_eq!(got.source, MetadataSource::AtVersion(16), "{url}");
        assert_eq!(got.version, 16);
        assert_eq!(
            got.bytes,
            fixture(V16),
            "{url}: bytes differ from the fixture"
        );
        let parsed = got.parse().unwrap();
        assert!(parsed.pallets.len() > 50, "{url}");
        assert_eq!(parsed.version, 16);
    }
}

#[test]
fn each_version_alone() {
    for (file, version) in [(V14, 14u32), (V15, 15), (V16, 16)] {
        let server = TestNode::new(runtime(&[file])).start().unwrap();
        for url in urls(&server) {
            let got = newest_metadata(&url).unwrap();
            assert_eq!(got.source, MetadataSource::AtVersion(version), "{url}");
            assert_eq!(got.bytes, fixture(file), "{url} {file}");
            got.parse().unwrap();
        }
    }
}

#[test]
fn fallback_to_state_get_metadata() {
    // A runtime without the Metadata API.
    let server = TestNode::new(runtime(&[V14]))
        .without_metadata_api()
        .start()
        .unwrap();
    for url in urls(&server) {
        let got = newest_metadata(&url).unwrap();
        assert_eq!(got.source, MetadataSource::StateGetMetadata, "{url}");
        assert_eq!(got.bytes, fixture(V14));
    }
    // A runtime offering only versions we do not read.
    let mut rt = runtime(&[V14]);
    rt.offered_versions = Some(vec![13, 17]);
    let server = TestNode::new(rt).start().unwrap();
    let got = newest_metadata(&server.http_url()).unwrap();
    assert_eq!(got.source, MetadataSource::StateGetMetadata);
    // Offered, but `None` when asked: the fallback too.
    let mut rt = runtime(&[V14]);
    rt.offered_versions = Some(vec![14, 15]);
    let server = TestNode::new(rt).start().unwrap();
    let got = newest_metadata(&server.http_url()).unwrap();
    assert_eq!(got.source, MetadataSource::StateGetMetadata);
    assert_eq!(server.requests("state_call"), 2);
}

#[test]
fn metadata_at_a_block_follows_an_upgrade() {
    let old = TestRuntime::new(
        "polkadot",
        9180,
        vec![fixture("metadata/polkadot-v14-spec9180.scale")],
    );
    let server = TestNode::new(old)
        .runtime(runtime(&[V15]))
        .block(TestBlock {
            runtime: 0,
            extrinsics: vec![],
            events: None,
        })
        .block(TestBlock {
            runtime: 1,
            extrinsics: vec![],
            events: None,
        })
        .start()
        .unwrap();
    let node = BlockingClient::connect(&server.ws_url()).unwrap();
    let first = server.block_hash(0).unwrap();
    let second = server.block_hash(1).unwrap();
    let at_first = node.metadata(Some(&first)).unwrap();
    assert_eq!(
        at_first.bytes,
        fixture("metadata/polkadot-v14-spec9180.scale")
    );
    assert_eq!(node.metadata(Some(&second)).unwrap().bytes, fixture(V15));
    assert_eq!(
        node.runtime_version(Some(&first)).unwrap().spec_version,
        9180
    );
    assert_eq!(
        node.runtime_version(Some(&second)).unwrap().spec_version,
        1000001
    );
}

#[test]
fn unreachable_endpoint() {
    // A port nobody listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let ws = BlockingClient::connect_with(&format!("ws://127.0.0.1:{port}"), quick()).unwrap_err();
    assert!(matches!(ws, Error::Unreachable { .. }), "{ws:?}");
    assert!(
        ws.to_string()
            .starts_with(&format!("cannot reach ws://127.0.0.1:{port}")),
        "{ws}"
    );
    let http = BlockingClient::connect_with(&format!("http://127.0.0.1:{port}"), quick())
        .unwrap()
        .metadata(None)
        .unwrap_err();
    assert!(matches!(http, Error::Unreachable { .. }), "{http:?}");
    let bad = BlockingClient::connect("127.0.0.1:9944").unwrap_err();
    assert!(matches!(bad, Error::InvalidUrl { .. }), "{bad:?}");
}

#[test]
fn endpoint_that_is_not_a_substrate_node() {
    let server = TestNode::new(runtime(&[V14]))
        .not_substrate()
        .start()
        .unwrap();
    for url in urls(&server) {
        let err = newest_metadata(&url).unwrap_err();
        assert!(matches!(err, Error::NotSubstrate { .. }), "{url}: {err:?}");
        assert!(err.to_string().contains("is not a Substrate node"), "{err}");
    }
    // A plain HTTP server answering 404 to everything.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let answerer = std::thread::spawn(move || {
        use std::io::{Read, Write};
        // Bounded: one connection, read what came, answer, close.
        if let Ok((mut s, _)) = listener.accept() {
            s.set_read_timeout(Some(Duration::from_secs(5))).ok();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = s.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\nconnection: close\r\n\r\nnot found");
        }
    });
    let err = BlockingClient::connect_with(&format!("http://{addr}"), quick())
        .unwrap()
        .metadata(None)
        .unwrap_err();
    answerer.join().unwrap();
    assert!(matches!(err, Error::NotSubstrate { .. }), "{err:?}");
    assert!(err.to_string().contains("404"), "{err}");
}

#[test]
fn timeout() {
    let server = TestNode::new(runtime(&[V14]))
        .delay("state_call", Duration::from_secs(5))
        .start()
        .unwrap();
    let config = ClientConfig {
        request_timeout: Duration::from_millis(300),
        ..quick()
    };
    for url in urls(&server) {
        let start = std::time::Instant::now();
        let err = BlockingClient::connect_with(&url, config.clone())
            .unwrap()
            .metadata(None)
            .unwrap_err();
        assert!(matches!(err, Error::Timeout { .. }), "{url}: {err:?}");
        assert!(
            err.to_string().contains("Metadata") || err.to_string().contains("state_call"),
            "{err}"
        );
        // Not the 5 s of the delay (generous bound: a loaded machine).
        assert!(
            start.elapsed() < Duration::from_secs(4),
            "{url}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn malformed_answers_are_errors() {
    let cases = [
        ("state_call", json!(42), "not a string"),
        ("state_call", json!("0xzz"), "not hex"),
        // `Some` with a length prefix of 2^30 - 1 over 3 bytes.
        ("state_call", json!("0x01fdffffff010203"), "length prefix"),
    ];
    for (method, answer, expect) in cases {
        let server = TestNode::new(runtime(&[V14]))
            .answer(method, answer.clone())
            .start()
            .unwrap();
        let err = BlockingClient::connect(&server.ws_url())
            .unwrap()
            .metadata(None)
            .unwrap_err();
        assert!(matches!(err, Error::Malformed { .. }), "{answer}: {err:?}");
        assert!(err.to_string().contains(expect), "{answer}: {err}");
    }
    // Fallback answers that are not metadata.
    let server = TestNode::new(runtime(&[V14]))
        .without_metadata_api()
        .answer("state_getMetadata", json!("0x00112233445566"))
        .start()
        .unwrap();
    let err = newest_metadata(&server.http_url()).unwrap_err();
    assert!(err.to_string().contains("no `meta` magic"), "{err}");
    // Blocks of the wrong shape.
    for (answer, expect) in [
        (json!({"block": 5}), "expected an object with `header`"),
        (
            json!({"block": {"header": {"number": "0x1", "parentHash": "0x00"}, "extrinsics": []}}),
            "not 32",
        ),
        (
            json!({"block": {"header": {"number": "zz", "parentHash": format!("0x{}", "00".repeat(32))}, "extrinsics": []}}),
            "not 0x-prefixed",
        ),
        (
            json!({"block": {"header": {"number": "0x1", "parentHash": format!("0x{}", "00".repeat(32))}, "extrinsics": []}}),
            "no `stateRoot` field",
        ),
        (
            json!({"block": {"header": {
                "number": "0x1",
                "parentHash": format!("0x{}", "00".repeat(32)),
                "stateRoot": format!("0x{}", "00".repeat(32)),
                "extrinsicsRoot": format!("0x{}", "00".repeat(32)),
                "digest": {"logs": ["0x06"]},
            }, "extrinsics": [7]}}),
            "extrinsic 0 is not a string",
        ),
        (
            json!({"block": {"header": {
                "number": "0x1",
                "parentHash": format!("0x{}", "00".repeat(32)),
                "stateRoot": format!("0x{}", "00".repeat(32)),
                "extrinsicsRoot": format!("0x{}", "00".repeat(32)),
                "digest": {"logs": [7]},
            }, "extrinsics": []}}),
            "digest log 0",
        ),
    ] {
        let server = TestNode::new(runtime(&[V14]))
            .block(real_block())
            .answer("chain_getBlock", answer.clone())
            .start()
            .unwrap();
        let node = BlockingClient::connect(&server.http_url()).unwrap();
        let err = node.fetch_block(0, &RangeOptions::default()).unwrap_err();
        assert!(
            matches!(err.root(), Error::Malformed { .. }),
            "{answer}: {err:?}"
        );
        assert!(
            err.to_string()
                .starts_with("block 0: chain_getBlock: malformed answer"),
            "{err}"
        );
        assert!(err.to_string().contains(expect), "{answer}: {err}");
    }
}

fn chain(blocks: u64) -> TestNode {
    let block = real_block();
    let mut node = TestNode::new(runtime(&[V14])).first_number(BLOCK_NUMBER);
    for _ in 0..blocks {
        node = node.block(block.clone());
    }
    node
}

#[test]
fn one_real_block_with_its_events() {
    let server = chain(1).start().unwrap();
    let node = BlockingClient::connect(&server.ws_url()).unwrap();
    let hash = node.block_hash(BLOCK_NUMBER).unwrap().unwrap();
    let block = node.block(&hash).unwrap().unwrap();
    assert_eq!(block.number, BLOCK_NUMBER);
    assert_eq!(block.extrinsics, real_block().extrinsics);
    assert_eq!(block.extrinsics.len(), 4);
    let events = node.events(Some(&hash)).unwrap().unwrap();
    assert_eq!(Some(events), real_block().events);
    assert_eq!(node.block_hash(BLOCK_NUMBER + 1).unwrap(), None);
    let rv = node.runtime_version(Some(&hash)).unwrap();
    assert_eq!(
        (rv.spec_name.as_str(), rv.spec_version),
        ("polkadot", 1000001)
    );
    // The events decode against the block's runtime.
    let metadata = node.metadata(Some(&hash)).unwrap().parse().unwrap();
    assert!(metadata.pallet("System").is_some());
}

/// [`chain`] of `blocks` blocks, whose block and storage requests fail
/// at first (twice and once for each parameter list).
fn flaky_chain(blocks: u64) -> TestServer {
    chain(blocks)
        .flaky("chain_getBlock", 2)
        .flaky("state_getStorage", 1)
        .start()
        .unwrap()
}

/// Retries quick enough for a loopback node: `attempts` tries, 10 to 40 ms apart.
fn quick_retries(attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts: attempts,
        initial_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(40),
    }
}

#[test]
fn block_range_in_order_through_a_flaky_node() {
    let n = 12;
    let server = flaky_chain(n);
    let options = RangeOptions {
        concurrency: 4,
        retry: quick_retries(3),
        ..RangeOptions::default()
    };
    for url in urls(&server) {
        let node = BlockingClient::connect_with(&url, quick()).unwrap();
        let got: Vec<_> = node
            .blocks(BLOCK_NUMBER..BLOCK_NUMBER + n, options)
            .collect::<Result<_, _>>()
            .unwrap();
        let numbers: Vec<u64> = got.iter().map(|b| b.block.number).collect();
        assert_eq!(
            numbers,
            (BLOCK_NUMBER..BLOCK_NUMBER + n).collect::<Vec<_>>()
        );
        for (i, b) in got.iter().enumerate() {
            assert_eq!(
                Some(b.block.hash),
                server.block_hash(BLOCK_NUMBER + i as u64)
            );
            if i > 0 {
                assert_eq!(b.block.parent_hash, got[i - 1].block.hash);
            }
            assert_eq!(b.events, real_block().events);
            assert_eq!(b.runtime.as_ref().unwrap().spec_version, 1000001);
        }
    }
    // Failures are per parameter list: the first URL's run used them up.
    // chain_getBlock: 2 failures + 1 success per block on the first run,
    // 1 call per block on the second.
    assert_eq!(server.requests("chain_getBlock"), 3 * n + n);
    assert_eq!(server.requests("state_getStorage"), 2 * n + n);
}

#[test]
fn retries_are_bounded_and_the_error_names_the_block() {
    let server = chain(3).flaky("chain_getBlock", 5).start().unwrap();
    let options = RangeOptions {
        concurrency: 2,
        retry: RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(5),
            max_backoff: Duration::from_millis(20),
        },
        events: false,
        runtime_version: false,
        batch: 1,
    };
    let node = BlockingClient::connect(&server.http_url()).unwrap();
    let got: Vec<_> = node
        .blocks(BLOCK_NUMBER..BLOCK_NUMBER + 3, options)
        .collect();
    assert_eq!(got.len(), 3);
    for (i, r) in got.iter().enumerate() {
        let err = r.as_ref().unwrap_err();
        let number = BLOCK_NUMBER + i as u64;
        assert!(
            matches!(err, Error::Block { number: n, .. } if *n == number),
            "{err:?}"
        );
        assert!(
            matches!(err.root(), Error::Rpc { code: -32603, .. }),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .starts_with(&format!("block {number}: chain_getBlock")),
            "{err}"
        );
    }
    // Exactly the attempts allowed, per block.
    assert_eq!(server.requests("chain_getBlock"), 3 * 3);
    // A block beyond the head is not retried.
    let err = node.fetch_block(BLOCK_NUMBER + 3, &options).unwrap_err();
    assert!(matches!(err.root(), Error::NotFound { .. }), "{err:?}");
    assert_eq!(server.requests("chain_getBlockHash"), 3 + 1);
}

#[test]
fn dropping_a_range_early_stops_fetching() {
    let server = chain(40).start().unwrap();
    let node = BlockingClient::connect(&server.ws_url()).unwrap();
    let options = RangeOptions {
        concurrency: 2,
        ..RangeOptions::default()
    };
    let first: Vec<_> = node
        .blocks(BLOCK_NUMBER..BLOCK_NUMBER + 40, options)
        .take(2)
        .collect();
    assert_eq!(first.len(), 2);
    std::thread::sleep(Duration::from_millis(200));
    let fetched = server.requests("chain_getBlock");
    assert!(
        fetched < 40,
        "{fetched} blocks fetched after the iterator was dropped"
    );
}

/// `RangeOptions::batch`: the same blocks as one request per call, through
/// a node whose calls fail at first (a batch with a failed call is asked
/// again whole) and through the fault proxy (JSON-RPC errors for a whole
/// batch, connections dropped); a block past the head names itself.
#[test]
fn block_range_in_batches_equals_one_request_per_call() {
    use ferroscale_rpc::fault_proxy::{Fault, FaultProxy, UPGRADE};
    let n = 12;
    let server = flaky_chain(n);
    let retry = quick_retries(6);
    let single = RangeOptions {
        concurrency: 4,
        retry,
        ..RangeOptions::default()
    };
    let batched = RangeOptions {
        concurrency: 2,
        batch: 5,
        ..single
    };
    let range = BLOCK_NUMBER..BLOCK_NUMBER + n;
    let fetch = |url: &str, options: RangeOptions| -> Vec<_> {
        let node = BlockingClient::connect_with(url, quick()).unwrap();
        node.blocks(range.clone(), options)
            .collect::<Result<_, _>>()
            .unwrap()
    };
    // Batched first: its retries use up the node's failures.
    let first = fetch(&server.http_url(), batched);
    assert_eq!(server.requests("chain_getBlock"), 3 * n);
    let reference = fetch(&server.http_url(), single);
    assert_eq!(first, reference);
    assert_eq!(first.len() as u64, n);
    assert_eq!(fetch(&server.ws_url(), batched), reference);

    // Every third message a JSON-RPC error (for each call of a batch),
    // every seventh dropping its connection.
    let proxy = FaultProxy::start(&server.http_url(), |i, method| match i % 7 {
        _ if method == UPGRADE => Fault::Pass,
        3 => Fault::Drop,
        _ if i % 3 == 1 => Fault::RpcError(-32603),
        _ => Fault::Pass,
    })
    .unwrap();
    for url in [proxy.http_url(), proxy.ws_url()] {
        assert_eq!(fetch(&url, batched), reference, "{url}");
    }
    assert!(proxy.faults() >= 4, "{} faults", proxy.faults());

    // Past the chain's end: the first block missing is named.
    let node = BlockingClient::connect_with(&server.ws_url(), quick()).unwrap();
    let past: Vec<_> = node
        .blocks(BLOCK_NUMBER + n - 2..BLOCK_NUMBER + n + 3, batched)
        .collect();
    let error = past
        .iter()
        .find_map(|r| r.as_ref().err())
        .expect("an error")
        .to_string();
    assert!(
        error.contains(&format!("block {}", BLOCK_NUMBER + n)) && error.contains("not found"),
        "{error}"
    );
}

/// A WebSocket handshake refused with 429 and `Retry-After`: the error
/// keeps the wait the node asked for, and the retries take it; without
/// the header, their own backoff applies.
#[test]
fn a_refused_websocket_handshake_keeps_its_retry_after() {
    use ferroscale_rpc::fault_proxy::{only, Fault, FaultProxy, UPGRADE};
    let server = chain(2).start().unwrap();
    let refusing = |retry_after| {
        let refusal = Fault::Status {
            status: 429,
            retry_after,
        };
        FaultProxy::start(&server.http_url(), only(UPGRADE, refusal)).unwrap()
    };
    let proxy = refusing(Some(7));
    let error = common::refusal(BlockingClient::connect_with(&proxy.ws_url(), quick()));
    common::assert_keeps_retry_after_7_s(&error);
    let proxy = refusing(None);
    let error = common::refusal(BlockingClient::connect_with(&proxy.ws_url(), quick()));
    common::assert_has_no_retry_after(&error);
    // An accepted handshake on the same path carries requests.
    let proxy = FaultProxy::start(&server.http_url(), |_, _| Fault::Pass).unwrap();
    let client = BlockingClient::connect_with(&proxy.ws_url(), quick()).unwrap();
    assert!(client
        .request("chain_getBlockHash", vec![json!(BLOCK_NUMBER)])
        .is_ok());
}
