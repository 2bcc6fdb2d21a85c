//! Storage keys: `twox128(pallet prefix) ++ twox128(item name) ++` each map
//! key through its hasher; and the way back, from a full key to its parts.
//!
//! Going back, opaque hashers (`Blake2_128`, `Blake2_256`, `Twox128`,
//! `Twox256`) give only their digest. Concat hashers (`Blake2_128Concat`,
//! `Twox64Concat`, `Identity`) give the encoded key too, but the storage key
//! does not say where that key ends: its length must come from the key's
//! type. [`split_storage_key`] takes it as a known size, or takes the rest of
//! the storage key for the last key; [`split_storage_key_with`] asks a
//! callback (which can decode the key's type) for each length.

use super::digest::twox_128;
use super::hasher::StorageHasher;
use crate::error::Error;
use crate::hex::encode_prefixed as hex;

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

/// One map key read back from a storage key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyPart<'a> {
    /// The hasher that produced this part.
    pub hasher: StorageHasher,
    /// The digest bytes (empty for `Identity`).
    pub digest: &'a [u8],
    /// The SCALE-encoded key, for concat hashers; `None` for opaque ones.
    pub key: Option<&'a [u8]>,
}

/// Splits `full_key` of `pallet_prefix.item` into one part per hasher.
///
/// `key_sizes[i]` is the encoded size of key `i` when its type has a fixed
/// size (e.g. 32 for an `AccountId32`); it is needed only for concat hashers.
/// A concat key of unknown size can be read only when it is the last key
/// (it then takes the rest); in any other position use
/// [`split_storage_key_with`], which can decode the type to find the length.
pub fn split_storage_key<'a>(
    full_key: &'a [u8],
    pallet_prefix: &str,
    item: &str,
    hashers: &[StorageHasher],
    key_sizes: &[Option<usize>],
) -> Result<Vec<KeyPart<'a>>, Error> {
    if key_sizes.len() != hashers.len() {
        return Err(Error::Storage(format!(
            "{} hashers but {} key sizes",
            hashers.len(),
            key_sizes.len()
        )));
    }
    split_storage_key_with(full_key, pallet_prefix, item, hashers, |i, _| {
        Ok(key_sizes[i])
    })
}

/// Like [`split_storage_key`], with the length of each concat key given by
/// `key_len(index, bytes)`: `bytes` starts at the encoded key and runs to
/// the end of the storage key; the callback returns how many of them the key
/// takes, or `None` when it cannot tell (allowed only for the last key).
///
/// Every concat key's digest is checked against the key bytes, so a wrong
/// length or a foreign key is an error, not a silently wrong split.
pub fn split_storage_key_with<'a, F>(
    full_key: &'a [u8],
    pallet_prefix: &str,
    item: &str,
    hashers: &[StorageHasher],
    mut key_len: F,
) -> Result<Vec<KeyPart<'a>>, Error>
where
    F: FnMut(usize, &'a [u8]) -> Result<Option<usize>, Error>,
{
    let what = format!("storage key of {pallet_prefix}.{item}");
    let expected_prefix = storage_prefix(pallet_prefix, item);
    let Some(prefix) = full_key.get(..32) else {
        return Err(Error::Storage(format!(
            "{what}: {} bytes, shorter than the 32-byte pallet and item prefix",
            full_key.len()
        )));
    };
    if prefix != expected_prefix {
        return Err(Error::Storage(format!(
            "{what}: starts with {} instead of {}",
            hex(prefix),
            hex(&expected_prefix)
        )));
    }
    let mut rest = &full_key[32..];
    let mut parts = Vec::with_capacity(hashers.len());
    for (i, &hasher) in hashers.iter().enumerate() {
        let at = full_key.len() - rest.len();
        if rest.len() < hasher.hash_len() {
            return Err(Error::Storage(format!(
                "{what}: key {i} ({hasher}) needs a {}-byte digest at byte {at}, only {} left",
                hasher.hash_len(),
                rest.len()
            )));
        }
        let (digest, after) = rest.split_at(hasher.hash_len());
        rest = after;
        if !hasher.is_concat() {
            parts.push(KeyPart {
                hasher,
                digest,
                key: None,
            });
            continue;
        }
        let is_last = i + 1 == hashers.len();
        let len = match key_len(i, rest)? {
            Some(len) => len,
            None if is_last => rest.len(),
            None => {
                return Err(Error::Storage(format!(
                    "{what}: key {i} ({hasher}) is not the last key and its length is unknown; \
                     give its size or a length callback that decodes its type"
                )))
            }
        };
        if len > rest.len() {
            return Err(Error::Storage(format!(
                "{what}: key {i} ({hasher}) of {len} bytes at byte {} runs past the end ({} left)",
                full_key.len() - rest.len(),
                rest.len()
            )));
        }
        let (key, after) = rest.split_at(len);
        if hasher.digest(key) != digest {
            return Err(Error::Storage(format!(
                "{what}: key {i} ({hasher}) at byte {at}: the digest does not match the \
                 {len} key bytes that follow it (wrong key length or a corrupt key)"
            )));
        }
        rest = after;
        parts.push(KeyPart {
            hasher,
            digest,
            key: Some(key),
        });
    }
    if !rest.is_empty() {
        return Err(Error::Storage(format!(
            "{what}: {} bytes left after the last key",
            rest.len()
        )));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use StorageHasher::*;

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

    #[test]
    fn splits_back_what_it_builds() {
        let a = 7u32.to_le_bytes();
        let b = [9u8; 32];
        let c = b"variable length".to_vec();
        let hashers = [Blake2_128Concat, Twox256, Twox64Concat, Identity];
        let keys: [(StorageHasher, &[u8]); 4] = [
            (hashers[0], &a),
            (hashers[1], &b),
            (hashers[2], &b),
            (hashers[3], &c),
        ];
        let full = storage_key("P", "I", &keys);
        let parts =
            split_storage_key(&full, "P", "I", &hashers, &[Some(4), None, Some(32), None]).unwrap();
        assert_eq!(parts.len(), 4);
        assert_eq!(parts[0].key, Some(&a[..]));
        assert_eq!(parts[1].key, None);
        assert_eq!(parts[1].digest, Twox256.digest(&b));
        assert_eq!(parts[2].key, Some(&b[..]));
        assert_eq!(parts[3].key, Some(&c[..]));
    }

    #[test]
    fn refuses_what_it_cannot_split() {
        let full = storage_key(
            "P",
            "I",
            &[(Blake2_128Concat, b"abc"), (Twox64Concat, b"de")],
        );
        let hashers = [Blake2_128Concat, Twox64Concat];
        let err = |sizes: &[Option<usize>], pallet: &str, key: &[u8]| {
            split_storage_key(key, pallet, "I", &hashers, sizes)
                .unwrap_err()
                .to_string()
        };
        assert!(err(&[None, None], "P", &full).contains("not the last key"));
        assert!(err(&[Some(2), None], "P", &full).contains("digest does not match"));
        assert!(err(&[Some(3), Some(1)], "P", &full).contains("digest does not match"));
        let mut longer = full.clone();
        longer.push(0);
        assert!(err(&[Some(3), Some(2)], "P", &longer).contains("1 bytes left"));
        assert!(err(&[Some(3), Some(9)], "P", &full).contains("runs past the end"));
        assert!(err(&[Some(3), None], "Q", &full).contains("instead of"));
        assert!(err(&[Some(3), None], "P", &full[..20]).contains("shorter"));
        assert!(err(&[Some(3), None], "P", &full[..40]).contains("16-byte digest"));
        assert!(err(&[Some(3)], "P", &full).contains("2 hashers but 1 key sizes"));
        assert_eq!(
            split_storage_key(&full, "P", "I", &hashers, &[Some(3), None]).unwrap()[1].key,
            Some(&b"de"[..])
        );
    }
}
