//! A bounded smoke fuzz of what the index reads from outside: a block's
//! extrinsic and event bytes, and the JSON lines of a block file. Inputs are
//! the real blocks' items and lines, then a fixed number of inputs made from
//! them by the fuzz harness's deterministic mutator (`fuzz/src/harness/
//! mutate.rs`, included by path). Whatever the bytes, a block becomes rows:
//! each item a row of its table or of `errors`, every JSON column valid JSON,
//! and the tables build; a line is a block or an error, never a panic.
//! `FERROSCALE_SMOKE_FUZZ_SCALE=N` multiplies the iteration counts.

mod common;

#[path = "../../fuzz/src/harness/mutate.rs"]
#[allow(dead_code, unreachable_pub)]
mod mutate;

use std::io::Cursor;
use std::panic::{catch_unwind, AssertUnwindSafe};

use common::*;
use ferroscale_index::source::{block_to_json_line, JsonLines};
use ferroscale_index::{decode_block, record_batches, Block, Decoders, Rows};
use mutate::{mutate, Rng};

const SEED: u64 = 0x1dec_0de5_f022_0001;

fn scale() -> usize {
    std::env::var("FERROSCALE_SMOKE_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Runs `entry` on every seed, then on `iterations` mutated inputs; a panic
/// names the input (as hex, to replay it in a test).
fn smoke(name: &str, seeds: &[Vec<u8>], iterations: usize, entry: impl Fn(&[u8])) {
    let run = |input: &[u8], what: &str| {
        if catch_unwind(AssertUnwindSafe(|| entry(input))).is_err() {
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

/// What must hold of the rows of any block: one `blocks` row; each
/// extrinsic an `extrinsics` row or an `errors` row (or the whole block one
/// `errors` row, for a runtime without metadata); the events decoded or one
/// `errors` row; every JSON text parses; the five tables build.
fn check_rows(block: &Block, rows: &Rows) {
    assert_eq!(rows.blocks.len(), 1);
    let failed = |prefix: &str| {
        rows.errors
            .iter()
            .filter(|e| e.item.starts_with(prefix))
            .count()
    };
    if failed("block") == 1 {
        assert_eq!(rows.errors.len(), 1, "{:?}", rows.errors);
        assert!(rows.extrinsics.is_empty() && rows.events.is_empty());
    } else {
        assert_eq!(
            rows.extrinsics.len() + failed("extrinsic "),
            block.extrinsics.len(),
            "{:?}",
            rows.errors
        );
    }
    if block.events.is_some() {
        assert!(failed("events") <= 1);
    }
    let json = |text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {text:.200}"))
    };
    for r in &rows.extrinsics {
        json(&r.args);
        for text in [&r.signature, &r.extensions, &r.era, &r.mode]
            .into_iter()
            .flatten()
        {
            json(text);
        }
    }
    rows.calls.iter().for_each(|r| drop(json(&r.args)));
    rows.events.iter().for_each(|r| drop(json(&r.args)));
    let batches = record_batches(rows).expect("the tables build");
    assert_eq!(batches[0].num_rows(), 1);
}

/// The first byte picks the runtime and the item (0: an extrinsic of spec
/// 1000001, 1: an extrinsic of spec 9180, 2: `System.Events` of spec
/// 1000001); the rest is the item's bytes.
fn block_of(input: &[u8]) -> Block {
    let (kind, bytes) = input.split_first().unwrap_or((&0, &[]));
    let spec_version = if kind % 3 == 1 { 9180 } else { 1_000_001 };
    let (extrinsics, events) = if kind % 3 == 2 {
        (vec![], Some(bytes.to_vec()))
    } else {
        (vec![bytes.to_vec()], None)
    };
    Block {
        number: 1,
        hash: format!("0x{}", "00".repeat(32)),
        spec_version,
        extrinsics,
        events,
    }
}

fn item_seeds() -> Vec<Vec<u8>> {
    let tagged = |kind: u8, bytes: &[u8]| [&[kind][..], bytes].concat();
    let recent = block_18468942();
    let old = block_10000000();
    let mut seeds: Vec<Vec<u8>> = recent.extrinsics.iter().map(|x| tagged(0, x)).collect();
    seeds.extend(old.extrinsics.iter().map(|x| tagged(1, x)));
    seeds.push(tagged(2, recent.events.as_deref().expect("events")));
    seeds
}

#[test]
fn smoke_fuzz_block_items() {
    let decoders = decoders();
    let decode = |decoders: &Decoders, input: &[u8]| {
        let block = block_of(input);
        let rows = decode_block(&block, decoders.get(block.spec_version));
        check_rows(&block, &rows);
    };
    // The seeds decode without errors: the mutations start from real items.
    for seed in item_seeds() {
        let block = block_of(&seed);
        let rows = decode_block(&block, decoders.get(block.spec_version));
        assert!(rows.errors.is_empty(), "{:?}", rows.errors);
    }
    smoke("block items", &item_seeds(), 30_000, |input| {
        decode(&decoders, input)
    });
}

#[test]
fn smoke_fuzz_json_lines() {
    let decoders = decoders();
    // Short lines (block 10,000,000's timestamp extrinsic alone, with and
    // without events), so the mutations reach every field of a line.
    let mut small = block_10000000();
    small.extrinsics.truncate(1);
    let mut with_events = small.clone();
    with_events.events = Some(vec![0]);
    let seeds: Vec<Vec<u8>> = [small, with_events]
        .iter()
        .map(|b| block_to_json_line(b).into_bytes())
        .collect();
    smoke("json lines", &seeds, 100_000, |input| {
        for block in JsonLines::new(Cursor::new(input)) {
            match block {
                Ok(block) => {
                    let rows = decode_block(&block, decoders.get(block.spec_version));
                    check_rows(&block, &rows);
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    });
}
