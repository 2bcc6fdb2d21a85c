//! Typed decoding with another runtime's types, on real data: the events of
//! Polkadot block 18,468,942 (spec 1000001) through the types of Polkadot
//! spec 9180 and of Kusama 1001002. The error is one line naming the pallet,
//! the byte and the field path, and says what to check; `Metadata::check`
//! indeed refuses those types for this runtime.

use ferroscale_metadata::Metadata;
use ferroscale_runtime_types::{decode_all, kusama, DecodeErrorKind};
use ferroscale_tests::polkadot_9180;

const HINT: &str = "were these types generated for this runtime? `Metadata::check` tells";

fn events() -> Vec<u8> {
    ferroscale_fixtures::decode_hex(
        ferroscale_fixtures::read_string("payloads/polkadot-block-18468942/events.hex").trim(),
    )
    .expect("hex")
}

fn runtime() -> Metadata {
    Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v14-spec1000001.scale",
    ))
    .expect("metadata loads")
}

#[test]
fn spec_9180_types_name_the_treasury_event_they_lack() {
    // Record 0: Initialization, pallet 19 (Treasury), event 8 (added after 9180).
    let e = decode_all::<polkadot_9180::pallets::system::storage::Events>(&events()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "pallet 19 (Treasury) has no event variant 8 at byte 3 (EventRecord.event); {HINT}"
        )
    );
    assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::UnknownVariant, 3));
    assert!(runtime().check(&polkadot_9180::RUNTIME).is_err());
}

#[test]
fn kusama_types_name_the_pallet_kusama_numbers_otherwise() {
    // Kusama's pallet 19 is Claims, whose events stop before 8.
    let e = decode_all::<kusama::pallets::system::storage::Events>(&events()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("pallet 19 (Claims) has no event variant 8 at byte 3 (EventRecord.event); {HINT}")
    );
    assert!(runtime().check(&kusama::RUNTIME).is_err());
}
