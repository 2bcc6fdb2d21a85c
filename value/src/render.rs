//! py-scale-codec 1.2.12's text renderings that both the typed values
//! (`ToValue`) and the dynamic decoder produce: one implementation for both.

/// py-scale-codec 1.2.12's text of a bit sequence of `bits` bits stored in
/// `le_bytes` (the encoded words): `"0b"` and the binary digits of the bytes
/// read as one little-endian integer, most significant first, zero-padded to
/// `bits` digits (`"0b0"` when all are zero and `bits` is 0 or 1). Store
/// word size and bit order do not change it: py-scale-codec ignores both.
pub fn py_bit_string(le_bytes: &[u8], bits: usize) -> String {
    let mut digits = String::with_capacity(bits.max(1) + 2);
    for &b in le_bytes.iter().rev() {
        for i in (0..8).rev() {
            let one = b & (1 << i) != 0;
            // Leading zeros come from the padding below, not from here.
            if one || !digits.is_empty() {
                digits.push(if one { '1' } else { '0' });
            }
        }
    }
    if digits.is_empty() {
        digits.push('0');
    }
    let mut out = String::with_capacity(digits.len().max(bits) + 2);
    out.push_str("0b");
    for _ in digits.len()..bits {
        out.push('0');
    }
    out.push_str(&digits);
    out
}
