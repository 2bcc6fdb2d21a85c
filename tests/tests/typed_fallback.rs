//! The dynamic layer's fallback onto generated types (`ferroscale-typed-fallback`):
//! with every generated chain's `TYPED_DECODERS` attached, every constant
//! and storage default of every V14+ fixture decodes to the same value as
//! the dynamic path alone gives, and a large share of them actually goes
//! through a generated type; a type changed in the metadata falls back to
//! the dynamic path while untouched types keep the typed one.

use ferroscale_codegen::input::{load, ChainInput};
use ferroscale_dynamic::registry::Registry;
use ferroscale_runtime_types::typed::TypedDecoderTable;
use ferroscale_test_support::Xorshift;
use ferroscale_tests::{polkadot_9180, subtensor_rpc};
use ferroscale_typed_fallback::{RegistryExt, TypedStatus};
use ferroscale_value::Value;
use frame_metadata::{RuntimeMetadata, RuntimeMetadataPrefixed};
use parity_scale_codec::{Decode, Encode};
use scale_info::{TypeDef, TypeDefPrimitive};

/// Every typed decoder table there is: the shipped chains and the test-only ones.
fn all_tables() -> Vec<TypedDecoderTable> {
    use ferroscale_runtime_types::{asset_hub, bittensor, kusama, polkadot, substrate_node};
    vec![
        polkadot::TYPED_DECODERS,
        kusama::TYPED_DECODERS,
        bittensor::TYPED_DECODERS,
        asset_hub::TYPED_DECODERS,
        substrate_node::TYPED_DECODERS,
        polkadot_9180::TYPED_DECODERS,
        subtensor_rpc::TYPED_DECODERS,
    ]
}

fn registry(metadata: &[u8], tables: &[TypedDecoderTable], ss58: Option<u16>) -> Registry {
    let mut r = Registry::new();
    for t in tables {
        r.attach_typed_decoders(t);
    }
    r.set_ss58_format(ss58);
    r.load_metadata(metadata).expect("metadata loads");
    r
}

/// One value to decode: what it is, its type string and its bytes.
struct Case {
    what: String,
    ty: String,
    bytes: Vec<u8>,
}

/// Every constant and storage default (an `OptionQuery` default is `None`
/// of `Option<value>`).
fn cases(input: &ChainInput) -> Vec<Case> {
    let mut out = Vec::new();
    for p in &input.pallets {
        for (name, ty, value) in &p.constants {
            out.push(Case {
                what: format!("constant {}.{name}", p.name),
                ty: format!("scale_info::{ty}"),
                bytes: value.clone(),
            });
        }
        for s in &p.storage {
            let ty = if s.optional {
                format!("Option<scale_info::{}>", s.value)
            } else {
                format!("scale_info::{}", s.value)
            };
            out.push(Case {
                what: format!("storage default {}.{}", p.name, s.name),
                ty,
                bytes: s.default.clone(),
            });
        }
    }
    out
}

/// What comparing one fixture's values found.
#[derive(Debug, Default)]
struct Tally {
    compared: usize,
    /// Values that used a typed decoder (at the top or nested).
    typed: usize,
    /// Values whose own (top-level) type was decoded typed.
    typed_top: usize,
    /// Values of a leaf type (read directly by design, see `ferroscale-typed-fallback`)
    /// or of `Option<…>` with a `None` default (no type below to decode).
    leaves: usize,
    /// Values of composite types decoded dynamically, and why.
    dynamic: Vec<String>,
    mismatches: Vec<String>,
}

/// Decodes every case with the dynamic path only and with the typed tables
/// attached; every result (value or error) must be equal.
fn compare(metadata: &[u8], input: &ChainInput, ss58: Option<u16>) -> Tally {
    let mut dynamic = registry(metadata, &[], ss58);
    let mut typed = registry(metadata, &all_tables(), ss58);
    assert!(dynamic.typed_fallback().is_none());
    let mut tally = Tally::default();
    for case in cases(input) {
        let expected = dynamic.decode(&case.ty, &case.bytes);
        let before = typed.typed_fallback().expect("tables attached").hits();
        let got = typed.decode(&case.ty, &case.bytes);
        let fallback = typed.typed_fallback().expect("tables attached");
        tally.compared += 1;
        let top = case
            .ty
            .strip_prefix("scale_info::")
            .and_then(|id| id.parse::<u32>().ok())
            .and_then(|id| fallback.status(id));
        match top {
            None => tally.leaves += 1,
            Some(TypedStatus::Ineligible(why)) if why.starts_with("a leaf") => tally.leaves += 1,
            Some(TypedStatus::Ineligible(why)) => tally
                .dynamic
                .push(format!("{} ({}): {why}", case.what, case.ty)),
            Some(TypedStatus::NoDecoder) => tally
                .dynamic
                .push(format!("{} ({}): no generated type", case.what, case.ty)),
            Some(TypedStatus::Typed(_)) => {}
        }
        if fallback.hits() > before {
            tally.typed += 1;
            if matches!(top, Some(TypedStatus::Typed(_))) {
                tally.typed_top += 1;
            }
        }
        if expected != got {
            let at = match (&expected, &got) {
                (Ok(a), Ok(b)) => difference(a, b, String::new()),
                _ => None,
            };
            tally.mismatches.push(match at {
                Some(d) => format!("{} ({}): {d}", case.what, case.ty),
                None => format!(
                    "{} ({}): dynamic {expected:?}\n    typed {got:?}",
                    case.what, case.ty
                ),
            });
        }
    }
    tally
}

fn portable_fixtures() -> Vec<&'static str> {
    ferroscale_fixtures::entries_under("metadata")
        .into_iter()
        .map(|e| e.name)
        .filter(|name| {
            let md = ferroscale_metadata::Metadata::load(&ferroscale_fixtures::read(name));
            md.is_ok_and(|m| m.version >= 14)
        })
        .collect()
}

/// The share of values of composite (non-leaf) types that must go through a
/// generated type, for the fixtures whose own runtime has generated types
/// (the rest may share few types with the generated runtimes; their values
/// are compared all the same).
fn required_share(fixture: &str) -> Option<f64> {
    match fixture {
        "metadata/polkadot-v15-spec1001002.scale"
        | "metadata/kusama-v15-spec1001002.scale"
        | "metadata/subtensor-v15-spec343.scale"
        | "metadata/substrate-node-v15-spec268.scale"
        | "metadata/polkadot-v14-spec9180.scale"
        | "metadata/statemint-v16-spec2000003-small.scale" => Some(0.9),
        _ => None,
    }
}

#[test]
fn constants_and_defaults_of_every_v14_fixture_decode_alike_typed_and_dynamic() {
    let fixtures = portable_fixtures();
    assert!(fixtures.len() >= 10, "V14+ fixtures: {fixtures:?}");
    let mut failures = Vec::new();
    let (mut checked_shares, mut total) = (0, 0);
    for fixture in &fixtures {
        let metadata = ferroscale_fixtures::read(fixture);
        let input = load(&metadata).expect("codegen input loads");
        let tally = compare(&metadata, &input, None);
        eprintln!(
            "{fixture}: {} values compared, {} of leaf types; {} through a generated type \
             ({} at the top), {} differ",
            tally.compared,
            tally.leaves,
            tally.typed,
            tally.typed_top,
            tally.mismatches.len()
        );
        failures.extend(tally.mismatches.iter().map(|m| format!("{fixture}: {m}")));
        total += tally.compared;
        if let Some(share) = required_share(fixture) {
            for d in &tally.dynamic {
                eprintln!("    decoded dynamically: {d}");
            }
            let composite = tally.compared - tally.leaves;
            let got = tally.typed_top as f64 / composite as f64;
            assert!(
                got >= share,
                "{fixture}: only {} of {composite} values of composite types went through a \
                 generated type",
                tally.typed_top,
            );
            checked_shares += 1;
        }
    }
    assert_eq!(checked_shares, 6, "a generated chain's fixture is missing");
    assert!(total > 5000, "only {total} values compared");
    assert!(
        failures.is_empty(),
        "{} values differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// With an SS58 format set, types holding account ids decode dynamically
/// (the generated values render them as hex), and values still agree.
#[test]
fn with_an_ss58_format_account_types_decode_dynamically() {
    let fixture = "metadata/polkadot-v15-spec1001002.scale";
    let metadata = ferroscale_fixtures::read(fixture);
    let input = load(&metadata).expect("codegen input loads");
    let plain = compare(&metadata, &input, None);
    let ss58 = compare(&metadata, &input, Some(0));
    assert!(ss58.mismatches.is_empty(), "{:#?}", ss58.mismatches);
    assert!(
        ss58.typed > 0 && ss58.typed < plain.typed,
        "{ss58:?} vs {plain:?}"
    );
}

/// The registry type id of `pallet`'s constant `name`, and its value bytes.
fn constant(md: &RuntimeMetadata, pallet: &str, name: &str) -> (u32, Vec<u8>) {
    let RuntimeMetadata::V15(m) = md else {
        panic!("V15 metadata")
    };
    let p = m.pallets.iter().find(|p| p.name == pallet).expect("pallet");
    let c = p
        .constants
        .iter()
        .find(|c| c.name == name)
        .expect("constant");
    (c.ty.id, c.value.clone())
}

fn typed_status(r: &Registry, id: u32) -> TypedStatus {
    *r.typed_fallback()
        .expect("tables attached")
        .status(id)
        .expect("type id in range")
}

/// Decodes `bytes` as registry type `id`; returns the value and whether the
/// typed path was used.
fn decode_counting(r: &mut Registry, id: u32, bytes: &[u8]) -> (Value, bool) {
    let before = r.typed_fallback().expect("tables attached").hits();
    let v = r
        .decode(&format!("scale_info::{id}"), bytes)
        .expect("decodes");
    let after = r.typed_fallback().expect("tables attached").hits();
    (v, after > before)
}

#[test]
fn a_changed_type_falls_back_to_the_dynamic_path() {
    let original = ferroscale_fixtures::read("metadata/polkadot-v15-spec1001002.scale");
    let mut prefixed =
        RuntimeMetadataPrefixed::decode(&mut &original[..]).expect("metadata decodes");
    let (db_weight, db_bytes) = constant(&prefixed.1, "System", "DbWeight");
    let (block_length, length_bytes) = constant(&prefixed.1, "System", "BlockLength");
    let (version, version_bytes) = constant(&prefixed.1, "System", "Version");
    let (weights, weights_bytes) = constant(&prefixed.1, "System", "BlockWeights");

    // Before the change, all four decode through generated types.
    let tables = [ferroscale_runtime_types::polkadot::TYPED_DECODERS];
    let mut before = registry(&original, &tables, None);
    for (id, bytes) in [
        (db_weight, &db_bytes),
        (block_length, &length_bytes),
        (version, &version_bytes),
        (weights, &weights_bytes),
    ] {
        assert!(matches!(typed_status(&before, id), TypedStatus::Typed(_)));
        assert!(decode_counting(&mut before, id, bytes).1, "type {id} typed");
    }
    let (old_db, _) = decode_counting(&mut before, db_weight, &db_bytes);
    let (old_length, _) = decode_counting(&mut before, block_length, &length_bytes);

    // The change: `RuntimeDbWeight.read` is renamed, and the `u32`s of
    // `PerDispatchClass<u32>` (inside `BlockLength`) become `u64`s.
    let RuntimeMetadata::V15(m) = &mut prefixed.1 else {
        unreachable!()
    };
    let types = &mut m.types.types;
    let u64_id = types
        .iter()
        .find(|t| matches!(t.ty.type_def, TypeDef::Primitive(TypeDefPrimitive::U64)))
        .expect("u64 in the registry")
        .id;
    let TypeDef::Composite(c) = &mut types[db_weight as usize].ty.type_def else {
        panic!("RuntimeDbWeight is a struct")
    };
    assert_eq!(c.fields[0].name.as_deref(), Some("read"));
    c.fields[0].name = Some("reads_renamed".into());
    let TypeDef::Composite(c) = &types[block_length as usize].ty.type_def else {
        panic!("BlockLength is a struct")
    };
    let per_class = c.fields[0].ty.id;
    let TypeDef::Composite(c) = &mut types[per_class as usize].ty.type_def else {
        panic!("PerDispatchClass is a struct")
    };
    assert_eq!(c.fields.len(), 3);
    for f in &mut c.fields {
        f.ty.id = u64_id;
    }
    let changed = prefixed.encode();
    // BlockLength's value in the changed runtime: each u32 widened to u64.
    let widened: Vec<u8> = length_bytes
        .chunks(4)
        .flat_map(|w| w.iter().copied().chain([0; 4]))
        .collect();

    let mut after = registry(&changed, &tables, None);
    for id in [db_weight, per_class, block_length] {
        assert!(
            matches!(typed_status(&after, id), TypedStatus::NoDecoder),
            "type {id}: {:?}",
            typed_status(&after, id)
        );
    }
    // The renamed field shows in the value, decoded dynamically.
    let (new_db, typed) = decode_counting(&mut after, db_weight, &db_bytes);
    assert!(!typed, "changed RuntimeDbWeight must not decode typed");
    assert!(new_db.get("read").is_none());
    assert_eq!(new_db.get("reads_renamed"), old_db.get("read"));
    assert_eq!(new_db.get("write"), old_db.get("write"));
    // The widened struct (and BlockLength holding it) reads 24 bytes, dynamically.
    let (new_length, typed) = decode_counting(&mut after, block_length, &widened);
    assert!(
        !typed,
        "BlockLength holds a changed type and must not decode typed"
    );
    assert_eq!(new_length, old_length, "same numbers, now u64");
    assert!(after
        .decode(&format!("scale_info::{block_length}"), &length_bytes)
        .is_err());
    // Untouched types still decode through generated types.
    for (id, bytes) in [(version, &version_bytes), (weights, &weights_bytes)] {
        assert!(matches!(typed_status(&after, id), TypedStatus::Typed(_)));
        assert!(decode_counting(&mut after, id, bytes).1, "type {id} typed");
    }
}

/// The typed path keeps the dynamic layer's values, errors and
/// trailing-bytes behaviour on changed input: truncated, extended and
/// randomly altered values decode (or fail) exactly as the dynamic path does.
#[test]
fn bad_input_gives_the_dynamic_errors() {
    let fixtures = portable_fixtures();
    let own: Vec<&str> = fixtures
        .into_iter()
        .filter(|f| required_share(f).is_some())
        .collect();
    assert_eq!(own.len(), 6);
    let (mut checked, mut hits) = (0, 0);
    for fixture in own {
        let (c, h) = compare_changed_inputs(fixture);
        eprintln!("{fixture}: {c} changed inputs compared, {h} typed decodes");
        checked += c;
        hits += h;
    }
    assert!(
        checked > 20_000 && hits > 3000,
        "{checked} inputs, {hits} typed decodes"
    );
}

/// Decodes changed copies of every constant and default of `fixture` both
/// ways; returns (inputs compared, typed decodes).
fn compare_changed_inputs(fixture: &str) -> (usize, u64) {
    let metadata = ferroscale_fixtures::read(fixture);
    let input = load(&metadata).expect("codegen input loads");
    let mut dynamic = registry(&metadata, &[], None);
    let mut typed = registry(&metadata, &all_tables(), None);
    let mut checked = 0;
    // Reproducible mutations: the same seed gives the same inputs every run.
    let mut random = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    for case in cases(&input).into_iter().filter(|c| !c.bytes.is_empty()) {
        let mut longer = case.bytes.clone();
        longer.push(7);
        let short = case.bytes[..case.bytes.len() - 1].to_vec();
        let mut flipped = case.bytes.clone();
        flipped[0] ^= 0xff;
        let mut inputs = vec![longer, short, flipped];
        // Random byte changes: other enum variants, lengths, flags.
        for _ in 0..16 {
            let mut m = case.bytes.clone();
            let at = random.below(m.len());
            m[at] = random.next_u8();
            inputs.push(m);
        }
        for bytes in &inputs {
            assert_eq!(
                dynamic.decode(&case.ty, bytes),
                typed.decode(&case.ty, bytes),
                "{fixture} {} ({}) on {bytes:02x?}",
                case.what,
                case.ty
            );
            checked += 1;
        }
    }
    let hits = typed.typed_fallback().expect("tables attached").hits();
    (checked, hits)
}

/// Block 10,000,000's extrinsics (call arguments decode through generated
/// types inside the dynamic `Extrinsic`/`Call` decoders) and `System.Account`
/// values decode alike both ways, the typed path in use for both.
#[test]
fn block_extrinsics_and_account_values_decode_alike_typed_and_dynamic() {
    let metadata = ferroscale_fixtures::read("metadata/polkadot-v14-spec9180.scale");
    let input = load(&metadata).expect("codegen input loads");
    let account = input
        .pallets
        .iter()
        .find(|p| p.name == "System")
        .and_then(|p| p.storage.iter().find(|s| s.name == "Account"))
        .expect("System.Account")
        .value;
    let hex_list = |name: &str| -> Vec<Vec<u8>> {
        let json: serde_json::Value =
            serde_json::from_str(&ferroscale_fixtures::read_string(name)).expect("json");
        let items = json.as_array().expect("a list");
        items
            .iter()
            .map(|item| {
                // Extrinsics are hex strings; storage pairs are [key, value].
                let text = item
                    .as_str()
                    .or_else(|| item.get(1).and_then(|v| v.as_str()))
                    .expect("hex");
                ferroscale_fixtures::decode_hex(text).expect("hex decodes")
            })
            .collect()
    };
    let extrinsics = hex_list("payloads/polkadot-block-10000000/extrinsics.json");
    let accounts = hex_list("payloads/polkadot-block-10000000/storage_system_account.json");
    let mut cases: Vec<(String, &[u8])> = Vec::new();
    cases.extend(extrinsics.iter().map(|x| ("Extrinsic".to_owned(), &x[..])));
    cases.extend(
        accounts
            .iter()
            .map(|a| (format!("scale_info::{account}"), &a[..])),
    );
    for ss58 in [None, Some(0)] {
        let mut dynamic = registry(&metadata, &[], ss58);
        let mut typed = registry(&metadata, &all_tables(), ss58);
        for (ty, bytes) in &cases {
            let expected = dynamic.decode(ty, bytes);
            assert!(expected.is_ok(), "{ty}: {expected:?}");
            let got = typed.decode(ty, bytes);
            if let (Ok(a), Ok(b)) = (&expected, &got) {
                if let Some(d) = difference(a, b, String::new()) {
                    panic!("{ty} (ss58 {ss58:?}): {d}");
                }
            }
            assert_eq!(got, expected, "{ty} (ss58 {ss58:?})");
        }
        let hits = typed.typed_fallback().expect("tables attached").hits();
        // Without an SS58 format every account value decodes typed.
        let least = if ss58.is_none() {
            accounts.len() as u64
        } else {
            1
        };
        assert!(hits >= least, "{hits} typed decodes (ss58 {ss58:?})");
        eprintln!(
            "{} extrinsics and {} account values, ss58 {ss58:?}: {hits} typed decodes",
            extrinsics.len(),
            accounts.len()
        );
    }
}

/// Where two values first differ (a path of keys and indices), with both sides there.
fn difference(a: &Value, b: &Value, at: String) -> Option<String> {
    let items = |a: &[Value], b: &[Value]| {
        if a.len() != b.len() {
            return Some(format!("{at}: {} vs {} items", a.len(), b.len()));
        }
        a.iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| difference(x, y, format!("{at}[{i}]")))
    };
    match (a, b) {
        (Value::List(x), Value::List(y)) | (Value::Tuple(x), Value::Tuple(y)) => items(x, y),
        (Value::Dict(x), Value::Dict(y)) if x.len() == y.len() => {
            x.iter().zip(y).find_map(|((kx, vx), (ky, vy))| {
                if kx != ky {
                    Some(format!("{at}: key {kx} vs {ky}"))
                } else {
                    difference(vx, vy, format!("{at}.{kx}"))
                }
            })
        }
        _ if a == b => None,
        _ => Some(format!("{at}: dynamic {a:?}, typed {b:?}")),
    }
}

/// A bare portable registry (bt-decode's subtensor types) takes typed
/// decoders too: `delegates_info` decodes to the same 360 dicts both ways,
/// each `DelegateInfo` through the generated type.
#[test]
fn delegates_info_over_a_bare_registry_decodes_alike_typed_and_dynamic() {
    let json = ferroscale_fixtures::read_string("payloads/subtensor/test_types.json");
    let types: scale_info::PortableRegistry = serde_json::from_str(&json).expect("registry");
    let delegate = types
        .types
        .iter()
        .find(|t| t.ty.path.segments.last().map(String::as_str) == Some("DelegateInfo"))
        .expect("DelegateInfo")
        .id;
    let bytes = ferroscale_fixtures::read_hex("payloads/subtensor/delegates_info.hex");
    let ty = format!("Vec<scale_info::{delegate}>");
    let mut dynamic = Registry::new();
    dynamic.load_portable_registry(&types).expect("imports");
    let mut typed = Registry::new();
    typed.attach_typed_decoders(subtensor_rpc::TYPED_DECODERS);
    typed.load_portable_registry(&types).expect("imports");
    let expected = dynamic.decode(&ty, &bytes).expect("decodes");
    let got = typed.decode(&ty, &bytes).expect("decodes");
    if let Some(d) = difference(&expected, &got, String::new()) {
        panic!("{d}");
    }
    assert_eq!(expected.as_items().map(<[Value]>::len), Some(360));
    let fallback = typed.typed_fallback().expect("tables attached");
    assert!(matches!(
        fallback.status(delegate),
        Some(TypedStatus::Typed(_))
    ));
    assert_eq!(fallback.hits(), 360);
}
