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

/// Appends lower-case hex digits of `bytes` to `out`.
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    let mut digits = vec![0u8; 2 * bytes.len()];
    write_lower(bytes, &mut digits);
    out.push_str(std::str::from_utf8(&digits).unwrap_or_default());
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
/// digit; it is inlined, so both callers vectorise alike).
#[inline(always)]
fn write_blocks<T>(bytes: &[u8], out: &mut [T], put: impl Fn(&mut T, u8) + Copy) {
    let n = bytes.len().min(out.len() / 2);
    let (bytes, out) = (&bytes[..n], &mut out[..2 * n]);
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

/// The lower-case hex digit of a nibble (0–15).
#[inline(always)]
fn digit(nibble: u8) -> u8 {
    nibble + b'0' + if nibble > 9 { b'a' - b'0' - 10 } else { 0 }
}

/// Decodes hex text; the `0x` prefix is optional, case is ignored.
pub fn decode(text: &str) -> Result<Vec<u8>, Error> {
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
    let nibble = |c: u8, at: usize| -> Result<u8, Error> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(Error::Hex(format!(
                "invalid hex digit {:?} at offset {at}",
                c as char
            ))),
        }
    };
    s.as_bytes()
        .chunks_exact(2)
        .enumerate()
        .map(|(i, pair)| Ok(nibble(pair[0], 2 * i)? << 4 | nibble(pair[1], 2 * i + 1)?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value, and lengths around the 16-byte block size.
    #[test]
    fn writes_the_digits_of_every_byte() {
        let all: Vec<u8> = (0..=255u8).collect();
        let expected: String = all.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(encode_prefixed(&all), format!("0x{expected}"));
        for len in [0, 1, 15, 16, 17, 31, 32, 33, 100] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let expected: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let mut s = String::from("x");
            push_hex(&mut s, &bytes);
            assert_eq!(s, format!("x{expected}"), "length {len}");
            let mut out = vec![b'?'; 2 * len + 1];
            write_lower(&bytes, &mut out);
            assert_eq!(&out[..2 * len], expected.as_bytes(), "length {len}");
            assert_eq!(out[2 * len], b'?', "length {len}: wrote past the digits");
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
    }
}
