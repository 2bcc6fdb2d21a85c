//! The workspace's root and running its tools: what every command uses.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Root of the workspace (the xtask lives one level below it).
pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask has a parent")
        .to_path_buf()
}

/// Cargo's build folder: `$CARGO_TARGET_DIR`, else `target/` in the workspace.
pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
}

/// Runs a command in the workspace root, failing with its description when it fails.
pub(crate) fn run_step(what: &str, program: &str, args: &[&str]) -> Result<(), String> {
    run_step_env(what, program, args, &[])
}

/// [`run_step`] with extra environment variables for the command.
pub(crate) fn run_step_env(
    what: &str,
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Result<(), String> {
    run_step_at(what, &workspace_root(), program, args, env)
}

/// [`run_step_env`] in folder `dir`.
pub(crate) fn run_step_at(
    what: &str,
    dir: &Path,
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Result<(), String> {
    eprintln!("\n=== {what}: {program} {}", args.join(" "));
    let started = std::time::Instant::now();
    let status = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .status()
        .map_err(|e| format!("{what}: cannot start {program}: {e}"))?;
    // CI's budget is wall time: every step says what it cost.
    eprintln!("=== {what}: {:.0} s", started.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}
