//! The input rules py-scale-codec applies to a value given to a scale
//! object's `encode` (its classes' own rules, beside the type's): a bit
//! sequence from an int, a `"0b…"` string or a list of bools, counted by the
//! number's bit length; an array from a list of another length, element by
//! element; a `MultiAddress` from an account index; an extrinsic with its
//! signer as `account_id` and its signature as `signature_version` plus
//! signature text; a scale-info type from its JSON, defaults filled in.
//!
//! [`encode_object`] applies them and encodes; values nested inside others
//! follow the type alone ([`crate::encode::encode_value`]).

use ferroscale_value::Value;

use crate::context::Context;
use crate::encode::encode_value;
use crate::error::Error;
use crate::graph::{Node, Special, TypeIdx};

/// py-scale-codec's variant of an extrinsic signature by `signature_version`.
const SIGNATURE_VARIANTS: [&str; 3] = ["Ed25519", "Sr25519", "Ecdsa"];

/// A value encoded as a scale object.
#[derive(Debug, Default)]
pub struct ObjectEncoding {
    /// The encoded bytes.
    pub bytes: Vec<u8>,
    /// An extrinsic's signature as encoded, when it was given as
    /// `signature_version` plus text: py-scale-codec writes it back into
    /// the caller's value, and code written against it reads it there.
    pub signature: Option<Value>,
}

/// Encodes `value` given to a scale object of node `ty` (its type string
/// `type_name`, when known) with py-scale-codec's rules for such values.
pub fn encode_object(
    ctx: &Context<'_>,
    ty: TypeIdx,
    type_name: Option<&str>,
    value: &Value,
) -> Result<ObjectEncoding, Error> {
    let err = |reason: String| Error::Encode {
        ty: type_name.map_or_else(|| ctx.graph.describe(ty), str::to_owned),
        reason,
    };
    let mut out = ObjectEncoding::default();
    let filled;
    let value = match type_name {
        Some(name) if super::portable_json::has_defaults(name) => {
            filled = super::portable_json::fill_defaults(name, value.clone());
            &filled
        }
        _ => value,
    };
    out.bytes = match ctx.graph.get(ty) {
        Some(Node::BitSeq { .. }) => {
            encode_value(ctx, ty, &Value::str(bit_digits(value).map_err(err)?))?
        }
        Some(Node::Array(inner, n)) => match value.as_items() {
            // py-scale-codec encodes what it is given, element by element.
            Some(items) if items.len() != *n as usize => {
                let mut bytes = Vec::new();
                for item in items {
                    crate::encode::encode_into(ctx, *inner, item, &mut bytes)?;
                }
                bytes
            }
            _ => encode_value(ctx, ty, value)?,
        },
        Some(Node::Special(Special::MultiAddress(_))) => {
            encode_value(ctx, ty, &multi_address(value)?)?
        }
        Some(Node::Special(Special::Era)) => match value.as_items() {
            // py-scale-codec takes `(period, phase)` as ints only
            Some(items) if !items.iter().all(|i| matches!(i, Value::UInt(_))) => {
                return Err(err(format!(
                    "(period, phase) must be two ints, got {value}"
                )))
            }
            _ => encode_value(ctx, ty, value)?,
        },
        Some(Node::Special(Special::Extrinsic)) => match extrinsic(ctx, value) {
            Some((given, signature)) => {
                out.signature = signature;
                encode_value(ctx, ty, &given)?
            }
            None => encode_value(ctx, ty, value)?,
        },
        _ => encode_value(ctx, ty, value)?,
    };
    Ok(out)
}

/// The `"0b…"` digits of a bit sequence given as py-scale-codec takes it,
/// without leading zeros: its length is the number's bit length.
fn bit_digits(value: &Value) -> Result<String, String> {
    let digits: String = match value {
        Value::UInt(n) => format!("{n:b}"),
        Value::Str(s) => {
            let text: String = s.chars().filter(|c| *c != '_').collect();
            match text.strip_prefix("0b") {
                Some(d) if d.chars().all(|c| c == '0' || c == '1') => d.to_owned(),
                _ => return Err(format!("{s:?} is not a '0b…' bit string")),
            }
        }
        Value::List(items) => items
            .iter()
            .map(|i| match i {
                Value::Bool(b) => Ok(if *b { '1' } else { '0' }),
                Value::UInt(0) => Ok('0'),
                Value::UInt(1) => Ok('1'),
                _ => Err("BitVec list items must be bools".to_owned()),
            })
            .collect::<Result<_, _>>()?,
        Value::Int(_) => return Err("BitVec value must not be negative".into()),
        _ => return Err("BitVec value must be an int, '0b…' string or list of bools".into()),
    };
    let significant = digits.trim_start_matches('0');
    Ok(format!(
        "0b{}",
        if significant.is_empty() {
            "0"
        } else {
            significant
        }
    ))
}

/// A `MultiAddress` given as an account index (an int, or the SS58 address
/// of one) as its `Index` variant; `"0x…"` text must be an account of 20 or
/// 32 bytes (other lengths go through `{"Raw": …}`; py-scale-codec reports
/// them as a type it does not support, [`Error::UnknownType`]).
fn multi_address(value: &Value) -> Result<Value, Error> {
    let invalid = |reason: String| Error::Encode {
        ty: "MultiAddress".into(),
        reason,
    };
    let index = |i: u128| Value::Dict(vec![("Index".into(), Value::UInt(i))]);
    match value {
        Value::UInt(i) => Ok(index(*i)),
        Value::Str(s) if s.starts_with("0x") && ![42, 66].contains(&s.len()) => {
            Err(Error::unknown_type(
                "MultiAddress",
                format!(
                    "a MultiAddress of {} hex digits (give {{'Raw': …}} for other lengths)",
                    s.len() - 2
                ),
            ))
        }
        Value::Str(s) if !s.starts_with("0x") && s.len() < 20 => {
            ferroscale_core::ss58::decode_account_index(s, None)
                .map(|i| index(u128::from(i)))
                .map_err(|e| invalid(e.to_string()))
        }
        other => Ok(other.clone()),
    }
}

/// An extrinsic value with py-scale-codec's input names (`account_id` for
/// the signer, `signature_version` with the signature as text) rewritten to
/// the encoder's; `None` when there is nothing to rewrite. The second item
/// is the rewritten signature.
fn extrinsic(ctx: &Context<'_>, value: &Value) -> Option<(Value, Option<Value>)> {
    let Value::Dict(entries) = value else {
        return None;
    };
    let mut entries = entries.clone();
    let mut changed = false;
    let address_missing = matches!(value.get("address"), None | Some(Value::Null));
    if let (true, Some(account)) = (address_missing, value.get("account_id")) {
        if !matches!(account, Value::Null) {
            entries.retain(|(k, _)| &**k != "address");
            entries.push(("address".into(), account.clone()));
            changed = true;
        }
    }
    let mut signature = None;
    if let (Some(Value::UInt(version)), Some(Value::Str(text))) =
        (value.get("signature_version"), value.get("signature"))
    {
        if signature_is_enum(ctx) {
            let name = SIGNATURE_VARIANTS
                .get(*version as usize)
                .copied()
                .unwrap_or("Sr25519");
            let sig = Value::Dict(vec![(name.into(), Value::Str(text.clone()))]);
            for (k, v) in entries.iter_mut() {
                if &**k == "signature" {
                    *v = sig.clone();
                }
            }
            signature = Some(sig);
            changed = true;
        }
    }
    changed.then_some((Value::Dict(entries), signature))
}

/// Whether the runtime's extrinsic signature is an enum of signature kinds
/// (`MultiSignature`), so that a bare signature needs its variant.
fn signature_is_enum(ctx: &Context<'_>) -> bool {
    let Some(sig) = ctx.runtime.and_then(|rt| rt.extrinsic.signature) else {
        return false;
    };
    matches!(ctx.graph.get(sig), Some(Node::Enum(vs)) if vs.iter().any(|v| &*v.name == "Sr25519"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    #[test]
    fn bit_sequences_count_the_number_s_bit_length() {
        assert_eq!(bit_digits(&Value::UInt(5)).as_deref(), Ok("0b101"));
        assert_eq!(
            bit_digits(&Value::str("0b0000_0101")).as_deref(),
            Ok("0b101")
        );
        let bools = Value::List(vec![
            Value::Bool(false),
            Value::Bool(true),
            Value::Bool(true),
        ]);
        assert_eq!(bit_digits(&bools).as_deref(), Ok("0b11"));
        assert_eq!(bit_digits(&Value::UInt(0)).as_deref(), Ok("0b0"));
        assert!(bit_digits(&Value::str("0b102")).is_err());
        assert!(bit_digits(&Value::Int(-1)).is_err());
    }

    #[test]
    fn arrays_take_lists_of_another_length_element_by_element() {
        let mut registry = Registry::new();
        let ty = registry.resolve("[u32; 1]").expect("array");
        let value = Value::List(vec![Value::UInt(1), Value::UInt(2)]);
        let out = encode_object(&registry.context(), ty, None, &value).expect("encodes");
        assert_eq!(out.bytes, [1, 0, 0, 0, 2, 0, 0, 0]);
    }

    #[test]
    fn multi_addresses_from_account_indices() {
        assert_eq!(
            multi_address(&Value::UInt(7)).ok(),
            Some(Value::Dict(vec![("Index".into(), Value::UInt(7))]))
        );
        assert!(matches!(
            multi_address(&Value::str("0x1234")),
            Err(Error::UnknownType { .. })
        ));
    }
}
