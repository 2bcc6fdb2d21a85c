//! `cargo xtask test`: the whole test suite, set-up included, as CI runs it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Root of the workspace (the xtask lives one level below it).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask has a parent")
        .to_path_buf()
}

/// Runs a command in the workspace root, failing with its description when it fails.
pub fn run_step(what: &str, program: &str, args: &[&str]) -> Result<(), String> {
    eprintln!("\n=== {what}: {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(workspace_root())
        .status()
        .map_err(|e| format!("{what}: cannot start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// `--rust-only` skips the Python module and suites.
pub fn run(args: &[String]) -> Result<(), String> {
    let rust_only = args.iter().any(|a| a == "--rust-only");
    run_step("format", "cargo", &["fmt", "--all", "--", "--check"])?;
    run_step(
        "lints",
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    // Differential tests compare against py-scale-codec in the reference venv.
    let reference_python = crate::reference::python()?;
    std::env::set_var(crate::reference::ENV_VAR, &reference_python);
    // Checked-in generated runtime types must equal a fresh generation.
    crate::generate::run(&["--check".to_owned()])?;
    crate::presets::ensure()?;
    run_step("rust tests", "cargo", &["test", "--workspace"])?;
    if !rust_only {
        crate::python::test()?;
    }
    Ok(())
}
