//! ferroscale-index: Substrate blocks decoded into columns.
//!
//! A batch of blocks of known runtimes (number, hash, spec version, the
//! extrinsics' bytes, the `System.Events` value) decodes through the dynamic
//! layer into Arrow record batches for five tables — `blocks`,
//! `extrinsics`, `calls` (nested calls flattened with their depth and
//! parent), `events` and `errors` (items that did not decode) — written as
//! zstd Parquet partitions, one file per table per block range; with
//! [`pipeline::Options::typed`], also the typed tables ([`typed`]: one per
//! event variant and per call, a column per field).
//!
//! - [`block`]: the input model; [`source`]: blocks from JSON lines,
//!   [`line_index`]: a block range of such a file read without the rest;
//!   [`metadata_dir`]: runtime metadata on disk, one file per spec;
//!   `rpc_source` (feature `rpc`): blocks from a node.
//! - [`spec`]: one runtime's decoder (registry + resolved types), shared
//!   read-only by every thread.
//! - [`rows`]: a block into rows, each JSON column the dynamic layer's
//!   value written as JSON (`ValueRef::write_json`, the one rendering of
//!   every JSON output); [`store`]: the rows, stored by column
//!   ([`columns`]: text columns in Arrow's layout).
//! - [`tables`]: schemas and rows → `RecordBatch`es, uncopied;
//!   [`partition`]: Parquet files written atomically, each with its
//!   provenance; [`manifest`]: which blocks are done (resume by block
//!   number) and [`check`]: a dataset verified against it.
//! - [`typed`]: the typed tables, a table per event variant and per call
//!   with a column per field in Arrow's own types (`--typed`);
//!   [`saved_naming`]: their column names kept in the manifest, so every
//!   run into a folder names them as the runs before it did.
//! - [`pipeline`]: source → decode (rayon) → write, streamed;
//!   [`allocator`]: malloc settings for the program that runs it.
//!
//! ```no_run
//! use ferroscale_index::{pipeline, source::JsonLines, spec::SpecDecoder};
//! let metadata = std::fs::read("metadata.scale").unwrap();
//! let mut decoders = pipeline::Decoders::new();
//! decoders.insert(SpecDecoder::from_metadata(&metadata, None).unwrap());
//! let file = std::io::BufReader::new(std::fs::File::open("blocks.jsonl").unwrap());
//! let summary = pipeline::run(JsonLines::new(file), &mut decoders, &pipeline::Options::new("out")).unwrap();
//! println!("{summary}");
//! ```

pub mod allocator;
pub mod block;
mod call_tree;
pub mod check;
pub mod columns;
#[cfg(feature = "rpc")]
pub mod follow;
pub mod layout;
pub mod line_index;
pub mod manifest;
pub mod metadata_dir;
pub mod partition;
pub mod pipeline;
pub mod rows;
#[cfg(feature = "rpc")]
pub mod rpc_source;
pub mod saved_naming;
pub mod source;
pub mod spec;
pub mod store;
pub mod tables;
pub mod typed;
#[cfg(test)]
mod typed_direct_tests;

pub use block::Block;
pub use manifest::Manifest;
pub use partition::Gaps;
pub use pipeline::{run, run_observed, Decoders, IndexError, Options, Progress, Summary};
pub use rows::{decode_block, decode_block_typed};
pub use spec::{Presets, SpecDecoder};
pub use store::Rows;
pub use tables::{Table, Tables};
