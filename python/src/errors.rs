//! Rust errors → the exception classes of `scalecodec.exceptions` (py-scale-codec's
//! names), and the last-resort guard that keeps a Rust panic out of Python.

use ferroscale_dynamic::Error;
use pyo3::exceptions::{PyNotImplementedError, PyValueError};
use pyo3::prelude::*;

/// The `scalecodec.exceptions` class called `name`, else `ValueError`.
pub fn raise(py: Python<'_>, name: &str, message: String) -> PyErr {
    match py
        .import(format!("{}.exceptions", crate::package::name::package()))
        .and_then(|m| m.getattr(name))
    {
        Ok(class) => match class.call1((message.clone(),)) {
            Ok(instance) => PyErr::from_value(instance),
            Err(_) => PyValueError::new_err(message),
        },
        Err(_) => PyValueError::new_err(message),
    }
}

/// Maps a dynamic-layer error to the exception py-scale-codec raises for it.
pub fn to_py(py: Python<'_>, e: &Error) -> PyErr {
    let message = e.to_string();
    match e {
        Error::RemainingScaleBytesNotEmpty { .. } => {
            raise(py, "RemainingScaleBytesNotEmptyException", message)
        }
        Error::NotEnoughBytes { .. } => raise(py, "NotEnoughBytesError", message),
        Error::Invalid { .. } | Error::DepthLimit { .. } => raise(py, "ScaleDecodeError", message),
        Error::UnknownType { .. }
        | Error::Unresolved { .. }
        | Error::TypeString(_)
        | Error::Preset(_) => PyNotImplementedError::new_err(message),
        // Encoding, runtime, import and usage errors, and any kind added later.
        _ => PyValueError::new_err(message),
    }
}

/// Runs `f`, turning a Rust panic into a `ValueError` naming what was being done.
pub fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let detail = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(PyValueError::new_err(format!(
                "internal error while {what}: {detail}"
            )))
        }
    }
}
