//! Every type string of the V9–V13 metadata fixtures (call and event
//! arguments, storage keys and values, constants) parses, and resolves under
//! the presets py-scale-codec users load for that chain at that runtime
//! version, except the few listed ones py-scale-codec cannot resolve either.

use std::collections::BTreeSet;

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::typestr::parse;
use ferroscale_metadata::Metadata;

/// (fixture, type string, why) that py-scale-codec 1.2.12 cannot resolve
/// either with the same presets.
const UNRESOLVABLE: &[(&str, &str, &str)] = &[
    (
        "kusama-v12-spec2025.scale",
        "(Vec<Announcement<T::AccountId, CallHashOf<T>, T::BlockNumber>>,\n BalanceOf<T>)",
        "Announcement<…> is defined by no preset (legacy.json keys only the BoundedVec form)",
    ),
    (
        "kusama-v13-spec9030.scale",
        "(Vec<Announcement<T::AccountId, CallHashOf<T>, T::BlockNumber>>,\n BalanceOf<T>)",
        "Announcement<…> is defined by no preset (legacy.json keys only the BoundedVec form)",
    ),
    (
        "polkadot-v12-spec30.scale",
        "(Vec<Announcement<T::AccountId, CallHashOf<T>, T::BlockNumber>>,\n BalanceOf<T>)",
        "Announcement<…> is defined by no preset (legacy.json keys only the BoundedVec form)",
    ),
    (
        "substrate-node-v11.scale",
        "(Vec<Announcement<T::AccountId, CallHashOf<T>, T::BlockNumber>>,\n BalanceOf<T>)",
        "Announcement<…> is defined by no preset (legacy.json keys only the BoundedVec form)",
    ),
    (
        "substrate-node-v12.scale",
        "(Vec<Announcement<T::AccountId, CallHashOf<T>, T::BlockNumber>>,\n BalanceOf<T>)",
        "Announcement<…> is defined by no preset (legacy.json keys only the BoundedVec form)",
    ),
    (
        "substrate-node-v13-spec265.scale",
        "(Vec<Announcement<T::AccountId, CallHashOf<T>, T::BlockNumber>>,\n BalanceOf<T>)",
        "Announcement<…> is defined by no preset (legacy.json keys only the BoundedVec form)",
    ),
    (
        "kusama-v9-spec1021.scale",
        "rstd::marker::PhantomData<(AccountId, Event)>",
        "legacy.json has only the sp_std:: path",
    ),
    (
        "substrate-node-v9.scale",
        "rstd::marker::PhantomData<(AccountId, Event)>",
        "legacy.json has only the sp_std:: path",
    ),
    (
        "substrate-node-v9.scale",
        "wasm::PrefabWasmModule",
        "no preset strips the wasm:: prefix",
    ),
    (
        "substrate-node-v11.scale",
        "wasm::PrefabWasmModule",
        "no preset strips the wasm:: prefix",
    ),
    (
        "substrate-node-v12.scale",
        "wasm::PrefabWasmModule",
        "no preset strips the wasm:: prefix",
    ),
];

/// The chain preset py-scale-codec users pair with a fixture.
fn chain_preset(fixture: &str) -> Option<&'static str> {
    let file = fixture.rsplit('/').next().unwrap_or(fixture);
    if file.starts_with("kusama") {
        Some("kusama")
    } else if file.starts_with("polkadot") {
        Some("polkadot")
    } else if file.starts_with("node-template") {
        Some("substrate-node-template")
    } else {
        None
    }
}

/// `…-spec1045.scale` → 1045.
fn spec_from_name(name: &str) -> Option<u64> {
    let rest = &name[name.find("-spec")? + 5..];
    rest[..rest.find('.')?].parse().ok()
}

/// Every type string of legacy metadata.
fn type_strings(md: &Metadata) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add = |t: &ferroscale_metadata::TypeRef| {
        if let Some(s) = t.name() {
            out.insert(s.to_string());
        }
    };
    for p in &md.pallets {
        for v in p.calls().iter().chain(p.events()) {
            v.fields.iter().for_each(|f| add(&f.ty));
        }
        for c in &p.constants {
            add(&c.ty);
        }
        for e in p.storage_entries() {
            if let Some(k) = &e.key {
                add(k);
            }
            e.keys.iter().for_each(&mut add);
            add(&e.value);
        }
    }
    out
}

#[test]
fn every_legacy_metadata_type_string_resolves() {
    let mut total = 0usize;
    let mut distinct = BTreeSet::new();
    let mut expected_failures = 0usize;
    let mut failures = Vec::new();
    let fixtures: Vec<_> = ferroscale_fixtures::entries_under("metadata")
        .into_iter()
        .filter(|e| e.name.ends_with(".scale"))
        .collect();
    let mut legacy_files = 0;
    for entry in fixtures {
        let md = Metadata::load(&ferroscale_fixtures::read(entry.name))
            .unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        if md.version >= 14 {
            continue;
        }
        legacy_files += 1;
        let mut presets = vec!["core", "legacy"];
        presets.extend(chain_preset(entry.name));
        let mut registry = Registry::with_presets(&presets).unwrap();
        // Old metadata has no System.Version constant: the file name says the spec.
        let spec = md
            .spec_version()
            .map(u64::from)
            .or_else(|| spec_from_name(entry.name));
        if let Some(spec) = spec {
            registry.set_active_spec_version_id(spec);
        }
        let strings = type_strings(&md);
        println!(
            "{} (V{}, spec {:?}): {} type strings",
            entry.name,
            md.version,
            spec,
            strings.len()
        );
        for s in strings {
            total += 1;
            distinct.insert(s.clone());
            if let Err(e) = parse(&s) {
                failures.push(format!("{}: {s:?} does not parse: {e}", entry.name));
                continue;
            }
            let listed = UNRESOLVABLE
                .iter()
                .any(|(f, t, _)| entry.name.ends_with(f) && *t == s);
            match (registry.resolve_strict(&s), listed) {
                (Ok(_), false) => {}
                (Err(_), true) => expected_failures += 1,
                (Ok(_), true) => {
                    failures.push(format!("{}: {s:?} resolves but is listed", entry.name))
                }
                (Err(e), false) => failures.push(format!("{}: {s:?}: {e}", entry.name)),
            }
        }
    }
    println!(
        "{legacy_files} legacy metadata files: {total} type strings ({} distinct), {expected_failures} deliberate failures",
        distinct.len()
    );
    assert!(legacy_files >= 10, "legacy fixtures missing");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(expected_failures, UNRESOLVABLE.len());
}
