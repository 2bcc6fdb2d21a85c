//! Several messages at once, one per 64-bit vector lane: vector `i` holds
//! word `i` of every message's working vector, so each G step is one
//! instruction for all of them. Same rounds as `portable`; only the word
//! type changes, so one macro writes both widths:
//!
//! - [`avx2`]: four messages in `__m256i` (rotations by byte shuffles and,
//!   for 63, add/shift/or);
//! - [`avx512`]: eight messages in `__m512i` (rotations are one `vprorq`).
//!
//! Each is used only after `is_x86_feature_detected!` said yes.

use std::arch::x86_64::*;

/// Writes a module `$module` with `available()` and `$digest`, hashing
/// `$lanes` messages in vectors of type `$vector` under `$feature`.
macro_rules! lanes_module {
    (
        $(#[$doc:meta])*
        mod $module:ident, fn $digest:ident, lanes = $lanes:literal, feature = $feature:tt,
        vector = $vector:ty, add = $add:ident, xor = $xor:ident, ror = $ror:ident $(,)?
    ) => {
        $(#[$doc])*
        pub mod $module {
            use super::super::{load_words, param0, write_output, IV, MAX_LEN, MAX_OUTPUT_LEN, SIGMA};
            use super::$ror;
            use std::arch::x86_64::*;

            type Vector = $vector;

            /// How many messages one call hashes.
            pub const LANES: usize = $lanes;

            /// Whether this CPU can run this path (`is_x86_feature_detected!`
            /// caches the answer after the first call).
            pub fn available() -> bool {
                std::is_x86_feature_detected!($feature)
            }

            /// BLAKE2b with an `N`-byte output of each message, or `None` when
            /// the CPU lacks the feature or a message is longer than
            /// [`MAX_LEN`]. Same bytes as [`super::super::digest`] per message.
            pub fn $digest<const N: usize>(data: [&[u8]; $lanes]) -> Option<[[u8; N]; $lanes]> {
                const { assert!(N >= 1 && N <= MAX_OUTPUT_LEN, "BLAKE2b output is 1-64 bytes") };
                if !available() || data.iter().any(|message| message.len() > MAX_LEN) {
                    return None;
                }
                let mut words = [[0u64; 16]; $lanes];
                for (words, message) in words.iter_mut().zip(data) {
                    *words = load_words(message);
                }
                let lens = data.map(|message| message.len() as u64);
                let live = data.iter().map(|m| m.len().div_ceil(8)).max().unwrap_or(0);
                // SAFETY: the `compress` instances are `#[target_feature]`
                // functions of this module's feature, detected just above.
                let h = unsafe {
                    match live {
                        0..=4 => compress::<4>(&words, lens, param0(N)),
                        5..=6 => compress::<6>(&words, lens, param0(N)),
                        7..=8 => compress::<8>(&words, lens, param0(N)),
                        _ => compress::<16>(&words, lens, param0(N)),
                    }
                };
                let mut out = [[0u8; N]; $lanes];
                for (digest, h) in out.iter_mut().zip(&h) {
                    write_output(h, digest);
                }
                Some(out)
            }

            /// One word per lane into a vector.
            #[inline]
            #[target_feature(enable = $feature)]
            fn to_vector(lanes: [u64; $lanes]) -> Vector {
                // SAFETY: same size (checked by `transmute`), and every bit
                // pattern is a valid integer array and vector.
                unsafe { std::mem::transmute::<[u64; $lanes], Vector>(lanes) }
            }

            /// A vector back into one word per lane.
            #[inline]
            #[target_feature(enable = $feature)]
            fn from_vector(vector: Vector) -> [u64; $lanes] {
                // SAFETY: as in `to_vector`.
                unsafe { std::mem::transmute::<Vector, [u64; $lanes]>(vector) }
            }

            /// G on word vectors `a`, `b`, `c`, `d` with message word vectors
            /// `x`, `y`; `None` for a word known to be zero in every lane.
            #[inline]
            #[target_feature(enable = $feature)]
            fn mix(
                v: &mut [Vector; 16],
                [a, b, c, d]: [usize; 4],
                x: Option<Vector>,
                y: Option<Vector>,
            ) {
                if let Some(x) = x {
                    v[a] = $add(v[a], x);
                }
                v[a] = $add(v[a], v[b]);
                v[d] = $ror::<32>($xor(v[d], v[a]));
                v[c] = $add(v[c], v[d]);
                v[b] = $ror::<24>($xor(v[b], v[c]));
                if let Some(y) = y {
                    v[a] = $add(v[a], y);
                }
                v[a] = $add(v[a], v[b]);
                v[d] = $ror::<16>($xor(v[d], v[a]));
                v[c] = $add(v[c], v[d]);
                v[b] = $ror::<63>($xor(v[b], v[c]));
            }

            /// Round `R`: G on the four columns, then on the four diagonals.
            #[inline]
            #[target_feature(enable = $feature)]
            fn round<const R: usize, const LIVE: usize>(v: &mut [Vector; 16], m: &[Vector; 16]) {
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

            /// The chaining values of first-and-final blocks (message words
            /// `words[k]`, length `lens[k]`), as in `portable::compress`.
            #[inline(never)]
            #[target_feature(enable = $feature)]
            fn compress<const LIVE: usize>(
                words: &[[u64; 16]; $lanes],
                lens: [u64; $lanes],
                param0: u64,
            ) -> [[u64; 8]; $lanes] {
                let splat = |x: u64| to_vector([x; $lanes]);
                let mut m = [splat(0); 16];
                for (i, word) in m.iter_mut().enumerate().take(LIVE) {
                    *word = to_vector(std::array::from_fn(|k| words[k][i]));
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
                    to_vector(lens.map(|len| IV[4] ^ len)), // the low counter word
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
                let mut out = [[0u64; 8]; $lanes];
                for i in 0..8 {
                    let word = from_vector($xor(h[i], $xor(v[i], v[i + 8])));
                    for (k, lane) in word.into_iter().enumerate() {
                        out[k][i] = lane;
                    }
                }
                out
            }
        }
    };
}

/// Lane-wise 64-bit rotate right by `K` (32, 24, 16 or 63) on AVX2, which
/// has no rotate: whole-byte rotations are one shuffle; 63 is a left rotate
/// by one, `(x + x) | (x >> 63)`.
#[inline]
#[target_feature(enable = "avx2")]
fn ror_avx2<const K: i32>(x: __m256i) -> __m256i {
    const { assert!(K == 32 || K == 24 || K == 16 || K == 63) };
    match K {
        32 => _mm256_shuffle_epi32::<0b10_11_00_01>(x),
        24 => _mm256_shuffle_epi8(
            x,
            _mm256_setr_epi8(
                3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10, 3, 4, 5, 6, 7, 0, 1, 2, 11,
                12, 13, 14, 15, 8, 9, 10,
            ),
        ),
        16 => _mm256_shuffle_epi8(
            x,
            _mm256_setr_epi8(
                2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9, 2, 3, 4, 5, 6, 7, 0, 1, 10,
                11, 12, 13, 14, 15, 8, 9,
            ),
        ),
        _ => _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64::<63>(x)),
    }
}

/// Lane-wise 64-bit rotate right by `K` on AVX-512: one `vprorq`.
#[inline]
#[target_feature(enable = "avx512f")]
fn ror_avx512<const K: i32>(x: __m512i) -> __m512i {
    _mm512_ror_epi64::<K>(x)
}

lanes_module! {
    /// Four messages in the lanes of AVX2 vectors.
    mod avx2, fn digest_x4, lanes = 4, feature = "avx2",
    vector = __m256i, add = _mm256_add_epi64, xor = _mm256_xor_si256, ror = ror_avx2,
}

lanes_module! {
    /// Eight messages in the lanes of AVX-512 vectors.
    mod avx512, fn digest_x8, lanes = 8, feature = "avx512f",
    vector = __m512i, add = _mm512_add_epi64, xor = _mm512_xor_si512, ror = ror_avx512,
}
