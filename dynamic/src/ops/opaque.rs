//! Opaque wrappers: a compact length, then that many bytes holding a value
//! of another type (`WrapperKeepOpaque<T>`, `OpaqueCall`), decoded and
//! encoded as one unit, whatever type string named them.

use ferroscale_value::Value;

use crate::context::Context;
use crate::decode::decode;
use crate::error::Error;
use crate::graph::TypeIdx;
use crate::sink::Sink;

/// What the value of an opaque wrapper is when its bytes are not a value of
/// the wrapped type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The bytes as `"0x…"` (`WrapperKeepOpaque`).
    Hex,
    /// The decoding error (`OpaqueCall`).
    Fail,
}

/// Decodes an opaque wrapper named `name` (for errors) from the start of
/// `bytes`: the length prefix, then the wrapped `inner` value, which must
/// use all the bytes the prefix announces (`None`: no wrapped type known,
/// the bytes as hex). Returns the value and the bytes used, prefix
/// included.
pub fn decode_opaque<'a, S: Sink<'a>>(
    ctx: &Context<'a>,
    name: &str,
    inner: Option<TypeIdx>,
    fallback: Fallback,
    bytes: &[u8],
    sink: &mut S,
) -> Result<(S::Out, usize), Error> {
    let short = |needed: u64| Error::NotEnoughBytes {
        ty: name.to_owned(),
        type_id: None,
        path: String::new(),
        offset: 0,
        needed,
        available: bytes.len(),
    };
    let prefix = bytes.first().map_or(1, |b| super::compact::encoded_len(*b));
    let (len, used) = super::compact::decode(bytes).ok_or_else(|| short(prefix as u64))?;
    let body = usize::try_from(len)
        .ok()
        .and_then(|n| bytes.get(used..used.checked_add(n)?))
        .ok_or_else(|| short(u64::try_from(len).unwrap_or(u64::MAX)))?;
    let end = used + body.len();
    let value = match inner.map(|ty| decode(ctx, ty, body, sink)) {
        Some(Ok(v)) => v,
        Some(Err(e)) if fallback == Fallback::Fail => return Err(e),
        _ => sink.hex(body),
    };
    Ok((value, end))
}

/// Encodes an opaque wrapper: `value` as `inner`, or a `"0x…"` string as
/// the wrapped bytes themselves, behind their compact length.
pub fn encode_opaque(
    ctx: &Context<'_>,
    inner: Option<TypeIdx>,
    value: &Value,
) -> Result<Vec<u8>, Error> {
    let raw_hex = value.as_str().and_then(|s| s.strip_prefix("0x"));
    let body = match (raw_hex, inner) {
        (Some(h), _) => ferroscale_core::hex::decode(h).map_err(|e| Error::Encode {
            ty: "opaque bytes".into(),
            reason: e.to_string(),
        })?,
        (None, Some(ty)) => crate::encode::encode_value(ctx, ty, value)?,
        (None, None) => {
            return Err(Error::unknown_type(
                "WrapperOpaque",
                "an opaque wrapper needs the wrapped type (a type_mapping naming it)".into(),
            ))
        }
    };
    let mut out = super::compact::encode(body.len() as u128);
    out.extend_from_slice(&body);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;
    use crate::sink::ValueSink;

    #[test]
    fn wrapped_values_and_their_fallbacks() {
        let mut registry = Registry::new();
        let u32_ty = registry.resolve("u32").expect("u32");
        let ctx = registry.context();
        let bytes = [0x10, 1, 0, 0, 0];
        let (v, used) = decode_opaque(
            &ctx,
            "W",
            Some(u32_ty),
            Fallback::Hex,
            &bytes,
            &mut ValueSink,
        )
        .expect("decodes");
        assert_eq!((v, used), (Value::UInt(1), 5));
        let short = [0x0c, 1, 0, 0];
        let (v, _) = decode_opaque(
            &ctx,
            "W",
            Some(u32_ty),
            Fallback::Hex,
            &short,
            &mut ValueSink,
        )
        .expect("hex");
        assert_eq!(v, Value::str("0x010000"));
        assert!(decode_opaque(
            &ctx,
            "W",
            Some(u32_ty),
            Fallback::Fail,
            &short,
            &mut ValueSink
        )
        .is_err());
        let cut = [0x10, 1];
        let e = decode_opaque(&ctx, "W", Some(u32_ty), Fallback::Hex, &cut, &mut ValueSink)
            .unwrap_err();
        assert!(matches!(e, Error::NotEnoughBytes { .. }));
        assert_eq!(
            encode_opaque(&ctx, Some(u32_ty), &Value::UInt(1)).expect("encodes"),
            bytes
        );
    }
}
