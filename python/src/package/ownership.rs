//! Whether the `scalecodec` files Python imports are all ferroscale's.
//!
//! cyscale (which async-substrate-interface depends on) and py-scale-codec
//! install the same top-level package, `scalecodec`; pip lets the one
//! installed last overwrite the other's files without a word. Two cases matter:
//!
//! * cyscale installed, then ferroscale: our `.py` files replace cyscale's,
//!   but cyscale's compiled modules (`base.cpython-….so`, `types…so` …) stay,
//!   and Python imports an extension module before a `.py` of the same name,
//!   so `scalecodec.base` would silently be cyscale's under our `__init__`.
//!   That is neither package: importing stops with an `ImportError` that says
//!   how to repair it.
//! * another distribution's metadata (`cyscale-*.dist-info`,
//!   `scalecodec-*.dist-info`) beside our files, without stray compiled
//!   modules: what is imported is ours, but `pip uninstall` of that
//!   distribution would delete our files (it owns them by its RECORD). That is
//!   a `RuntimeWarning`, as is another `scalecodec` package elsewhere on
//!   `sys.path` (shadowed, or shadowing us in another interpreter set-up).
//!
//! (cyscale installed *after* ferroscale replaces our `__init__`: this check
//! never runs then; `scalecodec.__version__` is missing, see python/README.md.)
//!
//! The checks read two directory listings and stat one path per `sys.path`
//! entry. The package's `__init__` runs them before it imports anything else
//! of the package (only this extension module, which is always ours).

use std::fs;
use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyImportError, PyRuntimeWarning};
use pyo3::prelude::*;

/// Distributions that install the `scalecodec` package too (PyPI names).
const OTHER_DISTRIBUTIONS: [&str; 2] = ["cyscale", "scalecodec"];
/// The one compiled module ferroscale ships (`scalecodec._core`).
const OWN_EXTENSION: &str = "_core";
/// How to repair a mixed installation.
const REPAIR: &str = "pip uninstall -y cyscale scalecodec ferroscale, then pip install ferroscale (its wheel or \
                      ./python) and install async-substrate-interface with --no-deps (see ferroscale's \
                      python/README.md)";

/// The file names in `folder` (none when it cannot be read).
fn names(folder: &Path) -> Vec<String> {
    fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Compiled modules in the package (and its `utils`) that ferroscale does
/// not ship, as paths relative to the package.
fn foreign_extensions(package: &Path) -> Vec<String> {
    let mut found: Vec<String> = ["", "utils"]
        .iter()
        .flat_map(|sub| {
            names(&package.join(sub))
                .into_iter()
                .filter(|n| n.ends_with(".so") || n.ends_with(".pyd"))
                .filter(|n| n.split('.').next() != Some(OWN_EXTENSION))
                .map(move |n| {
                    if sub.is_empty() {
                        n
                    } else {
                        format!("{sub}/{n}")
                    }
                })
        })
        .collect();
    found.sort();
    found
}

/// `*.dist-info` / `*.egg-info` folders of other distributions that install
/// `scalecodec`, beside the package.
fn other_distributions(package: &Path) -> Vec<String> {
    let mut found: Vec<String> = package
        .parent()
        .map(names)
        .unwrap_or_default()
        .into_iter()
        .filter(|n| n.ends_with(".dist-info") || n.ends_with(".egg-info"))
        .filter(|n| {
            let dist = n
                .split('-')
                .next()
                .unwrap_or("")
                .to_lowercase()
                .replace('_', "-");
            OTHER_DISTRIBUTIONS.contains(&dist.as_str())
        })
        .collect();
    found.sort();
    found
}

/// Other `scalecodec` package folders on `sys.path`.
fn other_packages(py: Python<'_>, package: &Path) -> PyResult<Vec<String>> {
    let own = fs::canonicalize(package).unwrap_or_else(|_| package.to_path_buf());
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut found = Vec::new();
    for entry in py.import("sys")?.getattr("path")?.try_iter()? {
        let entry: String = entry?.extract().unwrap_or_default();
        let base = if entry.is_empty() {
            cwd.clone()
        } else {
            PathBuf::from(entry)
        };
        let candidate = base.join("scalecodec");
        let text = candidate.to_string_lossy().into_owned();
        if candidate.join("__init__.py").is_file()
            && fs::canonicalize(&candidate).ok().as_deref() != Some(own.as_path())
            && !found.contains(&text)
        {
            found.push(text);
        }
    }
    Ok(found)
}

/// Raises `ImportError` for a package folder mixed with another
/// distribution's compiled modules; warns (`RuntimeWarning`) when other
/// distributions or packages claim `scalecodec`.
#[pyfunction]
pub fn check_ownership(py: Python<'_>, package_dir: &str) -> PyResult<()> {
    let package = Path::new(package_dir);
    let stray = foreign_extensions(package);
    if !stray.is_empty() {
        let more = if stray.len() > 4 { " …" } else { "" };
        return Err(PyImportError::new_err(format!(
            "the scalecodec package at {package_dir} mixes ferroscale with compiled modules of another \
             distribution ({}{more}; cyscale's, installed before ferroscale), which Python would import \
             instead of ferroscale's. Repair: {REPAIR}",
            stray[..stray.len().min(4)].join(", ")
        )));
    }
    let warn = |message: String| {
        let category = py.get_type::<PyRuntimeWarning>();
        let message = std::ffi::CString::new(message).unwrap_or_default();
        // stack level 2: the warning points at the statement importing `scalecodec`
        PyErr::warn(py, &category, &message, 2)
    };
    let claims = other_distributions(package);
    if !claims.is_empty() {
        warn(format!(
            "ferroscale's scalecodec files at {package_dir} are also claimed by {}: uninstalling that \
             distribution would delete them, and reinstalling it would replace them. Repair: {REPAIR}",
            claims.join(", ")
        ))?;
    }
    let shadowed = other_packages(py, package)?;
    if !shadowed.is_empty() {
        warn(format!(
            "another scalecodec package is on sys.path ({}); this process imports ferroscale's from {package_dir}",
            shadowed.join(", ")
        ))?;
    }
    Ok(())
}
