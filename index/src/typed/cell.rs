//! A decoded value checked against its column's [`Shape`]: a [`Cell`],
//! owned, built before anything is appended, so a value that does not fit
//! fails whole (an `errors` row) and never leaves a column half-written.

use ferroscale_dynamic::document::Kind;
use ferroscale_dynamic::ValueRef;
use ferroscale_value::Value;

use super::arrow_type::unwrap_option;
use super::shape::Shape;
use super::wide;
pub use super::wide::WideCell;

/// One value of a typed column, ready to append.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// NULL.
    Null,
    /// A boolean.
    Bool(bool),
    /// An unsigned integer up to 64 bits.
    UInt(u64),
    /// A signed integer up to 64 bits.
    Int(i64),
    /// A wide integer: the decimal when |v| < 10^38, else the digits.
    Wide(WideCell),
    /// Text (also JSON and enum labels).
    Text(String),
    /// Bytes (binary and fixed-size binary).
    Bytes(Vec<u8>),
    /// A list's items.
    List(Vec<Cell>),
    /// A struct's fields, in the shape's order (an enum: the variant name
    /// first, then one cell per variant with data).
    Struct(Vec<Cell>),
}

/// Why a value does not fit its column.
fn misfit(shape: &Shape, v: ValueRef<'_, '_>) -> String {
    let mut text = format!("{v:?}");
    if text.len() > 120 {
        let mut end = 120;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    format!(
        "value {text} does not fit a column of shape {}",
        name(shape)
    )
}

fn name(shape: &Shape) -> &'static str {
    match shape {
        Shape::Bool => "bool",
        Shape::UInt(_) => "unsigned integer",
        Shape::Int(_) => "signed integer",
        Shape::Wide { .. } => "wide integer",
        Shape::Text => "text",
        Shape::Bytes => "bytes",
        Shape::Hex(_) => "fixed-size bytes",
        Shape::Label => "enum label",
        Shape::Json => "JSON",
        Shape::Option(_) => "option",
        Shape::List(_) => "list",
        Shape::Struct { .. } => "struct",
        Shape::Enum { .. } => "enum",
    }
}

/// `v` as a cell of a column of `shape`, or why it does not fit.
pub fn cell(shape: &Shape, v: ValueRef<'_, '_>) -> Result<Cell, String> {
    let bad = || misfit(shape, v);
    if v.is_null() {
        // `None` of an option, or the value of a unit payload.
        return match shape {
            Shape::Option(_) | Shape::Json => Ok(Cell::Null),
            _ => Err(bad()),
        };
    }
    Ok(match shape {
        Shape::Bool => Cell::Bool(v.as_bool().ok_or_else(bad)?),
        Shape::UInt(bits) => {
            let n = v.as_u128().ok_or_else(bad)?;
            if *bits < 128 && n >> bits != 0 {
                return Err(bad());
            }
            Cell::UInt(n as u64)
        }
        Shape::Int(bits) => {
            let n = v.as_i128().ok_or_else(bad)?;
            let bound = 1i128 << (bits - 1);
            if n < -bound || n >= bound {
                return Err(bad());
            }
            Cell::Int(n as i64)
        }
        Shape::Wide { signed } => {
            let value = v.to_value();
            if !*signed && matches!(value, Value::Int(n) if n < 0) {
                return Err(bad());
            }
            Cell::Wide(wide::cell(&value).ok_or_else(bad)?)
        }
        Shape::Text | Shape::Label => Cell::Text(v.as_str().ok_or_else(bad)?.to_string()),
        Shape::Json => Cell::Text({
            let mut out = String::new();
            v.write_json(&mut out);
            out
        }),
        Shape::Bytes => Cell::Bytes(bytes(v).ok_or_else(bad)?),
        Shape::Hex(n) => {
            let b = v
                .as_plain_str()
                .and_then(|s| s.strip_prefix("0x"))
                .and_then(|h| ferroscale_core::hex::decode(h).ok())
                .filter(|b| b.len() == *n as usize)
                .ok_or_else(bad)?;
            Cell::Bytes(b)
        }
        Shape::Option(inner) => cell(inner, v)?,
        Shape::List(item) => {
            if !matches!(v.kind(), Kind::List) {
                return Err(bad());
            }
            let items = v.items().ok_or_else(bad)?;
            let wide = matches!(unwrap_option(item), Shape::Wide { .. });
            Cell::List(
                items
                    .map(|i| {
                        let c = cell(item, i)?;
                        // A wide item is a struct of its two columns.
                        Ok(if wide { Cell::Struct(vec![c]) } else { c })
                    })
                    .collect::<Result<_, String>>()?,
            )
        }
        Shape::Struct { fields, tuple } => {
            let cells = if *tuple {
                if v.kind() != Kind::Tuple || v.len() != fields.len() {
                    return Err(bad());
                }
                v.items()
                    .ok_or_else(bad)?
                    .zip(fields)
                    .map(|(i, (_, s))| cell(s, i))
                    .collect::<Result<_, String>>()?
            } else {
                let entries = v.entries().ok_or_else(bad)?;
                if v.len() != fields.len() {
                    return Err(bad());
                }
                entries
                    .zip(fields)
                    .map(|((k, i), (n, s))| if k == n { cell(s, i) } else { Err(bad()) })
                    .collect::<Result<_, String>>()?
            };
            Cell::Struct(cells)
        }
        Shape::Enum { variants } => {
            // A unit variant is its name; one with data `{name: payload}`.
            let (name, payload) = match v.kind() {
                Kind::Str => (v.as_str().ok_or_else(bad)?, None),
                Kind::Dict if v.len() == 1 => {
                    let (k, p) = v.entries().and_then(|mut e| e.next()).ok_or_else(bad)?;
                    (k, Some(p))
                }
                _ => return Err(bad()),
            };
            let Some(at) = variants.iter().position(|(n, _)| n == name) else {
                return Err(bad());
            };
            let mut cells = vec![Cell::Text(name.to_string())];
            for (i, (_, s)) in variants.iter().enumerate() {
                match (s, i == at) {
                    (None, true) if payload.is_some() => return Err(bad()),
                    (Some(s), true) => {
                        let p = payload.ok_or_else(bad)?;
                        cells.push(cell(s, p)?);
                    }
                    (Some(_), false) => cells.push(Cell::Null),
                    (None, _) => {}
                }
            }
            Cell::Struct(cells)
        }
    })
}

/// The bytes of a `Vec<u8>` value: the decoder writes valid UTF-8 as its
/// text and other bytes as `0x…` hex it writes itself (plain text), so the
/// two are told apart exactly.
fn bytes(v: ValueRef<'_, '_>) -> Option<Vec<u8>> {
    match v.as_plain_str() {
        Some(s) => match s.strip_prefix("0x").map(ferroscale_core::hex::decode) {
            Some(Ok(b)) if std::str::from_utf8(&b).is_err() => Some(b),
            // Plain text that is valid UTF-8 once decoded was not written
            // as hex by the decoder: the text is the bytes.
            _ => Some(s.as_bytes().to_vec()),
        },
        None => v.as_str().map(|s| s.as_bytes().to_vec()),
    }
}
