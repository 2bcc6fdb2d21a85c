//! Nested calls are flattened with their parent and depth: a real signed
//! extrinsic of block 18,468,942 with its call wrapped in `Utility.batch_all`
//! and `Proxy.proxy` (re-encoded by the dynamic layer, so the bytes are
//! what the runtime would accept), decoded by the indexer.

mod common;

use common::*;
use ferroscale_dynamic::encode_value;
use ferroscale_index::decode_block;
use ferroscale_value::Value;

fn call(module: &str, function: &str, args: Vec<(&str, Value)>) -> Value {
    Value::Dict(vec![
        ("call_module".into(), Value::str(module)),
        ("call_function".into(), Value::str(function)),
        (
            "call_args".into(),
            Value::Dict(args.into_iter().map(|(k, v)| (k.into(), v)).collect()),
        ),
    ])
}

fn set(v: &mut Value, key: &str, new: Value) {
    let Value::Dict(entries) = v else {
        panic!("dict")
    };
    let slot = entries.iter_mut().find(|(k, _)| &**k == key).expect(key);
    slot.1 = new;
}

#[test]
fn batch_and_proxy_calls_flatten_with_parents() {
    let decoders = decoders();
    let mut block = block_18468942();
    let spec = decoders.get(block.spec_version).expect("spec 1000001");
    // The dynamic layer's value, top-level call hash included (the index's
    // own context leaves that one out).
    let ctx = ferroscale_dynamic::Context {
        extrinsic_call_hash: true,
        ..spec.context()
    };
    let mut xt =
        ferroscale_dynamic::decode_value(&ctx, spec.extrinsic_type(), &block.extrinsics[2])
            .expect("decode");
    let inner = xt.get("call").expect("call").clone();
    let signer = xt.get("address").expect("signed").clone();
    let proxy = call(
        "Proxy",
        "proxy",
        vec![
            ("real", signer),
            ("force_proxy_type", Value::Null),
            ("call", inner.clone()),
        ],
    );
    let batch = call(
        "Utility",
        "batch_all",
        vec![("calls", Value::List(vec![inner.clone(), proxy]))],
    );
    set(&mut xt, "call", batch);
    block.extrinsics[2] = encode_value(&ctx, spec.extrinsic_type(), &xt).expect("encode");
    block.events = None;

    let rows = decode_block(&block, Some(spec));
    assert!(rows.errors.is_empty(), "{:?}", rows.errors);
    let x = rows
        .extrinsics
        .iter()
        .find(|r| r.index == 2)
        .expect("extrinsic 2");
    assert_eq!((x.pallet, x.call), ("Utility", "batch_all"));
    let calls: Vec<_> = rows
        .calls
        .iter()
        .filter(|c| c.extrinsic_index == 2)
        .collect();
    let inner_name = (
        inner.get("call_module").and_then(Value::as_str).unwrap(),
        inner.get("call_function").and_then(Value::as_str).unwrap(),
    );
    let shape: Vec<(u32, u32, u32, &str, &str)> = calls
        .iter()
        .map(|c| (c.index, c.parent_index, c.depth, c.pallet, c.name))
        .collect();
    assert_eq!(
        shape,
        // Index 0 (the batch_all itself) is the extrinsics row.
        [
            (1, 0, 1, inner_name.0, inner_name.1),
            (2, 0, 1, "Proxy", "proxy"),
            (3, 2, 2, inner_name.0, inner_name.1),
        ]
    );
    // The nested rows carry the inner call's own arguments and hash.
    assert_eq!(
        parse_json(calls[0].args),
        expected_json(inner.get("call_args").unwrap())
    );
    assert_eq!(calls[0].args, calls[2].args);
    assert_eq!(
        Some(calls[0].call_hash),
        inner.get("call_hash").and_then(Value::as_str)
    );
    assert_eq!(calls[0].call_hash, calls[2].call_hash);
    assert_ne!(calls[0].call_hash, calls[1].call_hash);
}
