//! What the index tests share: the real blocks as the pipeline's input,
//! Parquet read back, and JSON compared with dynamic values.

#![allow(dead_code)]

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use ferroscale_index::{Block, Decoders, SpecDecoder, Tables};
use ferroscale_value::Value;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

pub(crate) const META_9180: &str = "metadata/polkadot-v14-spec9180.scale";
pub(crate) const META_1000001: &str = "metadata/polkadot-v14-spec1000001.scale";

/// The fixtures carry no header: a stand-in hash (the block number's
/// blake2-256) keeps the hash column checkable.
fn stand_in_hash(number: u64) -> String {
    ferroscale_core::hex::encode_prefixed(&ferroscale_core::hashing::blake2_256(
        &number.to_le_bytes(),
    ))
}

fn extrinsics(name: &str) -> Vec<Vec<u8>> {
    let list: Vec<String> =
        serde_json::from_str(&ferroscale_fixtures::read_string(name)).expect("extrinsics JSON");
    list.iter()
        .map(|h| ferroscale_fixtures::decode_hex(h).expect("hex"))
        .collect()
}

/// Polkadot block 10,000,000 (spec 9180, no events in the fixture).
pub(crate) fn block_10000000() -> Block {
    Block {
        number: 10_000_000,
        hash: stand_in_hash(10_000_000),
        spec_version: 9180,
        extrinsics: extrinsics("payloads/polkadot-block-10000000/extrinsics.json"),
        events: None,
        header: None,
        finalized: None,
    }
}

/// Polkadot block 18,468,942 (spec 1000001) with its `System.Events`.
pub(crate) fn block_18468942() -> Block {
    Block {
        number: 18_468_942,
        hash: stand_in_hash(18_468_942),
        spec_version: 1_000_001,
        extrinsics: extrinsics("payloads/polkadot-block-18468942/extrinsics.json"),
        events: Some(ferroscale_fixtures::read_hex(
            "payloads/polkadot-block-18468942/events.hex",
        )),
        header: None,
        finalized: None,
    }
}

/// The loopback test node over blocks 100–115: 100–110 built with spec 9180 (110 sets the new code, so
/// the node reports spec 1,000,001 in its state but it ran on 9180),
/// 111–115 with spec 1,000,001.
#[cfg(feature = "rpc")]
pub(crate) fn upgrade_node() -> ferroscale_rpc::test_server::TestNode {
    upgrade_node_with(|_, _| {})
}

/// [`upgrade_node`] with each block changed by `change` (given its
/// number) before the node serves it.
#[cfg(feature = "rpc")]
pub(crate) fn upgrade_node_with(
    change: impl Fn(u64, &mut ferroscale_rpc::test_server::TestBlock),
) -> ferroscale_rpc::test_server::TestNode {
    let read = ferroscale_fixtures::read;
    let a = ferroscale_rpc::test_server::TestRuntime::new("polkadot", 9180, vec![read(META_9180)]);
    let b = ferroscale_rpc::test_server::TestRuntime::new(
        "polkadot",
        1_000_001,
        vec![read(META_1000001)],
    );
    let old = block_10000000();
    let new = block_18468942();
    let mut node = ferroscale_rpc::test_server::TestNode::new(a)
        .runtime(b)
        .first_number(100);
    for n in 100..=115u64 {
        let (runtime, template) = match n {
            ..=109 => (0, &old),
            110 => (1, &old),
            _ => (1, &new),
        };
        let mut block = ferroscale_rpc::test_server::TestBlock {
            runtime,
            extrinsics: template.extrinsics.clone(),
            events: template.events.clone(),
        };
        change(n, &mut block);
        node = node.block(block);
    }
    node
}

/// Decoders of both runtimes.
pub(crate) fn decoders() -> Decoders {
    let mut d = Decoders::new();
    for name in [META_9180, META_1000001] {
        d.insert(SpecDecoder::from_metadata(&ferroscale_fixtures::read(name), None).expect(name));
    }
    d
}

/// `blocks` decoded into tables on a pool of `threads` threads.
pub(crate) fn decode_on_threads(threads: usize, blocks: &[Block], decoders: &Decoders) -> Tables {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    pool.install(|| ferroscale_index::pipeline::decode_blocks(blocks, decoders))
        .expect("tables")
}

/// A fresh, empty folder for one test.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("index-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Every record batch of a Parquet file.
pub(crate) fn read_parquet(path: &Path) -> Vec<RecordBatch> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .build()
        .expect("reader")
        .collect::<Result<Vec<_>, _>>()
        .expect("batches")
}

/// The count prefix of a SCALE vector (compact integer), read by hand.
pub(crate) fn compact_prefix(bytes: &[u8]) -> u64 {
    match bytes[0] & 3 {
        0 => (bytes[0] >> 2) as u64,
        1 => (u16::from_le_bytes([bytes[0], bytes[1]]) >> 2) as u64,
        2 => (u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) >> 2) as u64,
        _ => panic!("count prefix too large for a test block"),
    }
}

/// A JSON document with object keys in order (serde_json's own map sorts them).
#[derive(Debug, PartialEq)]
pub(crate) enum J {
    Null,
    Bool(bool),
    U(u64),
    I(i64),
    F(f64),
    S(String),
    A(Vec<J>),
    O(Vec<(String, J)>),
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = J;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<J, E> {
                Ok(J::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<J, E> {
                Ok(J::Bool(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<J, E> {
                Ok(J::U(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<J, E> {
                Ok(J::I(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<J, E> {
                Ok(J::F(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<J, E> {
                Ok(J::S(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<J, A::Error> {
                let mut items = Vec::new();
                while let Some(i) = a.next_element()? {
                    items.push(i);
                }
                Ok(J::A(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<J, A::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = a.next_entry()? {
                    entries.push((k, v));
                }
                Ok(J::O(entries))
            }
        }
        d.deserialize_any(V)
    }
}

/// Parses a JSON column's text (panicking with the text when it is not JSON).
pub(crate) fn parse_json(text: &str) -> J {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// What a dynamic value must read as in JSON: dicts as objects in field
/// order, lists and tuples as arrays, integers beyond 64 bits as the nearest
/// double (what serde_json parses such a number to).
pub(crate) fn expected_json(v: &Value) -> J {
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::UInt(u) => u64::try_from(*u).map_or(J::F(*u as f64), J::U),
        Value::Int(i) => match (u64::try_from(*i), i64::try_from(*i)) {
            (Ok(u), _) => J::U(u),
            (_, Ok(i)) => J::I(i),
            _ => J::F(*i as f64),
        },
        Value::U256(_) | Value::I256(_) => J::F(v.to_string().parse().expect("decimal")),
        Value::Str(s) => J::S(s.to_string()),
        Value::List(items) | Value::Tuple(items) => J::A(items.iter().map(expected_json).collect()),
        Value::Dict(entries) => J::O(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), expected_json(v)))
                .collect(),
        ),
    }
}
