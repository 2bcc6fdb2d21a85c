//! The compression function on sixteen `u64`s, fully unrolled so the
//! working vector lives in registers and σ indexes are constants.

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
