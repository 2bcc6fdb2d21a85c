//! Every distinct type string in the 20 shipped presets parses, and resolves
//! under the presets py-scale-codec users load with it (core + legacy + the
//! chain preset, at each versioning range), except the few py-scale-codec
//! 1.2.12 cannot resolve either (listed, and checked to still fail).

use std::collections::BTreeSet;

use ferroscale_dynamic::preset::{
    Definition, EnumVariants, Preset, TypeDefs, TypeRef, PRESET_NAMES,
};
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::typestr::parse;

/// Type strings of the presets that py-scale-codec 1.2.12 cannot resolve
/// either (checked with its `generate_type_decomposition` under the same
/// presets; it fails on 101 of these resolutions, a superset of these 25:
/// it also fails on polymesh's `""` variant types, `[u8;32]`, tuples holding
/// `BoundedVec<A, B>`, and `MultiAddress` without `AccountIndex`): the
/// preset, the string, and why.
const UNRESOLVABLE: &[(&str, &str, &str)] = &[
    (
        "contracts-on-rococo",
        "ContractExecResultTo269",
        "StorageDeposit is defined by no preset",
    ),
    (
        "core",
        "ContractExecResultResult",
        "sp_runtime::dispatcherror only exists in a V14 portable registry",
    ),
    (
        "core",
        "ContractExecResultTo267",
        "Weight is not in core.json (legacy.json and chain presets define it)",
    ),
    (
        "core",
        "Option<Vec<frame_system::eventrecord>>",
        "a V14 portable registry path",
    ),
    ("core", "StorageDeposit", "defined by no preset"),
    ("core", "Weight", "not in core.json"),
    (
        "core",
        "sp_runtime::dispatcherror",
        "a V14 portable registry path",
    ),
    (
        "core",
        "sp_weights::weight_v2::Weight",
        "a V14 portable registry path",
    ),
    ("karura", "AuthoritysOriginId", "defined by no preset"),
    (
        "karura",
        "ClassData",
        "uses Properties, whose type is a JSON list (['_set', {…}])",
    ),
    ("karura", "FixedU128", "defined by no preset"),
    ("karura", "Option<Rate>", "Rate is FixedU128"),
    ("karura", "Option<Ratio>", "Ratio is FixedU128"),
    ("karura", "OptionRate", "Rate is FixedU128"),
    ("karura", "OptionRatio", "Ratio is FixedU128"),
    ("karura", "OracleValue", "Price is FixedU128"),
    ("karura", "Price", "FixedU128"),
    (
        "karura",
        "Properties",
        "its type is a JSON list (['_set', {…}])",
    ),
    ("karura", "Rate", "FixedU128"),
    ("karura", "Ratio", "FixedU128"),
    ("karura", "TimestampedValue", "OracleValue is FixedU128"),
    ("moonriver", "EthHeader", "defined by no preset"),
    (
        "moonriver",
        "Vec<EthHeader>",
        "EthHeader is defined by no preset",
    ),
    ("moonriver", "Vec<EthLog>", "EthLog is defined by no preset"),
    (
        "moonriver",
        "Vec<TransactionV0>",
        "TransactionV0 is defined by no preset",
    ),
];

fn collect_ref(t: &TypeRef, out: &mut BTreeSet<String>) {
    match t {
        TypeRef::Named(s) => {
            out.insert(s.clone());
        }
        TypeRef::Inline(fields) => fields.iter().for_each(|(_, t)| collect_ref(t, out)),
        TypeRef::Null | TypeRef::Invalid(_) => {}
    }
}

fn collect(types: &TypeDefs, out: &mut BTreeSet<String>) {
    for (_, def) in types {
        match def {
            Definition::Alias(s) => {
                out.insert(s.clone());
            }
            Definition::Struct { fields, .. } => {
                fields.iter().for_each(|(_, t)| collect_ref(t, out))
            }
            Definition::Tuple { items, .. } => items.iter().for_each(|t| collect_ref(t, out)),
            Definition::Enum {
                variants: EnumVariants::Mapped(m),
                ..
            } => m.iter().for_each(|(_, t)| collect_ref(t, out)),
            Definition::Enum { .. } => {}
            Definition::Set { value_type, .. } => {
                out.insert(value_type.clone());
            }
        }
    }
}

fn registry_for(name: &str) -> Registry {
    let mut chain = vec!["core"];
    if name != "core" {
        chain.push("legacy");
    }
    if name != "core" && name != "legacy" {
        chain.push(name);
    }
    Registry::with_presets(&chain).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_preset_type_string_parses_and_resolves() {
    let mut distinct: BTreeSet<String> = BTreeSet::new();
    let mut checked = 0usize;
    let mut failures: Vec<String> = Vec::new();
    let mut expected_failures = 0usize;
    for name in PRESET_NAMES {
        let preset = Preset::named(name).unwrap();
        // (spec to switch to, strings used at that spec)
        let mut groups: Vec<(Option<u64>, BTreeSet<String>)> = Vec::new();
        let mut top = BTreeSet::new();
        collect(&preset.types, &mut top);
        groups.push((None, top));
        for v in preset.versioning.iter().flatten() {
            let mut s = BTreeSet::new();
            collect(&v.types, &mut s);
            groups.push((Some(v.from), s));
        }
        for (spec, strings) in groups {
            let mut registry = registry_for(name);
            if let Some(spec) = spec {
                registry.set_active_spec_version_id(spec);
            }
            for s in strings {
                if s.trim().is_empty() {
                    continue;
                }
                distinct.insert(s.clone());
                checked += 1;
                let known_bad = UNRESOLVABLE.iter().any(|(p, t, _)| *p == name && *t == s);
                if let Err(e) = parse(&s) {
                    failures.push(format!("{name}: {s:?} does not parse: {e}"));
                    continue;
                }
                match (registry.resolve_strict(&s), known_bad) {
                    (Ok(_), false) => {}
                    (Err(_), true) => expected_failures += 1,
                    (Ok(_), true) => failures.push(format!(
                        "{name}: {s:?} resolves but is listed as unresolvable"
                    )),
                    (Err(e), false) => failures.push(format!("{name} (spec {spec:?}): {s:?}: {e}")),
                }
            }
        }
    }
    println!(
        "{} distinct preset type strings, {checked} resolutions checked, {expected_failures} deliberate failures",
        distinct.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(expected_failures, UNRESOLVABLE.len());
}
