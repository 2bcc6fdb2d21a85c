//! The bounded smoke fuzz of the index's outside inputs, run by every
//! `cargo test`: the cargo-fuzz `index` target's entry point (`fuzz/src/
//! index.rs`, included by path; it says what must hold) on the real blocks'
//! items and lines, then on a fixed number of inputs made from them by the
//! fuzz harness's deterministic mutator, with the harness's runner
//! (`fuzz/src/harness/smoke.rs`: a failure writes its input to
//! `target/smoke-fuzz-failures/`, to replay with `cargo fuzz run index`).
//! `FERROSCALE_SMOKE_FUZZ_SCALE=N` multiplies the iteration counts.

#[path = "../../fuzz/src/index.rs"]
#[allow(dead_code, unreachable_pub)]
mod index_target;

// The two harness modules that need nothing of the dynamic layer's targets
// (`smoke` finds `mutate` as its sibling, `super::mutate`).
#[path = "../../fuzz/src/harness/mutate.rs"]
#[allow(dead_code, unreachable_pub)]
mod mutate;
#[path = "../../fuzz/src/harness/smoke.rs"]
#[allow(dead_code, unreachable_pub)]
mod smoke;

use smoke::smoke_with;

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
    smoke_with(
        "index-block-items",
        index_target::item_seeds(),
        index_target::index,
        30_000,
    );
}

#[test]
fn smoke_fuzz_json_lines() {
    smoke_with(
        "index-json-lines",
        index_target::line_seeds(),
        index_target::index,
        100_000,
    );
}
