//! Legacy (V9–V13) metadata fixtures: every constant, and every storage
//! default of a `Default` entry, decodes with the presets of its chain at its
//! spec version exactly as py-scale-codec 1.2.12 decodes it (same value, or
//! both fail), compared in one run of the reference interpreter.

mod common;

use common::normalise;
use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::{Metadata, StorageModifier};
use serde_json::{json, Value as Json};

/// For each group: load presets, switch spec, decode `[type, hex]` items.
const REFERENCE: &str = r#"
out = []
for group in json.load(sys.stdin):
    rc = RuntimeConfigurationObject()
    for p in group['presets']:
        rc.update_type_registry(load_type_registry_preset(p))
    if group['spec'] is not None:
        rc.set_active_spec_version_id(group['spec'])
    answers = []
    for ty, data in group['items']:
        try:
            o = rc.create_scale_object(ty, data=ScaleBytes(bytes.fromhex(data)))
            answers.append({'ok': norm(o.decode())})
        except Exception as e:
            answers.append({'err': type(e).__name__ + ': ' + str(e)})
    out.append(answers)
json.dump(out, sys.stdout)
"#;

fn chain_preset(file: &str) -> Option<&'static str> {
    let file = file.rsplit('/').next().unwrap_or(file);
    [
        ("kusama", "kusama"),
        ("polkadot", "polkadot"),
        ("node-template", "substrate-node-template"),
    ]
    .iter()
    .find(|(prefix, _)| file.starts_with(prefix))
    .map(|(_, preset)| *preset)
}

fn spec_from_name(name: &str) -> Option<u64> {
    let rest = &name[name.find("-spec")? + 5..];
    rest[..rest.find('.')?].parse().ok()
}

struct Group {
    file: &'static str,
    presets: Vec<&'static str>,
    spec: Option<u64>,
    /// (what, type string, bytes)
    items: Vec<(String, String, Vec<u8>)>,
}

fn groups() -> Vec<Group> {
    let mut out = Vec::new();
    for entry in ferroscale_fixtures::entries_under("metadata") {
        let md = Metadata::load(&ferroscale_fixtures::read(entry.name)).unwrap();
        if md.version >= 14 {
            continue;
        }
        let mut presets = vec!["core", "legacy"];
        presets.extend(chain_preset(entry.name));
        let spec = md
            .spec_version()
            .map(u64::from)
            .or_else(|| spec_from_name(entry.name));
        let mut items = Vec::new();
        for p in &md.pallets {
            for c in &p.constants {
                let ty = c.ty.name().unwrap().to_string();
                items.push((
                    format!("{}.{} (constant)", p.name, c.name),
                    ty,
                    c.value.clone(),
                ));
            }
            for e in p.storage_entries() {
                if e.modifier == StorageModifier::Default && !e.default.is_empty() {
                    let ty = e.value.name().unwrap().to_string();
                    items.push((
                        format!("{}.{} (storage default)", p.name, e.name),
                        ty,
                        e.default.clone(),
                    ));
                }
            }
        }
        out.push(Group {
            file: entry.name,
            presets,
            spec,
            items,
        });
    }
    out
}

#[test]
fn constants_and_storage_defaults_equal_py_scale_codec() {
    let groups = groups();
    assert!(groups.len() >= 10);
    let request: Vec<Json> = groups
        .iter()
        .map(|g| {
            json!({
                "presets": g.presets,
                "spec": g.spec,
                "items": g.items.iter().map(|(_, t, b)| json!([t, ferroscale_core::hex::encode_prefixed(b)[2..]])).collect::<Vec<_>>(),
            })
        })
        .collect();
    let out = ferroscale_test_support::reference::run_python(
        &common::reference_script(REFERENCE),
        Json::Array(request).to_string().as_bytes(),
    );
    let answers: Vec<Vec<Json>> = serde_json::from_str(&out).unwrap();
    let (mut compared, mut equal, mut both_fail) = (0, 0, 0);
    let mut differences = Vec::new();
    for (g, answers) in groups.iter().zip(&answers) {
        let mut registry = Registry::with_presets(&g.presets).unwrap();
        if let Some(spec) = g.spec {
            registry.set_active_spec_version_id(spec);
        }
        for ((what, ty, bytes), want) in g.items.iter().zip(answers) {
            compared += 1;
            match (registry.decode(ty, bytes), want.get("ok")) {
                (Ok(v), Some(want)) if normalise(&v) == *want => equal += 1,
                (Err(_), None) => both_fail += 1,
                (ours, _) => differences.push(format!(
                    "{} {what} as {ty:?}: ours {:?}, py-scale-codec {want}",
                    g.file,
                    ours.map(|v| v.to_string())
                )),
            }
        }
    }
    println!(
        "{compared} legacy constants and storage defaults compared: {equal} equal, {both_fail} fail in both, {} differ",
        differences.len()
    );
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
