//! The hash functions behind the storage hashers: Blake2b with 128- and
//! 256-bit output, and Substrate's "twox" (xxHash64 run with seeds 0, 1, 2, …,
//! each 64-bit result written little-endian, concatenated).

use twox_hash::XxHash64;

use super::blake2b_block;

/// Blake2b with a 16-byte output (not a truncated Blake2b-512: the output
/// length is part of Blake2's parameters).
pub fn blake2_128(data: &[u8]) -> [u8; 16] {
    // One-block inputs (most storage keys) take the specialised path.
    blake2b_block::digest(data).unwrap_or_else(|| blake2b_of_parts(&[data]))
}

/// Blake2b with a 32-byte output.
pub fn blake2_256(data: &[u8]) -> [u8; 32] {
    blake2b_block::digest(data).unwrap_or_else(|| blake2b_of_parts(&[data]))
}

/// Blake2b with a 32-byte output of each of `messages`, hashed several at a
/// time in vector lanes (four with AVX2): for many long messages (a batch
/// of blocks' extrinsics) about three times the speed of
/// [`blake2_256`] one by one.
pub fn blake2_256_each(messages: &[&[u8]]) -> Vec<[u8; 32]> {
    let mut params = blake2b_simd::Params::new();
    params.hash_length(32);
    let mut jobs: Vec<blake2b_simd::many::HashManyJob<'_>> = messages
        .iter()
        .map(|m| blake2b_simd::many::HashManyJob::new(&params, m))
        .collect();
    blake2b_simd::many::hash_many(jobs.iter_mut());
    jobs.iter()
        .map(|job| {
            let mut out = [0u8; 32];
            out.copy_from_slice(job.to_hash().as_bytes());
            out
        })
        .collect()
}

/// BLAKE2b with an `N`-byte output (1–64) of `parts` back to back, any
/// length: the general path beside [`blake2b_block`]'s one-block one.
pub(crate) fn blake2b_of_parts<const N: usize>(parts: &[&[u8]]) -> [u8; N] {
    let mut state = blake2b_simd::Params::new().hash_length(N).to_state();
    for part in parts {
        state.update(part);
    }
    let mut out = [0u8; N];
    out.copy_from_slice(state.finalize().as_bytes());
    out
}

/// xxHash64 with seed 0, little-endian.
pub fn twox_64(data: &[u8]) -> [u8; 8] {
    XxHash64::oneshot(0, data).to_le_bytes()
}

/// xxHash64 with seeds 0 and 1, little-endian, concatenated.
pub fn twox_128(data: &[u8]) -> [u8; 16] {
    twox::<16>(data)
}

/// xxHash64 with seeds 0 to 3, little-endian, concatenated.
pub fn twox_256(data: &[u8]) -> [u8; 32] {
    twox::<32>(data)
}

/// `N / 8` rounds of xxHash64, seed `i` for the `i`-th 8 bytes.
fn twox<const N: usize>(data: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    for (seed, chunk) in out.chunks_exact_mut(8).enumerate() {
        chunk.copy_from_slice(&XxHash64::oneshot(seed as u64, data).to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::encode_prefixed as hex;
    use blake2::digest::consts::{U16, U32};
    use blake2::{Blake2b, Digest};

    #[test]
    fn published_vectors() {
        // xxHash64 of the empty input with seed 0 is 0xef46db3751d8e999 (xxHash's own tests).
        assert_eq!(hex(&twox_64(b"")), "0x99e9d85137db46ef");
        // Blake2b-128/256 of the empty input (RFC 7693 parameters, output length 16/32).
        assert_eq!(hex(&blake2_128(b"")), "0xcae66941d9efbd404e4d88758ea67670");
        assert_eq!(
            hex(&blake2_256(b"")),
            "0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
        );
    }

    #[test]
    fn blake2_256_each_agrees_with_one_by_one() {
        let messages: Vec<Vec<u8>> = (0..11u32)
            .map(|i| {
                (0..(i * i * 97 + i) as usize)
                    .map(|b| (b * 31 + i as usize) as u8)
                    .collect()
            })
            .collect();
        let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        let each = blake2_256_each(&refs);
        assert_eq!(each.len(), messages.len());
        for (m, h) in messages.iter().zip(&each) {
            assert_eq!(*h, blake2_256(m), "{} bytes", m.len());
        }
        assert!(blake2_256_each(&[]).is_empty());
    }

    #[test]
    fn blake2_agrees_with_the_blake2_crate_across_the_block_limits() {
        // ≤ 128 bytes take `blake2b_block`, longer inputs `blake2b_simd`
        // (whose AVX2 path takes four blocks at a time: lengths around
        // multiples of 512 bytes too).
        for len in (0..=1100usize).chain([4095, 4096, 4097, 50_000]) {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            let b128: [u8; 16] = Blake2b::<U16>::digest(&data).into();
            let b256: [u8; 32] = Blake2b::<U32>::digest(&data).into();
            assert_eq!(blake2_128(&data), b128, "{len}");
            assert_eq!(blake2_256(&data), b256, "{len}");
        }
    }

    #[test]
    fn wider_twox_extends_narrower() {
        let data = b"Substrate";
        assert_eq!(twox_128(data)[..8], twox_64(data));
        assert_eq!(twox_256(data)[..16], twox_128(data));
        assert_ne!(twox_256(data)[16..24], twox_256(data)[24..]);
    }
}
