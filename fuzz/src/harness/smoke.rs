//! The bounded smoke-fuzz runner of the CI test suites
//! (`dynamic/tests/hardening_smoke_fuzz.rs` for the dynamic layer's entry
//! points, `tests/tests/typed_smoke_fuzz.rs` for the generated types,
//! `index/tests/smoke_fuzz.rs` for the columnar index): an
//! entry point runs first on every seed, then on a fixed number of inputs
//! made by the deterministic [`mutate`](super::mutate) from those seeds. Same
//! seed, same inputs on every machine: a failure names the iteration and
//! writes the input to `target/smoke-fuzz-failures/` so it can be replayed
//! (`cargo fuzz run <target> <file>`) and turned into a test.
//!
//! `FERROSCALE_SMOKE_FUZZ_SCALE=N` multiplies every iteration count for a
//! longer local run.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Instant;

// Only `mutate` beside it: test crates that see neither the dynamic layer's
// seeds nor its targets (the index's) include this file with it by path.
use super::mutate::{mutate, Rng};

/// The fixed seed of the mutator (each target mixes in its name).
pub const SEED: u64 = 0x00f3_7705_ca1e_5eed;

fn scale() -> usize {
    std::env::var("FERROSCALE_SMOKE_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// The smoke fuzz of any entry point over a seed pool. Half of the time a mutation
/// continues from the previous mutated input rather than a fresh seed, so
/// mutations stack up.
pub fn smoke_with(target: &str, pool: Vec<Vec<u8>>, entry: impl Fn(&[u8]), iterations: usize) {
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
