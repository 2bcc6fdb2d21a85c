//! Runtime APIs (V15+) and pallet view functions (V16) from Python: their
//! listing, what a client passes to `state_call`, and the decoding of the
//! answer, over `ferroscale_dynamic::registry` (its runtime-API module). The
//! configuration object's methods (`RuntimeConfigurationObject.runtime_apis`
//! …, in [`crate::config`]) call these.
//!
//! Types are named as async-substrate-interface names them for
//! `encode_scale`/`decode_scale` (`scale_info::N`, the portable type id), and
//! results have py-scale-codec's value shapes (decoded as `decode_scale`
//! would decode `scale_info::N`).

use ferroscale_dynamic::registry::CallSignature;
use ferroscale_dynamic::{Error, ItemKind};
use ferroscale_metadata::{Metadata, Param};
use ferroscale_value::Value;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::convert::sink::{NameCache, PySink};
use crate::errors::{guard, to_py};
use crate::registry::PyRegistry;

/// The loaded metadata, when it lists `kind` (V15+ runtime APIs, V16 view
/// functions); the dynamic layer's error otherwise.
fn metadata_listing(
    registry: &Bound<'_, PyRegistry>,
    kind: ItemKind,
) -> PyResult<std::sync::Arc<Metadata>> {
    let py = registry.py();
    let reg = registry.get().lock(py)?;
    let Some(md) = reg.inner().metadata_shared() else {
        return Err(to_py(
            py,
            &Error::NoRuntime {
                ty: format!("the {kind} listing"),
            },
        ));
    };
    let since = if kind == ItemKind::ViewFunction {
        16
    } else {
        15
    };
    if md.version < since {
        return Err(to_py(
            py,
            &Error::NotInMetadata {
                kind,
                version: md.version,
            },
        ));
    }
    Ok(md)
}

/// `[{"name", "type", "type_id"}]` of a method's or view function's parameters.
fn params<'py>(py: Python<'py>, inputs: &[Param]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for p in inputs {
        let d = PyDict::new(py);
        d.set_item("name", &p.name)?;
        d.set_item("type", format!("scale_info::{}", p.ty))?;
        d.set_item("type_id", p.ty)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The runtime APIs of the loaded metadata (V15+): one dict per trait,
/// `{"name", "methods": [{"name", "inputs": [{"name", "type", "type_id"}],
/// "output", "output_id", "docs"}], "docs", "version"}`.
pub fn runtime_apis<'py>(registry: &Bound<'py, PyRegistry>) -> PyResult<Bound<'py, PyList>> {
    let py = registry.py();
    let md = metadata_listing(registry, ItemKind::RuntimeApi)?;
    let out = PyList::empty(py);
    for api in &md.apis {
        let d = PyDict::new(py);
        d.set_item("name", &api.name)?;
        let methods = PyList::empty(py);
        for m in &api.methods {
            let md = PyDict::new(py);
            md.set_item("name", &m.name)?;
            md.set_item("inputs", params(py, &m.inputs)?)?;
            md.set_item("output", format!("scale_info::{}", m.output))?;
            md.set_item("output_id", m.output)?;
            md.set_item("docs", &m.docs)?;
            methods.append(md)?;
        }
        d.set_item("methods", methods)?;
        d.set_item("docs", &api.docs)?;
        d.set_item("version", api.version)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The view functions of the loaded metadata (V16): one dict per function,
/// `{"pallet", "name", "id" ("0x…", 32 bytes), "inputs", "output",
/// "output_id", "docs"}`, in pallet order.
pub fn view_functions<'py>(registry: &Bound<'py, PyRegistry>) -> PyResult<Bound<'py, PyList>> {
    let py = registry.py();
    let md = metadata_listing(registry, ItemKind::ViewFunction)?;
    let out = PyList::empty(py);
    for p in &md.pallets {
        for f in &p.view_functions {
            let d = PyDict::new(py);
            d.set_item("pallet", &p.name)?;
            d.set_item("name", &f.name)?;
            d.set_item("id", ferroscale_core::hex::encode_prefixed(&f.id))?;
            d.set_item("inputs", params(py, &f.inputs)?)?;
            d.set_item("output", format!("scale_info::{}", f.output))?;
            d.set_item("output_id", f.output)?;
            d.set_item("docs", &f.docs)?;
            out.append(d)?;
        }
    }
    Ok(out)
}

/// The argument values in the order of `signature`'s inputs: `params` is
/// `None` (no arguments), a list or tuple (by position) or a dict (by name,
/// as async-substrate-interface's `runtime_call` takes them).
fn arguments(signature: &CallSignature, params: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Value>> {
    let Some(params) = params.filter(|p| !p.is_none()) else {
        return Ok(Vec::new());
    };
    if let Ok(d) = params.cast::<PyDict>() {
        let mut values = Vec::with_capacity(signature.inputs.len());
        for (name, _) in &signature.inputs {
            let v = d.get_item(name)?.ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{}.{}: argument '{name}' is missing",
                    signature.owner, signature.name
                ))
            })?;
            values.push(crate::convert::to_value(&v)?);
        }
        if d.len() > values.len() {
            let known: Vec<&str> = signature.inputs.iter().map(|(n, _)| n.as_str()).collect();
            return Err(PyValueError::new_err(format!(
                "{}.{} takes the arguments ({}), given {}",
                signature.owner,
                signature.name,
                known.join(", "),
                d.keys()
            )));
        }
        return Ok(values);
    }
    if params.is_instance_of::<PyList>() || params.is_instance_of::<PyTuple>() {
        return params
            .try_iter()?
            .map(|v| crate::convert::to_value(&v?))
            .collect();
    }
    Err(PyTypeError::new_err(format!(
        "params must be a list, tuple or dict, not {}",
        params.get_type().name()?
    )))
}

/// Bytes given as `bytes`, `bytearray` or `"0x…"` hex text.
pub(crate) fn input_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = data.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    if let Ok(s) = data.cast::<PyString>() {
        let text = s.to_str()?;
        let hex = text.strip_prefix("0x").unwrap_or(text);
        return ferroscale_core::hex::decode(hex).map_err(|e| PyValueError::new_err(e.to_string()));
    }
    Err(PyTypeError::new_err(format!(
        "data must be bytes, bytearray or hex text, not {}",
        data.get_type().name()?
    )))
}

/// Decodes all of `data` as node `ty` of `registry`, in py-scale-codec's
/// value shapes (a large answer with the interpreter lock released).
pub(crate) fn decode_output<'py>(
    registry: &Bound<'py, PyRegistry>,
    ty: ferroscale_dynamic::TypeIdx,
    what: &str,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyBytes::new(registry.py(), &input_bytes(data)?);
    PyRegistry::decode_in(registry, ty, Some(what), bytes.as_any(), 0, true).map(|(v, _)| v)
}

/// `(method, data)` for `state_call`: the name `"Trait_method"` and the
/// arguments SCALE-encoded, as `"0x…"` hex.
pub fn runtime_api_request(
    registry: &Bound<'_, PyRegistry>,
    api: &str,
    method: &str,
    params: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, String)> {
    let py = registry.py();
    let mut reg = registry.get().lock(py)?;
    guard("encoding a runtime API call", || {
        let inner = reg.inner_mut();
        let call = inner.runtime_api(api, method).map_err(|e| to_py(py, &e))?;
        let args = arguments(&call.signature, params)?;
        let (name, data) = inner
            .runtime_api_request(&call, &args)
            .map_err(|e| to_py(py, &e))?;
        Ok((name, ferroscale_core::hex::encode_prefixed(&data)))
    })
}

/// The value of a runtime API method's answer (`bytes`, `bytearray` or hex).
pub fn decode_runtime_api_result<'py>(
    registry: &Bound<'py, PyRegistry>,
    api: &str,
    method: &str,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = registry.py();
    let call = guard("resolving a runtime API", || {
        registry
            .get()
            .lock(py)?
            .inner_mut()
            .runtime_api(api, method)
            .map_err(|e| to_py(py, &e))
    })?;
    decode_output(registry, call.signature.output, &call.method_name(), data)
}

/// The view function `pallet.name` (the dynamic layer's error when absent).
fn view_function(
    registry: &Bound<'_, PyRegistry>,
    pallet: &str,
    name: &str,
) -> PyResult<ferroscale_dynamic::registry::ViewFunctionCall> {
    let py = registry.py();
    guard("resolving a view function", || {
        registry
            .get()
            .lock(py)?
            .inner_mut()
            .view_function(pallet, name)
            .map_err(|e| to_py(py, &e))
    })
}

/// `(method, data)` for `state_call` running the view function
/// `pallet.name`: `"RuntimeViewFunction_execute_view_function"` and the
/// query id with the encoded arguments, as `"0x…"` hex.
pub fn view_function_request(
    registry: &Bound<'_, PyRegistry>,
    pallet: &str,
    name: &str,
    params: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, String)> {
    let py = registry.py();
    let view = view_function(registry, pallet, name)?;
    let args = arguments(&view.signature, params)?;
    let mut reg = registry.get().lock(py)?;
    guard("encoding a view function call", || {
        let (method, data) = reg
            .inner_mut()
            .view_function_request(&view, &args)
            .map_err(|e| to_py(py, &e))?;
        Ok((method, ferroscale_core::hex::encode_prefixed(&data)))
    })
}

/// The value of a view function's output bytes (the `Ok` payload of the
/// `state_call` answer).
pub fn decode_view_function_result<'py>(
    registry: &Bound<'py, PyRegistry>,
    pallet: &str,
    name: &str,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let view = view_function(registry, pallet, name)?;
    let what = format!("{pallet}.{name}");
    decode_output(registry, view.signature.output, &what, data)
}

/// The value of a view function's whole `state_call` answer
/// (`Result<Vec<u8>, ViewFunctionDispatchError>`): the `Ok` output decoded,
/// an `Err` raised as a `ValueError` naming the dispatch error.
pub fn decode_view_function_answer<'py>(
    registry: &Bound<'py, PyRegistry>,
    pallet: &str,
    name: &str,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = registry.py();
    let view = view_function(registry, pallet, name)?;
    let bytes = input_bytes(data)?;
    let value = guard("decoding a view function answer", || {
        registry
            .get()
            .lock(py)?
            .inner_mut()
            .decode_view_function_answer(&view, &bytes)
            .map_err(|e| to_py(py, &e))
    })?;
    let mut names = NameCache::default();
    let mut sink = PySink {
        py,
        names: &mut names,
    };
    Ok(ferroscale_dynamic::Sink::value(&mut sink, value))
}
