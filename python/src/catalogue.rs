//! The scale classes of `scalecodec.base` as Rust sees them: the package
//! registers, on import, its classes by name and the getter of the metadata
//! definitions' configuration; the Rust code that makes parts
//! (`typed_parts`) and reads users' classes (`config`) looks them up here.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;

/// What `scalecodec.base` gives at import: its scale classes by name (the
/// kinds a part's `value_object` depends on) and the function that returns
/// the configuration of the metadata definitions (the default class source;
/// made on first use). A reloaded `scalecodec.base` gives them again.
static CATALOGUE: Mutex<Option<(Py<PyDict>, Py<PyAny>)>> = Mutex::new(None);

/// Registers the scale classes by name and the metadata-definitions
/// configuration getter (`scalecodec.base` calls this on import).
#[pyfunction]
pub fn set_part_catalogue(classes: Bound<'_, PyDict>, definitions: Bound<'_, PyAny>) {
    let mut catalogue = CATALOGUE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    *catalogue = Some((classes.unbind(), definitions.unbind()));
}

/// The registered scale classes by name and definitions getter.
pub fn catalogue(py: Python<'_>) -> PyResult<(Bound<'_, PyDict>, Bound<'_, PyAny>)> {
    let catalogue = CATALOGUE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match catalogue.as_ref() {
        Some((classes, definitions)) => {
            Ok((classes.bind(py).clone(), definitions.bind(py).clone()))
        }
        None => Err(PyRuntimeError::new_err("scalecodec.base is not imported")),
    }
}

/// The scale class `name` of `scalecodec.base`'s catalogue.
pub fn scale_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    catalogue(py)?
        .0
        .get_item(name)?
        .ok_or_else(|| PyRuntimeError::new_err(format!("scalecodec has no class {name}")))
}
