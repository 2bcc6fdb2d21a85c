//! Bittensor runtime-API results decode against the subtensor registry
//! (`payloads/subtensor/test_types.json`, a `PortableRegistry` as JSON).

use ferroscale_dynamic::encode::encode_value;
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
