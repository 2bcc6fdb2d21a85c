#![forbid(unsafe_code)]
//! A node's metadata, then a block range as an indexer reads it, through
//! the facade's `rpc` feature. Against the loopback node
//! (`cargo run -p ferroscale-rpc --example loopback_node` prints its URL):
//! `cargo run -p ferroscale-example-from-a-node -- ws://127.0.0.1:PORT`;
//! against a node of your own, give its URL and a first block:
//! `… -- ws://127.0.0.1:9944 18000000`.

use ferroscale::codec::{Compact, Decode};
use ferroscale::metadata::Metadata;
use ferroscale::rpc::{BlockingClient, RangeOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let url = args.next().unwrap_or("ws://127.0.0.1:9944".into());
    let first: u64 = args.next().unwrap_or("108".into()).parse()?;
    let node = BlockingClient::connect(&url)?;
    let fetched = node.metadata(None)?; // newest of V14–V16, or the fallback
    println!("V{} via {}", fetched.version, fetched.source);
    let metadata = Metadata::from_bytes(&fetched.bytes)?;
    println!("{} pallets", metadata.pallets.len());
    // Blocks for indexers: in order, 8 in flight, failed requests retried with backoff.
    for b in node.blocks(first..first + 5, RangeOptions::default()) {
        let b = b?; // b.block.extrinsics, b.events (System.Events), b.runtime (spec)
        let events = match &b.events {
            Some(bytes) => Compact::<u32>::decode(&mut &bytes[..])?.0, // the Vec's length
            None => 0,
        };
        // The runtime in the block's state: the block that enacts an
        // upgrade shows the new one (its children run it).
        let spec = b.runtime.map_or(0, |r| r.spec_version);
        let extrinsics = b.block.extrinsics.len();
        let number = b.block.number;
        println!("#{number}: {extrinsics} extrinsics, {events} events, state at spec {spec}");
    }
    Ok(())
}
