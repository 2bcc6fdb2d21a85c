//! A [`Value`] as compact JSON text: the one rendering of the index's JSON
//! columns, and the string escaping `Value`'s `Display` uses too.
//!
//! Shapes map one to one: dicts are objects in field order, lists and tuples
//! are arrays, integers of any width are exact JSON numbers (never rounded
//! through `f64`), text is a JSON string. The pieces ([`write_str`],
//! [`write_u128`], [`write_i128`]) are public for writers of other value
//! representations (the index renders the decoder's documents in place).

use std::fmt::{self, Write};

use crate::Value;

/// Appends the JSON text of `value` to `out`.
pub fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::UInt(v) => write_u128(*v, out),
        Value::Int(v) => write_i128(*v, out),
        // `Display` renders 256-bit integers as exact decimal digits.
        Value::U256(_) | Value::I256(_) => {
            let _ = write!(out, "{value}");
        }
        Value::Str(s) => write_str(s, out),
        Value::List(items) | Value::Tuple(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Dict(entries) => {
            out.push('{');
            for (i, (key, item)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(key, out);
                out.push(':');
                write_json(item, out);
            }
            out.push('}');
        }
    }
}

/// The JSON text of `value`.
pub fn to_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out);
    out
}

/// Decimal digits of `v` (through `u64` when it fits: formatting a `u128`
/// is several times slower, and most chain integers are small).
#[inline]
pub fn write_u128(v: u128, out: &mut String) {
    match u64::try_from(v) {
        Ok(small) => write_u64(small, out),
        Err(_) => {
            let _ = write!(out, "{v}");
        }
    }
}

/// Decimal digits of `v`, with a sign when negative (through `i64` when it fits).
#[inline]
pub fn write_i128(v: i128, out: &mut String) {
    match i64::try_from(v) {
        Ok(small) => {
            if small < 0 {
                out.push('-');
            }
            write_u64(small.unsigned_abs(), out);
        }
        Err(_) => {
            let _ = write!(out, "{v}");
        }
    }
}

/// The decimal digits of `v`, two at a time from a table (what `Display`
/// does too, without going through `fmt::Write` and its formatter).
fn write_u64(mut v: u64, out: &mut String) {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    // u64::MAX has 20 digits.
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        buf[at] = b'0' + v as u8;
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&buf[at..]).unwrap_or_default());
}

/// Whether any byte of `bytes` must be escaped. Looked at 32 bytes at a time
/// without stopping early inside a chunk, which the compiler turns into a
/// few vector compares: most of the JSON columns' bytes are long hex and bit
/// strings that need no escape, and a byte-at-a-time scan was most of the
/// rendering time.
#[inline]
fn needs_escape(bytes: &[u8]) -> bool {
    let (chunks, rest) = bytes.as_chunks::<CHUNK>();
    if chunks.iter().any(chunk_needs_escape) {
        return true;
    }
    if bytes.len() >= CHUNK {
        // The last whole chunk, overlapping what was looked at already.
        let (_, last) = bytes.split_at(bytes.len() - CHUNK);
        return last.as_chunks::<CHUNK>().0.iter().any(chunk_needs_escape);
    }
    // Short text (keys, names, small hex): eight bytes at a time in a word.
    let (words, tail) = rest.as_chunks::<8>();
    words
        .iter()
        .any(|w| word_needs_escape(u64::from_le_bytes(*w)))
        || tail
            .iter()
            .any(|&b| (b < 0x20) | (b == b'"') | (b == b'\\'))
}

/// Bytes looked at together by [`needs_escape`].
const CHUNK: usize = 32;

#[inline(always)]
fn chunk_needs_escape(chunk: &[u8; CHUNK]) -> bool {
    let mut any = false;
    for &b in chunk {
        any |= (b < 0x20) | (b == b'"') | (b == b'\\');
    }
    any
}

/// Whether a byte of `w` is below 0x20, a quote or a backslash (the exact
/// "has a byte less than n" and "has a zero byte" word tests).
#[inline(always)]
fn word_needs_escape(w: u64) -> bool {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES * 0x80;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    (below_space | zero(w ^ (ONES * b'"' as u64)) | zero(w ^ (ONES * b'\\' as u64))) != 0
}

/// Appends `s` as a JSON string literal (RFC 8259 escapes: quote,
/// backslash, control characters).
#[inline]
pub fn write_str(s: &str, out: &mut String) {
    out.reserve(s.len() + 2);
    // Writing to a `String` cannot fail.
    let _ = write_str_to(s, out);
}

/// [`write_str`] into any `fmt::Write` (what `Value`'s `Display` uses).
pub fn write_str_to<W: Write + ?Sized>(s: &str, out: &mut W) -> fmt::Result {
    out.write_char('"')?;
    // Most chain text (hex, names, SS58) needs no escape: one scan, one copy.
    if !needs_escape(s.as_bytes()) {
        out.write_str(s)?;
        return out.write_char('"');
    }
    let mut plain = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0..=0x1f => None,
            _ => continue,
        };
        out.write_str(&s[plain..i])?;
        match escape {
            Some(e) => out.write_str(e)?,
            None => write!(out, "\\u{b:04x}")?,
        }
        plain = i + 1;
    }
    out.write_str(&s[plain..])?;
    out.write_char('"')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_escapes() {
        let v = Value::Dict(vec![
            ("a\"b".into(), Value::UInt(u128::MAX)),
            (
                "t".into(),
                Value::Tuple(vec![Value::Int(-3), Value::Null, Value::Bool(false)]),
            ),
            ("s".into(), Value::str("x\u{1}\n\\é")),
            ("big".into(), Value::U256(Box::new([0xff; 32]))),
        ]);
        assert_eq!(
            to_json(&v),
            format!(
                r#"{{"a\"b":{},"t":[-3,null,false],"s":"x\u0001\n\\é","big":{}}}"#,
                u128::MAX,
                "115792089237316195423570985008687907853269984665640564039457584007913129639935"
            )
        );
        let parsed: serde_json::Value = serde_json::from_str(&to_json(&v)).expect("valid JSON");
        assert_eq!(parsed["s"], "x\u{1}\n\\é");
    }
}
