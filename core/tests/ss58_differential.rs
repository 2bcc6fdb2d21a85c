//! SS58 against py-scale-codec 1.2.12 (`scalecodec.utils.ss58`), run once in
//! the reference venv (`$FERROSCALE_REF_PYTHON`, set by `cargo xtask test`).
//!
//! Seeded random cases go both ways: both sides encode the same (format,
//! payload) pairs; each side decodes the other's addresses; both decode
//! hand-built raw addresses (any first byte, any length, checksums of every
//! length) and corrupted ones; both encode and decode account indices.
//!
//! The answers must be equal (same address, same format and payload, or both
//! an error), except in the three places where we deliberately differ; each is
//! recognised from the input bytes alone, counted, and must be seen:
//! - first byte 128–255: the spec reserves it; py reads a format anyway.
//! - a two-byte format with 1–16 bytes after it (account indices): py picks
//!   the checksum length from the *total* length with the one-byte table, so
//!   it cannot decode its own 2/4/8-byte indices under formats ≥ 64; we read
//!   the table on the length after the format.
//! - trailing whitespace: py's base58 strips it; an address with it is not an
//!   address to us (the Python layer can strip before calling in).

use std::collections::BTreeMap;

use blake2::{Blake2b512, Digest};
use ferroscale_core::ss58;
use serde_json::{json, Value as Json};

const REFERENCE: &str = r#"
import sys, json
from scalecodec.utils.ss58 import (ss58_encode, ss58_decode, get_ss58_format,
    ss58_encode_account_index, ss58_decode_account_index)

def attempt(f):
    try:
        return {"ok": f()}
    except Exception as e:
        return {"err": type(e).__name__ + ": " + str(e)}

req = json.load(sys.stdin)
out = {
    "encode": [attempt(lambda: ss58_encode(bytes.fromhex(p), f)) for f, p in req["encode"]],
    "decode": [attempt(lambda: [get_ss58_format(a), ss58_decode(a)]) for a in req["decode"]],
    "encode_index": [attempt(lambda: ss58_encode_account_index(i, f)) for i, f in req["encode_index"]],
    "decode_index": [attempt(lambda: ss58_decode_account_index(a)) for a in req["decode_index"]],
}
json.dump(out, sys.stdout)
"#;

/// splitmix64: a small seeded generator so every run sees the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

const EDGE_FORMATS: [u16; 18] = [
    0, 1, 2, 5, 42, 45, 46, 47, 48, 63, 64, 65, 255, 256, 16382, 16383, 16384, 20000,
];

fn random_format(rng: &mut Rng) -> u16 {
    match rng.below(10) {
        0..=3 => rng.below(64) as u16,
        4..=8 => 64 + rng.below(16384 - 64) as u16,
        _ => rng.pick(&EDGE_FORMATS),
    }
}

fn random_payload_len(rng: &mut Rng) -> usize {
    if rng.below(10) == 0 {
        rng.pick(&[0, 3, 7, 16, 31, 34, 65])
    } else {
        rng.pick(&ss58::PAYLOAD_LENGTHS)
    }
}

/// A raw address built by hand: `prefix ++ payload ++ first checksum_len bytes
/// of the SS58 hash`, base58-encoded. No code of ours is involved.
fn handmade(prefix_and_payload: &[u8], checksum_len: usize) -> String {
    let hash = Blake2b512::new()
        .chain_update(b"SS58PRE")
        .chain_update(prefix_and_payload)
        .finalize();
    let mut raw = prefix_and_payload.to_vec();
    raw.extend_from_slice(&hash[..checksum_len.min(64)]);
    bs58::encode(raw).into_string()
}

/// The checksum length py-scale-codec reads from a total decoded length
/// (its table), so hand-made addresses also probe what it accepts.
fn py_checksum_len(total: usize, two_byte: bool) -> usize {
    let key = if two_byte { 2 } else { 1 };
    match total {
        3 | 4 | 6 | 10 => 1,
        5 | 7 | 11 => 2,
        t if t == 34 + key || t == 35 + key => 2,
        8 | 12 => 3,
        9 | 13 => 4,
        14..=17 => total - 9,
        _ => 2,
    }
}

/// Which deliberate difference, if any, an input falls under.
fn allowed_difference(address: &str) -> Option<&'static str> {
    if address != address.trim_end() {
        return Some("trailing whitespace");
    }
    let raw = bs58::decode(address).into_vec().ok()?;
    match raw.first()? {
        128..=255 => Some("first byte 128-255"),
        64..=127 if (3..=18).contains(&raw.len()) => Some("two-byte format, index lengths"),
        _ => None,
    }
}

fn ours_decode(address: &str) -> Json {
    match ss58::decode(address, None) {
        Ok(d) => json!({"ok": [d.format, ferroscale_core::hex::encode_prefixed(&d.payload)[2..]]}),
        Err(e) => json!({"err": e.to_string()}),
    }
}

fn ours<T: Into<Json>>(r: Result<T, ferroscale_core::Error>) -> Json {
    match r {
        Ok(v) => json!({"ok": v.into()}),
        Err(e) => json!({"err": e.to_string()}),
    }
}

/// Equal answers: both `ok` with the same value, or both errors (messages differ).
fn same(a: &Json, b: &Json) -> bool {
    match (a.get("ok"), b.get("ok")) {
        (Some(x), Some(y)) => x == y,
        (None, None) => true,
        _ => false,
    }
}

#[derive(Default)]
struct Tally {
    agreed_ok: usize,
    agreed_err: usize,
    allowed: BTreeMap<&'static str, usize>,
    mismatches: Vec<String>,
}

impl Tally {
    fn compare(
        &mut self,
        what: &str,
        input: &str,
        ours: &Json,
        theirs: &Json,
        allowed: Option<&'static str>,
    ) {
        if same(ours, theirs) {
            if ours.get("ok").is_some() {
                self.agreed_ok += 1;
            } else {
                self.agreed_err += 1;
            }
        } else if let Some(reason) = allowed {
            *self.allowed.entry(reason).or_default() += 1;
        } else {
            self.mismatches.push(format!(
                "{what} {input}: ours {ours}, py-scale-codec {theirs}"
            ));
        }
    }
}

#[test]
fn agrees_with_py_scale_codec_both_ways() {
    let mut rng = Rng(0x5eed_5558);

    // 1. The same (format, payload) pairs for both encoders.
    let encode_cases: Vec<(u16, Vec<u8>)> = (0..3000)
        .map(|_| {
            let format = random_format(&mut rng);
            let len = random_payload_len(&mut rng);
            (format, rng.bytes(len))
        })
        .collect();
    let our_encodings: Vec<Json> = encode_cases
        .iter()
        .map(|(f, p)| ours(ss58::encode(p, *f)))
        .collect();

    // 2. Addresses both sides decode: ours (py decodes them, we check we
    //    agree with ourselves through py), hand-made ones, corrupted ones.
    let mut decode_inputs: Vec<String> = our_encodings
        .iter()
        .filter_map(|r| r.get("ok").and_then(Json::as_str).map(str::to_owned))
        .collect();
    let valid_count = decode_inputs.len();
    for _ in 0..3000 {
        let first = match rng.below(4) {
            0 => rng.below(64) as u8,
            1 => 64 + rng.below(64) as u8,
            2 => 128 + rng.below(128) as u8,
            _ => rng.pick(&[46u8, 47, 0x40, 0x4b, 0x7f]),
        };
        let two_byte = first & 0b0100_0000 != 0;
        let mut body = vec![first];
        if two_byte || rng.below(2) == 0 {
            body.push(rng.next() as u8);
        }
        let payload_len = if rng.below(2) == 0 {
            rng.pick(&ss58::PAYLOAD_LENGTHS)
        } else {
            rng.below(36) as usize
        };
        body.extend(rng.bytes(payload_len));
        let checksum_len = match rng.below(3) {
            0 => py_checksum_len(body.len() + 2, two_byte),
            1 => 1 + rng.below(8) as usize,
            _ => 2,
        };
        decode_inputs.push(handmade(&body, checksum_len));
    }
    const BASE58: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    for _ in 0..1500 {
        let base = decode_inputs[rng.below(valid_count as u64) as usize].clone();
        let mut chars: Vec<u8> = base.into_bytes();
        let at = rng.below(chars.len() as u64) as usize;
        match rng.below(7) {
            0 => chars[at] = rng.pick(BASE58),
            1 => chars.insert(at, rng.pick(BASE58)),
            2 => {
                chars.remove(at);
            }
            3 => {
                let other = rng.below(chars.len() as u64) as usize;
                chars.swap(at, other)
            }
            4 => chars.insert(0, b'1'),
            5 => chars.push(rng.pick(b" \n\t")),
            _ => chars[at] = rng.pick(b"0OIl+/ "),
        }
        decode_inputs.push(String::from_utf8(chars).unwrap());
    }
    decode_inputs.extend([
        "".to_owned(),
        "1".to_owned(),
        "1".repeat(60),
        "z".repeat(52),
    ]);

    // 3. Account indices of every width.
    let index_cases: Vec<(u64, u16)> = (0..600)
        .map(|_| {
            let bits = rng.pick(&[8u32, 16, 32, 64]);
            let index = if bits == 64 {
                rng.next()
            } else {
                rng.next() % (1u64 << bits)
            };
            (index, random_format(&mut rng).min(16383))
        })
        .collect();
    let our_index_encodings: Vec<Json> = index_cases
        .iter()
        .map(|(i, f)| ours(ss58::encode_account_index(*i, *f)))
        .collect();
    let index_addresses: Vec<String> = our_index_encodings
        .iter()
        .filter_map(|r| r.get("ok").and_then(Json::as_str).map(str::to_owned))
        .collect();

    let request = json!({
        "encode": encode_cases.iter().map(|(f, p)| json!([f, ferroscale_core::hex::encode_prefixed(p)[2..]])).collect::<Vec<_>>(),
        "decode": decode_inputs,
        "encode_index": index_cases.iter().map(|(i, f)| json!([i, f])).collect::<Vec<_>>(),
        "decode_index": index_addresses,
    });
    let reply: Json = serde_json::from_str(&ferroscale_test_support::reference::run_python(
        REFERENCE,
        request.to_string().as_bytes(),
    ))
    .expect("reference reply is JSON");
    let list = |key: &str| reply[key].as_array().cloned().unwrap_or_default();
    let (py_encode, py_decode, py_encode_index, py_decode_index) = (
        list("encode"),
        list("decode"),
        list("encode_index"),
        list("decode_index"),
    );
    assert_eq!(py_encode.len(), encode_cases.len());
    assert_eq!(py_decode.len(), decode_inputs.len());
    assert_eq!(py_encode_index.len(), index_cases.len());
    assert_eq!(py_decode_index.len(), index_addresses.len());

    let mut encode = Tally::default();
    let mut decode = Tally::default();
    let mut index = Tally::default();

    for (i, (format, payload)) in encode_cases.iter().enumerate() {
        let input = format!("({format}, {} bytes)", payload.len());
        encode.compare("encode", &input, &our_encodings[i], &py_encode[i], None);
        // py's addresses, decoded by us, must give back what py encoded.
        if let Some(address) = py_encode[i].get("ok").and_then(Json::as_str) {
            let back = ss58::decode(address, Some(*format))
                .unwrap_or_else(|e| panic!("py-scale-codec's {address} for {input}: {e}"));
            assert_eq!(&back.payload, payload, "{address}");
        }
    }
    for (i, address) in decode_inputs.iter().enumerate() {
        decode.compare(
            "decode",
            &format!("{address:?}"),
            &ours_decode(address),
            &py_decode[i],
            allowed_difference(address),
        );
    }
    for (i, (value, format)) in index_cases.iter().enumerate() {
        index.compare(
            "encode_account_index",
            &format!("({value}, {format})"),
            &our_index_encodings[i],
            &py_encode_index[i],
            None,
        );
    }
    for (i, address) in index_addresses.iter().enumerate() {
        index.compare(
            "decode_account_index",
            address,
            &ours(ss58::decode_account_index(address, None)),
            &py_decode_index[i],
            allowed_difference(address),
        );
    }

    for (name, t) in [
        ("encode", &encode),
        ("decode", &decode),
        ("account index", &index),
    ] {
        eprintln!(
            "ss58 vs py-scale-codec, {name}: {} agreed (accepted), {} agreed (rejected), deliberate differences {:?}, mismatches {}",
            t.agreed_ok,
            t.agreed_err,
            t.allowed,
            t.mismatches.len()
        );
        assert!(
            t.mismatches.is_empty(),
            "{name}: {} mismatches, first ones:\n{}",
            t.mismatches.len(),
            t.mismatches[..t.mismatches.len().min(10)].join("\n")
        );
    }
    // The comparison must have had substance on both sides of each question.
    assert!(encode.agreed_ok > 2000 && encode.agreed_err > 100);
    assert!(decode.agreed_ok > 2000 && decode.agreed_err > 1500);
    assert!(index.agreed_ok > 600);
    // Every deliberate difference was actually met, so each is known to exist.
    for reason in [
        "first byte 128-255",
        "two-byte format, index lengths",
        "trailing whitespace",
    ] {
        assert!(decode.allowed.contains_key(reason), "never met: {reason}");
    }
    assert!(index.allowed.contains_key("two-byte format, index lengths"));
}
