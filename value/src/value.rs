//! The dynamic value: what a SCALE-encoded datum decodes to when no Rust type
//! was compiled for it, in exactly the shapes py-scale-codec 1.2.12 gives.
//!
//! | SCALE type | `Value` |
//! |---|---|
//! | integers, `Compact` | [`Value::UInt`] / [`Value::Int`] (256-bit: [`Value::U256`] / [`Value::I256`]) |
//! | bool | [`Value::Bool`] |
//! | `[u8; N]`, H256, AccountId without ss58 format | [`Value::Str`] `"0x…"` |
//! | `Vec<u8>`, Bytes, Str | [`Value::Str`]: the text if valid UTF-8, else `"0x…"` |
//! | `Vec<T>`, `[T; N]` | [`Value::List`] |
//! | tuple | [`Value::Tuple`] (a 1-tuple is unwrapped to its element) |
//! | struct | [`Value::Dict`] in field order |
//! | enum | [`Value::Str`] `"Name"` for a unit variant, else a one-entry [`Value::Dict`] |
//! | Option | [`Value::Null`] or the inner value |
//! | BTreeMap | [`Value::List`] of 2-element [`Value::Tuple`]s |
//! | bit sequence | [`Value::Str`] `"0b…"` |
//!
//! Names (struct fields, enum variants) are [`Name`]s: reference-counted, so a
//! decoder prepared once can hand them out without allocating per value.

use std::fmt;
use std::sync::Arc;

/// A shared, immutable string: field names, variant names and decoded text.
pub type Name = Arc<str>;

/// A dynamically typed SCALE value in py-scale-codec's shapes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Python `None`: `()`, `Null`, an absent `Option`.
    Null,
    /// A boolean.
    Bool(bool),
    /// An unsigned integer up to 128 bits (also every `Compact`).
    UInt(u128),
    /// A signed integer up to 128 bits.
    Int(i128),
    /// A 256-bit unsigned integer, little-endian bytes (only when it does
    /// not fit in [`Value::UInt`]). Boxed: these are rare, and inline they
    /// would make every `Value` 48 bytes instead of 32.
    U256(Box<[u8; 32]>),
    /// A 256-bit signed integer, little-endian two's complement bytes (only
    /// when it does not fit in [`Value::Int`]); boxed like [`Value::U256`].
    I256(Box<[u8; 32]>),
    /// Text: decoded strings, `"0x…"` hex, unit enum variants, `"0b…"` bits.
    Str(Name),
    /// A Python list: `Vec<T>`, arrays, maps as lists of pairs.
    List(Vec<Value>),
    /// A Python tuple.
    Tuple(Vec<Value>),
    /// A Python dict with ordered keys: structs, enum variants with data.
    Dict(Vec<(Name, Value)>),
}

impl Value {
    /// Text value from anything string-like.
    pub fn str(s: impl Into<Name>) -> Self {
        Value::Str(s.into())
    }

    /// `"0x…"` hex text of `bytes`.
    pub fn hex(bytes: &[u8]) -> Self {
        ferroscale_core::hex::with_prefixed(bytes, |text| Value::Str(text.into()))
    }

    /// py-scale-codec's rendering of a byte string: UTF-8 text when valid, else `"0x…"`.
    pub fn bytes_or_text(bytes: &[u8]) -> Self {
        match std::str::from_utf8(bytes) {
            Ok(text) => Value::Str(text.into()),
            Err(_) => Value::hex(bytes),
        }
    }

    /// An enum variant: `"Name"` when it carries nothing, else `{"Name": inner}`.
    pub fn variant(name: Name, inner: Option<Value>) -> Self {
        match inner {
            None => Value::Str(name),
            Some(v) => Value::Dict(vec![(name, v)]),
        }
    }

    /// The field of a dict by name.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Dict(entries) => entries.iter().find(|(k, _)| &**k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The unsigned integer, when this is one that fits in `u128`.
    pub fn as_u128(&self) -> Option<u128> {
        match *self {
            Value::UInt(v) => Some(v),
            Value::Int(v) => u128::try_from(v).ok(),
            _ => None,
        }
    }

    /// The text, when this is a [`Value::Str`].
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of a list or tuple.
    pub fn as_items(&self) -> Option<&[Value]> {
        match self {
            Value::List(v) | Value::Tuple(v) => Some(v),
            _ => None,
        }
    }
}

/// JSON (tuples as arrays, integers of any width as JSON numbers, strings
/// escaped as JSON requires): what the CLI prints, the columnar output
/// stores, and what is compared with py-scale-codec's values serialised to
/// JSON.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn seq(f: &mut fmt::Formatter<'_>, items: &[Value]) -> fmt::Result {
            f.write_str("[")?;
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{v}")?;
            }
            f.write_str("]")
        }
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::UInt(v) => write!(f, "{v}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::U256(le) => f.write_str(&u256_to_decimal(le)),
            Value::I256(le) => {
                if le[31] & 0x80 == 0 {
                    f.write_str(&u256_to_decimal(le))
                } else {
                    // two's complement magnitude
                    let mut mag = [0u8; 32];
                    let mut carry = 1u16;
                    for (m, b) in mag.iter_mut().zip(le.iter()) {
                        let s = (!b) as u16 + carry;
                        *m = s as u8;
                        carry = s >> 8;
                    }
                    write!(f, "-{}", u256_to_decimal(&mag))
                }
            }
            Value::Str(s) => crate::json::write_str_to(s, f),
            Value::List(items) | Value::Tuple(items) => seq(f, items),
            Value::Dict(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    crate::json::write_str_to(k, f)?;
                    write!(f, ": {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// Decimal digits of a little-endian 256-bit unsigned integer.
pub(crate) fn u256_to_decimal(le: &[u8; 32]) -> String {
    let mut limbs: Vec<u32> = le
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut digits = Vec::new();
    while limbs.iter().any(|&l| l != 0) {
        let mut rem = 0u64;
        for limb in limbs.iter_mut().rev() {
            let cur = (rem << 32) | *limb as u64;
            *limb = (cur / 10) as u32;
            rem = cur % 10;
        }
        digits.push(b'0' + rem as u8);
    }
    if digits.is_empty() {
        return "0".into();
    }
    digits.reverse();
    String::from_utf8(digits).expect("ascii digits")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_py_shapes() {
        let v = Value::Dict(vec![
            ("a".into(), Value::UInt(1)),
            ("b".into(), Value::variant("Unit".into(), None)),
            (
                "c".into(),
                Value::Tuple(vec![Value::Bool(true), Value::Null]),
            ),
        ]);
        assert_eq!(v.to_string(), r#"{"a": 1, "b": "Unit", "c": [true, null]}"#);
        assert_eq!(v.get("a").and_then(Value::as_u128), Some(1));
        assert_eq!(Value::bytes_or_text(b"hi"), Value::str("hi"));
        assert_eq!(Value::bytes_or_text(&[0xff]), Value::str("0xff"));
    }

    #[test]
    fn u256_decimal() {
        let mut le = [0u8; 32];
        le[0] = 0xff;
        le[1] = 0x01;
        assert_eq!(u256_to_decimal(&le), "511");
        assert_eq!(Value::I256(Box::new([0xff; 32])).to_string(), "-1");
        assert_eq!(u256_to_decimal(&[0xff; 32]).len(), 78);
    }

    #[test]
    fn strings_render_as_json_a_json_parser_reads_back() {
        // Every ASCII control character, quotes, backslashes and non-ASCII
        // text, in keys and in values.
        let text: String = (0u8..0x20)
            .map(char::from)
            .chain("\"\\/ é ✓ \u{7f}".chars())
            .collect();
        let v = Value::Dict(vec![(text.as_str().into(), Value::str(text.as_str()))]);
        let parsed: serde_json::Value = serde_json::from_str(&v.to_string()).expect("valid JSON");
        assert_eq!(parsed, serde_json::json!({ text.clone(): text }));
    }

    #[test]
    fn value_stays_small() {
        // Every list item and dict entry holds a `Value` inline: an inline
        // 32-byte variant would make them all 48 bytes.
        assert_eq!(std::mem::size_of::<Value>(), 32);
    }
}
