//! Base58 (Bitcoin alphabet) text of the short byte strings an address is
//! made of (at most [`MAX_INPUT`] bytes), and back, without heap allocation.
//!
//! Instead of long division, the conversion is a change of basis done as one
//! matrix-vector product. The input is read as big-endian 32-bit binary
//! limbs `x_i` (limb 0 least significant), so the number is `Σ x_i · 2^(32i)`.
//! [`WEIGHT`] holds, computed at compile time, every `2^(32i)` written in
//! base 58^5; the base-58^5 digit `j` of the number before carrying is then
//! `Σ_i x_i · WEIGHT[i][j]` — independent multiply-accumulates that the CPU
//! runs side by side. Two carry passes that divide every digit at once
//! (see [`normalise`]) bring every digit below 58^5, and each digit becomes
//! five characters (see [`digit_chars`]).
//!
//! Every input length is compiled as its own instance (one per limb count),
//! so the loops are fully unrolled and the zero entries of [`WEIGHT`] cost
//! nothing: a 35-byte account address (nine limbs, ten digits) takes about
//! fifty multiplications that do not wait on one another.
//!
//! [`decode`] runs the same idea the other way round (five-character groups
//! times the powers of 58^5 in 24-bit binary limbs).

/// The Bitcoin base58 alphabet SS58 uses.
const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// The longest input [`encode`] accepts.
pub(super) const MAX_INPUT: usize = 40;

/// The longest text: 40 · log₅₈(256) < 55 characters.
const MAX_TEXT: usize = 55;

/// Room for the text of [`MAX_INPUT`] bytes ([`MAX_TEXT`] characters) and
/// the 3 bytes the last 8-byte store of [`encode`] may write past it,
/// rounded up to a multiple of 16.
pub(super) const TEXT_CAP: usize = 64;

/// Base58 characters carried by one wide digit.
const CHARS_PER_DIGIT: usize = 5;

/// The wide digit base, 58^5 (below 2^30, so a digit fits a `u32`).
const DIGIT_BASE: u64 = 58 * 58 * 58 * 58 * 58;

/// 32-bit binary limbs of the longest input.
const LIMBS: usize = MAX_INPUT / 4;

/// Wide digits of the longest text: 2^320 < 58^55.
const DIGITS: usize = 11;

/// `WEIGHT[i]` is `2^(32·i)` in base 58^5, least significant digit first,
/// for `i` in `0..=LIMBS` (the last row, 2^320, only serves [`digits_for`]).
const WEIGHT: [[u32; DIGITS]; LIMBS + 1] = powers_of_two_32();

/// Builds [`WEIGHT`] by repeated multiplication by 2^32 with carrying; the
/// compiler refuses the crate if a carry runs past the last digit.
const fn powers_of_two_32() -> [[u32; DIGITS]; LIMBS + 1] {
    let mut rows = [[0u32; DIGITS]; LIMBS + 1];
    rows[0][0] = 1;
    let mut i = 1;
    while i <= LIMBS {
        let mut carry = 0u64;
        let mut j = 0;
        while j < DIGITS {
            // digit < 2^30, so digit · 2^32 + carry < 2^62 + 2^33.
            let x = ((rows[i - 1][j] as u64) << 32) + carry;
            rows[i][j] = (x % DIGIT_BASE) as u32;
            carry = x / DIGIT_BASE;
            j += 1;
        }
        assert!(carry == 0, "WEIGHT needs more digits");
        i += 1;
    }
    rows
}

/// How many digits of `row` are below its highest non-zero one, plus one.
const fn used_digits(row: &[u32; DIGITS]) -> usize {
    let mut n = DIGITS;
    while n > 0 && row[n - 1] == 0 {
        n -= 1;
    }
    n
}

/// Wide digits needed for any number of `limbs` limbs, i.e. below
/// 2^(32·limbs): as many as 2^(32·limbs) itself has (it is never a power of
/// 58, so one less than it has no fewer digits).
const fn digits_for(limbs: usize) -> usize {
    used_digits(&WEIGHT[limbs])
}

/// Proof that the multiply-accumulate and the carry pass never overflow a
/// `u64`, for every input: each limb is at most `u32::MAX`, so digit `j`
/// accumulates at most `u32::MAX · Σ_i WEIGHT[i][j]`, and the carry it
/// receives is at most the previous digit's bound divided by 58^5. The
/// compiler evaluates this (the largest bound is about 0.78 · 2^64) and
/// refuses the crate if it does not hold.
const _: () = {
    let mut carry: u128 = 0;
    let mut j = 0;
    while j < DIGITS {
        let mut bound: u128 = carry;
        let mut i = 0;
        while i < LIMBS {
            bound += WEIGHT[i][j] as u128 * u32::MAX as u128;
            i += 1;
        }
        assert!(bound <= u64::MAX as u128, "digit sum can overflow u64");
        carry = bound / DIGIT_BASE as u128;
        j += 1;
    }
    // The last digit needs no carry out: 2^320 has DIGITS digits.
    assert!(digits_for(LIMBS) == DIGITS);
    // The longest text fills every digit; an 8-byte store ending the text
    // spills 3 bytes, which TEXT_CAP has room for. `digits_from_top!` in
    // `encode_limbs` names the digits 10 down to 0.
    assert!(MAX_TEXT == CHARS_PER_DIGIT * DIGITS && MAX_TEXT + 3 <= TEXT_CAP);
    assert!(DIGITS == 11);
};

/// Writes the base58 text of `input` (at most [`MAX_INPUT`] bytes) to the
/// start of `out`; returns its length. Longer input writes nothing. Bytes of
/// `out` past the returned length are unspecified.
pub(super) fn encode(input: &[u8], out: &mut [u8; TEXT_CAP]) -> usize {
    // One instance per limb count; the address lengths (3–37 bytes) spread
    // over all of them.
    match input.len().div_ceil(4) {
        0 | 1 => encode_limbs::<1>(input, out),
        2 => encode_limbs::<2>(input, out),
        3 => encode_limbs::<3>(input, out),
        4 => encode_limbs::<4>(input, out),
        5 => encode_limbs::<5>(input, out),
        6 => encode_limbs::<6>(input, out),
        7 => encode_limbs::<7>(input, out),
        8 => encode_limbs::<8>(input, out),
        9 => encode_limbs::<9>(input, out),
        10 => encode_limbs::<10>(input, out),
        _ => 0,
    }
}

/// [`encode`] for input of `4·L - 3 ..= 4·L` bytes (or none, with `L = 1`).
#[inline(always)]
fn encode_limbs<const L: usize>(input: &[u8], out: &mut [u8; TEXT_CAP]) -> usize {
    let n = input.len();
    debug_assert!(n <= 4 * L && (L == 1 || n + 3 >= 4 * L));
    // Binary limbs, least significant first: the last L-1 are whole 4-byte
    // groups at the end of the input, the top one takes the 1–4 bytes left.
    let mut limbs = [0u64; L];
    for (i, limb) in limbs.iter_mut().enumerate().take(L - 1) {
        let end = n - 4 * i;
        let group: [u8; 4] = input[end - 4..end].try_into().unwrap_or_default();
        *limb = u64::from(u32::from_be_bytes(group));
    }
    limbs[L - 1] = input[..n - 4 * (L - 1)]
        .iter()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));

    // The change of basis: independent multiply-accumulates, skipping the
    // known-zero high digits of each weight (see the overflow proof above).
    let digits = const { digits_for(L) };
    let mut acc = [0u64; DIGITS];
    for (limb, weight) in limbs.iter().zip(&WEIGHT) {
        let used = used_digits(weight);
        for (a, &w) in acc.iter_mut().zip(weight).take(used) {
            *a += limb * u64::from(w);
        }
    }
    let acc = normalise(acc, digits);

    // The text's length: the leading zero bytes as '1's, then the digits
    // from the highest non-zero one on, that one without its leading zeros.
    let zeros = input.iter().take_while(|&&b| b == 0).count();
    let significant = match (0..digits).rev().find(|&j| acc[j] != 0) {
        Some(top) => CHARS_PER_DIGIT * top + char_count(acc[top]),
        None => 0,
    };
    // At most 55 (see TEXT_CAP); the `min` only tells the compiler so, to
    // spare the bounds checks of the stores below.
    let len = (zeros + significant).min(MAX_TEXT);

    // Characters straight into `out` (no copy through a scratch buffer,
    // whose read-back would wait for the stores just made): '1's first, then each
    // digit as one 8-byte store of its five characters, most significant
    // digit first, so the three bytes a store spills past its digit are
    // overwritten by the next one, or land past the text (TEXT_CAP leaves
    // room for that). Written out per digit rather than as a loop, which
    // the compiler would keep rolled.
    out.fill(ALPHABET[0]);
    macro_rules! digits_from_top {
        ($($j:literal)*) => {$(
            if $j < digits {
                put_digit(out, len, $j, acc[$j]);
            }
        )*};
    }
    digits_from_top!(10 9 8 7 6 5 4 3 2 1 0);
    len
}

/// Writes the characters of digit `j` (counted from the least significant)
/// of a text of `len` characters into `out`. A digit whose start would fall
/// before the text is written without its leading characters, which are
/// then '1's (leading zeros of the number, or zero bytes' '1's).
#[inline(always)]
fn put_digit(out: &mut [u8; TEXT_CAP], len: usize, j: usize, digit: u32) {
    let word = digit_chars(digit);
    let from_end = CHARS_PER_DIGIT * (j + 1);
    if from_end <= len {
        let at = len - from_end;
        out[at..at + 8].copy_from_slice(&word.to_le_bytes());
    } else if from_end - CHARS_PER_DIGIT < len {
        let dropped = from_end - len;
        out[..8].copy_from_slice(&(word >> (8 * dropped)).to_le_bytes());
    }
}

/// Brings the first `digits` accumulated digits below 58^5 (the rest are
/// zero and stay so). A plain carry pass would chain one division per digit;
/// instead two passes divide every digit at once and add the quotient to the
/// next digit: after the first, digit `j` is below `58^5 + 2^35` (the
/// quotient of a `u64` by 58^5), after the second below `58^5 + 54`, which
/// is 58^5 or more only with odds of about one in ten million per digit.
/// Then a serial pass with carries of 0 or 1 finishes the job.
#[inline(always)]
fn normalise(mut acc: [u64; DIGITS], digits: usize) -> [u32; DIGITS] {
    for _ in 0..2 {
        let mut carry = 0u64;
        for a in acc.iter_mut().take(digits) {
            let (q, r) = (*a / DIGIT_BASE, *a % DIGIT_BASE);
            *a = r + carry;
            carry = q;
        }
        // The top digit's quotient is zero: the value has `digits` digits.
        debug_assert_eq!(carry, 0);
    }
    // Checked without early exit so it compiles to straight-line code.
    let overflow = acc
        .iter()
        .take(digits)
        .fold(false, |seen, &a| seen | (a >= DIGIT_BASE));
    if overflow {
        let mut carry = 0;
        for a in acc.iter_mut().take(digits) {
            *a += carry;
            carry = u64::from(*a >= DIGIT_BASE);
            *a -= carry * DIGIT_BASE;
        }
    }
    // Every digit is now below 58^5 < 2^30.
    acc.map(|a| a as u32)
}

/// Two base58 characters for every value below 58² (and, so that an index
/// masked to 12 bits needs no bounds check, filler up to 2^12): `PAIRS[v]`
/// holds the character of `v / 58` in its low byte and that of `v % 58` in
/// its high byte, so its little-endian bytes read in text order.
const PAIRS: [u16; 1 << 12] = {
    let mut pairs = [0u16; 1 << 12];
    let mut v = 0;
    while v < 58 * 58 {
        pairs[v] = ALPHABET[v / 58] as u16 | (ALPHABET[v % 58] as u16) << 8;
        v += 1;
    }
    pairs
};

/// How many characters a non-zero digit below 58^5 has without leading zeros.
#[inline(always)]
fn char_count(digit: u32) -> usize {
    1 + [58, 58 * 58, 58 * 58 * 58, 58 * 58 * 58 * 58]
        .iter()
        .filter(|&&power| digit >= power)
        .count()
}

/// The five characters of a digit below 58^5, in text order in the low five
/// little-endian bytes: two from `PAIRS`, one from the alphabet, two from
/// `PAIRS`.
///
/// The split into 2 + 1 + 2 base-58 places uses a binary fraction rather
/// than division and remainder (which costs a multiplication each): with
/// `M = ⌈2^51 / 58³⌉`, `t = digit · M` holds `digit / 58³` with 51
/// fraction bits, exact up to `δ = digit · (M - 2^51/58³) / 2^51 < 2^-21.7`,
/// always upward. The integer part is the top pair. Multiplying the
/// fraction by 58 and then by 58² brings the next places into the integer
/// part; the true fraction is `m / 58³` for an integer `m`, and the error
/// grows to at most `58³ · δ < 2^-4`, never enough to reach the next
/// integer, so every place comes out exact. Nothing overflows: `t < 2^30 ·
/// 2^34`, and the fraction (below 2^51) times 58 or 58² stays below 2^63.
/// The test `digit_chars_matches_division` checks every case the argument
/// depends on.
#[inline(always)]
fn digit_chars(digit: u32) -> u64 {
    const BITS: u32 = 51;
    const FRACTION: u64 = (1 << BITS) - 1;
    const INVERSE: u64 = (1u64 << BITS).div_ceil(58 * 58 * 58);
    let t = u64::from(digit) * INVERSE;
    let high = t >> BITS;
    let t = (t & FRACTION) * 58;
    let middle = t >> BITS;
    let low = ((t & FRACTION) * (58 * 58)) >> BITS;
    // high < 58², middle < 58, low < 58²; the masks only spare the
    // compiler's bounds checks.
    u64::from(PAIRS[(high & 0xfff) as usize])
        | u64::from(ALPHABET_64[(middle & 63) as usize]) << 16
        | u64::from(PAIRS[(low & 0xfff) as usize]) << 24
}

/// [`ALPHABET`] padded to 64 entries, so an index masked to 6 bits needs no
/// bounds check.
const ALPHABET_64: [u8; 64] = {
    let mut padded = [0u8; 64];
    let mut i = 0;
    while i < 58 {
        padded[i] = ALPHABET[i];
        i += 1;
    }
    padded
};

// ---------------------------------------------------------------- decoding
//
// The same change of basis the other way round: the text is cut into
// groups of five characters from the right (each a base-58^5 digit `g_k`),
// and [`GROUP_WEIGHT`] holds every `58^(5k)` in binary limbs of 24 bits, so
// limb `l` of the value before carrying is `Σ_k g_k · GROUP_WEIGHT[k][l]`.
// Carrying between 24-bit limbs is a shift and a mask.

/// The longest text [`decode`] accepts: as long as the longest [`encode`]
/// writes (SS58 addresses are at most 51 characters).
pub(super) const MAX_DECODE_TEXT: usize = MAX_TEXT;

/// Room for the bytes of [`MAX_DECODE_TEXT`] characters: a leading '1' is
/// one zero byte and any other character carries less than a byte.
pub(super) const DECODE_CAP: usize = MAX_DECODE_TEXT;

/// Why a text is not base58.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DecodeError {
    /// Longer than [`MAX_DECODE_TEXT`] bytes.
    TooLong,
    /// An ASCII character outside the alphabet, at this byte index.
    Invalid { character: char, index: usize },
    /// A byte of a non-ASCII character, at this byte index.
    NonAscii { index: usize },
}

/// Marks the bytes of [`VALUES`] that are not base58 characters.
const INVALID: u8 = 0xff;

/// The place value (0–57) of every byte that is a base58 character.
const VALUES: [u8; 256] = {
    let mut values = [INVALID; 256];
    let mut i = 0;
    while i < 58 {
        values[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    values
};

/// Bits per binary limb of a decoded value.
const BINARY_BITS: u32 = 24;

/// Binary limbs of the largest value: 58^55 < 2^336 (checked below).
const BINARY_LIMBS: usize = 14;

/// Five-character groups of the longest text.
const GROUPS: usize = MAX_DECODE_TEXT / CHARS_PER_DIGIT;

/// `GROUP_WEIGHT[k]` is `58^(5·k)` in binary limbs of 24 bits, least
/// significant first, for `k` in `0..=GROUPS` (the last row, 58^55, only
/// proves that the largest value fits).
const GROUP_WEIGHT: [[u32; BINARY_LIMBS]; GROUPS + 1] = {
    let mut rows = [[0u32; BINARY_LIMBS]; GROUPS + 1];
    rows[0][0] = 1;
    let mut k = 1;
    while k <= GROUPS {
        let mut carry = 0u64;
        let mut l = 0;
        while l < BINARY_LIMBS {
            // limb < 2^24, so limb · 58^5 + carry < 2^54 + 2^30.
            let x = rows[k - 1][l] as u64 * DIGIT_BASE + carry;
            rows[k][l] = (x & ((1 << BINARY_BITS) - 1)) as u32;
            carry = x >> BINARY_BITS;
            l += 1;
        }
        assert!(carry == 0, "GROUP_WEIGHT needs more limbs");
        k += 1;
    }
    rows
};

/// Proof that decoding never overflows a `u64`: each group is below 58^5,
/// so limb `l` accumulates at most `(58^5 - 1) · Σ_k GROUP_WEIGHT[k][l]`
/// (about 2^57) plus the carry from the limb below.
const _: () = {
    let mut carry: u128 = 0;
    let mut l = 0;
    while l < BINARY_LIMBS {
        let mut bound = carry;
        let mut k = 0;
        while k < GROUPS {
            bound += GROUP_WEIGHT[k][l] as u128 * (DIGIT_BASE as u128 - 1);
            k += 1;
        }
        assert!(bound <= u64::MAX as u128, "limb sum can overflow u64");
        carry = bound >> BINARY_BITS;
        l += 1;
    }
    assert!(GROUPS * CHARS_PER_DIGIT == MAX_DECODE_TEXT);
};

/// Writes the bytes `text` stands for to the start of `out`; returns their
/// number. Like `bs58`: each leading '1' is a zero byte, the rest is the
/// big-endian value without leading zero bytes. Errors name the first
/// byte that is not a base58 character.
pub(super) fn decode(text: &[u8], out: &mut [u8; DECODE_CAP]) -> Result<usize, DecodeError> {
    if text.len() > MAX_DECODE_TEXT {
        return Err(DecodeError::TooLong);
    }
    if let Some(index) = text.iter().position(|&c| VALUES[usize::from(c)] == INVALID) {
        let c = text[index];
        return Err(if c.is_ascii() {
            DecodeError::Invalid {
                character: char::from(c),
                index,
            }
        } else {
            DecodeError::NonAscii { index }
        });
    }
    Ok(match text.len().div_ceil(CHARS_PER_DIGIT) {
        0 | 1 => decode_groups::<1>(text, out),
        2 => decode_groups::<2>(text, out),
        3 => decode_groups::<3>(text, out),
        4 => decode_groups::<4>(text, out),
        5 => decode_groups::<5>(text, out),
        6 => decode_groups::<6>(text, out),
        7 => decode_groups::<7>(text, out),
        8 => decode_groups::<8>(text, out),
        9 => decode_groups::<9>(text, out),
        10 => decode_groups::<10>(text, out),
        _ => decode_groups::<11>(text, out),
    })
}

/// [`decode`] of a valid text of at most `5·G` characters.
#[inline(always)]
fn decode_groups<const G: usize>(text: &[u8], out: &mut [u8; DECODE_CAP]) -> usize {
    let n = text.len();
    let place = |c: &u8| u64::from(VALUES[usize::from(*c)]);
    // Group values, least significant first: whole groups of five from the
    // end, the top group whatever is left (possibly nothing).
    let mut groups = [0u64; G];
    let whole = n / CHARS_PER_DIGIT;
    for (k, group) in groups.iter_mut().enumerate().take(whole) {
        let end = n - CHARS_PER_DIGIT * k;
        *group = text[end - CHARS_PER_DIGIT..end]
            .iter()
            .fold(0, |v, c| v * 58 + place(c));
    }
    if whole < G {
        groups[whole] = text[..n - CHARS_PER_DIGIT * whole]
            .iter()
            .fold(0, |v, c| v * 58 + place(c));
    }

    let mut limbs = [0u64; BINARY_LIMBS];
    for (&group, weight) in groups.iter().zip(&GROUP_WEIGHT) {
        let used = weight
            .iter()
            .rposition(|&w| w != 0)
            .map_or(0, |top| top + 1);
        for (limb, &w) in limbs.iter_mut().zip(weight).take(used) {
            *limb += group * u64::from(w);
        }
    }
    let mut carry = 0u64;
    for limb in limbs.iter_mut() {
        *limb += carry;
        carry = *limb >> BINARY_BITS;
        *limb &= (1 << BINARY_BITS) - 1;
    }

    // Big-endian bytes of the value, then its significant part after the
    // zero bytes of the leading '1's. The total is at most `n` bytes: the
    // value of `n - zeros` characters has at most that many bytes.
    let mut be = [0u8; 3 * BINARY_LIMBS];
    for (chunk, &limb) in be.chunks_exact_mut(3).rev().zip(&limbs) {
        chunk.copy_from_slice(&(limb as u32).to_be_bytes()[1..]);
    }
    let first = be.iter().position(|&b| b != 0).unwrap_or(be.len());
    let zeros = text.iter().take_while(|&&c| c == ALPHABET[0]).count();
    let value = &be[first..];
    let len = (zeros + value.len()).min(DECODE_CAP);
    out[..zeros.min(len)].fill(0);
    out[zeros.min(len)..len].copy_from_slice(&value[..len - zeros.min(len)]);
    len
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferroscale_test_support::Xorshift;

    fn text(input: &[u8]) -> String {
        let mut out = [0u8; TEXT_CAP];
        let n = encode(input, &mut out);
        String::from_utf8(out[..n].to_vec()).unwrap()
    }

    /// Agrees with the `bs58` crate on every length up to the cap, with
    /// leading zero bytes, all-zero and all-0xff input.
    #[test]
    fn matches_bs58_on_every_length() {
        let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
        for len in 0..=MAX_INPUT {
            let mut cases = vec![vec![0u8; len], vec![0xff; len]];
            for zeros in [0, 1, 3] {
                for _ in 0..20 {
                    let mut v: Vec<u8> = (0..len).map(|_| rng.next_u8()).collect();
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

    /// `58^power` as a big-endian number of `len` bytes, or `None` if it
    /// needs more bytes.
    fn power_of_58(power: u32, len: usize) -> Option<Vec<u8>> {
        let mut n = vec![0u8; len];
        *n.last_mut()? = 1;
        for _ in 0..power {
            let mut carry = 0u32;
            for b in n.iter_mut().rev() {
                let x = u32::from(*b) * 58 + carry;
                *b = x as u8;
                carry = x >> 8;
            }
            if carry != 0 {
                return None;
            }
        }
        Some(n)
    }

    /// `n + delta` (big-endian, `delta` in -1..=1), or `None` when it leaves
    /// the byte width.
    fn nudge(n: &[u8], delta: i8) -> Option<Vec<u8>> {
        let mut n = n.to_vec();
        let (from, to) = if delta < 0 {
            (0x00, 0xff)
        } else {
            (0xff, 0x00)
        };
        if delta == 0 {
            return Some(n);
        }
        for b in n.iter_mut().rev() {
            if *b != from {
                *b = if delta < 0 { *b - 1 } else { *b + 1 };
                return Some(n);
            }
            *b = to;
        }
        None
    }

    /// Differential test against the `bs58` crate: for every length
    /// 0..=40, thousands of random inputs of several shapes (uniform
    /// bytes, runs of 0x00 and 0xff, every count of leading zero bytes),
    /// and every value one below, at and one above a power of 58 (whose
    /// text is all 'z's or a '2' and then '1's — the digit and carry edges),
    /// also as multiples and with leading zero bytes in front.
    #[test]
    fn matches_bs58_on_many_inputs_and_digit_edges() {
        let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
        let mut checked = 0usize;
        let mut check = |input: &[u8]| {
            assert_eq!(
                text(input),
                bs58::encode(input).into_string(),
                "input {input:02x?}"
            );
            checked += 1;
        };
        for len in 0..=MAX_INPUT {
            check(&vec![0u8; len]);
            check(&vec![0xffu8; len]);
            for round in 0..3000 {
                let mut v: Vec<u8> = match round % 3 {
                    0 => (0..len).map(|_| rng.next_u8()).collect(),
                    // Runs of extreme bytes: long carries in every digit.
                    1 => (0..len)
                        .map(|_| [0x00, 0xff, rng.next_u8()][rng.below(3)])
                        .collect(),
                    _ => (0..len).map(|_| rng.next_u8() | 0xf0).collect(),
                };
                let zeros = rng.below(len + 1);
                if round % 2 == 0 {
                    v[..zeros].fill(0);
                }
                check(&v);
            }
            for power in 0..=55 {
                let Some(base) = power_of_58(power, len) else {
                    break;
                };
                for multiple in [1u8, 2, 57] {
                    let Some(scaled) = (0..multiple - 1).try_fold(base.clone(), |acc, _| {
                        let mut sum = acc.clone();
                        let mut carry = 0u16;
                        for (s, b) in sum.iter_mut().zip(&base).rev() {
                            let x = u16::from(*s) + u16::from(*b) + carry;
                            *s = x as u8;
                            carry = x >> 8;
                        }
                        (carry == 0).then_some(sum)
                    }) else {
                        continue;
                    };
                    for delta in [-1, 0, 1] {
                        if let Some(v) = nudge(&scaled, delta) {
                            check(&v);
                        }
                    }
                }
            }
        }
        assert!(checked > 40 * 3000, "only {checked} inputs checked");
    }

    /// `normalise` on accumulators that keep their value but sit far from
    /// canonical digits, including one whose second pass leaves a digit at
    /// exactly 58^5 (the rare serial fix-up), checked against a plain
    /// one-division-per-digit carry pass.
    #[test]
    fn normalise_matches_a_serial_carry_pass() {
        let serial = |mut acc: [u64; DIGITS], digits: usize| {
            let mut carry = 0;
            for a in acc.iter_mut().take(digits) {
                *a += carry;
                carry = *a / DIGIT_BASE;
                *a %= DIGIT_BASE;
            }
            assert_eq!(carry, 0, "test accumulator does not fit {digits} digits");
            acc.map(|a| a as u32)
        };
        let b = DIGIT_BASE;
        // 58^15 as 58^5 + (58^5 - 1)·58^5 + (58^5 - 1)·58^10: the first pass
        // moves 1 up, the second brings digit 2 to 58^5 exactly.
        let mut fix_up = [0u64; DIGITS];
        fix_up[..4].copy_from_slice(&[b, b - 1, b - 1, 0]);
        assert_eq!(normalise(fix_up, 4), serial(fix_up, 4));
        let mut rng = Xorshift::new(0x1234_5678_9abc_def1);
        for _ in 0..100_000 {
            let digits = 1 + rng.below(DIGITS);
            // Canonical digits (the top one zero, for headroom), then value
            // moved down: `t` units off digit j+1 become `t·58^5` on digit j.
            let mut acc = [0u64; DIGITS];
            for a in acc.iter_mut().take(digits - 1) {
                *a = match rng.below(3) {
                    0 => b - 1,
                    1 => rng.next_u64() % b,
                    _ => b - 1 - rng.next_u64() % 64,
                };
            }
            for j in (0..digits - 1).rev() {
                let t = acc[j + 1].min(rng.next_u64() % (1 << 32));
                acc[j + 1] -= t;
                acc[j] += t * b;
            }
            assert_eq!(normalise(acc, digits), serial(acc, digits), "{acc:?}");
        }
    }

    /// `digit_chars` against plain division on the digits where the
    /// fixed-point error is largest relative to what it may reach: the top
    /// of the range, every multiple of 58, 58² and 58³ (±1) near it and at
    /// the bottom, and a sweep of one in 97 digits over the whole range.
    #[test]
    fn digit_chars_matches_division() {
        let by_division = |digit: u32| {
            let mut chars = [0u8; 8];
            let mut d = digit;
            for slot in chars[..5].iter_mut().rev() {
                *slot = ALPHABET[(d % 58) as usize];
                d /= 58;
            }
            chars
        };
        let top = DIGIT_BASE as u32;
        let mut cases: Vec<u32> = (0..200).chain(top - 200..top).collect();
        for step in [58, 58 * 58, 58 * 58 * 58, 58 * 58 * 58 * 58] {
            for k in (1..top / step).step_by(((top / step) as usize / 500).max(1)) {
                cases.extend([k * step - 1, k * step, k * step + 1]);
            }
        }
        cases.extend((0..top).step_by(97));
        for digit in cases {
            let got = digit_chars(digit).to_le_bytes();
            assert_eq!(got[..5], by_division(digit)[..5], "digit {digit}");
        }
    }

    fn bytes_of(text: &[u8]) -> Result<Vec<u8>, DecodeError> {
        let mut out = [0u8; DECODE_CAP];
        decode(text, &mut out).map(|n| out[..n].to_vec())
    }

    /// Decoding agrees with `bs58` on random texts of every length up to
    /// the cap (random characters, runs of '1' and 'z', leading '1's), and
    /// round-trips every encoder test input.
    #[test]
    fn decode_matches_bs58_and_round_trips() {
        let mut rng = Xorshift::new(0x0bad_5eed_dead_beef);
        for len in 0..=MAX_DECODE_TEXT {
            for round in 0..2000 {
                let mut text: Vec<u8> = (0..len)
                    .map(|_| match round % 3 {
                        0 => ALPHABET[rng.below(58)],
                        1 => [b'1', b'z', ALPHABET[rng.below(58)]][rng.below(3)],
                        _ => ALPHABET[57 - rng.below(4)],
                    })
                    .collect();
                let ones = rng.below(len + 1);
                if round % 2 == 0 {
                    text[..ones].fill(b'1');
                }
                let expected = bs58::decode(&text).into_vec().unwrap();
                assert_eq!(
                    bytes_of(&text),
                    Ok(expected),
                    "{}",
                    String::from_utf8_lossy(&text)
                );
            }
        }
        for len in 0..=MAX_INPUT {
            for _ in 0..500 {
                let mut input: Vec<u8> = (0..len).map(|_| rng.next_u8()).collect();
                let zeros = rng.below(len + 1);
                input[..zeros.min(len / 2)].fill(0);
                let mut out = [0u8; TEXT_CAP];
                let n = encode(&input, &mut out);
                assert_eq!(bytes_of(&out[..n]), Ok(input));
            }
        }
    }

    /// Bad characters are reported at the first offending byte, as `bs58`
    /// does; overlong text is refused.
    #[test]
    fn decode_names_the_first_bad_byte() {
        for (text, expected) in [
            (
                &b"5Grwva0F"[..],
                DecodeError::Invalid {
                    character: '0',
                    index: 6,
                },
            ),
            (
                b"O",
                DecodeError::Invalid {
                    character: 'O',
                    index: 0,
                },
            ),
            (
                b"11I1l",
                DecodeError::Invalid {
                    character: 'I',
                    index: 2,
                },
            ),
            (
                b"zz z",
                DecodeError::Invalid {
                    character: ' ',
                    index: 2,
                },
            ),
            (
                "5Grwva\u{e9}".as_bytes(),
                DecodeError::NonAscii { index: 6 },
            ),
            (b"abc\xff", DecodeError::NonAscii { index: 3 }),
        ] {
            assert_eq!(bytes_of(text), Err(expected), "{text:?}");
            assert!(bs58::decode(text).into_vec().is_err());
        }
        assert_eq!(
            bytes_of(&[b'2'; MAX_DECODE_TEXT + 1]),
            Err(DecodeError::TooLong)
        );
        // Every single byte: valid exactly when it is in the alphabet.
        for b in 0..=255u8 {
            let ours = bytes_of(&[b]);
            let theirs = bs58::decode(&[b]).into_vec();
            assert_eq!(ours.ok(), theirs.ok(), "byte {b:#04x}");
        }
    }

    #[test]
    fn refuses_input_over_the_cap() {
        assert_eq!(text(&[1u8; MAX_INPUT + 1]), "");
    }
}
