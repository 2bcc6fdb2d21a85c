//! A Substrate header's hash: BLAKE2b-256 of its SCALE encoding. The RPC
//! client's blocks, the loopback test node and the indexer's chain checks
//! all hash headers here.

use parity_scale_codec::{Compact, Encode};

use super::digest::blake2_256;

/// A header's SCALE encoding: parent hash, compact number, state and
/// extrinsics roots, the digest's logs (compact count, then each log's own
/// SCALE bytes, a `DigestItem`).
pub fn header_encoding(
    parent: &[u8; 32],
    number: u64,
    state_root: &[u8; 32],
    extrinsics_root: &[u8; 32],
    digest: &[impl AsRef<[u8]>],
) -> Vec<u8> {
    let logs: usize = digest.iter().map(|l| l.as_ref().len()).sum();
    let mut out = Vec::with_capacity(32 * 3 + 16 + logs);
    out.extend_from_slice(parent);
    Compact(number).encode_to(&mut out);
    out.extend_from_slice(state_root);
    out.extend_from_slice(extrinsics_root);
    Compact(digest.len() as u64).encode_to(&mut out);
    for log in digest {
        out.extend_from_slice(log.as_ref());
    }
    out
}

/// The hash of the header with these fields.
pub fn header_hash(
    parent: &[u8; 32],
    number: u64,
    state_root: &[u8; 32],
    extrinsics_root: &[u8; 32],
    digest: &[impl AsRef<[u8]>],
) -> [u8; 32] {
    blake2_256(&header_encoding(
        parent,
        number,
        state_root,
        extrinsics_root,
        digest,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoding_is_the_header_s_fields_in_order() {
        let log = [6u8, b'B', b'A', b'B', b'E', 0];
        let bytes = header_encoding(&[1; 32], 300, &[2; 32], &[3; 32], &[log]);
        // 300 as a compact is two bytes: 0xb1 0x04.
        assert_eq!(&bytes[32..34], &[0xb1, 0x04]);
        assert_eq!(bytes[34..66], [2; 32]);
        assert_eq!(bytes[66..98], [3; 32]);
        assert_eq!(bytes[98], 4, "one log, compact");
        assert_eq!(&bytes[99..], &log);
        assert_eq!(
            header_hash(&[1; 32], 300, &[2; 32], &[3; 32], &[log]),
            blake2_256(&bytes)
        );
    }
}
