//! What the index tests share: the real blocks as the pipeline's input,
//! the loopback node across the upgrade, Parquet read back, and JSON
//! compared with dynamic values.

#![allow(dead_code)]

mod dataset;
mod polkadot;
#[cfg(feature = "rpc")]
mod upgrade_node;

// Each test file is a crate of its own and uses only some of these.
#[allow(unused_imports)]
pub(crate) use dataset::*;
#[allow(unused_imports)]
pub(crate) use polkadot::*;
#[cfg(feature = "rpc")]
#[allow(unused_imports)]
pub(crate) use upgrade_node::*;

use ferroscale_index::{Block, Decoders, SpecDecoder, Tables};
use ferroscale_value::Value;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// The fixtures carry no header: a stand-in hash (the block number's
/// blake2-256) keeps the hash column checkable.
fn stand_in_hash(number: u64) -> String {
    ferroscale_core::hex::encode_prefixed(&ferroscale_core::hashing::blake2_256(
        &number.to_le_bytes(),
    ))
}

/// Polkadot block 10,000,000 (spec 9180, no events in the fixture).
pub(crate) fn block_10000000() -> Block {
    Block {
        number: 10_000_000,
        hash: stand_in_hash(10_000_000),
        spec_version: 9180,
        extrinsics: extrinsic_bytes(BLOCK_10M),
        events: None,
        header: None,
        finalized: None,
    }
}

/// Polkadot block 5,000,000 (spec 30, V12 metadata; no events in the fixture).
pub(crate) fn block_5000000() -> Block {
    Block {
        number: 5_000_000,
        hash: stand_in_hash(5_000_000),
        spec_version: 30,
        extrinsics: extrinsic_bytes(BLOCK_5M),
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
        extrinsics: extrinsic_bytes(BLOCK_18M),
        events: Some(ferroscale_fixtures::read_hex(EVENTS_18M)),
        header: None,
        finalized: None,
    }
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
