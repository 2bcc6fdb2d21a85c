//! V9–V11 metadata counts calls over the modules that have calls and events
//! over the modules that have events, so one pallet byte names one module
//! in a call and another in an event. Each kind is looked up under its own
//! byte: in every V9–V11 fixture, every module's calls and events are found
//! under the bytes the metadata gives them, and on Kusama 1038 an event of
//! byte 2 is `Balances`' (whose calls are byte 4), not `Timestamp`'s (whose
//! calls are byte 2), decoding and encoding back.

use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::Metadata;
use ferroscale_value::Value;

const FIXTURES: [(&str, &str, u64); 5] = [
    ("metadata/kusama-v9-spec1021.scale", "kusama", 1021),
    ("metadata/kusama-v10-spec1038.scale", "kusama", 1038),
    ("metadata/kusama-v11-spec1045.scale", "kusama", 1045),
    ("metadata/substrate-node-v9.scale", "legacy", 0),
    ("metadata/substrate-node-v11.scale", "legacy", 0),
];

fn registry(file: &str, chain: &str, spec: u64) -> Registry {
    let mut registry =
        Registry::with_presets(&["core", "legacy", chain]).unwrap_or_else(|e| panic!("{e}"));
    if spec > 0 {
        registry.set_active_spec_version_id(spec);
    }
    registry
        .load_metadata(&ferroscale_fixtures::read(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    registry
}

#[test]
fn calls_and_events_are_found_under_their_own_bytes() {
    for (file, chain, spec) in FIXTURES {
        let md = Metadata::load(&ferroscale_fixtures::read(file)).unwrap();
        let registry = registry(file, chain, spec);
        let runtime = registry.runtime().expect("a runtime");
        let mut differ = 0;
        for p in &md.pallets {
            // Each enum the metadata gives: its pallet found under its byte,
            // with all its items.
            let calls = p.call_enum.as_ref().map(|e| {
                let found = runtime.pallet_by_index(e.pallet_index);
                (e, "call", found.map(|f| (&f.name, f.calls.len())))
            });
            let events = p.event_enum.as_ref().map(|e| {
                let found = runtime.pallet_by_event_index(e.pallet_index);
                (e, "event", found.map(|f| (&f.name, f.events.len())))
            });
            for (e, kind, found) in calls.into_iter().chain(events) {
                let at = format!("{file}: {kind} byte {}", e.pallet_index);
                let (name, items) = found.unwrap_or_else(|| panic!("{at}: no pallet"));
                assert_eq!(
                    (&**name, items),
                    (p.name.as_str(), e.variants.len()),
                    "{at}"
                );
            }
            if let Some(events) = &p.event_enum {
                let call_module = runtime.pallet_by_index(events.pallet_index);
                differ += usize::from(call_module.is_some_and(|c| *c.name != *p.name));
            }
        }
        // The case this test is about occurs in each fixture.
        assert!(differ > 0, "{file}: no byte names two modules");
    }
}

#[test]
fn an_event_takes_the_module_of_its_event_byte() {
    let mut registry = registry("metadata/kusama-v10-spec1038.scale", "kusama", 1038);
    // One record: ApplyExtrinsic(1), event 0x0200 (Balances.NewAccount:
    // an account and a balance), no topics.
    let mut bytes = vec![4, 0, 1, 0, 0, 0, 2, 0];
    bytes.extend([0x11; 32]);
    bytes.extend(1000u128.to_le_bytes());
    bytes.push(0);
    let ty = "Vec<EventRecord<Event, Hash>>";
    let value = registry.decode(ty, &bytes).unwrap();
    let Value::List(records) = &value else {
        panic!("{value:?}")
    };
    let event = records[0].get("event").unwrap();
    assert_eq!(
        event.get("module_id").and_then(Value::as_str),
        Some("Balances")
    );
    assert_eq!(
        event.get("event_id").and_then(Value::as_str),
        Some("NewAccount")
    );
    assert_eq!(registry.encode(ty, &value).unwrap(), bytes);
    // Byte 2 of a call is still Timestamp's.
    let call = registry.decode("Call", &[2, 0, 0x04]).unwrap();
    assert_eq!(
        call.get("call_module").and_then(Value::as_str),
        Some("Timestamp")
    );
}
