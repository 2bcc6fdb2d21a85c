//! What several view classes read off a scale object: lists in its value,
//! the bytes it used or its value holds, what it keeps in its own
//! `__dict__`, an enum's index.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// `obj.value[key]` of a dict value, else an empty list (py-scale-codec's
/// default for argument and topic lists).
pub(crate) fn get_list<'py>(obj: &Bound<'py, PyAny>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let value = obj.getattr(intern!(py, "value"))?;
    if let Ok(d) = value.cast::<PyDict>() {
        if let Some(found) = d.get_item(key)? {
            return Ok(found);
        }
    }
    Ok(PyList::empty(py).into_any())
}

/// The bytes the object was decoded from or encoded to.
pub(crate) fn used_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let used = obj.call_method0(intern!(obj.py(), "get_used_bytes"))?;
    used.extract()
}

/// The bytes behind the object's value: those it was decoded from or
/// encoded to, or for a part of a decoded value (which has no bytes of its
/// own) its value encoded again by a fresh object of its class.
pub(crate) fn value_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = obj.py();
    if !untouched(obj)? {
        return used_bytes(obj);
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item(
        intern!(py, "runtime_config"),
        obj.getattr(intern!(py, "runtime_config"))?,
    )?;
    let fresh = obj.get_type().call((), Some(&kwargs))?;
    fresh.call_method1(intern!(py, "encode"), (obj.getattr(intern!(py, "value"))?,))?;
    used_bytes(&fresh)
}

/// Whether nothing was decoded or encoded yet (`data_end_offset` unset).
pub(crate) fn untouched(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(obj.getattr(intern!(obj.py(), "data_end_offset"))?.is_none())
}

/// An attribute set on the object (`__dict__[key]`), if any.
pub(crate) fn own<'py>(obj: &Bound<'py, PyAny>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    obj.getattr(intern!(obj.py(), "__dict__"))?
        .cast_into::<PyDict>()?
        .get_item(key)
}

/// Sets `__dict__[key]` (a value the user gave instead of the derived one).
pub(crate) fn set_own(obj: &Bound<'_, PyAny>, key: &str, value: Bound<'_, PyAny>) -> PyResult<()> {
    obj.getattr(intern!(obj.py(), "__dict__"))?
        .set_item(key, value)
}

/// `"0x…"` of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    ferroscale_core::hex::encode_prefixed(bytes)
}

/// An enum object's variant index: set by the user, else the first byte it
/// was decoded from or encoded to, else the position of its value's
/// variant in the class's `value_list`.
pub(crate) fn enum_index<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    if let Some(index) = own(obj, "_index")?.filter(|i| !i.is_none()) {
        return Ok(index);
    }
    if !untouched(obj)? {
        if let Some(first) = used_bytes(obj)?.first() {
            return Ok(first.into_pyobject(py)?.into_any());
        }
    }
    if obj.getattr(intern!(py, "decoded"))?.is_truthy()? {
        let names = obj.get_type().getattr(intern!(py, "value_list"))?;
        let value = obj.getattr(intern!(py, "value"))?;
        return Ok(crate::objects::typed_parts::variant_index(&names, &value)?.into_pyobject(py)?);
    }
    Ok(py.None().into_bound(py))
}

/// `bytes` of the `data` a hook receives (a `bytearray`, or `bytes`).
pub(crate) fn data_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(array) = data.cast::<pyo3::types::PyByteArray>() {
        return Ok(array.to_vec());
    }
    Ok(data.cast::<pyo3::types::PyBytes>()?.as_bytes().to_vec())
}
