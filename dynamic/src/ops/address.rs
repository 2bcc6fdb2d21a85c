//! Accounts behind encoded addresses.

/// The 32-byte account behind an encoded `MultiAddress` (`raw` starts at its
/// variant byte): `Id` and `Address32` as they are, `Address20` zero-padded,
/// `Raw` bytes (after their length prefix) cut or zero-padded to 32 bytes;
/// `None` for `Index` and for input too short to hold the variant.
pub fn multi_address_account_id(raw: &[u8]) -> Option<[u8; 32]> {
    let (&variant, rest) = raw.split_first()?;
    let key = match variant {
        0 | 3 | 4 => rest,
        2 => rest.get(super::compact::encoded_len(*rest.first()?)..)?,
        _ => return None,
    };
    let mut account = [0u8; 32];
    let n = key.len().min(32);
    account[..n].copy_from_slice(&key[..n]);
    Some(account)
}

#[cfg(test)]
mod tests {
    use super::multi_address_account_id as id;

    #[test]
    fn variants() {
        let mut raw = vec![0u8];
        raw.extend_from_slice(&[7u8; 32]);
        assert_eq!(id(&raw), Some([7u8; 32]));
        assert_eq!(id(&[1, 5, 0, 0, 0]), None);
        let mut padded = [0u8; 32];
        padded[..2].copy_from_slice(&[9, 9]);
        assert_eq!(id(&[2, 8, 9, 9]), Some(padded));
        assert_eq!(id(&[]), None);
        assert_eq!(id(&[2]), None);
    }
}
