//! The reference venvs, test-only and separate from `.venv` (where our own
//! `scalecodec` module is installed under the same import name):
//! `.venv-ref` with py-scale-codec 1.2.12, the implementation ferroscale is
//! compared against in differential tests, and `.venv-cyscale` with cyscale
//! 0.8.0, whose public additions the API-surface test checks we have, and
//! `.venv-btcore` with bittensor-core 0.1.5, whose RFC-0078 metadata digests
//! and extrinsic proofs the Python tests compare ours with. Beside them,
//! dedot's RFC-0078 implementation for Node.js (`python/tests/reference_node`,
//! locked by its `package-lock.json`), the one that reads V16 metadata too.

use std::path::Path;
use std::process::Command;

use crate::workspace::{run_step, workspace_root};

/// The py-scale-codec release the project matches.
pub(crate) const SCALECODEC_VERSION: &str = "1.2.12";

/// The variable through which tests find the reference interpreter (read by
/// `ferroscale_test_support::reference`).
pub(crate) const ENV_VAR: &str = "FERROSCALE_REF_PYTHON";

/// The cyscale release async-substrate-interface 2.2.1 depends on.
const CYSCALE_VERSION: &str = "0.8.0";

/// The variable through which the Python tests find cyscale's interpreter.
pub(crate) const CYSCALE_ENV_VAR: &str = "FERROSCALE_CYSCALE_PYTHON";

/// The bittensor-core release whose `metadata_digest` and
/// `generate_extrinsic_proof` the Python tests compare against.
const BTCORE_VERSION: &str = "0.1.5";

/// The variable through which the Python tests find bittensor-core's interpreter.
pub(crate) const BTCORE_ENV_VAR: &str = "FERROSCALE_BTCORE_PYTHON";

/// The variable through which the Python tests find dedot's `node_modules`.
pub(crate) const DEDOT_ENV_VAR: &str = "FERROSCALE_DEDOT_DIR";

/// Where dedot's package is declared and locked.
const DEDOT_DIR: &str = "python/tests/reference_node";

/// The release of `@dedot/merkleized-metadata` that folder's lockfile pins.
const DEDOT_VERSION: &str = "1.3.0";

/// Installs dedot's merkleized-metadata as `python/tests/reference_node`'s
/// lockfile pins it (`npm ci`, skipped when that release is already there,
/// so repeated test runs need no network) and returns its `node_modules`.
pub(crate) fn dedot_modules() -> Result<String, String> {
    let dir = workspace_root().join(DEDOT_DIR);
    let modules = dir.join("node_modules");
    let manifest = modules.join("@dedot/merkleized-metadata/package.json");
    let installed = std::fs::read_to_string(manifest)
        .is_ok_and(|p| p.contains(&format!("\"version\": \"{DEDOT_VERSION}\"")));
    if !installed {
        run_step(
            "dedot's merkleized-metadata (npm ci)",
            "npm",
            &[
                "ci",
                "--prefix",
                &dir.to_string_lossy(),
                "--no-audit",
                "--no-fund",
            ],
        )?;
    }
    Ok(modules.to_string_lossy().into_owned())
}

/// Creates `.venv-ref` when absent, makes sure it holds py-scale-codec
/// 1.2.12, and returns its interpreter's path.
pub(crate) fn python() -> Result<String, String> {
    venv_with(".venv-ref", "scalecodec", SCALECODEC_VERSION)
}

/// Creates `.venv-cyscale` when absent, makes sure it holds cyscale 0.8.0,
/// and returns its interpreter's path.
pub(crate) fn cyscale_python() -> Result<String, String> {
    venv_with(".venv-cyscale", "cyscale", CYSCALE_VERSION)
}

/// Creates `.venv-btcore` when absent, makes sure it holds bittensor-core
/// 0.1.5, and returns its interpreter's path.
pub(crate) fn btcore_python() -> Result<String, String> {
    venv_with(".venv-btcore", "bittensor-core", BTCORE_VERSION)
}

/// Installs `wheel` into the venv of `py` (step `label`).
pub(crate) fn install_wheel(label: &str, py: &str, wheel: &Path) -> Result<(), String> {
    // --force-reinstall: the version does not change from build to build
    run_step(
        label,
        py,
        &[
            "-m",
            "pip",
            "install",
            "--quiet",
            "--force-reinstall",
            "--no-deps",
            &wheel.to_string_lossy(),
        ],
    )
}

/// The interpreter of venv `dir` (in the workspace root) holding
/// `package==version`, made and installed when missing.
pub(crate) fn venv_with(dir: &str, package: &str, version: &str) -> Result<String, String> {
    let root = workspace_root();
    let py = root.join(dir).join("bin/python");
    if !py.exists() {
        run_step(&format!("venv {dir}"), "python3", &["-m", "venv", dir])?;
    }
    let py = py.to_string_lossy().into_owned();
    if installed_version(&py, package).as_deref() != Some(version) {
        run_step(
            &format!("{package} {version} in {dir}"),
            &py,
            &[
                "-m",
                "pip",
                "install",
                "--quiet",
                &format!("{package}=={version}"),
            ],
        )?;
    }
    Ok(py)
}

/// The installed version of `package` in the venv, if any (skips pip when
/// the venv is already set up, so repeated test runs need no network).
fn installed_version(py: &str, package: &str) -> Option<String> {
    let out = Command::new(py)
        .args([
            "-c",
            &format!("import importlib.metadata as m; print(m.version({package:?}))"),
        ])
        .current_dir(workspace_root())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}
