//! The bounded smoke fuzz of the index's outside inputs, run by every
//! `cargo test`: the cargo-fuzz `index` target's entry point (`fuzz/src/
//! index.rs`, included by path; it says what must hold) on the real blocks'
//! items and lines, then on a fixed number of inputs made from them by the
//! fuzz harness's deterministic mutator (`fuzz/src/harness/mutate.rs`).
//! `FERROSCALE_SMOKE_FUZZ_SCALE=N` multiplies the iteration counts; a
//! failure prints the input as hex, to replay with `cargo fuzz run index`.

#[path = "../../fuzz/src/index.rs"]
#[allow(dead_code, unreachable_pub)]
mod index_target;

#[path = "../../fuzz/src/harness/mutate.rs"]
#[allow(dead_code, unreachable_pub)]
mod mutate;

use std::panic::{catch_unwind, AssertUnwindSafe};

use mutate::{mutate, Rng};

const SEED: u64 = 0x1dec_0de5_f022_0001;

fn scale() -> usize {
    std::env::var("FERROSCALE_SMOKE_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// The entry point on every seed, then on `iterations` mutated inputs.
fn smoke(name: &str, seeds: &[Vec<u8>], iterations: usize) {
    let run = |input: &[u8], what: &str| {
        if catch_unwind(AssertUnwindSafe(|| index_target::index(input))).is_err() {
            panic!(
                "smoke fuzz {name}: {what} panicked on {}",
                ferroscale_core::hex::encode_prefixed(input)
            );
        }
    };
    for (i, seed) in seeds.iter().enumerate() {
        run(seed, &format!("seed {i}"));
    }
    let mut rng = Rng::new(SEED ^ name.len() as u64);
    let mut input = seeds[0].clone();
    for i in 0..iterations * scale() {
        if rng.below(2) == 0 {
            input = seeds[rng.below(seeds.len())].clone();
        }
        let other = &seeds[rng.below(seeds.len())];
        mutate(&mut rng, &mut input, other);
        run(&input, &format!("iteration {i}"));
    }
}

/// The seeds decode without errors, so the mutations start from real items.
#[test]
fn item_seeds_decode() {
    for seed in index_target::item_seeds() {
        let block = index_target::item_block(&seed);
        let spec = index_target::decoders().get(block.spec_version);
        let rows = ferroscale_index::decode_block(&block, spec);
        assert!(rows.errors.is_empty(), "{:?}", rows.errors);
    }
}

#[test]
fn smoke_fuzz_block_items() {
    smoke("block items", &index_target::item_seeds(), 30_000);
}

#[test]
fn smoke_fuzz_json_lines() {
    smoke("json lines", &index_target::line_seeds(), 100_000);
}
