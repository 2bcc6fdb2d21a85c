//! ferroscale-dynamic: decodes and encodes SCALE by py-scale-codec type string
//! (`"Vec<u32>"`, `"scale_info::42"`, `"MetadataVersioned"` …) over registries
//! built from type-registry presets and from a chain's portable registry.

pub mod account;
pub mod batch;
pub mod decode;
pub mod encode;
pub mod error;
pub mod graph;
pub mod portable;
pub mod runtime;
pub mod sink;

pub use batch::batch_decode;
pub use decode::{decode, decode_prefix, decode_value, Context};
pub use error::Error;
pub use graph::{BitStore, Field, Fields, Name, Node, Prim, Special, TypeGraph, TypeIdx, Variant};
pub use runtime::Runtime;
pub use sink::{Sink, ValueSink};
pub mod preset;
pub mod registry;
pub mod typestr;
