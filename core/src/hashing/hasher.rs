//! [`StorageHasher`]: how a storage map hashes each of its keys.

use parity_scale_codec::{Decode, Encode};

use super::digest::{blake2_128, blake2_256, twox_128, twox_256, twox_64};

/// A storage hasher, as metadata names it. The variant order is the SCALE
/// index every metadata version (V9–V16) uses, so this type also decodes a
/// hasher straight from metadata bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Encode, Decode)]
#[allow(non_camel_case_types)]
pub enum StorageHasher {
    /// 128-bit Blake2b of the key.
    Blake2_128,
    /// 256-bit Blake2b of the key.
    Blake2_256,
    /// 128-bit Blake2b of the key, then the key itself.
    Blake2_128Concat,
    /// 128-bit twox of the key.
    Twox128,
    /// 256-bit twox of the key.
    Twox256,
    /// 64-bit twox of the key, then the key itself.
    Twox64Concat,
    /// The key itself.
    Identity,
}

impl StorageHasher {
    /// Every hasher, in SCALE index order.
    pub const ALL: [StorageHasher; 7] = [
        StorageHasher::Blake2_128,
        StorageHasher::Blake2_256,
        StorageHasher::Blake2_128Concat,
        StorageHasher::Twox128,
        StorageHasher::Twox256,
        StorageHasher::Twox64Concat,
        StorageHasher::Identity,
    ];

    /// The hasher with SCALE index `index` (its position in metadata's enum).
    pub fn from_index(index: u8) -> Option<StorageHasher> {
        Self::ALL.get(usize::from(index)).copied()
    }

    /// The name metadata gives it, e.g. `"Blake2_128Concat"`.
    pub fn name(self) -> &'static str {
        match self {
            StorageHasher::Blake2_128 => "Blake2_128",
            StorageHasher::Blake2_256 => "Blake2_256",
            StorageHasher::Blake2_128Concat => "Blake2_128Concat",
            StorageHasher::Twox128 => "Twox128",
            StorageHasher::Twox256 => "Twox256",
            StorageHasher::Twox64Concat => "Twox64Concat",
            StorageHasher::Identity => "Identity",
        }
    }

    /// The hasher called `name` (as in metadata, e.g. `"Twox64Concat"`).
    pub fn from_name(name: &str) -> Option<StorageHasher> {
        Self::ALL.into_iter().find(|h| h.name() == name)
    }

    /// Length of the digest part: the whole output for the opaque hashers, the
    /// bytes before the key for the concat ones (0 for `Identity`).
    pub fn hash_len(self) -> usize {
        match self {
            StorageHasher::Blake2_128 | StorageHasher::Blake2_128Concat => 16,
            StorageHasher::Twox128 => 16,
            StorageHasher::Blake2_256 | StorageHasher::Twox256 => 32,
            StorageHasher::Twox64Concat => 8,
            StorageHasher::Identity => 0,
        }
    }

    /// Whether the key itself follows the digest in the output (so it can be
    /// read back from a storage key): `Blake2_128Concat`, `Twox64Concat`, `Identity`.
    pub fn is_concat(self) -> bool {
        matches!(
            self,
            StorageHasher::Blake2_128Concat | StorageHasher::Twox64Concat | StorageHasher::Identity
        )
    }

    /// The digest part alone (empty for `Identity`).
    pub fn digest(self, key: &[u8]) -> Vec<u8> {
        match self {
            StorageHasher::Blake2_128 | StorageHasher::Blake2_128Concat => blake2_128(key).to_vec(),
            StorageHasher::Blake2_256 => blake2_256(key).to_vec(),
            StorageHasher::Twox128 => twox_128(key).to_vec(),
            StorageHasher::Twox256 => twox_256(key).to_vec(),
            StorageHasher::Twox64Concat => twox_64(key).to_vec(),
            StorageHasher::Identity => Vec::new(),
        }
    }

    /// Appends the hasher's output for `key` (digest, then the key for concat
    /// hashers) to `out`.
    pub fn hash_into(self, key: &[u8], out: &mut Vec<u8>) {
        out.extend_from_slice(&self.digest(key));
        if self.is_concat() {
            out.extend_from_slice(key);
        }
    }

    /// The hasher's output for `key`.
    pub fn hash(self, key: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.hash_len() + key.len());
        self.hash_into(key, &mut out);
        out
    }
}

impl std::fmt::Display for StorageHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The output of `hasher` for `key`; the same as [`StorageHasher::hash`].
pub fn hash(hasher: StorageHasher, key: &[u8]) -> Vec<u8> {
    hasher.hash(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_name_and_scale_encoding_agree() {
        for (i, h) in StorageHasher::ALL.into_iter().enumerate() {
            assert_eq!(StorageHasher::from_index(i as u8), Some(h));
            assert_eq!(h.encode(), vec![i as u8]);
            assert_eq!(StorageHasher::decode(&mut &[i as u8][..]).unwrap(), h);
            assert_eq!(StorageHasher::from_name(h.name()), Some(h));
        }
        assert_eq!(StorageHasher::from_index(7), None);
        assert!(StorageHasher::decode(&mut &[7u8][..]).is_err());
        assert_eq!(StorageHasher::from_name("blake2_128"), None);
    }

    #[test]
    fn output_lengths() {
        let key = [7u8; 40];
        for h in StorageHasher::ALL {
            let out = h.hash(&key);
            let expected = h.hash_len() + if h.is_concat() { key.len() } else { 0 };
            assert_eq!(out.len(), expected, "{h}");
            if h.is_concat() {
                assert_eq!(&out[h.hash_len()..], &key[..], "{h}");
            }
        }
        assert_eq!(StorageHasher::Identity.hash(b"abc"), b"abc");
    }
}
