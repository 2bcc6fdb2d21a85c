//! py-scale-codec 1.2.12's text renderings that both the typed values
//! (`ToValue`) and the dynamic decoder produce: one implementation for both.

/// The eight binary digits of each byte, most significant first, byte
/// after byte: byte `b`'s digits are `BINARY[8 * b..8 * b + 8]`.
const BINARY: &str = {
    const BYTES: [u8; 2048] = {
        let mut table = [b'0'; 2048];
        let mut i = 0;
        while i < 2048 {
            let (byte, bit) = (i / 8, i % 8);
            table[i] = b'0' + ((byte >> (7 - bit)) & 1) as u8;
            i += 1;
        }
        table
    };
    match std::str::from_utf8(&BYTES) {
        Ok(digits) => digits,
        Err(_) => panic!("binary digits are ASCII"),
    }
};

/// py-scale-codec 1.2.12's text of a bit sequence of `bits` bits stored in
/// `le_bytes` (the encoded words): `"0b"` and the binary digits of the bytes
/// read as one little-endian integer, most significant first, zero-padded to
/// `bits` digits (`"0b0"` when all are zero and `bits` is 0 or 1). Store
/// word size and bit order do not change it: py-scale-codec ignores both.
pub fn py_bit_string(le_bytes: &[u8], bits: usize) -> String {
    let mut out = String::new();
    write_py_bit_string(le_bytes, bits, &mut out);
    out
}

/// Appends [`py_bit_string`]'s text to `out` (letters and digits only).
pub fn write_py_bit_string(le_bytes: &[u8], bits: usize, out: &mut String) {
    // Digits from the highest set bit down, but never fewer than `bits`
    // (nor than one): the integer's low `width` bits, most significant first.
    let significant = le_bytes
        .iter()
        .rposition(|&b| b != 0)
        .map_or(0, |i| 8 * i + 8 - le_bytes[i].leading_zeros() as usize);
    let width = significant.max(bits).max(1);
    let stored = le_bytes.len() * 8;
    out.reserve(width + 2);
    out.push_str("0b");
    // Padding beyond the stored bytes.
    out.extend(std::iter::repeat_n('0', width.saturating_sub(stored)));
    // The top byte's low bits one by one, then whole bytes eight digits at a
    // time (a bit sequence in a block's bitfields runs to hundreds of bits).
    let mut next = width.min(stored);
    while next % 8 != 0 {
        next -= 1;
        out.push(if (le_bytes[next / 8] >> (next % 8)) & 1 == 1 {
            '1'
        } else {
            '0'
        });
    }
    for &b in le_bytes[..next / 8].iter().rev() {
        let at = 8 * b as usize;
        out.push_str(&BINARY[at..at + 8]);
    }
}

#[cfg(test)]
mod tests {
    use super::py_bit_string;

    /// The rendering spelled out digit by digit, as py-scale-codec builds
    /// it: the binary digits of the integer, then zero-padded to `bits`.
    fn spelled_out(le_bytes: &[u8], bits: usize) -> String {
        let mut digits = String::new();
        for &b in le_bytes.iter().rev() {
            for i in (0..8).rev() {
                let one = b & (1 << i) != 0;
                if one || !digits.is_empty() {
                    digits.push(if one { '1' } else { '0' });
                }
            }
        }
        if digits.is_empty() {
            digits.push('0');
        }
        format!("0b{digits:0>bits$}")
    }

    #[test]
    fn agrees_with_the_digit_by_digit_rendering() {
        let samples: [&[u8]; 7] = [
            &[],
            &[0],
            &[0b101],
            &[0xff, 0x01],
            &[0x00, 0x80, 0x00],
            &[0x5a, 0xa5, 0x0f, 0xf0, 0x01, 0x00, 0x00, 0x00, 0x3c],
            &[0x80; 40],
        ];
        for bytes in samples {
            for bits in [0, 1, 3, 7, 8, 9, 16, 17, 70, 320, 400] {
                assert_eq!(
                    py_bit_string(bytes, bits),
                    spelled_out(bytes, bits),
                    "{bytes:?}, {bits} bits"
                );
            }
        }
        assert_eq!(py_bit_string(&[0b101], 8), "0b00000101");
        assert_eq!(py_bit_string(&[], 0), "0b0");
    }
}
