//! SCALE compact integers read and written outside a type walk.

/// The compact encoding of `v`.
pub fn encode(v: u128) -> Vec<u8> {
    let mut out = Vec::with_capacity(17);
    crate::encode::compact(v, &mut out);
    out
}

/// How many bytes a compact integer whose first byte is `first` takes.
pub fn encoded_len(first: u8) -> usize {
    match first & 3 {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => 5 + (first >> 2) as usize,
    }
}

/// Reads a compact integer at the start of `bytes`: `(value, bytes used)`,
/// or `None` when the input ends first or the value is wider than 128 bits.
pub fn decode(bytes: &[u8]) -> Option<(u128, usize)> {
    crate::decode::compact_prefix(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trips_each_mode() {
        for v in [
            0u128,
            63,
            64,
            16383,
            16384,
            (1 << 30) - 1,
            1 << 30,
            u64::MAX as u128,
            u128::MAX,
        ] {
            let bytes = super::encode(v);
            assert_eq!(super::encoded_len(bytes[0]), bytes.len());
            assert_eq!(super::decode(&bytes), Some((v, bytes.len())));
        }
        assert_eq!(super::decode(&[]), None);
        assert_eq!(super::decode(&[0x01]), None);
    }
}
