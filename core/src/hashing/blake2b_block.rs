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
//! [`digest_x4`] hashes four at once (AVX2 when the CPU has it), for batch
//! work such as the SS58 checksums of many account ids.

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

/// BLAKE2b with an `N`-byte output of four messages at once, or `None` when
/// one is longer than [`MAX_LEN`]. The same bytes as four calls of
/// [`digest`]; on x86_64 with AVX2 the four run side by side in vector lanes
/// ([`avx2::digest_x4`]), else one after another ([`digest_x4_portable`]).
pub fn digest_x4<const N: usize>(data: [&[u8]; 4]) -> Option<[[u8; N]; 4]> {
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        return avx2::digest_x4(data);
    }
    digest_x4_portable(data)
}

/// [`digest_x4`] as four calls of the portable compression, on every target.
pub fn digest_x4_portable<const N: usize>(data: [&[u8]; 4]) -> Option<[[u8; N]; 4]> {
    const {
        assert!(
            N >= 1 && N <= MAX_OUTPUT_LEN,
            "BLAKE2b output is 1-64 bytes"
        )
    };
    if data.iter().any(|message| message.len() > MAX_LEN) {
        return None;
    }
    let mut out = [[0u8; N]; 4];
    for (digest, message) in out.iter_mut().zip(data) {
        digest_into(message, digest);
    }
    Some(out)
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
/// zero-padded.
#[inline(always)]
fn load_words(data: &[u8]) -> [u64; 16] {
    let mut bytes = [0u8; MAX_LEN];
    bytes[..data.len()].copy_from_slice(data);
    let mut words = [0u64; 16];
    for (word, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
        *word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
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

/// The compression function on sixteen `u64`s; fully unrolled, so the
/// working vector lives in registers and σ indexes are constants.
mod portable {
    use super::{Block, IV, SIGMA};

    /// The mixing function G (RFC 7693 §3.1) on words `a`, `b`, `c`, `d` of
    /// the working vector with message words `x`, `y`.
    #[inline(always)]
    fn mix(v: &mut [u64; 16], [a, b, c, d]: [usize; 4], x: u64, y: u64) {
        v[a] = v[a].wrapping_add(v[b]).wrapping_add(x);
        v[d] = (v[d] ^ v[a]).rotate_right(32);
        v[c] = v[c].wrapping_add(v[d]);
        v[b] = (v[b] ^ v[c]).rotate_right(24);
        v[a] = v[a].wrapping_add(v[b]).wrapping_add(y);
        v[d] = (v[d] ^ v[a]).rotate_right(16);
        v[c] = v[c].wrapping_add(v[d]);
        v[b] = (v[b] ^ v[c]).rotate_right(63);
    }

    /// Round `R`: G on the four columns, then on the four diagonals.
    #[inline(always)]
    fn round<const R: usize, const LIVE: usize>(v: &mut [u64; 16], block: &Block) {
        let s = &SIGMA[R % 10];
        let m = |i: usize| block.word::<LIVE>(s[i]);
        mix(v, [0, 4, 8, 12], m(0), m(1));
        mix(v, [1, 5, 9, 13], m(2), m(3));
        mix(v, [2, 6, 10, 14], m(4), m(5));
        mix(v, [3, 7, 11, 15], m(6), m(7));
        mix(v, [0, 5, 10, 15], m(8), m(9));
        mix(v, [1, 6, 11, 12], m(10), m(11));
        mix(v, [2, 7, 8, 13], m(12), m(13));
        mix(v, [3, 4, 9, 14], m(14), m(15));
    }

    /// The chaining value after compressing `block` as the first and final
    /// block (RFC 7693 §3.2 with `t` = message length, `f` = true).
    #[inline(never)]
    pub(super) fn compress<const LIVE: usize>(block: &Block) -> [u64; 8] {
        let mut h = IV;
        h[0] ^= block.param0;
        let mut v = [0u64; 16];
        v[..8].copy_from_slice(&h);
        v[8..].copy_from_slice(&IV);
        v[12] ^= block.len; // the high counter word stays 0: len ≤ 128
        v[14] = !v[14]; // final block
        round::<0, LIVE>(&mut v, block);
        round::<1, LIVE>(&mut v, block);
        round::<2, LIVE>(&mut v, block);
        round::<3, LIVE>(&mut v, block);
        round::<4, LIVE>(&mut v, block);
        round::<5, LIVE>(&mut v, block);
        round::<6, LIVE>(&mut v, block);
        round::<7, LIVE>(&mut v, block);
        round::<8, LIVE>(&mut v, block);
        round::<9, LIVE>(&mut v, block);
        round::<10, LIVE>(&mut v, block);
        round::<11, LIVE>(&mut v, block);
        for i in 0..8 {
            h[i] ^= v[i] ^ v[i + 8];
        }
        h
    }
}

/// Four messages in the four 64-bit lanes of AVX2 vectors: vector `i`
/// holds word `i` of each message's working vector, so every G step is
/// one instruction for all four.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{load_words, param0, write_output, IV, MAX_LEN, MAX_OUTPUT_LEN, SIGMA};
    use std::arch::x86_64::*;

    /// Whether this CPU has AVX2 (`is_x86_feature_detected!` caches the
    /// answer after the first call).
    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx2")
    }

    /// [`super::digest_x4`] on AVX2: `None` when the CPU lacks AVX2 or a
    /// message is longer than [`MAX_LEN`].
    pub fn digest_x4<const N: usize>(data: [&[u8]; 4]) -> Option<[[u8; N]; 4]> {
        const {
            assert!(
                N >= 1 && N <= MAX_OUTPUT_LEN,
                "BLAKE2b output is 1-64 bytes"
            )
        };
        if !available() || data.iter().any(|message| message.len() > MAX_LEN) {
            return None;
        }
        let words = data.map(load_words);
        let lens = data.map(|message| message.len() as u64);
        let live = data.iter().map(|m| m.len().div_ceil(8)).max().unwrap_or(0);
        // SAFETY: the `compress_x4` instances are `#[target_feature(enable =
        // "avx2")]`; AVX2 was detected on this CPU just above.
        let h = unsafe {
            match live {
                0..=4 => compress_x4::<4>(&words, lens, param0(N)),
                5..=6 => compress_x4::<6>(&words, lens, param0(N)),
                7..=8 => compress_x4::<8>(&words, lens, param0(N)),
                _ => compress_x4::<16>(&words, lens, param0(N)),
            }
        };
        let mut out = [[0u8; N]; 4];
        for (digest, h) in out.iter_mut().zip(&h) {
            write_output(h, digest);
        }
        Some(out)
    }

    /// Lane-wise 64-bit rotate right by 32 / 24 / 16 / 63 bits. The first
    /// three move whole bytes (one shuffle); 63 is a left rotate by one:
    /// `(x + x) | (x >> 63)`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn ror32(x: __m256i) -> __m256i {
        _mm256_shuffle_epi32::<0b10_11_00_01>(x)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    fn ror24(x: __m256i) -> __m256i {
        let order = _mm256_setr_epi8(
            3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10, 3, 4, 5, 6, 7, 0, 1, 2, 11, 12,
            13, 14, 15, 8, 9, 10,
        );
        _mm256_shuffle_epi8(x, order)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    fn ror16(x: __m256i) -> __m256i {
        let order = _mm256_setr_epi8(
            2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9, 2, 3, 4, 5, 6, 7, 0, 1, 10, 11,
            12, 13, 14, 15, 8, 9,
        );
        _mm256_shuffle_epi8(x, order)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    fn ror63(x: __m256i) -> __m256i {
        _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64::<63>(x))
    }

    /// G on word vectors `a`, `b`, `c`, `d` with message word vectors `x`,
    /// `y`; `None` for a message word known to be zero in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn mix(
        v: &mut [__m256i; 16],
        [a, b, c, d]: [usize; 4],
        x: Option<__m256i>,
        y: Option<__m256i>,
    ) {
        if let Some(x) = x {
            v[a] = _mm256_add_epi64(v[a], x);
        }
        v[a] = _mm256_add_epi64(v[a], v[b]);
        v[d] = ror32(_mm256_xor_si256(v[d], v[a]));
        v[c] = _mm256_add_epi64(v[c], v[d]);
        v[b] = ror24(_mm256_xor_si256(v[b], v[c]));
        if let Some(y) = y {
            v[a] = _mm256_add_epi64(v[a], y);
        }
        v[a] = _mm256_add_epi64(v[a], v[b]);
        v[d] = ror16(_mm256_xor_si256(v[d], v[a]));
        v[c] = _mm256_add_epi64(v[c], v[d]);
        v[b] = ror63(_mm256_xor_si256(v[b], v[c]));
    }

    /// Round `R`: G on the four columns, then on the four diagonals.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn round<const R: usize, const LIVE: usize>(v: &mut [__m256i; 16], m: &[__m256i; 16]) {
        let s = &SIGMA[R % 10];
        let w = |i: usize| (s[i] < LIVE).then(|| m[s[i]]);
        mix(v, [0, 4, 8, 12], w(0), w(1));
        mix(v, [1, 5, 9, 13], w(2), w(3));
        mix(v, [2, 6, 10, 14], w(4), w(5));
        mix(v, [3, 7, 11, 15], w(6), w(7));
        mix(v, [0, 5, 10, 15], w(8), w(9));
        mix(v, [1, 6, 11, 12], w(10), w(11));
        mix(v, [2, 7, 8, 13], w(12), w(13));
        mix(v, [3, 4, 9, 14], w(14), w(15));
    }

    /// The chaining values of four first-and-final blocks (message words
    /// `words[k]`, length `lens[k]`), as in `portable::compress`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    fn compress_x4<const LIVE: usize>(
        words: &[[u64; 16]; 4],
        lens: [u64; 4],
        param0: u64,
    ) -> [[u64; 8]; 4] {
        // `_mm256_set_epi64x` takes lanes high to low.
        let lanes =
            |x: [u64; 4]| _mm256_set_epi64x(x[3] as i64, x[2] as i64, x[1] as i64, x[0] as i64);
        let splat = |x: u64| _mm256_set1_epi64x(x as i64);
        let mut m = [_mm256_setzero_si256(); 16];
        for (i, word) in m.iter_mut().enumerate().take(LIVE) {
            *word = lanes(words.map(|w| w[i]));
        }
        let mut h = IV.map(splat);
        h[0] = splat(IV[0] ^ param0);
        let mut v = [
            h[0],
            h[1],
            h[2],
            h[3],
            h[4],
            h[5],
            h[6],
            h[7],
            splat(IV[0]),
            splat(IV[1]),
            splat(IV[2]),
            splat(IV[3]),
            lanes(lens.map(|len| IV[4] ^ len)), // the low counter word
            splat(IV[5]),
            splat(!IV[6]), // final block
            splat(IV[7]),
        ];
        round::<0, LIVE>(&mut v, &m);
        round::<1, LIVE>(&mut v, &m);
        round::<2, LIVE>(&mut v, &m);
        round::<3, LIVE>(&mut v, &m);
        round::<4, LIVE>(&mut v, &m);
        round::<5, LIVE>(&mut v, &m);
        round::<6, LIVE>(&mut v, &m);
        round::<7, LIVE>(&mut v, &m);
        round::<8, LIVE>(&mut v, &m);
        round::<9, LIVE>(&mut v, &m);
        round::<10, LIVE>(&mut v, &m);
        round::<11, LIVE>(&mut v, &m);
        let mut out = [[0u64; 8]; 4];
        for i in 0..8 {
            let word = _mm256_xor_si256(h[i], _mm256_xor_si256(v[i], v[i + 8]));
            let mut lanes = [0u64; 4];
            // SAFETY: `lanes` is 4 u64s, exactly one unaligned 256-bit store.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), word) };
            for (k, lane) in lanes.into_iter().enumerate() {
                out[k][i] = lane;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blake2::digest::consts::{U16, U32};
    use blake2::digest::{Update, VariableOutput};
    use blake2::{Blake2b, Blake2b512, Blake2bVar, Digest};

    /// A seeded xorshift64* stream, so every run checks the same inputs.
    struct Bytes(u64);

    impl Bytes {
        fn fill(&mut self, buf: &mut [u8]) {
            for byte in buf {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                *byte = (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8;
            }
        }
    }

    /// The reference: the `blake2` crate with a runtime output length.
    fn reference(data: &[u8], out_len: usize) -> Vec<u8> {
        let mut hasher = Blake2bVar::new(out_len).unwrap();
        hasher.update(data);
        let mut out = vec![0u8; out_len];
        hasher.finalize_variable(&mut out).unwrap();
        out
    }

    /// Every four-message implementation this CPU can run, by name.
    #[allow(clippy::type_complexity)]
    fn x4_paths<const N: usize>() -> Vec<(&'static str, fn([&[u8]; 4]) -> Option<[[u8; N]; 4]>)> {
        let mut paths: Vec<(&'static str, fn([&[u8]; 4]) -> Option<[[u8; N]; 4]>)> = vec![
            ("x4 dispatch", digest_x4::<N>),
            ("x4 portable", digest_x4_portable::<N>),
        ];
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            paths.push(("x4 avx2", avx2::digest_x4::<N>));
        }
        paths
    }

    #[test]
    fn rfc_7693_abc_vector() {
        // RFC 7693 Appendix A: BLAKE2b-512("abc").
        let expected = "0xba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1\
                        7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";
        let mut out = [0u8; 64];
        assert!(digest_into(b"abc", &mut out));
        assert_eq!(crate::hex::encode_prefixed(&out), expected);
        assert_eq!(digest::<64>(b"abc"), Some(out));
        for (name, path) in x4_paths::<64>() {
            let four = path([b"abc", b"", b"abc", b"ab"]).unwrap();
            assert_eq!(crate::hex::encode_prefixed(&four[0]), expected, "{name}");
            assert_eq!(crate::hex::encode_prefixed(&four[2]), expected, "{name}");
            assert_ne!(four[1], four[0], "{name}");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_path_is_tested_where_the_cpu_has_it() {
        let has_avx2 = std::is_x86_feature_detected!("avx2");
        assert_eq!(avx2::available(), has_avx2);
        assert_eq!(x4_paths::<32>().len(), if has_avx2 { 3 } else { 2 });
        assert_eq!(avx2::digest_x4::<32>([b""; 4]).is_some(), has_avx2);
    }

    #[test]
    fn every_length_and_output_size_matches_the_blake2_crate() {
        let mut random = Bytes(0x5eed_b1a2_b0c4_1234);
        let mut data = [0u8; MAX_LEN];
        for len in 0..=MAX_LEN {
            for sample in 0..6 {
                // Random bytes, plus all-0xff so no word past the end of a
                // short message can hide as zero.
                if sample == 0 {
                    data.fill(0xff);
                } else {
                    random.fill(&mut data);
                }
                let data = &data[..len];
                for out_len in 1..=MAX_OUTPUT_LEN {
                    let mut out = vec![0u8; out_len];
                    assert!(digest_into(data, &mut out));
                    assert_eq!(
                        out,
                        reference(data, out_len),
                        "input {len} bytes, output {out_len}"
                    );
                }
            }
        }
    }

    /// Four messages per call, lengths spread so that every lane sees every
    /// length 0–128 next to other lengths (the live-word count follows the
    /// longest of the four).
    fn check_x4<const N: usize>(random: &mut Bytes) {
        let paths = x4_paths::<N>();
        let mut buffers = [[0u8; MAX_LEN]; 4];
        for len in 0..=MAX_LEN {
            for buffer in &mut buffers {
                random.fill(buffer);
            }
            let lens = [len, (len + 37) % 129, (len + 81) % 129, MAX_LEN - len];
            let data: [&[u8]; 4] = std::array::from_fn(|k| &buffers[k][..lens[k]]);
            let expected = data.map(|message| reference(message, N));
            for (name, path) in &paths {
                let got = path(data).unwrap_or_else(|| panic!("{name}: refused {lens:?}"));
                for k in 0..4 {
                    assert_eq!(
                        got[k][..],
                        expected[k][..],
                        "{name}: output {N}, lengths {lens:?}, lane {k}"
                    );
                }
            }
        }
    }

    #[test]
    fn four_at_once_matches_the_blake2_crate_for_every_output_size() {
        let mut random = Bytes(0xfeed_f00d_1234_5678);
        macro_rules! each_output_len {
            ($($n:literal)*) => { $(check_x4::<$n>(&mut random);)* };
        }
        each_output_len!(
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61
            62 63 64
        );
    }

    #[test]
    fn fixed_output_sizes_match_the_blake2_crate() {
        let mut random = Bytes(0x0dd_ba11);
        let mut data = [0u8; MAX_LEN];
        for len in 0..=MAX_LEN {
            random.fill(&mut data);
            let data = &data[..len];
            let out16: [u8; 16] = Blake2b::<U16>::digest(data).into();
            let out32: [u8; 32] = Blake2b::<U32>::digest(data).into();
            let out64: [u8; 64] = Blake2b512::digest(data).into();
            assert_eq!(digest::<16>(data), Some(out16), "{len}");
            assert_eq!(digest::<32>(data), Some(out32), "{len}");
            assert_eq!(digest::<64>(data), Some(out64), "{len}");
        }
    }

    #[test]
    fn refuses_what_does_not_fit_one_block() {
        let mut out = [7u8; 65];
        let long = [0u8; MAX_LEN + 1];
        assert!(!digest_into(&long, &mut out[..32]));
        assert!(!digest_into(b"abc", &mut out[..0]));
        assert!(!digest_into(b"abc", &mut out[..65]));
        assert_eq!(out, [7u8; 65], "output untouched");
        assert_eq!(digest::<32>(&long), None);
        for (name, path) in x4_paths::<32>() {
            assert!(path([b"", b"abc", &long, b""]).is_none(), "{name}");
        }
    }
}
