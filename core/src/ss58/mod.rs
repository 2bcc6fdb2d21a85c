//! SS58 addresses: `base58(format ++ payload ++ checksum)`, for every network
//! format 0–16383 and every payload SS58 defines (1/2/4/8-byte account
//! indices, 32-byte account ids, 33-byte compressed ECDSA keys).
//!
//! The checksum is the first 1–8 bytes of `blake2b-512(b"SS58PRE" ++ format
//! bytes ++ payload)`. Everything here works on bytes; hex-string conveniences
//! (py-scale-codec's `ss58_decode` passing `0x…` keys through, `ss58_encode`
//! taking hex) belong to the Python layer.
//!
//! ```
//! use ferroscale_core::ss58;
//! let alice = [0xd4, 0x35, 0x93, 0xc7, 0x15, 0xfd, 0xd3, 0x1c, 0x61, 0x14, 0x1a, 0xbd,
//!     0x04, 0xa9, 0x9f, 0xd6, 0x82, 0x2c, 0x85, 0x58, 0x85, 0x4c, 0xcd, 0xe3, 0x9a, 0x56,
//!     0x84, 0xe7, 0xa5, 0x6d, 0xa2, 0x7d];
//! let address = ss58::encode(&alice, 42).unwrap();
//! assert_eq!(address, "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY");
//! let decoded = ss58::decode(&address, Some(42)).unwrap();
//! assert_eq!((decoded.format, decoded.payload.as_slice()), (42, &alice[..]));
//! ```

mod base58;
mod layout;
mod prefix;

pub use layout::{MAX_ADDRESS_LEN, PAYLOAD_LENGTHS};
pub use prefix::{MAX_FORMAT, RESERVED_FORMATS};

use crate::error::Error;

/// A decoded address: its network format and payload bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The network format (0–16383) the address carries.
    pub format: u16,
    /// The payload: an account index (1/2/4/8 bytes, little-endian) or a key
    /// (32 or 33 bytes).
    pub payload: Vec<u8>,
}

/// Encodes `payload` (1, 2, 4, 8, 32 or 33 bytes) as an address of network `format`.
pub fn encode(payload: &[u8], format: u16) -> Result<String, Error> {
    encode_address(payload, format).map(|a| a.as_str().to_owned())
}

/// An address as text, held on the stack (what [`encode_address`] returns;
/// dereferences to `&str`).
#[derive(Clone, Copy)]
pub struct Address {
    text: [u8; base58::TEXT_CAP],
    len: u8,
}

impl Address {
    /// The address text.
    pub fn as_str(&self) -> &str {
        // Only base58 alphabet characters (ASCII) are ever written.
        std::str::from_utf8(&self.text[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl std::ops::Deref for Address {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Debug for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// [`encode`] without heap allocation: the decoder renders every account id
/// of a value through this when an ss58 format is set.
pub fn encode_address(payload: &[u8], format: u16) -> Result<Address, Error> {
    prefix::check_format(format)?;
    let checksum_len = layout::encoding_checksum_len(payload.len()).ok_or_else(|| {
        Error::Ss58(format!(
            "payload of {} bytes has no SS58 form (expected one of {:?})",
            payload.len(),
            PAYLOAD_LENGTHS
        ))
    })?;
    // format (≤ 2) + payload (≤ 33) + checksum (≤ 2) bytes.
    let mut raw = [0u8; 2 + 33 + 2];
    let mut format_bytes = [0u8; 2];
    let format_len = prefix::write(format, &mut format_bytes);
    raw[..format_len].copy_from_slice(&format_bytes[..format_len]);
    let body_len = format_len + payload.len();
    raw[format_len..body_len].copy_from_slice(payload);
    let checksum = layout::checksum_hash(&raw[..body_len]);
    raw[body_len..body_len + checksum_len].copy_from_slice(&checksum[..checksum_len]);
    let mut address = Address {
        text: [0; base58::TEXT_CAP],
        len: 0,
    };
    let n = base58::encode(&raw[..body_len + checksum_len], &mut address.text);
    address.len = n as u8;
    Ok(address)
}

/// The base58 text of `bytes` (at most 40 bytes; `None` beyond), without
/// SS58 framing or checksum. Public for the `ss58_hashing` benchmark, which
/// times the base58 step of [`encode_address`] on its own.
#[doc(hidden)]
pub fn base58_text(bytes: &[u8]) -> Option<Address> {
    if bytes.len() > base58::MAX_INPUT {
        return None;
    }
    let mut address = Address {
        text: [0; base58::TEXT_CAP],
        len: 0,
    };
    address.len = base58::encode(bytes, &mut address.text) as u8;
    Some(address)
}

/// Decodes an address, checking its base58 text, network format, length and
/// checksum; with `expected_format`, also that it belongs to that network.
pub fn decode(address: &str, expected_format: Option<u16>) -> Result<Decoded, Error> {
    let raw = base58_bytes(address)?;
    let (format, format_len) = prefix::read(&raw)?;
    prefix::check_format(format)?;
    if let Some(expected) = expected_format {
        if format != expected {
            return Err(Error::Ss58(format!(
                "address is for network format {format}, expected {expected}"
            )));
        }
    }
    let (payload_len, checksum_len) =
        layout::split_len(raw.len() - format_len).ok_or_else(|| {
            Error::Ss58(format!(
                "decoded address has {} bytes after its {format_len}-byte network format; \
                 no SS58 payload and checksum have that length",
                raw.len() - format_len
            ))
        })?;
    let body_len = format_len + payload_len;
    let expected_checksum = &layout::checksum_hash(&raw[..body_len])[..checksum_len];
    if raw[body_len..] != *expected_checksum {
        return Err(Error::Ss58(format!(
            "checksum mismatch: the address carries {} but its content hashes to {}",
            crate::hex::encode_prefixed(&raw[body_len..]),
            crate::hex::encode_prefixed(expected_checksum)
        )));
    }
    Ok(Decoded {
        format,
        payload: raw[format_len..body_len].to_vec(),
    })
}

/// Whether `address` decodes (and, with `format`, belongs to that network).
pub fn is_valid(address: &str, format: Option<u16>) -> bool {
    decode(address, format).is_ok()
}

/// The network format of a valid address. Unlike py-scale-codec's
/// `get_ss58_format`, which only reads the leading bytes, this checks the whole
/// address first.
pub fn format_of(address: &str) -> Result<u16, Error> {
    decode(address, None).map(|d| d.format)
}

/// Encodes an account index in the narrowest of the 1/2/4/8-byte forms that
/// holds it (little-endian, as SCALE encodes u8/u16/u32/u64).
pub fn encode_account_index(index: u64, format: u16) -> Result<String, Error> {
    let width = match index {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xffff_ffff => 4,
        _ => 8,
    };
    encode(&index.to_le_bytes()[..width], format)
}

/// Decodes an address whose payload is an account index (1, 2, 4 or 8 bytes).
pub fn decode_account_index(address: &str, expected_format: Option<u16>) -> Result<u64, Error> {
    let decoded = decode(address, expected_format)?;
    if !matches!(decoded.payload.len(), 1 | 2 | 4 | 8) {
        return Err(Error::Ss58(format!(
            "payload of {} bytes is not an account index (1, 2, 4 or 8 bytes)",
            decoded.payload.len()
        )));
    }
    let mut le = [0u8; 8];
    le[..decoded.payload.len()].copy_from_slice(&decoded.payload);
    Ok(u64::from_le_bytes(le))
}

/// The base58 bytes of an address, refusing overlong text before decoding so
/// hostile input costs no more than a valid address.
fn base58_bytes(address: &str) -> Result<Vec<u8>, Error> {
    if address.is_empty() {
        return Err(Error::Ss58("empty address".into()));
    }
    if address.len() > MAX_ADDRESS_LEN {
        return Err(Error::Ss58(format!(
            "address is {} characters long; no SS58 address exceeds {MAX_ADDRESS_LEN}",
            address.len()
        )));
    }
    bs58::decode(address).into_vec().map_err(|e| match e {
        bs58::decode::Error::InvalidCharacter { character, index } => Error::Ss58(format!(
            "{character:?} at position {index} is not a base58 character"
        )),
        bs58::decode::Error::NonAsciiCharacter { index } => Error::Ss58(format!(
            "non-ASCII character at position {index} is not a base58 character"
        )),
        other => Error::Ss58(format!("base58: {other}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlong_and_empty_input_is_refused_up_front() {
        let long = "1".repeat(MAX_ADDRESS_LEN + 1);
        assert!(decode(&long, None)
            .unwrap_err()
            .to_string()
            .contains("characters long"));
        assert!(decode("", None).unwrap_err().to_string().contains("empty"));
    }

    #[test]
    fn bad_characters_are_named_with_their_position() {
        let err = decode("5Grwva0F", None).unwrap_err().to_string();
        assert!(err.contains("'0' at position 6"), "{err}");
        let err = decode("5Grwvaé", None).unwrap_err().to_string();
        assert!(err.contains("position 6"), "{err}");
    }

    #[test]
    fn account_index_width_follows_the_value() {
        for (index, width) in [
            (0u64, 1usize),
            (255, 1),
            (256, 2),
            (65_535, 2),
            (65_536, 4),
            (u32::MAX as u64, 4),
            (u32::MAX as u64 + 1, 8),
            (u64::MAX, 8),
        ] {
            let address = encode_account_index(index, 0).unwrap();
            assert_eq!(decode(&address, None).unwrap().payload.len(), width);
            assert_eq!(decode_account_index(&address, Some(0)).unwrap(), index);
        }
    }
}
