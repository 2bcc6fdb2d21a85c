//! Payload and checksum lengths, and the checksum itself.
//!
//! The SS58 spec ties the checksum length to the payload length. Encoding
//! always uses the shortest checksum (1 byte for the 1/2/4/8-byte account
//! indices, 2 bytes for 32/33-byte keys); decoding also accepts the longer
//! checksums the spec's table allows for account indices, as py-scale-codec
//! does.

use crate::hashing::{blake2b_block, blake2b_of_parts};

/// The payload lengths an address can carry: account indices (1, 2, 4, 8
/// bytes) and public keys / account ids (32 bytes, 33 for compressed ECDSA).
pub const PAYLOAD_LENGTHS: [usize; 6] = [1, 2, 4, 8, 32, 33];

/// What the checksum hash is taken over, before the prefix and payload.
const CHECKSUM_PREIMAGE_PREFIX: &[u8] = b"SS58PRE";

/// The checksum length used when encoding a payload of `payload_len` bytes,
/// or `None` when SS58 has no form for that length.
pub(super) fn encoding_checksum_len(payload_len: usize) -> Option<usize> {
    match payload_len {
        1 | 2 | 4 | 8 => Some(1),
        32 | 33 => Some(2),
        _ => None,
    }
}

/// Splits the bytes after the network format (payload and checksum together)
/// into `(payload_len, checksum_len)` by the spec's table, or `None` when no
/// form has that length.
///
/// The table is read on the length after the prefix, so it holds for one-
/// and two-byte formats alike (py-scale-codec 1.2.12 reads it on the total
/// length, which misreads 2/4/8-byte indices under two-byte formats).
pub(super) fn split_len(after_prefix: usize) -> Option<(usize, usize)> {
    Some(match after_prefix {
        2 => (1, 1),
        3 | 4 => (2, after_prefix - 2),
        5..=8 => (4, after_prefix - 4),
        9..=16 => (8, after_prefix - 8),
        34 => (32, 2),
        35 => (33, 2),
        _ => return None,
    })
}

/// The longest SS58 address text. The longest decoded address is 37 bytes (a
/// two-byte format, a 33-byte key and its 2-byte checksum), whose base58 text
/// has at most 37 · log₅₈(256) = 50.5…, so 51 characters. Longer input is
/// refused before any base58 work.
pub const MAX_ADDRESS_LEN: usize = 51;

/// The longest checksum preimage: the prefix, a two-byte format and a
/// 33-byte payload.
const MAX_PREIMAGE_LEN: usize = CHECKSUM_PREIMAGE_PREFIX.len() + 2 + 33;

/// How many checksums [`checksum_hashes`] hashes side by side at most.
pub(super) const CHECKSUM_GROUP: usize = 8;

/// The full 64-byte checksum hash of `prefix_and_payload`; an address keeps
/// its first 1–8 bytes.
///
/// The preimage is at most 42 bytes, one BLAKE2b block, so it goes through
/// [`blake2b_block`]; anything longer (no caller passes it) still hashes
/// correctly through [`blake2b_of_parts`].
pub(super) fn checksum_hash(prefix_and_payload: &[u8]) -> [u8; 64] {
    if let Some(preimage) = Preimage::new(prefix_and_payload) {
        if let Some(hash) = blake2b_block::digest(preimage.as_slice()) {
            return hash;
        }
    }
    blake2b_of_parts(&[CHECKSUM_PREIMAGE_PREFIX, prefix_and_payload])
}

/// [`checksum_hash`] of up to [`CHECKSUM_GROUP`] bodies (format and payload
/// bytes, as SS58 lays them out) at once: the hashes run in vector lanes.
/// Entries past `bodies.len()` are left zero.
pub(super) fn checksum_hashes(bodies: &[&[u8]]) -> [[u8; 64]; CHECKSUM_GROUP] {
    let mut hashes = [[0u8; 64]; CHECKSUM_GROUP];
    let bodies = &bodies[..bodies.len().min(CHECKSUM_GROUP)];
    let mut preimages = [Preimage::EMPTY; CHECKSUM_GROUP];
    for (preimage, body) in preimages.iter_mut().zip(bodies) {
        match Preimage::new(body) {
            Some(p) => *preimage = p,
            // Not an SS58 body; hash every entry one by one.
            None => {
                for (hash, body) in hashes.iter_mut().zip(bodies) {
                    *hash = checksum_hash(body);
                }
                return hashes;
            }
        }
    }
    let mut messages = [&[][..]; CHECKSUM_GROUP];
    for (message, preimage) in messages.iter_mut().zip(&preimages) {
        *message = preimage.as_slice();
    }
    let filled = blake2b_block::digest_many(&messages[..bodies.len()], &mut hashes[..bodies.len()]);
    debug_assert!(filled, "preimages are at most {MAX_PREIMAGE_LEN} bytes");
    hashes
}

/// `b"SS58PRE"` ++ body on the stack.
#[derive(Clone, Copy)]
struct Preimage {
    bytes: [u8; MAX_PREIMAGE_LEN],
    len: usize,
}

impl Preimage {
    const EMPTY: Preimage = Preimage {
        bytes: [0; MAX_PREIMAGE_LEN],
        len: 0,
    };

    /// The preimage of `body`, or `None` when it is longer than any SS58
    /// body (two format bytes and 33 payload bytes).
    fn new(body: &[u8]) -> Option<Preimage> {
        const PREFIX_LEN: usize = CHECKSUM_PREIMAGE_PREFIX.len();
        let len = PREFIX_LEN + body.len();
        if len > MAX_PREIMAGE_LEN {
            return None;
        }
        let mut preimage = Preimage::EMPTY;
        preimage.bytes[..PREFIX_LEN].copy_from_slice(CHECKSUM_PREIMAGE_PREFIX);
        preimage.bytes[PREFIX_LEN..len].copy_from_slice(body);
        preimage.len = len;
        Some(preimage)
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blake2::{Blake2b512, Digest};

    #[test]
    fn every_payload_length_encodes_and_splits_back() {
        for len in PAYLOAD_LENGTHS {
            let cs = encoding_checksum_len(len).unwrap();
            assert_eq!(split_len(len + cs), Some((len, cs)), "payload {len}");
        }
        for len in [0, 3, 5, 16, 31, 34, 64] {
            assert_eq!(encoding_checksum_len(len), None, "payload {len}");
        }
    }

    #[test]
    fn split_table_is_the_spec_table() {
        // The spec's table (one-byte format): total length -> (payload, checksum).
        let spec = [
            (3, 1, 1),
            (4, 2, 1),
            (5, 2, 2),
            (6, 4, 1),
            (7, 4, 2),
            (8, 4, 3),
            (9, 4, 4),
            (10, 8, 1),
            (11, 8, 2),
            (12, 8, 3),
            (13, 8, 4),
            (14, 8, 5),
            (15, 8, 6),
            (16, 8, 7),
            (17, 8, 8),
            (35, 32, 2),
            (36, 33, 2),
        ];
        for total in 0..=64usize {
            let expected = spec
                .iter()
                .find(|(t, _, _)| *t == total)
                .map(|&(_, p, c)| (p, c));
            assert_eq!(split_len(total.saturating_sub(1)), expected, "{total}");
        }
    }

    #[test]
    fn grouped_checksums_are_the_single_ones() {
        // Bodies of every length 0-35 (and one too long for SS58, which
        // still hashes, through the fallback), in groups of 0-8.
        let bodies: Vec<Vec<u8>> = (0..=36u8)
            .map(|len| (0..len).map(|i| i.wrapping_mul(31) ^ len).collect())
            .collect();
        for start in 0..bodies.len() {
            for count in 0..=CHECKSUM_GROUP.min(bodies.len() - start) {
                let group: Vec<&[u8]> = bodies[start..start + count]
                    .iter()
                    .map(|b| &b[..])
                    .collect();
                let hashes = checksum_hashes(&group);
                for (k, body) in group.iter().enumerate() {
                    let mut hasher = Blake2b512::new();
                    hasher.update(CHECKSUM_PREIMAGE_PREFIX);
                    hasher.update(body);
                    let expected: [u8; 64] = hasher.finalize().into();
                    assert_eq!(hashes[k], expected, "body of {} bytes", body.len());
                    assert_eq!(checksum_hash(body), expected);
                }
                assert!(hashes[count..].iter().all(|h| *h == [0u8; 64]));
            }
        }
    }

    #[test]
    fn longest_address_fits_the_cap() {
        const MAX_DECODED_LEN: usize = 2 + 33 + 2;
        assert_eq!(split_len(MAX_DECODED_LEN - 2), Some((33, 2)));
        assert_eq!(split_len(MAX_DECODED_LEN - 1), None);
        let all_ff = [0xffu8; MAX_DECODED_LEN];
        let text = bs58::encode(all_ff).into_string();
        assert_eq!(text.len(), MAX_ADDRESS_LEN);
    }
}
