//! `BTreeMap` and `BTreeSet` as the metadata describes them: a SCALE sequence
//! of entries. They keep the entries in wire order, so decoding then encoding
//! gives the same bytes even for unsorted input, and they need no `Ord` on the
//! (generated) key types. `into_std` gives Rust's maps when the key is `Ord`.

use parity_scale_codec::{Decode, Encode};

/// A map as a sequence of `(key, value)` pairs in wire order.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, Default)]
pub struct BTreeMap<K, V>(pub Vec<(K, V)>);

impl<K: Ord, V> BTreeMap<K, V> {
    /// Rust's `BTreeMap` (a later duplicate key wins, as in parity-scale-codec).
    pub fn into_std(self) -> std::collections::BTreeMap<K, V> {
        self.0.into_iter().collect()
    }
}

impl<K, V> BTreeMap<K, V> {
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value of the first entry whose key equals `key`.
    pub fn get(&self, key: &K) -> Option<&V>
    where
        K: PartialEq,
    {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// A set as a sequence of items in wire order.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode, Default)]
pub struct BTreeSet<T>(pub Vec<T>);

impl<T: Ord> BTreeSet<T> {
    /// Rust's `BTreeSet`.
    pub fn into_std(self) -> std::collections::BTreeSet<T> {
        self.0.into_iter().collect()
    }
}

impl<T> BTreeSet<T> {
    /// Number of items.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
