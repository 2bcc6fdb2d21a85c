//! `cargo xtask test`: the whole test suite, set-up included, as CI runs it.

use crate::workspace::{run_step, run_step_env};

/// The CLI's opt-in `ferroscale index`, on for the workspace's lints and tests.
const CLI_INDEX: &str = "ferroscale-cli/index";

/// `--rust-only` skips the Python module and suites.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let rust_only = args.iter().any(|a| a == "--rust-only");
    run_step("format", "cargo", &["fmt", "--all", "--", "--check"])?;
    crate::cycles::run(&[])?;
    // The fixture chains' test targets are each one proc-macro expansion of
    // a whole runtime around a few hand-written lines; type-checking them
    // was most of clippy's time. Their code comes from the codegen
    // that also writes the shipped chains in `runtime-types`, which clippy
    // does check, so only the crate's library is linted here.
    run_step(
        "lints",
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--exclude",
            "ferroscale-fixture-chains",
            "--features",
            CLI_INDEX,
            "--",
            "-D",
            "warnings",
        ],
    )?;
    run_step(
        "lints (fixture chains' library)",
        "cargo",
        &[
            "clippy",
            "--package",
            "ferroscale-fixture-chains",
            "--lib",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    // The Rust API's docs: a broken or private link is an error, as in a
    // user's `cargo doc`. The fixture chains are test code; the Python
    // extension's docs are for its contributors (private items included).
    let deny = [("RUSTDOCFLAGS", "-D warnings")];
    run_step_env(
        "rustdoc",
        "cargo",
        &[
            "doc",
            "--workspace",
            "--lib",
            "--no-deps",
            "--exclude",
            "ferroscale-fixture-chains",
            "--exclude",
            "ferroscale-python",
            "--features",
            CLI_INDEX,
        ],
        &deny,
    )?;
    run_step_env(
        "rustdoc (Python extension, private items)",
        "cargo",
        &[
            "doc",
            "--lib",
            "--no-deps",
            "-p",
            "ferroscale-python",
            "--document-private-items",
        ],
        &deny,
    )?;
    // Differential tests compare against py-scale-codec in the reference venv.
    let reference_python = crate::reference::python()?;
    std::env::set_var(crate::reference::ENV_VAR, &reference_python);
    // The API-surface test also checks cyscale 0.8's public additions.
    let cyscale_python = crate::reference::cyscale_python()?;
    std::env::set_var(crate::reference::CYSCALE_ENV_VAR, &cyscale_python);
    // The RFC-0078 digest tests compare against bittensor-core 0.1.5.
    let btcore_python = crate::reference::btcore_python()?;
    std::env::set_var(crate::reference::BTCORE_ENV_VAR, &btcore_python);
    // ... and against dedot's implementation, which reads V16 metadata too.
    let dedot_modules = crate::reference::dedot_modules()?;
    std::env::set_var(crate::reference::DEDOT_ENV_VAR, &dedot_modules);
    // Checked-in generated runtime types must equal a fresh generation.
    crate::generate::run(&["--check".to_owned()])?;
    crate::presets::ensure()?;
    run_step(
        "rust tests",
        "cargo",
        &[
            "test",
            "--workspace",
            "--no-fail-fast",
            "--features",
            CLI_INDEX,
        ],
    )?;
    // The CLI as `cargo install` builds it by default, without `index`: its
    // lints, and its tests (which check that `index` says how to get it).
    run_step(
        "lints (CLI without index)",
        "cargo",
        &[
            "clippy",
            "-p",
            "ferroscale-cli",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    run_step(
        "rust tests (CLI without index)",
        "cargo",
        &["test", "-p", "ferroscale-cli", "--no-fail-fast"],
    )?;
    // The RPC client with its opt-in `tls`: its own code for `wss://` (the
    // handshake's TLS session, `ws_tls`) is compiled out of the builds above.
    run_step(
        "lints (RPC client with TLS)",
        "cargo",
        &[
            "clippy",
            "-p",
            "ferroscale-rpc",
            "--all-targets",
            "--features",
            "tls",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    run_step(
        "rust tests (RPC client over wss://)",
        "cargo",
        &[
            "test",
            "-p",
            "ferroscale-rpc",
            "--features",
            "tls",
            "--test",
            "wss",
        ],
    )?;
    if !rust_only {
        crate::python::test()?;
        // Last: the docs' commands use the CLI and the venv's module.
        crate::docs::run(&[])?;
    }
    Ok(())
}
