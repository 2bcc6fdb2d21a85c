//! Fast SS58 text for 32-byte account ids, the decoder's hot path when an
//! ss58 format is set (Bittensor runtime-API results render tens of
//! thousands of accounts). Same output as `ferroscale_core::ss58::encode`
//! (checked against it in the tests), about ten times faster: base58 by
//! limbs of 58^5 instead of byte-wise big-number division.

use blake2::{Blake2b512, Digest};

const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/// 58^5: five base58 digits per limb; `limb * 256 + 255` fits in a u64.
const LIMB: u64 = 58 * 58 * 58 * 58 * 58;

/// SS58 text of a 32-byte account for `format`, or `None` for formats the
/// spec does not allow (out of range or reserved).
pub fn ss58_account(account: &[u8; 32], format: u16) -> Option<String> {
    if format > ferroscale_core::ss58::MAX_FORMAT
        || ferroscale_core::ss58::RESERVED_FORMATS.contains(&format)
    {
        return None;
    }
    let mut raw = [0u8; 2 + 32 + 2];
    let prefix_len = if format < 64 {
        raw[0] = format as u8;
        1
    } else {
        raw[0] = 0b0100_0000 | ((format & 0b1111_1100) >> 2) as u8;
        raw[1] = ((format >> 8) as u8) | (((format & 0b11) as u8) << 6);
        2
    };
    raw[prefix_len..prefix_len + 32].copy_from_slice(account);
    let mut h = Blake2b512::new();
    h.update(b"SS58PRE");
    h.update(&raw[..prefix_len + 32]);
    let sum = h.finalize();
    raw[prefix_len + 32..prefix_len + 34].copy_from_slice(&sum[..2]);
    Some(base58(&raw[..prefix_len + 34]))
}

/// Base58 (Bitcoin alphabet) of up to 36 bytes.
fn base58(input: &[u8]) -> String {
    // 36 bytes < 58^50: ten limbs of 58^5 suffice.
    let mut limbs = [0u64; 10];
    let mut used = 0usize;
    for &byte in input {
        let mut carry = byte as u64;
        for limb in limbs.iter_mut().take(used) {
            let x = *limb * 256 + carry;
            *limb = x % LIMB;
            carry = x / LIMB;
        }
        while carry > 0 {
            limbs[used] = carry % LIMB;
            carry /= LIMB;
            used += 1;
        }
    }
    let mut digits = [0u8; 50];
    let mut n = 0;
    for limb in limbs.iter().take(used) {
        let mut l = *limb;
        for _ in 0..5 {
            digits[n] = (l % 58) as u8;
            l /= 58;
            n += 1;
        }
    }
    // Drop leading zero digits of the number (they are at the end here).
    while n > 0 && digits[n - 1] == 0 {
        n -= 1;
    }
    let zeros = input.iter().take_while(|&&b| b == 0).count();
    let mut out = String::with_capacity(zeros + n);
    for _ in 0..zeros {
        out.push('1');
    }
    for &d in digits[..n].iter().rev() {
        out.push(ALPHABET[d as usize] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_core_encoder() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut accounts = vec![[0u8; 32], [0xff; 32]];
        let mut leading = [0u8; 32];
        leading[31] = 1;
        accounts.push(leading);
        for _ in 0..300 {
            let mut a = [0u8; 32];
            for b in a.iter_mut() {
                *b = next() as u8;
            }
            accounts.push(a);
        }
        for format in [0u16, 1, 2, 42, 46, 63, 64, 255, 1284, 16383, 16384] {
            for a in &accounts {
                let core = ferroscale_core::ss58::encode(a, format).ok();
                assert_eq!(ss58_account(a, format), core, "format {format}");
            }
        }
    }
}
