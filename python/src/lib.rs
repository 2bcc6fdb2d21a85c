//! The native half of the `scalecodec` Python module.
use pyo3::prelude::*;

/// The extension module `scalecodec._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
