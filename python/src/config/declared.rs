//! The scale classes users declare themselves (subclasses of the package's
//! classes, `type("MyStruct", (Struct,), {"type_mapping": [...]})`): each
//! as a preset definition, defined by its name in every configuration (as
//! py-scale-codec registers every class it knows), and paired again with
//! the definitions of an unpickled configuration.

use pyo3::exceptions::{PyAttributeError, PyNotImplementedError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyType};

use crate::config::classes::declared_in;
use crate::package::catalogue::catalogue;

/// `getattr(obj, name, None)`.
fn attr_or_none<'py>(
    obj: &Bound<'py, PyAny>,
    name: &Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyAny>> {
    match obj.getattr(name) {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyAttributeError>(obj.py()) => {
            Ok(obj.py().None().into_bound(obj.py()))
        }
        Err(e) => Err(e),
    }
}

/// The `type_string` attribute as the class defines it, unbound (what
/// `inspect.getattr_static` finds along the MRO; `None` without one).
fn static_type_string<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyAny>> {
    let py = cls.py();
    for base in cls.getattr(intern!(py, "__mro__"))?.try_iter()? {
        let own = base?.getattr(intern!(py, "__dict__"))?;
        if own.contains(intern!(py, "type_string"))? {
            return own.get_item(intern!(py, "type_string"));
        }
    }
    Ok(py.None().into_bound(py))
}

/// A user-defined scale class as a preset definition: its `type_mapping`
/// (struct, tuple, enum), `value_list` (set, enum) or the type string it
/// stands for; `None` when it has none. Its kind is read with `issubclass`
/// against the package's scale classes (`Struct`, `Tuple`, `Set`, `Enum`).
#[pyfunction]
pub fn user_definition<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyAny>> {
    let py = cls.py();
    let kinds = crate::package::catalogue::catalogue(py)?.by_name;
    let is = |name: &str| -> PyResult<bool> {
        match kinds.get_item(name)? {
            Some(kind) => cls.is_subclass(&kind),
            None => Ok(false),
        }
    };
    let mapping = cls.getattr(intern!(py, "type_mapping"))?;
    let values = attr_or_none(cls.as_any(), intern!(py, "value_list"))?;
    let (has_mapping, has_values) = (mapping.is_truthy()?, values.is_truthy()?);
    let definition =
        |kind: &str, key: &str, table: Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
            let d = PyDict::new(py);
            d.set_item("type", kind)?;
            d.set_item(key, table)?;
            Ok(d.into_any())
        };
    let list = |items: &Bound<'py, PyAny>| py.get_type::<PyList>().call1((items,));
    if is("Struct")? && has_mapping {
        let pairs = mapping
            .try_iter()?
            .map(|p| list(&p?))
            .collect::<PyResult<Vec<_>>>()?;
        return definition("struct", "type_mapping", PyList::new(py, pairs)?.into_any());
    }
    if is("Tuple")? && has_mapping {
        return definition("tuple", "type_mapping", list(&mapping)?);
    }
    if is("Set")? && has_values {
        let value_type = match attr_or_none(cls.as_any(), intern!(py, "value_type"))? {
            v if v.is_none() && !cls.hasattr(intern!(py, "value_type"))? => {
                PyString::new(py, "u64").into_any()
            }
            v => v,
        };
        let d = definition("set", "value_type", value_type)?;
        d.set_item("value_list", py.get_type::<PyDict>().call1((values,))?)?;
        return Ok(d);
    }
    if is("Enum")? && has_mapping {
        let mut pairs = Vec::new();
        for item in mapping.try_iter()? {
            let mut parts = item?.try_iter()?;
            let (Some(name), Some(ty), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(PyValueError::new_err(
                    "an enum's type_mapping entry must be a (name, type) pair",
                ));
            };
            let ty = ty?;
            let ty = if ty.is_truthy()? {
                ty
            } else {
                PyString::new(py, "Null").into_any()
            };
            pairs.push(PyList::new(py, [name?, ty])?);
        }
        return definition("enum", "type_mapping", PyList::new(py, pairs)?.into_any());
    }
    if is("Enum")? && has_values {
        let table = if values.is_instance_of::<PyDict>() {
            values
        } else {
            list(&values)?
        };
        return definition("enum", "value_list", table);
    }
    let declared = static_type_string(cls)?;
    if attr_or_none(&declared, intern!(py, "names_its_class"))?.is_truthy()? {
        // an enum or set without variants: its type string would be this definition
        return Ok(py.None().into_bound(py));
    }
    let type_string = cls.getattr(intern!(py, "type_string"))?;
    if type_string.is_instance_of::<PyString>() {
        let name = cls.getattr(intern!(py, "__name__"))?;
        let lower = intern!(py, "lower");
        if !type_string
            .call_method0(lower)?
            .eq(name.call_method0(lower)?)?
        {
            return Ok(type_string);
        }
    }
    Ok(py.None().into_bound(py))
}

/// Defines every class users declared (py-scale-codec registers every
/// scale class it knows when a configuration is created or cleared).
pub(crate) fn declare_classes(config: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = config.py();
    config.setattr(intern!(py, "_declared"), PyDict::new(py))?;
    let declared = catalogue(py)?.declared;
    for cls in declared.values() {
        declare(config, cls.cast::<PyType>()?)?;
    }
    Ok(())
}

/// Defines `cls` (a declared class) by its name; `None` when it declares no
/// structure or the registry refuses its definition.
fn declare<'py>(
    config: &Bound<'py, PyAny>,
    cls: &Bound<'py, PyType>,
) -> PyResult<Option<Bound<'py, PyString>>> {
    let py = config.py();
    let definition = user_definition(cls)?;
    if definition.is_none() {
        return Ok(None);
    }
    let name = cls.name()?;
    let types = PyDict::new(py);
    types.set_item(&name, definition)?;
    match crate::config::books::update_type_registry_types(config, &types) {
        Ok(()) => {}
        // a class whose attributes make no definition stays unknown by name
        Err(e)
            if e.is_instance_of::<PyValueError>(py)
                || e.is_instance_of::<PyTypeError>(py)
                || e.is_instance_of::<PyNotImplementedError>(py) =>
        {
            return Ok(None)
        }
        Err(e) => return Err(e),
    }
    if let Some(declared) = declared_in(config)? {
        declared.set_item(name.to_cow()?.to_lowercase(), cls)?;
    }
    Ok(Some(name))
}

/// The type string of a declared class in `config`, defining it first if
/// the class came after the configuration.
pub(crate) fn declared_name<'py>(
    config: &Bound<'py, PyAny>,
    cls: &Bound<'py, PyType>,
) -> PyResult<Bound<'py, PyString>> {
    let name = cls.name()?;
    let known = declared_in(config)?
        .map(|d| d.get_item(name.to_cow()?.to_lowercase()))
        .transpose()?
        .flatten();
    if known.is_some_and(|known| known.is(cls)) {
        return Ok(name);
    }
    declare(config, cls)?.ok_or_else(|| {
        PyNotImplementedError::new_err(format!("{name} declares no type to decode or encode with"))
    })
}

/// Pairs the declared classes with the definitions a pickled registry
/// replayed (those whose definition is still the class's own).
pub(crate) fn pair_declared(config: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = config.py();
    let mirror = config
        .getattr(intern!(py, "type_registry"))?
        .get_item("types")?
        .cast_into::<PyDict>()?;
    let paired = PyDict::new(py);
    for (name, cls) in catalogue(py)?
        .declared
        .items()
        .extract::<Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)>>()?
    {
        // `PyDict::get_item`: the raw definition, not the mirror's class
        if let Some(definition) = mirror.get_item(&name)? {
            if definition.eq(user_definition(cls.cast::<PyType>()?)?)? {
                paired.set_item(name, cls)?;
            }
        }
    }
    config.setattr(intern!(py, "_declared"), paired)
}
