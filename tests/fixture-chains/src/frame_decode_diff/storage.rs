//! Storage keys against `frame-decode`: a full key of every map built by
//! name, and recorded keys read back.

use std::ops::Range;

use ferroscale_core::hex::encode_prefixed as hex;
use ferroscale_metadata::Metadata;
use ferroscale_value::Value;
use frame_decode::storage::decode_storage_key;
use frame_metadata::RuntimeMetadata;

use super::{load, Sampled};
use crate::payloads::Sampler;
use crate::Roundtrip;

/// A full key of `pallet.entry` as frame-decode reads it: per map key, the
/// hasher's name, the digest's range, and the key's range and type id where
/// the hasher keeps the key.
type ReferenceKey = Vec<(String, Range<usize>, Option<(Range<usize>, u32)>)>;

fn reference_key(
    reference: &RuntimeMetadata,
    fixture: &str,
    pallet: &str,
    entry: &str,
    key: &[u8],
) -> Result<ReferenceKey, String> {
    Ok(with_reference!(reference, fixture, |m| {
        let mut cursor = key;
        let k = decode_storage_key(pallet, entry, &mut cursor, m, &m.types)
            .map_err(|e| format!("frame-decode: {e:?}"))?;
        if !cursor.is_empty() {
            return Err(format!("frame-decode left {} bytes", cursor.len()));
        }
        k.parts()
            .map(|p| {
                (
                    format!("{:?}", p.hasher()),
                    p.hash_range(),
                    p.value().map(|v| (v.range(), *v.ty())),
                )
            })
            .collect()
    }))
}

/// What [`check_storage_keys`] checked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StorageCounts {
    /// Storage maps the metadata lists.
    pub maps: usize,
    /// Maps whose full key was built from samples and agreed.
    pub full_keys: usize,
    /// Map keys checked in all (an N-key map counts N).
    pub key_parts: usize,
    /// Maps whose generated key functions (full key, every prefix, key
    /// decoding) agreed with the dynamic layer.
    pub typed: usize,
}

/// A generated chain's `storage_key_roundtrip(pallet, entry, keys)`.
pub type StorageKeyDispatch =
    fn(
        &str,
        &str,
        &[&[u8]],
    ) -> Option<Result<ferroscale_runtime_types::StorageKeyRoundtrip, String>>;

/// Builds a full key of every storage map of `fixture` by name
/// (`Registry::storage_key` over sampled key values) and each of its
/// iteration prefixes; `frame-decode` reads the full key into the map's
/// hashers with each concat-hashed key where it was written, and the
/// dynamic layer's `decode_storage_key` gives the sampled values back. The
/// generated functions of each map (`typed`) build the same full key and
/// prefixes from the same keys, and read the full key back into the same
/// parts.
pub fn check_storage_keys(
    fixture: &str,
    roundtrip: Roundtrip,
    typed: StorageKeyDispatch,
) -> StorageCounts {
    let bytes = ferroscale_fixtures::read(fixture);
    let (reference, mut registry) = load(fixture, &bytes);
    let metadata =
        Metadata::load(&bytes).unwrap_or_else(|e| panic!("{fixture}: metadata does not load: {e}"));
    let types = metadata.types.as_ref().expect("V14+ registry");
    let mut counts = StorageCounts::default();
    let mut failures = Vec::new();
    let mut samples = Vec::new();
    {
        let mut sampler = Sampler::new(&mut registry, &metadata, types, roundtrip);
        for p in &metadata.pallets {
            for e in p.storage_entries() {
                if e.hashers.is_empty() {
                    continue;
                }
                counts.maps += 1;
                let keys: Option<Vec<Sampled>> = e
                    .keys
                    .iter()
                    .map(|k| sampler.sample(k.id().expect("V14+ type id")))
                    .collect();
                if let Some(keys) = keys {
                    samples.push((p.name.clone(), e, keys));
                }
            }
        }
    }
    for (pallet, e, keys) in &samples {
        let what = format!("{pallet}.{}", e.name);
        let result = (|| -> Result<(), String> {
            let values: Vec<Value> = keys.iter().map(|(v, _)| v.clone()).collect();
            let key = registry
                .storage_key(pallet, &e.name, &values)
                .map_err(|e| format!("storage_key: {e}"))?;
            let reference_parts = reference_key(&reference, fixture, pallet, &e.name, &key)?;
            if reference_parts.len() != e.hashers.len() {
                return Err(format!(
                    "frame-decode reads {} parts",
                    reference_parts.len()
                ));
            }
            // Each part: the same hasher; its key (when the hasher keeps
            // it) at the written bytes; the digest over those bytes.
            let mut at = 32;
            for ((hasher, (_, key_bytes)), (name, hash_range, value)) in
                e.hashers.iter().zip(keys).zip(&reference_parts)
            {
                if format!("{hasher:?}") != *name {
                    return Err(format!("hasher {hasher:?}, frame-decode {name}"));
                }
                let digest = hasher.digest(key_bytes);
                let end = at + digest.len();
                if *hash_range != (at..end) || key[at..end] != digest[..] {
                    return Err(format!(
                        "{name}: digest range {hash_range:?}, written {at}..{end}"
                    ));
                }
                at = end;
                if let Some((r, _)) = value {
                    let written = at..at + key_bytes.len();
                    if *r != written || key[r.clone()] != key_bytes[..] {
                        return Err(format!("{name}: key range {r:?}, written {written:?}"));
                    }
                    at = written.end;
                }
            }
            let ours = registry
                .decode_storage_key(pallet, &e.name, &key)
                .map_err(|e| format!("decode_storage_key: {e}"))?;
            for ((part, (value, _)), (_, _, value_range)) in
                ours.iter().zip(keys).zip(&reference_parts)
            {
                let expected = value_range.as_ref().map(|_| value);
                if part.value.as_ref() != expected {
                    return Err(format!("decode_storage_key gives {:?}", part.value));
                }
            }
            // Iteration prefixes: fewer keys give the leading bytes.
            let mut prefixes = Vec::with_capacity(keys.len());
            for n in 0..keys.len() {
                let prefix = registry
                    .storage_key(pallet, &e.name, &values[..n])
                    .map_err(|e| format!("prefix of {n} keys: {e}"))?;
                if !key.starts_with(&prefix) {
                    return Err(format!("the prefix of {n} keys does not lead the full key"));
                }
                prefixes.push(prefix);
            }
            // The generated functions: same key, same prefixes, same parts.
            let encoded: Vec<&[u8]> = keys.iter().map(|(_, b)| b.as_slice()).collect();
            let t = typed(pallet, &e.name, &encoded)
                .ok_or("no generated key functions")?
                .map_err(|e| format!("typed: {e}"))?;
            if t.full != key {
                return Err(format!("typed full key {}", hex(&t.full)));
            }
            if t.prefixes != prefixes {
                return Err("typed prefixes differ".into());
            }
            let parts: Vec<Vec<u8>> = e
                .hashers
                .iter()
                .zip(keys)
                .map(|(h, (_, k))| {
                    if h.is_concat() {
                        k.clone()
                    } else {
                        h.digest(k)
                    }
                })
                .collect();
            if t.parts != parts {
                let parts: Vec<String> = t.parts.iter().map(|p| hex(p)).collect();
                return Err(format!("typed decode_key gives {parts:?}"));
            }
            counts.typed += 1;
            if ferroscale_core::hashing::storage_prefix(pallet, &e.name)[..] != key[..32] {
                return Err("another entry prefix".into());
            }
            counts.key_parts += keys.len();
            Ok(())
        })();
        match result {
            Ok(()) => counts.full_keys += 1,
            Err(err) => failures.push(format!("{what}: {err}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{fixture}: {} storage keys disagree with frame-decode:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        counts.full_keys * 10 >= counts.maps * 9,
        "{fixture}: only {} of {} storage maps could be sampled",
        counts.full_keys,
        counts.maps
    );
    assert_eq!(counts.typed, counts.full_keys, "{fixture}: {counts:?}");
    eprintln!("{fixture}: storage keys agree with frame-decode: {counts:?}");
    counts
}

/// Checks recorded full keys of `pallet.entry` of the runtime `fixture`:
/// `frame-decode` and the dynamic layer's `decode_storage_key` read the same
/// hashers, and each key `frame-decode` finds (concat hashers) is the value
/// ours gives. Returns how many keys were checked.
pub fn check_real_storage_keys(
    fixture: &str,
    pallet: &str,
    entry: &str,
    keys: &[Vec<u8>],
) -> usize {
    let bytes = ferroscale_fixtures::read(fixture);
    let (reference, mut registry) = load(fixture, &bytes);
    let mut failures = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let result = (|| -> Result<(), String> {
            let reference_parts = reference_key(&reference, fixture, pallet, entry, key)?;
            let ours = registry
                .decode_storage_key(pallet, entry, key)
                .map_err(|e| format!("decode_storage_key: {e}"))?;
            if ours.len() != reference_parts.len() {
                return Err(format!(
                    "{} parts, frame-decode {}",
                    ours.len(),
                    reference_parts.len()
                ));
            }
            for (part, (hasher, _, value)) in ours.iter().zip(&reference_parts) {
                if format!("{:?}", part.hasher) != *hasher {
                    return Err(format!("hasher {:?}, frame-decode {hasher}", part.hasher));
                }
                let expected = match value {
                    Some((r, ty)) => Some(
                        registry
                            .decode(&format!("scale_info::{ty}"), &key[r.clone()])
                            .map_err(|e| format!("key at {r:?}: {e}"))?,
                    ),
                    None => None,
                };
                if part.value != expected {
                    return Err(format!(
                        "key {:?}, frame-decode's bytes give {expected:?}",
                        part.value
                    ));
                }
            }
            Ok(())
        })();
        if let Err(e) = result {
            failures.push(format!("key {i}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{fixture}: recorded {pallet}.{entry} keys disagree with frame-decode:\n{}",
        failures.join("\n")
    );
    assert!(!keys.is_empty(), "{fixture}: no keys to check");
    keys.len()
}
