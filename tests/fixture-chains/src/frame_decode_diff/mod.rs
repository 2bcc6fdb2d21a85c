//! Extrinsics and storage keys against an independent decoder, Parity's
//! `frame-decode`: it reads the same bytes into byte ranges per part (the
//! preamble, address, signature, each transaction extension by name, the
//! call and each argument; each storage key's hasher, digest and key), and
//! those ranges must be exactly where our layers put or found each part.
//!
//! - [`check_built_extrinsics`]: for every call of a fixture whose arguments
//!   can be sampled, every form its metadata allows — format 4 unsigned and
//!   signed, format 5 bare, and format 5 general for every
//!   transaction-extension version the metadata lists — built from sampled
//!   part values (so the expected ranges are known by construction); each
//!   decodes with `frame-decode` into those ranges, with the dynamic layer
//!   into those values (and re-encodes to the same bytes), and with the
//!   generated `UncheckedExtrinsic` into parts that re-encode to those ranges.
//! - [`check_real_extrinsics`]: the extrinsics of a recorded block, where
//!   `frame-decode`'s ranges give the expected parts.
//! - [`check_storage_keys`]: a full key of every storage map built by name
//!   (sampled keys), read back by `frame-decode` and by ours.

use frame_metadata::{RuntimeMetadata, RuntimeMetadataPrefixed};
use parity_scale_codec::Decode;

/// The whole metadata as `frame-decode` reads it (its own parse, through
/// `frame-metadata`, independent of ours).
fn reference_metadata(bytes: &[u8], fixture: &str) -> RuntimeMetadata {
    RuntimeMetadataPrefixed::decode(&mut &bytes[..])
        .unwrap_or_else(|e| panic!("{fixture}: frame-metadata does not read it: {e}"))
        .1
}

/// The runtime `fixture` (its metadata `bytes`) as both sides read it:
/// frame-decode's metadata and a dynamic registry (SS58 format 0, so
/// account values render the same on every path).
fn load(fixture: &str, bytes: &[u8]) -> (RuntimeMetadata, ferroscale_dynamic::registry::Registry) {
    let mut registry = ferroscale_dynamic::registry::Registry::new();
    registry
        .load_metadata(bytes)
        .unwrap_or_else(|e| panic!("{fixture}: the dynamic layer does not load it: {e}"));
    registry.set_ss58_format(Some(0));
    (reference_metadata(bytes, fixture), registry)
}

/// Calls `$body` with `$m` bound to the V14, V15 or V16 metadata inside
/// `$md` (`frame-decode` is generic over the version).
macro_rules! with_reference {
    ($md:expr, $fixture:expr, |$m:ident| $body:expr) => {
        match $md {
            RuntimeMetadata::V14($m) => $body,
            RuntimeMetadata::V15($m) => $body,
            RuntimeMetadata::V16($m) => $body,
            _ => panic!("{}: frame-decode is used here for V14–V16 only", $fixture),
        }
    };
}

/// The hex strings of a JSON array fixture (`payloads/…/extrinsics.json`).
pub fn hex_list(fixture: &str) -> Vec<Vec<u8>> {
    let text = ferroscale_fixtures::read_string(fixture);
    let list: Vec<String> = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{fixture}: not a JSON list of strings: {e}"));
    list.iter()
        .map(|h| ferroscale_fixtures::decode_hex(h).unwrap_or_else(|e| panic!("{fixture}: {e}")))
        .collect()
}

/// A sampled part: its value (as the dynamic layer reads it) and bytes.
type Sampled = (ferroscale_value::Value, Vec<u8>);

mod extrinsics;
mod storage;

pub use extrinsics::{
    check_built_extrinsics, check_built_extrinsics_of, check_real_extrinsics, ExtrinsicCounts,
    TypedExtrinsic, TypedExtrinsicDecoder,
};
pub use storage::{check_real_storage_keys, check_storage_keys, StorageCounts, StorageKeyDispatch};
