//! Storage keys read back into typed map keys: what the generated
//! `pallets::<pallet>::storage::<entry>_decode_key` functions call, one
//! [`StorageKeyReader`] step per hasher of the entry.
//!
//! A key written by a concat hasher (`Blake2_128Concat`, `Twox64Concat`,
//! `Identity`) decodes as its type, and its digest is checked against the
//! bytes it decoded from, so a key of another entry or a damaged key is an
//! error rather than a wrong value. An opaque hasher keeps only its digest,
//! which is what the reader gives back for it.
//!
//! ```
//! use ferroscale_runtime_types::{storage_key, StorageHasher, StorageKeyReader};
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
//! # Ok::<(), ferroscale_runtime_types::StorageKeyError>(())
//! ```

use std::fmt;

use ferroscale_core::hashing::{storage_prefix, StorageHasher};
use parity_scale_codec::Decode;

/// Reads the map keys of one full storage key, in hasher order.
#[derive(Debug, Clone)]
pub struct StorageKeyReader<'a> {
    entry: (&'static str, &'static str),
    full: &'a [u8],
    rest: &'a [u8],
    index: usize,
}

impl<'a> StorageKeyReader<'a> {
    /// A reader of `full_key`, which must start with the 32-byte prefix of
    /// `pallet_prefix.item`.
    pub fn new(
        full_key: &'a [u8],
        pallet_prefix: &'static str,
        item: &'static str,
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

    /// The next map key, written by the concat hasher `hasher`.
    pub fn key<T: Decode>(&mut self, hasher: StorageHasher) -> Result<T, StorageKeyError> {
        let index = self.index;
        let digest = self.take(hasher.hash_len(), Some(index))?;
        let at = self.offset();
        let start = self.rest;
        let mut cursor = self.rest;
        let value = T::decode(&mut cursor)
            .map_err(|e| self.error_at(at, Some(index), StorageKeyErrorKind::Key(e)))?;
        let key = &start[..start.len() - cursor.len()];
        if hasher.digest(key) != digest {
            return Err(self.error_at(at, Some(index), StorageKeyErrorKind::DigestMismatch));
        }
        self.rest = cursor;
        self.index += 1;
        Ok(value)
    }

    /// The next map key's digest, for an opaque hasher (`Blake2_128`,
    /// `Blake2_256`, `Twox128`, `Twox256`), whose output does not hold the key.
    pub fn digest<const N: usize>(
        &mut self,
        hasher: StorageHasher,
    ) -> Result<[u8; N], StorageKeyError> {
        let index = self.index;
        if hasher.hash_len() != N {
            let kind = StorageKeyErrorKind::DigestSize {
                hasher,
                requested: N,
            };
            return Err(self.error_at(self.offset(), Some(index), kind));
        }
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, Some(index))?);
        self.index += 1;
        Ok(out)
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
            pallet: self.entry.0,
            item: self.entry.1,
            key,
            at,
            kind,
        }
    }
}

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

/// Why a storage key could not be read back into typed map keys.
#[derive(Debug)]
#[non_exhaustive]
pub struct StorageKeyError {
    /// The pallet's storage prefix.
    pub pallet: &'static str,
    /// The storage entry.
    pub item: &'static str,
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
    Key(parity_scale_codec::Error),
    /// The digest does not match the key bytes that follow it.
    DigestMismatch,
    /// A digest of another size than the hasher's was asked for.
    DigestSize {
        /// The entry's hasher.
        hasher: StorageHasher,
        /// The size asked for.
        requested: usize,
    },
    /// Bytes left after the last map key.
    TrailingBytes(usize),
}

impl fmt::Display for StorageKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "storage key of {}.{}", self.pallet, self.item)?;
        if let Some(key) = self.key {
            write!(f, ", map key {key}")?;
        }
        write!(f, " at byte {}: ", self.at)?;
        match &self.kind {
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
            StorageKeyErrorKind::TrailingBytes(n) => write!(f, "{n} bytes after the last key"),
        }
    }
}

impl std::error::Error for StorageKeyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            StorageKeyErrorKind::Key(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferroscale_core::hashing::storage_key;
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
        // A length prefix larger than the key is a decoding error.
        let mut huge = key[..48].to_vec();
        huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff]);
        assert!(err(&huge).contains("map key 0 at byte 48: the key does not decode"));
        let mut r = StorageKeyReader::new(&key, "P", "I").unwrap();
        let _: Vec<u8> = r.key(Blake2_128Concat).unwrap();
        let e = r.digest::<16>(Twox256).unwrap_err().to_string();
        assert!(
            e.ends_with("Twox256 digests are 32 bytes, 16 asked for"),
            "{e}"
        );
    }
}
