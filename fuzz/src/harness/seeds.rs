//! Seed inputs from the real fixtures, per target: metadata blobs (and their
//! RPC/hex framings), type strings found in metadata and presets, the preset
//! JSON files, and real encoded values (constants, storage defaults,
//! System.Account values, the extrinsics of Polkadot block 10,000,000) with
//! the registry and type they decode as.
//!
//! `cargo xtask fuzz seed` writes them to `fuzz/corpus/<target>/`; the smoke
//! fuzz mutates them in memory.

use std::collections::BTreeSet;

use ferroscale_dynamic::preset::{presets_dir, Definition, EnumVariants, Preset, PRESET_NAMES};
use ferroscale_metadata::{Metadata, StorageModifier, TypeRef};
use parity_scale_codec::{Compact, Encode};

use super::inputs::{dynamic_input, named_input, NamedKind, FLAG_EXTRINSIC, FLAG_SS58};
use super::named::{all as named_runtimes, NAMED_FIXTURES};
use super::registries::REGISTRY_FIXTURES;

/// The seeds of target `name` (see `targets::TARGETS`).
///
/// # Panics
/// On an unknown target name, or when a fixture (or, for `preset`/`typestr`,
/// the fetched presets: `cargo xtask presets`) is missing.
pub fn for_target(name: &str) -> Vec<Vec<u8>> {
    match name {
        "metadata" => metadata(),
        "typestr" => typestr(),
        "dynamic_decode" => dynamic_decode(),
        "preset" => preset(),
        "text" => text(),
        "named" => named(),
        other => panic!("no seeds for unknown target {other:?}"),
    }
}

fn metadata_fixtures() -> Vec<&'static str> {
    ferroscale_fixtures::entries_under("metadata")
        .iter()
        .map(|e| e.name)
        .collect()
}

/// Every metadata fixture, plus the smallest one in each framing the loader
/// accepts: bare (no magic), `OpaqueMetadata`, `Option<OpaqueMetadata>`, hex.
pub fn metadata() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = metadata_fixtures()
        .into_iter()
        .map(ferroscale_fixtures::read)
        .collect();
    let small = ferroscale_fixtures::read("metadata/custom-values-v15.scale");
    out.push(small[4..].to_vec());
    let mut opaque = Compact(small.len() as u32).encode();
    opaque.extend_from_slice(&small);
    let mut option = vec![1u8];
    option.extend_from_slice(&opaque);
    out.push(opaque);
    out.push(option);
    out.push(ferroscale_core::hex::encode_prefixed(&small).into_bytes());
    out
}

/// Type strings: every field type name and legacy type string of a spread of
/// metadata versions, every name and referenced type of the shipped presets,
/// and a few hostile shapes.
pub fn typestr() -> Vec<Vec<u8>> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    for fixture in [
        "metadata/kusama-v9-spec1021.scale",
        "metadata/kusama-v13-spec9030.scale",
        "metadata/polkadot-v12-spec30.scale",
        "metadata/polkadot-v14-spec9180.scale",
        "metadata/subtensor-v15-spec343.scale",
    ] {
        let md = Metadata::from_bytes(&ferroscale_fixtures::read(fixture))
            .unwrap_or_else(|e| panic!("{fixture}: {e}"));
        for pallet in &md.pallets {
            let variants = pallet.calls().iter().chain(pallet.events());
            for field in variants.flat_map(|v| v.fields.iter()) {
                names.extend(field.type_name.clone());
                names.extend(field.ty.name().map(str::to_string));
            }
            for c in &pallet.constants {
                names.extend(c.ty.name().map(str::to_string));
            }
            for e in pallet.storage_entries() {
                for t in e.key.iter().chain(std::iter::once(&e.value)) {
                    names.extend(t.name().map(str::to_string));
                }
            }
        }
    }
    let dir = presets_dir().unwrap_or_else(|e| panic!("{e}"));
    for preset in PRESET_NAMES {
        let p =
            Preset::from_file(dir.join(format!("{preset}.json"))).unwrap_or_else(|e| panic!("{e}"));
        for (name, def) in &p.types {
            names.insert(name.clone());
            preset_type_strings(def, &mut names);
        }
    }
    for hostile in [
        "Vec<Vec<Vec<Vec<Vec<Vec<Vec<Vec<u8>>>>>>>>",
        "Option<Box<Option<Box<Option<Box<u8>>>>>>",
        "[u8; 4294967296]",
        "[[u8; 32]; 4294967295]",
        "(u8, (u16, (u32, (u64, (u128, ())))))",
        "<T as Trait<I>>::Balance",
        "<Balance as HasCompact>::Type",
        "BTreeMap<AccountId, Vec<(u32, Compact<Balance>)>>",
        "scale_info::4294967295",
        "&'static[u8]",
        "Box<<T as Config>::RuntimeCall>",
    ] {
        names.insert(hostile.to_string());
    }
    names.into_iter().map(String::into_bytes).collect()
}

fn preset_type_strings(def: &Definition, out: &mut BTreeSet<String>) {
    let mut refs = Vec::new();
    match def {
        Definition::Alias(s) => {
            out.insert(s.clone());
        }
        Definition::Struct { fields, .. } => refs.extend(fields.iter().map(|(_, t)| t)),
        Definition::Tuple { items, .. } => refs.extend(items.iter()),
        Definition::Enum {
            variants: EnumVariants::Mapped(vs),
            ..
        } => refs.extend(vs.iter().map(|(_, t)| t)),
        _ => {}
    }
    for r in refs {
        if let ferroscale_dynamic::preset::TypeRef::Named(s) = r {
            out.insert(s.clone());
        }
    }
}

/// The shipped presets' JSON text, and small hand-made documents in each
/// shape the loader knows (versioning, runtime upgrades, runtime APIs).
pub fn preset() -> Vec<Vec<u8>> {
    let dir = presets_dir().unwrap_or_else(|e| panic!("{e}"));
    let mut out: Vec<Vec<u8>> = PRESET_NAMES
        .iter()
        .map(|p| {
            let path = dir.join(format!("{p}.json"));
            std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .collect();
    for small in [
        r#"{"types": {"Balance": "u128", "Foo": {"type": "struct", "type_mapping": [["a", "u8"], ["b", "Vec<u32>"]]}}}"#,
        r#"{"runtime_id": 5, "types": {"E": {"type": "enum", "type_mapping": [["A", "Null"], ["B", "u8"]]}, "V": {"type": "enum", "value_list": ["X", "Y"]}}, "versioning": [{"runtime_range": [1, 4], "types": {"Balance": "u64"}}, {"runtime_range": [5, null], "types": {"Balance": "u128"}}]}"#,
        r#"{"types": {"S": {"type": "set", "value_type": "u64", "value_list": {"A": 1, "B": 2}}, "T": {"type": "tuple", "type_mapping": ["u8", "u16"]}}, "runtime_upgrades": [[0, 1], [100, 2], [200, -1]]}"#,
        r#"{"types": {}, "runtime_api": {"Api": {"methods": {"m": {"description": "d", "params": [{"name": "a", "type": "u32"}], "type": "u64"}}, "types": {}}}}"#,
        r#"{"types": {"In": {"type": "struct", "type_mapping": [["x", {"y": "u8"}]]}}}"#,
    ] {
        out.push(small.as_bytes().to_vec());
    }
    out
}

/// Real encoded values with the registry and type they decode as: every
/// constant and every `Default` storage default of the fuzzed registries,
/// System.Account values and the extrinsics of Polkadot block 10,000,000
/// (spec 9180, registry 0).
pub fn dynamic_decode() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (r, fixture) in REGISTRY_FIXTURES.iter().enumerate() {
        let md = Metadata::from_bytes(&ferroscale_fixtures::read(fixture))
            .unwrap_or_else(|e| panic!("{fixture}: {e}"));
        let r = r as u8;
        for pallet in &md.pallets {
            for c in &pallet.constants {
                if let Some(id) = c.ty.id() {
                    out.push(dynamic_input(r, id as u16, 0, &c.value));
                }
            }
            for e in pallet.storage_entries() {
                if let (StorageModifier::Default, TypeRef::Id(id)) = (e.modifier, &e.value) {
                    out.push(dynamic_input(r, *id as u16, FLAG_SS58, &e.default));
                }
            }
        }
    }
    let md = Metadata::from_bytes(&ferroscale_fixtures::read(REGISTRY_FIXTURES[0]))
        .expect("polkadot spec 9180 loads");
    let account_ty = md
        .pallet("System")
        .and_then(|p| p.storage_entry("Account"))
        .and_then(|e| e.value.id())
        .expect("System.Account has a registry type") as u16;
    let pairs: Vec<(String, String)> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    ))
    .expect("storage_system_account.json is [key, value] pairs");
    for (_, value) in pairs.iter().take(32) {
        let bytes = ferroscale_fixtures::decode_hex(value).expect("hex value");
        out.push(dynamic_input(0, account_ty, FLAG_SS58, &bytes));
    }
    let extrinsics: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/extrinsics.json",
    ))
    .expect("extrinsics.json is a list of hex strings");
    for x in &extrinsics {
        let bytes = ferroscale_fixtures::decode_hex(x).expect("hex extrinsic");
        out.push(dynamic_input(0, 0, FLAG_EXTRINSIC | FLAG_SS58, &bytes));
    }
    out
}

/// Text and byte seeds for the `text` target: accounts of the
/// `System.Account` fixture as SS58 addresses of one- and two-byte formats
/// and as hex, an account index address, and the raw bytes of those
/// accounts behind a format (what the grouped encoders take).
pub fn text() -> Vec<Vec<u8>> {
    let json = ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    );
    let accounts: Vec<[u8; 32]> = account_ids_in(&json).into_iter().take(16).collect();
    let mut seeds = Vec::new();
    for (i, key) in accounts.iter().enumerate() {
        for format in [0u16, 2, 42, 63, 64, 7391, 16383] {
            if let Ok(address) = ferroscale_core::ss58::encode(key, format) {
                seeds.push(address.into_bytes());
            }
        }
        seeds.push(ferroscale_core::hex::encode_prefixed(key).into_bytes());
        let mut raw = vec![(i as u8) % 64, 0];
        for k in accounts.iter().take(i + 1) {
            raw.extend_from_slice(k);
        }
        seeds.push(raw);
    }
    if let Ok(index) = ferroscale_core::ss58::encode(&[7, 0, 0, 0], 2) {
        seeds.push(index.into_bytes());
    }
    seeds.push(b"0xDEADbeef00".to_vec());
    seeds
}

/// The account ids of the `System.Account` storage keys in a JSON text (a
/// `Blake2_128Concat` key ends with the account itself).
fn account_ids_in(json: &str) -> Vec<[u8; 32]> {
    json.split('"')
        .filter(|s| {
            s.starts_with("0x26aa394eea5630e07c48ae0c9558cef7b99d880ec681799c0cf30e8886371da9")
        })
        .filter_map(|s| ferroscale_core::hex::decode(s).ok())
        .filter_map(|b| <[u8; 32]>::try_from(&b[b.len().checked_sub(32)?..]).ok())
        .collect()
}

/// Seeds of the `named` target, per runtime: an answer of every runtime API
/// method and view function and a full key of every storage map, each built
/// from what its types decode from a run of zeros; and `System.remark` as a
/// format-4 unsigned, format-5 bare and format-5 general extrinsic of every
/// extension version the metadata lists.
pub fn named() -> Vec<Vec<u8>> {
    use ferroscale_dynamic::{decode_prefix, ValueSink};
    let zeros = [0u8; 4096];
    let mut out = Vec::new();
    for (r, n) in named_runtimes().iter().enumerate() {
        let md = Metadata::from_bytes(&ferroscale_fixtures::read(NAMED_FIXTURES[r]))
            .unwrap_or_else(|e| panic!("{}: {e}", n.name));
        let mut registry = n.registry.lock().expect("named registry");
        let r = r as u8;
        // The bytes a type reads from zeros (its smallest value, mostly).
        let zero_value = |registry: &mut ferroscale_dynamic::registry::Registry, id: u32| {
            let ty = registry.resolve(&format!("scale_info::{id}")).ok()?;
            let (v, used) = decode_prefix(&registry.context(), ty, &zeros, &mut ValueSink).ok()?;
            Some((v, zeros[..used].to_vec()))
        };
        for (i, (api, method)) in n.apis.iter().enumerate() {
            let output = md
                .apis
                .iter()
                .find(|a| &a.name == api)
                .and_then(|a| a.methods.iter().find(|m| &m.name == method))
                .map(|m| m.output)
                .expect("listed method");
            if let Some((_, bytes)) = zero_value(&mut registry, output) {
                out.push(named_input(
                    r,
                    i as u16,
                    NamedKind::RuntimeApiResult,
                    &bytes,
                ));
            }
        }
        for (i, (pallet, name)) in n.view_functions.iter().enumerate() {
            let output = md
                .pallet(pallet)
                .and_then(|p| p.view_functions.iter().find(|f| &f.name == name))
                .map(|f| f.output)
                .expect("listed view function");
            if let Some((_, bytes)) = zero_value(&mut registry, output) {
                let mut answer = vec![0u8];
                answer.extend(Compact(bytes.len() as u32).encode());
                answer.extend(bytes);
                out.push(named_input(
                    r,
                    i as u16,
                    NamedKind::ViewFunctionAnswer,
                    &answer,
                ));
            }
        }
        for (i, (pallet, entry, _)) in n.maps.iter().enumerate() {
            let keys = md
                .pallet(pallet)
                .and_then(|p| p.storage_entry(entry))
                .map(|e| e.keys.clone())
                .expect("listed map");
            let values: Option<Vec<_>> = keys
                .iter()
                .map(|k| zero_value(&mut registry, k.id()?).map(|(v, _)| v))
                .collect();
            let key = values.and_then(|v| registry.storage_key(pallet, entry, &v).ok());
            if let Some(key) = key {
                out.push(named_input(r, i as u16, NamedKind::StorageKey, &key[32..]));
            }
        }
        let system = md.pallet("System").expect("System pallet");
        let calls = system.call_enum.as_ref().expect("System calls");
        let remark = calls
            .variants
            .iter()
            .find(|v| v.name == "remark")
            .expect("System.remark");
        let call = [calls.pallet_index, remark.index, 4, b'f'];
        let mut bodies = vec![vec![0x04], vec![0x05]];
        for (&version, list) in &md.extrinsic.extensions_by_version {
            let mut body = vec![0x45, version];
            for e in md.extrinsic.extensions_for_version(version) {
                let (_, bytes) =
                    e.ty.and_then(|ty| zero_value(&mut registry, ty))
                        .unwrap_or_else(|| panic!("{}: extension {}", n.name, e.identifier));
                body.extend(bytes);
            }
            assert_eq!(
                list.len(),
                md.extrinsic.extensions_for_version(version).len()
            );
            bodies.push(body);
        }
        for mut body in bodies {
            body.extend_from_slice(&call);
            let xt = [Compact(body.len() as u32).encode(), body].concat();
            out.push(named_input(r, 0, NamedKind::Extrinsic, &xt));
        }
    }
    out
}
