//! A registry switched between two Polkadot runtimes (specs 9180 and
//! 1000001) again and again, as a client's `init_runtime` does (registry
//! cleared, presets, the runtime's metadata): each metadata model's types
//! enter the graph once, and the events of block 18,468,942 decode after
//! every switch to their runtime as with a fresh registry.

use std::sync::Arc;

use ferroscale_dynamic::preset::Preset;
use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::Metadata;

fn model(name: &str) -> Arc<Metadata> {
    Arc::new(Metadata::load(&ferroscale_fixtures::read(name)).expect("metadata"))
}

#[test]
fn switching_runtimes_imports_each_metadata_model_once() {
    let new = model("metadata/polkadot-v14-spec1000001.scale");
    let old = model("metadata/polkadot-v14-spec9180.scale");
    let events = ferroscale_fixtures::decode_hex(
        ferroscale_fixtures::read_string("payloads/polkadot-block-18468942/events.hex").trim(),
    )
    .expect("hex");
    let mut fresh = Registry::with_presets(&["core"]).expect("presets");
    fresh.load_metadata_shared(Arc::clone(&new)).expect("load");
    let expected = fresh.decode("Vec<EventRecord>", &events).expect("events");

    let core = Preset::named("core").expect("core preset");
    let mut registry = Registry::new();
    let mut added = Vec::new();
    for i in 0..6 {
        registry.clear();
        registry.update(&core);
        let before = registry.graph().len();
        let md = if i % 2 == 0 { &new } else { &old };
        registry.load_metadata_shared(Arc::clone(md)).expect("load");
        added.push(registry.graph().len() - before);
        if i % 2 == 0 {
            let value = registry
                .decode("Vec<EventRecord>", &events)
                .expect("events");
            assert_eq!(value, expected, "switch {i}");
        }
    }
    // the first load of each model imports its registry (hundreds of
    // nodes); loading it again adds none
    assert!(added[0] > 500 && added[1] > 500, "{added:?}");
    assert_eq!(added[2..], [0, 0, 0, 0], "{added:?}");
}
