//! The loopback node the tests index from, serving a chain of real blocks
//! for the docs' `ferroscale index --url` runs (docs/indexing.md, docs/cli.md): blocks 100–110 carry block
//! 10,000,000's extrinsics under spec 9180 (block 110 enacts an upgrade),
//! blocks 111–115 block 18,468,942's extrinsics and events under spec
//! 1,000,001. It listens on `127.0.0.1` only, prints its URL and serves for
//! the given minutes (10 by default):
//! `cargo run -p ferroscale-rpc --example loopback_node [-- MINUTES]`.
//! The fixtures come from `../shared/fixtures` (or `$FERROSCALE_FIXTURES`).

use std::time::Duration;

use ferroscale_fixtures::{read, read_string};
use ferroscale_rpc::test_server::{TestBlock, TestNode, TestRuntime};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let minutes: u64 = match std::env::args().nth(1) {
        Some(m) => m.parse().map_err(|e| format!("minutes: {m:?}: {e}"))?,
        None => 10,
    };
    let serving = minutes
        .checked_mul(60)
        .map(Duration::from_secs)
        .ok_or_else(|| format!("minutes: {minutes} is too long"))?;
    let block = |runtime, dir: &str, events: bool| {
        let events = events.then(|| read_string(&format!("{dir}/events.hex")));
        TestBlock::from_fixture(
            runtime,
            &read_string(&format!("{dir}/extrinsics.json")),
            events.as_deref(),
        )
    };
    let old = block(0, "payloads/polkadot-block-10000000", false)?;
    let new = block(1, "payloads/polkadot-block-18468942", true)?;
    let runtime = |spec, file| TestRuntime::new("polkadot", spec, vec![read(file)]);
    let mut node = TestNode::new(runtime(9180, "metadata/polkadot-v14-spec9180.scale"))
        .runtime(runtime(
            1_000_001,
            "metadata/polkadot-v14-spec1000001.scale",
        ))
        .first_number(100)
        .lifetime(serving);
    for number in 100..=115u64 {
        node = node.block(match number {
            // The block that enacts an upgrade still runs the old runtime;
            // its state (what its children run) has the new one.
            110 => TestBlock {
                runtime: 1,
                ..old.clone()
            },
            ..110 => old.clone(),
            _ => new.clone(),
        });
    }
    let server = node.start()?;
    println!("{}", server.ws_url());
    println!("blocks 100-115, serving for {minutes} min (Ctrl-C stops it)");
    std::thread::sleep(serving);
    Ok(())
}
