//! Puts py-scale-codec 1.2.12's type-registry presets into the Python package
//! (`python/ferroscale/type_registry/`) when the wheel is built and they are
//! missing, so that `pip install ./python` on a fresh clone gives a complete
//! module: the same pinned, sha256-checked fetch as `cargo xtask presets`
//! (`ferroscale-presets-fetch`). maturin packs the Python sources after
//! compiling, so files written here are in the wheel.
//!
//! Only for the extension module (the `extension-module` feature, which
//! pyproject.toml turns on): a plain `cargo build`/`clippy`/`test` of the
//! workspace never reaches for the network. A fetch that fails stops the
//! build with a message naming the step.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dir = manifest.join("python/ferroscale/type_registry");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", dir.display());
    println!("cargo:rerun-if-env-changed=PYO3_PYTHON");
    if std::env::var_os("CARGO_FEATURE_EXTENSION_MODULE").is_none() {
        return;
    }
    if ferroscale_presets_fetch::stale_files(&dir).is_empty() {
        return;
    }
    // The interpreter maturin builds for (it has pip); else python3.
    let python = std::env::var("PYO3_PYTHON")
        .or_else(|_| std::env::var("PYTHON_SYS_EXECUTABLE"))
        .unwrap_or_else(|_| "python3".to_owned());
    let cache =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("presets-wheel");
    if let Err(e) = ferroscale_presets_fetch::ensure(&dir, &cache, &python) {
        eprintln!(
            "error: the scalecodec type-registry presets are missing from {} and fetching them failed: {e}\n\
             The build fetches them from PyPI ({}, sha256-pinned) with `{python} -m pip download`; \
             without network access, run `cargo xtask presets` where PyPI is reachable (or copy the 20 JSON \
             files there) and build again.",
            dir.display(),
            ferroscale_presets_fetch::REQUIREMENT,
        );
        std::process::exit(1);
    }
}
