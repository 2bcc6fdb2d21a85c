//! `cargo xtask …`: the developer's commands.
//!
//! - `test`: everything CI runs (format, lints, Rust tests, Python module and suites).
//! - `presets`: fetch the py-scale-codec presets into `python/python/ferroscale/type_registry/`.
//! - `generate --chain NAME | --metadata FILE [--name NAME] | --url URL --name NAME`: runtime types (codegen).
//! - `cycles`: no import cycles between the modules of any crate.
//! - `docs [FILE…]`: run every command and program README.md and docs/ show, and compare their output.
//! - `block [--legacy] [--full]`: print a real Polkadot block, typed and dynamically.
//! - `bench-metadata [--iterations N] [FILE…]`: time metadata loading (run with `--release`).
//! - `bench-dynamic [--iterations N]`: dynamic decoding next to scale-value (`bench/dynamic/`).
//! - `fuzz seed | run [--seconds N] [TARGET…]`: the cargo-fuzz targets in `fuzz/`.
//! - `wheels [--out DIR] [--other-targets] [--check [--old-glibc ROOT]]`: the sdist and the CPython 3.10–3.14 and 3.14t manylinux2014 wheels, installable offline.

#![forbid(unsafe_code)]

mod bench_dynamic;
mod bench_metadata;
mod block;
mod clients;
mod cycles;
mod docs;
mod freethreaded;
mod fuzz;
mod generate;
mod presets;
mod python;
mod reference;
mod test;
mod wheels;
mod workspace;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test::run(&args[1..]),
        Some("presets") => presets::run(&args[1..]),
        Some("generate") => generate::run(&args[1..]),
        Some("cycles") => cycles::run(&args[1..]),
        Some("docs") => docs::run(&args[1..]),
        Some("block") => block::run(&args[1..]),
        Some("bench-metadata") => bench_metadata::run(&args[1..]),
        Some("bench-dynamic") => bench_dynamic::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("wheels") => wheels::run(&args[1..]),
        Some("free-threaded") => freethreaded::test(),
        _ => Err(format!(
            "usage: cargo xtask <command>\n\ncommands:\n  test        run every check CI runs\n  presets     fetch py-scale-codec 1.2.12 type-registry presets (pinned wheel, sha256-checked)\n  generate    runtime types from metadata ([--chain NAME | --metadata FILE [--name NAME] | --url URL --name NAME] [--check])\n  wheels      the sdist and CPython 3.10-3.14 and 3.14t manylinux2014 wheels, installable offline: wheels [--out DIR] [--other-targets] [--check [--old-glibc ROOT]]\n  free-threaded  the module on a free-threaded CPython 3.14 (built from Debian's source package unless FERROSCALE_FT_PYTHON names one): its thread, pinned and py-scale-codec suites with the GIL kept off\n  cycles      check that no crate has import cycles between its modules
  docs        run every command and program of README.md and docs/*.md and compare what they print: docs [FILE...]
  block       print Polkadot block 18,468,942 typed (examples/indexer) and dynamically (--legacy: block 5,000,000; --full)\n  bench-metadata  time metadata loading (use --release): bench-metadata [--iterations N] [FILE...]\n  bench-dynamic   dynamic decoding next to scale-value (release, own workspace): bench-dynamic [--iterations N] [--only delegates|events|metadata|extrinsics|runtime-api]\n  fuzz        cargo-fuzz targets: fuzz seed [TARGET...] | fuzz run [--seconds N] [--asan] [TARGET...]\n\nunknown or missing command: {:?}",
            args.first()
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
