//! The classes a configuration makes for type strings (`get_decoder_class`).
//!
//! A made class derives from the package's class for its node kind (or the
//! preset's `base_class`, or a user's class declared under that name) and
//! carries the attributes py-scale-codec's classes have (`type_string`,
//! `sub_type`, `type_mapping`, `value_list`, `element_count`,
//! `scale_info_type`). A class that overrides no decode or encode hook gets
//! a `_fast_node`: Rust then decodes and encodes its objects without
//! calling Python.

use std::sync::OnceLock;

use pyo3::exceptions::{PyNotImplementedError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

use crate::objects::object::{FastNode, ScaleObject};
use crate::objects::views::codec::CompositeView;
use crate::package::catalogue::catalogue;
use crate::registry::kinds::{ClassInfo, TypeKind};
use crate::registry::PyRegistry;

/// Methods whose override means a class decodes differently from its node.
const DECODE_HOOKS: [&str; 4] = ["decode", "_decode_value", "_before_decode", "_after_decode"];
/// Methods whose override means a class encodes differently from its node.
const ENCODE_HOOKS: [&str; 4] = [
    "encode",
    "_encode_value",
    "_encoded_value",
    "_before_decode",
];

/// The class of `type_string` in `config`; `None` when the type is unknown.
pub(crate) fn make_class<'py>(
    config: &Bound<'py, PyAny>,
    type_string: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = config.py();
    let text = type_string
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("a type string must be a str"))?
        .to_cow()?;
    let lowered = text.to_lowercase();
    if let Some(own) = catalogue(py)?.by_type_string.get_item(&lowered)? {
        // a class of the package's own for this type string, bound to `config`
        let attrs = PyDict::new(py);
        attrs.set_item(intern!(py, "_runtime_config"), config)?;
        attrs.set_item(intern!(py, "__module__"), made_classes_module())?;
        let name = own.getattr(intern!(py, "__name__"))?;
        return py
            .get_type::<PyType>()
            .call1((name, PyTuple::new(py, [own])?, attrs));
    }
    let registry = registry_of(config)?;
    let resolved = crate::errors::guard("resolving a type", || {
        registry.get().lock(py)?.resolve_idx(py, &text)
    });
    let idx = match resolved {
        Ok(idx) => idx.0,
        Err(e) if e.is_instance_of::<PyNotImplementedError>(py) => {
            return Ok(py.None().into_bound(py))
        }
        Err(e) => return Err(e),
    };
    Ok(class_for_node(config, &registry, &text, &lowered, idx)?.into_any())
}

/// The module the classes made for type strings name as theirs (as
/// py-scale-codec's, made in its `base`), not the caller's: the package's
/// `base` under the name the package was imported as.
fn made_classes_module() -> &'static str {
    static MODULE: OnceLock<String> = OnceLock::new();
    MODULE.get_or_init(|| format!("{}.base", crate::package::name::package()))
}

/// The configuration's Rust registry.
fn registry_of<'py>(config: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyRegistry>> {
    config
        .getattr(intern!(config.py(), "_registry"))?
        .cast_into::<PyRegistry>()
        .map_err(|_| PyValueError::new_err("configuration has no registry"))
}

/// The class of `type_string` (resolved to graph node `idx`) in `config`.
fn class_for_node<'py>(
    config: &Bound<'py, PyAny>,
    registry: &Bound<'py, PyRegistry>,
    type_string: &str,
    lowered: &str,
    idx: u32,
) -> PyResult<Bound<'py, PyType>> {
    let py = config.py();
    let info: ClassInfo = crate::registry::kinds::class_info(
        py,
        registry.get().lock(py)?.inner(),
        type_string,
        ferroscale_dynamic::TypeIdx(idx),
    )?;
    let classes = catalogue(py)?;
    let fallback = if info.kind == TypeKind::Char {
        "ScalePrimitive"
    } else {
        "ScaleType"
    };
    let base = match classes.by_kind.get_item(info.kind)? {
        Some(base) => base,
        None => crate::package::catalogue::scale_class(py, fallback)?,
    };
    let attrs = PyDict::new(py);
    attrs.set_item(intern!(py, "__module__"), made_classes_module())?;
    attrs.set_item(intern!(py, "type_string"), type_string)?;
    attrs.set_item(intern!(py, "_runtime_config"), config)?;
    attrs.set_item(intern!(py, "_node"), idx)?;
    // the registry state `idx` belongs to: the graph only grows, so a node
    // of an earlier state still decodes that state's type, which objects
    // made before a runtime switch must not do (see `ScaleObject::_decode_value`)
    attrs.set_item(
        intern!(py, "_node_generation"),
        registry.get().lock(py)?.current_generation(),
    )?;
    if let Some(sub_type) = &info.sub_type {
        attrs.set_item(intern!(py, "sub_type"), sub_type)?;
    }
    if let Some(type_mapping) = &info.type_mapping {
        attrs.set_item(intern!(py, "type_mapping"), type_mapping)?;
    }
    if let Some(value_list) = &info.value_list {
        attrs.set_item(intern!(py, "value_list"), value_list)?;
        // what every part of this enum asks for, derived once
        let mapping = info.type_mapping.as_ref().map(|m| m.bind(py).clone());
        let value_list = Some(value_list.into_pyobject(py)?.into_any());
        if let Some((names, types)) =
            crate::objects::typed_parts::variant_tables(value_list, mapping)?
        {
            attrs.set_item(intern!(py, "_variant_names"), names)?;
            attrs.set_item(intern!(py, "_variant_types"), types)?;
        }
    }
    if let Some(count) = info.element_count {
        attrs.set_item(intern!(py, "element_count"), count)?;
    }
    if let Some(type_id) = type_string.strip_prefix("scale_info::") {
        attrs.set_item(
            intern!(py, "scale_info_type"),
            portable_type_of(config, type_id)?,
        )?;
    }
    let mut named = match &info.base_class {
        Some(name) => classes.by_name.get_item(name)?,
        // a package class's own name (`GenericStringType`, where an alias
        // such as `"Type": "GenericStringType"` leads), when it refines the
        // kind's class, as py-scale-codec's class of that name does
        None => match classes.by_name.get_item(type_string)? {
            Some(own) if own.cast::<PyType>()?.is_subclass(&base)? => Some(own),
            _ => None,
        },
    };
    if let Some(declared) = declared_in(config)?
        .map(|d| d.get_item(lowered))
        .transpose()?
        .flatten()
    {
        if declared.cast::<PyType>()?.is_subclass(&base)? {
            named = Some(declared); // the class declared under this name, as py-scale-codec returns it
        }
    }
    let bases = match named {
        Some(named) if !named.is(&base) => {
            if named.cast::<PyType>()?.is_subclass(&base)? {
                PyTuple::new(py, [named])?
            } else {
                PyTuple::new(py, [named, bound_base(config, &base, lowered)?])?
            }
        }
        _ => PyTuple::new(py, [bound_base(config, &base, lowered)?])?,
    };
    let is_identifier: bool = PyString::new(py, type_string)
        .call_method0(intern!(py, "isidentifier"))?
        .extract()?;
    let name = if is_identifier {
        PyString::new(py, type_string).into_any()
    } else {
        base.getattr(intern!(py, "__name__"))?
    };
    let cls = py
        .get_type::<PyType>()
        .call1((name, bases, attrs))?
        .cast_into::<PyType>()?;
    let (plain_decode, plain_encode) = (
        inherits(&cls, &DECODE_HOOKS)?,
        inherits(&cls, &ENCODE_HOOKS)?,
    );
    if plain_decode || plain_encode {
        let generation = registry.get().lock(py)?.current_generation();
        let marker = py.get_type::<FastNode>().call1((
            idx,
            generation,
            plain_decode,
            plain_encode,
            type_string,
        ))?;
        cls.setattr(intern!(py, "_fast_node"), marker)?;
    }
    Ok(cls)
}

/// The class `config` gives for `base`'s own name (`get_decoder_class("Enum")`)
/// when `base` is the package's class of that name, else `base`: a made
/// class derives from it, so that `issubclass(get_decoder_class("MultiSignature"),
/// get_decoder_class("Enum"))` holds, as in py-scale-codec, whose
/// `get_decoder_class("Enum")` is the base class itself (substrate-interface
/// tests a runtime's `ExtrinsicSignature` so before it signs).
/// `made` is the lower-cased type string being made: a class named as its
/// base (`"U32"`, whose base is `U32`) derives from the base itself.
fn bound_base<'py>(
    config: &Bound<'py, PyAny>,
    base: &Bound<'py, PyAny>,
    made: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let py = config.py();
    let name = base.getattr(intern!(py, "__name__"))?;
    if name.str()?.to_cow()?.to_lowercase() == made {
        return Ok(base.clone());
    }
    if let Some(own) = catalogue(py)?.by_name.get_item(&name)? {
        if own.is(base) {
            // through the configuration's method (the class cache is `books`'s,
            // which makes classes through this module)
            let bound = config.call_method1(intern!(py, "get_decoder_class"), (&name,))?;
            if let Ok(bound_type) = bound.cast::<PyType>() {
                if bound_type.is_subclass(base)? {
                    return Ok(bound);
                }
            }
        }
    }
    Ok(base.clone())
}

/// Whether `cls` keeps every one of `hooks` as the Rust base defines it.
/// A struct's or tuple's hooks count as kept: they decode and encode by the
/// object's type string, which a made class always has, as the base does.
fn inherits(cls: &Bound<'_, PyType>, hooks: &[&str]) -> PyResult<bool> {
    let py = cls.py();
    let (base, composite) = (py.get_type::<ScaleObject>(), py.get_type::<CompositeView>());
    for hook in hooks {
        let own = cls.getattr(*hook)?;
        if !own.is(&base.getattr(*hook)?) && !own.is(&composite.getattr(*hook)?) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The portable-registry entry `scale_info::<type_id>` names, from the
/// configuration's metadata; `None` without metadata or such an entry.
fn portable_type_of<'py>(config: &Bound<'py, PyAny>, type_id: &str) -> PyResult<Bound<'py, PyAny>> {
    let py = config.py();
    let none = || Ok(py.None().into_bound(py));
    let Ok(type_id) = type_id.parse::<u32>() else {
        return none();
    };
    let metadata = config.getattr(intern!(py, "metadata"))?;
    if metadata.is_none() {
        return none();
    }
    let types = metadata
        .getattr(intern!(py, "portable_registry"))
        .and_then(|registry| registry.getattr(intern!(py, "value")))
        .and_then(|value| value.get_item("types"));
    match types {
        Ok(types) => crate::objects::typed_parts::portable_entry(
            &types,
            &type_id.into_pyobject(py)?.into_any(),
            config.clone(),
            None,
        ),
        Err(_) => none(),
    }
}

/// The configuration's declared classes by lower-cased name (`_declared`),
/// if it has that table yet.
pub(crate) fn declared_in<'py>(config: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyDict>>> {
    let py = config.py();
    let own = config.getattr(intern!(py, "__dict__"))?;
    Ok(own
        .cast::<PyDict>()?
        .get_item(intern!(py, "_declared"))?
        .and_then(|d| d.cast_into::<PyDict>().ok()))
}
