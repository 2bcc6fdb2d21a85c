//! Multisig account ids (`pallet_multisig::Pallet::multi_account_id`).

/// The account of the multisig of `signatories` with `threshold`: BLAKE2-256
/// of `"modlpy/utilisuba"`, the signatories sorted (a SCALE `Vec`) and the
/// threshold (`u16`). The signatories are sorted here, as the pallet
/// requires them to be.
pub fn multi_account_id(signatories: &[[u8; 32]], threshold: u16) -> [u8; 32] {
    let mut sorted = signatories.to_vec();
    sorted.sort_unstable();
    let mut payload = b"modlpy/utilisuba".to_vec();
    crate::encode::compact(sorted.len() as u128, &mut payload);
    for key in &sorted {
        payload.extend_from_slice(key);
    }
    payload.extend_from_slice(&threshold.to_le_bytes());
    ferroscale_core::hashing::blake2_256(&payload)
}

#[cfg(test)]
mod tests {
    #[test]
    fn order_of_signatories_does_not_matter() {
        let (a, b) = ([1u8; 32], [2u8; 32]);
        assert_eq!(
            super::multi_account_id(&[a, b], 2),
            super::multi_account_id(&[b, a], 2)
        );
        assert_ne!(
            super::multi_account_id(&[a, b], 2),
            super::multi_account_id(&[a, b], 1)
        );
    }
}
