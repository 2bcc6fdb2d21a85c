//! Legacy runtime (V12 metadata, spec 30): every extrinsic of Polkadot block
//! 5,000,000 decodes with the core + legacy + polkadot presets, and the
//! Staking.Validators storage values decode with the type the metadata
//! names; both compared value for value with py-scale-codec 1.2.12 (the
//! reference venv, see `ferroscale_test_support::reference`).

mod common;

use common::normalise;
use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::Metadata;
use ferroscale_value::Value;
use serde_json::{json, Value as Json};

const METADATA: &str = "metadata/polkadot-v12-spec30.scale";
const EXTRINSICS: &str = "payloads/polkadot-block-5000000/extrinsics.json";
const VALIDATORS: &str = "payloads/polkadot-block-5000000/storage_staking_validators.json";
const PRESETS: [&str; 3] = ["core", "legacy", "polkadot"];
const SPEC: u64 = 30;

/// Decodes `[type, hex]` items with py-scale-codec under the same presets,
/// spec and metadata; values normalised like `common::normalise`.
const REFERENCE: &str = r#"
req = json.load(sys.stdin)
rc = RuntimeConfigurationObject()
for p in req['presets']:
    rc.update_type_registry(load_type_registry_preset(p))
rc.set_active_spec_version_id(req['spec'])
md = rc.create_scale_object('MetadataVersioned', data=ScaleBytes(bytes.fromhex(req['metadata'])))
md.decode()
out = []
for ty, data in req['items']:
    try:
        o = rc.create_scale_object(ty, data=ScaleBytes(bytes.fromhex(data)), metadata=md)
        out.append({'ok': norm(o.decode())})
    except Exception as e:
        out.append({'err': type(e).__name__ + ': ' + str(e)})
json.dump(out, sys.stdout)
"#;

fn registry() -> Registry {
    let mut registry = Registry::with_presets(&PRESETS).unwrap_or_else(|e| panic!("{e}"));
    registry.set_active_spec_version_id(SPEC);
    registry
        .load_metadata(&ferroscale_fixtures::read(METADATA))
        .unwrap_or_else(|e| panic!("{e}"));
    registry
}

fn extrinsics() -> Vec<String> {
    serde_json::from_str(&ferroscale_fixtures::read_string(EXTRINSICS)).unwrap()
}

fn validators() -> Vec<(String, String)> {
    serde_json::from_str(&ferroscale_fixtures::read_string(VALIDATORS)).unwrap()
}

fn bytes(hex: &str) -> Vec<u8> {
    ferroscale_fixtures::decode_hex(hex).unwrap()
}

/// The value type of Staking.Validators, as the V12 metadata names it.
fn validators_type() -> String {
    let md = Metadata::load(&ferroscale_fixtures::read(METADATA)).unwrap();
    let entry = md
        .pallet("Staking")
        .and_then(|p| p.storage_entry("Validators"))
        .expect("Staking.Validators");
    entry
        .value
        .name()
        .expect("a legacy type string")
        .to_string()
}

/// The reference's answers for `[type, hex]` items.
fn reference(items: &[(String, String)]) -> Vec<Json> {
    let request = json!({
        "presets": PRESETS,
        "spec": SPEC,
        "metadata": ferroscale_core::hex::encode_prefixed(&ferroscale_fixtures::read(METADATA))[2..],
        "items": items.iter().map(|(t, h)| json!([t, h.trim_start_matches("0x")])).collect::<Vec<_>>(),
    });
    let out = ferroscale_test_support::reference::run_python(
        &common::reference_script(REFERENCE),
        request.to_string().as_bytes(),
    );
    serde_json::from_str(&out).expect("reference output is JSON")
}

#[test]
fn every_extrinsic_of_block_5000000_decodes() {
    let mut registry = registry();
    let list = extrinsics();
    assert!(
        list.len() >= 5,
        "block 5,000,000 has {} extrinsics",
        list.len()
    );
    let mut signed = 0;
    for (i, hex) in list.iter().enumerate() {
        let value = registry
            .decode("Extrinsic", &bytes(hex))
            .unwrap_or_else(|e| panic!("extrinsic {i}: {e}"));
        let call = value.get("call").expect("call");
        assert!(call.get("call_module").and_then(Value::as_str).is_some());
        if value.get("signature").is_some() {
            signed += 1;
        }
    }
    // The timestamp inherent first, then signed transfers.
    assert_eq!(
        registry
            .decode("Extrinsic", &bytes(&list[0]))
            .unwrap()
            .get("call")
            .unwrap()
            .get("call_function"),
        Some(&Value::str("set"))
    );
    assert_eq!(signed, list.len() - 1);
    println!("{} extrinsics decoded ({signed} signed)", list.len());
}

#[test]
fn staking_validators_decode_with_the_metadata_type() {
    let ty = validators_type();
    assert_eq!(ty, "ValidatorPrefs");
    let mut registry = registry();
    let pairs = validators();
    assert!(!pairs.is_empty());
    for (key, value) in &pairs {
        let v = registry
            .decode(&ty, &bytes(value))
            .unwrap_or_else(|e| panic!("value of {key}: {e}"));
        // Spec 30 has ValidatorPrefsWithBlocked: a Perbill commission and a flag.
        let commission = v
            .get("commission")
            .and_then(Value::as_u128)
            .expect("commission");
        assert!(commission <= 1_000_000_000, "Perbill {commission}");
        assert!(matches!(v.get("blocked"), Some(Value::Bool(_))), "{v}");
    }
    println!("{} Staking.Validators values decoded as {ty}", pairs.len());
}

#[test]
fn values_equal_py_scale_codec() {
    let mut registry = registry();
    let mut items: Vec<(String, String)> = extrinsics()
        .into_iter()
        .map(|h| ("Extrinsic".to_string(), h))
        .collect();
    let ty = validators_type();
    items.extend(validators().into_iter().map(|(_, v)| (ty.clone(), v)));
    let expected = reference(&items);
    assert_eq!(expected.len(), items.len());
    let mut equal = 0;
    for ((t, hex), want) in items.iter().zip(&expected) {
        let ours = registry.decode(t, &bytes(hex));
        match (ours, want.get("ok")) {
            (Ok(v), Some(want)) => {
                assert_eq!(&normalise(&v), want, "{t} {hex}");
                equal += 1;
            }
            (ours, _) => panic!("{t} {hex}: ours {ours:?}, py-scale-codec {want}"),
        }
    }
    println!(
        "{equal} of {} values equal to py-scale-codec's",
        items.len()
    );
}
