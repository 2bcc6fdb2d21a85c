//! Storage entries, constants and events by name over the loaded metadata:
//! what a service needs without looking up type ids and hashers itself.
//!
//! ```text
//! let mut registry = Registry::from_metadata(&metadata)?;
//! let key = registry.storage_key("System", "Account", &[Value::Str(alice)])?;
//! let parts = registry.decode_storage_key("System", "Account", &key)?; // map iteration
//! let account = registry.decode_storage("System", "Account", &value_bytes)?;
//! let existential_deposit = registry.constant("Balances", "ExistentialDeposit")?;
//! ```

use std::sync::Arc;

use ferroscale_core::hashing::{
    blake2b_block, storage_prefix, StorageHasher, StorageKeyError, StorageKeyErrorKind,
    StorageKeyReader,
};
use ferroscale_metadata::{Metadata, StorageEntry, StorageModifier, TypeRef};
use ferroscale_value::Value;

use crate::context::Context;
use crate::decode::{decode_prefix, decode_value};
use crate::encode::encode_value;
use crate::error::{Error, ItemKind};
use crate::graph::{Node, Special, TypeIdx};
use crate::sink::ValueSink;

use super::Registry;

/// One map key read back from a storage key ([`Registry::decode_storage_key`]).
#[derive(Debug, Clone, PartialEq)]
pub struct StorageKeyPart {
    /// The hasher of this key.
    pub hasher: StorageHasher,
    /// The key's value: `Some` for the concat hashers (`Blake2_128Concat`,
    /// `Twox64Concat`, `Identity`), which keep the key after its digest;
    /// `None` for the others, whose key cannot be read back.
    pub value: Option<Value>,
}

/// The records of a decoded `System.Events` value whose event is
/// `pallet.name` (e.g. `("Balances", "Transfer")`), read from the records'
/// `module_id` and `event_id` (py-scale-codec's record shape).
pub fn events_named<'v>(events: &'v Value, pallet: &str, name: &str) -> Vec<&'v Value> {
    let Value::List(records) = events else {
        return Vec::new();
    };
    records
        .iter()
        .filter(|r| {
            let field = |key: &str| {
                r.get(key)
                    .or_else(|| r.get("event").and_then(|e| e.get(key)))
                    .and_then(Value::as_str)
            };
            field("module_id") == Some(pallet) && field("event_id") == Some(name)
        })
        .collect()
}

impl Registry {
    /// A registry over an already loaded [`Metadata`] (no second parse):
    /// the same as [`Registry::new`] then [`Registry::load_metadata_model`].
    pub fn from_metadata(metadata: &Metadata) -> Result<Self, Error> {
        let mut registry = Registry::new();
        registry.load_metadata_model(metadata)?;
        Ok(registry)
    }

    /// [`Registry::load_metadata`] for an already loaded [`Metadata`].
    pub fn load_metadata_model(&mut self, metadata: &Metadata) -> Result<(), Error> {
        self.load_model(Arc::new(metadata.clone()))
    }

    /// [`Registry::load_metadata_model`] for a model already shared behind an
    /// `Arc` (no copy): the Python module parses metadata with the
    /// interpreter lock released and hands the model over here.
    pub fn load_metadata_shared(&mut self, metadata: Arc<Metadata>) -> Result<(), Error> {
        self.load_model(metadata)
    }

    /// The loaded metadata, if any.
    pub fn metadata(&self) -> Option<&Metadata> {
        self.metadata.as_deref()
    }

    /// The loaded metadata, if any, shared (kept while the registry changes).
    pub fn metadata_shared(&self) -> Option<Arc<Metadata>> {
        self.metadata.clone()
    }

    /// The storage key of `pallet.entry` for `keys` (one value per hasher, in
    /// order). Fewer keys than the map has give the prefix of every entry
    /// under them (iterate with the node's `state_getKeysPaged`); none gives
    /// the prefix of the whole map, or the key of a plain value.
    pub fn storage_key(
        &mut self,
        pallet: &str,
        entry: &str,
        keys: &[Value],
    ) -> Result<Vec<u8>, Error> {
        Ok(self
            .storage_keys(pallet, entry, std::slice::from_ref(&keys))?
            .remove(0))
    }

    /// [`Registry::storage_key`] of each list of key values in `keys`, in
    /// order (what `query_multi` sends): the entry looked up once, the
    /// account ids among the keys read from SS58 and the BLAKE2b key
    /// hashes taken several at a time in vector lanes.
    pub fn storage_keys<K: AsRef<[Value]>>(
        &mut self,
        pallet: &str,
        entry: &str,
        keys: &[K],
    ) -> Result<Vec<Vec<u8>>, Error> {
        let (prefix, e) = self.storage_entry(pallet, entry)?;
        let most = keys.iter().map(|k| k.as_ref().len()).max().unwrap_or(0);
        if most > e.hashers.len() {
            return Err(Error::Usage(format!(
                "storage entry {pallet}.{entry} has {} key(s), {most} given",
                e.hashers.len(),
            )));
        }
        let types = e.keys[..most]
            .iter()
            .map(|k| self.type_of(k))
            .collect::<Result<Vec<TypeIdx>, Error>>()?;
        let ctx = self.context();
        // encoded[key][part]: each key value's SCALE bytes, a position at a
        // time (one account id type and hasher per position).
        let mut encoded: Vec<Vec<Vec<u8>>> = keys
            .iter()
            .map(|k| Vec::with_capacity(k.as_ref().len()))
            .collect();
        for (position, &ty) in types.iter().enumerate() {
            let values: Vec<(usize, &Value)> = keys
                .iter()
                .enumerate()
                .filter_map(|(i, k)| k.as_ref().get(position).map(|v| (i, v)))
                .collect();
            let mut accounts = account_ids(&ctx, ty, &values).into_iter();
            for (i, value) in values {
                let bytes = match accounts.next().flatten() {
                    Some(account) => account.to_vec(),
                    None => encode_value(&ctx, ty, value)?,
                };
                encoded[i].push(bytes);
            }
        }
        let base = storage_prefix(&prefix, entry);
        let mut out: Vec<Vec<u8>> = encoded
            .iter()
            .map(|parts| {
                let len: usize = e
                    .hashers
                    .iter()
                    .zip(parts)
                    .map(|(h, k)| h.hash_len() + if h.is_concat() { k.len() } else { 0 })
                    .sum();
                let mut key = Vec::with_capacity(32 + len);
                key.extend_from_slice(&base);
                key
            })
            .collect();
        for (position, &hasher) in e.hashers[..most].iter().enumerate() {
            let at: Vec<usize> = (0..encoded.len())
                .filter(|&i| encoded[i].len() > position)
                .collect();
            let messages: Vec<&[u8]> = at
                .iter()
                .map(|&i| encoded[i][position].as_slice())
                .collect();
            let mut digests = vec![[0u8; 16]; messages.len()];
            let batched = matches!(
                hasher,
                StorageHasher::Blake2_128 | StorageHasher::Blake2_128Concat
            ) && blake2b_block::digest_many(&messages, &mut digests);
            for (k, &i) in at.iter().enumerate() {
                if batched {
                    out[i].extend_from_slice(&digests[k]);
                    if hasher.is_concat() {
                        out[i].extend_from_slice(messages[k]);
                    }
                } else {
                    hasher.hash_into(messages[k], &mut out[i]);
                }
            }
        }
        Ok(out)
    }

    /// Reads a full storage key of `pallet.entry` back into its parts (map
    /// iteration): each concat-hashed key decoded with its type. The prefix
    /// and every digest are checked, so a key of another entry is an error.
    pub fn decode_storage_key(
        &mut self,
        pallet: &str,
        entry: &str,
        key: &[u8],
    ) -> Result<Vec<StorageKeyPart>, Error> {
        let (prefix, e) = self.storage_entry(pallet, entry)?;
        let types = e
            .keys
            .iter()
            .map(|k| self.type_of(k))
            .collect::<Result<Vec<TypeIdx>, Error>>()?;
        let ctx = self.context();
        let mut reader = StorageKeyReader::new(key, &prefix, entry).map_err(key_error)?;
        let mut parts = Vec::with_capacity(types.len());
        for (&hasher, &ty) in e.hashers.iter().zip(&types) {
            let value = if hasher.is_concat() {
                let value = reader
                    .key_with(hasher, |bytes| {
                        decode_prefix(&ctx, ty, bytes, &mut ValueSink)
                            .map_err(|err| StorageKeyErrorKind::Key(Box::new(err)))
                    })
                    .map_err(key_error)?;
                Some(value)
            } else {
                reader.digest_bytes(hasher).map_err(key_error)?;
                None
            };
            parts.push(StorageKeyPart { hasher, value });
        }
        reader.end(parts).map_err(key_error)
    }

    /// The node a value of `pallet.entry` decodes as (for callers that
    /// decode into their own output, such as the Python module).
    pub fn storage_value_type(&mut self, pallet: &str, entry: &str) -> Result<TypeIdx, Error> {
        let (_, e) = self.storage_entry(pallet, entry)?;
        self.type_of(&e.value)
    }

    /// Decodes a value of `pallet.entry` (all of `bytes`).
    pub fn decode_storage(
        &mut self,
        pallet: &str,
        entry: &str,
        bytes: &[u8],
    ) -> Result<Value, Error> {
        let (_, e) = self.storage_entry(pallet, entry)?;
        let ty = self.type_of(&e.value)?;
        decode_value(&self.context(), ty, bytes)
    }

    /// The value `pallet.entry` reads as when nothing is stored: its default
    /// for a `ValueQuery` entry, `None` (`Value::Null`) for an `OptionQuery` one.
    pub fn storage_default(&mut self, pallet: &str, entry: &str) -> Result<Value, Error> {
        let (_, e) = self.storage_entry(pallet, entry)?;
        if e.modifier == StorageModifier::Optional {
            return Ok(Value::Null);
        }
        let ty = self.type_of(&e.value)?;
        decode_value(&self.context(), ty, &e.default)
    }

    /// The value of constant `pallet.name`.
    pub fn constant(&mut self, pallet: &str, name: &str) -> Result<Value, Error> {
        let md = self.require_metadata(ItemKind::Constant, pallet, name)?;
        let c = md
            .pallet(pallet)
            .and_then(|p| p.constant(name))
            .ok_or_else(|| Error::not_found(ItemKind::Constant, pallet, name))?
            .clone();
        let ty = self.type_of(&c.ty)?;
        decode_value(&self.context(), ty, &c.value)
    }

    /// Decodes the `System.Events` storage value: every event record of a
    /// block (pick events by name with [`events_named`]).
    pub fn decode_events(&mut self, bytes: &[u8]) -> Result<Value, Error> {
        self.decode_storage("System", "Events", bytes)
    }

    /// The metadata, or the error naming the item that needed it.
    pub(super) fn require_metadata(
        &self,
        kind: ItemKind,
        pallet: &str,
        name: &str,
    ) -> Result<Arc<Metadata>, Error> {
        self.metadata.clone().ok_or_else(|| Error::NoRuntime {
            ty: format!("{kind} {pallet}.{name}"),
        })
    }

    /// The storage prefix and the entry.
    fn storage_entry(&self, pallet: &str, entry: &str) -> Result<(String, StorageEntry), Error> {
        let md = self.require_metadata(ItemKind::Storage, pallet, entry)?;
        let p = md
            .pallet(pallet)
            .ok_or_else(|| Error::not_found(ItemKind::Storage, pallet, entry))?;
        let e = p
            .storage_entry(entry)
            .ok_or_else(|| Error::not_found(ItemKind::Storage, pallet, entry))?;
        let prefix = p.storage.as_ref().map_or(pallet, |s| s.prefix.as_str());
        Ok((prefix.to_owned(), e.clone()))
    }

    /// The graph node of a metadata type: a registry id (V14+) or a type
    /// string (V9–V13, resolved through the presets).
    pub(super) fn type_of(&mut self, ty: &TypeRef) -> Result<TypeIdx, Error> {
        match ty {
            TypeRef::Id(id) => {
                let portable = self.portable.as_ref().ok_or_else(|| Error::NoRuntime {
                    ty: format!("scale_info::{id}"),
                })?;
                if *id >= portable.count {
                    return Err(Error::unknown_type(
                        format!("scale_info::{id}"),
                        format!(
                            "scale_info::{id} (the registry has {} types)",
                            portable.count
                        ),
                    ));
                }
                Ok(TypeIdx(portable.base + id))
            }
            TypeRef::Name(name) => self.resolve(name),
        }
    }
}

/// The account ids among `values` when `ty` is an account id: each SS58
/// address's 32 bytes (`None` for any other value, and for an address that
/// does not read back, which the encoder then reports), the addresses read
/// together ([`ferroscale_core::ss58::decode_many_with`]). Empty for other types.
fn account_ids(
    ctx: &Context<'_>,
    ty: TypeIdx,
    values: &[(usize, &Value)],
) -> Vec<Option<[u8; 32]>> {
    if !matches!(ctx.graph.get(ty), Some(Node::Special(Special::AccountId))) {
        return Vec::new();
    }
    let texts: Vec<&str> = values
        .iter()
        .map(|(_, v)| match v.as_str() {
            Some(s) if !s.starts_with("0x") => s,
            // Not an address: no result, the encoder reads it.
            _ => "",
        })
        .collect();
    ferroscale_core::ss58::decode_many_with(&texts, None, |_, payload| {
        <[u8; 32]>::try_from(payload).ok()
    })
    .into_iter()
    .map(|r| r.ok().flatten())
    .collect()
}

/// A storage key that does not read back as its entry's. A map key that does
/// not decode gives the decoding error itself: it names the type and offset.
fn key_error(e: StorageKeyError) -> Error {
    if let StorageKeyErrorKind::Key(source) = &e.kind {
        if let Some(decode) = source.downcast_ref::<Error>() {
            return decode.clone();
        }
    }
    Error::StorageKey {
        reason: e.kind.to_string(),
        pallet: e.pallet,
        item: e.item,
        key: e.key,
        offset: e.at,
    }
}
