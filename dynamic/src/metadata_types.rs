//! The definitions `MetadataVersioned` values decode and encode with
//! (py-scale-codec's `core` preset `MetadataV9`–`V14` and our V15/V16), held
//! once per process in their own graph. The decoder and encoder read them
//! through their [`Context`](crate::Context); the registry layer compiles
//! and installs them ([`crate::registry::metadata_types`]), so that this
//! module needs nothing above the type graph.

use std::sync::OnceLock;

use crate::error::Error;
use crate::graph::{Name, TypeGraph, TypeIdx};

/// The metadata definitions, compiled into their own graph.
#[derive(Debug)]
pub struct MetadataTypes {
    graph: TypeGraph,
    /// (version byte, `MetadataV<n>` node, the variant name `"V<n>"`).
    versions: Vec<(u8, TypeIdx, Name)>,
}

impl MetadataTypes {
    /// The definitions: the graph they were compiled into and, per version
    /// byte, the `MetadataV<n>` node.
    pub(crate) fn new(graph: TypeGraph, versions: Vec<(u8, TypeIdx, Name)>) -> Self {
        MetadataTypes { graph, versions }
    }

    /// The graph the definitions were compiled into.
    pub fn graph(&self) -> &TypeGraph {
        &self.graph
    }

    /// The node of `MetadataV<version>` and its variant name `"V<version>"`.
    pub fn version(&self, version: u8) -> Option<(TypeIdx, &Name)> {
        self.versions
            .iter()
            .find(|(v, _, _)| *v == version)
            .map(|(_, idx, name)| (*idx, name))
    }

    /// The version byte of a variant name (`"V14"` → 14).
    pub fn version_of(&self, name: &str) -> Option<u8> {
        self.versions
            .iter()
            .find(|(_, _, n)| &**n == name)
            .map(|(v, _, _)| *v)
    }
}

static TYPES: OnceLock<MetadataTypes> = OnceLock::new();

/// Installs `types` for this process unless definitions already are (the
/// first installation wins: they are those of the pinned preset, whoever
/// reads it).
pub(crate) fn install(types: MetadataTypes) -> &'static MetadataTypes {
    TYPES.get_or_init(|| types)
}

/// The definitions installed for this process, if any.
pub(crate) fn get() -> Option<&'static MetadataTypes> {
    TYPES.get()
}

/// The installed definitions, or an error saying how to install them (the
/// default source of a bare [`Context`](crate::Context)).
pub fn installed() -> Result<&'static MetadataTypes, Error> {
    get().ok_or_else(|| {
        Error::Usage(
            "MetadataVersioned needs the metadata definitions: decode through \
             Registry::context(), or install them first with \
             registry::install_core_preset"
                .to_owned(),
        )
    })
}
