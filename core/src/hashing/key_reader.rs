//! Reading a full storage key back, one map key at a time: the one cursor
//! behind the dynamic layer's key decoding ([`split_storage_key_with`]) and
//! the generated typed `<entry>_decode_key` functions.
//!
//! Opaque hashers (`Blake2_128`, `Blake2_256`, `Twox128`, `Twox256`) give
//! only their digest. Concat hashers give the encoded key too, but the
//! storage key does not say where that key ends: its length comes from the
//! key's type ([`StorageKeyReader::key`]), from a known size
//! ([`split_storage_key`]) or from a callback ([`split_storage_key_with`]).
//!
//! A key written by a concat hasher (`Blake2_128Concat`, `Twox64Concat`,
//! `Identity`) is followed by its encoding, whose length comes from its type;
//! its digest is checked against those bytes, so a key of another entry or a
//! damaged key is an error rather than a wrong value. An opaque hasher keeps
//! only its digest, which is what the reader gives back for it.
//!
//! ```
//! use ferroscale_core::hashing::{storage_key, StorageHasher, StorageKeyReader};
//! use parity_scale_codec::Encode;
//!
//! let key = storage_key("Staking", "ErasStakers", &[
//!     (StorageHasher::Twox64Concat, &7u32.encode()),
//!     (StorageHasher::Twox64Concat, &[5u8; 32]),
//! ]);
//! let mut reader = StorageKeyReader::new(&key, "Staking", "ErasStakers")?;
//! let era: u32 = reader.key(StorageHasher::Twox64Concat)?;
//! let stash: [u8; 32] = reader.key(StorageHasher::Twox64Concat)?;
//! assert_eq!(reader.end((era, stash))?, (7, [5; 32]));
//! # Ok::<(), ferroscale_core::hashing::StorageKeyError>(())
//! ```

use std::fmt;

use parity_scale_codec::Decode;

use super::hasher::StorageHasher;
use super::storage_key::storage_prefix;

/// Reads the map keys of one full storage key, in hasher order.
#[derive(Debug, Clone)]
pub struct StorageKeyReader<'a, 'n> {
    entry: (&'n str, &'n str),
    full: &'a [u8],
    rest: &'a [u8],
    index: usize,
}

impl<'a, 'n> StorageKeyReader<'a, 'n> {
    /// A reader of `full_key`, which must start with the 32-byte prefix of
    /// `pallet_prefix.item`.
    pub fn new(
        full_key: &'a [u8],
        pallet_prefix: &'n str,
        item: &'n str,
    ) -> Result<Self, StorageKeyError> {
        let mut reader = StorageKeyReader {
            entry: (pallet_prefix, item),
            full: full_key,
            rest: full_key,
            index: 0,
        };
        let prefix = reader.take(32, None)?;
        if prefix != storage_prefix(pallet_prefix, item) {
            return Err(reader.error_at(0, None, StorageKeyErrorKind::OtherEntry));
        }
        Ok(reader)
    }

    /// The next map key, written by the concat hasher `hasher`, decoded as `T`.
    pub fn key<T: Decode>(&mut self, hasher: StorageHasher) -> Result<T, StorageKeyError> {
        self.key_with(hasher, |bytes| {
            let mut cursor = bytes;
            let value =
                T::decode(&mut cursor).map_err(|e| StorageKeyErrorKind::Key(Box::new(e)))?;
            Ok((value, bytes.len() - cursor.len()))
        })
    }

    /// The next map key, written by the concat hasher `hasher`, read by
    /// `read`: it gets the bytes after the digest (to the end of the storage
    /// key) and returns the key and how many of them it took, or what is
    /// wrong with them (usually [`StorageKeyErrorKind::Key`]).
    pub fn key_with<T>(
        &mut self,
        hasher: StorageHasher,
        read: impl FnOnce(&'a [u8]) -> Result<(T, usize), StorageKeyErrorKind>,
    ) -> Result<T, StorageKeyError> {
        Ok(self.digest_and_key_with(hasher, read)?.1)
    }

    /// [`key_with`](Self::key_with), giving the digest too.
    pub(super) fn digest_and_key_with<T>(
        &mut self,
        hasher: StorageHasher,
        read: impl FnOnce(&'a [u8]) -> Result<(T, usize), StorageKeyErrorKind>,
    ) -> Result<(&'a [u8], T), StorageKeyError> {
        let index = self.index;
        let digest = self.take(hasher.hash_len(), Some(index))?;
        let at = self.offset();
        let (value, len) = read(self.rest).map_err(|kind| self.error_at(at, Some(index), kind))?;
        self.concat_tail(hasher, digest, at, len)?;
        Ok((digest, value))
    }

    /// The next map key's digest, for an opaque hasher (`Blake2_128`,
    /// `Blake2_256`, `Twox128`, `Twox256`), whose output does not hold the key.
    pub fn digest<const N: usize>(
        &mut self,
        hasher: StorageHasher,
    ) -> Result<[u8; N], StorageKeyError> {
        if hasher.hash_len() != N {
            let kind = StorageKeyErrorKind::DigestSize {
                hasher,
                requested: N,
            };
            return Err(self.error_at(self.offset(), Some(self.index), kind));
        }
        let mut out = [0u8; N];
        out.copy_from_slice(self.digest_bytes(hasher)?);
        Ok(out)
    }

    /// The next map key's digest as a slice of the storage key, for an
    /// opaque hasher of any digest size. Not for a concat hasher: its key
    /// follows the digest and is not read here (use [`key`](Self::key)).
    pub fn digest_bytes(&mut self, hasher: StorageHasher) -> Result<&'a [u8], StorageKeyError> {
        let index = self.index;
        let digest = self.take(hasher.hash_len(), Some(index))?;
        self.index += 1;
        Ok(digest)
    }

    /// `keys` once every byte of the storage key has been read.
    pub fn end<T>(self, keys: T) -> Result<T, StorageKeyError> {
        if self.rest.is_empty() {
            Ok(keys)
        } else {
            let kind = StorageKeyErrorKind::TrailingBytes(self.rest.len());
            Err(self.error_at(self.offset(), None, kind))
        }
    }

    /// Checks a concat key of `len` bytes at `at` against its digest and
    /// moves past it.
    fn concat_tail(
        &mut self,
        hasher: StorageHasher,
        digest: &[u8],
        at: usize,
        len: usize,
    ) -> Result<(), StorageKeyError> {
        let index = self.index;
        if len > self.rest.len() {
            let kind = StorageKeyErrorKind::Truncated {
                needed: len,
                left: self.rest.len(),
            };
            return Err(self.error_at(at, Some(index), kind));
        }
        let (key, after) = self.rest.split_at(len);
        if hasher.digest(key) != digest {
            return Err(self.error_at(at, Some(index), StorageKeyErrorKind::DigestMismatch));
        }
        self.rest = after;
        self.index += 1;
        Ok(())
    }

    fn offset(&self) -> usize {
        self.full.len() - self.rest.len()
    }

    fn take(&mut self, n: usize, key: Option<usize>) -> Result<&'a [u8], StorageKeyError> {
        if self.rest.len() < n {
            let kind = StorageKeyErrorKind::Truncated {
                needed: n,
                left: self.rest.len(),
            };
            return Err(self.error_at(self.offset(), key, kind));
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }

    fn error_at(
        &self,
        at: usize,
        key: Option<usize>,
        kind: StorageKeyErrorKind,
    ) -> StorageKeyError {
        StorageKeyError {
            pallet: self.entry.0.to_owned(),
            item: self.entry.1.to_owned(),
            key,
            at,
            kind,
        }
    }
}

/// Why a map key's bytes did not read as its type (the reader's caller's
/// own error: a `parity_scale_codec::Error`, or the dynamic layer's).
pub type KeyDecodeError = Box<dyn std::error::Error + Send + Sync>;

/// Why a storage key could not be read back into its map keys.
#[derive(Debug)]
#[non_exhaustive]
pub struct StorageKeyError {
    /// The pallet's storage prefix.
    pub pallet: String,
    /// The storage entry.
    pub item: String,
    /// The map key being read (0-based), `None` for the entry prefix and
    /// for bytes after the last key.
    pub key: Option<usize>,
    /// Byte offset in the storage key.
    pub at: usize,
    /// What went wrong.
    pub kind: StorageKeyErrorKind,
}

/// What went wrong in a [`StorageKeyError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum StorageKeyErrorKind {
    /// The key does not start with this entry's 32-byte prefix.
    OtherEntry,
    /// Fewer bytes left than the next part needs.
    Truncated {
        /// Bytes the part needs.
        needed: usize,
        /// Bytes left.
        left: usize,
    },
    /// The key bytes do not decode as the key's type.
    Key(KeyDecodeError),
    /// The digest does not match the key bytes that follow it.
    DigestMismatch,
    /// A digest of another size than the hasher's was asked for.
    DigestSize {
        /// The entry's hasher.
        hasher: StorageHasher,
        /// The size asked for.
        requested: usize,
    },
    /// A concat key that is not the last one, with no way to tell its length.
    UnknownLength,
    /// Bytes left after the last map key.
    TrailingBytes(usize),
}

impl fmt::Display for StorageKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "storage key of {}.{}", self.pallet, self.item)?;
        if let Some(key) = self.key {
            write!(f, ", map key {key}")?;
        }
        write!(f, " at byte {}: {}", self.at, self.kind)
    }
}

impl fmt::Display for StorageKeyErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageKeyErrorKind::OtherEntry => f.write_str("the key belongs to another entry"),
            StorageKeyErrorKind::Truncated { needed, left } => {
                write!(f, "needed {needed} bytes, only {left} left")
            }
            StorageKeyErrorKind::Key(e) => write!(f, "the key does not decode: {e}"),
            StorageKeyErrorKind::DigestMismatch => {
                f.write_str("the digest does not match the key bytes that follow it")
            }
            StorageKeyErrorKind::DigestSize { hasher, requested } => write!(
                f,
                "{hasher} digests are {} bytes, {requested} asked for",
                hasher.hash_len()
            ),
            StorageKeyErrorKind::UnknownLength => f.write_str(
                "a concat-hashed key that is not the last key needs its length \
                 (give its size, or a callback that decodes its type)",
            ),
            StorageKeyErrorKind::TrailingBytes(n) => write!(f, "{n} bytes after the last key"),
        }
    }
}

impl std::error::Error for StorageKeyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            StorageKeyErrorKind::Key(e) => Some(e.as_ref()),
            _ => None,
        }
    }
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
/// size (e.g. 32 for an `AccountId32`); it is needed only for concat hashers,
/// and a size missing from the slice counts as unknown. A concat key of
/// unknown size can be read only when it is the last key (it then takes the
/// rest); in any other position use [`split_storage_key_with`], which can
/// decode the type to find the length.
pub fn split_storage_key<'a>(
    full_key: &'a [u8],
    pallet_prefix: &str,
    item: &str,
    hashers: &[StorageHasher],
    key_sizes: &[Option<usize>],
) -> Result<Vec<KeyPart<'a>>, StorageKeyError> {
    split_storage_key_with(full_key, pallet_prefix, item, hashers, |i, _| {
        Ok(key_sizes.get(i).copied().flatten())
    })
}

/// Like [`split_storage_key`], with the length of each concat key given by
/// `key_len(index, bytes)`: `bytes` starts at the encoded key and runs to
/// the end of the storage key; the callback returns how many of them the key
/// takes, or `None` when it cannot tell (allowed only for the last key), or
/// what is wrong with them (usually [`StorageKeyErrorKind::Key`]).
///
/// Every concat key's digest is checked against the key bytes, so a wrong
/// length or a foreign key is an error, not a silently wrong split.
pub fn split_storage_key_with<'a, F>(
    full_key: &'a [u8],
    pallet_prefix: &str,
    item: &str,
    hashers: &[StorageHasher],
    mut key_len: F,
) -> Result<Vec<KeyPart<'a>>, StorageKeyError>
where
    F: FnMut(usize, &'a [u8]) -> Result<Option<usize>, StorageKeyErrorKind>,
{
    let mut reader = StorageKeyReader::new(full_key, pallet_prefix, item)?;
    let mut parts = Vec::with_capacity(hashers.len());
    for (i, &hasher) in hashers.iter().enumerate() {
        if !hasher.is_concat() {
            let digest = reader.digest_bytes(hasher)?;
            parts.push(KeyPart {
                hasher,
                digest,
                key: None,
            });
            continue;
        }
        let is_last = i + 1 == hashers.len();
        let (digest, key) = reader.digest_and_key_with(hasher, |bytes| {
            let len = match key_len(i, bytes)? {
                Some(len) => len,
                None if is_last => bytes.len(),
                None => return Err(StorageKeyErrorKind::UnknownLength),
            };
            Ok((bytes.get(..len).unwrap_or(bytes), len))
        })?;
        parts.push(KeyPart {
            hasher,
            digest,
            key: Some(key),
        });
    }
    reader.end(parts)
}

#[cfg(test)]
mod tests {
    use super::super::storage_key::storage_key;
    use super::*;
    use parity_scale_codec::Encode;
    use StorageHasher::*;

    fn two_keys() -> Vec<u8> {
        storage_key(
            "P",
            "I",
            &[
                (Blake2_128Concat, &b"abc".to_vec().encode()),
                (Twox256, &[1, 2]),
            ],
        )
    }

    fn read(key: &[u8]) -> Result<(Vec<u8>, [u8; 32]), StorageKeyError> {
        let mut r = StorageKeyReader::new(key, "P", "I")?;
        let a: Vec<u8> = r.key(Blake2_128Concat)?;
        let b = r.digest::<32>(Twox256)?;
        r.end((a, b))
    }

    #[test]
    fn reads_back_what_storage_key_builds() {
        let (a, b) = read(&two_keys()).unwrap();
        assert_eq!(a, b"abc");
        assert_eq!(b.to_vec(), Twox256.digest(&[1, 2]));
    }

    #[test]
    fn damaged_keys_name_the_entry_key_and_offset() {
        let key = two_keys();
        let err = |k: &[u8]| read(k).unwrap_err().to_string();
        assert_eq!(
            err(&key[..20]),
            "storage key of P.I at byte 0: needed 32 bytes, only 20 left"
        );
        let mut other = key.clone();
        other[3] ^= 1;
        assert!(err(&other).contains("another entry"), "{}", err(&other));
        let mut flipped = key.clone();
        flipped[48 + 1] ^= 1; // a byte of the concat key
        assert_eq!(
            err(&flipped),
            "storage key of P.I, map key 0 at byte 48: the digest does not match the key bytes that follow it"
        );
        // Every cut is an error, never a panic.
        for cut in 0..key.len() {
            assert!(read(&key[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = key.clone();
        longer.push(0);
        assert!(err(&longer).ends_with("1 bytes after the last key"));
        // A length prefix larger than the key is a decoding error, and the
        // codec's error stays its source.
        let mut huge = key[..48].to_vec();
        huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff]);
        assert!(err(&huge).contains("map key 0 at byte 48: the key does not decode"));
        let source = std::error::Error::source(&read(&huge).unwrap_err())
            .expect("the decode error is the source")
            .to_string();
        assert!(!source.is_empty());
        let mut r = StorageKeyReader::new(&key, "P", "I").unwrap();
        let _: Vec<u8> = r.key(Blake2_128Concat).unwrap();
        let e = r.digest::<16>(Twox256).unwrap_err().to_string();
        assert!(
            e.ends_with("Twox256 digests are 32 bytes, 16 asked for"),
            "{e}"
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
        assert!(err(&[None, None], "P", &full)
            .contains("map key 0 at byte 48: a concat-hashed key that is not the last"));
        assert!(err(&[Some(2), None], "P", &full).contains("digest does not match"));
        assert!(err(&[Some(3), Some(1)], "P", &full)
            .contains("map key 1 at byte 59: the digest does not match"));
        let mut longer = full.clone();
        longer.push(0);
        assert!(err(&[Some(3), Some(2)], "P", &longer).ends_with("1 bytes after the last key"));
        assert!(err(&[Some(3), Some(9)], "P", &full).ends_with("needed 9 bytes, only 2 left"));
        assert!(err(&[Some(3), None], "Q", &full)
            .contains("storage key of Q.I at byte 0: the key belongs to another entry"));
        assert!(err(&[Some(3), None], "P", &full[..20]).ends_with("needed 32 bytes, only 20 left"));
        assert!(err(&[Some(3), None], "P", &full[..40])
            .contains("map key 0 at byte 32: needed 16 bytes, only 8 left"));
        // A size missing from the slice is an unknown size: the last key takes the rest.
        assert_eq!(
            split_storage_key(&full, "P", "I", &hashers, &[Some(3)]).unwrap()[1].key,
            Some(&b"de"[..])
        );
        assert_eq!(
            split_storage_key(&full, "P", "I", &hashers, &[Some(3), None]).unwrap()[1].key,
            Some(&b"de"[..])
        );
    }
}
