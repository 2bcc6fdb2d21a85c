//! Every type the core + legacy + polkadot presets define (at spec 30),
//! decoded from deterministic pseudo-random bytes, against py-scale-codec
//! 1.2.12 (the reference venv): the same value and the same number of bytes
//! consumed, or both fail. Bytes are drawn from {0, 1} so that options,
//! enums and lengths stay mostly valid and the decoders go deep.

mod common;

use common::normalise;
use std::collections::BTreeMap;

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{decode_prefix, ValueSink};
use ferroscale_test_support::Xorshift;
use serde_json::{json, Value as Json};

const PRESETS: [&str; 3] = ["core", "legacy", "polkadot"];
const SPEC: u64 = 30;

const REFERENCE: &str = r#"
req = json.load(sys.stdin)
rc = RuntimeConfigurationObject()
for p in req['presets']:
    rc.update_type_registry(load_type_registry_preset(p))
rc.set_active_spec_version_id(req['spec'])
out = []
for ty, data in req['items']:
    try:
        o = rc.create_scale_object(ty, data=ScaleBytes(bytes.fromhex(data)))
        v = o.decode(check_remaining=False)
        out.append({'ok': [norm(v), o.data.offset]})
    except BaseException as e:
        out.append({'err': type(e).__name__})
json.dump(out, sys.stdout)
"#;

#[test]
fn preset_types_decode_like_py_scale_codec() {
    let mut registry = Registry::with_presets(&PRESETS).unwrap_or_else(|e| panic!("{e}"));
    registry.set_active_spec_version_id(SPEC);
    let mut names: Vec<String> = registry
        .definitions()
        .iter()
        .map(|d| d.name.clone())
        .collect();
    names.sort();
    let mut rng = Xorshift::new(0x1234_5678_9abc_def1);
    let mut items: Vec<(String, Vec<u8>)> = Vec::new();
    for name in &names {
        items.push((name.clone(), vec![0; 4]));
        for len in [40, 200] {
            items.push((name.clone(), (0..len).map(|_| rng.below(2) as u8).collect()));
        }
    }
    let request = json!({
        "presets": PRESETS,
        "spec": SPEC,
        "items": items.iter().map(|(t, b)| json!([t, ferroscale_core::hex::encode_prefixed(b)[2..]])).collect::<Vec<_>>(),
    });
    let out = ferroscale_test_support::reference::run_python(
        &common::reference_script(REFERENCE),
        request.to_string().as_bytes(),
    );
    let answers: Vec<Json> = serde_json::from_str(&out).expect("reference output is JSON");
    assert_eq!(answers.len(), items.len());
    let (mut equal, mut both_fail) = (0, 0);
    let mut differing: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unexpected = Vec::new();
    for ((ty, bytes), want) in items.iter().zip(&answers) {
        let ours = registry.resolve(ty).and_then(|idx| {
            decode_prefix(&registry.context(), idx, bytes, &mut ValueSink)
                .map(|(v, used)| json!([normalise(&v), used]))
        });
        match (&ours, want.get("ok")) {
            (Ok(v), Some(w)) if v == w => equal += 1,
            (Err(_), None) => both_fail += 1,
            _ => {
                *differing.entry(ty.as_str()).or_default() += 1;
                unexpected.push(format!(
                    "{ty} {}: ours {ours:?}, py-scale-codec {want}",
                    ferroscale_core::hex::encode_prefixed(bytes)
                ));
            }
        }
    }
    println!(
        "{} preset types, {} decodes compared: {equal} equal, {both_fail} fail in both, {} differ ({differing:?})",
        names.len(),
        items.len(),
        differing.values().sum::<usize>()
    );
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}
