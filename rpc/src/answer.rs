//! Reading a node's answers: hex, hashes, numbers, and the SCALE payloads
//! of the metadata runtime API. Pure functions over untrusted input: every
//! length prefix is checked against the bytes actually present before
//! anything is allocated or sliced.

use parity_scale_codec::{Compact, Decode};
use serde_json::Value;

use crate::error::Error;

/// A 32-byte block hash.
pub type Hash = [u8; 32];

fn malformed(method: &str, reason: impl Into<String>) -> Error {
    Error::Malformed {
        method: method.to_owned(),
        reason: reason.into(),
    }
}

/// A JSON value in a short form for error messages (long answers cut).
pub(crate) fn describe(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 80 {
        let cut = (0..=80)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}… ({} chars)", &text[..cut], text.len())
    } else {
        text
    }
}

/// `0x` hex text into bytes.
pub(crate) fn hex_bytes(method: &str, what: &str, value: &Value) -> Result<Vec<u8>, Error> {
    let text = value.as_str().ok_or_else(|| {
        malformed(
            method,
            format!("{what} is not a string: {}", describe(value)),
        )
    })?;
    let digits = text
        .strip_prefix("0x")
        .ok_or_else(|| malformed(method, format!("{what} is not 0x-prefixed hex")))?;
    ferroscale_core::hex::decode(digits)
        .map_err(|e| malformed(method, format!("{what} is not hex: {e}")))
}

/// A list of `0x` hex texts (`list`: its name in errors; item `i` is
/// named `{item} {i}`).
pub(crate) fn hex_list(
    method: &str,
    list: &str,
    item: &str,
    value: &Value,
) -> Result<Vec<Vec<u8>>, Error> {
    value
        .as_array()
        .ok_or_else(|| malformed(method, format!("`{list}` is not a list")))?
        .iter()
        .enumerate()
        .map(|(i, x)| hex_bytes(method, &format!("{item} {i}"), x))
        .collect()
}

/// `null` or `0x` hex text.
pub(crate) fn opt_hex_bytes(
    method: &str,
    what: &str,
    value: &Value,
) -> Result<Option<Vec<u8>>, Error> {
    if value.is_null() {
        return Ok(None);
    }
    hex_bytes(method, what, value).map(Some)
}

/// A 32-byte hash as `0x` hex.
pub(crate) fn hash(method: &str, what: &str, value: &Value) -> Result<Hash, Error> {
    let bytes = hex_bytes(method, what, value)?;
    <Hash>::try_from(bytes.as_slice())
        .map_err(|_| malformed(method, format!("{what} is {} bytes, not 32", bytes.len())))
}

/// A block number: `0x` hex text (how Substrate writes header numbers) or
/// a JSON integer.
pub(crate) fn number(method: &str, what: &str, value: &Value) -> Result<u64, Error> {
    if let Some(n) = value.as_u64() {
        return Ok(n);
    }
    let text = value.as_str().ok_or_else(|| {
        malformed(
            method,
            format!("{what} is not a number: {}", describe(value)),
        )
    })?;
    let digits = text
        .strip_prefix("0x")
        .ok_or_else(|| malformed(method, format!("{what} {text:?} is not 0x-prefixed hex")))?;
    u64::from_str_radix(digits, 16).map_err(|e| {
        malformed(
            method,
            format!("{what} {text:?} is not a 64-bit number: {e}"),
        )
    })
}

/// A field of a JSON object, or an error naming it.
pub(crate) fn field<'a>(method: &str, value: &'a Value, name: &str) -> Result<&'a Value, Error> {
    match value {
        Value::Object(map) => map
            .get(name)
            .ok_or_else(|| malformed(method, format!("no `{name}` field"))),
        other => Err(malformed(
            method,
            format!("expected an object with `{name}`, got {}", describe(other)),
        )),
    }
}

/// A SCALE compact length, checked against what is left of the input so
/// no caller can be made to allocate or slice beyond it.
fn length(method: &str, input: &mut &[u8], unit: usize, what: &str) -> Result<usize, Error> {
    let Compact(n) = Compact::<u32>::decode(input)
        .map_err(|e| malformed(method, format!("{what}: bad compact length: {e}")))?;
    let n = n as usize;
    match n.checked_mul(unit) {
        Some(bytes) if bytes <= input.len() => Ok(n),
        _ => Err(malformed(
            method,
            format!(
                "{what}: length prefix says {n} items, only {} bytes follow",
                input.len()
            ),
        )),
    }
}

/// The SCALE `Vec<u32>` answer of `Metadata_metadata_versions`.
pub(crate) fn metadata_versions(method: &str, bytes: &[u8]) -> Result<Vec<u32>, Error> {
    let mut input = bytes;
    let n = length(method, &mut input, 4, "version list")?;
    if input.len() != n * 4 {
        return Err(malformed(
            method,
            format!("{n} versions need {} bytes, {} follow", n * 4, input.len()),
        ));
    }
    Ok(input
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// The SCALE `Option<OpaqueMetadata>` answer of
/// `Metadata_metadata_at_version`: `None`, or the metadata blob (the
/// `Vec<u8>` inside, which is the `RuntimeMetadataPrefixed` encoding).
pub(crate) fn option_opaque_metadata<'a>(
    method: &str,
    bytes: &'a [u8],
) -> Result<Option<&'a [u8]>, Error> {
    match bytes.split_first() {
        Some((0, [])) => Ok(None),
        Some((1, rest)) => {
            let mut input = rest;
            let n = length(method, &mut input, 1, "metadata")?;
            if input.len() != n {
                return Err(malformed(
                    method,
                    format!("metadata of {n} bytes followed by {} more", input.len() - n),
                ));
            }
            Ok(Some(input))
        }
        Some((0, _)) => Err(malformed(method, "`None` followed by more bytes")),
        Some((tag, _)) => Err(malformed(
            method,
            format!("Option tag {tag} (only 0 and 1 exist)"),
        )),
        None => Err(malformed(method, "empty answer")),
    }
}

/// Checks a metadata blob starts as `RuntimeMetadataPrefixed` does (the
/// magic `meta`, then the version byte) and returns its version.
pub(crate) fn metadata_blob_version(method: &str, blob: &[u8]) -> Result<u8, Error> {
    match blob {
        [b'm', b'e', b't', b'a', version, ..] => Ok(*version),
        _ => Err(malformed(
            method,
            format!(
                "not runtime metadata (no `meta` magic; {} bytes)",
                blob.len()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_scale_codec::Encode;

    #[test]
    fn versions_are_read_and_lengths_checked() {
        let bytes = vec![14u32, 15, 16].encode();
        assert_eq!(metadata_versions("m", &bytes).unwrap(), vec![14, 15, 16]);
        // A prefix claiming a billion versions with 4 bytes behind it.
        let mut lying = Compact(1_000_000_000u32).encode();
        lying.extend_from_slice(&[1, 2, 3, 4]);
        let err = metadata_versions("m", &lying).unwrap_err().to_string();
        assert!(err.contains("length prefix says 1000000000 items"), "{err}");
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert!(metadata_versions("m", &trailing).is_err());
    }

    #[test]
    fn option_opaque_metadata_cases() {
        assert_eq!(option_opaque_metadata("m", &[0]).unwrap(), None);
        let blob = b"meta\x0fxyz".to_vec();
        let some = Some(blob.clone()).encode();
        assert_eq!(option_opaque_metadata("m", &some).unwrap(), Some(&blob[..]));
        assert!(option_opaque_metadata("m", &[]).is_err());
        assert!(option_opaque_metadata("m", &[2]).is_err());
        assert!(option_opaque_metadata("m", &[0, 0]).is_err());
        // Length prefix beyond the data.
        let err = option_opaque_metadata("m", &[1, 0xfd, 0xff, 0xff, 0xff, 1])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("length prefix says 16383 items, only 3 bytes follow"),
            "{err}"
        );
    }

    #[test]
    fn numbers_hashes_and_hex() {
        assert_eq!(
            number("m", "n", &Value::from("0x119d04e")).unwrap(),
            18468942
        );
        assert_eq!(number("m", "n", &Value::from(7u64)).unwrap(), 7);
        assert!(number("m", "n", &Value::from("0x1ffffffffffffffff")).is_err());
        assert!(number("m", "n", &Value::from("12")).is_err());
        assert!(hash("m", "h", &Value::from("0x00")).is_err());
        assert!(hex_bytes("m", "x", &Value::from("0xzz")).is_err());
        assert!(hex_bytes("m", "x", &Value::from(5)).is_err());
        assert_eq!(opt_hex_bytes("m", "x", &Value::Null).unwrap(), None);
        assert_eq!(metadata_blob_version("m", b"meta\x10").unwrap(), 16);
        assert!(metadata_blob_version("m", b"atem\x10").is_err());
    }
}
