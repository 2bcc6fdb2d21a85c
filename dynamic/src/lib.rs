//! ferroscale-dynamic: decodes and encodes SCALE by py-scale-codec type string
//! (`"Vec<u32>"`, `"scale_info::42"`, `"MetadataVersioned"` …) over registries
//! built from type-registry presets and from a chain's portable registry.

pub mod graph;

pub use graph::{BitStore, Field, Fields, Name, Node, Prim, Special, TypeGraph, TypeIdx, Variant};
pub mod typestr;
