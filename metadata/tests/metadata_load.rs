//! Every metadata fixture loads into the model, with the version, pallet
//! count, type count and spec this table records.
//!
//! How the expected numbers were obtained (not by copying this crate's
//! output blindly): pallet counts for V9–V14 agree with py-scale-codec 1.2.12
//! (`MetadataVersioned` decoded with the core+legacy presets, run once by
//! hand); V14+ pallet and type counts are checked in this file against what
//! `frame-metadata` decodes directly, without this crate's framing or
//! conversion; spec versions are checked against the file names.

use ferroscale_metadata::{Metadata, StorageHasher, StorageModifier, TypeRef};
use frame_metadata::{RuntimeMetadata, RuntimeMetadataPrefixed};
use parity_scale_codec::{Compact, Decode, Encode};

struct Expected {
    file: &'static str,
    version: u32,
    pallets: usize,
    /// 0 for legacy metadata (no registry).
    types: usize,
    /// `System.Version`'s spec name and version; `None` where the runtime
    /// did not publish that constant yet.
    spec: Option<(&'static str, u32)>,
}

const fn row(
    file: &'static str,
    version: u32,
    pallets: usize,
    types: usize,
    spec: Option<(&'static str, u32)>,
) -> Expected {
    Expected {
        file,
        version,
        pallets,
        types,
        spec,
    }
}

const TABLE: &[Expected] = &[
    row(
        "asset-hub-polkadot-v16-spec2003001.scale",
        16,
        60,
        1131,
        Some(("statemint", 2003001)),
    ),
    row(
        "bittensor-v14-spec329.scale",
        14,
        28,
        531,
        Some(("node-subtensor", 329)),
    ),
    row("custom-values-v15.scale", 15, 0, 7, None),
    row(
        "frontier-template-v15-small.scale",
        15,
        2,
        201,
        Some(("frontier-template", 1)),
    ),
    row(
        "karura-v14-spec2032.scale",
        14,
        65,
        568,
        Some(("karura", 2032)),
    ),
    row("kusama-v10-spec1038.scale", 10, 28, 0, None),
    row("kusama-v10-spec1045.scale", 10, 28, 0, None),
    row("kusama-v10.scale", 10, 28, 0, None),
    row("kusama-v11-spec1045.scale", 11, 30, 0, None),
    row("kusama-v11.scale", 11, 35, 0, None),
    row("kusama-v12-spec2025.scale", 12, 31, 0, None),
    row(
        "kusama-v13-spec9030.scale",
        13,
        51,
        0,
        Some(("kusama", 9030)),
    ),
    row(
        "kusama-v14-spec9111.scale",
        14,
        51,
        704,
        Some(("kusama", 9111)),
    ),
    row(
        "kusama-v15-spec1001002.scale",
        15,
        63,
        995,
        Some(("kusama", 1001002)),
    ),
    row(
        "kusama-v16-spec2003000.scale",
        16,
        63,
        1116,
        Some(("kusama", 2003000)),
    ),
    row("kusama-v9-spec1021.scale", 9, 28, 0, None),
    row("node-template-v12.scale", 12, 9, 0, None),
    row(
        "polkadot-v12-spec30.scale",
        12,
        31,
        0,
        Some(("polkadot", 30)),
    ),
    row(
        "polkadot-v14-spec1000001.scale",
        14,
        52,
        787,
        Some(("polkadot", 1000001)),
    ),
    row(
        "polkadot-v14-spec9110.scale",
        14,
        46,
        580,
        Some(("polkadot", 9110)),
    ),
    row(
        "polkadot-v14-spec9180.scale",
        14,
        50,
        690,
        Some(("polkadot", 9180)),
    ),
    row(
        "polkadot-v15-spec1001002.scale",
        15,
        56,
        901,
        Some(("polkadot", 1001002)),
    ),
    row(
        "polkadot-v16-spec2003000.scale",
        16,
        61,
        1051,
        Some(("polkadot", 2003000)),
    ),
    row(
        "rococo-v15-spec1021002.scale",
        15,
        67,
        1011,
        Some(("rococo", 1021002)),
    ),
    row(
        "statemint-v16-spec2000003-small.scale",
        16,
        1,
        770,
        Some(("statemint", 2000003)),
    ),
    row("substrate-node-v11.scale", 11, 32, 0, None),
    row("substrate-node-v12.scale", 12, 32, 0, None),
    row(
        "substrate-node-v13-spec265.scale",
        13,
        38,
        0,
        Some(("node", 265)),
    ),
    row(
        "substrate-node-v14-spec267.scale",
        14,
        41,
        521,
        Some(("node", 267)),
    ),
    row(
        "substrate-node-v15-spec268.scale",
        15,
        71,
        926,
        Some(("node", 268)),
    ),
    row(
        "substrate-node-v16-spec268.scale",
        16,
        85,
        1137,
        Some(("node", 268)),
    ),
    row("substrate-node-v9.scale", 9, 25, 0, None),
    row(
        "subtensor-v14-spec343.scale",
        14,
        26,
        552,
        Some(("node-subtensor", 343)),
    ),
    row(
        "subtensor-v15-spec343.scale",
        15,
        26,
        712,
        Some(("node-subtensor", 343)),
    ),
];

fn load(file: &str) -> Metadata {
    let bytes = ferroscale_fixtures::read(&format!("metadata/{file}"));
    Metadata::from_bytes(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The `NNN` of `…-specNNN…` in a fixture name.
fn spec_in_name(file: &str) -> Option<u32> {
    let rest = &file[file.find("-spec")? + 5..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[test]
fn the_table_covers_every_metadata_fixture() {
    let mut in_manifest: Vec<&str> = ferroscale_fixtures::entries_under("metadata")
        .iter()
        .map(|e| e.name.trim_start_matches("metadata/"))
        .collect();
    let mut in_table: Vec<&str> = TABLE.iter().map(|r| r.file).collect();
    in_manifest.sort_unstable();
    in_table.sort_unstable();
    assert_eq!(in_manifest, in_table);
}

#[test]
fn every_fixture_loads_with_the_expected_version_pallets_types_and_spec() {
    let mut failures = Vec::new();
    for r in TABLE {
        let m = load(r.file);
        let spec = m
            .runtime_version
            .as_ref()
            .map(|v| (v.spec_name.as_str(), v.spec_version));
        let got = (m.version, m.pallets.len(), m.type_count(), spec);
        let want = (r.version, r.pallets, r.types, r.spec);
        if got != want {
            failures.push(format!("{}: got {got:?}, want {want:?}", r.file));
        }
        assert_eq!(m.types.is_some(), r.version >= 14, "{}", r.file);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn spec_versions_agree_with_the_file_names() {
    for r in TABLE {
        if let (Some(named), Some((_, spec))) = (spec_in_name(r.file), r.spec) {
            assert_eq!(named, spec, "{}", r.file);
        }
        // The test table must not claim a spec the file name contradicts.
        if spec_in_name(r.file).is_none() {
            assert!(
                r.spec.is_none() || r.file.contains("frontier"),
                "{}",
                r.file
            );
        }
    }
}

/// Pallet count and registry length as `frame-metadata` decodes them directly.
fn counts_by_frame_metadata(bytes: &[u8]) -> Option<(usize, usize)> {
    let prefixed = RuntimeMetadataPrefixed::decode(&mut &bytes[..]).unwrap();
    match prefixed.1 {
        RuntimeMetadata::V14(m) => Some((m.pallets.len(), m.types.types.len())),
        RuntimeMetadata::V15(m) => Some((m.pallets.len(), m.types.types.len())),
        RuntimeMetadata::V16(m) => Some((m.pallets.len(), m.types.types.len())),
        _ => None,
    }
}

#[test]
fn v14_plus_counts_match_frame_metadata_read_directly() {
    for r in TABLE.iter().filter(|r| r.version >= 14) {
        let bytes = ferroscale_fixtures::read(&format!("metadata/{}", r.file));
        assert_eq!(
            counts_by_frame_metadata(&bytes),
            Some((r.pallets, r.types)),
            "{}",
            r.file
        );
    }
}

/// Legacy call/event indexing cross-checked against py-scale-codec 1.2.12's
/// `call_index`/`event_index` tables (last entry and entry counts, read once
/// by hand): V9–V11 count only modules with calls (events).
#[test]
fn legacy_call_and_event_indexes_match_py_scale_codec() {
    // file, calls, events, last call (bytes, pallet.call), last event
    let cases = [
        (
            "kusama-v9-spec1021.scale",
            95,
            74,
            (0x19, 0x03, "Nicks.force_name"),
            (0x12, 0x04, "Nicks.NameKilled"),
        ),
        (
            "kusama-v10.scale",
            115,
            92,
            (0x19, 0x0a, "Identity.kill_identity"),
            (0x12, 0x06, "Identity.RegistrarAdded"),
        ),
        (
            "kusama-v11.scale",
            190,
            141,
            (0x1f, 0x03, "Multisig.cancel_as_multi"),
            (0x18, 0x03, "Multisig.MultisigCancelled"),
        ),
        (
            "substrate-node-v11.scale",
            181,
            141,
            (0x1d, 0x03, "Multisig.cancel_as_multi"),
            (0x17, 0x03, "Multisig.MultisigCancelled"),
        ),
        (
            "kusama-v12-spec2025.scale",
            188,
            142,
            (0x1f, 0x03, "Multisig.cancel_as_multi"),
            (0x1f, 0x03, "Multisig.MultisigCancelled"),
        ),
        (
            "kusama-v13-spec9030.scale",
            271,
            194,
            (0x63, 0x03, "XcmPallet.execute"),
            (0x63, 0x01, "XcmPallet.Sent"),
        ),
        (
            "node-template-v12.scale",
            24,
            20,
            (0x08, 0x01, "TemplateModule.cause_error"),
            (0x08, 0x00, "TemplateModule.SomethingStored"),
        ),
    ];
    for (file, calls, events, last_call, last_event) in cases {
        let m = load(file);
        let call_count: usize = m.pallets.iter().map(|p| p.calls().len()).sum();
        let event_count: usize = m.pallets.iter().map(|p| p.events().len()).sum();
        assert_eq!((call_count, event_count), (calls, events), "{file}");
        let (p, c) = m.call_by_index(last_call.0, last_call.1).unwrap();
        assert_eq!(format!("{}.{}", p.name, c.name), last_call.2, "{file}");
        let (p, e) = m.event_by_index(last_event.0, last_event.1).unwrap();
        assert_eq!(format!("{}.{}", p.name, e.name), last_event.2, "{file}");
        // Nothing beyond the last index.
        assert!(
            m.call_by_index(last_call.0, last_call.1 + 1).is_none(),
            "{file}"
        );
    }
}

/// Hex text, the bare blob without magic and both RPC wrappings all load to
/// the same model.
#[test]
fn hex_and_rpc_wrappings_load_to_the_same_model() {
    for file in [
        "node-template-v12.scale",
        "polkadot-v14-spec9180.scale",
        "custom-values-v15.scale",
        "statemint-v16-spec2000003-small.scale",
    ] {
        let bytes = ferroscale_fixtures::read(&format!("metadata/{file}"));
        let plain = Metadata::from_bytes(&bytes).unwrap();
        let opaque = bytes.encode(); // Vec<u8>: compact length + blob
        let option = Some(bytes.clone()).encode(); // 0x01 + compact length + blob
        assert_eq!(option[0], 1);
        assert_eq!(
            opaque[..],
            [&Compact(bytes.len() as u32).encode()[..], &bytes].concat()[..]
        );
        let hex = ferroscale_core::hex::encode_prefixed(&bytes);
        let forms: Vec<(&str, Metadata)> = vec![
            ("no magic", Metadata::from_bytes(&bytes[4..]).unwrap()),
            ("OpaqueMetadata", Metadata::from_bytes(&opaque).unwrap()),
            (
                "Option<OpaqueMetadata>",
                Metadata::from_bytes(&option).unwrap(),
            ),
            ("hex", Metadata::from_hex(&hex).unwrap()),
            ("hex without 0x", Metadata::from_hex(&hex[2..]).unwrap()),
            (
                "hex, load",
                Metadata::load(format!("{hex}\n").as_bytes()).unwrap(),
            ),
            ("binary, load", Metadata::load(&bytes).unwrap()),
            (
                "hex of Option<OpaqueMetadata>",
                Metadata::from_hex(&ferroscale_core::hex::encode_prefixed(&option)).unwrap(),
            ),
        ];
        for (form, m) in forms {
            assert!(m == plain, "{file}: {form} differs");
        }
    }
}

#[test]
fn the_model_carries_storage_constants_and_extrinsic_of_polkadot_9180() {
    let m = load("polkadot-v14-spec9180.scale");
    let system = m.pallet("System").unwrap();
    assert_eq!(system.index, 0);
    let account = system.storage_entry("Account").unwrap();
    assert_eq!(account.hashers, [StorageHasher::Blake2_128Concat]);
    assert_eq!(account.modifier, StorageModifier::Default);
    assert_eq!(account.keys.len(), 1);
    let types = m.types.as_ref().unwrap();
    let key = types.resolve(account.keys[0].id().unwrap()).unwrap();
    assert_eq!(key.path.segments, ["sp_core", "crypto", "AccountId32"]);
    // The default AccountInfo is all zeros: nonce, consumers, providers,
    // sufficients (4 × u32) and AccountData (4 × u128).
    assert_eq!(account.default, vec![0u8; 16 + 64]);
    assert!(m.storage_entry("System", "Account").unwrap().1 == account);
    let balances = m.pallet("Balances").unwrap();
    let (p, e) = m.error_by_index(5, 2).unwrap();
    assert_eq!(
        (p.name.as_str(), e.name.as_str()),
        ("Balances", "InsufficientBalance")
    );
    assert_eq!(balances.index, 5);
    let ed = balances.constant("ExistentialDeposit").unwrap();
    assert_eq!(u128::decode(&mut &ed.value[..]).unwrap(), 10_000_000_000);
    let transfer = balances
        .call_enum
        .as_ref()
        .unwrap()
        .variant_named("transfer")
        .unwrap();
    let arg_names: Vec<_> = transfer.fields.iter().map(|f| f.name.as_deref()).collect();
    assert_eq!(arg_names, [Some("dest"), Some("value")]);
    assert_eq!(
        m.call_by_index(5, transfer.index).unwrap().1.name,
        "transfer"
    );
    // Double map: Staking.ErasStakers keyed by (EraIndex, AccountId).
    let stakers = m
        .pallet("Staking")
        .unwrap()
        .storage_entry("ErasStakers")
        .unwrap();
    assert_eq!(
        stakers.hashers,
        [StorageHasher::Twox64Concat, StorageHasher::Twox64Concat]
    );
    assert_eq!(stakers.keys.len(), 2);
    // V14 extrinsic: parameters of UncheckedExtrinsic.
    let x = &m.extrinsic;
    assert_eq!(x.versions, [4]);
    let call = types.resolve(x.call_type.unwrap()).unwrap();
    assert_eq!(call.path.segments.last().unwrap(), "Call");
    let ids: Vec<_> = x
        .signed_extensions
        .iter()
        .map(|s| s.identifier.as_str())
        .collect();
    assert!(
        ids.contains(&"CheckNonce") && ids.contains(&"ChargeTransactionPayment"),
        "{ids:?}"
    );
    assert!(x.address_type.is_some() && x.signature_type.is_some() && x.extra_type.is_some());
    assert_eq!(x.extensions_for_version(0).len(), x.signed_extensions.len());
}

#[test]
fn legacy_storage_uses_type_strings_and_double_maps_split_keys() {
    let m = load("kusama-v13-spec9030.scale");
    let account = m
        .pallet("System")
        .unwrap()
        .storage_entry("Account")
        .unwrap();
    assert_eq!(account.hashers, [StorageHasher::Blake2_128Concat]);
    assert_eq!(account.keys, [TypeRef::Name("T::AccountId".into())]);
    let double = m
        .pallets
        .iter()
        .flat_map(|p| p.storage_entries())
        .find(|e| e.hashers.len() == 2)
        .unwrap();
    assert_eq!(double.keys.len(), 2);
    assert!(double
        .key
        .as_ref()
        .unwrap()
        .name()
        .unwrap()
        .starts_with('('));
    // V13 N-map: Assets.Approvals of the substrate dev node, three keys.
    let m = load("substrate-node-v13-spec265.scale");
    let (_, approvals) = m.storage_entry("Assets", "Approvals").unwrap();
    let names: Vec<_> = approvals.keys.iter().map(|k| k.name().unwrap()).collect();
    assert_eq!(names, ["T::AssetId", "T::AccountId", "T::AccountId"]);
    assert_eq!(approvals.hashers.len(), 3);
    assert_eq!(
        approvals.key,
        Some(TypeRef::Name(
            "(T::AssetId, T::AccountId, T::AccountId)".into()
        ))
    );
    // V9/V10 linked maps are flagged.
    let v10 = load("kusama-v10.scale");
    assert!(v10
        .pallets
        .iter()
        .flat_map(|p| p.storage_entries())
        .any(|e| e.linked));
    let x = &load("kusama-v11.scale").extrinsic;
    assert_eq!(x.versions, [4]);
    assert!(x
        .signed_extensions
        .iter()
        .any(|s| s.identifier == "CheckNonce"));
}

#[test]
fn v14_n_map_keys_are_split_from_the_key_tuple() {
    let m = load("substrate-node-v14-spec267.scale");
    let (_, approvals) = m.storage_entry("Assets", "Approvals").unwrap();
    assert_eq!(approvals.hashers.len(), 3);
    let types = m.types.as_ref().unwrap();
    let tuple = types
        .resolve(approvals.key.as_ref().unwrap().id().unwrap())
        .unwrap();
    let scale_info::TypeDef::Tuple(tuple) = &tuple.type_def else {
        panic!("key is not a tuple")
    };
    let from_tuple: Vec<_> = tuple.fields.iter().map(|f| TypeRef::Id(f.id)).collect();
    assert_eq!(approvals.keys, from_tuple);
    let last = types.resolve(approvals.keys[2].id().unwrap()).unwrap();
    assert_eq!(last.path.segments.last().unwrap(), "AccountId32");
}

#[test]
fn v15_runtime_apis_outer_enums_and_custom_values() {
    let m = load("polkadot-v15-spec1001002.scale");
    let core = m.apis.iter().find(|a| a.name == "Core").unwrap();
    let version = core.methods.iter().find(|m| m.name == "version").unwrap();
    assert!(version.inputs.is_empty());
    let types = m.types.as_ref().unwrap();
    let out = types.resolve(version.output).unwrap();
    assert_eq!(out.path.segments.last().unwrap(), "RuntimeVersion");
    let outer = m.outer_enums.unwrap();
    let call = types.resolve(outer.call).unwrap();
    assert_eq!(call.path.segments.last().unwrap(), "RuntimeCall");
    assert_eq!(m.extrinsic.call_type, Some(outer.call));

    let custom = load("custom-values-v15.scale");
    assert_eq!(custom.custom.len(), 5);
    let names: Vec<_> = custom.custom.keys().cloned().collect();
    assert!(names.iter().any(|n| n == "InvalidTypeId"), "{names:?}");
}

#[test]
fn v16_transaction_extensions_by_version_and_pallet_extras() {
    let m = load("statemint-v16-spec2000003-small.scale");
    let x = &m.extrinsic;
    assert!(!x.versions.is_empty());
    assert!(!x.extensions_by_version.is_empty());
    assert_eq!(x.versions, [4, 5]);
    // Transaction-extension version 0 uses all nine extensions, in order.
    let v0: Vec<_> = x
        .extensions_for_version(0)
        .iter()
        .map(|s| s.identifier.as_str())
        .collect();
    assert_eq!(v0.len(), 9);
    assert_eq!(v0.first(), Some(&"CheckNonZeroSender"));
    assert_eq!(v0.last(), Some(&"CheckMetadataHash"));
    assert!(x.extensions_for_version(1).is_empty());
    assert!(x.extra_type.is_none());
    assert!(m.apis.iter().all(|a| a.version.is_some()));
    let p = &m.pallets[0];
    // Associated types as frame-metadata decodes them directly.
    let bytes = ferroscale_fixtures::read("metadata/statemint-v16-spec2000003-small.scale");
    let RuntimeMetadata::V16(direct) = RuntimeMetadataPrefixed::decode(&mut &bytes[..]).unwrap().1
    else {
        panic!("not V16")
    };
    let direct_names: Vec<_> = direct.pallets[0]
        .associated_types
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    let names: Vec<_> = p.associated_types.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, direct_names);
    assert!(!names.is_empty());
    // Whatever the trimmed pallet has, every id in it resolves.
    let types = m.types.as_ref().unwrap();
    for a in &p.associated_types {
        assert!(types.resolve(a.ty).is_some());
    }
    for f in &p.view_functions {
        assert!(types.resolve(f.output).is_some());
    }
}
