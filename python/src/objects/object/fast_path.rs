//! A class's fast path: the graph node a class made for a type string
//! decodes and encodes through ([`FastNode`], set on the class), and what an
//! object created from such a class keeps of it ([`FastPath`]).

use std::sync::Arc;

use pyo3::prelude::*;

use crate::registry::PyRegistry;

/// `_fast_node` of a class made by `crate::config::classes`: its graph node, the
/// registry generation it was resolved in, and whether the class decodes
/// and encodes exactly as the node does (no Python hook overridden).
#[pyclass(frozen, module = "scalecodec._core", name = "FastNode")]
pub struct FastNode {
    node: u32,
    generation: u64,
    decode: bool,
    encode: bool,
    /// The type string, kept only when encoding depends on it (see
    /// `ferroscale_dynamic::ops::object`), so that other objects carry none.
    type_name: Option<Arc<str>>,
}

#[pymethods]
impl FastNode {
    /// The marker for `node` (of `type_string`) at registry `generation`.
    #[new]
    fn new(node: u32, generation: u64, decode: bool, encode: bool, type_string: &str) -> Self {
        let type_name = ferroscale_dynamic::ops::portable_json::has_defaults(type_string)
            .then(|| Arc::from(type_string));
        FastNode {
            node,
            generation,
            decode,
            encode,
            type_name,
        }
    }
}

/// What an object created by `ConfigBase::create_scale_object`
/// (`crate::config`) needs to decode and encode without going through Python.
pub(crate) struct FastPath {
    pub(super) node: u32,
    pub(super) registry: Py<PyRegistry>,
    /// The registry generation the node belongs to.
    pub(super) generation: u64,
    pub(super) decode: bool,
    pub(super) encode: bool,
    pub(super) type_name: Option<Arc<str>>,
}

impl FastPath {
    /// The fast path of a class marked `marker`, over `registry`.
    pub(crate) fn new(marker: &FastNode, registry: Py<PyRegistry>) -> Self {
        FastPath {
            node: marker.node,
            registry,
            generation: marker.generation,
            decode: marker.decode,
            encode: marker.encode,
            type_name: marker.type_name.clone(),
        }
    }
}
