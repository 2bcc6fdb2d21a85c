//! Real-data round-trips for every V14+ metadata fixture that is not a
//! shipped chain of `ferroscale-runtime-types`.
//!
//! Each chain is expanded at compile time by
//! `#[ferroscale_macros::runtime(fixture = "metadata/…")]` in a test target of
//! its own (`tests/<chain>.rs`): nothing generated is committed, nothing has to
//! be regenerated when codegen changes, and the chains compile in parallel.
//! A missing fixture is a compile error naming the file.
//!
//! This library is the checker the tests share: [`check_chain`] decodes every
//! constant value, every storage default and every custom value of a fixture
//! with the generated types, re-encodes it, compares the bytes, and compares
//! how many it checked with what an independent decoder (`frame-metadata`)
//! counts in the same blob. [`check_payloads`] compares every typed runtime
//! API call and view function query with the dynamic layer's.
//! [`check_built_extrinsics`], [`check_real_extrinsics`] and
//! [`check_storage_keys`] hold extrinsics (formats 4 and 5) and storage keys
//! of the typed and dynamic layers against Parity's `frame-decode`.

#![forbid(unsafe_code)]

mod frame_decode_diff;
mod payloads;

pub use frame_decode_diff::{
    check_built_extrinsics, check_built_extrinsics_of, check_real_extrinsics,
    check_real_storage_keys, check_storage_keys, hex_list, ExtrinsicCounts, StorageCounts,
    StorageKeyDispatch, TypedExtrinsic, TypedExtrinsicDecoder,
};
pub use payloads::{check_payloads, PayloadCounts, PayloadDispatch};

use frame_metadata::{RuntimeMetadata, RuntimeMetadataPrefixed};
use parity_scale_codec::Decode;

/// The frame-decode checks of a chain test target whose generated module is
/// `chain` (`roundtrip = true`): every call built in every form the runtime
/// lists (each form named in `forms` must be among them), typed = dynamic =
/// frame-decode, and a full key of every storage map (dynamic and typed). Defines
/// `typed_extrinsic`, the target's decoding into [`TypedExtrinsic`].
#[macro_export]
macro_rules! frame_decode_checks {
    ($fixture:literal, forms = [$($form:literal),* $(,)?]) => {
        fn typed_extrinsic(bytes: &[u8]) -> Result<$crate::TypedExtrinsic, String> {
            let x: chain::UncheckedExtrinsic =
                ::ferroscale_runtime_types::decode_all(bytes).map_err(|e| e.to_string())?;
            Ok($crate::TypedExtrinsic::of(&x))
        }

        /// Every call in every form, typed = dynamic = frame-decode part by part.
        #[test]
        fn extrinsics_agree_with_frame_decode() {
            let counts =
                $crate::check_built_extrinsics($fixture, chain::roundtrip_type, typed_extrinsic);
            for form in [$($form),*] {
                assert!(
                    counts.by_form.iter().any(|(f, n)| f == form && *n > 0),
                    "{form} not checked: {counts:?}"
                );
            }
        }

        /// A full key of every storage map, by name, = frame-decode part by part.
        #[test]
        fn storage_keys_agree_with_frame_decode() {
            $crate::check_storage_keys($fixture, chain::roundtrip_type, chain::storage_key_roundtrip);
        }
    };
}

/// A generated chain's `roundtrip_type(type_id, bytes)`: decode `bytes` as
/// registry type `type_id`, encode again; `None` when the id has no type.
pub type Roundtrip = fn(u32, &[u8]) -> Option<Result<Vec<u8>, parity_scale_codec::Error>>;

/// What [`check_chain`] verified in one fixture.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Constants whose value bytes round-tripped.
    pub constants: usize,
    /// Storage entries (`ValueQuery`/default modifier) whose default bytes round-tripped.
    pub defaults: usize,
    /// `OptionQuery` storage entries, whose default is an encoded `None` (`0x00`).
    pub optional_defaults: usize,
    /// Custom values (V15+) whose bytes round-tripped.
    pub custom_values: usize,
    /// Custom values whose type id is not in the registry (nothing can decode them).
    pub dangling_custom_values: usize,
}

impl Counts {
    /// Storage entries checked, of both kinds.
    pub fn storage_entries(&self) -> usize {
        self.defaults + self.optional_defaults
    }
}

/// What the metadata holds, counted by `frame-metadata` (not by the loader
/// the checker reads the values with).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    /// Constants over all pallets.
    pub constants: usize,
    /// Storage entries over all pallets.
    pub storage_entries: usize,
    /// Custom values (V15+).
    pub custom_values: usize,
}

/// Counts the constants, storage entries and custom values of a V14+ blob
/// with `frame-metadata`.
pub fn expected_counts(bytes: &[u8]) -> Result<Expected, String> {
    let prefixed = RuntimeMetadataPrefixed::decode(&mut &bytes[..])
        .map_err(|e| format!("frame-metadata cannot decode the blob: {e}"))?;
    // The three versions share the shape of what is counted, not the types.
    macro_rules! count {
        ($m:expr, $custom:expr) => {
            Expected {
                constants: $m.pallets.iter().map(|p| p.constants.len()).sum(),
                storage_entries: $m
                    .pallets
                    .iter()
                    .filter_map(|p| p.storage.as_ref())
                    .map(|s| s.entries.len())
                    .sum(),
                custom_values: $custom,
            }
        };
    }
    Ok(match prefixed.1 {
        RuntimeMetadata::V14(m) => count!(m, 0),
        RuntimeMetadata::V15(m) => count!(m, m.custom.map.len()),
        RuntimeMetadata::V16(m) => count!(m, m.custom.map.len()),
        other => {
            return Err(format!(
                "metadata V{} has no type registry",
                other.version()
            ))
        }
    })
}

/// Round-trips every constant value, storage default and custom value of the
/// metadata fixture `fixture` (e.g. `"metadata/karura-v14-spec2032.scale"`)
/// through `roundtrip`, the `roundtrip_type` of the module generated from that
/// same fixture. Panics, naming the fixture and every failing item, when a
/// value does not decode, does not re-encode to its bytes, has no generated
/// type, or when the numbers checked differ from what the metadata holds.
pub fn check_chain(fixture: &str, roundtrip: Roundtrip) -> Counts {
    let bytes = ferroscale_fixtures::read(fixture);
    let metadata = ferroscale_metadata::Metadata::load(&bytes)
        .unwrap_or_else(|e| panic!("{fixture}: metadata does not load: {e}"));
    let registry = metadata
        .types
        .as_ref()
        .unwrap_or_else(|| panic!("{fixture}: metadata V{} has no registry", metadata.version));
    let mut failures: Vec<String> = Vec::new();
    let mut counts = Counts::default();
    let mut check = |what: String, ty: u32, value: &[u8]| match roundtrip(ty, value) {
        Some(Ok(again)) if again == value => true,
        Some(Ok(again)) => {
            failures.push(format!(
                "{what} (type {ty}): re-encoded {} != {}",
                hex(&again),
                hex(value)
            ));
            false
        }
        Some(Err(e)) => {
            failures.push(format!("{what} (type {ty}) {}: {e}", hex(value)));
            false
        }
        None => {
            failures.push(format!("{what}: type {ty} has no generated type"));
            false
        }
    };
    let mut optional_failures = Vec::new();
    for pallet in &metadata.pallets {
        for c in &pallet.constants {
            let what = format!("constant {}.{}", pallet.name, c.name);
            let ty = type_id(&c.ty, &what, fixture);
            counts.constants += usize::from(check(what, ty, &c.value));
        }
        for e in pallet.storage_entries() {
            let what = format!("storage default {}.{}", pallet.name, e.name);
            if e.modifier == ferroscale_metadata::StorageModifier::Optional {
                // An `OptionQuery` entry's default is `None` of `Option<value>`,
                // which is the single byte 0 whatever the value type.
                if e.default == [0] {
                    counts.optional_defaults += 1;
                } else {
                    optional_failures.push(format!(
                        "{what}: optional default is {}, not None (0x00)",
                        hex(&e.default)
                    ));
                }
            } else {
                let ty = type_id(&e.value, &what, fixture);
                counts.defaults += usize::from(check(what, ty, &e.default));
            }
        }
    }
    for (name, custom) in &metadata.custom {
        if registry.resolve(custom.ty).is_none() {
            // Runtimes do not enforce custom values' ids; such a value is opaque.
            counts.dangling_custom_values += 1;
            continue;
        }
        let what = format!("custom value {name:?}");
        counts.custom_values += usize::from(check(what, custom.ty, &custom.value));
    }
    failures.extend(optional_failures);
    let expected = expected_counts(&bytes).unwrap_or_else(|e| panic!("{fixture}: {e}"));
    assert!(
        failures.is_empty(),
        "{fixture}: {} value(s) failed to round-trip with the generated types:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        (
            counts.constants,
            counts.storage_entries(),
            counts.custom_values + counts.dangling_custom_values
        ),
        (
            expected.constants,
            expected.storage_entries,
            expected.custom_values
        ),
        "{fixture}: (constants, storage entries, custom values) checked differ from what \
         frame-metadata counts in the blob"
    );
    assert!(
        counts.constants + counts.defaults + counts.custom_values > 0,
        "{fixture}: nothing was decoded, the check proves nothing"
    );
    eprintln!(
        "{fixture}: {} constants, {} storage defaults (+{} OptionQuery None), {} custom values \
         ({} with a type id outside the registry) round-trip",
        counts.constants,
        counts.defaults,
        counts.optional_defaults,
        counts.custom_values,
        counts.dangling_custom_values
    );
    counts
}

/// The registry id of a V14+ type reference; panics for a legacy name.
fn type_id(ty: &ferroscale_metadata::TypeRef, what: &str, fixture: &str) -> u32 {
    ty.id()
        .unwrap_or_else(|| panic!("{fixture}: {what} names type `{ty}` instead of a registry id"))
}

/// Hex of the first bytes of a value, for failure messages (values can be large).
fn hex(bytes: &[u8]) -> String {
    const SHOWN: usize = 64;
    let mut out = String::from("0x");
    ferroscale_core::hex::push_hex(&mut out, &bytes[..bytes.len().min(SHOWN)]);
    if bytes.len() > SHOWN {
        out.push('…');
    }
    format!("{out} ({} bytes)", bytes.len())
}

#[cfg(test)]
mod tests {
    //! The checker itself, with stand-in round-trip functions: it must count
    //! from the metadata and fail on every kind of mismatch.

    use super::*;

    const FIXTURE: &str = "metadata/frontier-template-v15-small.scale";

    fn echo(_: u32, bytes: &[u8]) -> Option<Result<Vec<u8>, parity_scale_codec::Error>> {
        Some(Ok(bytes.to_vec()))
    }

    fn no_type(_: u32, _: &[u8]) -> Option<Result<Vec<u8>, parity_scale_codec::Error>> {
        None
    }

    fn drops_last_byte(_: u32, bytes: &[u8]) -> Option<Result<Vec<u8>, parity_scale_codec::Error>> {
        Some(Ok(bytes[..bytes.len().saturating_sub(1)].to_vec()))
    }

    fn refuses(_: u32, _: &[u8]) -> Option<Result<Vec<u8>, parity_scale_codec::Error>> {
        Some(Err("stand-in decode error".into()))
    }

    #[test]
    fn counts_come_from_the_metadata() {
        let counts = check_chain(FIXTURE, echo);
        let expected = expected_counts(&ferroscale_fixtures::read(FIXTURE)).unwrap();
        assert_eq!(counts.constants, expected.constants);
        assert_eq!(counts.storage_entries(), expected.storage_entries);
        assert!(counts.constants > 0 && counts.defaults > 0);
    }

    #[test]
    #[should_panic(expected = "has no generated type")]
    fn a_missing_type_fails() {
        check_chain(FIXTURE, no_type);
    }

    #[test]
    #[should_panic(expected = "re-encoded")]
    fn different_bytes_fail() {
        check_chain(FIXTURE, drops_last_byte);
    }

    #[test]
    #[should_panic(expected = "stand-in decode error")]
    fn a_decode_error_fails() {
        check_chain(FIXTURE, refuses);
    }

    #[test]
    fn legacy_metadata_has_nothing_to_count() {
        let v13 = ferroscale_fixtures::read("metadata/substrate-node-v13-spec265.scale");
        assert!(expected_counts(&v13).unwrap_err().contains("V13"));
    }
}
