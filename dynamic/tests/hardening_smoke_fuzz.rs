//! The bounded smoke fuzz that runs with every `cargo test` (so in CI): the
//! entry points of the cargo-fuzz targets (`fuzz/src/harness`, included here
//! by path) run first on every seed built from the real fixtures, then on a
//! fixed number of inputs made by a deterministic xorshift mutator from those
//! seeds. Same seed, same inputs on every machine: a failure names the
//! iteration and writes the input to `target/smoke-fuzz-failures/` so it can
//! be replayed (`cargo fuzz run <target> <file>`) and turned into a test.
//!
//! The iteration counts keep the whole file to a few minutes under a debug
//! build on two cores; `FERROSCALE_SMOKE_FUZZ_SCALE=N` multiplies them for a
//! longer local run.

// The fuzz package's own modules: `pub` there is its API to the targets.
#[path = "../../fuzz/src/harness/mod.rs"]
#[allow(dead_code, unreachable_pub)]
mod harness;
#[path = "../../fuzz/src/typed_check.rs"]
#[allow(unreachable_pub)]
mod typed_check;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Instant;

use harness::mutate::{mutate, Rng};
use harness::{seeds, targets};

/// The fixed seed of the mutator (each target mixes in its name).
const SEED: u64 = 0x00f3_7705_ca1e_5eed;

fn scale() -> usize {
    std::env::var("FERROSCALE_SMOKE_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Runs `target` on all its seeds, then on `iterations` mutated inputs.
/// Half of the time a mutation continues from the previous mutated input
/// rather than a fresh seed, so mutations stack up.
fn smoke(target: &str, iterations: usize) {
    smoke_with(
        target,
        seeds::for_target(target),
        |data| targets::run(target, data),
        iterations,
    );
}

/// [`smoke`] over any entry point and seed pool.
fn smoke_with(target: &str, pool: Vec<Vec<u8>>, entry: impl Fn(&[u8]), iterations: usize) {
    let iterations = iterations * scale();
    let started = Instant::now();
    assert!(!pool.is_empty(), "{target}: no seeds");
    for (i, seed) in pool.iter().enumerate() {
        run_one(target, &entry, seed, &format!("seed {i}"));
    }
    let seeded = started.elapsed();
    let mut rng = Rng::new(SEED ^ fnv1a(target.as_bytes()));
    let mut input = pool[0].clone();
    for i in 0..iterations {
        if rng.below(2) == 0 {
            input = pool[rng.below(pool.len())].clone();
        }
        let other = &pool[rng.below(pool.len())];
        mutate(&mut rng, &mut input, other);
        run_one(target, &entry, &input, &format!("iteration {i}"));
    }
    println!(
        "smoke fuzz {target}: {} seeds replayed in {:.1?}, {iterations} mutated inputs, {:.1?} in all (seed {SEED:#x})",
        pool.len(),
        seeded,
        started.elapsed()
    );
}

fn run_one(target: &str, entry: &impl Fn(&[u8]), input: &[u8], what: &str) {
    if catch_unwind(AssertUnwindSafe(|| entry(input))).is_err() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/smoke-fuzz-failures");
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("{target}-{}", what.replace(' ', "-")));
        let _ = std::fs::write(&path, input);
        panic!(
            "smoke fuzz {target}: {what} panicked (input of {} bytes written to {})",
            input.len(),
            path.display()
        );
    }
}

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

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

#[test]
fn smoke_fuzz_preset() {
    smoke("preset", 60_000);
}

/// Typed decoding of the generated `RuntimeCall`, `RuntimeEvent` and signed
/// extrinsic of Polkadot and Bittensor (the chains CI builds; the cargo-fuzz
/// `typed` target adds Kusama and Asset Hub). Byte 0 picks chain and type.
fn typed_entry(data: &[u8]) {
    use ferroscale_runtime_types::{bittensor as b, polkadot as p};
    use typed_check::check;
    let [sel, payload @ ..] = data else {
        return;
    };
    match sel % 6 {
        0 => check::<p::RuntimeCall>("polkadot RuntimeCall", payload),
        1 => check::<p::RuntimeEvent>("polkadot RuntimeEvent", payload),
        2 => check::<p::UncheckedExtrinsic>("polkadot UncheckedExtrinsic", payload),
        3 => check::<b::RuntimeCall>("bittensor RuntimeCall", payload),
        4 => check::<b::RuntimeEvent>("bittensor RuntimeEvent", payload),
        _ => check::<b::UncheckedExtrinsic>("bittensor UncheckedExtrinsic", payload),
    }
}

/// Seeds of [`typed_entry`]: pallet and variant indices with a little
/// payload for each chain and type, and the extrinsics of Polkadot block
/// 10,000,000 (an older spec than the generated one: close, not equal).
fn typed_seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for sel in 0..6u8 {
        for pallet in 0..64u8 {
            out.push(vec![sel, pallet, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        }
    }
    let extrinsics: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/extrinsics.json",
    ))
    .expect("extrinsics.json");
    for x in &extrinsics {
        let bytes = ferroscale_fixtures::decode_hex(x).expect("hex");
        out.push([vec![2u8], bytes.clone()].concat());
        out.push([vec![0u8], bytes[bytes.len().min(3)..].to_vec()].concat());
    }
    out
}

#[test]
fn smoke_fuzz_typed() {
    smoke_with("typed", typed_seeds(), typed_entry, 3_000_000);
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
