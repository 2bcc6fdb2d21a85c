//! Storage hashers and storage keys.
//!
//! - [`StorageHasher`]: the seven hashers metadata names (the one enum the
//!   project uses for them), with their output layout ([`StorageHasher::hash_len`],
//!   [`StorageHasher::is_concat`]) and conversions from every `frame-metadata`
//!   version's hasher enum.
//! - [`storage_key`] builds a full key; [`StorageKeyReader`] reads one back
//!   map key by map key (typed or by a callback), and [`split_storage_key`]
//!   and [`split_storage_key_with`] take a whole key apart with it.
//! - [`blake2_128`], [`blake2_256`], [`twox_64`], [`twox_128`], [`twox_256`]:
//!   the hash functions underneath.
//! - [`ordered_trie_root`]: the root of an ordered trie ([`TrieLayout`] V0
//!   or V1), what a header's extrinsics root is; [`ordered_trie_roots`]
//!   makes a batch of them (a partition's blocks) at once.
//! - [`blake2b_block`]: BLAKE2b for messages of one block (≤ 128 bytes), which
//!   `blake2_128`/`blake2_256` and SS58 checksums use for short inputs.
//!
//! ```
//! use ferroscale_core::hashing::{storage_key, StorageHasher};
//! let account = [0u8; 32];
//! let key = storage_key("System", "Account", &[(StorageHasher::Blake2_128Concat, &account)]);
//! assert_eq!(key.len(), 32 + 16 + 32);
//! ```

pub mod blake2b_block;
mod digest;
mod hasher;
mod header;
mod key_reader;
mod ordered_trie;
mod storage_key;

pub(crate) use digest::blake2b_of_parts;
pub use digest::{blake2_128, blake2_256, blake2_256_each, twox_128, twox_256, twox_64};
pub use hasher::{hash, StorageHasher};
pub use header::{header_encoding, header_hash};
pub use key_reader::{
    split_storage_key, split_storage_key_with, KeyDecodeError, KeyPart, StorageKeyError,
    StorageKeyErrorKind, StorageKeyReader,
};
pub use ordered_trie::{ordered_trie_root, ordered_trie_roots, TrieLayout};
pub use storage_key::{storage_key, storage_prefix};
