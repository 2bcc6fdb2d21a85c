//! Base58 (Bitcoin alphabet) text of the short byte strings an address is
//! made of (at most 37 bytes), without heap allocation.
//!
//! The number is held in limbs of 58^5 (little-endian limb order) and the
//! input is fed four bytes at a time: `limb · 2^32 + carry` stays below
//! 2^63, and dividing by the constant 58^5 compiles to a multiplication, so
//! a 35-byte account address takes about fifty limb steps instead of the
//! byte-by-byte long division of a general base58 encoder.

/// The Bitcoin base58 alphabet SS58 uses.
const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// 58^5: five base58 digits per limb (below 2^30).
const LIMB: u64 = 58 * 58 * 58 * 58 * 58;

/// The longest input [`encode`] accepts.
pub(super) const MAX_INPUT: usize = 40;

/// Room for the text of [`MAX_INPUT`] bytes: 40 · log₅₈(256) < 55 characters.
pub(super) const TEXT_CAP: usize = 56;

/// Writes the base58 text of `input` (at most [`MAX_INPUT`] bytes) to the
/// start of `out`; returns its length. Longer input writes nothing.
pub(super) fn encode(input: &[u8], out: &mut [u8; TEXT_CAP]) -> usize {
    if input.len() > MAX_INPUT {
        return 0;
    }
    // 40 bytes < 58^55: eleven limbs of five digits.
    let mut limbs = [0u64; 11];
    let mut used = 0usize;
    // The first chunk takes the bytes that do not fill a four-byte chunk.
    let head = input.len() % 4;
    let (first, rest) = input.split_at(head);
    let chunks = std::iter::once(first)
        .filter(|c| !c.is_empty())
        .chain(rest.chunks_exact(4));
    for chunk in chunks {
        let shift = 8 * chunk.len() as u32;
        let mut carry = chunk.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
        for limb in limbs.iter_mut().take(used) {
            let x = (*limb << shift) + carry;
            *limb = x % LIMB;
            carry = x / LIMB;
        }
        while carry > 0 {
            limbs[used] = carry % LIMB;
            carry /= LIMB;
            used += 1;
        }
    }
    // Digits, least significant first.
    let mut digits = [0u8; 5 * 11];
    let mut n = 0;
    for &limb in &limbs[..used] {
        let mut l = limb;
        for _ in 0..5 {
            digits[n] = (l % 58) as u8;
            l /= 58;
            n += 1;
        }
    }
    while n > 0 && digits[n - 1] == 0 {
        n -= 1;
    }
    // Each leading zero byte is written as a '1'.
    let zeros = input.iter().take_while(|&&b| b == 0).count();
    out[..zeros].fill(b'1');
    for (slot, &d) in out[zeros..zeros + n]
        .iter_mut()
        .zip(digits[..n].iter().rev())
    {
        *slot = ALPHABET[usize::from(d)];
    }
    zeros + n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(input: &[u8]) -> String {
        let mut out = [0u8; TEXT_CAP];
        let n = encode(input, &mut out);
        String::from_utf8(out[..n].to_vec()).unwrap()
    }

    /// Agrees with the `bs58` crate on every length up to the cap, with
    /// leading zero bytes, all-zero and all-0xff input.
    #[test]
    fn matches_bs58_on_every_length() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        };
        for len in 0..=MAX_INPUT {
            let mut cases = vec![vec![0u8; len], vec![0xff; len]];
            for zeros in [0, 1, 3] {
                for _ in 0..20 {
                    let mut v: Vec<u8> = (0..len).map(|_| next()).collect();
                    for b in v.iter_mut().take(zeros) {
                        *b = 0;
                    }
                    cases.push(v);
                }
            }
            for c in cases {
                assert_eq!(text(&c), bs58::encode(&c).into_string(), "{c:02x?}");
            }
        }
    }

    #[test]
    fn refuses_input_over_the_cap() {
        assert_eq!(text(&[1u8; MAX_INPUT + 1]), "");
    }
}
