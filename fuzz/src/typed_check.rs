//! The check the typed fuzz target and the typed smoke fuzz apply to a
//! generated type (included by path from `tests/tests/typed_smoke_fuzz.rs`,
//! so it names no chain).

use std::fmt::Debug;

use ferroscale_runtime_types::decode_all;
use parity_scale_codec::{Decode, Encode};

/// Decodes `payload` as a `T` (all bytes used, nesting capped); if it
/// decodes, its encoding must decode to the same value.
///
/// # Panics
/// When the re-encoded value does not decode, or decodes to something else.
pub fn check<T: Decode + Encode + PartialEq + Debug>(what: &str, payload: &[u8]) {
    if let Ok(value) = decode_all::<T>(payload) {
        let bytes = value.encode();
        match decode_all::<T>(&bytes) {
            Ok(back) => assert!(
                back == value,
                "{what}: re-encoded value decodes differently"
            ),
            Err(e) => panic!("{what}: re-encoded value does not decode: {e}"),
        }
    }
}
