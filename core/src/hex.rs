//! `0x`-prefixed hex text, as RPC results and py-scale-codec values carry it.

use std::mem::MaybeUninit;

use crate::error::Error;

/// Lower-case hex with a `0x` prefix.
pub fn encode_prefixed(bytes: &[u8]) -> String {
    let mut out = vec![0u8; 2 + 2 * bytes.len()];
    out[..2].copy_from_slice(b"0x");
    write_lower(bytes, &mut out[2..]);
    // Only ASCII was written.
    String::from_utf8(out).unwrap_or_default()
}

/// Hands `f` the `0x`-prefixed lower-case hex of `bytes`: up to
/// [`SHORT`] bytes (hashes, account ids, keys — most byte strings a value
/// holds) rendered on the stack, longer ones in a `String`. For callers that
/// copy the text into a string of their own (a shared `Arc<str>`, a sink's
/// output), which would otherwise allocate and copy twice.
pub fn with_prefixed<R>(bytes: &[u8], f: impl FnOnce(&str) -> R) -> R {
    if bytes.len() <= SHORT {
        let mut text = [0u8; 2 + 2 * SHORT];
        let len = 2 + 2 * bytes.len();
        text[..2].copy_from_slice(b"0x");
        write_lower(bytes, &mut text[2..len]);
        // Only ASCII was written.
        return f(std::str::from_utf8(&text[..len]).unwrap_or_default());
    }
    f(&encode_prefixed(bytes))
}

/// The longest input [`with_prefixed`] renders on the stack.
pub const SHORT: usize = 64;

/// Appends lower-case hex digits of `bytes` to `out`, written in place
/// (no staging buffer, no UTF-8 check of what was written).
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    // SAFETY: `extend_lower` only appends bytes that are ASCII (hex digits,
    // or the zero bytes it resizes with before writing them), so `out`
    // holds UTF-8 afterwards, even if it were to stop part way.
    extend_lower(unsafe { out.as_mut_vec() }, bytes);
}

/// Appends the lower-case hex digits of `bytes` to `out` (a buffer of
/// ASCII text). 32 bytes — account ids and hashes, most of the byte
/// strings a decoded value holds — take a fixed-size path the compiler
/// turns into a few vector instructions, without [`write_lower`]'s length
/// handling.
#[inline]
pub fn extend_lower(out: &mut Vec<u8>, bytes: &[u8]) {
    if let Ok(bytes) = <&[u8; 32]>::try_from(bytes) {
        let mut digits = [0u8; 64];
        for (pair, &b) in digits.chunks_exact_mut(2).zip(bytes) {
            pair[0] = digit(b >> 4);
            pair[1] = digit(b & 0xf);
        }
        out.extend_from_slice(&digits);
        return;
    }
    let start = out.len();
    out.resize(start + 2 * bytes.len(), 0);
    write_lower(bytes, &mut out[start..]);
}

/// Writes the lower-case hex digits of `bytes` into `out[..2 * bytes.len()]`
/// (`out` shorter than that: only the digits of the bytes that fit).
///
/// Works on 16-byte blocks with branch-free digit arithmetic, which the
/// compiler turns into vector instructions: rendering large byte strings
/// (py-scale-codec renders non-UTF-8 `Bytes` as hex) runs at memory speed
/// instead of one `char` push per digit.
pub fn write_lower(bytes: &[u8], out: &mut [u8]) {
    write_blocks(bytes, out, |slot, v| *slot = v);
}

/// [`write_lower`] into memory that need not be initialised (a buffer
/// allocated for the text, such as a new Python string), so it need not be
/// zeroed first.
pub fn write_lower_uninit(bytes: &[u8], out: &mut [MaybeUninit<u8>]) {
    write_blocks(bytes, out, |slot, v| {
        slot.write(v);
    });
}

/// The block loop of [`write_lower`] over any byte slot (`put` stores one
/// digit; it is inlined, so both callers vectorise alike). Large inputs go
/// through [`simd::write`] first when the CPU has AVX2; the portable loop
/// renders what is left.
#[inline(always)]
fn write_blocks<T>(bytes: &[u8], out: &mut [T], put: impl Fn(&mut T, u8) + Copy) {
    let n = bytes.len().min(out.len() / 2);
    let (mut bytes, mut out) = (&bytes[..n], &mut out[..2 * n]);
    #[cfg(target_arch = "x86_64")]
    if n >= simd::MIN_LEN && std::arch::is_x86_feature_detected!("avx2") {
        let done = n - n % simd::BLOCK;
        // SAFETY: AVX2 is present (checked above); `out` holds exactly
        // `2 * n` slots, of which the first `2 * done` are written, and
        // `T` is `u8` or `MaybeUninit<u8>` (one byte each, any bit pattern).
        unsafe {
            debug_assert_eq!(std::mem::size_of::<T>(), 1);
            simd::write(&bytes[..done], out.as_mut_ptr().cast::<u8>());
        }
        bytes = &bytes[done..];
        out = &mut out[2 * done..];
    }
    let mut inp = bytes.chunks_exact(16);
    let mut outp = out.chunks_exact_mut(32);
    for (block, dst) in (&mut inp).zip(&mut outp) {
        for (j, &b) in block.iter().enumerate() {
            put(&mut dst[2 * j], digit(b >> 4));
            put(&mut dst[2 * j + 1], digit(b & 0xf));
        }
    }
    for (&b, dst) in inp
        .remainder()
        .iter()
        .zip(outp.into_remainder().chunks_exact_mut(2))
    {
        put(&mut dst[0], digit(b >> 4));
        put(&mut dst[1], digit(b & 0xf));
    }
}

/// Hex digits with AVX2: each nibble indexes a 16-entry digit table with one
/// byte shuffle, 32 input bytes per step. The portable loop above does about
/// two bytes a cycle; this does several times that, which is what turns a
/// 512 KB `Bytes` value into text at memory speed.
#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    use super::DIGITS;

    /// Input bytes per step.
    pub(super) const BLOCK: usize = 32;
    /// Below this the feature check and set-up cost more than they save.
    pub(super) const MIN_LEN: usize = 64;

    /// Writes the digits of `bytes` (a multiple of [`BLOCK`] long) to
    /// `out[..2 * bytes.len()]`.
    ///
    /// # Safety
    /// The CPU must support AVX2 and `out` must be valid for writes of
    /// `2 * bytes.len()` bytes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn write(bytes: &[u8], out: *mut u8) {
        // SAFETY: an unaligned 16-byte load of the 16-byte digit string.
        let digits = unsafe { _mm_loadu_si128(DIGITS.as_ptr().cast()) };
        // The same 16 digits in both 128-bit lanes (the shuffle is per lane).
        let table = _mm256_broadcastsi128_si256(digits);
        let low_nibble = _mm256_set1_epi8(0x0f);
        for (i, block) in bytes.chunks_exact(BLOCK).enumerate() {
            // SAFETY (all intrinsics below): unaligned loads/stores within
            // `block` (32 bytes) and `out[64 * i..64 * i + 64]`, which the
            // caller guarantees is writable.
            unsafe {
                let x = _mm256_loadu_si256(block.as_ptr().cast());
                let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(x), low_nibble);
                let lo = _mm256_and_si256(x, low_nibble);
                let hi = _mm256_shuffle_epi8(table, hi);
                let lo = _mm256_shuffle_epi8(table, lo);
                // Interleaving works within each 128-bit lane: `first` holds
                // the digits of bytes 0–7 and 16–23, `second` of 8–15 and
                // 24–31; the lane swap puts them back in order.
                let first = _mm256_unpacklo_epi8(hi, lo);
                let second = _mm256_unpackhi_epi8(hi, lo);
                let dst = out.add(2 * BLOCK * i);
                _mm256_storeu_si256(dst.cast(), _mm256_permute2x128_si256::<0x20>(first, second));
                _mm256_storeu_si256(
                    dst.add(32).cast(),
                    _mm256_permute2x128_si256::<0x31>(first, second),
                );
            }
        }
    }
}

/// Hex digits into bytes with AVX2, 32 digits a step: each digit's value
/// and validity from byte-wise range tests, pairs joined by one multiply-add.
/// Block bodies are hex text of tens of kilobytes (an RPC answer's
/// extrinsics and events); the portable eight-digit loop took a quarter of
/// an RPC client's time on them.
#[cfg(target_arch = "x86_64")]
mod simd_decode {
    use std::arch::x86_64::*;

    /// Digits per step.
    pub(super) const DIGITS_PER_STEP: usize = 32;
    /// Below this the feature check and set-up cost more than they save.
    pub(super) const MIN_DIGITS: usize = 64;

    /// Writes the bytes of `digits` (a multiple of [`DIGITS_PER_STEP`]
    /// long) to `out[..digits.len() / 2]`; whether every digit was a hex
    /// digit (when not, what was written is meaningless).
    ///
    /// # Safety
    /// The CPU must support AVX2 and `out` must be valid for writes of
    /// `digits.len() / 2` bytes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn decode(digits: &[u8], out: *mut u8) -> bool {
        let zero = _mm256_set1_epi8(b'0' as i8);
        let a = _mm256_set1_epi8(b'a' as i8);
        let nine = _mm256_set1_epi8(9);
        let five = _mm256_set1_epi8(5);
        let ten = _mm256_set1_epi8(10);
        let case = _mm256_set1_epi8(0x20);
        // Each 16-bit lane: first digit × 16 + second digit × 1.
        let weights = _mm256_set1_epi16(0x0110);
        let mut invalid = _mm256_setzero_si256();
        for (i, step) in digits.chunks_exact(DIGITS_PER_STEP).enumerate() {
            // SAFETY (all intrinsics below): an unaligned load of the 32
            // bytes of `step`, and a 16-byte unaligned store to
            // `out[16 * i..16 * i + 16]`, which the caller guarantees is
            // writable.
            unsafe {
                let x = _mm256_loadu_si256(step.as_ptr().cast());
                // Unsigned range tests: `v <= max` exactly when
                // `min(v, max) == v` (bytes at 0x80 and above wrap to
                // large values and fail both).
                let decimal = _mm256_sub_epi8(x, zero);
                let is_decimal = _mm256_cmpeq_epi8(_mm256_min_epu8(decimal, nine), decimal);
                let letter = _mm256_sub_epi8(_mm256_or_si256(x, case), a);
                let is_letter = _mm256_cmpeq_epi8(_mm256_min_epu8(letter, five), letter);
                let valid = _mm256_or_si256(is_decimal, is_letter);
                invalid = _mm256_or_si256(invalid, _mm256_xor_si256(valid, _mm256_set1_epi8(-1)));
                let nibbles = _mm256_or_si256(
                    _mm256_and_si256(decimal, is_decimal),
                    _mm256_and_si256(_mm256_add_epi8(letter, ten), is_letter),
                );
                let pairs = _mm256_maddubs_epi16(nibbles, weights);
                // Bytes of each 128-bit lane packed into its low 8 bytes,
                // then the two lanes' halves side by side.
                let packed = _mm256_packus_epi16(pairs, pairs);
                let packed = _mm256_permute4x64_epi64::<0b1000>(packed);
                _mm_storeu_si128(out.add(16 * i).cast(), _mm256_castsi256_si128(packed));
            }
        }
        _mm256_testz_si256(invalid, invalid) == 1
    }
}

/// The lower-case hex digits, by value.
const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// The lower-case hex digit of a nibble (0–15).
#[inline(always)]
fn digit(nibble: u8) -> u8 {
    nibble + b'0' + if nibble > 9 { b'a' - b'0' - 10 } else { 0 }
}

/// Decodes hex text; the `0x` prefix is optional, case is ignored.
pub fn decode(text: &str) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    decode_into(text, &mut out)?;
    Ok(out)
}

/// [`decode`], the bytes appended to `out` (a column's buffer: no
/// allocation per value). On error `out` is as it was.
pub fn decode_into(text: &str, out: &mut Vec<u8>) -> Result<(), Error> {
    let s = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if !s.len().is_multiple_of(2) {
        return Err(Error::Hex(format!(
            "odd number of hex digits ({})",
            s.len()
        )));
    }
    // Eight digits at a time as one u64 (see `eight_digits`), then one table
    // lookup per digit for the tail. Invalid digits are only noted on the
    // way, so the loops have no early exit; finding where runs only when
    // something was wrong.
    let all = s.as_bytes();
    let start = out.len();
    out.reserve(all.len() / 2);
    let mut valid = true;
    let mut digits = all;
    #[cfg(target_arch = "x86_64")]
    if digits.len() >= simd_decode::MIN_DIGITS && std::arch::is_x86_feature_detected!("avx2") {
        let done = digits.len() - digits.len() % simd_decode::DIGITS_PER_STEP;
        let spare = out.spare_capacity_mut();
        // SAFETY: AVX2 is present (checked above); `spare` has room for
        // `all.len() / 2 >= done / 2` bytes (reserved above), and the
        // first `done / 2` of them are written before `set_len` counts them.
        unsafe {
            debug_assert!(spare.len() >= done / 2);
            valid = simd_decode::decode(&digits[..done], spare.as_mut_ptr().cast::<u8>());
            out.set_len(start + done / 2);
        }
        digits = &digits[done..];
    }
    let mut words = digits.chunks_exact(8);
    for word in &mut words {
        let (bytes, ok) = eight_digits(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        valid &= ok;
        out.extend_from_slice(&bytes);
    }
    let mut bad = 0u8;
    out.extend(words.remainder().chunks_exact(2).map(|pair| {
        let (hi, lo) = (NIBBLE[usize::from(pair[0])], NIBBLE[usize::from(pair[1])]);
        bad |= hi | lo;
        hi << 4 | lo
    }));
    if !valid || bad & !0x0f != 0 {
        out.truncate(start);
        let at = all
            .iter()
            .position(|&c| NIBBLE[usize::from(c)] > 0x0f)
            .unwrap_or_default();
        return Err(Error::Hex(format!(
            "invalid hex digit {:?} at offset {at}",
            char::from(all[at])
        )));
    }
    Ok(())
}

/// The four bytes eight hex digits (little-endian in `x`: the first digit in
/// the low byte) stand for, and whether all eight are hex digits.
///
/// Range tests work on every byte at once: for a byte `b < 0x80`,
/// `b + (0x80 - lo)` has its top bit set exactly when `b >= lo`, and
/// `b + (0x7f - hi)` has it clear exactly when `b <= hi`; neither sum
/// reaches 0x100, so no carry crosses into the next byte.
#[inline(always)]
fn eight_digits(x: u64) -> ([u8; 4], bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOP: u64 = 0x80 * ONES;
    let in_range = |v: u64, lo: u8, hi: u8| {
        let at_least = v.wrapping_add(u64::from(0x80 - lo) * ONES);
        let at_most = !v.wrapping_add(u64::from(0x7f - hi) * ONES);
        at_least & at_most & TOP
    };
    let ascii = x & TOP == 0;
    let decimal = in_range(x, b'0', b'9');
    let letter = in_range(x | (0x20 * ONES), b'a', b'f');
    let valid = ascii && (decimal | letter) == TOP;
    // A digit's value is its low four bits, plus 9 for a letter.
    let nibbles = (x & (0x0f * ONES)) + (letter >> 7) * 9;
    // Pair the nibbles: each 16-bit lane becomes `first << 4 | second`.
    let pairs = ((nibbles & 0x000f_000f_000f_000f) << 4) | ((nibbles >> 8) & 0x000f_000f_000f_000f);
    // Gather the low byte of each lane.
    let packed = (pairs | (pairs >> 8)) & 0x0000_ffff_0000_ffff;
    let packed = (packed | (packed >> 16)) & 0xffff_ffff;
    ((packed as u32).to_le_bytes(), valid)
}

/// The value of each hex digit (either case); `INVALID` for any other byte.
const NIBBLE: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 10 {
        table[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        table[b'a' as usize + i] = 10 + i as u8;
        table[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    table
};

/// Marks a non-hex byte in [`NIBBLE`].
const INVALID: u8 = 0xff;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value, and lengths around the 16-byte block size.
    #[test]
    fn writes_the_digits_of_every_byte() {
        let all: Vec<u8> = (0..=255u8).collect();
        let expected: String = all.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(encode_prefixed(&all), format!("0x{expected}"));
        // `extend_lower`'s 32-byte path over every byte value.
        let mut v = Vec::new();
        for chunk in all.chunks(32) {
            extend_lower(&mut v, chunk);
        }
        assert_eq!(v, expected.as_bytes());
        // Around the portable 16-byte blocks and the AVX2 path's 64-byte
        // threshold and 32-byte steps, with portable tails of every size;
        // `push_hex` around its 32-byte stack buffer and 512-byte chunks.
        for len in [
            0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97, 100, 127, 511, 512, 513, 1000,
            1025, 4111,
        ] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let expected: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let mut s = String::from("x");
            push_hex(&mut s, &bytes);
            assert_eq!(s, format!("x{expected}"), "length {len}");
            let mut v = b"x".to_vec();
            extend_lower(&mut v, &bytes);
            assert_eq!(v, format!("x{expected}").into_bytes(), "length {len}");
            let mut out = vec![b'?'; 2 * len + 1];
            write_lower(&bytes, &mut out);
            assert_eq!(&out[..2 * len], expected.as_bytes(), "length {len}");
            assert_eq!(out[2 * len], b'?', "length {len}: wrote past the digits");
            assert_eq!(
                with_prefixed(&bytes, str::to_owned),
                format!("0x{expected}")
            );
            let mut uninit = vec![std::mem::MaybeUninit::new(b'?'); 2 * len + 1];
            write_lower_uninit(&bytes, &mut uninit);
            // SAFETY: every slot was initialised when the vector was made.
            let written: Vec<u8> = uninit.iter().map(|b| unsafe { b.assume_init() }).collect();
            assert_eq!(&written[..2 * len], expected.as_bytes(), "length {len}");
            assert_eq!(
                written[2 * len],
                b'?',
                "length {len}: wrote past the digits"
            );
        }
    }

    #[test]
    fn round_trips_and_rejects_garbage() {
        let bytes = [0u8, 1, 0xab, 0xff];
        assert_eq!(encode_prefixed(&bytes), "0x0001abff");
        assert_eq!(decode("0x0001ABff").unwrap(), bytes);
        assert_eq!(decode("0001abff").unwrap(), bytes);
        assert!(decode("0x123").unwrap_err().to_string().contains("odd"));
        assert!(decode("0x12zz")
            .unwrap_err()
            .to_string()
            .contains("offset 2"));
        let long = format!("{}g0", "ab".repeat(300));
        assert!(decode(&long)
            .unwrap_err()
            .to_string()
            .contains("'g' at offset 600"));
        assert!(decode("0xaé").is_err());
        assert!(decode("abcdé01")
            .unwrap_err()
            .to_string()
            .contains("offset 4"));
        // Every byte value in every position of an eight-digit word: only
        // hex digits pass, and those decode as the table says.
        for c in 0..=255u8 {
            for at in 0..16 {
                let mut text = *b"0123456789abcDEF";
                text[at] = c;
                let ok = NIBBLE[usize::from(c)] <= 0x0f;
                // "0x"/"0X" at the start is a prefix, not a digit; bytes
                // that are not UTF-8 on their own cannot be a `&str`.
                let Ok(text) = std::str::from_utf8(&text) else {
                    continue;
                };
                if at == 1 && c.eq_ignore_ascii_case(&b'x') {
                    continue;
                }
                match decode(text) {
                    Ok(bytes) => {
                        assert!(ok, "{c:#x} accepted");
                        let expected: Vec<u8> = text
                            .as_bytes()
                            .chunks(2)
                            .map(|p| NIBBLE[usize::from(p[0])] << 4 | NIBBLE[usize::from(p[1])])
                            .collect();
                        assert_eq!(bytes, expected, "{text}");
                    }
                    Err(e) => {
                        assert!(!ok, "{c:#x} refused");
                        assert!(e.to_string().contains(&format!("offset {at}")), "{e}");
                    }
                }
            }
        }
        // Texts long enough for the vector path (32 digits a step, from 64
        // digits on), with a tail for the portable one: every byte value at
        // positions in both, each refused at its offset.
        for len in [64usize, 96, 130] {
            let good: Vec<u8> = (0..len)
                .map(|i| b"0123456789abcdefABCDEF"[i % 22])
                .collect();
            let text = std::str::from_utf8(&good).unwrap();
            let expected: Vec<u8> = good
                .chunks(2)
                .map(|p| NIBBLE[usize::from(p[0])] << 4 | NIBBLE[usize::from(p[1])])
                .collect();
            assert_eq!(decode(text).unwrap(), expected, "{text}");
            for at in [0, 1, 17, 31, 32, 33, 63, len - 2, len - 1] {
                for c in 0..=255u8 {
                    let mut bad = good.clone();
                    bad[at] = c;
                    let Ok(bad) = std::str::from_utf8(&bad) else {
                        continue;
                    };
                    if at == 1 && c.eq_ignore_ascii_case(&b'x') {
                        continue;
                    }
                    let ok = NIBBLE[usize::from(c)] <= 0x0f;
                    match decode(bad) {
                        Ok(_) => assert!(ok, "{c:#x} accepted at {at} of {len}"),
                        Err(e) => {
                            assert!(!ok, "{c:#x} refused at {at} of {len}");
                            assert!(e.to_string().contains(&format!("offset {at}")), "{e}");
                        }
                    }
                }
            }
        }
        let upper: String = (0..=255u8).map(|b| format!("{b:02X}")).collect();
        assert_eq!(decode(&upper).unwrap(), (0..=255u8).collect::<Vec<_>>());
    }

    #[test]
    fn decode_into_appends_and_leaves_the_buffer_as_it_was_on_error() {
        let mut out = vec![7u8];
        decode_into("0x0001abff0102", &mut out).unwrap();
        assert_eq!(out, [7, 0, 1, 0xab, 0xff, 1, 2]);
        let long_bad = format!("0x{}zz", "ab".repeat(40));
        for bad in ["0x0001abff01zz", "0x123", "0001abffg0", &long_bad] {
            assert!(decode_into(bad, &mut out).is_err());
            assert_eq!(out, [7, 0, 1, 0xab, 0xff, 1, 2], "{bad}");
        }
    }
}
