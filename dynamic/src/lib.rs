//! ferroscale-dynamic: decodes and encodes SCALE by py-scale-codec type string
//! (`"Vec<u32>"`, `"scale_info::42"`, `"MetadataVersioned"` …) over registries
//! built from type-registry presets and from a chain's portable registry.
//!
//! The engine: every type becomes a node of a [`TypeGraph`] ([`graph`]),
//! whether it came from a portable registry ([`portable`]) or from a type
//! string / preset (`typestr`, `preset`, `registry`). `decode` walks the
//! graph into a [`Sink`]: the Rust [`Value`](ferroscale_value::Value)
//! tree via [`ValueSink`], a flat [`Document`] (the same values in a few
//! arrays, names borrowed from the graph: several times faster to build),
//! or Python objects in the `python` crate. `encode` goes back from a
//! `Value`. Special types (Call, Extrinsic, events, Era, accounts)
//! read the active [`Runtime`] ([`runtime`]).
//!
//! Values follow py-scale-codec 1.2.12 (checked by `tests/differential.rs`).
//! Deliberate differences, all on input py-scale-codec mishandles:
//!
//! - a nested call's `call_hash` is the hash of that call's own bytes;
//!   py-scale-codec hashes from the call to the end of the whole input;
//! - an `Option` discriminant other than 0/1 and an enum index with no
//!   variant are errors (py-scale-codec takes any non-zero byte as `Some`
//!   and gives `None` for a gap in the variant indices);
//! - a `BitVec` with `u16`/`u32`/`u64` store words reads whole words
//!   (py-scale-codec reads `ceil(bits / 8)` bytes whatever the store);
//! - signed extensions are read in metadata order, and an extension py-scale-codec
//!   does not know (`era`/`nonce`/`tip`/`asset_id`/`mode`) but that carries
//!   data appears under its identifier instead of being skipped (which
//!   misreads the rest of the extrinsic);
//! - a bit sequence of one zero bit renders `"0b0"`, like an empty one, and
//!   encodes back as empty (py-scale-codec's `bin(0)` rendering).

#![forbid(unsafe_code)]

// Modules that are the API keep their paths; the engine's own modules are
// private and export what users need below.
mod account;
mod batch;
mod context;
mod decode;
mod encode;
mod error;
mod metadata_types;
mod sink;

pub mod document;
pub mod graph;
pub mod hook;
pub mod kind;
pub mod ops;
pub mod portable;
pub mod preset;
pub mod registry;
pub mod runtime;
pub mod typestr;

pub use account::{account_layout, ss58_account, AccountLayout, PendingAccounts};
pub use batch::{batch_decode, batch_decode_into};
pub use context::{
    Context, KnownHash, MetadataTypesSource, DEFAULT_MAX_DEPTH, DEFAULT_STACK_BUDGET,
};
pub use decode::{decode, decode_prefix, decode_value};
pub use document::{Document, ValueRef};
pub use encode::payload::{signature_payload, ExtensionValues, PayloadInput, MAX_UNHASHED_PAYLOAD};
pub use encode::{encode_call, encode_into, encode_value, CallArgs};
pub use error::{Error, ItemKind};
pub use graph::{BitStore, Field, Fields, Name, Node, Prim, Special, TypeGraph, TypeIdx, Variant};
pub use kind::NodeKind;
pub use metadata_types::{installed as installed_metadata_types, MetadataTypes};
pub use runtime::Runtime;
pub use sink::{Sink, ValueSink};
