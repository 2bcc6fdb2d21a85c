//! `cargo xtask wheels [--out DIR] [--other-targets] [--check [--old-glibc ROOT]]`: the Python
//! distribution in one folder that installs offline — the sdist, the wheels
//! for CPython 3.10–3.14 on Linux x86-64 (`manylinux2014`, glibc 2.17 or
//! later), and the sdist's build requirements (maturin, pip) as wheels, so
//! that `pip install --no-index --find-links DIR ferroscale` needs no network.
//!
//! Each CPython version gets its own wheel (the version-specific API; see
//! BENCHMARKS.md, "abi3 or per-version wheels", for the cost that decided
//! it), built with maturin's bundled sysconfig when the interpreter is not
//! installed here; a `cp310-abi3` wheel covers the versions after 3.14 (pip
//! prefers the exact `cp3X-cp3X` tag when there is one). With
//! `--other-targets`, Linux on aarch64 (manylinux2014) and musl on x86-64
//! (musllinux_1_2) get one abi3 wheel each (see `OTHER_TARGETS`).
//!
//! The wheels are linked with zig (`maturin build --zig`) against glibc
//! 2.17's symbol versions rather than this machine's glibc, so that they
//! install on every glibc 2.17+ system (RHEL/CentOS 7, Debian 9, Ubuntu 18.04
//! and later) without a manylinux container. The tools (maturin, zig from
//! PyPI's `ziglang`, `auditwheel`) live in their own venv under cargo's
//! target folder. Every wheel is checked against the manylinux2014 policy
//! twice: by maturin (`--auditwheel check`) and by `auditwheel show`, whose
//! platform tag and highest `GLIBC_` symbol version are printed.
//!
//! `--check` then installs, offline and into fresh venvs, the wheel for the
//! running `python3`, the abi3 wheel and the sdist (built from source by pip
//! with the folder's maturin; Rust crates from cargo's cache), and the wheel
//! of every other version an interpreter can be found for (on PATH or under
//! pyenv), and runs `python/install_smoke.py` in each; every wheel is
//! inspected (tags, files).
//!
//! `--old-glibc ROOT` also installs the wheels into an older-glibc userland
//! (a chroot, made by `python/old_glibc_root.sh ROOT`: Debian 11, glibc
//! 2.31, with a CPython built from source inside it, since no Debian release
//! before glibc 2.34 ships CPython 3.10+), each interpreter found there
//! getting its own wheel and the abi3 wheel, and runs the smoke test there.
//! It runs as root (`chroot`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::workspace::{run_step, run_step_env, workspace_root};

mod old_glibc;

/// The CPython versions that get a version-specific wheel.
pub(super) const VERSIONS: [&str; 5] = ["3.10", "3.11", "3.12", "3.13", "3.14"];
/// A platform the wheels are built for.
struct Target {
    /// Rust's name of it (`--target`).
    triple: &'static str,
    /// The policy maturin builds for and checks (`--compatibility`).
    policy: &'static str,
    /// The platform tag in the wheel's file name (PEP 600's spelling), which
    /// `auditwheel show` must find too.
    tag: &'static str,
}

/// Linux x86-64 with glibc 2.17 or later (manylinux2014, PEP 599): the
/// per-version wheels and the abi3 wheel. Linked against this machine's
/// glibc (2.36) instead, a Rust extension needs 2.34 (`stat64`, and the
/// pthread symbols that moved into libc in 2.34); zig links against 2.17's
/// symbol versions.
const X86_64: Target = Target {
    triple: "x86_64-unknown-linux-gnu",
    policy: "manylinux2014",
    tag: "manylinux_2_17_x86_64",
};
/// The other platforms (`--other-targets`): one abi3 wheel each (every
/// CPython 3.10+ installs it; per-version wheels there would cost five
/// release builds a platform). Each compiles every dependency anew for its
/// target (about 25 minutes on two busy cores), hence opt-in. They are
/// built and audited here but `--check` does not run them: this machine has
/// no aarch64 CPU (qemu-user emulation runs the aarch64 wheel, by hand) and
/// no musl-linked CPython.
const OTHER_TARGETS: [Target; 2] = [
    // Linux on 64-bit ARM (Graviton, Ampere, Raspberry Pi OS 64-bit), glibc 2.17+.
    Target {
        triple: "aarch64-unknown-linux-gnu",
        policy: "manylinux2014",
        tag: "manylinux_2_17_aarch64",
    },
    // Alpine and other musl distributions on x86-64 (musl 1.2+).
    Target {
        triple: "x86_64-unknown-linux-musl",
        policy: "musllinux_1_2",
        tag: "musllinux_1_2_x86_64",
    },
];

/// The platform a wheel was built for, by its file name.
fn target_of(wheel: &str) -> Option<&'static Target> {
    std::iter::once(&X86_64)
        .chain(OTHER_TARGETS.iter())
        .find(|t| wheel.contains(t.tag))
}

/// The x86-64 glibc abi3 wheel in `out` (the one this machine installs).
pub(super) fn x86_64_abi3(out: &Path) -> Result<PathBuf, String> {
    ours(out)?
        .into_iter()
        .find(|p| {
            let name = p.to_string_lossy();
            name.contains("-abi3-") && name.contains(X86_64.tag)
        })
        .ok_or_else(|| "no x86-64 abi3 wheel was built".to_owned())
}
/// The tools of the wheel builds, in their own venv (see `tools`): maturin,
/// zig for `--zig` (PyPI's `ziglang`, which cargo-zigbuild inside maturin
/// runs as `python3 -m ziglang`), and auditwheel for the second check.
const TOOLS: [&str; 3] = ["maturin>=1.7,<2", "ziglang>=0.13,<0.18", "auditwheel>=6,<7"];
/// The sdist's build requirements (pyproject.toml's `[build-system]`).
const BUILD_REQUIREMENTS: [&str; 2] = ["maturin>=1.7,<2", "pip"];
/// The Python crate's manifest.
const MANIFEST: &str = "python/Cargo.toml";
/// The distribution's name on PyPI.
pub(super) const DIST: &str = "ferroscale";
/// The files at the top of every wheel that decide what `import scalecodec` gives.
const HOOK_FILES: [&str; 2] = ["_ferroscale_scalecodec.py", "ferroscale_scalecodec.pth"];

/// `cargo xtask wheels`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut out = None;
    let mut check = false;
    let mut old_glibc = None;
    let mut other_targets = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--out" => {
                let dir = it.next().ok_or("--out needs a folder")?;
                out = Some(PathBuf::from(dir));
            }
            "--check" => check = true,
            "--other-targets" => other_targets = true,
            "--old-glibc" => {
                let root = it.next().ok_or("--old-glibc needs a folder (a chroot)")?;
                old_glibc = Some(PathBuf::from(root));
            }
            other => return Err(format!("wheels: unknown argument {other:?}")),
        }
    }
    let out = out.unwrap_or_else(default_out);
    if old_glibc.is_some() && !check {
        return Err("--old-glibc goes with --check".into());
    }
    let out = absolute(&out)?;
    let tools = tools()?;
    build(&out, &tools, other_targets)?;
    audit(&out, &tools)?;
    if check {
        let old_glibc = old_glibc.map(|root| workspace_root().join(root));
        check_offline(&out, old_glibc.as_deref())?;
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

/// The venv of the wheel tools ([`TOOLS`]), under cargo's target folder
/// (the project's `.venv` carries the test tools, which the wheels do not
/// need).
struct Tools {
    /// Its `bin` folder.
    bin: PathBuf,
}

impl Tools {
    fn exe(&self, name: &str) -> String {
        self.bin.join(name).to_string_lossy().into_owned()
    }

    /// `PATH` with the venv first, so that `python3 -m ziglang` (how
    /// cargo-zigbuild finds zig) runs the venv's interpreter; and that
    /// interpreter named outright too.
    fn env(&self) -> Vec<(&'static str, String)> {
        let path = std::env::var("PATH").unwrap_or_default();
        vec![
            ("PATH", format!("{}:{path}", self.bin.display())),
            ("CARGO_ZIGBUILD_PYTHON_PATH", self.exe("python3")),
        ]
    }
}

/// Creates (when absent) and updates the tools' venv.
fn tools() -> Result<Tools, String> {
    let venv = crate::workspace::target_dir().join("wheel-tools");
    let bin = venv.join("bin");
    if !bin.join("python3").exists() {
        run_step(
            "venv for the wheel tools",
            "python3",
            &["-m", "venv", &venv.to_string_lossy()],
        )?;
    }
    let tools = Tools { bin };
    let mut install = vec!["-m", "pip", "install", "--quiet"];
    install.extend(TOOLS);
    run_step("wheel tools", &tools.exe("python3"), &install)?;
    Ok(tools)
}

/// The sdist, every wheel, and the build requirements, into `out`.
fn build(out: &Path, tools: &Tools, other_targets: bool) -> Result<(), String> {
    refuse_stray_modules()?;
    // The sdist carries the presets, so that building it never fetches.
    crate::presets::ensure()?;
    remove_old(out)?;
    let py = tools.exe("python3");
    let maturin = tools.exe("maturin");
    let env = tools.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let out_s = out.to_string_lossy();
    run_step("sdist", &maturin, &["sdist", "-m", MANIFEST, "-o", &out_s])?;
    let wheel_args = |target: &'static Target| {
        let mut args = vec!["build", "--release", "-m", MANIFEST, "-o", &out_s];
        args.extend(["--zig", "--target", target.triple]);
        args.extend(["--compatibility", target.policy, "--auditwheel", "check"]);
        args
    };
    // The other platforms first: a toolchain missing for one of them fails
    // the run before the long x86-64 builds.
    for target in OTHER_TARGETS.iter().filter(|_| other_targets) {
        let mut abi3 = wheel_args(target);
        abi3.extend(["--features", "abi3"]);
        run_step_env(
            &format!("abi3 wheel for {}", target.triple),
            &maturin,
            &abi3,
            &env,
        )?;
    }
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
    let mut per_version = wheel_args(&X86_64);
    for i in &interpreters {
        per_version.extend(["-i", i.as_str()]);
    }
    run_step_env(
        "wheels, one per CPython version",
        &maturin,
        &per_version,
        &env,
    )?;
    let mut abi3 = wheel_args(&X86_64);
    abi3.extend(["--features", "abi3", "-i", py.as_str()]);
    run_step_env("abi3 wheel (CPython 3.15 and later)", &maturin, &abi3, &env)?;
    let mut download = vec!["-m", "pip", "download", "--quiet", "-d", &out_s];
    download.extend(BUILD_REQUIREMENTS);
    run_step(
        "the sdist's build requirements, for offline installs",
        &py,
        &download,
    )?;
    list(out)
}

/// `auditwheel show` on every glibc wheel: it must find the tag of the
/// wheel's platform ([`Target::tag`]); prints the highest `GLIBC_` symbol
/// version the compiled module needs (what decides the glibc floor), which
/// must be 2.17 at most. The musl wheel has maturin's check only.
fn audit(out: &Path, tools: &Tools) -> Result<(), String> {
    eprintln!("\n=== auditwheel show, every wheel:");
    let auditwheel = tools.exe("auditwheel");
    let mut problems = Vec::new();
    for wheel in ours(out)? {
        let name = wheel.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".whl") {
            continue;
        }
        let Some(target) = target_of(name) else {
            problems.push(name.to_owned());
            continue;
        };
        if target.policy.starts_with("musllinux") {
            // auditwheel 6 on a glibc machine resolves the module's
            // `libc.so` to glibc's linker script (a text file) and stops on
            // it; maturin's `--auditwheel check` has passed the wheel.
            eprintln!("  {name}: maturin's {} check only", target.policy);
            continue;
        }
        let shown = Command::new(&auditwheel)
            .arg("show")
            .arg(&wheel)
            .output()
            .map_err(|e| format!("cannot run {auditwheel}: {e}"))?;
        // auditwheel wraps its report at 72 columns: join it back.
        let text = String::from_utf8_lossy(&shown.stdout);
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let tag = text.contains(&format!("platform tag: \"{}\"", target.tag));
        let glibc = highest_glibc(&text);
        eprintln!(
            "  {name}: auditwheel {}, {}",
            if tag {
                target.tag
            } else {
                "does not find its tag"
            },
            glibc.map_or("no GLIBC_ symbol version found".into(), |(a, b)| {
                format!("highest symbol version GLIBC_{a}.{b}")
            })
        );
        let glibc_ok = glibc.is_some_and(|v| v <= (2, 17));
        if !shown.status.success() || !tag || !glibc_ok {
            eprintln!("{text}");
            problems.push(name.to_owned());
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "wheels that auditwheel does not pass: {problems:?}"
        ))
    }
}

/// The highest `GLIBC_2.N` (or `GLIBC_2.N.M`, read as 2.N) in `text`.
fn highest_glibc(text: &str) -> Option<(u32, u32)> {
    text.split("GLIBC_")
        .skip(1)
        .filter_map(|rest| {
            let version: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let mut parts = version.split('.');
            let major = parts.next()?.parse().ok()?;
            let minor = parts.next()?.parse().ok()?;
            Some((major, minor))
        })
        .max()
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
pub(super) fn ours(out: &Path) -> Result<Vec<PathBuf>, String> {
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
fn check_offline(out: &Path, old_glibc: Option<&Path>) -> Result<(), String> {
    inspect(out)?;
    let root = workspace_root();
    let venvs = out.join("check-venvs");
    let _ = std::fs::remove_dir_all(&venvs);
    let smoke = root.join("python/install_smoke.py");
    let smoke = smoke.to_string_lossy();
    // What to install in fresh venvs: the interpreter's own wheel (pip
    // picks the exact `cp3X-cp3X` tag over abi3), the abi3 wheel (importable
    // on this 3.11 too, so it is tested rather than only inspected), the
    // other versions' wheels, the wheels in the older-glibc userland, and
    // last (it compiles the crate, the longest step) the sdist, built by pip
    // with the folder's maturin.
    let abi3 = x86_64_abi3(out)?;
    let only_binary = vec!["--only-binary".into(), DIST.into(), DIST.into()];
    install_and_smoke("wheel", &only_binary, out, &venvs, &smoke)?;
    let abi3 = vec![abi3.to_string_lossy().into_owned()];
    install_and_smoke("abi3 wheel", &abi3, out, &venvs, &smoke)?;
    import_check_other_versions(out, &venvs, &smoke)?;
    if let Some(root) = old_glibc {
        old_glibc::check(out, root)?;
    }
    let no_binary = vec!["--no-binary".into(), DIST.into(), DIST.into()];
    install_and_smoke("sdist", &no_binary, out, &venvs, &smoke)?;
    let _ = std::fs::remove_dir_all(&venvs);
    Ok(())
}

/// A fresh venv of the running `python3`, `pip install --no-index
/// --find-links OUT WHAT` into it, and the smoke test.
fn install_and_smoke(
    name: &str,
    what: &[String],
    out: &Path,
    venvs: &Path,
    smoke: &str,
) -> Result<(), String> {
    let out_s = out.to_string_lossy();
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
        .current_dir(venvs)
        .status()
        .map_err(|e| format!("pip install of the {name}: {e}"))?;
    if !status.success() {
        return Err(format!("offline install of the {name} failed ({status})"));
    }
    run_step(
        &format!("smoke test of the installed {name}"),
        &py,
        &[smoke],
    )
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
        if target_of(name).is_none()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highest_glibc_reads_auditwheel_s_symbol_list() {
        // auditwheel 6's report, joined onto one line as `audit` does
        let shown = "ferroscale-0.1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl \
            is consistent with the following platform tag: \"manylinux_2_17_x86_64\". The wheel \
            references external versioned symbols in these system-provided shared libraries: \
            libgcc_s.so.1 with versions {'GCC_4.2.0', 'GCC_3.0'}, libc.so.6 with versions \
            {'GLIBC_2.3.4', 'GLIBC_2.14', 'GLIBC_2.2.5', 'GLIBC_2.17', 'GLIBC_2.9'}";
        assert_eq!(highest_glibc(shown), Some((2, 17)));
        assert_eq!(
            highest_glibc("libc.so.6 with versions {'GLIBC_2.34'}"),
            Some((2, 34))
        );
        assert_eq!(highest_glibc("no symbol versions"), None);
    }

    #[test]
    fn every_wheel_name_maps_to_its_platform() {
        let name = |tag: &str| format!("ferroscale-0.1.0-cp310-abi3-{tag}.whl");
        let x86 = name("manylinux_2_17_x86_64.manylinux2014_x86_64");
        assert_eq!(target_of(&x86).map(|t| t.triple), Some(X86_64.triple));
        let arm = name("manylinux_2_17_aarch64.manylinux2014_aarch64");
        assert_eq!(
            target_of(&arm).map(|t| t.triple),
            Some("aarch64-unknown-linux-gnu")
        );
        let musl = name("musllinux_1_2_x86_64");
        assert_eq!(
            target_of(&musl).map(|t| t.triple),
            Some("x86_64-unknown-linux-musl")
        );
        assert!(target_of(&name("manylinux_2_34_x86_64")).is_none());
    }
}
