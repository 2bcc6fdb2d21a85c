//! A decoded value checked against its column's [`Shape`] and appended
//! to the column's [`Builder`] as it is read: no value of its own is built
//! on the way. A value that does not fit fails whole: the caller takes
//! back what it had appended ([`Builder::truncate`]), so a column is never
//! left half-written (the row becomes an `errors` row).

use ferroscale_core::hex;
use ferroscale_dynamic::document::Kind;
use ferroscale_dynamic::ValueRef;
use ferroscale_value::Value;

use super::arrow_type::unwrap_option;
use super::column::Builder;
use super::shape::Shape;
use super::wide::{self, WideCell};

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

impl Builder {
    /// Appends `v` as a value of a column of `shape` (the shape this
    /// builder was made for, [`Builder::new`]), or says why it does not
    /// fit. After an error, parts of the value may have been appended:
    /// take them back with [`Builder::truncate`].
    pub fn append(&mut self, shape: &Shape, v: ValueRef<'_, '_>) -> Result<(), String> {
        let bad = || misfit(shape, v);
        if v.is_null() {
            // `None` of an option, or the value of a unit payload.
            return match shape {
                Shape::Option(_) | Shape::Json => {
                    self.push_null();
                    Ok(())
                }
                _ => Err(bad()),
            };
        }
        match (shape, self) {
            (Shape::Option(inner), b) => return b.append(inner, v),
            (Shape::Bool, Builder::Bool(out)) => out.push(Some(v.as_bool().ok_or_else(bad)?)),
            (Shape::UInt(bits), Builder::UInt(_, out)) => {
                let n = v.as_u128().ok_or_else(bad)?;
                if *bits < 128 && n >> bits != 0 {
                    return Err(bad());
                }
                out.push(Some(n as u64));
            }
            (Shape::Int(bits), Builder::Int(_, out)) => {
                let n = v.as_i128().ok_or_else(bad)?;
                let bound = 1i128 << (bits - 1);
                if n < -bound || n >= bound {
                    return Err(bad());
                }
                out.push(Some(n as i64));
            }
            (Shape::Wide { signed }, Builder::Wide(decimal, text)) => {
                let value = v.to_value();
                if !*signed && matches!(value, Value::Int(n) if n < 0) {
                    return Err(bad());
                }
                match wide::cell(&value).ok_or_else(bad)? {
                    WideCell::Decimal(n) => {
                        decimal.push(Some(n));
                        text.push_null();
                    }
                    WideCell::Digits(s) => {
                        decimal.push(None);
                        text.push(&s);
                    }
                }
            }
            (Shape::Text | Shape::Label, Builder::Text(out) | Builder::Label(out)) => {
                out.push(v.as_str().ok_or_else(bad)?)
            }
            (Shape::Json, Builder::Text(out)) => out.push_with(|text| v.write_json(text)),
            (Shape::Bytes, Builder::Bytes(out)) => match v.as_plain_str() {
                // The decoder writes valid UTF-8 as its text and other bytes
                // as `0x…` hex it writes itself (plain text), so the two are
                // told apart exactly: plain text that is valid UTF-8 once
                // decoded was not written as hex, the text is the bytes.
                Some(s) => out.push_with(|buf| {
                    let start = buf.len();
                    let decoded = s
                        .strip_prefix("0x")
                        .is_some_and(|h| hex::decode_into(h, buf).is_ok());
                    if !decoded || std::str::from_utf8(&buf[start..]).is_ok() {
                        buf.truncate(start);
                        buf.extend_from_slice(s.as_bytes());
                    }
                }),
                None => out.push(v.as_str().ok_or_else(bad)?.as_bytes()),
            },
            (Shape::Hex(n), Builder::Hex(_, data, valid)) => {
                // Decoded straight into the column (a wrong length is
                // refused before it is decoded).
                let n = *n as usize;
                let digits = v
                    .as_plain_str()
                    .and_then(|s| s.strip_prefix("0x"))
                    .filter(|h| h.len() == 2 * n)
                    .ok_or_else(bad)?;
                let start = data.len();
                if hex::decode_into(digits, data).is_err() || data.len() - start != n {
                    // (`decode_into` takes a second `0x` too.)
                    data.truncate(start);
                    return Err(bad());
                }
                valid.push(true);
            }
            (Shape::List(item), Builder::List(_, offsets, valid, items)) => {
                if !matches!(v.kind(), Kind::List) {
                    return Err(bad());
                }
                let values = v.items().ok_or_else(bad)?;
                let wide = matches!(unwrap_option(item), Shape::Wide { .. });
                for i in values {
                    match &mut **items {
                        // A wide item is a struct of its two columns.
                        Builder::Struct(_, item_valid, value) if wide => {
                            value.first_mut().ok_or_else(bad)?.append(item, i)?;
                            item_valid.push(true);
                        }
                        b => b.append(item, i)?,
                    }
                }
                offsets.push(i32::try_from(items.len()).map_err(|_| bad())?);
                valid.push(true);
            }
            (Shape::Struct { fields, tuple }, Builder::Struct(_, valid, children)) => {
                if children.len() != fields.len() {
                    return Err(bad());
                }
                if *tuple {
                    if v.kind() != Kind::Tuple || v.len() != fields.len() {
                        return Err(bad());
                    }
                    let items = v.items().ok_or_else(bad)?;
                    for ((b, (_, s)), i) in children.iter_mut().zip(fields).zip(items) {
                        b.append(s, i)?;
                    }
                } else {
                    let entries = v.entries().ok_or_else(bad)?;
                    if v.len() != fields.len() {
                        return Err(bad());
                    }
                    for ((b, (n, s)), (k, i)) in children.iter_mut().zip(fields).zip(entries) {
                        if k != n {
                            return Err(bad());
                        }
                        b.append(s, i)?;
                    }
                }
                valid.push(true);
            }
            (Shape::Enum { variants }, Builder::Struct(_, valid, children)) => {
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
                // The variant's data, as its shape says it has or has not.
                let data = match (&variants[at].1, payload) {
                    (None, None) => None,
                    (Some(s), Some(p)) => Some((s, p)),
                    _ => return Err(bad()),
                };
                let mut children = children.iter_mut();
                match children.next() {
                    Some(Builder::Text(label)) => label.push(name),
                    _ => return Err(bad()),
                }
                for (i, (_, s)) in variants.iter().enumerate() {
                    if s.is_none() {
                        continue;
                    }
                    let b = children.next().ok_or_else(bad)?;
                    match data {
                        Some((s, p)) if i == at => b.append(s, p)?,
                        _ => b.push_null(),
                    }
                }
                valid.push(true);
            }
            // A builder made for another shape (never: both come from the
            // table's column).
            _ => return Err(bad()),
        }
        Ok(())
    }
}
