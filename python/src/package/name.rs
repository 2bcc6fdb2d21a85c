//! The name the Python package was imported under.
//!
//! The package's files are one folder, `ferroscale/`, imported as
//! `scalecodec` when it is the interpreter's scalecodec (alone, or chosen
//! with `python -m ferroscale enable`) and as `ferroscale` beside another
//! distribution's `scalecodec` (py-scale-codec, cyscale). Rust imports the
//! package's Python modules (`base`, `exceptions`) by the name this process
//! gave it: the other name would be a second copy of them, or the other
//! distribution's modules.

use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::PyModule;

/// The package's name, set once when `_core` initialises (PyO3 modules
/// initialise once per process, so it cannot change afterwards).
static PACKAGE: OnceLock<String> = OnceLock::new();

/// The name used until `_core` has initialised (never in practice: the
/// module's functions are reached only after it has).
const DEFAULT: &str = "scalecodec";

/// Records the package of `core`, the `_core` module being initialised
/// (`scalecodec._core` → `scalecodec`).
pub fn record(core: &Bound<'_, PyModule>) -> PyResult<()> {
    let full = core.name()?.to_string();
    let package = full
        .rsplit_once('.')
        .map_or(DEFAULT, |(package, _)| package);
    let _ = PACKAGE.set(package.to_owned());
    Ok(())
}

/// The package's name: `scalecodec` or `ferroscale`.
pub fn package() -> &'static str {
    PACKAGE.get().map_or(DEFAULT, String::as_str)
}

/// The package's module `sub` (`"base"`, `"exceptions"`, `"_core"`).
pub fn import<'py>(py: Python<'py>, sub: &str) -> PyResult<Bound<'py, PyModule>> {
    py.import(format!("{}.{sub}", package()))
}
