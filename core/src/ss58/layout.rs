//! Payload and checksum lengths, and the checksum itself.
//!
//! The SS58 spec ties the checksum length to the payload length. Encoding
//! always uses the shortest checksum (1 byte for the 1/2/4/8-byte account
//! indices, 2 bytes for 32/33-byte keys); decoding also accepts the longer
//! checksums the spec's table allows for account indices, as py-scale-codec
//! does.

use blake2::{Blake2b512, Digest};

use crate::hashing::blake2b_block;

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

/// The full 64-byte checksum hash of `prefix_and_payload`; an address keeps
/// its first 1–8 bytes.
///
/// The preimage is at most 7 + 2 + 33 = 42 bytes, one BLAKE2b block, so it
/// goes through [`blake2b_block`]; anything longer (no caller passes it)
/// still hashes correctly through the streaming `blake2` crate.
pub(super) fn checksum_hash(prefix_and_payload: &[u8]) -> [u8; 64] {
    const PREFIX_LEN: usize = CHECKSUM_PREIMAGE_PREFIX.len();
    let preimage_len = PREFIX_LEN + prefix_and_payload.len();
    if preimage_len <= blake2b_block::MAX_LEN {
        let mut preimage = [0u8; blake2b_block::MAX_LEN];
        preimage[..PREFIX_LEN].copy_from_slice(CHECKSUM_PREIMAGE_PREFIX);
        preimage[PREFIX_LEN..preimage_len].copy_from_slice(prefix_and_payload);
        if let Some(hash) = blake2b_block::digest(&preimage[..preimage_len]) {
            return hash;
        }
    }
    let mut hasher = Blake2b512::new();
    hasher.update(CHECKSUM_PREIMAGE_PREFIX);
    hasher.update(prefix_and_payload);
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn longest_address_fits_the_cap() {
        const MAX_DECODED_LEN: usize = 2 + 33 + 2;
        assert_eq!(split_len(MAX_DECODED_LEN - 2), Some((33, 2)));
        assert_eq!(split_len(MAX_DECODED_LEN - 1), None);
        let all_ff = [0xffu8; MAX_DECODED_LEN];
        let text = bs58::encode(all_ff).into_string();
        assert_eq!(text.len(), MAX_ADDRESS_LEN);
    }
}
