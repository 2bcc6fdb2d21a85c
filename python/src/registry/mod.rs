//! `_core.Registry`: one `ferroscale_dynamic` registry per
//! `RuntimeConfigurationObject`, plus what the Python layer needs around it
//! (interned names, the metadata it was loaded with, and the log of inputs
//! that rebuilds it when unpickled).
//!
//! Children: [`kinds`] (`TypeKind`, class attributes), [`storage`] (storage keys and values by name), [`runtime_api`] (runtime APIs, view functions), [`transaction`] (calls by name, signature payloads), [`value_decoder`] (cyscale's value decoders).

mod batch;
mod codec;
pub mod kinds;
mod lock;
pub mod runtime_api;
mod state;
pub mod storage;
pub mod transaction;
pub mod value_decoder;

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{Error, TypeIdx};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use std::sync::Arc;

use lock::{Held, ThreadLock};
use state::Input;
pub(crate) use state::RegistryState;

use crate::convert::detached::detached;
use crate::convert::sink::{GcPause, PySink};
use crate::convert::to_value;
use crate::errors::{guard, to_py};

/// A type registry: presets, portable registry, runtime, SS58 format.
///
/// Frozen: its state is behind a lock of its own ([`lock`]), which threads
/// sharing one runtime configuration wait for in turn.
#[pyclass(frozen, module = "scalecodec._core", name = "Registry")]
pub struct PyRegistry {
    state: ThreadLock<RegistryState>,
}

impl PyRegistry {
    /// The registry of py-scale-codec's metadata definitions
    /// ([`ferroscale_dynamic::ops::portable_json::metadata_definitions`]),
    /// built on first use and kept with its interned names for the process.
    /// A Python object, so that a re-entrant use (a finalizer run while it
    /// decodes) is an error, not a deadlock.
    pub(crate) fn metadata_definitions(py: Python<'_>) -> PyResult<&Bound<'_, PyRegistry>> {
        static DEFINITIONS: PyOnceLock<Py<PyRegistry>> = PyOnceLock::new();
        let registry = DEFINITIONS.get_or_try_init(py, || {
            let inner = ferroscale_dynamic::ops::portable_json::metadata_definitions()
                .map_err(|e| to_py(py, &e))?;
            Py::new(py, PyRegistry::with_inner(inner))
        })?;
        Ok(registry.bind(py))
    }

    /// A Python registry around `inner` (built in Rust).
    pub(crate) fn with_inner(inner: Registry) -> Self {
        let mut state = RegistryState::new();
        state.inner = Arc::new(inner);
        PyRegistry::of(state)
    }

    fn of(state: RegistryState) -> Self {
        PyRegistry {
            state: ThreadLock::new(state),
        }
    }

    /// [`Self::ensure_metadata`] of the registry `slf`: the metadata is read
    /// with the interpreter lock released (no borrow of the registry held
    /// meanwhile, so other threads keep using it), then loaded. `read` is
    /// the engine's reading of `data` when the caller has it already.
    pub(crate) fn ensure_metadata_in(
        slf: &Bound<'_, Self>,
        data: &[u8],
        read: Option<Arc<ferroscale_metadata::Metadata>>,
    ) -> PyResult<bool> {
        let py = slf.py();
        let Some(model) = Self::reading_to_load(slf, data, read)? else {
            return Ok(false);
        };
        slf.get()
            .lock(py)?
            .ensure_metadata_held(py, data, Some(model))
    }

    /// The engine's reading of metadata `data` when the registry does not
    /// hold it now (`read`, when the caller has it, else read with the
    /// interpreter lock released and no lock of the registry held, so other
    /// threads keep using it); `None` when it is loaded already.
    fn reading_to_load(
        slf: &Bound<'_, Self>,
        data: &[u8],
        read: Option<Arc<ferroscale_metadata::Metadata>>,
    ) -> PyResult<Option<Arc<ferroscale_metadata::Metadata>>> {
        let py = slf.py();
        if !slf.get().lock(py)?.needs_load(data, read.as_ref()) {
            return Ok(None);
        }
        let model = match read {
            Some(model) => model,
            None => Arc::new(
                detached(py, "reading metadata", || {
                    ferroscale_metadata::Metadata::load(data)
                })
                .map_err(PyValueError::new_err)?
                .map_err(|e| to_py(py, &Error::from(e)))?,
            ),
        };
        Ok(Some(model))
    }

    /// The registry's state, once no other thread holds it (see [`lock`]).
    pub(crate) fn lock(&self, py: Python<'_>) -> PyResult<Held<'_, RegistryState>> {
        self.state.lock(py)
    }
}

#[pymethods]
impl PyRegistry {
    /// An empty registry (py-scale-codec's built-in classes only).
    #[new]
    fn py_new() -> Self {
        PyRegistry::of(RegistryState::new())
    }

    /// Applies a preset given as JSON text (`update_type_registry`).
    fn update_preset(&self, py: Python<'_>, json: &str) -> PyResult<()> {
        self.lock(py)?.update_preset(py, json)
    }

    /// Adds or overrides type definitions given as a JSON object (`update_type_registry_types`).
    fn update_types(&self, py: Python<'_>, json: &str) -> PyResult<()> {
        self.lock(py)?.update_types(py, json)
    }

    /// Forgets every definition, the portable registry and the runtime.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        self.lock(py)?.clear();
        Ok(())
    }

    /// Switches the active spec version (applies the presets' versioning).
    fn set_active_spec_version_id(&self, py: Python<'_>, spec: u64) -> PyResult<()> {
        self.lock(py)?.set_active_spec_version_id(spec);
        Ok(())
    }

    /// Forgets the active spec version (what its versioning applied stays).
    fn clear_active_spec_version_id(&self, py: Python<'_>) -> PyResult<()> {
        self.lock(py)?.clear_active_spec_version_id();
        Ok(())
    }

    /// The active spec version, if one was set.
    #[getter]
    fn active_spec_version_id(&self, py: Python<'_>) -> PyResult<Option<u64>> {
        Ok(self.lock(py)?.active_spec_version_id())
    }

    /// The spec version at `block` from the presets' `runtime_upgrades`.
    fn get_runtime_id_from_upgrades(&self, py: Python<'_>, block: u64) -> PyResult<Option<u64>> {
        Ok(self.lock(py)?.get_runtime_id_from_upgrades(block))
    }

    /// Sets the newest block the runtime-upgrade table is known to cover.
    fn set_runtime_upgrades_head(&self, py: Python<'_>, block: u64) -> PyResult<()> {
        self.lock(py)?.set_runtime_upgrades_head(block);
        Ok(())
    }

    /// The `runtime_upgrades` table of the presets as `[(block, spec)]`.
    fn runtime_upgrades(&self, py: Python<'_>) -> PyResult<Option<Vec<(u64, i64)>>> {
        let held = self.lock(py)?;
        Ok(held
            .inner
            .definitions()
            .runtime_upgrades()
            .map(<[_]>::to_vec))
    }

    /// The SS58 format account ids render in (`None`: hex).
    #[getter]
    fn get_ss58_format(&self, py: Python<'_>) -> PyResult<Option<u16>> {
        Ok(self.lock(py)?.get_ss58_format())
    }

    /// Sets the SS58 format account ids render in.
    #[setter]
    fn set_ss58_format(&self, py: Python<'_>, format: Option<u16>) -> PyResult<()> {
        self.lock(py)?.set_ss58_format(format);
        Ok(())
    }

    /// The registry's generation: changes with every change to it.
    #[getter]
    fn generation(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.lock(py)?.generation)
    }

    /// Whether runtime metadata (calls, events) is loaded.
    #[getter]
    fn has_runtime(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.lock(py)?.inner.runtime().is_some())
    }

    /// Whether a V14+ portable registry is loaded.
    #[getter]
    fn has_portable(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.lock(py)?.inner.portable().is_some())
    }

    /// The graph index `type_string` resolves to (`NotImplementedError` when unknown).
    fn resolve(&self, py: Python<'_>, type_string: &str) -> PyResult<u32> {
        let mut held = self.lock(py)?;
        guard("resolving a type", || {
            Ok(held.resolve_idx(py, type_string)?.0)
        })
    }

    /// The display name of node `idx` (`scale_info::N`, `Vec<u32>` …).
    fn describe(&self, py: Python<'_>, idx: u32) -> PyResult<String> {
        Ok(self.lock(py)?.inner.graph().describe(TypeIdx(idx)))
    }

    /// py-scale-codec's `generate_type_decomposition` of node `idx`.
    fn decomposition<'py>(&self, py: Python<'py>, idx: u32) -> PyResult<Bound<'py, PyAny>> {
        let held = self.lock(py)?;
        let graph = held.inner.graph();
        if graph.get(TypeIdx(idx)).is_none() {
            return Err(PyValueError::new_err(format!("no type node #{idx}")));
        }
        let d = ferroscale_dynamic::ops::decomposition::decompose(graph, TypeIdx(idx));
        crate::registry::kinds::decomposition_to_py(py, &d)
    }

    /// The id in the loaded portable registry of `scale_info::N` or of a
    /// path name (`frame_system::AccountInfo`, `Option`: py-scale-codec
    /// registers every path); `None` for other names.
    fn portable_type_id(&self, py: Python<'_>, type_string: &str) -> PyResult<Option<u32>> {
        let held = self.lock(py)?;
        Ok(held
            .inner
            .portable()
            .and_then(|portable| portable.id(portable.lookup(type_string)?)))
    }

    /// py-scale-codec's `generate_type_decomposition` of `scale_info::<type_id>`
    /// of the loaded portable registry, with classes from this registry's
    /// presets (`None` without a portable registry or such a type).
    #[pyo3(signature = (type_id, max_recursion=9))]
    fn portable_decomposition<'py>(
        &self,
        py: Python<'py>,
        type_id: u32,
        max_recursion: u32,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let mut held = self.lock(py)?;
        let this = &mut *held;
        let Some(loaded) = this.metadata.as_mut() else {
            return Ok(None);
        };
        if loaded.model.is_none() {
            let model = guard("reading metadata", || {
                ferroscale_metadata::Metadata::load(&loaded.bytes)
                    .map_err(|e| PyValueError::new_err(e.to_string()))
            })?;
            loaded.model = Some(Arc::new(model));
        }
        let Some(types) = loaded.model.as_ref().and_then(|m| m.types.as_ref()) else {
            return Ok(None);
        };
        if types.resolve(type_id).is_none() {
            return Ok(None);
        }
        let definitions = this.inner.definitions();
        let shape = guard("decomposing a type", || {
            ferroscale_dynamic::ops::portable_decomposition::decompose(
                types,
                definitions,
                type_id,
                max_recursion,
            )
            .map_err(|e| to_py(py, &e))
        })?;
        crate::registry::kinds::shape_to_py(py, &shape).map(Some)
    }

    /// Decodes an opaque wrapper (`WrapperKeepOpaque<T>`, `OpaqueCall`) of
    /// class `type_string` from `data[offset:]`: the wrapped type is
    /// `type_mapping[1]` when given, else the type string's argument;
    /// `OpaqueCall` holds a `Call` that must decode, the others fall back to
    /// `"0x…"`. Returns `(value, bytes used)`.
    #[pyo3(signature = (type_string, type_mapping, data, offset=0, check_remaining=true))]
    fn decode_opaque<'py>(
        &self,
        py: Python<'py>,
        type_string: &str,
        type_mapping: &Bound<'py, PyAny>,
        data: &[u8],
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let mut held = self.lock(py)?;
        let this = &mut *held;
        let (inner, fallback) = this.opaque_inner(py, type_string, type_mapping)?;
        guard("decoding", || {
            let input = data.get(offset..).unwrap_or(&[]);
            let ctx = this.inner.context();
            let _gc = GcPause::for_input(py, input.len());
            let mut sink = PySink {
                py,
                names: &mut this.names,
            };
            let (value, used) = ferroscale_dynamic::ops::opaque::decode_opaque(
                &ctx,
                type_string,
                inner,
                fallback,
                input,
                &mut sink,
            )
            .map_err(|e| to_py(py, &e))?;
            if check_remaining && used != input.len() {
                let e = Error::RemainingScaleBytesNotEmpty {
                    ty: type_string.to_owned(),
                    offset: offset + used,
                    length: data.len(),
                };
                return Err(to_py(py, &e));
            }
            Ok((value, used))
        })
    }

    /// Decodes the fields `[(name or None, type string)]` one after the
    /// other from `data[offset:]` (a class that defines its own
    /// `type_mapping`): a dict by name, a tuple without names (one unnamed
    /// field: its value). Returns `(value, bytes used)`.
    #[pyo3(signature = (fields, data, offset=0, check_remaining=true))]
    fn decode_fields<'py>(
        &self,
        py: Python<'py>,
        fields: Vec<(Option<String>, String)>,
        data: &[u8],
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let mut held = self.lock(py)?;
        let this = &mut *held;
        let mut values = Vec::with_capacity(fields.len());
        let mut pos = offset;
        let buffer = PyBytes::new(py, data).into_any();
        for (_, ty) in &fields {
            let idx = guard("resolving a type", || this.resolve_idx(py, ty))?;
            let (v, used) = this.decode_at(py, idx, Some(ty), &buffer, pos, false)?;
            values.push(v);
            pos += used;
        }
        if check_remaining && pos != data.len() {
            let e = Error::RemainingScaleBytesNotEmpty {
                ty: "struct".into(),
                offset: pos,
                length: data.len(),
            };
            return Err(to_py(py, &e));
        }
        let named = fields.iter().all(|(n, _)| n.is_some()) && !fields.is_empty();
        let value = if named {
            let d = PyDict::new(py);
            for ((n, _), v) in fields.iter().zip(values) {
                d.set_item(n.as_deref().unwrap_or(""), v)?;
            }
            d.into_any()
        } else if values.len() == 1 {
            values.pop().expect("one value")
        } else {
            PyTuple::new(py, values)?.into_any()
        };
        Ok((value, pos - offset))
    }

    /// The inputs that rebuild this registry, for pickling.
    fn __getstate__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Bound<'py, PyTuple>> = self
            .lock(py)?
            .log
            .iter()
            .map(|i| {
                let (tag, payload): (&str, Bound<'py, PyAny>) = match i {
                    Input::Preset(j) => ("preset", j.into_pyobject(py)?.into_any()),
                    Input::Types(j) => ("types", j.into_pyobject(py)?.into_any()),
                    Input::Spec(s) => ("spec", s.into_pyobject(py)?.into_any()),
                    Input::Ss58(f) => ("ss58", f.into_pyobject(py)?.into_any()),
                    Input::Metadata(b) => ("metadata", PyBytes::new(py, b).into_any()),
                };
                PyTuple::new(py, [tag.into_pyobject(py)?.into_any(), payload])
            })
            .collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// Rebuilds the registry by replaying the pickled inputs.
    fn __setstate__(&self, py: Python<'_>, state: Vec<(String, Bound<'_, PyAny>)>) -> PyResult<()> {
        self.lock(py)?.replay(py, state)
    }

    /// Loads runtime metadata (V9–V16, any framing) unless the same bytes are
    /// already loaded and still valid; returns whether it (re)loaded.
    ///
    /// Legacy metadata (V9–V13) is reloaded after the definitions changed,
    /// because its argument types resolve through the presets.
    pub(crate) fn ensure_metadata(slf: &Bound<'_, Self>, data: &[u8]) -> PyResult<bool> {
        Self::ensure_metadata_in(slf, data, None)
    }

    /// Decodes `type_string` from `data[offset:]` (`bytes` or `bytearray`);
    /// returns `(value, bytes used)`. With `check_remaining`, bytes left
    /// after the value are an error.
    #[pyo3(signature = (type_string, data, offset=0, check_remaining=true))]
    fn decode<'py>(
        slf: &Bound<'py, Self>,
        type_string: &str,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let py = slf.py();
        let resolve = |reg: &mut RegistryState| {
            guard("resolving a type", || reg.resolve_idx(py, type_string))
        };
        Self::decode_node_of(
            slf,
            resolve,
            Some(type_string),
            data,
            offset,
            check_remaining,
        )
    }

    /// [`Self::decode`] by graph index (from [`Self::resolve`]), skipping the
    /// type-string lookup: the classes of the Python layer keep their index.
    #[pyo3(signature = (idx, data, offset=0, check_remaining=true))]
    fn decode_node<'py>(
        slf: &Bound<'py, Self>,
        idx: u32,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let present = |reg: &mut RegistryState| match reg.inner.graph().get(TypeIdx(idx)) {
            Some(_) => Ok(TypeIdx(idx)),
            None => Err(PyValueError::new_err(format!("no type node #{idx}"))),
        };
        Self::decode_node_of(slf, present, None, data, offset, check_remaining)
    }

    /// Encodes `value` as `type_string`.
    fn encode<'py>(
        slf: &Bound<'py, Self>,
        type_string: &str,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let py = slf.py();
        let converted = to_value(value)?;
        let mut this = slf.get().lock(py)?;
        let ty = guard("resolving a type", || this.resolve_idx(py, type_string))?;
        let bytes = this.encode_node(py, ty, Some(type_string), value, converted)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Decodes `data_list[i]` as `type_strings[i]` (each must consume all
    /// its bytes); the lists (any sequences) must have the same length. An
    /// item is `bytes`, `bytearray`, a `ScaleBytes` or `"0x…"` hex text.
    ///
    /// `bytes` are borrowed, not copied, and a type string that is the same
    /// object as the one before it (the usual `[t] * n`) or equal to it
    /// reuses that one's resolved node.
    fn batch_decode<'py>(
        slf: &Bound<'py, Self>,
        type_strings: &Bound<'py, PyAny>,
        data_list: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        Self::batch(slf, type_strings, data_list)
    }

    /// Encodes `value` as the opaque wrapper of class `type_string` (see
    /// [`Self::decode_opaque`]); `"0x…"` text is taken as the wrapped bytes.
    fn encode_opaque<'py>(
        slf: &Bound<'py, Self>,
        type_string: &str,
        type_mapping: &Bound<'py, PyAny>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let py = slf.py();
        // before the registry is borrowed: a scale object in it may decode
        let value = to_value(value)?;
        let mut this = slf.get().lock(py)?;
        let (inner, _) = this.opaque_inner(py, type_string, type_mapping)?;
        guard("encoding", || {
            let bytes = ferroscale_dynamic::ops::opaque::encode_opaque(
                &this.inner.context(),
                inner,
                &value,
            )
            .map_err(|e| to_py(py, &e))?;
            Ok(PyBytes::new(py, &bytes))
        })
    }

    /// Encodes `value` as the fields `[(name or None, type string)]` one
    /// after the other: from a dict by name, a list or tuple by position, or
    /// (one field) the value itself.
    fn encode_fields<'py>(
        slf: &Bound<'py, Self>,
        fields: Vec<(Option<String>, String)>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let py = slf.py();
        let items: Vec<Bound<'py, PyAny>> = if let Ok(d) = value.cast::<PyDict>() {
            fields
                .iter()
                .map(|(n, _)| {
                    let key = n.as_deref().unwrap_or("");
                    d.get_item(key)?
                        .ok_or_else(|| PyValueError::new_err(format!("value has no field '{key}'")))
                })
                .collect::<PyResult<_>>()?
        } else if let Some(seq) = value
            .cast::<PyList>()
            .ok()
            .map(|l| l.iter().collect::<Vec<_>>())
            .or_else(|| value.cast::<PyTuple>().ok().map(|t| t.iter().collect()))
            .filter(|s: &Vec<_>| s.len() == fields.len())
        {
            seq
        } else if fields.len() == 1 {
            vec![value.clone()]
        } else {
            return Err(PyValueError::new_err(format!(
                "expected {} values, got {value}",
                fields.len()
            )));
        };
        let converted = items.iter().map(to_value).collect::<PyResult<Vec<_>>>()?;
        let mut this = slf.get().lock(py)?;
        let mut out = Vec::new();
        for (((_, ty), item), converted) in fields.iter().zip(&items).zip(converted) {
            let idx = guard("resolving a type", || this.resolve_idx(py, ty))?;
            out.extend(this.encode_node(py, idx, Some(ty), item, converted)?);
        }
        Ok(PyBytes::new(py, &out))
    }

    /// Imports a bare portable registry (a list of `{"id", "type"}` values,
    /// or scale objects holding them) as `scale_info::N`, replacing the
    /// portable registry and runtime loaded before; returns whether it
    /// (re)loaded.
    fn load_portable_types(&self, py: Python<'_>, types: Vec<Bound<'_, PyAny>>) -> PyResult<bool> {
        let values = types.iter().map(to_value).collect::<PyResult<Vec<_>>>()?;
        let definitions = PyRegistry::metadata_definitions(py)?;
        let mut definitions = definitions.get().lock(py)?;
        let raw = guard("encoding a portable registry", || {
            ferroscale_dynamic::ops::portable_json::v14_metadata_from_types(
                definitions.inner_mut(),
                values,
            )
            .map_err(|e| to_py(py, &e))
        })?;
        drop(definitions);
        self.lock(py)?.ensure_metadata_held(py, &raw, None)
    }
}
