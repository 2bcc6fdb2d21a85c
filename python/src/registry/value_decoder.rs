//! `_core.ValueDecoder`: cyscale 0.8's value decoder (what
//! `RuntimeConfigurationObject.get_value_decoder` returns): a callable that
//! decodes the bytes of one type to its plain value, in py-scale-codec
//! 1.2.12's shapes, with no scale object around it.
//!
//! It keeps the graph node its type string resolved to and resolves again
//! when the registry has changed since (new presets, metadata, spec version),
//! so a decoder taken before a change never reads a stale node.

use ferroscale_dynamic::TypeIdx;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::registry::{PyRegistry, RegistryState};

/// `__reduce__`'s answer: the class and its constructor's arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (Py<PyRegistry>, String));

/// A decoder of one type string's values (cyscale's `ValueDecoder`):
/// `decoder(data)` decodes all of `data` (`bytes`, `bytearray` or a
/// `memoryview`; bytes left over are a `RemainingScaleBytesNotEmptyException`),
/// `decoder.decode_at(data, offset)` one value from `offset` and returns
/// `(value, offset after it)`.
///
/// Frozen: one decoder is shared by every thread that asked its
/// configuration for it; the node it keeps changes only with its
/// registry's lock held.
#[pyclass(frozen, module = "scalecodec._core", name = "ValueDecoder")]
pub struct ValueDecoder {
    registry: Py<PyRegistry>,
    type_string: String,
    /// The node, and the registry generation it was resolved in; read and
    /// written only with the registry's lock held, which orders them.
    node: AtomicU32,
    generation: AtomicU64,
}

impl ValueDecoder {
    fn decode<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        // a memoryview (cyscale takes any buffer) is read as a bytes copy
        let copied;
        let data = if data.is_instance_of::<PyBytes>() || data.is_instance_of::<PyByteArray>() {
            data
        } else if data.is_instance_of::<PyMemoryView>() {
            copied = py.get_type::<PyBytes>().call1((data,))?;
            &copied
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "data must be bytes, bytearray or memoryview, not {}",
                data.get_type().name()?
            )));
        };
        let registry = self.registry.bind(py);
        let resolve = |reg: &mut RegistryState| {
            if reg.current_generation() != self.generation.load(Ordering::Relaxed) {
                let node = reg.resolve_idx(py, &self.type_string)?;
                self.node.store(node.0, Ordering::Relaxed);
                self.generation
                    .store(reg.current_generation(), Ordering::Relaxed);
            }
            Ok(TypeIdx(self.node.load(Ordering::Relaxed)))
        };
        PyRegistry::decode_node_of(
            registry,
            resolve,
            Some(&self.type_string),
            data,
            offset,
            check_remaining,
        )
    }
}

#[pymethods]
impl ValueDecoder {
    /// A decoder of `type_string` in `registry` (the type's errors when it
    /// does not resolve: `NotImplementedError` for an unknown type).
    #[new]
    fn new(registry: &Bound<'_, PyRegistry>, type_string: &str) -> PyResult<Self> {
        let py = registry.py();
        let mut reg = registry.get().lock(py)?;
        let node = reg.resolve_idx(py, type_string)?;
        Ok(ValueDecoder {
            registry: registry.clone().unbind(),
            type_string: type_string.to_owned(),
            node: AtomicU32::new(node.0),
            generation: AtomicU64::new(reg.current_generation()),
        })
    }

    /// The value of all of `data`.
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.decode(py, data, 0, true)?.0)
    }

    /// `(value, offset after it)` of the value at `offset` in `data`.
    fn decode_at<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        offset: usize,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let (value, used) = self.decode(py, data, offset, false)?;
        Ok((value, offset + used))
    }

    /// The type string it decodes.
    #[getter]
    fn type_string(&self) -> &str {
        &self.type_string
    }

    fn __repr__(&self) -> String {
        format!("<ValueDecoder {:?}>", self.type_string)
    }

    /// Pickles as `ValueDecoder(registry, type_string)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let this = slf.get();
        let args = (this.registry.clone_ref(slf.py()), this.type_string.clone());
        Ok((slf.get_type().into_any(), args))
    }
}
