//! The reference venv: `.venv-ref` in the workspace root with py-scale-codec
//! 1.2.12, the implementation ferroscale is compared against in differential
//! tests. It is test-only and separate from `.venv` (where our own
//! `scalecodec` module is installed under the same import name).

use std::process::Command;

use crate::workspace::{run_step, workspace_root};

/// The py-scale-codec release the project matches.
pub(crate) const SCALECODEC_VERSION: &str = "1.2.12";

/// The variable through which tests find the reference interpreter (read by
/// `ferroscale_fixtures::reference`).
pub(crate) const ENV_VAR: &str = "FERROSCALE_REF_PYTHON";

/// Creates `.venv-ref` when absent, makes sure it holds py-scale-codec
/// 1.2.12, and returns its interpreter's path.
pub(crate) fn python() -> Result<String, String> {
    let root = workspace_root();
    let py = root.join(".venv-ref/bin/python");
    if !py.exists() {
        run_step("reference venv", "python3", &["-m", "venv", ".venv-ref"])?;
    }
    let py = py.to_string_lossy().into_owned();
    if installed_version(&py).as_deref() != Some(SCALECODEC_VERSION) {
        run_step(
            "reference py-scale-codec",
            &py,
            &[
                "-m",
                "pip",
                "install",
                "--quiet",
                &format!("scalecodec=={SCALECODEC_VERSION}"),
            ],
        )?;
    }
    Ok(py)
}

/// The installed scalecodec version in the venv, if any (skips pip when the
/// venv is already set up, so repeated test runs need no network).
fn installed_version(py: &str) -> Option<String> {
    let out = Command::new(py)
        .args([
            "-c",
            "import importlib.metadata as m; print(m.version('scalecodec'))",
        ])
        .current_dir(workspace_root())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}
