//! The Rust base of `RuntimeConfigurationObject`: its registry and class
//! cache, `create_scale_object` (the hot path: a cached class's object made
//! without `__init__`, with the fast path its `_fast_node` allows), and the
//! methods that only reach the registry or the configuration's books
//! (`crate::config`).
//!
//! Children: [`books`] (the class cache, preset mirror and registry imports), [`classes`] (the class made per type string), [`declared`] (users' own scale classes).

pub mod books;
pub mod classes;
pub mod declared;
mod slot;

use pyo3::exceptions::{PyNotImplementedError, PyTypeError, PyValueError};
use pyo3::gc::PyVisit;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};
use pyo3::PyTraverseError;

use crate::convert::scale_bytes::{unsupported, PyScaleBytes};
use crate::objects::object::{new_instance, own_class_attr, FastNode, FastPath, ScaleObject};
use crate::registry::PyRegistry;
use slot::Slot;
use std::sync::Arc;

/// The registry and class cache of a `RuntimeConfigurationObject`
/// (`_registry`, `_classes`), and its `create_scale_object`.
///
/// Frozen, its two fields behind a [`Slot`] each: threads share one
/// configuration, and one of them may switch its runtime while others decode.
/// No `dict`: `RuntimeConfigurationObject` carries the `__dict__`, which the
/// garbage collector then traverses (see [`ScaleObject`]).
#[pyclass(
    frozen,
    subclass,
    weakref,
    module = "scalecodec._core",
    name = "ConfigBase"
)]
pub struct ConfigBase {
    registry: Slot<PyRegistry>,
    classes: Slot<PyDict>,
}

#[pymethods]
impl ConfigBase {
    /// An empty configuration; the Python `__init__` fills it in.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> Self {
        ConfigBase {
            registry: Slot::empty(),
            classes: Slot::empty(),
        }
    }

    /// The Rust registry.
    #[getter(_registry)]
    fn get_registry(&self, py: Python<'_>) -> Py<PyAny> {
        match self.registry.get(py) {
            Some(r) => r.into_any().unbind(),
            None => py.None(),
        }
    }

    #[setter(_registry)]
    fn set_registry(&self, value: Py<PyRegistry>) {
        self.registry.set(Some(value));
    }

    /// Classes by type string (`None`: unknown type).
    #[getter(_classes)]
    fn get_classes(&self, py: Python<'_>) -> Py<PyAny> {
        match self.classes.get(py) {
            Some(c) => c.into_any().unbind(),
            None => py.None(),
        }
    }

    #[setter(_classes)]
    fn set_classes(&self, value: Py<PyDict>) {
        self.classes.set(Some(value));
    }

    /// An instance of `type_string`'s class (`NotImplementedError` when
    /// unknown); `data` is a `ScaleBytes` to decode later.
    #[pyo3(signature = (type_string, data=None, **kwargs))]
    fn create_scale_object<'py>(
        slf: &Bound<'py, Self>,
        type_string: &Bound<'py, PyAny>,
        data: Option<&Bound<'py, PyAny>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if kwargs.is_none_or(|k| k.is_empty()) {
            if let Some(obj) = Self::create_fast(slf, type_string, data)? {
                return Ok(obj);
            }
        }
        Self::create_slow(slf, type_string, data, kwargs)
    }

    /// The scale class for `type_string`, or `None` when it is unknown.
    fn get_decoder_class<'py>(
        slf: &Bound<'py, Self>,
        type_string: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::config::books::decoder_class(slf.as_any(), type_string)
    }

    /// cyscale 0.8's value decoder: a callable taking the bytes of one
    /// `type_string` value (all of them) and returning the plain value, in
    /// py-scale-codec's shapes; `None` when the type is unknown. Made once
    /// per type string; it follows later changes to the registry.
    fn get_value_decoder<'py>(
        slf: &Bound<'py, Self>,
        type_string: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::config::books::value_decoder(slf.as_any(), type_string)
    }

    /// The class of `type_string` once the portable-registry type's
    /// definition kind is checked (registries are imported whole, in Rust).
    #[allow(unused_variables)] // `prefix`: py-scale-codec's signature
    fn get_decoder_class_for_scale_info_definition<'py>(
        slf: &Bound<'py, Self>,
        type_string: &Bound<'py, PyAny>,
        scale_info_type: &Bound<'py, PyAny>,
        prefix: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::config::books::class_for_scale_info_definition(
            slf.as_any(),
            type_string,
            scale_info_type,
        )
    }

    /// Imports a V14+ metadata object's portable registry and runtime
    /// (as `scale_info::N`; no other `prefix` is supported).
    #[pyo3(signature = (metadata, prefix=None))]
    fn add_portable_registry(
        slf: &Bound<'_, Self>,
        metadata: &Bound<'_, PyAny>,
        prefix: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        crate::config::books::add_portable_registry(slf.as_any(), metadata, prefix)
    }

    /// Imports a bare portable registry (`{"id", "type"}` values or their
    /// scale objects) as `scale_info::N`, replacing the one loaded before.
    #[pyo3(signature = (scale_info_types, prefix=None))]
    fn update_from_scale_info_types(
        slf: &Bound<'_, Self>,
        scale_info_types: &Bound<'_, PyAny>,
        prefix: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        crate::config::books::update_from_scale_info_types(slf.as_any(), scale_info_types, prefix)
    }

    /// Applies a preset (`{"types": …, "versioning": …, "runtime_id": …}`).
    fn update_type_registry(
        slf: &Bound<'_, Self>,
        type_registry: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        crate::config::books::update_type_registry(slf.as_any(), type_registry)
    }

    /// Adds or overrides type definitions `{"Name": definition}`.
    fn update_type_registry_types(
        slf: &Bound<'_, Self>,
        types_dict: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        crate::config::books::update_type_registry_types(slf.as_any(), types_dict)
    }

    /// The configuration as it pickles (id, registry state, `type_registry`
    /// tables, `implements_scale_info`, `chain_id`).
    fn __getstate__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        crate::config::books::state(slf.as_any())
    }

    /// Restores a pickled configuration over a new registry.
    fn __setstate__(slf: &Bound<'_, Self>, state: &Bound<'_, PyAny>) -> PyResult<()> {
        crate::config::books::set_state(slf.as_any(), state)?;
        crate::config::declared::pair_declared(slf.as_any())
    }

    /// Forgets every definition, the portable registry and the runtime.
    fn clear_type_registry(slf: &Bound<'_, Self>) -> PyResult<()> {
        crate::config::books::clear_type_registry(slf.as_any())?;
        crate::config::declared::declare_classes(slf.as_any())
    }

    /// Defines every scale class users declared, by its name (as
    /// py-scale-codec registers every class it knows in a new configuration).
    fn _declare_classes(slf: &Bound<'_, Self>) -> PyResult<()> {
        crate::config::declared::declare_classes(slf.as_any())
    }

    /// The type string of a user's declared class here, defining it first
    /// if the class came after the configuration (`NotImplementedError`
    /// when the class declares no type).
    fn _declared_name<'py>(
        slf: &Bound<'py, Self>,
        cls: &Bound<'py, PyType>,
    ) -> PyResult<Bound<'py, PyString>> {
        crate::config::declared::declared_name(slf.as_any(), cls)
    }

    /// cyscale's `batch_decode`: decodes `data_list[i]` (`bytes`,
    /// `bytearray`, `ScaleBytes` or `"0x…"` hex) as `type_strings[i]` in one
    /// Rust call and returns the values; each item must use all its bytes,
    /// and lists of different lengths are a `ValueError`.
    fn batch_decode<'py>(
        slf: &Bound<'py, Self>,
        type_strings: &Bound<'py, PyAny>,
        data_list: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = slf.py();
        let Some(registry) = slf.get().registry.get(py) else {
            return Err(PyValueError::new_err("configuration has no registry"));
        };
        PyRegistry::batch(&registry, type_strings, data_list)
    }

    /// The runtime APIs of the loaded metadata (V15+; see `_core.pyi`).
    fn runtime_apis<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        crate::registry::runtime_api::runtime_apis(&self.registry(py)?)
    }

    /// The view functions of the loaded metadata (V16).
    fn view_functions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        crate::registry::runtime_api::view_functions(&self.registry(py)?)
    }

    /// `(method, "0x…" data)` to pass to `state_call` for `api.method`.
    #[pyo3(signature = (api, method, params=None))]
    fn runtime_api_request(
        &self,
        py: Python<'_>,
        api: &str,
        method: &str,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(String, String)> {
        crate::registry::runtime_api::runtime_api_request(&self.registry(py)?, api, method, params)
    }

    /// The value of `api.method`'s answer (`bytes`, `bytearray` or hex).
    fn decode_runtime_api_result<'py>(
        &self,
        py: Python<'py>,
        api: &str,
        method: &str,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::registry::runtime_api::decode_runtime_api_result(
            &self.registry(py)?,
            api,
            method,
            data,
        )
    }

    /// `(method, "0x…" data)` to pass to `state_call` for the view function `pallet.name`.
    #[pyo3(signature = (pallet, name, params=None))]
    fn view_function_request(
        &self,
        py: Python<'_>,
        pallet: &str,
        name: &str,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(String, String)> {
        crate::registry::runtime_api::view_function_request(
            &self.registry(py)?,
            pallet,
            name,
            params,
        )
    }

    /// The value of the view function's output bytes.
    fn decode_view_function_result<'py>(
        &self,
        py: Python<'py>,
        pallet: &str,
        name: &str,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::registry::runtime_api::decode_view_function_result(
            &self.registry(py)?,
            pallet,
            name,
            data,
        )
    }

    /// The value of the view function's whole `state_call` answer (an `Err` raises).
    fn decode_view_function_answer<'py>(
        &self,
        py: Python<'py>,
        pallet: &str,
        name: &str,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::registry::runtime_api::decode_view_function_answer(
            &self.registry(py)?,
            pallet,
            name,
            data,
        )
    }

    /// The bytes of call `call_module.call_function` with `call_args` (a
    /// dict by name, a list or tuple in order, or `None`): what
    /// `create_scale_object("Call").encode({...})` gives, in one call.
    #[pyo3(signature = (call_module, call_function, call_args=None))]
    fn compose_call<'py>(
        &self,
        py: Python<'py>,
        call_module: &str,
        call_function: &str,
        call_args: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        crate::registry::transaction::compose_call(
            &self.registry(py)?,
            call_module,
            call_function,
            call_args,
        )
    }

    /// The bytes a signer signs for a signed extrinsic of `call` (see `_core.pyi`).
    #[pyo3(signature = (
        call, *, era=None, nonce=0, tip=0, tip_asset_id=None, genesis_hash, block_hash=None,
        metadata_hash=None, spec_version=None, transaction_version=None, extensions=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn signature_payload<'py>(
        &self,
        py: Python<'py>,
        call: &Bound<'py, PyAny>,
        era: Option<&Bound<'py, PyAny>>,
        nonce: u64,
        tip: u128,
        tip_asset_id: Option<&Bound<'py, PyAny>>,
        genesis_hash: &Bound<'py, PyAny>,
        block_hash: Option<&Bound<'py, PyAny>>,
        metadata_hash: Option<&Bound<'py, PyAny>>,
        spec_version: Option<u32>,
        transaction_version: Option<u32>,
        extensions: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        crate::registry::transaction::signature_payload(
            &self.registry(py)?,
            call,
            crate::registry::transaction::PayloadArgs {
                era,
                nonce,
                tip,
                tip_asset_id,
                genesis_hash,
                block_hash,
                metadata_hash,
                spec_version,
                transaction_version,
                extensions,
            },
        )
    }

    /// The `"0x…"` storage key of `pallet.entry` for `params` (none: the
    /// entry's prefix; one value; or a list, fewer than the map's keys
    /// giving an iteration prefix).
    #[pyo3(signature = (pallet, entry, params=None))]
    fn storage_key(
        &self,
        py: Python<'_>,
        pallet: &str,
        entry: &str,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        crate::registry::storage::storage_key(&self.registry(py)?, pallet, entry, params)
    }

    /// `"0x…"` storage keys of `pallet.entry`, one per item of `params_list`
    /// (what `query_multi` sends), in one call.
    fn storage_keys(
        &self,
        py: Python<'_>,
        pallet: &str,
        entry: &str,
        params_list: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<String>> {
        let list = crate::registry::storage::params_list(params_list)?;
        crate::registry::storage::storage_keys(&self.registry(py)?, pallet, entry, &list)
    }

    /// A full storage key of `pallet.entry` read back: `[{"hasher", "value"}]`.
    fn decode_storage_key<'py>(
        &self,
        py: Python<'py>,
        pallet: &str,
        entry: &str,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        crate::registry::storage::decode_storage_key(&self.registry(py)?, pallet, entry, key)
    }

    /// The value of `pallet.entry` in `data` (`bytes`, `bytearray` or hex).
    fn decode_storage<'py>(
        &self,
        py: Python<'py>,
        pallet: &str,
        entry: &str,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::registry::storage::decode_storage(&self.registry(py)?, pallet, entry, data)
    }

    /// SS58 format account ids render in (`None`: `"0x…"` hex).
    #[getter]
    fn get_ss58_format(&self, py: Python<'_>) -> PyResult<Option<u16>> {
        Ok(self.registry(py)?.get().lock(py)?.get_ss58_format())
    }

    #[setter]
    fn set_ss58_format(&self, py: Python<'_>, value: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let format = match value.filter(|v| !v.is_none()) {
            None => None,
            Some(v) => Some(
                v.extract::<u16>()
                    .ok()
                    .filter(|f| *f <= 16383 && !v.is_instance_of::<pyo3::types::PyBool>())
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "Invalid ss58_format {}",
                            v.repr().map(|r| r.to_string()).unwrap_or_default()
                        ))
                    })?,
            ),
        };
        self.registry(py)?.get().lock(py)?.set_ss58_format(format);
        self.clear_classes(py)
    }

    /// The spec version whose preset `versioning` entries are applied.
    #[getter]
    fn get_active_spec_version_id(&self, py: Python<'_>) -> PyResult<Option<u64>> {
        Ok(self.registry(py)?.get().lock(py)?.active_spec_version_id())
    }

    /// `config.active_spec_version_id = spec`, which py-scale-codec allows
    /// (async-substrate-interface copies it from one configuration to
    /// another): a spec version switches to it as
    /// [`set_active_spec_version_id`](Self::set_active_spec_version_id)
    /// does; `None` forgets it (the versioning applied stays).
    #[setter(active_spec_version_id)]
    fn assign_active_spec_version_id(&self, py: Python<'_>, spec: Option<u64>) -> PyResult<()> {
        match spec {
            Some(spec) => self.set_active_spec_version_id(py, spec),
            None => {
                self.registry(py)?
                    .get()
                    .lock(py)?
                    .clear_active_spec_version_id();
                Ok(())
            }
        }
    }

    /// Switches to `spec_version_id` (applies the presets' versioning).
    fn set_active_spec_version_id(&self, py: Python<'_>, spec_version_id: u64) -> PyResult<()> {
        let registry = self.registry(py)?;
        if registry.get().lock(py)?.active_spec_version_id() == Some(spec_version_id) {
            return Ok(());
        }
        registry
            .get()
            .lock(py)?
            .set_active_spec_version_id(spec_version_id);
        self.clear_classes(py)
    }

    /// The spec version at `block_number` from the presets' `runtime_upgrades`.
    fn get_runtime_id_from_upgrades(
        &self,
        py: Python<'_>,
        block_number: u64,
    ) -> PyResult<Option<u64>> {
        Ok(self
            .registry(py)?
            .get()
            .lock(py)?
            .get_runtime_id_from_upgrades(block_number))
    }

    /// Marks the runtime-upgrade table as covering up to `block_number`.
    fn set_runtime_upgrades_head(&self, py: Python<'_>, block_number: u64) -> PyResult<()> {
        self.registry(py)?
            .get()
            .lock(py)?
            .set_runtime_upgrades_head(block_number);
        Ok(())
    }

    /// py-scale-codec's normalisation of a type name (`T::` removed …).
    fn convert_type_string(&self, name: &str) -> String {
        ferroscale_dynamic::runtime::convert_type_string(name)
    }

    /// Loads the metadata of a decoded `MetadataVersioned` object into the
    /// registry unless it is loaded already (the class cache is dropped when
    /// it loads).
    fn _sync_metadata(&self, py: Python<'_>, metadata: &Bound<'_, PyAny>) -> PyResult<()> {
        if metadata.is_none() {
            return Ok(());
        }
        let (raw, model) = metadata_source(metadata)?;
        if PyRegistry::ensure_metadata_in(&self.registry(py)?, raw.as_bytes(), model)? {
            self.clear_classes(py)?;
        }
        Ok(())
    }

    /// Decodes `type_string` (or the class's `node` while the registry is
    /// in `generation`) from `data[offset:]` with the runtime of `metadata`
    /// (a decoded `MetadataVersioned`), loaded under the same lock of the
    /// registry as the decode: what an object made with `metadata=` does.
    /// `(value, bytes used)`.
    #[pyo3(signature = (metadata, type_string, node, data, offset, check_remaining))]
    #[allow(clippy::too_many_arguments)]
    fn _decode_bound<'py>(
        &self,
        py: Python<'py>,
        metadata: &Bound<'py, PyAny>,
        type_string: &str,
        node: Option<(u32, u64)>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let (raw, read) = metadata_source(metadata)?;
        let (decoded, loaded) = PyRegistry::decode_bound(
            &self.registry(py)?,
            raw.as_bytes(),
            read,
            type_string,
            node,
            data,
            offset,
            check_remaining,
        )?;
        if loaded {
            self.clear_classes(py)?;
        }
        Ok(decoded)
    }

    /// Encodes `value` as the class's `node` (while the registry is in
    /// `generation`) or `type_string`, with the runtime of `metadata` when
    /// it is not `None`, loaded under the same lock of the registry as the
    /// encode (see `_decode_bound`).
    #[pyo3(signature = (metadata, type_string, node, value))]
    fn _encode_bound<'py>(
        &self,
        py: Python<'py>,
        metadata: &Bound<'py, PyAny>,
        type_string: Option<&str>,
        node: Option<(u32, u64)>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let converted = crate::convert::to_value(value)?;
        let source = match metadata.is_none() {
            true => None,
            false => Some(metadata_source(metadata)?),
        };
        let bound = source
            .as_ref()
            .map(|(raw, read)| (raw.as_bytes(), read.clone()));
        let (bytes, loaded) = PyRegistry::encode_picked(
            &self.registry(py)?,
            bound,
            type_string,
            node,
            value,
            converted,
        )?;
        if loaded {
            self.clear_classes(py)?;
        }
        Ok(PyBytes::new(py, &bytes))
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        self.registry.visit(&visit)?;
        self.classes.visit(&visit)
    }

    fn __clear__(&self) {
        self.registry.set(None);
        self.classes.set(None);
    }
}

/// The bytes of a decoded `MetadataVersioned` object, and the engine's
/// reading of them when the object kept it (a `ValueError` for anything
/// else). The bytes are borrowed, not copied: an object bound to metadata
/// syncs it before every decode.
fn metadata_source<'py>(
    metadata: &Bound<'py, PyAny>,
) -> PyResult<(
    Bound<'py, PyBytes>,
    Option<Arc<ferroscale_metadata::Metadata>>,
)> {
    let py = metadata.py();
    let raw = metadata
        .getattr(intern!(py, "_metadata_bytes"))
        .ok()
        .filter(|r| !r.is_none());
    let Some(raw) = raw else {
        return Err(PyValueError::new_err(
            "metadata must be a decoded MetadataVersioned object",
        ));
    };
    let raw = raw.cast_into::<PyBytes>()?;
    let model = metadata.getattr(intern!(py, "_model")).ok().and_then(|m| {
        m.cast::<crate::metadata::loaded::LoadedMetadata>()
            .ok()
            .map(|m| Arc::clone(m.get().model()))
    });
    Ok((raw, model))
}

impl ConfigBase {
    /// The registry (a `ValueError` before the Python `__init__` set it).
    fn registry<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyRegistry>> {
        self.registry
            .get(py)
            .ok_or_else(|| PyValueError::new_err("configuration has no registry"))
    }

    /// Forgets the classes made for type strings (the registry changed).
    fn clear_classes(&self, py: Python<'_>) -> PyResult<()> {
        if let Some(c) = self.classes.get(py) {
            c.clear();
        }
        Ok(())
    }

    /// `create_scale_object` when the fast path does not apply (first use of
    /// a type string, options, data that is not a `ScaleBytes`): options go
    /// to the class's `__init__`; without them it is skipped, as the fast
    /// path does.
    fn create_slow<'py>(
        slf: &Bound<'py, Self>,
        type_string: &Bound<'py, PyAny>,
        data: Option<&Bound<'py, PyAny>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        if !type_string.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "type string must be a str, not {}",
                type_string.get_type().name()?
            )));
        }
        let cls = slf.call_method1(intern!(py, "get_decoder_class"), (type_string,))?;
        if cls.is_none() {
            return Err(PyNotImplementedError::new_err(format!(
                "Decoder class for \"{type_string}\" not found"
            )));
        }
        let data = data.filter(|d| !d.is_none());
        if let Some(kwargs) = kwargs.filter(|k| !k.is_empty()) {
            let kwargs = kwargs.copy()?;
            if !kwargs.contains(intern!(py, "runtime_config"))? {
                kwargs.set_item(intern!(py, "runtime_config"), slf)?;
            }
            kwargs.set_item(intern!(py, "data"), data)?;
            return cls.call((), Some(&kwargs));
        }
        let buffer = match data {
            None => None,
            Some(d) => Some(d.cast::<PyScaleBytes>().map_err(|_| unsupported(d))?),
        };
        let obj = cls.call_method1(intern!(py, "__new__"), (&cls,))?;
        obj.setattr(intern!(py, "runtime_config"), slf)?;
        obj.setattr(intern!(py, "data"), data)?;
        obj.setattr(
            intern!(py, "data_start_offset"),
            buffer.map(|b| b.get().offset()),
        )?;
        Ok(obj)
    }

    /// `create_scale_object` for a cached class and `data` that is `None`
    /// or a `ScaleBytes`; `None` when the Python method must run.
    fn create_fast<'py>(
        slf: &Bound<'py, Self>,
        type_string: &Bound<'py, PyAny>,
        data: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let py = slf.py();
        if !type_string.is_exact_instance_of::<PyString>() {
            return Ok(None);
        }
        let buffer = match data {
            None => None,
            Some(d) => match d.cast::<PyScaleBytes>() {
                Ok(b) => Some(b),
                Err(_) => return Ok(None),
            },
        };
        let this = slf.get();
        let (Some(registry), Some(classes)) = (this.registry.get(py), this.classes.get(py)) else {
            return Ok(None);
        };
        let Some(cls) = classes.get_item(type_string)? else {
            return Ok(None);
        };
        let Ok(cls) = cls.cast_into::<PyType>() else {
            return Ok(None);
        };
        let fast = match own_class_attr(&cls, intern!(py, "_fast_node"))? {
            Some(marker) => {
                let Ok(marker) = marker.cast_into::<FastNode>() else {
                    return Ok(None);
                };
                // The generation is checked when the object decodes or encodes.
                Some(FastPath::new(marker.get(), registry.unbind()))
            }
            None => None,
        };
        // Classes marked by `crate::config::classes` are scale classes; any other
        // class must be one before it is instantiated here.
        if fast.is_none() && !cls.is_subclass_of::<ScaleObject>()? {
            return Ok(None);
        }
        let obj = new_instance(&cls)?;
        let Ok(scale_obj) = obj.cast::<ScaleObject>() else {
            return Ok(None);
        };
        scale_obj
            .try_borrow_mut()?
            .init_created(slf.clone().into_any().unbind(), buffer, fast);
        Ok(Some(obj))
    }
}
