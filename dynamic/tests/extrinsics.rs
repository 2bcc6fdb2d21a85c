//! Every extrinsic of Polkadot block 10,000,000 (spec 9180) decodes into
//! py-scale-codec's extrinsic shape and re-encodes to the same bytes.

use ferroscale_dynamic::encode_value;
use ferroscale_dynamic::portable::import_metadata_bytes;
use ferroscale_dynamic::{decode_value, Context, Node, Special, TypeGraph};

#[test]
fn block_10000000_extrinsics_decode_and_round_trip() {
    let md = ferroscale_fixtures::read("metadata/polkadot-v14-spec9180.scale");
    let mut graph = TypeGraph::new();
    let imported = import_metadata_bytes(&mut graph, &md).expect("import");
    let xt = graph.add(Node::Special(Special::Extrinsic), Some("Extrinsic".into()));
    let ctx = Context::new(&graph)
        .with_runtime(&imported.runtime)
        .with_ss58(Some(0));
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/extrinsics.json",
    ))
    .expect("json");
    assert!(!list.is_empty());
    let mut signed = 0;
    for (i, h) in list.iter().enumerate() {
        let bytes = ferroscale_fixtures::decode_hex(h).expect("hex");
        let v = decode_value(&ctx, xt, &bytes).unwrap_or_else(|e| panic!("extrinsic {i}: {e}"));
        let call = v.get("call").expect("call");
        let module = call
            .get("call_module")
            .and_then(|m| m.as_str())
            .expect("call_module");
        let function = call
            .get("call_function")
            .and_then(|m| m.as_str())
            .expect("call_function");
        assert!(call
            .get("call_hash")
            .and_then(|h| h.as_str())
            .is_some_and(|h| h.len() == 66));
        assert_eq!(
            v.get("extrinsic_length").and_then(|l| l.as_u128()),
            Some(bytes.len() as u128 - compact_len(&bytes))
        );
        if v.get("address").is_some() {
            signed += 1;
            let addr = v
                .get("address")
                .and_then(|a| a.as_str())
                .expect("address text");
            assert!(addr.starts_with('1'), "polkadot ss58 address, got {addr}");
            assert!(v.get("era").is_some() && v.get("nonce").is_some() && v.get("tip").is_some());
        }
        println!("{i}: {module}.{function}");
        let re =
            encode_value(&ctx, xt, &v).unwrap_or_else(|e| panic!("extrinsic {i} encode: {e}\n{v}"));
        if re != bytes {
            let at = re
                .iter()
                .zip(&bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(re.len().min(bytes.len()));
            panic!(
                "extrinsic {i} re-encodes differently from byte {at} (lengths {} / {}): {} vs {}",
                re.len(),
                bytes.len(),
                ferroscale_core::hex::encode_prefixed(&re[at..(at + 16).min(re.len())]),
                ferroscale_core::hex::encode_prefixed(&bytes[at..(at + 16).min(bytes.len())])
            );
        }
    }
    println!(
        "{} extrinsics ({signed} signed) decoded and re-encoded",
        list.len()
    );
    // The first two are the timestamp and parachain inherents.
    let first = decode_value(
        &ctx,
        xt,
        &ferroscale_fixtures::decode_hex(&list[0]).unwrap(),
    )
    .unwrap();
    assert_eq!(
        first
            .get("call")
            .and_then(|c| c.get("call_module"))
            .and_then(|m| m.as_str()),
        Some("Timestamp")
    );
}

fn compact_len(bytes: &[u8]) -> u128 {
    match bytes[0] & 3 {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => (bytes[0] >> 2) as u128 + 5,
    }
}

/// `Context::extrinsic_call_hash = false` leaves only the extrinsic's own
/// call without its hash (`None`); everything else, the extrinsic hash
/// included, is the value of the default context.
#[test]
fn the_extrinsic_call_hash_can_be_left_out() {
    let md = ferroscale_fixtures::read("metadata/polkadot-v14-spec1000001.scale");
    let mut graph = TypeGraph::new();
    let imported = import_metadata_bytes(&mut graph, &md).expect("import");
    let xt = graph.add(Node::Special(Special::Extrinsic), Some("Extrinsic".into()));
    let full = Context::new(&graph).with_runtime(&imported.runtime);
    let without = Context {
        extrinsic_call_hash: false,
        ..full
    };
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-18468942/extrinsics.json",
    ))
    .expect("json");
    assert_eq!(list.len(), 4);
    for h in &list {
        let bytes = ferroscale_fixtures::decode_hex(h).expect("hex");
        let mut expected = decode_value(&full, xt, &bytes).expect("decode");
        let got = decode_value(&without, xt, &bytes).expect("decode");
        let hash = entry_mut(entry_mut(&mut expected, "call"), "call_hash");
        assert!(hash.as_str().is_some_and(|h| h.len() == 66));
        *hash = ferroscale_value::Value::Null;
        assert_eq!(got, expected);
    }
}

/// The value of `key` in dict `value`.
fn entry_mut<'v>(
    value: &'v mut ferroscale_value::Value,
    key: &str,
) -> &'v mut ferroscale_value::Value {
    let ferroscale_value::Value::Dict(entries) = value else {
        panic!("{key}: not in a dict");
    };
    match entries.iter_mut().find(|(k, _)| &**k == key) {
        Some((_, v)) => v,
        None => panic!("no {key}"),
    }
}
