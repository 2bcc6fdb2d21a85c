//! ferroscale-rpc: a JSON-RPC client of Substrate nodes, over HTTP and
//! WebSocket (jsonrpsee), for what ferroscale needs from a live node.
//!
//! - **Metadata** ([`Client::metadata`]): the newest version the node offers
//!   among V14–V16 (`Metadata_metadata_versions`, then
//!   `Metadata_metadata_at_version`), with a fallback to `state_getMetadata`;
//!   the `RuntimeMetadataPrefixed` bytes `ferroscale_metadata::Metadata`
//!   loads, and which call gave them ([`FetchedMetadata`]).
//! - **Blocks for indexers**: [`Client::block_hash`], [`Client::block`]
//!   (number, hash, parent, extrinsics as bytes), [`Client::storage`] and
//!   [`Client::events`] (`System.Events`), [`Client::runtime_version`], and
//!   [`Client::blocks`], a range in order with bounded concurrency and
//!   retries with exponential backoff ([`RangeOptions`], [`RetryPolicy`]).
//! - **Connections that fail**: a WebSocket the node (or anything between)
//!   closes is reopened by the next request, and a request that failed
//!   with it is tried again like any transient failure; a handshake
//!   refused with 429 or a 5xx status is [`Error::Busy`], tried again too
//!   ([`Client::connect_retrying`] for the first connection), after its
//!   `Retry-After` when a `ws://` or `wss://` node gives one
//!   (`ws_handshake`: the handshake over a stream that keeps the answer's
//!   head).
//! - **Synchronous use**: [`BlockingClient`] owns a small tokio runtime and
//!   offers the same calls blocking; [`BlockingClient::blocks`] is an
//!   iterator that fetches ahead while the caller decodes.
//!
//! ```no_run
//! use ferroscale_rpc::{BlockingClient, RangeOptions};
//!
//! let node = BlockingClient::connect("ws://127.0.0.1:9944")?;
//! let metadata = node.metadata(None)?; // V16 via the runtime API, say
//! println!("{} bytes of V{} from {}", metadata.bytes.len(), metadata.version, metadata.source);
//! for block in node.blocks(100..110, RangeOptions::default()) {
//!     let block = block?; // an error names the block
//!     println!("#{} {} extrinsics", block.block.number, block.block.extrinsics.len());
//! }
//! # Ok::<(), ferroscale_rpc::Error>(())
//! ```
//!
//! Every answer is untrusted: a wrong shape, bad hex or a SCALE length
//! prefix beyond the bytes present is an [`Error::Malformed`] naming the
//! method; answers are capped in size ([`ClientConfig::max_response_bytes`]);
//! nothing panics on what a node sends.
//!
//! With the `test-server` feature, `test_server` is a loopback node that
//! answers from fixture data, for the tests of this crate and the crates
//! above it.

#![forbid(unsafe_code)]

mod answer;
mod blocking;
mod blocks;
mod client;
mod config;
mod error;
#[cfg(feature = "test-server")]
pub mod fault_proxy;
mod metadata;
mod retry;
#[cfg(feature = "test-server")]
pub mod test_server;
mod throttle;
mod transport;
mod ws_handshake;
#[cfg(feature = "tls")]
mod ws_tls;

pub use answer::Hash;
pub use blocking::{BlockIter, BlockingClient};
pub use blocks::{system_events_key, Block, FetchedBlock, RangeOptions, RuntimeVersion};
pub use client::Client;
pub use config::ClientConfig;
pub use error::Error;
pub use metadata::{FetchedMetadata, MetadataSource, SUPPORTED_VERSIONS};
pub use retry::RetryPolicy;
