//! The indexing guide's Rust program (docs/indexing.md, "From Rust"): a
//! JSON-lines file of blocks into Parquet partitions, one decoder per runtime.
//!
//! `cargo run -p ferroscale-index --example index_a_file -- BLOCKS OUT METADATA…`
#![forbid(unsafe_code)]

use std::fs::File;
use std::io::BufReader;

use ferroscale_index::{pipeline, source::JsonLines, SpecDecoder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: index_a_file BLOCKS.jsonl OUT_DIR METADATA.scale…";
    let (blocks, out) = (args.next().ok_or(usage)?, args.next().ok_or(usage)?);
    // One decoder per runtime; each knows its spec version from its metadata.
    let mut decoders = pipeline::Decoders::new();
    for metadata in args {
        decoders.insert(SpecDecoder::from_metadata(&std::fs::read(metadata)?, None)?);
    }
    let mut options = pipeline::Options::new(out);
    options.partition_blocks = 10;
    let source = JsonLines::new(BufReader::new(File::open(blocks)?));
    let summary = pipeline::run(source, &mut decoders, &options)?;
    println!(
        "{} blocks, {} extrinsics, {} events, {} errors in {} partitions",
        summary.blocks, summary.extrinsics, summary.events, summary.errors, summary.partitions
    );
    Ok(())
}
