//! `cargo xtask wheels [--out DIR] [--check]`: the Python distribution in one
//! folder that installs offline — the sdist, the wheels for CPython
//! 3.10–3.14 on Linux x86-64 (manylinux), and the sdist's build requirements
//! (maturin, pip) as wheels, so that
//! `pip install --no-index --find-links DIR ferroscale` needs no network.
//!
//! Each CPython version gets its own wheel (the version-specific API; see
//! BENCHMARKS.md, "abi3 or per-version wheels", for the cost that decided
//! it), built with maturin's bundled sysconfig when the interpreter is not
//! installed here; a `cp310-abi3` wheel covers the versions after 3.14 (pip
//! prefers the exact `cp3X-cp3X` tag when there is one). Every wheel is
//! checked by maturin against the manylinux policy (`--auditwheel check`).
//!
//! `--check` then installs, offline and into fresh venvs, the wheel for the
//! running `python3`, the abi3 wheel and the sdist (built from source by pip
//! with the folder's maturin; Rust crates from cargo's cache), and the wheel
//! of every other version an interpreter can be found for (on PATH or under
//! pyenv), and runs `python/install_smoke.py` in each; every wheel is
//! inspected (tags, files).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::workspace::{run_step, workspace_root};

/// The CPython versions that get a version-specific wheel.
const VERSIONS: [&str; 5] = ["3.10", "3.11", "3.12", "3.13", "3.14"];
/// The manylinux policy every wheel must meet: what a Rust extension linked
/// against this machine's glibc (Debian 12, 2.36) needs — `stat64`/`fstat64`
/// (2.33) and the pthread symbols that moved into libc in 2.34. pip takes it
/// on glibc 2.34+ systems (Debian 12, Ubuntu 22.04, RHEL 9 and later); older
/// ones need a build linked against an older glibc (a manylinux container,
/// or maturin `--zig`).
const MANYLINUX: &str = "manylinux_2_34";
/// The sdist's build requirements (pyproject.toml's `[build-system]`).
const BUILD_REQUIREMENTS: [&str; 2] = ["maturin>=1.7,<2", "pip"];
/// The Python crate's manifest.
const MANIFEST: &str = "python/Cargo.toml";
/// The distribution's name on PyPI.
const DIST: &str = "ferroscale";
/// The files at the top of every wheel that decide what `import scalecodec` gives.
const HOOK_FILES: [&str; 2] = ["_ferroscale_scalecodec.py", "ferroscale_scalecodec.pth"];

/// `cargo xtask wheels`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut out = None;
    let mut check = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--out" => {
                let dir = it.next().ok_or("--out needs a folder")?;
                out = Some(PathBuf::from(dir));
            }
            "--check" => check = true,
            other => return Err(format!("wheels: unknown argument {other:?}")),
        }
    }
    let out = out.unwrap_or_else(default_out);
    let out = absolute(&out)?;
    build(&out)?;
    if check {
        check_offline(&out)?;
    }
    eprintln!("\nwheels: done, in {}", out.display());
    Ok(())
}

/// `$CARGO_TARGET_DIR/wheels`, else `target/wheels` in the workspace.
fn default_out() -> PathBuf {
    crate::workspace::target_dir().join("wheels")
}

/// `path` from the workspace root when relative (the steps run there).
fn absolute(path: &Path) -> Result<PathBuf, String> {
    let path = workspace_root().join(path);
    std::fs::create_dir_all(&path)
        .map_err(|e| format!("wheels: cannot create {}: {e}", path.display()))?;
    Ok(path)
}

/// The sdist, every wheel, and the build requirements, into `out`.
fn build(out: &Path) -> Result<(), String> {
    refuse_stray_modules()?;
    // The sdist carries the presets, so that building it never fetches.
    crate::presets::ensure()?;
    remove_old(out)?;
    let py = crate::python::venv_python()?;
    let maturin = Path::new(&py).with_file_name("maturin");
    let maturin = maturin.to_string_lossy();
    let out_s = out.to_string_lossy();
    run_step("sdist", &maturin, &["sdist", "-m", MANIFEST, "-o", &out_s])?;
    let mut wheel_args = vec!["build", "--release", "-m", MANIFEST, "-o", &out_s];
    wheel_args.extend(["--compatibility", MANYLINUX, "--auditwheel", "check"]);
    // maturin takes an installed interpreter of that version when there is
    // one (on PATH or under pyenv, see `interpreter`), else its bundled
    // sysconfig of the version.
    let interpreters: Vec<String> = VERSIONS
        .iter()
        .map(|v| {
            interpreter(v).map_or_else(
                || format!("python{v}"),
                |p| p.to_string_lossy().into_owned(),
            )
        })
        .collect();
    let mut per_version = wheel_args.clone();
    for i in &interpreters {
        per_version.extend(["-i", i.as_str()]);
    }
    run_step("wheels, one per CPython version", &maturin, &per_version)?;
    let mut abi3 = wheel_args;
    abi3.extend(["--features", "abi3", "-i", "python3"]);
    run_step("abi3 wheel (CPython 3.15 and later)", &maturin, &abi3)?;
    let mut download = vec!["-m", "pip", "download", "--quiet", "-d", &out_s];
    download.extend(BUILD_REQUIREMENTS);
    run_step(
        "the sdist's build requirements, for offline installs",
        &py,
        &download,
    )?;
    list(out)
}

/// Fails when a compiled module sits in the package's source folder (what
/// `maturin develop` leaves there): maturin would pack it into every wheel
/// and the sdist beside the module it builds, and an interpreter would
/// import whichever it finds first.
fn refuse_stray_modules() -> Result<(), String> {
    let package = crate::workspace::workspace_root().join("python/python/ferroscale");
    let stray: Vec<String> = read_dir(&package)?
        .iter()
        .filter_map(|p| p.file_name()?.to_str().map(str::to_owned))
        .filter(|name| {
            name.starts_with("_core.") && (name.ends_with(".so") || name.ends_with(".pyd"))
        })
        .collect();
    if stray.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} holds compiled modules from an earlier build ({}): remove them (`maturin develop` \
         leaves them there) and run this again",
        package.display(),
        stray.join(", ")
    ))
}

/// Removes earlier builds of our distribution from `out` (a rebuild of the
/// same version would otherwise leave a stale wheel beside a new one).
fn remove_old(out: &Path) -> Result<(), String> {
    for entry in read_dir(out)? {
        let name = entry.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with(&format!("{DIST}-")) {
            std::fs::remove_file(&entry)
                .map_err(|e| format!("wheels: cannot remove {}: {e}", entry.display()))?;
        }
    }
    Ok(())
}

/// The files of a folder, sorted.
fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("wheels: cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    Ok(files)
}

/// Our distribution's files in `out`.
fn ours(out: &Path) -> Result<Vec<PathBuf>, String> {
    Ok(read_dir(out)?
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{DIST}-")))
        })
        .collect())
}

/// Prints what was built, with sizes.
fn list(out: &Path) -> Result<(), String> {
    eprintln!("\n=== {}:", out.display());
    for f in read_dir(out)? {
        let size = std::fs::metadata(&f).map(|m| m.len()).unwrap_or(0);
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        eprintln!("  {name}  ({} kB)", size / 1024);
    }
    Ok(())
}

/// Offline installs of the running interpreter's wheel and of the sdist
/// into fresh venvs, each smoke-tested; every wheel inspected.
fn check_offline(out: &Path) -> Result<(), String> {
    inspect(out)?;
    let root = workspace_root();
    let venvs = out.join("check-venvs");
    let _ = std::fs::remove_dir_all(&venvs);
    let out_s = out.to_string_lossy();
    let smoke = root.join("python/install_smoke.py");
    let smoke = smoke.to_string_lossy();
    // What to install in each fresh venv: the interpreter's own wheel (pip
    // picks the exact `cp3X-cp3X` tag over abi3), the abi3 wheel (importable
    // on this 3.11 too, so it is tested rather than only inspected), and the
    // sdist, built by pip with the folder's maturin.
    let abi3 = ours(out)?
        .into_iter()
        .find(|p| p.to_string_lossy().contains("-abi3-"))
        .ok_or("no abi3 wheel was built")?;
    let installs: [(&str, Vec<String>); 3] = [
        (
            "wheel",
            vec!["--only-binary".into(), DIST.into(), DIST.into()],
        ),
        ("abi3 wheel", vec![abi3.to_string_lossy().into_owned()]),
        (
            "sdist",
            vec!["--no-binary".into(), DIST.into(), DIST.into()],
        ),
    ];
    for (name, what) in &installs {
        let venv = venvs.join(name.replace(' ', "-"));
        let venv_s = venv.to_string_lossy();
        run_step(
            &format!("fresh venv for the {name}"),
            "python3",
            &["-m", "venv", &venv_s],
        )?;
        let py = venv.join("bin/python");
        let py = py.to_string_lossy();
        // No index: everything comes from `out` (and, for the sdist, the
        // crates from cargo's cache: CARGO_NET_OFFLINE).
        eprintln!(
            "\n=== offline install of the {name}: pip install --no-index --find-links {out_s} {}",
            what.join(" ")
        );
        let status = Command::new(&*py)
            .args(["-m", "pip", "install", "--no-index", "--find-links", &out_s])
            .args(what)
            .env("CARGO_NET_OFFLINE", "true")
            .env("PIP_NO_CACHE_DIR", "1")
            .current_dir(&venvs)
            .status()
            .map_err(|e| format!("pip install of the {name}: {e}"))?;
        if !status.success() {
            return Err(format!("offline install of the {name} failed ({status})"));
        }
        run_step(
            &format!("smoke test of the installed {name}"),
            &py,
            &[&smoke],
        )?;
    }
    import_check_other_versions(out, &venvs, &smoke)?;
    let _ = std::fs::remove_dir_all(&venvs);
    Ok(())
}

/// An interpreter of CPython `version` ("3.12") that runs: `python3.12` on
/// PATH, else pyenv's `versions/3.12.*/bin/python3.12` (pyenv's shims
/// refuse a version that is installed but not selected).
fn interpreter(version: &str) -> Option<PathBuf> {
    let runs = |py: &Path| {
        Command::new(py)
            .args(["-c", "import sys"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let on_path = PathBuf::from(format!("python{version}"));
    if runs(&on_path) {
        return Some(on_path);
    }
    let root = std::env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".pyenv")))?;
    let mut found: Vec<PathBuf> = std::fs::read_dir(root.join("versions"))
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_prefix(version)
                .and_then(|rest| rest.strip_prefix('.'))
                .is_some_and(|patch| !patch.is_empty() && patch.chars().all(|c| c.is_ascii_digit()))
        })
        .map(|e| e.path().join("bin").join(format!("python{version}")))
        .filter(|p| runs(p))
        .collect();
    found.sort();
    found.pop()
}

/// Installs each other version's wheel offline into a fresh venv of that
/// version and runs the smoke test, where an interpreter of it can be had;
/// says which versions could not be checked.
fn import_check_other_versions(out: &Path, venvs: &Path, smoke: &str) -> Result<(), String> {
    let out_s = out.to_string_lossy();
    let running = Command::new("python3")
        .args([
            "-c",
            "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')",
        ])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let mut unchecked = Vec::new();
    for version in VERSIONS.iter().filter(|v| **v != running) {
        let Some(python) = interpreter(version) else {
            unchecked.push(*version);
            continue;
        };
        let venv = venvs.join(format!("wheel-{version}"));
        let venv_s = venv.to_string_lossy();
        let python = python.to_string_lossy();
        run_step(
            &format!("fresh CPython {version} venv"),
            &python,
            &["-m", "venv", &venv_s],
        )?;
        let py = venv.join("bin/python");
        let py = py.to_string_lossy();
        run_step(
            &format!("offline install of the CPython {version} wheel"),
            &py,
            &[
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-index",
                "--find-links",
                &out_s,
                "--only-binary",
                DIST,
                DIST,
            ],
        )?;
        run_step(
            &format!("smoke test under CPython {version}"),
            &py,
            &[smoke],
        )?;
    }
    if !unchecked.is_empty() {
        eprintln!(
            "  no interpreter here for CPython {}: those wheels are inspected only",
            unchecked.join(", ")
        );
    }
    Ok(())
}

/// Every wheel's tag and files: the compiled module, the 20 presets and the
/// start-up hook.
fn inspect(out: &Path) -> Result<(), String> {
    let mut problems = Vec::new();
    for wheel in ours(out)? {
        let name = wheel.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".whl") {
            continue;
        }
        let listing = Command::new("python3")
            .args(["-m", "zipfile", "-l"])
            .arg(&wheel)
            .output()
            .map_err(|e| format!("cannot list {name}: {e}"))?;
        let listing = String::from_utf8_lossy(&listing.stdout);
        // compiled modules only (`_core.pyi`, the stubs, is no module)
        let modules = listing
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|f| {
                f.starts_with("ferroscale/_core.") && (f.ends_with(".so") || f.ends_with(".pyd"))
            })
            .count();
        let presets = listing
            .lines()
            .filter(|l| l.contains("ferroscale/type_registry/") && l.contains(".json"))
            .count();
        // the start-up hook that makes `import scalecodec` give the package
        // (python/python/_ferroscale_scalecodec.py), at the wheel's top
        let files: Vec<&str> = listing
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        let hook = HOOK_FILES.iter().all(|h| files.contains(h));
        eprintln!("  {name}: {modules} extension module, {presets} presets, start-up hook: {hook}");
        if !name.contains(MANYLINUX)
            || modules != 1
            || presets != ferroscale_presets_fetch::FILES.len()
            || !hook
        {
            problems.push(name.to_owned());
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "wheels with a wrong tag or missing files: {problems:?}"
        ))
    }
}
