//! `cargo xtask bench-dynamic [--iterations N] [--only delegates|events|metadata|extrinsics|runtime-api]`: the dynamic decoder side by
//! side with scale-value, in one run. The benchmark is its own cargo
//! workspace (`bench/dynamic/`) so that scale-value and scale-decode never
//! enter the project's normal build; it is always built in release mode into
//! `target/bench-dynamic`.

use std::path::PathBuf;
use std::process::Command;

/// Builds and runs `bench/dynamic` in release mode, passing `args` through.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("xtask has no parent directory")?
        .to_path_buf();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&root)
        .args(["run", "--release", "--quiet", "--manifest-path"])
        .arg(root.join("bench/dynamic/Cargo.toml"))
        .arg("--target-dir")
        .arg(root.join("target/bench-dynamic"))
        .arg("--")
        .args(args)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("bench-dynamic failed ({status})"))
    }
}
