//! The bookkeeping of a `RuntimeConfigurationObject` (the Python class
//! deriving from [`ConfigBase`](crate::config::ConfigBase)): its class cache, value decoders, the
//! mirror of the presets' `types` it keeps in `type_registry`, and the
//! imports of portable registries. The methods of `ConfigBase` named alike
//! call these; what stays in Python is what makes classes.

use pyo3::exceptions::{PyNotImplementedError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyType};

use crate::objects::object::own_class_attr;
use crate::registry::value_decoder::ValueDecoder;
use crate::registry::PyRegistry;

/// The class cache (`_classes`); a `ValueError` before `__init__` set it.
fn classes<'py>(slf: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let py = slf.py();
    slf.getattr(intern!(py, "_classes"))?
        .cast_into::<PyDict>()
        .map_err(|_| PyValueError::new_err("configuration has no class cache"))
}

/// Forgets the classes made for type strings (the registry changed).
fn clear_classes(slf: &Bound<'_, PyAny>) -> PyResult<()> {
    classes(slf)?.clear();
    Ok(())
}

/// `get_decoder_class`: the cached class of `type_string`, else the one
/// [`make_class`](crate::config::classes::make_class) makes (cached, `None` for an unknown type too); `None` for
/// a dict `{field: type}` an inner struct class of those fields, as
/// py-scale-codec makes for an enum variant with named fields (made anew
/// each time, as there: a dict is no cache key).
pub(crate) fn decoder_class<'py>(
    slf: &Bound<'py, PyAny>,
    type_string: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(fields) = type_string.cast::<PyDict>() {
        return inner_struct_class(slf, fields);
    }
    if let Some(cls) = classes(slf)?.get_item(type_string)? {
        return Ok(cls);
    }
    let cls = match alias_class(slf, type_string)? {
        Some(cls) => cls,
        None => same_class_as_before(
            slf,
            type_string,
            crate::config::classes::make_class(slf, type_string)?,
        )?,
    };
    // read again: making the class may have reset the configuration
    classes(slf)?.set_item(type_string, &cls)?;
    Ok(cls)
}

/// `InnerStruct`: a subclass of this configuration's `Struct` class (bound
/// to it) whose fields are `fields`' items, in their order.
fn inner_struct_class<'py>(
    slf: &Bound<'py, PyAny>,
    fields: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let base = decoder_class(slf, &PyString::new(py, "Struct").into_any())?;
    if base.is_none() {
        return Ok(base);
    }
    let attrs = PyDict::new(py);
    let mapping = pyo3::types::PyTuple::new(py, fields.items())?;
    attrs.set_item(intern!(py, "type_mapping"), mapping)?;
    let bases = pyo3::types::PyTuple::new(py, [base])?;
    py.get_type::<PyType>().call1(("InnerStruct", bases, attrs))
}

/// py-scale-codec's classes are its modules' own, so a type keeps its
/// class when the registry is cleared and loaded again (py-substrate-interface
/// compares `get_decoder_class("u32")` across `reload_type_registry`). The
/// class made earlier for `type_string` (`_made_classes`, which outlives
/// the class cache) is given the new class's graph node and returned when
/// the two are alike in every other respect; otherwise `made` is kept.
fn same_class_as_before<'py>(
    slf: &Bound<'py, PyAny>,
    type_string: &Bound<'py, PyAny>,
    made: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let Ok(made_type) = made.cast::<PyType>() else {
        return Ok(made);
    };
    let Some(earlier) = slf
        .getattr(intern!(py, "__dict__"))?
        .get_item("_made_classes")
        .ok()
        .and_then(|d| d.cast_into::<PyDict>().ok())
    else {
        return Ok(made);
    };
    if let Some(before) = earlier.get_item(type_string)? {
        if let Ok(before_type) = before.cast::<PyType>() {
            if alike(before_type, made_type)? {
                for name in NODE_ATTRS {
                    let name = PyString::new(py, name);
                    match own_class_attr(made_type, &name)? {
                        Some(value) => before.setattr(&name, value)?,
                        None if own_class_attr(before_type, &name)?.is_some() => {
                            before.delattr(&name)?
                        }
                        None => {}
                    }
                }
                return Ok(before);
            }
        }
    }
    earlier.set_item(type_string, &made)?;
    Ok(made)
}

/// The attributes of a made class that tie it to one registry state.
const NODE_ATTRS: [&str; 3] = ["_node", "_node_generation", "_fast_node"];

/// Attributes every class has a fresh one of (descriptors, doc).
const OWN_DESCRIPTORS: [&str; 3] = ["__dict__", "__weakref__", "__doc__"];

/// `cls.__dict__` as a dict.
fn class_dict<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyDict>> {
    let py = cls.py();
    let proxy = cls.getattr(intern!(py, "__dict__"))?;
    Ok(py
        .get_type::<PyDict>()
        .call1((proxy,))?
        .cast_into::<PyDict>()?)
}

/// Same name, same bases and equal class attributes, the graph node aside.
fn alike(a: &Bound<'_, PyType>, b: &Bound<'_, PyType>) -> PyResult<bool> {
    let py = a.py();
    if !a.name()?.as_any().eq(b.name()?)?
        || !a
            .getattr(intern!(py, "__bases__"))?
            .eq(b.getattr(intern!(py, "__bases__"))?)?
    {
        return Ok(false);
    }
    let (a, b) = (class_dict(a)?, class_dict(b)?);
    for name in NODE_ATTRS.iter().chain(OWN_DESCRIPTORS.iter()) {
        a.del_item(name).ok();
        b.del_item(name).ok();
    }
    a.eq(b)
}

/// py-scale-codec keeps one class per type, not per name: a name the
/// presets define as another type string (`"Index": "u32"`, followed to the
/// end of such a chain by `Definitions::follow_aliases`, as `crate::registry::kinds`
/// does) has that type's class itself, when both name the same type; a
/// class a user put in `type_registry['types']` is the name's class as it
/// is. `None` for any other name (a cycle of names included).
fn alias_class<'py>(
    slf: &Bound<'py, PyAny>,
    type_string: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = slf.py();
    let Ok(text) = type_string.extract::<String>() else {
        return Ok(None);
    };
    let Ok(mirror) = slf
        .getattr(intern!(py, "type_registry"))?
        .get_item("types")?
        .cast_into::<PyDict>()
    else {
        return Ok(None);
    };
    // (`PyDict` reads the raw definitions, not the mirror's classes)
    if let Some(own) = mirror.get_item(text.to_lowercase())? {
        if own.is_instance_of::<PyType>() {
            return Ok(Some(own));
        }
    }
    let registry = slf
        .getattr(intern!(py, "_registry"))?
        .cast_into::<PyRegistry>()?;
    let target = {
        let registry = registry.get().lock(py)?;
        let registry = registry.inner();
        if registry.portable().and_then(|p| p.lookup(&text)).is_some() {
            // a path of the loaded portable registry is that registry's type,
            // not the preset's alias of the same name, as in py-scale-codec
            return Ok(None);
        }
        match registry.definitions().follow_aliases(&text) {
            Some(end) if end.aliases > 0 => end.name,
            _ => return Ok(None),
        }
    };
    let same = crate::errors::guard("resolving a type", || {
        let mut registry = registry.get().lock(py)?;
        Ok(registry.resolve_idx(py, &text)? == registry.resolve_idx(py, &target)?)
    });
    match same {
        Ok(true) => decoder_class(slf, &PyString::new(py, &target).into_any()).map(Some),
        // an unknown name or target: the caller says so
        _ => Ok(None),
    }
}

/// `get_value_decoder`: cyscale's value decoder of `type_string`, made once
/// (`_value_decoders`); `None` when the type is unknown.
pub(crate) fn value_decoder<'py>(
    slf: &Bound<'py, PyAny>,
    type_string: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let decoders = slf
        .getattr(intern!(py, "_value_decoders"))?
        .cast_into::<PyDict>()?;
    if let Some(decoder) = decoders.get_item(type_string)?.filter(|d| !d.is_none()) {
        return Ok(decoder);
    }
    let registry = slf.getattr(intern!(py, "_registry"))?;
    match py.get_type::<ValueDecoder>().call1((registry, type_string)) {
        Ok(decoder) => {
            decoders.set_item(type_string, &decoder)?;
            Ok(decoder)
        }
        Err(e) if e.is_instance_of::<PyNotImplementedError>(py) => Ok(py.None().into_bound(py)),
        Err(e) => Err(e),
    }
}

/// Portable types are imported as `scale_info::N` only: any other `prefix`
/// is a `NotImplementedError` naming `method`.
fn only_scale_info(method: &str, prefix: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    match prefix.filter(|p| !p.is_none()) {
        Some(p) if !p.eq("scale_info")? => Err(PyNotImplementedError::new_err(format!(
            "{method}: prefix {} is not supported",
            p.repr()?
        ))),
        _ => Ok(()),
    }
}

/// `add_portable_registry`: loads a decoded V14+ `MetadataVersioned`
/// object's registry and runtime, which becomes the configuration's `metadata`.
pub(crate) fn add_portable_registry(
    slf: &Bound<'_, PyAny>,
    metadata: &Bound<'_, PyAny>,
    prefix: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let py = slf.py();
    only_scale_info("add_portable_registry", prefix)?;
    slf.call_method1(intern!(py, "_sync_metadata"), (metadata,))?;
    slf.setattr(intern!(py, "implements_scale_info"), true)?;
    slf.setattr(intern!(py, "metadata"), metadata)?;
    clear_classes(slf)
}

/// `update_from_scale_info_types`: imports a bare portable registry (any
/// iterable of `{"id", "type"}` values or their scale objects).
pub(crate) fn update_from_scale_info_types(
    slf: &Bound<'_, PyAny>,
    scale_info_types: &Bound<'_, PyAny>,
    prefix: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let py = slf.py();
    only_scale_info("update_from_scale_info_types", prefix)?;
    let types = py.get_type::<PyList>().call1((scale_info_types,))?;
    let changed: bool = slf
        .getattr(intern!(py, "_registry"))?
        .call_method1(intern!(py, "load_portable_types"), (types,))?
        .extract()?;
    if changed {
        clear_classes(slf)?;
    }
    slf.setattr(intern!(py, "implements_scale_info"), true)
}

/// `get_decoder_class_for_scale_info_definition`: checks that the
/// portable type's definition kind is one py-scale-codec knows (registries
/// are imported whole), then `get_decoder_class(type_string)`.
pub(crate) fn class_for_scale_info_definition<'py>(
    slf: &Bound<'py, PyAny>,
    type_string: &Bound<'py, PyAny>,
    scale_info_type: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    crate::ops::check_type_def(py, scale_info_type)?;
    slf.call_method1(intern!(py, "get_decoder_class"), (type_string,))
}

/// `value` as JSON text, as the registry takes presets (Python's `json`
/// module: tuples are arrays, non-string keys become strings, as before).
fn to_json(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = value.py();
    py.import(intern!(py, "json"))?
        .call_method1(intern!(py, "dumps"), (value,))?
        .extract()
}

/// `value` as a dict, else a `TypeError` saying `what` must be one.
fn require_dict<'a, 'py>(
    value: &'a Bound<'py, PyAny>,
    what: &str,
) -> PyResult<&'a Bound<'py, PyDict>> {
    value
        .cast::<PyDict>()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be a dict")))
}

/// `update_type_registry`: applies a preset (`{"types", "versioning",
/// "runtime_id", …}`) and mirrors its tables in `type_registry`.
pub(crate) fn update_type_registry(
    slf: &Bound<'_, PyAny>,
    type_registry: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let py = slf.py();
    let preset = require_dict(type_registry, "type_registry")?;
    slf.getattr(intern!(py, "_registry"))?
        .call_method1(intern!(py, "update_preset"), (to_json(preset)?,))?;
    mirror_types(slf, &or_empty(py, preset.get_item("types")?)?)?;
    let mirror = slf.getattr(intern!(py, "type_registry"))?;
    mirror.get_item("runtime_api")?.call_method1(
        intern!(py, "update"),
        (or_empty(py, preset.get_item("runtime_api")?)?,),
    )?;
    for key in ["runtime_id", "versioning", "runtime_upgrades", "chain_id"] {
        if let Some(value) = preset.get_item(key)? {
            mirror.set_item(key, value)?;
        }
    }
    if let Some(chain_id) = preset.get_item("chain_id")? {
        slf.setattr(intern!(py, "chain_id"), chain_id)?;
    }
    Ok(())
}

/// `update_type_registry_types`: adds or overrides definitions `{"Name": definition}`.
pub(crate) fn update_type_registry_types(
    slf: &Bound<'_, PyAny>,
    types_dict: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let py = slf.py();
    let types = require_dict(types_dict, "types_dict")?;
    slf.getattr(intern!(py, "_registry"))?
        .call_method1(intern!(py, "update_types"), (to_json(types)?,))?;
    mirror_types(slf, types)
}

/// `value or {}` (Python's truth test).
fn or_empty<'py>(py: Python<'py>, value: Option<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
    match value {
        Some(v) if v.is_truthy()? => Ok(v),
        _ => Ok(PyDict::new(py).into_any()),
    }
}

/// Keeps `type_registry['types']` (lower-cased names → definitions) in
/// step with new definitions, which replace a declared class of the same
/// name, and forgets the classes made.
fn mirror_types(slf: &Bound<'_, PyAny>, types: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = slf.py();
    let mirror = slf
        .getattr(intern!(py, "type_registry"))?
        .get_item("types")?
        .cast_into::<PyDict>()?;
    let declared = slf
        .getattr(intern!(py, "__dict__"))?
        .get_item("_declared")
        .ok();
    for item in types.call_method0(intern!(py, "items"))?.try_iter()? {
        let (name, definition): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
        let lowered = name.call_method0(intern!(py, "lower"))?;
        // `dict.__setitem__`: the mirror's own `__getitem__` reads classes
        mirror.set_item(&lowered, definition)?;
        if let Some(declared) = &declared {
            declared.call_method1(intern!(py, "pop"), (&lowered, py.None()))?;
        }
    }
    clear_classes(slf)
}

/// `clear_type_registry`: forgets every definition, the portable registry
/// and the runtime (`crate::config::declared` then defines the user's classes again).
pub(crate) fn clear_type_registry(slf: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = slf.py();
    let registry = slf.getattr(intern!(py, "_registry"))?;
    registry.call_method0(intern!(py, "clear"))?;
    slf.call_method1(intern!(py, "_reset"), (registry,))?;
    Ok(())
}

/// `__getstate__`: the configuration as it pickles: its id, the registry's
/// own state, the `type_registry` tables (the types mirror as its raw
/// definitions), `implements_scale_info` and `chain_id`.
pub(crate) fn state<'py>(slf: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let py = slf.py();
    let state = PyDict::new(py);
    state.set_item("config_id", slf.getattr(intern!(py, "config_id"))?)?;
    let registry = slf.getattr(intern!(py, "_registry"))?;
    state.set_item(
        "registry",
        registry.call_method0(intern!(py, "__getstate__"))?,
    )?;
    let tables = PyDict::new(py);
    for item in slf
        .getattr(intern!(py, "type_registry"))?
        .call_method0(intern!(py, "items"))?
        .try_iter()?
    {
        let (key, table): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
        let definitions = intern!(py, "definitions");
        if table.is_instance_of::<PyDict>()
            && !table.is_exact_instance_of::<PyDict>()
            && table.hasattr(definitions)?
        {
            tables.set_item(key, table.call_method0(definitions)?)?;
        } else {
            tables.set_item(key, table)?;
        }
    }
    state.set_item("type_registry", tables)?;
    for key in ["implements_scale_info", "chain_id"] {
        state.set_item(key, slf.getattr(key)?)?;
    }
    Ok(state)
}

/// `__setstate__`: a pickled configuration (see [`state`]) over a new
/// registry (`crate::config::declared` then pairs the user's classes with the
/// definitions the registry replayed).
pub(crate) fn set_state(slf: &Bound<'_, PyAny>, state: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = slf.py();
    for key in ["config_id", "implements_scale_info"] {
        slf.setattr(key, state.get_item(key)?)?;
    }
    slf.setattr(intern!(py, "_made_classes"), PyDict::new(py))?;
    let registry = py.get_type::<PyRegistry>().call0()?;
    slf.call_method1(intern!(py, "_reset"), (&registry,))?;
    registry.call_method1(intern!(py, "__setstate__"), (state.get_item("registry")?,))?;
    slf.setattr(intern!(py, "chain_id"), state.get_item("chain_id")?)?;
    let mirror = slf.getattr(intern!(py, "type_registry"))?;
    for item in state
        .get_item("type_registry")?
        .call_method0(intern!(py, "items"))?
        .try_iter()?
    {
        let (key, table): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
        if key.eq("types")? {
            // `dict.update`: the mirror's own `__getitem__` reads classes
            mirror
                .get_item(&key)?
                .cast_into::<PyDict>()?
                .update(table.cast::<pyo3::types::PyMapping>()?)?;
        } else {
            mirror.set_item(key, table)?;
        }
    }
    Ok(())
}
