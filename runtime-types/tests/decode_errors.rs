//! Typed decoding errors on real data: the events of Polkadot block
//! 18,468,942 (58 records) through the shipped Polkadot types, with one
//! byte changed or cut short. Each error is one line naming the byte, the
//! field path and, for an unknown variant, the pallet.

use std::error::Error as _;

use ferroscale_runtime_types::{decode_all, polkadot, DecodeErrorKind};

type Events = polkadot::pallets::system::storage::Events;

const HINT: &str = "were these types generated for this runtime? `Metadata::check` tells";

fn events() -> Vec<u8> {
    ferroscale_fixtures::decode_hex(
        ferroscale_fixtures::read_string("payloads/polkadot-block-18468942/events.hex").trim(),
    )
    .expect("hex")
}

#[test]
fn the_block_decodes_as_it_is() {
    let events: Events = decode_all(&events()).expect("decodes");
    assert_eq!(events.len(), 58);
    // Record 0: phase Initialization (byte 1), pallet 19 (byte 2), event 8 (byte 3).
    assert_eq!(events[0].event.pallet_name(), "Treasury");
}

#[test]
fn an_unknown_event_names_the_pallet_and_its_byte() {
    let mut bytes = events();
    assert_eq!(bytes[2..4], [19, 8]);
    bytes[3] = 0x7f;
    let e = decode_all::<Events>(&bytes).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "pallet 19 (Treasury) has no event variant 127 at byte 3 (EventRecord.event); {HINT}"
        )
    );
    assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::UnknownVariant, 3));
    assert!(!e.to_string().contains('\n'));
    let source = e.source().expect("the codec's error").to_string();
    assert!(source.starts_with("Event has no variant 127"), "{source}");
}

#[test]
fn an_unknown_pallet_is_named_so() {
    let mut bytes = events();
    bytes[2] = 0xfe;
    let e = decode_all::<Events>(&bytes).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("RuntimeEvent has no pallet with index 254 at byte 2 (EventRecord.event); {HINT}")
    );
}

#[test]
fn a_cut_input_names_where_it_ran_out() {
    let bytes = events();
    // The last record's topics (an empty list: one byte) are cut off.
    let cut = &bytes[..bytes.len() - 1];
    let e = decode_all::<Events>(cut).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("input ran out at byte 23704, reading 1 byte from byte 23704 (EventRecord.topics); {HINT}")
    );
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::InputEnded, cut.len())
    );
    // Cut inside a phase's extrinsic index (a u32 from byte 38).
    let e = decode_all::<Events>(&bytes[..40]).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "input ran out at byte 40, reading 4 bytes from byte 38 \
             (EventRecord.phase > Phase::ApplyExtrinsic.0); {HINT}"
        )
    );
}

#[test]
fn bytes_after_the_value_are_counted() {
    let mut longer = events();
    longer.push(0);
    let e = decode_all::<Events>(&longer).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("1 byte left over at byte 23705; {HINT}")
    );
    assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::BytesLeft, 23705));
}
