//! What a generated `storage_key_roundtrip` returns. The reader the
//! generated `pallets::<pallet>::storage::<entry>_decode_key` functions call,
//! [`StorageKeyReader`](ferroscale_core::hashing::StorageKeyReader), is the
//! one the dynamic layer reads keys with (`ferroscale-core`).

/// What a generated `storage_key_roundtrip` gives for one map entry (tests
/// hold it against the dynamic layer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageKeyRoundtrip {
    /// The full key built from the map keys.
    pub full: Vec<u8>,
    /// `prefixes[k]`: the prefix fixing the first `k` map keys.
    pub prefixes: Vec<Vec<u8>>,
    /// The full key read back: per map key, its encoding where its hasher
    /// keeps it, its digest where it does not.
    pub parts: Vec<Vec<u8>>,
}
