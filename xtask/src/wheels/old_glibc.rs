//! `cargo xtask wheels --check --old-glibc ROOT`: the wheels installed and
//! smoke-tested inside an older-glibc userland, a chroot at `ROOT` (made by
//! `python/old_glibc_root.sh`), so that the manylinux2014 claim is checked
//! where it matters — a glibc older than the 2.34 a build on this machine
//! would need — and not only read off the symbol versions.
//!
//! Every CPython 3.10+ found in the chroot (`/usr/local/bin/python3.X`, then
//! `/usr/bin/python3.X`) gets a fresh venv with its own wheel, picked by the
//! chroot's pip from the folder as a user's pip would (pip refuses a wheel
//! whose manylinux tag is newer than the glibc it runs on), and another with
//! the abi3 wheel; `python/install_smoke.py` runs in each, on a copy of the
//! fixtures it reads.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{ours, x86_64_abi3, DIST, VERSIONS};
use crate::workspace::{run_step, workspace_root};

/// Where, inside the chroot, the wheels, the smoke test and the venvs go.
const STAGE: &str = "tmp/ferroscale-wheels-check";
/// The fixtures `python/install_smoke.py` reads, relative to the fixtures folder.
const FIXTURES: [&str; 2] = [
    "metadata/polkadot-v14-spec1000001.scale",
    "payloads/polkadot-block-18468942",
];

/// Installs and smoke-tests the wheels of `out` in the chroot at `root`.
pub(super) fn check(out: &Path, root: &Path) -> Result<(), String> {
    let root_s = root.to_string_lossy().into_owned();
    let glibc = Command::new("chroot")
        .args([&root_s, "ldd", "--version"])
        .output()
        .map_err(|e| format!("old glibc: cannot run chroot {root_s} (needs root): {e}"))?;
    if !glibc.status.success() {
        return Err(format!(
            "old glibc: `chroot {root_s} ldd --version` failed: {}",
            String::from_utf8_lossy(&glibc.stderr).trim()
        ));
    }
    let glibc = String::from_utf8_lossy(&glibc.stdout);
    let ldd = glibc.lines().next().unwrap_or("?");
    eprintln!("\n=== old-glibc userland {root_s}: {ldd}");
    // `ldd (Debian GLIBC 2.31-13+deb11u11) 2.31`: the version is the last word
    let glibc = ldd.split_whitespace().last().unwrap_or("?").to_owned();
    let interpreters = interpreters(root);
    if interpreters.is_empty() {
        return Err(format!(
            "old glibc: no CPython {} in {root_s} (python/old_glibc_root.sh builds one)",
            VERSIONS.join(", ")
        ));
    }
    let stage = stage(out, root)?;
    let inside = |p: &str| format!("/{STAGE}/{p}");
    let abi3 = x86_64_abi3(out)?;
    let abi3 = abi3
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or("abi3 wheel without a name")?;
    for (version, python) in &interpreters {
        let installs = [
            (
                format!("CPython {version} wheel"),
                vec!["--only-binary".to_owned(), DIST.to_owned(), DIST.to_owned()],
            ),
            (
                format!("abi3 wheel under CPython {version}"),
                vec![inside(&format!("wheels/{abi3}"))],
            ),
        ];
        for (i, (what, args)) in installs.iter().enumerate() {
            let venv = inside(&format!("venv-{version}-{i}"));
            let py = format!("{venv}/bin/python");
            let chroot = |what: &str, args: &[&str]| {
                let mut all = vec![root_s.as_str()];
                all.extend(args);
                run_step(&format!("{what}, glibc {glibc}"), "chroot", &all)
            };
            chroot(
                &format!("fresh venv for the {what}"),
                &[python, "-m", "venv", &venv],
            )?;
            let wheels = inside("wheels");
            let mut pip = vec![py.as_str(), "-m", "pip", "install", "--no-index"];
            pip.extend(["--find-links", &wheels]);
            pip.extend(args.iter().map(String::as_str));
            chroot(&format!("offline install of the {what}"), &pip)?;
            let smoke = inside("install_smoke.py");
            let fixtures = inside("fixtures");
            chroot(
                &format!("smoke test of the {what}"),
                &[&py, &smoke, &fixtures],
            )?;
        }
    }
    let _ = std::fs::remove_dir_all(&stage);
    Ok(())
}

/// The CPython 3.10+ interpreters that run in the chroot, by version, as
/// paths inside it.
fn interpreters(root: &Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for version in VERSIONS {
        let candidates = [
            format!("/usr/local/bin/python{version}"),
            format!("/usr/bin/python{version}"),
        ];
        let runs = candidates.into_iter().find(|inside| {
            root.join(inside.trim_start_matches('/')).exists()
                && Command::new("chroot")
                    .arg(root)
                    .args([inside.as_str(), "-c", "import sys"])
                    .output()
                    .is_ok_and(|o| o.status.success())
        });
        if let Some(python) = runs {
            found.push((version.to_owned(), python));
        }
    }
    found
}

/// Copies the wheels, the smoke test and its fixtures into the chroot.
fn stage(out: &Path, root: &Path) -> Result<PathBuf, String> {
    let stage = root.join(STAGE);
    let _ = std::fs::remove_dir_all(&stage);
    let wheels = stage.join("wheels");
    mkdir(&wheels)?;
    for wheel in ours(out)? {
        if wheel.extension().is_some_and(|e| e == "whl") {
            copy(&wheel, &wheels.join(wheel.file_name().unwrap_or_default()))?;
        }
    }
    let ws = workspace_root();
    copy(
        &ws.join("python/install_smoke.py"),
        &stage.join("install_smoke.py"),
    )?;
    let fixtures = std::env::var_os("FERROSCALE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| ws.join("../shared/fixtures"));
    for rel in FIXTURES {
        copy_tree(&fixtures.join(rel), &stage.join("fixtures").join(rel))?;
    }
    Ok(stage)
}

fn mkdir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        mkdir(parent)?;
    }
    std::fs::copy(from, to)
        .map(drop)
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

/// A file, or a folder of files (one level: the block's payload folder).
fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    if !from.is_dir() {
        return copy(from, to);
    }
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", from.display()))?;
        copy_tree(&entry.path(), &to.join(entry.file_name()))?;
    }
    Ok(())
}
