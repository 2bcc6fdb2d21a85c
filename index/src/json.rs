//! A [`Value`] as JSON text: the one rendering of every JSON column.
//!
//! `Value`'s `Display` is JSON-like but escapes strings the Rust way
//! (`\u{1f}`), so the columns use this writer instead. Shapes map one to one:
//! dicts are objects in field order, lists and tuples are arrays, integers
//! of any width are exact JSON numbers (never rounded through `f64`), text is
//! a JSON string.

use std::fmt::Write;

use ferroscale_dynamic::document::Kind;
use ferroscale_dynamic::ValueRef;
use ferroscale_value::Value;

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
        Value::Str(s) => write_string(s, out),
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
                write_string(key, out);
                out.push(':');
                write_json(item, out);
            }
            out.push('}');
        }
    }
}

/// Appends the JSON text of a [`ferroscale_dynamic::Document`]'s value: the
/// same text [`write_json`] gives for that value's `to_value()` (the
/// decoder's fast output, read in place).
pub fn write_json_ref(value: ValueRef<'_, '_>, out: &mut String) {
    match value.kind() {
        Kind::Null => out.push_str("null"),
        Kind::Bool => out.push_str(if value.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }),
        Kind::Int => match (value.as_u128(), value.as_i128()) {
            (Some(v), _) => write_u128(v, out),
            (None, Some(v)) => write_i128(v, out),
            // 256-bit integers: rare, rendered through the value.
            (None, None) => write_json(&value.to_value(), out),
        },
        Kind::Str => write_string(value.as_str().unwrap_or_default(), out),
        Kind::List | Kind::Tuple => {
            out.push('[');
            for (i, item) in value.items().into_iter().flatten().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_ref(item, out);
            }
            out.push(']');
        }
        Kind::Dict => {
            out.push('{');
            for (i, (key, item)) in value.entries().into_iter().flatten().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_json_ref(item, out);
            }
            out.push('}');
        }
    }
}

/// The JSON text of a document's value.
pub fn ref_to_json(value: ValueRef<'_, '_>) -> String {
    let mut out = String::new();
    write_json_ref(value, &mut out);
    out
}

/// The JSON text of `value`.
pub fn to_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out);
    out
}

/// Decimal digits of `v` (through `u64` when it fits: formatting a `u128`
/// is several times slower, and most chain integers are small).
fn write_u128(v: u128, out: &mut String) {
    let _ = match u64::try_from(v) {
        Ok(small) => write!(out, "{small}"),
        Err(_) => write!(out, "{v}"),
    };
}

fn write_i128(v: i128, out: &mut String) {
    let _ = match i64::try_from(v) {
        Ok(small) => write!(out, "{small}"),
        Err(_) => write!(out, "{v}"),
    };
}

/// A JSON string literal (RFC 8259 escapes: quote, backslash, control characters).
fn write_string(s: &str, out: &mut String) {
    out.push('"');
    // Most chain text (hex, names, SS58) needs no escape: one scan, one copy.
    if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(s);
        out.push('"');
        return;
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
        out.push_str(&s[plain..i]);
        match escape {
            Some(e) => out.push_str(e),
            None => {
                let _ = write!(out, "\\u{b:04x}");
            }
        }
        plain = i + 1;
    }
    out.push_str(&s[plain..]);
    out.push('"');
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
