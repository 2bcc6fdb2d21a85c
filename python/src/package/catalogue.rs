//! The scale classes of `scalecodec.base` as Rust sees them: the package
//! registers, on import, its class tables and the getter of the metadata
//! definitions' configuration; the Rust code that makes classes
//! (`classes`), parts (`typed_parts`) and reads users' classes (`config`)
//! looks them up here.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;

/// What `scalecodec.base` gives at import. The dicts are the package's own,
/// filled as its classes are defined (`ScaleDecoder.__init_subclass__`).
pub struct Catalogue<'py> {
    /// Scale classes by name (a preset's `base_class`, a part's kind).
    pub by_name: Bound<'py, PyDict>,
    /// Scale classes by node kind (`TypeKind`): the bases of made classes.
    pub by_kind: Bound<'py, PyDict>,
    /// Scale classes by the lower-cased type strings they decode themselves.
    pub by_type_string: Bound<'py, PyDict>,
    /// Users' scale classes by lower-cased name (the last defined wins).
    pub declared: Bound<'py, PyDict>,
    /// Returns the configuration of the metadata definitions (the default
    /// class source of typed parts; made on first use).
    pub definitions: Bound<'py, PyAny>,
}

/// The registered tables; a reloaded `scalecodec.base` registers again.
static CATALOGUE: Mutex<Option<[Py<PyAny>; 5]>> = Mutex::new(None);

/// Registers the package's class tables (by name, by node kind, by type
/// string, users' declared classes) and the metadata-definitions getter
/// (`scalecodec.base` calls this on import).
#[pyfunction]
pub fn set_catalogue(
    by_name: Bound<'_, PyDict>,
    by_kind: Bound<'_, PyDict>,
    by_type_string: Bound<'_, PyDict>,
    declared: Bound<'_, PyDict>,
    definitions: Bound<'_, PyAny>,
) {
    let mut catalogue = CATALOGUE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    *catalogue = Some([
        by_name.into_any().unbind(),
        by_kind.into_any().unbind(),
        by_type_string.into_any().unbind(),
        declared.into_any().unbind(),
        definitions.unbind(),
    ]);
}

/// The registered tables.
pub fn catalogue(py: Python<'_>) -> PyResult<Catalogue<'_>> {
    let catalogue = CATALOGUE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let Some([by_name, by_kind, by_type_string, declared, definitions]) = catalogue.as_ref() else {
        return Err(PyRuntimeError::new_err("scalecodec.base is not imported"));
    };
    let dict = |d: &Py<PyAny>| {
        d.bind(py)
            .clone()
            .cast_into::<PyDict>()
            .map_err(PyErr::from)
    };
    Ok(Catalogue {
        by_name: dict(by_name)?,
        by_kind: dict(by_kind)?,
        by_type_string: dict(by_type_string)?,
        declared: dict(declared)?,
        definitions: definitions.bind(py).clone(),
    })
}

/// The scale class `name` of `scalecodec.base`'s catalogue.
pub fn scale_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    catalogue(py)?
        .by_name
        .get_item(name)?
        .ok_or_else(|| PyRuntimeError::new_err(format!("scalecodec has no class {name}")))
}
