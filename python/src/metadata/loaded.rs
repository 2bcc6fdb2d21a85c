//! Runtime metadata read once by the engine and kept on its
//! `MetadataVersioned` object ([`LoadedMetadata`]): the model behind the
//! object's `_info`, built on first use, and the metadata that
//! `add_portable_registry` loads into a configuration without reading the
//! bytes again. The object's Python value is built on first read
//! (`crate::metadata::model::metadata_value`, see
//! `crate::objects::object::DeferredValue`).

use std::sync::Arc;

use ferroscale_metadata::Metadata;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Metadata the engine has read and checked.
#[pyclass(frozen, module = "scalecodec._core", name = "LoadedMetadata")]
pub struct LoadedMetadata {
    model: Arc<Metadata>,
}

impl LoadedMetadata {
    /// Reads `data` (a `ValueError` naming what is wrong and where).
    pub(crate) fn read(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        Ok(LoadedMetadata {
            model: Arc::new(crate::metadata::model::read_metadata(py, data)?),
        })
    }

    /// The engine's model.
    pub(crate) fn model(&self) -> &Arc<Metadata> {
        &self.model
    }

    /// The metadata version (9–16).
    pub(crate) fn version(&self) -> u32 {
        self.model.version
    }

    /// The signed extensions as `_core.metadata_info` lists them.
    pub(crate) fn signed_extensions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::metadata::model::signed_extensions_dict(py, &self.model)
    }

    /// `_core.metadata_info`'s dict of this metadata.
    pub(crate) fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::metadata::model::info_dict(py, &self.model)
    }
}
