//! Presets: the 20 shipped files load, hostile JSON fails with a path, and
//! spec-version switching and runtime upgrades behave like py-scale-codec.

use ferroscale_dynamic::preset::{
    Definition, Definitions, EnumVariants, Preset, TypeRef, PRESET_NAMES,
};

fn named(name: &str) -> Preset {
    Preset::named(name).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_shipped_preset_loads() {
    let mut total = 0;
    for name in PRESET_NAMES {
        let preset = named(name);
        let versioned: usize = preset
            .versioning
            .iter()
            .flatten()
            .map(|v| v.types.len())
            .sum();
        println!(
            "{name}: {} types, {} versioning entries ({versioned} types), runtime_id {:?}",
            preset.types.len(),
            preset.versioning.as_ref().map_or(0, Vec::len),
            preset.runtime_id
        );
        total += preset.types.len() + versioned;
    }
    println!("{total} definitions in {} presets", PRESET_NAMES.len());
    let core = named("core");
    assert_eq!(core.types.len(), 196);
    assert!(core.runtime_api.len() > 10, "core.json runtime_api");
    let nonce = core
        .runtime_api
        .iter()
        .find(|a| a.name == "AccountNonceApi")
        .expect("AccountNonceApi");
    assert_eq!(nonce.methods[0].name, "account_nonce");
    assert_eq!(
        nonce.methods[0].params,
        vec![("account_id".to_string(), "AccountId".to_string())]
    );
    assert_eq!(nonce.methods[0].result, "Index");
    assert_eq!(named("legacy").types.len(), 884);
}

#[test]
fn definition_shapes() {
    let core = named("core");
    let find = |name: &str| {
        core.types
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| d.clone())
            .unwrap()
    };
    assert_eq!(find("Hash"), Definition::Alias("H256".into()));
    match find("ContractCallFlags") {
        Definition::Set {
            flags, value_type, ..
        } => {
            assert_eq!(value_type, "u32");
            assert_eq!(flags[0], ("ForwardInput".to_string(), 1));
            assert_eq!(flags[3], ("AllowReentry".to_string(), 8));
        }
        other => panic!("{other:?}"),
    }
    match find("MetadataVersioned") {
        Definition::Tuple { items, base_class } => {
            assert_eq!(base_class.as_deref(), Some("GenericMetadataVersioned"));
            assert_eq!(items[0], TypeRef::Named("[u8; 4]".into()));
        }
        other => panic!("{other:?}"),
    }
    let test = named("test");
    let indexed = test
        .types
        .iter()
        .find(|(n, _)| n == "EnumSpecifiedIndex")
        .unwrap();
    match &indexed.1 {
        Definition::Enum {
            variants: EnumVariants::Values(v),
            ..
        } => assert!(v.contains(&("KAR".to_string(), 128))),
        other => panic!("{other:?}"),
    }
    // Inline struct inside a type_mapping keeps its field order.
    let nested = test
        .types
        .iter()
        .find(|(n, _)| n == "StructWithNestedStruct")
        .unwrap();
    match &nested.1 {
        Definition::Struct { fields, .. } => assert_eq!(
            fields[1].1,
            TypeRef::Inline(vec![
                ("a".into(), TypeRef::Named("u8".into())),
                ("b".into(), TypeRef::Named("u8".into()))
            ])
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn hostile_json_is_refused_with_its_path() {
    let cases: &[(&str, &str, &str)] = &[
        ("[1, 2]", "", "expected an object"),
        ("{\"types\": 5}", "types", "expected an object"),
        (
            "{\"types\": {\"A\": 5}}",
            "types.A",
            "type string or an object",
        ),
        (
            "{\"types\": {\"A\": {\"type\": \"union\"}}}",
            "types.A.type",
            "unknown type kind",
        ),
        ("{\"types\": {\"A\": {}}}", "types.A", "without \"type\""),
        (
            "{\"types\": {\"A\": {\"type\": \"struct\", \"type_mapping\": [[\"a\"]]}}}",
            "types.A.type_mapping[0]",
            "[name, type]",
        ),
        (
            "{\"types\": {\"A\": {\"type\": \"struct\", \"type_mapping\": {\"a\": \"u8\"}}}}",
            "types.A.type_mapping",
            "expected an array",
        ),
        (
            "{\"types\": {\"A\": {\"type\": \"enum\"}}}",
            "types.A",
            "type_mapping\" or \"value_list",
        ),
        (
            "{\"types\": {\"A\": {\"type\": \"enum\", \"value_list\": {\"X\": 256}}}}",
            "types.A.value_list.X",
            "one byte",
        ),
        (
            "{\"types\": {\"A\": {\"type\": \"set\", \"value_list\": [\"X\"]}}}",
            "types.A.value_list",
            "flag names to masks",
        ),
        (
            "{\"types\": {\"A\": {\"type\": \"set\", \"value_list\": {\"X\": -1}}}}",
            "types.A.value_list.X",
            "non-negative",
        ),
        (
            "{\"versioning\": [{\"runtime_range\": [1], \"types\": {}}]}",
            "versioning[0].runtime_range",
            "[from, to]",
        ),
        (
            "{\"versioning\": [{\"runtime_range\": [-1, null], \"types\": {}}]}",
            "versioning[0].runtime_range[0]",
            "non-negative",
        ),
        (
            "{\"versioning\": [{\"types\": {}}]}",
            "versioning[0]",
            "runtime_range",
        ),
        (
            "{\"runtime_upgrades\": [[1, \"x\"]]}",
            "runtime_upgrades[0]",
            "[block, spec_version]",
        ),
        (
            "{\"runtime_id\": \"9000\"}",
            "runtime_id",
            "expected an integer",
        ),
        (
            "{\"runtime_api\": {\"X\": {\"methods\": {\"m\": {\"params\": []}}}}}",
            "runtime_api.X.methods.m",
            "result \"type\"",
        ),
    ];
    for (json, path, needle) in cases {
        let err = Preset::from_json_str(json).expect_err(json);
        assert_eq!(&err.path, path, "{json}: {err}");
        assert!(err.to_string().contains(needle), "{json}: {err}");
    }
    // Not JSON, deeply nested JSON, and a huge repeated-key object fail or load
    // without panicking or hanging.
    assert!(Preset::from_json_str("{\"types\": {").is_err());
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(Preset::from_json_str(&deep).is_err());
    let repeated = format!(
        "{{\"types\": {{{}\"A\": \"u8\"}}}}",
        "\"A\": \"u16\",".repeat(200_000)
    );
    let preset = Preset::from_json_str(&repeated).unwrap();
    assert_eq!(
        preset.types,
        vec![("A".into(), Definition::Alias("u8".into()))]
    );
    // A file that is not there names the file.
    let err = Preset::from_file("/nonexistent/preset.json").unwrap_err();
    assert!(
        err.to_string().contains("/nonexistent/preset.json"),
        "{err}"
    );
    assert!(Preset::named("not-a-preset").is_err());
}

fn struct_fields(defs: &Definitions, name: &str) -> Vec<String> {
    match &defs.lookup(name).unwrap().def {
        Definition::Struct { fields, .. } => fields.iter().map(|(n, _)| n.clone()).collect(),
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn spec_version_switching() {
    let mut defs = Definitions::new();
    defs.update(&named("legacy"));
    defs.update(&named("polkadot"));
    assert_eq!(defs.active_spec_version_id(), Some(9122));
    // Top-level polkadot types describe the newest runtime.
    assert_eq!(
        defs.lookup("AccountInfo").unwrap().def,
        Definition::Alias("AccountInfoWithTripleRefCount".into())
    );
    assert!(defs.set_active_spec_version_id(12));
    assert!(!defs.set_active_spec_version_id(12), "same spec: no change");
    assert_eq!(
        struct_fields(&defs, "OpenTip"),
        ["reason", "who", "finder", "closes", "tips"]
    );
    assert_eq!(
        defs.lookup("Address").unwrap().def,
        Definition::Alias("AccountIdAddress".into())
    );
    assert_eq!(
        defs.lookup("RefCount").unwrap().def,
        Definition::Alias("u8".into())
    );
    let generation = defs.generation();
    defs.set_active_spec_version_id(13);
    assert!(defs.generation() > generation);
    assert_eq!(
        struct_fields(&defs, "OpenTip"),
        [
            "reason",
            "who",
            "finder",
            "deposit",
            "closes",
            "tips",
            "finders_fee"
        ]
    );
    defs.set_active_spec_version_id(30);
    assert_eq!(
        defs.lookup("Address").unwrap().def,
        Definition::Alias("MultiAddress".into())
    );
    assert_eq!(
        defs.lookup("AccountInfo").unwrap().def,
        Definition::Alias("AccountInfoWithTripleRefCount".into())
    );
    // Case-insensitive, as py-scale-codec's lower-cased keys.
    assert_eq!(defs.lookup("opentip"), defs.lookup("OpenTip"));
    // Keys that are type strings match their canonical form too.
    assert!(defs.lookup("ReferendumInfo<BlockNumber,Hash>").is_some());
    // Loading a preset without versioning drops the previous versioning.
    defs.update(&named("core"));
    assert!(defs.versioning().is_none());
    assert!(defs.runtime_upgrades().is_none());
}

#[test]
fn runtime_ids_from_upgrades() {
    let mut defs = Definitions::new();
    assert_eq!(defs.get_runtime_id_from_upgrades(5), None, "no upgrades");
    let polkadot = named("polkadot");
    let upgrades = polkadot.runtime_upgrades.clone().unwrap();
    defs.update(&polkadot);
    assert_eq!(defs.get_runtime_id_from_upgrades(0), Some(0));
    assert_eq!(defs.get_runtime_id_from_upgrades(29_230), Some(0));
    assert_eq!(defs.get_runtime_id_from_upgrades(29_231), Some(1));
    assert_eq!(defs.get_runtime_id_from_upgrades(5_000_000), Some(30));
    // Every listed upgrade block maps to its spec; one block before, to the previous.
    for pair in upgrades.windows(2) {
        assert_eq!(
            defs.get_runtime_id_from_upgrades(pair[1].0),
            Some(pair[1].1 as u64)
        );
        assert_eq!(
            defs.get_runtime_id_from_upgrades(pair[1].0 - 1),
            Some(pair[0].1 as u64)
        );
    }
    let last = *upgrades.last().unwrap();
    assert_eq!(
        defs.get_runtime_id_from_upgrades(last.0 + 1),
        None,
        "past the last upgrade"
    );
    // An open head extends the last known runtime.
    defs.set_runtime_upgrades_head(last.0 + 100);
    assert_eq!(
        defs.get_runtime_id_from_upgrades(last.0 + 50),
        Some(last.1 as u64)
    );
    assert_eq!(defs.get_runtime_id_from_upgrades(last.0 + 101), None);
}

#[test]
fn alias_chains_end_at_their_last_name() {
    let mut defs = Definitions::new();
    defs.update(&named("legacy"));
    defs.update(&named("polkadot"));
    // the polkadot preset's newest account layout: an alias to a struct
    let end = defs.follow_aliases("AccountInfo").unwrap();
    assert_eq!(
        (end.name.as_str(), end.aliases),
        ("AccountInfoWithTripleRefCount", 1)
    );
    assert!(matches!(
        end.definition.map(|d| &d.def),
        Some(Definition::Struct { .. })
    ));
    // to a built-in, which has no definition
    let end = defs.follow_aliases("Index").unwrap();
    assert_eq!((end.name.as_str(), end.aliases), ("u32", 1));
    assert!(end.definition.is_none());
    // no alias at all
    assert_eq!(defs.follow_aliases("u32").unwrap().aliases, 0);
    // a name defined as itself ends the chain, as a built-in would
    // (legacy.json's "H256": "H256", which "Hash" names)
    let end = defs.follow_aliases("Hash").unwrap();
    assert_eq!((end.name.as_str(), end.aliases), ("H256", 1));
    assert!(end.definition.is_none());
    // cycles end nowhere
    let cyclic = Preset::from_json_str(r#"{"types": {"A": "B", "B": "C", "C": "a"}}"#).unwrap();
    defs.update(&cyclic);
    assert!(defs.follow_aliases("A").is_none());
}
