//! The bounded smoke fuzz that runs with every `cargo test` (so in CI): the
//! entry points of the cargo-fuzz targets (`fuzz/src/harness`, included here
//! by path) run first on every seed built from the real fixtures, then on a
//! fixed number of inputs made by a deterministic xorshift mutator from those
//! seeds (the runner: `fuzz/src/harness/smoke.rs`). Same seed, same inputs on
//! every machine: a failure names the iteration and writes the input to
//! `target/smoke-fuzz-failures/` so it can be replayed
//! (`cargo fuzz run <target> <file>`) and turned into a test. The typed
//! target (generated runtime types) runs in the ferroscale-tests crate
//! (`tests/tests/typed_smoke_fuzz.rs`).
//!
//! The iteration counts keep the whole file to a few minutes under a debug
//! build on two cores; `FERROSCALE_SMOKE_FUZZ_SCALE=N` multiplies them for a
//! longer local run.

// The fuzz package's own modules: `pub` there is its API to the targets.
#[path = "../../fuzz/src/harness/mod.rs"]
#[allow(dead_code, unreachable_pub)]
mod harness;

use harness::mutate::{mutate, Rng};
use harness::smoke::SEED;
use harness::targets::smoke;

#[test]
fn smoke_fuzz_metadata() {
    smoke("metadata", 5_000);
}

#[test]
fn smoke_fuzz_typestr() {
    smoke("typestr", 1_000_000);
}

#[test]
fn smoke_fuzz_dynamic_decode() {
    smoke("dynamic_decode", 5_000_000);
}

#[test]
fn smoke_fuzz_text() {
    smoke("text", 200_000);
}

/// Runtime API results, view function answers, storage keys and extrinsics
/// of formats 4 and 5, by name on V16 runtimes.
#[test]
fn smoke_fuzz_named() {
    smoke("named", 1_000_000);
}

/// The `named` seeds reach past the first checks: every one decodes, so the
/// mutations start from valid runtime API answers, view function answers,
/// storage keys and extrinsics (format 5 general included).
#[test]
fn named_seeds_decode() {
    let seeds = harness::seeds::named();
    let failed: Vec<usize> = (0..seeds.len())
        .filter(|&i| !harness::targets::named(&seeds[i]))
        .collect();
    assert!(seeds.len() > 500, "only {} seeds", seeds.len());
    assert!(failed.is_empty(), "seeds that do not decode: {failed:?}");
    let general = seeds
        .iter()
        .filter(|s| s[3] == 3 && s.get(5) == Some(&0x45))
        .count();
    assert!(general >= 2, "no format-5 general seed");
}

#[test]
fn smoke_fuzz_preset() {
    smoke("preset", 60_000);
}

/// The mutator is deterministic: the same seed gives the same inputs (what
/// makes a smoke-fuzz failure replayable).
#[test]
fn mutator_is_deterministic() {
    let run = || {
        let mut rng = Rng::new(SEED);
        let mut v = b"Vec<(AccountId, Compact<Balance>)>".to_vec();
        let mut all = Vec::new();
        for _ in 0..200 {
            mutate(&mut rng, &mut v, b"Option<u8>");
            all.push(v.clone());
        }
        all
    };
    let a = run();
    assert_eq!(a, run());
    assert!(a.iter().collect::<std::collections::BTreeSet<_>>().len() > 100);
}
