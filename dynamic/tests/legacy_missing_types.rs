//! Legacy (V9–V13) metadata over presets that lack some argument types: the
//! runtime loads, the calls whose types are known encode and decode, and
//! only a call or event that carries a missing type fails, naming the type
//! and the argument (py-scale-codec resolves an argument's type when it is
//! used, so its programs work the same way).

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::CallArgs;
use ferroscale_value::Value;

/// Kusama spec 9030 over `core` and `kusama` only: `Perbill`
/// (`System.fill_block`'s argument) is in neither.
fn kusama_without_legacy() -> Registry {
    let mut registry = Registry::with_presets(&["core", "kusama"]).unwrap();
    registry.set_active_spec_version_id(9030);
    let bytes = ferroscale_fixtures::read("metadata/kusama-v13-spec9030.scale");
    registry.load_metadata(&bytes).unwrap();
    registry
}

#[test]
fn a_call_with_known_types_encodes_beside_one_with_a_missing_type() {
    let registry = kusama_without_legacy();
    let args = Value::Dict(vec![
        (
            "dest".into(),
            Value::str("HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F"),
        ),
        ("value".into(), Value::UInt(10_000_000_000)),
    ]);
    let call = registry
        .encode_call("Balances", "transfer_keep_alive", CallArgs::ByName(&args))
        .unwrap();
    // py-scale-codec 1.2.12 gives these bytes for the same program.
    assert_eq!(
        ferroscale_core::hex::encode_prefixed(&call),
        "0x040300d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d0700e40b5402"
    );

    let ratio = Value::Dict(vec![("_ratio".into(), Value::UInt(5))]);
    let err = registry
        .encode_call("System", "fill_block", CallArgs::ByName(&ratio))
        .unwrap_err()
        .to_string();
    for needle in ["Perbill", "fill_block", "_ratio"] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
}

#[test]
fn decoding_the_call_with_the_missing_type_names_it() {
    let mut registry = kusama_without_legacy();
    // System.fill_block (pallet 0, call 0) with a Perbill of 5.
    let err = registry
        .decode("Call", &[0, 0, 5, 0, 0, 0])
        .unwrap_err()
        .to_string();
    assert!(err.contains("Perbill"), "{err}");
}
