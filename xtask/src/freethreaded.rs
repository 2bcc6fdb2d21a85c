//! `cargo xtask free-threaded`: the module built for a free-threaded
//! CPython, and its thread, pinned and py-scale-codec suites run there with
//! the GIL kept off (`PYTHON_GIL=0`). The module does not declare
//! free-threaded support (see `#[pymodule]` in `python/src/lib.rs`), so an
//! interpreter started without that variable turns the GIL back on when it
//! imports the module. Not part of `cargo xtask test`: PyO3 builds for
//! free-threaded CPython 3.14t and later only, and Debian's archive as this
//! project's machines reach it serves no source of 3.14 (its 3.13 source,
//! which this step built until PyO3 0.29 dropped 3.13t, it does).
//!
//! The interpreter: `$FERROSCALE_FT_PYTHON` when set; else CPython 3.14
//! (the first release whose free-threaded build CPython supports, and the
//! oldest PyO3 builds for) built with `--disable-gil` from Debian's own
//! source package (`apt-get source python3.14`, checked by apt against the
//! signed index), once, under
//! cargo's target folder. No Debian release ships a free-threaded build, and
//! the registries are all this machine and CI reach. apt reads a sources
//! list of its own here, so the system's stays as it is.

use std::path::Path;
use std::process::Command;

use crate::python;
use crate::workspace::{run_step, run_step_at, run_step_env, target_dir};

/// An interpreter to use instead of building one.
const ENV_VAR: &str = "FERROSCALE_FT_PYTHON";
/// The source package, from the Debian release that has CPython 3.14.
const SOURCE_PACKAGE: &str = "python3.14";
const SOURCE_SUITE: &str = "forky";
/// The interpreter that `make install` of that source writes.
const INTERPRETER: &str = "bin/python3.14t";
/// Headers and libraries CPython's build needs for pip (TLS), zlib and
/// ctypes; build-essential is on the machine already.
const BUILD_DEPENDS: [&str; 3] = ["libssl-dev", "zlib1g-dev", "libffi-dev"];
/// The system's Debian sources, whose archive address is reused.
const SYSTEM_SOURCES: &str = "/etc/apt/sources.list.d/debian.sources";

/// Builds the wheel for the free-threaded interpreter and runs the suites.
pub(crate) fn test() -> Result<(), String> {
    let python = interpreter()?;
    let home = target_dir().join("free-threaded");
    let venv = home.join("venv");
    let py = venv.join("bin/python");
    if !made_by(&venv, &python) {
        let _ = std::fs::remove_dir_all(&venv);
    }
    if !py.exists() {
        run_step(
            "free-threaded venv",
            &python,
            &["-m", "venv", &venv.to_string_lossy()],
        )?;
    }
    let py = py.to_string_lossy().into_owned();
    python::install_tools("free-threaded venv tools", &py, &[])?;
    let wheel = python::build_wheel(
        "build the wheel for the free-threaded interpreter",
        &py,
        &home.join("wheels"),
    )?;
    crate::reference::install_wheel("install it into the free-threaded venv", &py, &wheel)?;
    // The module does not declare that it runs without the GIL (see the
    // module's doc), so CPython would turn the GIL back on at import;
    // PYTHON_GIL=0 keeps it off, and the suites run without it.
    let gil_off = [("PYTHON_GIL", "0")];
    run_step_env(
        "the GIL off after import",
        &py,
        &[
            "-c",
            "import sys, scalecodec, ferroscale; \
             assert not sys._is_gil_enabled(), 'the GIL is on'",
        ],
        &gil_off,
    )?;
    python::pytest(
        "python thread tests, GIL off",
        &py,
        &[
            "python/tests/test_threads.py",
            "python/tests/test_gc_pause.py",
        ],
        &gil_off,
    )?;
    // apart: each folder has a conftest of its own
    python::pytest(
        "python pinned tests, GIL off",
        &py,
        &["python/pinned-tests"],
        &gil_off,
    )?;
    python::compat_suite(&py, python::KNOWN_FAILURES, &gil_off)
}

/// Whether the venv at `venv` was made by `python` (its `pyvenv.cfg` names
/// the interpreter's folder): a venv of an earlier interpreter is made anew.
fn made_by(venv: &Path, python: &str) -> bool {
    let Some(folder) = Path::new(python).parent() else {
        return false;
    };
    std::fs::read_to_string(venv.join("pyvenv.cfg")).is_ok_and(|cfg| {
        cfg.lines().any(|l| {
            l.strip_prefix("home")
                .and_then(|rest| rest.trim_start().strip_prefix('='))
                .is_some_and(|home| Path::new(home.trim()) == folder)
        })
    })
}

/// The free-threaded interpreter: the one named, or the one built here.
fn interpreter() -> Result<String, String> {
    if let Some(py) = std::env::var_os(ENV_VAR).filter(|v| !v.is_empty()) {
        return Ok(py.to_string_lossy().into_owned());
    }
    let home = target_dir().join("free-threaded");
    let install = home.join("cpython");
    let python = install.join(INTERPRETER);
    if !python.exists() {
        build_cpython(&home, &install)?;
    }
    Ok(python.to_string_lossy().into_owned())
}

/// Fetches Debian's CPython 3.14 source and builds it without the GIL into `install`.
fn build_cpython(home: &Path, install: &Path) -> Result<(), String> {
    install_build_depends()?;
    let apt = home.join("apt");
    let lists = apt.join("lists");
    std::fs::create_dir_all(lists.join("partial"))
        .map_err(|e| format!("cannot create {}: {e}", lists.display()))?;
    let sources = apt.join("source.sources");
    std::fs::write(&sources, source_entry()?)
        .map_err(|e| format!("cannot write {}: {e}", sources.display()))?;
    let options = [
        format!("-oDir::Etc::SourceList={}", sources.display()),
        "-oDir::Etc::SourceParts=-".to_owned(),
        format!("-oDir::State::Lists={}", lists.display()),
        // apt's unprivileged download user cannot write into the target
        // folder; the files are checked against the signed index all the same
        "-oAPT::Sandbox::User=root".to_owned(),
    ];
    let options: Vec<&str> = options.iter().map(String::as_str).collect();
    run_step(
        "free-threaded CPython: the source index",
        "apt-get",
        &[&options[..], &["update"]].concat(),
    )?;
    let download = home.join("download");
    let _ = std::fs::remove_dir_all(&download);
    std::fs::create_dir_all(&download)
        .map_err(|e| format!("cannot create {}: {e}", download.display()))?;
    run_in(
        "free-threaded CPython: the source package",
        &download,
        "apt-get",
        &[&options[..], &["source", "--download-only", SOURCE_PACKAGE]].concat(),
    )?;
    let tarball = std::fs::read_dir(&download)
        .map_err(|e| format!("cannot read {}: {e}", download.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".orig.tar.xz"))
        .ok_or_else(|| format!("no .orig.tar.xz of {SOURCE_PACKAGE} was downloaded"))?;
    let src = home.join("src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).map_err(|e| format!("cannot create {}: {e}", src.display()))?;
    run_in(
        "free-threaded CPython: unpack",
        &src,
        "tar",
        &["-xJf", &tarball.to_string_lossy(), "--strip-components=1"],
    )?;
    run_in(
        "free-threaded CPython: configure",
        &src,
        "./configure",
        &[
            "--disable-gil",
            "--disable-test-modules",
            &format!("--prefix={}", install.display()),
        ],
    )?;
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    run_in(
        "free-threaded CPython: build",
        &src,
        "make",
        &[&format!("-j{jobs}")],
    )?;
    run_in("free-threaded CPython: install", &src, "make", &["install"])
}

/// A deb-src entry for [`SOURCE_SUITE`] at the archive the system's Debian
/// sources use, signed by the same keyring.
fn source_entry() -> Result<String, String> {
    let system = std::fs::read_to_string(SYSTEM_SOURCES)
        .map_err(|e| format!("cannot read {SYSTEM_SOURCES} (a Debian system is needed to build the free-threaded CPython, or set {ENV_VAR}): {e}"))?;
    let field = |name: &str| {
        system
            .lines()
            .find_map(|l| l.strip_prefix(name).map(str::trim))
            .map(str::to_owned)
    };
    let uri = field("URIs:").ok_or_else(|| format!("{SYSTEM_SOURCES} names no URIs"))?;
    let keyring = field("Signed-By:")
        .unwrap_or_else(|| "/usr/share/keyrings/debian-archive-keyring.gpg".to_owned());
    Ok(format!(
        "Types: deb-src\nURIs: {uri}\nSuites: {SOURCE_SUITE}\nComponents: main\nSigned-By: {keyring}\n"
    ))
}

/// Installs the headers CPython's build needs, when any is missing.
fn install_build_depends() -> Result<(), String> {
    let missing: Vec<&str> = BUILD_DEPENDS
        .into_iter()
        .filter(|p| {
            !Command::new("dpkg-query")
                .args(["-W", "-f=${Status}", p])
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("ok installed"))
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    run_step("apt-get update", "apt-get", &["update", "-qq"])?;
    run_step(
        "free-threaded CPython: build dependencies",
        "apt-get",
        &[
            &["install", "-y", "-qq", "--no-install-recommends"],
            &missing[..],
        ]
        .concat(),
    )
}

/// A step run in folder `dir`.
fn run_in(what: &str, dir: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    run_step_at(what, dir, program, args, &[])
}
