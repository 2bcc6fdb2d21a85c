//! Storage by name from Python: the keys a client sends to a node
//! (`state_getStorage`, `state_queryStorageAt`, `state_getKeysPaged`), many in
//! one call for `query_multi`/`query_map`, the keys a node returns read back
//! into their parts, and values decoded — over `ferroscale_dynamic`'s
//! storage-by-name API (`Registry::storage_key`, `decode_storage_key`). The
//! configuration object's methods (`RuntimeConfigurationObject.storage_key`
//! …, in [`crate::config`]) call these.

use ferroscale_value::Value;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use ferroscale_dynamic::Sink;

use crate::convert::detached::{to_python, BuiltSink};
use crate::convert::sink::NameCache;
use crate::errors::{guard, to_py};
use crate::registry::PyRegistry;

/// The key values of one storage key: `None` (none: the entry's prefix, or a
/// plain value's key), one value for a one-key map, or a list/tuple of them
/// (N-key maps; fewer than N give an iteration prefix).
fn key_values(params: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Value>> {
    match params.filter(|p| !p.is_none()) {
        None => Ok(Vec::new()),
        Some(p) if p.is_instance_of::<PyList>() || p.is_instance_of::<PyTuple>() => p
            .try_iter()?
            .map(|v| crate::convert::to_value(&v?))
            .collect(),
        Some(p) => Ok(vec![crate::convert::to_value(p)?]),
    }
}

/// `"0x…"` storage keys of `pallet.entry`, one per item of `params_list`
/// (each as [`key_values`] reads it), built under one borrow of the registry.
pub fn storage_keys(
    registry: &Bound<'_, PyRegistry>,
    pallet: &str,
    entry: &str,
    params_list: &[Bound<'_, PyAny>],
) -> PyResult<Vec<String>> {
    let keys = params_list
        .iter()
        .map(|p| key_values(Some(p)))
        .collect::<PyResult<Vec<_>>>()?;
    build_keys(registry, pallet, entry, &keys)
}

/// One `"0x…"` storage key of `pallet.entry` ([`storage_keys`] of one).
pub fn storage_key(
    registry: &Bound<'_, PyRegistry>,
    pallet: &str,
    entry: &str,
    params: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let keys = [key_values(params)?];
    Ok(build_keys(registry, pallet, entry, &keys)?.remove(0))
}

/// The keys of `pallet.entry` for each list of key values.
fn build_keys(
    registry: &Bound<'_, PyRegistry>,
    pallet: &str,
    entry: &str,
    keys: &[Vec<Value>],
) -> PyResult<Vec<String>> {
    let py = registry.py();
    let mut reg = registry.get().lock(py)?;
    guard("building storage keys", || {
        let built = reg
            .inner_mut()
            .storage_keys(pallet, entry, keys)
            .map_err(|e| to_py(py, &e))?;
        Ok(built
            .iter()
            .map(|k| ferroscale_core::hex::encode_prefixed(k))
            .collect())
    })
}

/// A full storage key of `pallet.entry` read back: `[{"hasher", "value"}]`,
/// one per map key, `value` `None` where the hasher keeps no key (py-scale-
/// codec's value shapes otherwise).
pub fn decode_storage_key<'py>(
    registry: &Bound<'py, PyRegistry>,
    pallet: &str,
    entry: &str,
    key: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let py = registry.py();
    let bytes = crate::registry::runtime_api::input_bytes(key)?;
    let parts = {
        let mut reg = registry.get().lock(py)?;
        guard("reading a storage key", || {
            reg.inner_mut()
                .decode_storage_key(pallet, entry, &bytes)
                .map_err(|e| to_py(py, &e))
        })?
    };
    let list = PyList::empty(py);
    for part in parts {
        let d = PyDict::new(py);
        d.set_item("hasher", part.hasher.name())?;
        let value = part
            .value
            .map(|v| to_python(py, &mut NameCache::default(), &BuiltSink.value(v)));
        d.set_item("value", value)?;
        list.append(d)?;
    }
    Ok(list)
}

/// A value of `pallet.entry` (`bytes`, `bytearray` or hex), decoded as
/// `decode_scale` decodes its type.
pub fn decode_storage<'py>(
    registry: &Bound<'py, PyRegistry>,
    pallet: &str,
    entry: &str,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = registry.py();
    let ty = guard("resolving a storage entry", || {
        registry
            .get()
            .lock(py)?
            .inner_mut()
            .storage_value_type(pallet, entry)
            .map_err(|e| to_py(py, &e))
    })?;
    crate::registry::runtime_api::decode_output(registry, ty, &format!("{pallet}.{entry}"), data)
}

/// A list of key parameters given where one list per key is expected.
pub fn params_list<'py>(params_list: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if !(params_list.is_instance_of::<PyList>() || params_list.is_instance_of::<PyTuple>()) {
        return Err(PyTypeError::new_err(format!(
            "params_list must be a list or tuple of key parameters, not {}",
            params_list.get_type().name()?
        )));
    }
    params_list.try_iter()?.collect()
}
