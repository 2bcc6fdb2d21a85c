//! Rust errors and panics → Python exceptions.
//!
//! py-scale-codec raises plain `ValueError` for malformed addresses and
//! values, so core errors map there. A panic would surface in Python as
//! `pyo3_runtime.PanicException` (a `BaseException`, which `except Exception`
//! does not catch); [`guard`] turns any panic into a `RuntimeError` instead,
//! so hostile input can never take a caller down that way.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyErr;

/// A core error as the `ValueError` py-scale-codec raises in its place.
pub fn value_error(err: ferroscale_core::Error) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// Runs `f`, converting a panic into a `RuntimeError` naming `what`.
pub fn guard<T>(what: &str, f: impl FnOnce() -> Result<T, PyErr>) -> Result<T, PyErr> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let detail = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(PyRuntimeError::new_err(format!(
                "internal error in {what}: {detail}"
            )))
        }
    }
}
