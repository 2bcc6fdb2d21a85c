//! The native half of the `scalecodec` Python module (`scalecodec._native`).
//!
//! The Python package (`python/python/scalecodec/`) keeps py-scale-codec
//! 1.2.12's class model, which users subclass and the reference suite pokes at;
//! this module carries the work that is pure computation: SS58 and the
//! byte-level primitives of the SCALE wire format. Every entry point returns a
//! Python exception on bad input and never lets a Rust panic cross the
//! boundary (see [`errors::guard`]).

mod errors;
mod primitives;
mod ss58;

use pyo3::prelude::*;

/// The extension module `scalecodec._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    ss58::register(m)?;
    primitives::register(m)?;
    Ok(())
}
