//! Structural hashes on real registries: equal shapes hash equal across
//! runtimes and type ids, changed shapes hash differently, cycles terminate.

use ferroscale_metadata::type_hash::{type_hash, TypeHasher};
use frame_metadata::{RuntimeMetadata, RuntimeMetadataPrefixed};
use parity_scale_codec::Decode;
use scale_info::PortableRegistry;

fn registry(fixture: &str) -> PortableRegistry {
    let bytes = ferroscale_fixtures::read(fixture);
    match RuntimeMetadataPrefixed::decode(&mut &bytes[..]).unwrap().1 {
        RuntimeMetadata::V14(m) => m.types,
        RuntimeMetadata::V15(m) => m.types,
        RuntimeMetadata::V16(m) => m.types,
        _ => panic!("{fixture} has no registry"),
    }
}

fn id_of(types: &PortableRegistry, path: &str) -> u32 {
    types
        .types
        .iter()
        .find(|t| t.ty.path.segments.join("::") == path)
        .unwrap_or_else(|| panic!("{path} not found"))
        .id
}

#[test]
fn every_type_of_every_registry_hashes_and_the_result_is_deterministic() {
    for fixture in [
        "metadata/polkadot-v14-spec9180.scale",
        "metadata/polkadot-v15-spec1001002.scale",
        "metadata/subtensor-v15-spec343.scale",
        "metadata/statemint-v16-spec2000003-small.scale",
    ] {
        let types = registry(fixture);
        let mut shared = TypeHasher::new(&types);
        for t in &types.types {
            let a = shared.hash(t.id).unwrap();
            // A fresh walk (entering any cycle from this type) agrees with the shared one.
            assert_eq!(
                a,
                type_hash(&types, t.id).unwrap(),
                "{fixture} type {}",
                t.id
            );
        }
    }
}

#[test]
fn unchanged_types_hash_equal_across_runtimes_and_changed_ones_differ() {
    let old = registry("metadata/polkadot-v14-spec9180.scale");
    let new = registry("metadata/polkadot-v15-spec1001002.scale");
    // AccountId32 is the same in both runtimes (at different type ids).
    let path = "sp_core::crypto::AccountId32";
    assert_eq!(
        type_hash(&old, id_of(&old, path)).unwrap(),
        type_hash(&new, id_of(&new, path)).unwrap()
    );
    // The runtime call enum gained and lost pallets and calls between 9180 and 1001002.
    assert_ne!(
        type_hash(&old, id_of(&old, "polkadot_runtime::Call")).unwrap(),
        type_hash(&new, id_of(&new, "polkadot_runtime::RuntimeCall")).unwrap()
    );
}

#[test]
fn distinct_types_of_one_registry_mostly_hash_differently() {
    let types = registry("metadata/polkadot-v15-spec1001002.scale");
    let mut hasher = TypeHasher::new(&types);
    let hashes: std::collections::HashSet<u128> = types
        .types
        .iter()
        .map(|t| hasher.hash(t.id).unwrap())
        .collect();
    // Identical shapes may repeat (e.g. two instances of a generic that ignore
    // their parameter), but nearly all types are distinct.
    assert!(
        hashes.len() * 10 > types.types.len() * 9,
        "{} of {}",
        hashes.len(),
        types.types.len()
    );
}

#[test]
fn dangling_ids_are_errors() {
    let types = registry("metadata/polkadot-v15-spec1001002.scale");
    assert!(type_hash(&types, u32::MAX).is_err());
}
