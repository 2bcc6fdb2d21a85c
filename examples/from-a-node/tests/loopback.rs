//! The example works against a node: it runs on the loopback test node
//! serving the fixture chain of `rpc/examples/loopback_node.rs` (blocks
//! 100–110 under spec 9180, block 110 enacting the upgrade to spec
//! 1,000,001, blocks 111–115 under it), and prints what it fetched.

use std::process::Command;

use ferroscale_rpc::test_server::{TestBlock, TestNode, TestRuntime, TestServer};

/// The same chain `cargo run -p ferroscale-rpc --example loopback_node` serves.
fn loopback_node() -> TestServer {
    let block = |runtime, dir: &str, events: bool| {
        let extrinsics = ferroscale_fixtures::read_string(&format!("{dir}/extrinsics.json"));
        let events = events.then(|| ferroscale_fixtures::read_string(&format!("{dir}/events.hex")));
        TestBlock::from_fixture(runtime, &extrinsics, events.as_deref()).unwrap()
    };
    let old = block(0, "payloads/polkadot-block-10000000", false);
    let new = block(1, "payloads/polkadot-block-18468942", true);
    let runtime =
        |spec, file| TestRuntime::new("polkadot", spec, vec![ferroscale_fixtures::read(file)]);
    let mut node = TestNode::new(runtime(9180, "metadata/polkadot-v14-spec9180.scale"))
        .runtime(runtime(
            1_000_001,
            "metadata/polkadot-v14-spec1000001.scale",
        ))
        .first_number(100);
    for number in 100..=115u64 {
        node = node.block(match number {
            // The block that enacts the upgrade still runs the old runtime.
            110 => TestBlock {
                runtime: 1,
                ..old.clone()
            },
            ..110 => old.clone(),
            _ => new.clone(),
        });
    }
    node.start().unwrap()
}

fn run_example(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ferroscale-example-from-a-node"))
        .args(args)
        .output()
        .expect("the example runs");
    assert!(
        out.status.success(),
        "the example failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn the_example_reads_the_loopback_node() {
    let server = loopback_node();
    for url in [server.ws_url(), server.http_url()] {
        let printed = run_example(&[&url]);
        assert_eq!(
            printed.lines().collect::<Vec<_>>(),
            [
                "V14 via Metadata_metadata_at_version(14)",
                "52 pallets",
                "#108: 2 extrinsics, 0 events, state at spec 9180",
                "#109: 2 extrinsics, 0 events, state at spec 9180",
                "#110: 2 extrinsics, 0 events, state at spec 1000001",
                "#111: 4 extrinsics, 58 events, state at spec 1000001",
                "#112: 4 extrinsics, 58 events, state at spec 1000001",
            ],
            "{url}"
        );
    }
}
