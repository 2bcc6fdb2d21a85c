//! `0x`-prefixed hex text, as RPC results and py-scale-codec values carry it.

use crate::error::Error;

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Lower-case hex with a `0x` prefix.
pub fn encode_prefixed(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 2 * bytes.len());
    out.push_str("0x");
    push_hex(&mut out, bytes);
    out
}

/// Appends lower-case hex digits of `bytes` to `out`.
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 0xf) as usize] as char);
    }
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
