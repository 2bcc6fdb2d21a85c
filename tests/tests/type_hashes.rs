//! The structural hashes the generated code carries match the hashes
//! computed from the metadata, and tell when a type changed between runtimes.

use ferroscale_metadata::type_hash::TypeHasher;
use ferroscale_runtime_types::{polkadot, TypeHash};
use ferroscale_tests::polkadot_9180;

fn hashes_of(fixture: &str) -> (scale_info::PortableRegistry, Vec<u128>) {
    let input = ferroscale_codegen::input::load(&ferroscale_fixtures::read(fixture)).unwrap();
    let mut hasher = TypeHasher::new(&input.types);
    let hashes = (0..input.types.types.len() as u32)
        .map(|id| hasher.hash(id).unwrap())
        .collect();
    (input.types, hashes)
}

fn id_of(types: &scale_info::PortableRegistry, path: &str) -> u32 {
    types
        .types
        .iter()
        .find(|t| t.ty.path.segments.join("::") == path)
        .unwrap()
        .id
}

#[test]
fn generated_tables_equal_hashes_computed_from_the_metadata() {
    for (fixture, table) in [
        (
            "metadata/polkadot-v15-spec1001002.scale",
            polkadot::TYPE_HASHES,
        ),
        (
            "metadata/polkadot-v14-spec9180.scale",
            polkadot_9180::TYPE_HASHES,
        ),
    ] {
        let (_, hashes) = hashes_of(fixture);
        assert!(
            table.len() + 10 > hashes.len(),
            "{fixture}: table too short"
        );
        for &(id, h) in table {
            assert_eq!(hashes[id as usize], h, "{fixture} type {id}");
        }
    }
}

#[test]
fn type_hash_constants_tell_unchanged_from_changed_types() {
    let (old_types, old) = hashes_of("metadata/polkadot-v14-spec9180.scale");
    let perbill = id_of(&old_types, "sp_arithmetic::per_things::Perbill");
    // Perbill did not change between spec 9180 and 1001002: the newer
    // generated type fits the older runtime's type.
    assert_eq!(
        <polkadot::runtime_types::sp_arithmetic::per_things::Perbill as TypeHash>::TYPE_HASH,
        old[perbill as usize]
    );
    // The call enum did change.
    let call = id_of(&old_types, "polkadot_runtime::Call");
    let new_call = polkadot::TYPE_HASHES
        .iter()
        .find(|(_, h)| *h == old[call as usize]);
    assert!(
        new_call.is_none(),
        "spec 9180's Call matched a 1001002 type"
    );
}
