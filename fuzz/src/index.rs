//! The `index` target: what the columnar index reads from outside, a block's
//! extrinsic and event bytes and the lines of a block file, through to rows
//! and Arrow tables. Whatever the bytes: a line is a block or an error; a
//! block becomes one `blocks` row, each extrinsic a row of `extrinsics` or
//! of `errors` (a whole block one `errors` row when its runtime is unknown),
//! its events decoded or one `errors` row; every JSON column is valid JSON,
//! and the tables build. A broken promise panics (a crash to libFuzzer).
//!
//! `index/tests/smoke_fuzz.rs` includes this file by path for the bounded
//! run of every `cargo test`, so it uses only crates that test sees
//! (ferroscale-index, ferroscale-core, ferroscale-fixtures, serde_json).

use std::io::Cursor;
use std::sync::OnceLock;

use ferroscale_index::source::{block_to_json_line, JsonLines};
use ferroscale_index::{decode_block, Block, Decoders, Rows, SpecDecoder, Table, Tables};

/// The input's first byte, modulo 4: an extrinsic of Polkadot spec
/// 1000001 (0) or spec 9180 (1), `System.Events` of spec 1000001 (2), or
/// JSON lines of a block file (3); the rest is those bytes.
pub fn index(data: &[u8]) {
    let (kind, bytes) = data.split_first().unwrap_or((&0, &[]));
    if kind % 4 == 3 {
        for block in JsonLines::new(Cursor::new(bytes)) {
            match block {
                Ok(block) => check(&block),
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
        return;
    }
    check(&item_block(data));
}

/// The block of an input of the first three kinds (see [`index`]): the
/// item alone in block 1.
pub fn item_block(data: &[u8]) -> Block {
    let (kind, bytes) = data.split_first().unwrap_or((&0, &[]));
    let (extrinsics, events) = if kind % 4 == 2 {
        (vec![], Some(bytes.to_vec()))
    } else {
        (vec![bytes.to_vec()], None)
    };
    Block {
        number: 1,
        hash: format!("0x{}", "00".repeat(32)),
        spec_version: if kind % 4 == 1 { 9180 } else { 1_000_001 },
        extrinsics,
        events,
        header: None,
        finalized: None,
    }
}

/// Seeds of the first three kinds: every extrinsic of blocks 18,468,942
/// and 10,000,000, and block 18,468,942's events.
pub fn item_seeds() -> Vec<Vec<u8>> {
    let tagged = |kind: u8, bytes: &[u8]| [&[kind][..], bytes].concat();
    let mut seeds: Vec<Vec<u8>> = extrinsics(BLOCK_18468942)
        .iter()
        .map(|x| tagged(0, x))
        .collect();
    seeds.extend(extrinsics(BLOCK_10000000).iter().map(|x| tagged(1, x)));
    seeds.push(tagged(
        2,
        &ferroscale_fixtures::read_hex(&format!("{BLOCK_18468942}/events.hex")),
    ));
    seeds
}

/// Seeds of JSON lines: short lines (block 10,000,000's timestamp
/// extrinsic, with and without events), so mutations reach every field.
pub fn line_seeds() -> Vec<Vec<u8>> {
    let timestamp = extrinsics(BLOCK_10000000).swap_remove(0);
    let block = |events: Option<Vec<u8>>| Block {
        number: 10_000_000,
        hash: format!("0x{}", "11".repeat(32)),
        spec_version: 9180,
        extrinsics: vec![timestamp.clone()],
        events,
        header: None,
        finalized: None,
    };
    [block(None), block(Some(vec![0]))]
        .iter()
        .map(|b| [&[3u8][..], block_to_json_line(b).as_bytes()].concat())
        .collect()
}

/// Every seed.
pub fn seeds() -> Vec<Vec<u8>> {
    let mut all = item_seeds();
    all.extend(line_seeds());
    all
}

/// The decoders of both runtimes, loaded once per process.
pub fn decoders() -> &'static Decoders {
    static DECODERS: OnceLock<Decoders> = OnceLock::new();
    DECODERS.get_or_init(|| {
        let mut decoders = Decoders::new();
        for name in [
            "metadata/polkadot-v14-spec9180.scale",
            "metadata/polkadot-v14-spec1000001.scale",
        ] {
            decoders.insert(
                SpecDecoder::from_metadata(&ferroscale_fixtures::read(name), None)
                    .unwrap_or_else(|e| panic!("{name}: {e}")),
            );
        }
        decoders
    })
}

const BLOCK_18468942: &str = "payloads/polkadot-block-18468942";
const BLOCK_10000000: &str = "payloads/polkadot-block-10000000";

fn extrinsics(block: &str) -> Vec<Vec<u8>> {
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(&format!(
        "{block}/extrinsics.json"
    )))
    .expect("extrinsics JSON");
    list.iter()
        .map(|h| ferroscale_core::hex::decode(h).expect("hex"))
        .collect()
}

/// Decodes `block` and checks its rows (see the module doc).
pub fn check(block: &Block) {
    let rows = decode_block(block, decoders().get(block.spec_version));
    check_rows(block, &rows);
}

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
        assert!(failed("events") <= usize::from(block.events.is_some()));
    }
    let json = |text: &str| {
        if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
            panic!("not JSON ({e}): {text:.200}");
        }
    };
    for r in rows.extrinsics.iter() {
        json(r.args);
        [r.signature, r.extensions, r.era, r.mode]
            .into_iter()
            .flatten()
            .for_each(json);
    }
    rows.calls.iter().for_each(|r| json(r.args));
    rows.events.iter().for_each(|r| json(r.args));
    let tables = Tables::from_rows(vec![rows.clone()]).expect("the tables build");
    assert_eq!(tables.num_rows(Table::Blocks), 1);
}
