//! Storage keys: `twox128(pallet prefix) ++ twox128(item name) ++` each map
//! key through its hasher. The way back is `key_reader`.

use super::digest::twox_128;
use super::hasher::StorageHasher;

/// `twox128(pallet_prefix) ++ twox128(item)`: the key of a plain storage
/// value, and the prefix shared by every key of a map.
pub fn storage_prefix(pallet_prefix: &str, item: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    out[..16].copy_from_slice(&twox_128(pallet_prefix.as_bytes()));
    out[16..].copy_from_slice(&twox_128(item.as_bytes()));
    out
}

/// The full storage key of `pallet_prefix.item` at the given keys: each pair
/// is a hasher (from the entry's metadata) and the SCALE-encoded key.
pub fn storage_key(pallet_prefix: &str, item: &str, keys: &[(StorageHasher, &[u8])]) -> Vec<u8> {
    let hashed_len: usize = keys
        .iter()
        .map(|(h, k)| h.hash_len() + if h.is_concat() { k.len() } else { 0 })
        .sum();
    let mut out = Vec::with_capacity(32 + hashed_len);
    out.extend_from_slice(&storage_prefix(pallet_prefix, item));
    for (hasher, key) in keys {
        hasher.hash_into(key, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::encode_prefixed as hex;

    #[test]
    fn known_prefixes() {
        // The well-known keys of System.Account and Timestamp.Now.
        assert_eq!(
            hex(&storage_prefix("System", "Account")),
            "0x26aa394eea5630e07c48ae0c9558cef7b99d880ec681799c0cf30e8886371da9"
        );
        assert_eq!(
            hex(&storage_key("Timestamp", "Now", &[])),
            "0xf0c365c3cf59d671eb72da0e7a4113c49f1f0515f462cdcf84e0f1d6045dfcbb"
        );
    }
}
