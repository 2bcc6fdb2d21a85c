//! Errors a user can act on: a decoding error names the type by its shape
//! and registry id, its position in the value, and the byte offset, in one
//! line (real Polkadot block 18,468,942 and its spec-1000001 metadata).

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::Error;
use ferroscale_metadata::Metadata;

fn setup() -> (Metadata, Registry, Vec<Vec<u8>>) {
    let md = Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v14-spec1000001.scale",
    ))
    .unwrap();
    let registry = Registry::from_metadata(&md).unwrap();
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-18468942/extrinsics.json",
    ))
    .unwrap();
    let xts = list
        .iter()
        .map(|h| ferroscale_fixtures::decode_hex(h).unwrap())
        .collect();
    (md, registry, xts)
}

/// The registry id of the type of `pallet.call`'s argument `arg`.
fn arg_type(md: &Metadata, pallet: &str, call: &str, arg: &str) -> u32 {
    let p = md.pallet(pallet).unwrap();
    let v = p.calls().iter().find(|v| v.name == call).unwrap();
    let f = v
        .fields
        .iter()
        .find(|f| f.name.as_deref() == Some(arg))
        .unwrap();
    f.ty.id().unwrap()
}

#[test]
fn a_truncated_timestamp_names_compact_u64_at_timestamp_set_now() {
    let (md, mut registry, xts) = setup();
    // Extrinsic 0: length (1 byte), version 0x04, then the call
    // Timestamp.set { now: Compact<u64> }; drop the call's last byte.
    let xt = &xts[0];
    let call = &xt[2..xt.len() - 1];
    let id = arg_type(&md, "Timestamp", "set", "now");
    let err = registry.decode("Call", call).unwrap_err();
    // The compact's mode byte (at 2) asks for 6 more bytes; 5 are left.
    assert_eq!(
        err,
        Error::NotEnoughBytes {
            ty: "Compact<u64>".into(),
            type_id: Some(id),
            path: "Timestamp.set.now".into(),
            offset: 3,
            needed: 6,
            available: 5,
        }
    );
    assert_eq!(
        err.to_string(),
        format!(
            "decoding Compact<u64> (type {id}) at Timestamp.set.now, byte 3: needed 6 bytes, only 5 left"
        )
    );
}

#[test]
fn built_in_classes_are_named_as_people_know_them() {
    let (_, mut registry, xts) = setup();
    let xt = &xts[0];
    let err = registry
        .decode("Extrinsic", &xt[..xt.len() - 1])
        .unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with("decoding Extrinsic at byte 0: needed"),
        "{message}"
    );
    assert!(!message.to_lowercase().contains("genericextrinsic"));
}

#[test]
fn a_bad_address_in_a_signed_extrinsic_names_the_address() {
    let (_, mut registry, xts) = setup();
    // Extrinsic 2: a signed Balances.transfer_keep_alive; its length takes
    // two bytes, then the version byte, then the MultiAddress variant byte.
    let mut xt = xts[2].clone();
    assert_eq!(xt[2], 0x84, "signed, version 4");
    xt[3] = 9; // MultiAddress has five variants
    let err = registry.decode("Extrinsic", &xt).unwrap_err();
    let Error::Invalid {
        path, offset, ty, ..
    } = &err
    else {
        panic!("expected Invalid, got {err:?}")
    };
    assert_eq!((path.as_str(), *offset), ("address", 3), "{err}");
    assert!(ty.contains("MultiAddress"), "{err}");
    assert!(!err.to_string().contains('\n'));
}

#[test]
fn a_bad_element_of_a_list_names_its_position() {
    let (md, mut registry, _) = setup();
    let events = ferroscale_fixtures::decode_hex(
        ferroscale_fixtures::read_string("payloads/polkadot-block-18468942/events.hex").trim(),
    )
    .unwrap();
    // Cut the list inside its last record.
    let err = registry
        .decode("Vec<EventRecord>", &events[..events.len() - 1])
        .unwrap_err();
    let message = err.to_string();
    let count = events[0] as usize >> 2;
    assert!(
        message.contains(&format!("[{}]", count - 1)),
        "the last record is named: {message}"
    );
    let _ = md;
}
