//! BLAKE2b (RFC 7693) for messages that fit one block: at most 128 bytes,
//! unkeyed, any output length 1–64 bytes.
//!
//! Such a message is hashed by exactly one call of the compression function
//! with the final flag set, so there is no streaming state to keep: the
//! block is loaded once, the twelve rounds run with the message schedule
//! (σ) fixed at compile time, and the chaining value comes straight out.
//! This is what SS58 checksums (`b"SS58PRE"` ++ format ++ payload, ≤ 42
//! bytes) and the storage hashers of short keys need; the general `blake2`
//! crate pays for buffering and a runtime σ lookup there.
//!
//! Short messages leave the upper message words zero. The compression is
//! instantiated for 4, 6, 8 and 16 live words; in the smaller instances the
//! zero words are constants, so their additions disappear.
//!
//! One message's twelve rounds are one long dependency chain (each G step
//! waits for the one before), so a single hash cannot use vector lanes: a
//! row-vectorised AVX2 compression measured about twice as slow as the
//! scalar one here and was dropped. Independent messages can share lanes:
//! [`digest_many`] hashes eight at once with AVX-512 or four with AVX2 (see
//! `lanes`), for batch work such as the SS58 checksums of many account ids.
//! Measured on the development machine (`ss58_hashing` bench, 40–42-byte
//! messages): one hash ≈ 97 ns (the `blake2` crate ≈ 108–115 ns); in
//! batches ≈ 30 ns per hash with AVX-512, ≈ 61 ns with AVX2.
//!
//! ```
//! use ferroscale_core::hashing::blake2b_block;
//! // RFC 7693 Appendix A: BLAKE2b-512("abc") starts ba 80 a5 3f.
//! let one: [u8; 64] = blake2b_block::digest(b"abc").unwrap();
//! assert_eq!(one[..4], [0xba, 0x80, 0xa5, 0x3f]);
//! let mut many = [[0u8; 64]; 3];
//! assert!(blake2b_block::digest_many(&[b"abc", b"", b"abc"], &mut many));
//! assert_eq!((many[0], many[2]), (one, one));
//! ```

#[cfg(target_arch = "x86_64")]
mod lanes;
mod portable;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "x86_64")]
pub use lanes::{avx2, avx512};

/// The longest message hashed here: one BLAKE2b block.
pub const MAX_LEN: usize = 128;

/// The longest output BLAKE2b defines (BLAKE2b-512).
pub const MAX_OUTPUT_LEN: usize = 64;

/// BLAKE2b's initialisation vector (RFC 7693 §2.6; the SHA-512 IV).
const IV: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

/// The message schedule (RFC 7693 §2.7): round `r` reads words in the order
/// `SIGMA[r % 10]`.
const SIGMA: [[usize; 16]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

/// BLAKE2b with an `N`-byte output of `data`, or `None` when `data` is longer
/// than one block ([`MAX_LEN`]). `N` must be 1–64 (checked at compile time).
pub fn digest<const N: usize>(data: &[u8]) -> Option<[u8; N]> {
    const {
        assert!(
            N >= 1 && N <= MAX_OUTPUT_LEN,
            "BLAKE2b output is 1-64 bytes"
        )
    };
    let mut out = [0u8; N];
    digest_into(data, &mut out).then_some(out)
}

/// BLAKE2b of `data` with an output as long as `out` (1–64 bytes), written
/// into `out`. Returns `false` (and leaves `out` alone) when `data` is longer
/// than [`MAX_LEN`] or `out` is empty or longer than 64 bytes.
pub fn digest_into(data: &[u8], out: &mut [u8]) -> bool {
    let Some(block) = Block::new(data, out.len()) else {
        return false;
    };
    write_output(&compress(&block), out);
    true
}

/// BLAKE2b with an `N`-byte output of every message in `messages`, into
/// the matching element of `out`. Returns `false` (leaving `out` alone)
/// when the two lengths differ or a message is longer than [`MAX_LEN`].
///
/// The same bytes as [`digest`] per message, but independent messages share
/// vector lanes where the CPU allows (eight at once with AVX-512, four with
/// AVX2), which is several times the throughput of one-by-one hashing.
pub fn digest_many<const N: usize>(messages: &[&[u8]], out: &mut [[u8; N]]) -> bool {
    const {
        assert!(
            N >= 1 && N <= MAX_OUTPUT_LEN,
            "BLAKE2b output is 1-64 bytes"
        )
    };
    if messages.len() != out.len() || messages.iter().any(|m| m.len() > MAX_LEN) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    let done = in_lanes(messages, out);
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for (message, digest) in messages[done..].iter().zip(&mut out[done..]) {
        digest_into(message, digest);
    }
    true
}

/// A vector path: `L` messages in, their `N`-byte digests out (`None` when
/// the CPU lacks the path's feature).
#[cfg(target_arch = "x86_64")]
type LanesDigest<const L: usize, const N: usize> = fn([&[u8]; L]) -> Option<[[u8; N]; L]>;

/// Hashes the longest prefix of `messages` that fills whole vector groups
/// (8 with AVX-512, else 4 with AVX2) and returns its length; the caller
/// hashes the rest one by one. Every message is at most [`MAX_LEN`] bytes.
#[cfg(target_arch = "x86_64")]
fn in_lanes<const N: usize>(messages: &[&[u8]], out: &mut [[u8; N]]) -> usize {
    /// Runs `digest` over whole groups of `L` messages.
    fn groups<const L: usize, const N: usize>(
        messages: &[&[u8]],
        out: &mut [[u8; N]],
        digest: LanesDigest<L, N>,
    ) -> usize {
        let mut done = 0;
        for (group, digests) in messages.chunks_exact(L).zip(out.chunks_exact_mut(L)) {
            let group: [&[u8]; L] = std::array::from_fn(|k| group[k]);
            let Some(hashed) = digest(group) else {
                break;
            };
            digests.copy_from_slice(&hashed);
            done += L;
        }
        done
    }
    if avx512::available() {
        groups(messages, out, avx512::digest_x8::<N>)
    } else if avx2::available() {
        groups(messages, out, avx2::digest_x4::<N>)
    } else {
        0
    }
}

/// The portable compression, instantiated for the block's live words.
fn compress(block: &Block) -> [u64; 8] {
    match block.live_words {
        0..=4 => portable::compress::<4>(block),
        5..=6 => portable::compress::<6>(block),
        7..=8 => portable::compress::<8>(block),
        _ => portable::compress::<16>(block),
    }
}

/// The first word of the parameter block for an `out_len`-byte digest:
/// digest length, key length 0, fanout and depth 1 (RFC 7693 §2.5), XORed
/// into `IV[0]` to give `h[0]`.
fn param0(out_len: usize) -> u64 {
    0x0101_0000 ^ out_len as u64
}

/// `data` (at most [`MAX_LEN`] bytes) as sixteen little-endian words,
/// zero-padded. Whole words are read in place and the last partial one byte
/// by byte: no staging buffer, no variable-length `memcpy` call.
#[inline(always)]
fn load_words(data: &[u8]) -> [u64; 16] {
    let mut words = [0u64; 16];
    let chunks = data.chunks_exact(8);
    let tail = chunks.remainder();
    for (word, chunk) in words.iter_mut().zip(chunks) {
        *word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
    }
    if !tail.is_empty() {
        let last = tail
            .iter()
            .rev()
            .fold(0u64, |word, &byte| word << 8 | u64::from(byte));
        words[(data.len() / 8) % 16] = last;
    }
    words
}

/// One message block, ready for the compression function.
struct Block {
    /// The message as little-endian words, zero-padded.
    words: [u64; 16],
    /// How many leading words can be non-zero (`ceil(len / 8)`).
    live_words: usize,
    /// The message length in bytes: the byte counter `t` after this block.
    len: u64,
    /// See [`param0`].
    param0: u64,
}

impl Block {
    /// Loads `data` for an `out_len`-byte digest; `None` when either is out
    /// of range.
    #[inline(always)]
    fn new(data: &[u8], out_len: usize) -> Option<Block> {
        if data.len() > MAX_LEN || out_len == 0 || out_len > MAX_OUTPUT_LEN {
            return None;
        }
        Some(Block {
            words: load_words(data),
            live_words: data.len().div_ceil(8),
            len: data.len() as u64,
            param0: param0(out_len),
        })
    }

    /// Message word `i` of an instance with `LIVE` live words: a constant
    /// zero past them, so the compiler drops the addition.
    #[inline(always)]
    fn word<const LIVE: usize>(&self, i: usize) -> u64 {
        if i < LIVE {
            self.words[i]
        } else {
            0
        }
    }
}

/// The first `out.len()` bytes of the little-endian chaining value.
#[inline(always)]
fn write_output(h: &[u64; 8], out: &mut [u8]) {
    let mut bytes = [0u8; MAX_OUTPUT_LEN];
    for (chunk, word) in bytes.chunks_exact_mut(8).zip(h) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    out.copy_from_slice(&bytes[..out.len()]);
}
