//! What the metadata object classes share: the default depth of type
//! decompositions, `scale_info::N` type strings, a type's decomposition in
//! an object's configuration, legacy type names normalised, and finding an
//! element of a list by one of its attributes.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// py-scale-codec's default depth of `generate_type_decomposition`.
pub(crate) const TYPE_DECOMP_MAX_RECURSIVE: u32 = 9;

/// A `max_recursion` argument: what the caller gave (passed on as it is,
/// `generate_type_decomposition` checks it), else py-scale-codec's default.
pub(crate) fn depth<'py>(
    py: Python<'py>,
    given: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    match given {
        Some(depth) => Ok(depth),
        None => Ok(TYPE_DECOMP_MAX_RECURSIVE.into_pyobject(py)?.into_any()),
    }
}

/// `scale_info::N` of a portable type id.
pub(crate) fn type_id_string(id: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(format!("scale_info::{}", id.str()?))
}

/// The type decomposition of `type_string` in `obj`'s configuration.
pub(crate) fn decomposition<'py>(
    obj: &Bound<'py, PyAny>,
    type_string: &Bound<'py, PyAny>,
    max_recursion: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("max_recursion", max_recursion)?;
    obj.getattr(intern!(py, "runtime_config"))?
        .call_method1(intern!(py, "create_scale_object"), (type_string,))?
        .call_method(
            intern!(py, "generate_type_decomposition"),
            (),
            Some(&kwargs),
        )
}

/// py-scale-codec's normalisation of a legacy type name.
pub(crate) fn convert_type(name: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(ferroscale_dynamic::runtime::convert_type_string(
        &name.extract::<String>()?,
    ))
}

/// The first element of `items` whose `read` equals `wanted`.
pub(crate) fn find_by<'py>(
    items: &Bound<'py, PyAny>,
    wanted: &Bound<'py, PyAny>,
    read: impl Fn(&Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    for element in items.try_iter()? {
        let element = element?;
        if read(&element)?.eq(wanted)? {
            return Ok(Some(element));
        }
    }
    Ok(None)
}
