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
mod recent;

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
    let frame = Frame::new(payload, format)?;
    Ok(frame.finish(&layout::checksum_hash(frame.body())))
}

/// [`encode_address`] for many payloads of one network format, in order.
///
/// The same addresses, faster per item: the checksum hashes (most of
/// `encode_address`'s time) run side by side in vector lanes, eight or four
/// at a time, where the CPU has AVX-512 or AVX2. For callers holding many
/// accounts at once (a decoded `Vec<AccountId>`, a batch of values). A
/// payload without an SS58 form fails the whole call, naming its position.
pub fn encode_addresses<P: AsRef<[u8]>>(
    payloads: &[P],
    format: u16,
) -> Result<Vec<Address>, Error> {
    prefix::check_format(format)?;
    let mut addresses = Vec::with_capacity(payloads.len());
    let mut index = 0;
    for group in payloads.chunks(layout::CHECKSUM_GROUP) {
        let mut frames = [Frame::EMPTY; layout::CHECKSUM_GROUP];
        for (frame, payload) in frames.iter_mut().zip(group) {
            *frame = Frame::new(payload.as_ref(), format).map_err(|e| match e {
                Error::Ss58(m) => Error::Ss58(format!("payload {index}: {m}")),
                other => other,
            })?;
            index += 1;
        }
        let frames = &frames[..group.len()];
        let mut bodies = [&[][..]; layout::CHECKSUM_GROUP];
        for (body, frame) in bodies.iter_mut().zip(frames) {
            *body = frame.body();
        }
        let hashes = layout::checksum_hashes(&bodies[..group.len()]);
        for (frame, hash) in frames.iter().zip(&hashes) {
            addresses.push(frame.finish(hash));
        }
    }
    Ok(addresses)
}

/// An address's bytes before base58: format, payload and room for the
/// checksum (which needs the hash of the first two).
#[derive(Clone, Copy)]
struct Frame {
    /// format (≤ 2) + payload (≤ 33) + checksum (≤ 2) bytes.
    raw: [u8; 2 + 33 + 2],
    body_len: u8,
    checksum_len: u8,
}

impl Frame {
    /// A placeholder for arrays of frames.
    const EMPTY: Frame = Frame {
        raw: [0; 2 + 33 + 2],
        body_len: 0,
        checksum_len: 0,
    };

    /// Format and payload laid out; `format` must have passed
    /// `prefix::check_format`. Fails for payload lengths SS58 has no form for.
    fn new(payload: &[u8], format: u16) -> Result<Frame, Error> {
        let checksum_len = layout::encoding_checksum_len(payload.len()).ok_or_else(|| {
            Error::Ss58(format!(
                "payload of {} bytes has no SS58 form (expected one of {:?})",
                payload.len(),
                PAYLOAD_LENGTHS
            ))
        })?;
        let mut frame = Frame::EMPTY;
        let mut format_bytes = [0u8; 2];
        let format_len = prefix::write(format, &mut format_bytes);
        frame.raw[..format_len].copy_from_slice(&format_bytes[..format_len]);
        let body_len = format_len + payload.len();
        frame.raw[format_len..body_len].copy_from_slice(payload);
        frame.body_len = body_len as u8;
        frame.checksum_len = checksum_len as u8;
        Ok(frame)
    }

    /// Format and payload: what the checksum is taken over.
    fn body(&self) -> &[u8] {
        &self.raw[..usize::from(self.body_len)]
    }

    /// The address text, with the checksum cut from `checksum_hash`.
    fn finish(mut self, checksum_hash: &[u8; 64]) -> Address {
        let body_len = usize::from(self.body_len);
        let end = body_len + usize::from(self.checksum_len);
        self.raw[body_len..end].copy_from_slice(&checksum_hash[..end - body_len]);
        let mut address = Address {
            text: [0; base58::TEXT_CAP],
            len: 0,
        };
        address.len = base58::encode(&self.raw[..end], &mut address.text) as u8;
        address
    }
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
    decode_with(address, expected_format, |format, payload| Decoded {
        format,
        payload: payload.to_vec(),
    })
}

/// [`decode`] handing the network format and the payload to `f` instead of
/// copying the payload out (an encoder writing an account id's bytes). An
/// address this thread decoded before is not decoded again (see `recent`).
pub fn decode_with<R>(
    address: &str,
    expected_format: Option<u16>,
    f: impl FnOnce(u16, &[u8]) -> R,
) -> Result<R, Error> {
    if let Some(known) = recent::lookup(address) {
        if expected_format.is_none_or(|expected| expected == known.format) {
            return Ok(f(known.format, known.payload()));
        }
    }
    let unframed = Unframed::read(address, expected_format)?;
    unframed.check(&layout::checksum_hash(unframed.body()))?;
    recent::remember(address, unframed.format, unframed.payload());
    Ok(f(unframed.format, unframed.payload()))
}

/// [`decode_with`] of many addresses, in order: the same results, faster
/// per item, the checksum hashes running side by side in vector lanes
/// (eight or four at a time with AVX-512 or AVX2), as in
/// [`encode_addresses`]. For callers holding many addresses at once (the
/// accounts of a batch of storage keys).
pub fn decode_many_with<R, A: AsRef<str>>(
    addresses: &[A],
    expected_format: Option<u16>,
    mut f: impl FnMut(u16, &[u8]) -> R,
) -> Vec<Result<R, Error>> {
    let mut results = Vec::with_capacity(addresses.len());
    for group in addresses.chunks(layout::CHECKSUM_GROUP) {
        let read: Vec<Result<Unframed, Error>> = group
            .iter()
            .map(|a| Unframed::read(a.as_ref(), expected_format))
            .collect();
        let mut bodies = [&[][..]; layout::CHECKSUM_GROUP];
        let mut at = [0usize; layout::CHECKSUM_GROUP];
        let mut n = 0;
        for (i, r) in read.iter().enumerate() {
            if let Ok(u) = r {
                bodies[n] = u.body();
                at[n] = i;
                n += 1;
            }
        }
        let hashes = layout::checksum_hashes(&bodies[..n]);
        let mut hash_of = [None; layout::CHECKSUM_GROUP];
        for (k, &i) in at[..n].iter().enumerate() {
            hash_of[i] = Some(k);
        }
        for (i, r) in read.into_iter().enumerate() {
            results.push(r.and_then(|u| {
                let hash =
                    hash_of[i].map_or_else(|| layout::checksum_hash(u.body()), |k| hashes[k]);
                u.check(&hash)?;
                Ok(f(u.format, u.payload()))
            }));
        }
    }
    results
}

/// An address read up to its checksum: base58 decoded, its network format
/// read and checked, its length split into payload and checksum.
struct Unframed {
    buffer: [u8; base58::DECODE_CAP],
    format: u16,
    format_len: usize,
    body_len: usize,
    end: usize,
}

impl Unframed {
    fn read(address: &str, expected_format: Option<u16>) -> Result<Unframed, Error> {
        let (buffer, raw_len) = base58_bytes(address)?;
        let raw = &buffer[..raw_len];
        let (format, format_len) = prefix::read(raw)?;
        prefix::check_format(format)?;
        if let Some(expected) = expected_format {
            if format != expected {
                return Err(Error::Ss58(format!(
                    "address is for network format {format}, expected {expected}"
                )));
            }
        }
        let (payload_len, _) = layout::split_len(raw.len() - format_len).ok_or_else(|| {
            Error::Ss58(format!(
                "decoded address has {} bytes after its {format_len}-byte network format; \
                 no SS58 payload and checksum have that length",
                raw.len() - format_len
            ))
        })?;
        Ok(Unframed {
            buffer,
            format,
            format_len,
            body_len: format_len + payload_len,
            end: raw_len,
        })
    }

    /// Format and payload: what the checksum is taken over.
    fn body(&self) -> &[u8] {
        &self.buffer[..self.body_len]
    }

    fn payload(&self) -> &[u8] {
        &self.buffer[self.format_len..self.body_len]
    }

    /// Whether the address's checksum is the start of `hash`, the body's checksum hash.
    fn check(&self, hash: &[u8; 64]) -> Result<(), Error> {
        let carried = &self.buffer[self.body_len..self.end];
        let expected = &hash[..carried.len()];
        if carried != expected {
            return Err(Error::Ss58(format!(
                "checksum mismatch: the address carries {} but its content hashes to {}",
                crate::hex::encode_prefixed(carried),
                crate::hex::encode_prefixed(expected)
            )));
        }
        Ok(())
    }
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

/// The base58 bytes of an address (in a stack buffer, with their count),
/// refusing overlong text before decoding so hostile input costs no more
/// than a valid address.
fn base58_bytes(address: &str) -> Result<([u8; base58::DECODE_CAP], usize), Error> {
    if address.is_empty() {
        return Err(Error::Ss58("empty address".into()));
    }
    if address.len() > MAX_ADDRESS_LEN {
        return Err(Error::Ss58(format!(
            "address is {} characters long; no SS58 address exceeds {MAX_ADDRESS_LEN}",
            address.len()
        )));
    }
    let mut raw = [0u8; base58::DECODE_CAP];
    match base58::decode(address.as_bytes(), &mut raw) {
        Ok(n) => Ok((raw, n)),
        Err(base58::DecodeError::Invalid { character, index }) => Err(Error::Ss58(format!(
            "{character:?} at position {index} is not a base58 character"
        ))),
        Err(base58::DecodeError::NonAscii { index }) => Err(Error::Ss58(format!(
            "non-ASCII character at position {index} is not a base58 character"
        ))),
        // MAX_ADDRESS_LEN is below base58::MAX_DECODE_TEXT (checked below).
        Err(base58::DecodeError::TooLong) => Err(Error::Ss58(format!(
            "address is {} characters long; base58 text is decoded up to {}",
            address.len(),
            base58::MAX_DECODE_TEXT
        ))),
    }
}

const _: () = assert!(MAX_ADDRESS_LEN <= base58::MAX_DECODE_TEXT);

#[cfg(test)]
mod tests {
    use super::*;
    use ferroscale_test_support::Xorshift;

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
    fn encode_addresses_matches_encode_address_one_by_one() {
        let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
        // Every payload length, in groups that fill the hash lanes and not.
        for format in [0u16, 2, 42, 63, 64, 7391, MAX_FORMAT] {
            for count in [0usize, 1, 3, 4, 7, 8, 9, 17, 33] {
                let payloads: Vec<Vec<u8>> = (0..count)
                    .map(|k| {
                        let len = PAYLOAD_LENGTHS[k % PAYLOAD_LENGTHS.len()];
                        (0..len).map(|_| rng.next_u8()).collect()
                    })
                    .collect();
                let batch = encode_addresses(&payloads, format).unwrap();
                assert_eq!(batch.len(), count);
                for (address, payload) in batch.iter().zip(&payloads) {
                    let one = encode_address(payload, format).unwrap();
                    assert_eq!(address.as_str(), one.as_str(), "format {format}");
                    let back = decode(address, Some(format)).unwrap();
                    assert_eq!(back.payload, *payload);
                }
            }
        }
    }

    #[test]
    fn decode_many_with_matches_decode_one_by_one() {
        let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
        for count in [0usize, 1, 7, 8, 9, 17, 40] {
            let texts: Vec<String> = (0..count)
                .map(|k| {
                    let len = PAYLOAD_LENGTHS[k % PAYLOAD_LENGTHS.len()];
                    let payload: Vec<u8> = (0..len).map(|_| rng.next_u8()).collect();
                    let good = encode(&payload, [0u16, 42, 7391][k % 3]).unwrap();
                    match k % 5 {
                        // A wrong checksum, a character outside base58, nothing.
                        1 => format!(
                            "{}{}",
                            &good[..good.len() - 1],
                            if good.ends_with('2') { '3' } else { '2' }
                        ),
                        3 => format!("0{good}"),
                        4 if k % 2 == 0 => String::new(),
                        _ => good,
                    }
                })
                .collect();
            for expected in [None, Some(42)] {
                let many = decode_many_with(&texts, expected, |f, p| (f, p.to_vec()));
                assert_eq!(many.len(), count);
                for (text, got) in texts.iter().zip(many) {
                    let one = decode_with(text, expected, |f, p| (f, p.to_vec()));
                    assert_eq!(
                        got.map_err(|e| e.to_string()),
                        one.map_err(|e| e.to_string()),
                        "{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn encode_addresses_names_the_payload_it_refuses() {
        let payloads = [[1u8; 32].to_vec(), [2u8; 32].to_vec(), vec![3u8; 31]];
        let err = encode_addresses(&payloads, 42).unwrap_err().to_string();
        assert!(
            err.contains("payload 2") && err.contains("31 bytes"),
            "{err}"
        );
        let err = encode_addresses(&[[0u8; 32]], 46).unwrap_err().to_string();
        assert_eq!(err, encode_address(&[0u8; 32], 46).unwrap_err().to_string());
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
