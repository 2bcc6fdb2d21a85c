//! `MetadataVersioned` as a type string: every metadata fixture (V9–V16)
//! decodes completely, in py-scale-codec's shape, whatever presets the
//! registry holds, and re-encodes to the same bytes; for V9–V14 the value
//! equals py-scale-codec 1.2.12's (reference venv, `FERROSCALE_REF_PYTHON`).

mod common;

use common::normalise;
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::Error;
use ferroscale_value::Value;

/// Every metadata fixture: (name, bytes).
fn fixtures() -> Vec<(String, Vec<u8>)> {
    ferroscale_fixtures::entries_under("metadata")
        .iter()
        .map(|e| (e.name.to_string(), ferroscale_fixtures::read(e.name)))
        .collect()
}

/// The version variant of a decoded value: ("V<n>", the metadata struct).
fn versioned(v: &Value) -> (&str, &Value) {
    let Some([magic, Value::Dict(entries)]) = v.as_items() else {
        panic!("not (magic, {{version: metadata}}): {v}")
    };
    assert_eq!(magic.as_str(), Some("0x6d657461"));
    assert_eq!(entries.len(), 1);
    (&entries[0].0, &entries[0].1)
}

#[test]
fn every_metadata_fixture_decodes_and_roundtrips() {
    let mut plain = Registry::new();
    let mut with_presets = Registry::with_presets(&["core", "legacy", "polkadot"]).unwrap();
    let mut versions = std::collections::BTreeMap::new();
    for (name, bytes) in fixtures() {
        let v = plain
            .decode("MetadataVersioned", &bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let (variant, md) = versioned(&v);
        assert_eq!(variant, format!("V{}", bytes[4]), "{name}");
        let list = if bytes[4] >= 14 { "pallets" } else { "modules" };
        let pallets = md.get(list).and_then(Value::as_items).expect(list);
        if name.contains("custom-values") {
            // A synthetic metadata of custom values only.
            let custom = md.get("custom").and_then(Value::as_items);
            assert!(custom.is_some_and(|c| !c.is_empty()), "{name}: {md}");
        } else {
            assert!(!pallets.is_empty(), "{name}: no {list}");
            assert!(pallets[0].get("name").and_then(Value::as_str).is_some());
        }
        if bytes[4] >= 14 {
            let types = md.get("types").and_then(|t| t.get("types"));
            assert!(types
                .and_then(Value::as_items)
                .is_some_and(|t| !t.is_empty()));
        }
        // The presets of the registry do not change the value.
        assert_eq!(
            with_presets.decode("MetadataVersioned", &bytes).unwrap(),
            v,
            "{name}"
        );
        let again = plain.encode("MetadataVersioned", &v).unwrap();
        assert!(again == bytes, "{name}: re-encodes differently");
        *versions.entry(bytes[4]).or_insert(0) += 1;
    }
    println!("fixtures per metadata version: {versions:?}");
    assert_eq!(
        versions.keys().copied().collect::<Vec<_>>(),
        (9..=16).collect::<Vec<_>>()
    );
}

/// The value agrees with core's metadata model (read by frame-metadata)
/// on what both hold: pallet names and indices, runtime APIs and their
/// methods (V15+), extrinsic versions and extensions.
#[test]
fn values_agree_with_the_core_model() {
    let mut r = Registry::new();
    for (name, bytes) in fixtures() {
        let md = ferroscale_metadata::Metadata::load(&bytes).unwrap();
        let v = r.decode("MetadataVersioned", &bytes).unwrap();
        let (_, inner) = versioned(&v);
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        let list = if md.version >= 14 {
            "pallets"
        } else {
            "modules"
        };
        let pallets = inner.get(list).and_then(Value::as_items).unwrap();
        let names: Vec<_> = pallets.iter().map(|p| text(p, "name").unwrap()).collect();
        let want: Vec<_> = md.pallets.iter().map(|p| p.name.clone()).collect();
        assert_eq!(names, want, "{name}");
        if md.version >= 12 {
            let indices: Vec<_> = pallets
                .iter()
                .map(|p| match p.get("index") {
                    Some(Value::UInt(i)) => *i as u8,
                    other => panic!("{name}: index {other:?}"),
                })
                .collect();
            let want: Vec<_> = md.pallets.iter().map(|p| p.index).collect();
            assert_eq!(indices, want, "{name}");
        }
        if md.version >= 15 {
            let apis = inner.get("apis").and_then(Value::as_items).unwrap();
            assert_eq!(apis.len(), md.apis.len(), "{name}");
            for (a, want) in apis.iter().zip(&md.apis) {
                assert_eq!(text(a, "name").as_deref(), Some(want.name.as_str()));
                let methods = a.get("methods").and_then(Value::as_items).unwrap();
                let got: Vec<_> = methods.iter().map(|m| text(m, "name").unwrap()).collect();
                let want: Vec<_> = want.methods.iter().map(|m| m.name.clone()).collect();
                assert_eq!(got, want, "{name}");
            }
        }
        if md.version >= 14 {
            let x = inner.get("extrinsic").unwrap();
            let key = if md.version >= 16 {
                "transaction_extensions"
            } else {
                "signed_extensions"
            };
            let ids: Vec<_> = x
                .get(key)
                .and_then(Value::as_items)
                .unwrap()
                .iter()
                .map(|e| text(e, "identifier").unwrap())
                .collect();
            let want: Vec<_> = md
                .extrinsic
                .signed_extensions
                .iter()
                .map(|e| e.identifier.clone())
                .collect();
            assert_eq!(ids, want, "{name}");
        }
    }
}

#[test]
fn metadata_inside_other_types_and_bad_input() {
    let mut r = Registry::new();
    let (_, bytes) = fixtures()
        .into_iter()
        .find(|(n, _)| n.contains("kusama-v9"))
        .unwrap();
    // Inside an Option, as any other type.
    let mut some = vec![1u8];
    some.extend_from_slice(&bytes);
    let v = r.decode("Option<MetadataVersioned>", &some).unwrap();
    assert_eq!(v, r.decode("MetadataVersioned", &bytes).unwrap());
    // Trailing bytes, truncation, unsupported versions: errors, no panic.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        r.decode("MetadataVersioned", &longer),
        Err(Error::RemainingScaleBytesNotEmpty { .. })
    ));
    for cut in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
        assert!(
            r.decode("MetadataVersioned", &bytes[..cut]).is_err(),
            "cut {cut}"
        );
    }
    for version in [0u8, 8, 17, 255] {
        let mut other = bytes.clone();
        other[4] = version;
        let e = r.decode("MetadataVersioned", &other).unwrap_err();
        assert!(
            e.to_string()
                .contains(&format!("metadata version {version} ")),
            "{e}"
        );
    }
}

/// py-scale-codec 1.2.12 decodes V9–V14 (its `MetadataAll` stops there).
const REFERENCE: &str = r#"
rc = RuntimeConfigurationObject()
rc.update_type_registry(load_type_registry_preset('core'))
out = []
for data in json.load(sys.stdin):
    try:
        o = rc.create_scale_object('MetadataVersioned', data=ScaleBytes(bytes.fromhex(data)))
        out.append({'ok': norm(o.decode())})
    except Exception as e:
        out.append({'err': type(e).__name__ + ': ' + str(e)})
json.dump(out, sys.stdout)
"#;

#[test]
fn v9_to_v14_values_equal_py_scale_codec() {
    let cases: Vec<(String, Vec<u8>)> = fixtures()
        .into_iter()
        .filter(|(_, b)| (9..=14).contains(&b[4]))
        .collect();
    let request: Vec<String> = cases
        .iter()
        .map(|(_, b)| ferroscale_core::hex::encode_prefixed(b)[2..].to_string())
        .collect();
    let out = ferroscale_test_support::reference::run_python(
        &common::reference_script(REFERENCE),
        serde_json::to_string(&request).unwrap().as_bytes(),
    );
    let answers: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(answers.len(), cases.len());
    let mut r = Registry::new();
    let (mut compared, mut equal) = (0, 0);
    let mut differ = Vec::new();
    for ((name, bytes), answer) in cases.iter().zip(&answers) {
        let ours = normalise(&r.decode("MetadataVersioned", bytes).unwrap());
        let py = answer
            .get("ok")
            .unwrap_or_else(|| panic!("py-scale-codec cannot decode {name}: {answer}"));
        compared += 1;
        if &ours == py {
            equal += 1;
        } else {
            differ.push(format!("{name}: {}", first_difference(&ours, py, "")));
        }
    }
    println!(
        "MetadataVersioned V9-V14: compared {compared}, equal {equal}, differ {}",
        differ.len()
    );
    for d in &differ {
        println!("DIFF {d}");
    }
    assert!(differ.is_empty());
    assert!(compared >= 20, "only {compared} fixtures compared");
}

/// The path to the first place two normalised values differ.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> String {
    use serde_json::Value as J;
    match (a, b) {
        (J::Array(x), J::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find(|(_, (p, q))| p != q)
            .map(|(i, (p, q))| first_difference(p, q, &format!("{at}/{i}")))
            .unwrap_or_default(),
        (J::Object(x), J::Object(y)) if x.keys().eq(y.keys()) => x
            .iter()
            .find(|(k, v)| y.get(*k) != Some(v))
            .map(|(k, v)| first_difference(v, &y[k], &format!("{at}/{k}")))
            .unwrap_or_default(),
        _ => {
            let short = |v: &J| v.to_string().chars().take(200).collect::<String>();
            format!("at {at}: ours {} vs py {}", short(a), short(b))
        }
    }
}
