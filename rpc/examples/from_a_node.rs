//! The README's `ferroscale-rpc` example: a node's metadata, then a block
//! range as an indexer reads it. `cargo run -p ferroscale-rpc --example
//! from_a_node -- ws://127.0.0.1:9944` (any node's URL).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .unwrap_or("ws://127.0.0.1:9944".into());
    let node = ferroscale_rpc::BlockingClient::connect(&url)?;
    let fetched = node.metadata(None)?; // newest of V14–V16, or the fallback
    println!("V{} via {}", fetched.version, fetched.source);
    let metadata = ferroscale_metadata::Metadata::from_bytes(&fetched.bytes)?;
    println!("{} pallets", metadata.pallets.len());
    // Blocks for indexers: in order, 8 in flight, failed requests retried with backoff.
    for b in node.blocks(1_000..1_010, ferroscale_rpc::RangeOptions::default()) {
        let b = b?; // b.block.extrinsics, b.events (System.Events), b.runtime (spec)
        println!(
            "#{}: {} extrinsics",
            b.block.number,
            b.block.extrinsics.len()
        );
    }
    Ok(())
}
