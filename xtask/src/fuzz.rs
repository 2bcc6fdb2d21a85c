//! `cargo xtask fuzz …`: the cargo-fuzz targets in `fuzz/` (a package of its
//! own, outside the workspace).
//!
//! - `fuzz seed [TARGET…]`: writes the seed corpora from the real fixtures
//!   into `fuzz/corpus/<target>/` (generated, gitignored).
//! - `fuzz run [--seconds N] [--asan] [TARGET…]`: seeds when a corpus is
//!   missing, then runs each target (all by default) for N seconds (default
//!   60) one after the other; `--sanitizer none` on stable Rust unless
//!   `--asan` (AddressSanitizer, which needs `RUSTC_BOOTSTRAP=1`, set here).
//!   Crashes land in `fuzz/artifacts/<target>/`.

use std::path::PathBuf;
use std::process::Command;

use crate::workspace::workspace_root;

fn fuzz_dir() -> PathBuf {
    workspace_root().join("fuzz")
}

/// The fuzz targets: one file each in `fuzz/fuzz_targets/` (each a binary
/// of `fuzz/Cargo.toml` of the same name), sorted.
fn all_targets() -> Result<Vec<String>, String> {
    let dir = fuzz_dir().join("fuzz_targets");
    let entries =
        std::fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut targets: Vec<String> = entries
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "rs").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    targets.sort();
    Ok(targets)
}

/// Entry point of `cargo xtask fuzz`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("seed") => seed(&args[1..]),
        Some("run") => fuzz(&args[1..]),
        _ => Err(format!(
            "usage: cargo xtask fuzz seed [TARGET…] | run [--seconds N] [--asan] [TARGET…]\n\
             targets: {}",
            all_targets()?.join(", ")
        )),
    }
}

fn check_targets(targets: &[String]) -> Result<(), String> {
    let known = all_targets()?;
    match targets.iter().find(|t| !known.contains(t)) {
        Some(t) => Err(format!(
            "unknown fuzz target {t:?} (known: {})",
            known.join(", ")
        )),
        None => Ok(()),
    }
}

/// Writes the seed corpora of `targets` (all when empty).
fn seed(targets: &[String]) -> Result<(), String> {
    check_targets(targets)?;
    let corpus = fuzz_dir().join("corpus");
    let mut args: Vec<String> = [
        "run",
        "--release",
        "--no-default-features",
        "--features",
        "seed-writer,typed,index",
        "--bin",
        "fuzz-seed",
        "--",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(corpus.display().to_string());
    args.extend(targets.iter().cloned());
    status(
        "seed corpora",
        Command::new("cargo").args(&args).current_dir(fuzz_dir()),
    )
}

fn fuzz(args: &[String]) -> Result<(), String> {
    let mut seconds = 60u64;
    let mut asan = false;
    let mut targets = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => {
                seconds = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--seconds needs a number")?;
            }
            "--asan" => asan = true,
            t => targets.push(t.to_string()),
        }
    }
    check_targets(&targets)?;
    if targets.is_empty() {
        targets = all_targets()?;
    }
    ensure_cargo_fuzz()?;
    let missing: Vec<String> = targets
        .iter()
        .filter(|t| !fuzz_dir().join("corpus").join(t).is_dir())
        .cloned()
        .collect();
    if !missing.is_empty() {
        seed(&missing)?;
    }
    for target in &targets {
        let mut cmd = Command::new("cargo");
        cmd.arg("fuzz").arg("run");
        if asan {
            cmd.env("RUSTC_BOOTSTRAP", "1");
        } else {
            cmd.args(["--sanitizer", "none"]);
        }
        cmd.arg(target).arg("--").args([
            format!("-max_total_time={seconds}"),
            "-timeout=20".into(),
            "-rss_limit_mb=2048".into(),
            "-print_final_stats=1".into(),
        ]);
        status(
            &format!("fuzz {target} for {seconds} s"),
            cmd.current_dir(fuzz_dir()),
        )?;
    }
    Ok(())
}

/// Installs cargo-fuzz from crates.io when `cargo fuzz` is not available.
fn ensure_cargo_fuzz() -> Result<(), String> {
    let have = Command::new("cargo")
        .args(["fuzz", "--version"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if have {
        return Ok(());
    }
    status(
        "install cargo-fuzz",
        Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]),
    )
}

fn status(what: &str, cmd: &mut Command) -> Result<(), String> {
    eprintln!("\n=== {what}");
    let st = cmd
        .status()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({st})"))
    }
}
