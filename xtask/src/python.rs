//! The Python side of `cargo xtask test`: a venv with maturin and pytest (and
//! pyarrow, dask's `distributed` and pyspark for the columnar tests), the
//! `ferroscale` wheel built from `python/` and installed as users get it
//! (the same wheel `test_coexistence.py` installs beside py-scale-codec and
//! cyscale in fresh venvs), our pytest suite, and py-scale-codec 1.2.12's own suite run against the
//! module under a ratchet.
//!
//! The ratchet: `python/compat/known-failures.txt` lists the reference-suite
//! test ids that do not pass yet. The step fails when a test that is not on
//! the list fails, and also when a listed test passes (so the list only
//! shrinks and is always true).
//!
//! `python/pinned-tests/` is also run against py-scale-codec 1.2.12 itself:
//! every test there not marked `extension` (cyscale's additions, V15/V16,
//! stricter errors) must pass on the reference implementation, so those tests
//! pin py-scale-codec's behaviour rather than ours.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::workspace::{run_step, run_step_env, workspace_root};

/// The list of reference-suite tests known not to pass yet.
pub(crate) const KNOWN_FAILURES: &str = "python/compat/known-failures.txt";
/// The presets the wheel must carry (`cargo xtask presets` puts them there).
const PRESETS: &str = "python/python/ferroscale/type_registry";
/// Tests that also run on py-scale-codec 1.2.12.
const PINNED_TESTS: &str = "python/pinned-tests";
/// Where `cargo xtask test` builds the wheel it installs (under cargo's target folder).
const TEST_WHEEL_DIR: &str = "python-test-wheel";
/// The variable through which test_coexistence.py finds that wheel.
const WHEEL_ENV_VAR: &str = "FERROSCALE_WHEEL";
/// The script that runs py-scale-codec 1.2.12's suite against an interpreter's `scalecodec`.
const COMPAT_SUITE: &str = "../shared/compat/pyscalecodec-suite";

/// The venv the Python tests run in (created when absent).
pub(crate) fn venv_python() -> Result<String, String> {
    let root = workspace_root();
    let py = root.join(".venv/bin/python");
    if !py.exists() {
        run_step("python venv", "python3", &["-m", "venv", ".venv"])?;
    }
    let py = py.to_string_lossy().into_owned();
    install_tools(
        "python tools",
        &py,
        &[
            // Test-only: python/tests/test_index*.py read the columnar
            // tables with pyarrow and run the Dask helper on a local
            // cluster and the Spark helpers on a local Spark (Java 17;
            // pyspark's Arrow path needs pandas); the module itself
            // imports none of them.
            "pyarrow>=14",
            "distributed>=2024.1",
            "pyspark>=4.0,<5",
            "pandas>=2.2,<3",
            // The docs' examples (cargo xtask docs) query the tables with
            // DuckDB and Polars, as the indexing guide shows.
            "duckdb>=1.1",
            "polars>=1.0",
            // Test-only: checks `_core.pyi` against the built module
            // (stubtest), the package's Python against the stubs, and
            // that its classes are valid in annotations (test_package_layout).
            "mypy>=2.4,<3",
        ],
    )?;
    Ok(py)
}

/// pip-installs into venv `py` what building and testing the module takes
/// (maturin, pytest), and `extra`, in one step.
pub(crate) fn install_tools(what: &str, py: &str, extra: &[&str]) -> Result<(), String> {
    let args = [
        &[
            "-m",
            "pip",
            "install",
            "--quiet",
            "maturin>=1.7,<2",
            "pytest>=8",
        ],
        extra,
    ]
    .concat();
    run_step(what, py, &args)
}

/// Builds and installs the module, then runs both Python suites.
pub(crate) fn test() -> Result<(), String> {
    let root = workspace_root();
    if !root.join(PRESETS).join("core.json").exists() {
        return Err(format!(
            "the type-registry presets are missing from {PRESETS}/; run `cargo xtask presets` first"
        ));
    }
    let py = venv_python()?;
    let out = crate::workspace::target_dir().join(TEST_WHEEL_DIR);
    let wheel = build_wheel("build the wheel from python/", &py, &out)?;
    let wheel_s = wheel.to_string_lossy();
    crate::reference::install_wheel("install the wheel into .venv", &py, &wheel)?;
    // test_coexistence.py installs the same wheel beside py-scale-codec and
    // cyscale in fresh venvs (building it once serves both)
    std::env::set_var(WHEEL_ENV_VAR, &*wheel_s);
    // test_live_clients.py drives the real clients against the dev node
    crate::clients::prepare(&wheel)?;
    // What a type checker reads must be what the module is: every name,
    // signature and class of the installed extension against `_core.pyi`,
    // then the package's Python against those stubs.
    run_step(
        "python stubs (mypy stubtest)",
        &py,
        &[
            "-m",
            "mypy.stubtest",
            "--mypy-config-file",
            "python/mypy.ini",
            "ferroscale._core",
        ],
    )?;
    run_step(
        "python types (mypy)",
        &py,
        &[
            "-m",
            "mypy",
            "--config-file",
            "python/mypy.ini",
            "python/python/ferroscale",
            "python/python/_ferroscale_scalecodec.py",
        ],
    )?;
    pytest("python tests", &py, &["python/tests"], &[])?;
    pytest("python pinned tests", &py, &[PINNED_TESTS], &[])?;
    tests_against_reference()?;
    compat_suite(&py, KNOWN_FAILURES, &[])
}

/// Builds the wheel from `python/` for interpreter `py` (as `pip install
/// ./python` would, with the maturin of `py`'s venv) into folder `out`,
/// emptied first, and returns its path.
pub(crate) fn build_wheel(what: &str, py: &str, out: &Path) -> Result<PathBuf, String> {
    // one wheel in the folder: the one just built
    let _ = std::fs::remove_dir_all(out);
    let maturin = Path::new(py).with_file_name("maturin");
    let out_s = out.to_string_lossy();
    run_step(
        what,
        &maturin.to_string_lossy(),
        &[
            "build",
            "--release",
            "-m",
            "python/Cargo.toml",
            "-i",
            py,
            "-o",
            &out_s,
        ],
    )?;
    std::fs::read_dir(out)
        .map_err(|e| format!("cannot read {out_s}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .ok_or_else(|| format!("maturin left no wheel in {out_s}"))
}

/// Runs pytest with `py` on `args` (test paths, and options of their own),
/// quiet and without its cache folder, `env` added to the environment.
pub(crate) fn pytest(
    what: &str,
    py: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Result<(), String> {
    let args = [&["-m", "pytest", "-q", "-p", "no:cacheprovider"], args].concat();
    run_step_env(what, py, &args, env)
}

/// Runs the non-`extension` tests of `python/pinned-tests` on py-scale-codec 1.2.12.
fn tests_against_reference() -> Result<(), String> {
    let reference = match std::env::var(crate::reference::ENV_VAR) {
        Ok(py) if !py.is_empty() => py,
        _ => crate::reference::python()?,
    };
    let has_pytest = Command::new(&reference)
        .args(["-c", "import pytest"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !has_pytest {
        run_step(
            "pytest in the reference venv",
            &reference,
            &["-m", "pip", "install", "--quiet", "pytest>=8"],
        )?;
    }
    pytest(
        "python tests on py-scale-codec 1.2.12 (non-extension)",
        &reference,
        &["-m", "not extension", PINNED_TESTS],
        &[],
    )
}

/// Runs py-scale-codec's suite and applies the known-failures ratchet.
pub(crate) fn compat_suite(
    py: &str,
    known_failures: &str,
    env: &[(&str, &str)],
) -> Result<(), String> {
    let root = workspace_root();
    let script = root.join(COMPAT_SUITE);
    if !script.exists() {
        return Err(format!(
            "py-scale-codec compat suite not found at {} (the shared folder must sit beside the checkout)",
            script.display()
        ));
    }
    eprintln!("\n=== py-scale-codec 1.2.12 suite: {}", script.display());
    let output = Command::new(&script)
        .args(["-q", "-rA", "-p", "no:randomly"])
        .env("PYTHON", py)
        .envs(env.iter().copied())
        .current_dir(&root)
        .output()
        .map_err(|e| format!("compat suite: cannot start {}: {e}", script.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let outcomes = parse_outcomes(&stdout);
    if outcomes.passed.is_empty() && outcomes.failed.is_empty() {
        eprintln!("{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        return Err("compat suite: no test outcomes found in pytest's output".into());
    }
    let known = read_known_failures(&root.join(known_failures))?;
    let verdict = ratchet(&outcomes, &known, known_failures);
    eprintln!(
        "compat suite: {} passed, {} failed ({} known)",
        outcomes.passed.len(),
        outcomes.failed.len(),
        known.len()
    );
    verdict
}

/// Test ids by outcome, from pytest's `-rA` summary lines.
#[derive(Debug, Default)]
struct Outcomes {
    passed: BTreeSet<String>,
    failed: BTreeSet<String>,
}

/// Reads `PASSED id`, `FAILED id - reason` and `ERROR id - reason` lines.
fn parse_outcomes(pytest_output: &str) -> Outcomes {
    let mut outcomes = Outcomes::default();
    for line in pytest_output.lines() {
        let (kind, rest) = match line.split_once(' ') {
            Some(split) => split,
            None => continue,
        };
        let id = rest.split(" - ").next().unwrap_or(rest).trim().to_owned();
        if !id.contains("::") {
            continue;
        }
        match kind {
            "PASSED" | "XPASS" => {
                outcomes.passed.insert(id);
            }
            "FAILED" | "ERROR" | "XFAIL" => {
                outcomes.failed.insert(id);
            }
            _ => {}
        }
    }
    outcomes
}

/// The known-failure ids: one per line, `#` comments and blank lines ignored.
fn read_known_failures(path: &Path) -> Result<BTreeSet<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect())
}

/// Fails on a new failure, and on a listed test that now passes.
fn ratchet(outcomes: &Outcomes, known: &BTreeSet<String>, list: &str) -> Result<(), String> {
    let new_failures: Vec<&String> = outcomes.failed.difference(known).collect();
    let now_passing: Vec<&String> = known.intersection(&outcomes.passed).collect();
    let mut problems = Vec::new();
    if !new_failures.is_empty() {
        problems.push(format!(
            "tests that fail and are not in {list}:\n  {}",
            join(&new_failures)
        ));
    }
    if !now_passing.is_empty() {
        problems.push(format!(
            "tests in {list} that now pass (remove them from the list):\n  {}",
            join(&now_passing)
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("compat suite: {}", problems.join("\n")))
    }
}

fn join(ids: &[&String]) -> String {
    ids.iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("\n  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
PASSED test/test_ss58.py::SS58TestCase::test_encode - ok
FAILED test/test_scale_types.py::TestScaleTypes::test_era - AssertionError: x - y
ERROR test/test_metadata.py::TestMetadata::test_setup
some other line
";

    fn set(ids: &[&str]) -> BTreeSet<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_pytest_summary_lines() {
        let outcomes = parse_outcomes(SAMPLE);
        assert_eq!(
            outcomes.passed,
            set(&["test/test_ss58.py::SS58TestCase::test_encode"])
        );
        assert_eq!(
            outcomes.failed,
            set(&[
                "test/test_scale_types.py::TestScaleTypes::test_era",
                "test/test_metadata.py::TestMetadata::test_setup"
            ])
        );
    }

    #[test]
    fn ratchet_accepts_exactly_the_known_failures() {
        let outcomes = parse_outcomes(SAMPLE);
        let known = set(&[
            "test/test_scale_types.py::TestScaleTypes::test_era",
            "test/test_metadata.py::TestMetadata::test_setup",
        ]);
        assert!(ratchet(&outcomes, &known, "list").is_ok());
    }

    #[test]
    fn ratchet_rejects_new_failures_and_stale_entries() {
        let outcomes = parse_outcomes(SAMPLE);
        let new_failure = ratchet(
            &outcomes,
            &set(&["test/test_metadata.py::TestMetadata::test_setup"]),
            "list",
        )
        .unwrap_err();
        assert!(new_failure.contains("test_era"), "{new_failure}");
        let stale = ratchet(
            &outcomes,
            &set(&[
                "test/test_scale_types.py::TestScaleTypes::test_era",
                "test/test_metadata.py::TestMetadata::test_setup",
                "test/test_ss58.py::SS58TestCase::test_encode",
            ]),
            "list",
        )
        .unwrap_err();
        assert!(stale.contains("now pass"), "{stale}");
    }
}
