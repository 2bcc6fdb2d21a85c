//! Bittensor runtime-API results decode against the subtensor registry
//! (`payloads/subtensor/test_types.json`, a `PortableRegistry` as JSON),
//! with the layouts `tests/common/subtensor.rs` documents for the three
//! files the registry does not describe.

mod common;

use common::subtensor as st;
use ferroscale_dynamic::registry::Registry;
use ferroscale_value::Value;

use ferroscale_dynamic::encode_value;
use ferroscale_dynamic::portable::import_registry;
use ferroscale_dynamic::{decode_value, Context, Node, TypeGraph, TypeIdx};

fn registry() -> (TypeGraph, ferroscale_dynamic::portable::PortableTypes) {
    let json = ferroscale_fixtures::read_string("payloads/subtensor/test_types.json");
    let reg: scale_info::PortableRegistry = serde_json::from_str(&json).expect("registry json");
    let mut graph = TypeGraph::new();
    let types = import_registry(&mut graph, &reg, "scale_info").expect("import");
    (graph, types)
}

fn vec_of(
    graph: &mut TypeGraph,
    types: &ferroscale_dynamic::portable::PortableTypes,
    path_end: &str,
) -> TypeIdx {
    let inner = types
        .by_path
        .iter()
        .filter(|(p, _)| p.ends_with(&format!("::{}", path_end.to_ascii_lowercase())))
        .map(|(_, i)| *i)
        .next()
        .unwrap_or_else(|| panic!("{path_end} not in registry"));
    graph.add(Node::Seq(inner), Some(format!("Vec<{path_end}>").into()))
}

#[test]
fn delegates_info_decodes_as_vec_of_delegate_info() {
    let (mut graph, types) = registry();
    let ty = vec_of(&mut graph, &types, "DelegateInfo");
    let bytes = ferroscale_fixtures::read_hex("payloads/subtensor/delegates_info.hex");
    let ctx = Context::new(&graph).with_ss58(Some(42));
    let v = decode_value(&ctx, ty, &bytes).expect("decode");
    let items = v.as_items().expect("list");
    assert_eq!(items.len(), 360);
    let first = &items[0];
    for key in ["delegate_ss58", "take", "nominators", "owner_ss58"] {
        assert!(first.get(key).is_some(), "DelegateInfo has {key}: {first}");
    }
    let addr = first
        .get("delegate_ss58")
        .and_then(|a| a.as_str())
        .expect("ss58 text");
    assert!(
        addr.starts_with('5'),
        "generic-substrate ss58 address, got {addr}"
    );
    let nominators: usize = items
        .iter()
        .map(|d| {
            d.get("nominators")
                .and_then(|n| n.as_items())
                .map_or(0, |n| n.len())
        })
        .sum();
    println!("360 delegates, {nominators} nominators");
    let re = encode_value(&ctx, ty, &v).expect("encode");
    assert!(re == bytes, "delegates_info re-encodes differently");
}

#[test]
fn other_runtime_api_results_decode() {
    let (mut graph, types) = registry();
    let ctx_graph = &mut graph;
    let cases = [("payloads/subtensor/delegated_info.hex", None)];
    let mut tys = Vec::new();
    for (file, item) in cases {
        let ty = match item {
            Some(name) => vec_of(ctx_graph, &types, name),
            None => {
                // Vec<(DelegateInfo, Compact<u64>)>
                let d = types
                    .by_path
                    .iter()
                    .find(|(p, _)| p.ends_with("::delegateinfo"))
                    .map(|(_, i)| *i)
                    .expect("DelegateInfo");
                let c64 = ctx_graph.add(Node::Prim(ferroscale_dynamic::Prim::U64), None);
                let c = ctx_graph.add(Node::Compact(c64), None);
                let t = ctx_graph.add(Node::Tuple(vec![d, c]), None);
                ctx_graph.add(
                    Node::Seq(t),
                    Some("Vec<(DelegateInfo, Compact<u64>)>".into()),
                )
            }
        };
        tys.push((file, ty));
    }
    let ctx = Context::new(&graph).with_ss58(Some(42));
    for (file, ty) in tys {
        let bytes = ferroscale_fixtures::read_hex(file);
        match decode_value(&ctx, ty, &bytes) {
            Ok(v) => {
                let n = v.as_items().map_or(0, |i| i.len());
                println!("{file}: {n} items");
                assert!(n > 0);
                assert_eq!(
                    encode_value(&ctx, ty, &v).expect("encode"),
                    bytes,
                    "{file} round trip"
                );
            }
            Err(e) => panic!("{file}: {e}"),
        }
    }
}

/// A registry over the subtensor types plus the payload definitions.
fn payload_registry() -> (Registry, scale_info::PortableRegistry) {
    let reg = st::registry();
    let mut registry = st::payload_registry(&reg);
    registry.set_ss58_format(Some(42));
    (registry, reg)
}

fn uint(v: &Value, key: &str) -> u128 {
    match v.get(key) {
        Some(Value::UInt(n)) => *n,
        other => panic!("{key}: {other:?} in {v}"),
    }
}

#[test]
fn every_payload_file_decodes_completely_and_roundtrips() {
    let (mut registry, reg) = payload_registry();
    for p in st::payloads(&reg) {
        let bytes = ferroscale_fixtures::read_hex(p.file);
        // Registry::decode refuses trailing bytes: every byte is consumed.
        let v = registry
            .decode(&p.type_string, &bytes)
            .unwrap_or_else(|e| panic!("{} as {}: {e}", p.file, p.type_string));
        let items = v.as_items().expect("a list");
        assert_eq!(items.len(), p.items, "{}", p.file);
        let again = registry.encode(&p.type_string, &v).expect("encode");
        assert!(again == bytes, "{} re-encodes differently", p.file);
        println!("{}: {} items as {}", p.file, items.len(), p.type_string);
    }
}

#[test]
fn neurons_carry_the_rao_stake_fields() {
    let (mut registry, _) = payload_registry();
    for (file, ty, full) in [
        ("payloads/subtensor/neurons.hex", "Vec<RaoNeuronInfo>", true),
        (
            "payloads/subtensor/neurons_lite.hex",
            "Vec<RaoNeuronInfoLite>",
            false,
        ),
    ] {
        let v = registry
            .decode(ty, &ferroscale_fixtures::read_hex(file))
            .unwrap();
        for (i, n) in v.as_items().unwrap().iter().enumerate() {
            // uids are 0..n on subnet 2; the stake map sums to total_stake,
            // which is all alpha here; every neuron is active.
            assert_eq!(uint(n, "uid"), i as u128, "{file}: {n}");
            assert_eq!(uint(n, "netuid"), 2, "{file}: {n}");
            let stake: u128 = n
                .get("stake")
                .and_then(Value::as_items)
                .expect("stake list")
                .iter()
                .map(|pair| match pair.as_items() {
                    Some([_, Value::UInt(s)]) => *s,
                    other => panic!("stake entry {other:?}"),
                })
                .sum();
            assert_eq!(stake, uint(n, "total_stake"), "{file}: {n}");
            assert_eq!(uint(n, "alpha_stake") + uint(n, "tao_stake"), stake);
            assert_eq!(n.get("active"), Some(&Value::Bool(true)));
            let hotkey = n.get("hotkey").and_then(Value::as_str).expect("hotkey");
            assert!(hotkey.starts_with('5'), "ss58 42 address: {hotkey}");
            assert_eq!(n.get("weights").is_some(), full, "{file}");
        }
    }
}

#[test]
fn subnets_info_lists_every_subnet_by_netuid() {
    let (mut registry, _) = payload_registry();
    let bytes = ferroscale_fixtures::read_hex("payloads/subtensor/subnets_info.hex");
    let v = registry.decode("Vec<Option<SubnetInfo>>", &bytes).unwrap();
    let subnets = v.as_items().unwrap();
    for (i, s) in subnets.iter().enumerate() {
        assert_eq!(uint(s, "netuid"), i as u128, "{s}");
        assert!(
            uint(s, "max_allowed_uids") >= uint(s, "subnetwork_n"),
            "{s}"
        );
        assert!(s.get("network_connect").and_then(Value::as_items).is_some());
    }
}

/// The proof that three files do not decode against `test_types.json`
/// as it stands: its `NeuronInfo`/`NeuronInfoLite` miss the three stake
/// fields, and it has no `SubnetInfo`.
#[test]
fn the_registry_layouts_do_not_fit_neurons_and_subnets() {
    let (mut registry, reg) = payload_registry();
    for (file, name) in [
        ("payloads/subtensor/neurons.hex", "NeuronInfo"),
        ("payloads/subtensor/neurons_lite.hex", "NeuronInfoLite"),
    ] {
        let bytes = ferroscale_fixtures::read_hex(file);
        let id = st::id_by_name(&reg, name);
        let whole = format!("Vec<scale_info::{id}>");
        assert!(
            registry.decode(&whole, &bytes).is_err(),
            "{file} decodes as the registry's {name}"
        );
        // The registry's layout up to `rank` reads the first neuron's
        // `total_stake` as `rank` (a Compact<u16>), far beyond u16.
        let head: Vec<_> = st::fields(&reg, id)
            .into_iter()
            .take_while(|(n, _)| n != "pruning_score")
            .scan(false, |past_rank, (n, t)| {
                let keep = !*past_rank;
                *past_rank |= n == "rank";
                keep.then(|| serde_json::json!([n, format!("scale_info::{t}")]))
            })
            .collect();
        let head_name = format!("Registry{name}UpToRank");
        registry
            .update_types_json(
                &serde_json::json!({ &head_name: {"type": "struct", "type_mapping": head} })
                    .to_string(),
            )
            .unwrap();
        let head = registry.resolve(&head_name).unwrap();
        let rao = registry.resolve(&format!("Rao{name}")).unwrap();
        let ctx = registry.context();
        let mut sink = ferroscale_dynamic::ValueSink;
        let (first, _) = ferroscale_dynamic::decode_prefix(&ctx, head, &bytes[1..], &mut sink)
            .expect("the fields up to rank decode");
        let (rao_first, _) =
            ferroscale_dynamic::decode_prefix(&ctx, rao, &bytes[1..], &mut sink).unwrap();
        assert!(uint(&first, "rank") > u16::MAX as u128, "{first}");
        assert_eq!(first.get("rank"), rao_first.get("total_stake"));
        assert_eq!(uint(&rao_first, "rank"), 0);
    }
    assert!(!st::has_name(&reg, "SubnetInfo"));
    assert!(
        st::has_name(&reg, "SubnetIdentity"),
        "a subnet type of the registry"
    );
    let mut bare = Registry::new();
    bare.load_portable_registry(&reg).unwrap();
    let e = bare
        .decode(
            "Vec<Option<SubnetInfo>>",
            &ferroscale_fixtures::read_hex("payloads/subtensor/subnets_info.hex"),
        )
        .unwrap_err();
    assert!(e.to_string().contains("SubnetInfo"), "{e}");
}
