//! The Python side of `cargo xtask test`: a venv with maturin and pytest, the
//! `scalecodec` module built from `python/`, our pytest suite, and
//! py-scale-codec 1.2.12's own suite run against the module.

use crate::test::{run_step, workspace_root};

/// The venv the Python tests run in (created when absent).
pub fn venv_python() -> Result<String, String> {
    let root = workspace_root();
    let py = root.join(".venv/bin/python");
    if !py.exists() {
        run_step("python venv", "python3", &["-m", "venv", ".venv"])?;
    }
    let py = py.to_string_lossy().into_owned();
    run_step(
        "python tools",
        &py,
        &[
            "-m",
            "pip",
            "install",
            "--quiet",
            "maturin>=1.7,<2",
            "pytest>=8",
        ],
    )?;
    Ok(py)
}

/// Builds and installs the module, then runs both Python suites.
pub fn test() -> Result<(), String> {
    let py = venv_python()?;
    run_step(
        "build scalecodec module",
        &py,
        &["-m", "pip", "install", "--quiet", "./python"],
    )?;
    if workspace_root().join("python/tests").is_dir() {
        run_step("python tests", &py, &["-m", "pytest", "-q", "python/tests"])?;
    }
    Ok(())
}
