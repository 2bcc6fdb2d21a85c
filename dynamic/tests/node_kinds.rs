//! Every node kind decodes to py-scale-codec's value shape and encodes back to
//! the same bytes; hostile inputs fail cleanly and quickly.

use ferroscale_dynamic::encode_value;
use ferroscale_dynamic::{
    batch_decode, decode_prefix, decode_value, BitStore, Context, Error, Field, Fields, Node, Prim,
    Special, TypeGraph, TypeIdx, ValueSink, Variant,
};
use ferroscale_value::Value;

fn hex(s: &str) -> Vec<u8> {
    ferroscale_fixtures::decode_hex(s).unwrap()
}

struct G {
    g: TypeGraph,
}

impl G {
    fn new() -> Self {
        G {
            g: TypeGraph::new(),
        }
    }
    fn add(&mut self, n: Node) -> TypeIdx {
        self.g.add(n, None)
    }
}

/// Decodes `bytes` as `ty`, checks the rendered value, re-encodes.
fn check(g: &TypeGraph, ty: TypeIdx, bytes: &str, rendered: &str) {
    let b = hex(bytes);
    let ctx = Context::new(g);
    let v = decode_value(&ctx, ty, &b).unwrap_or_else(|e| panic!("{bytes}: {e}"));
    assert_eq!(v.to_string(), rendered, "value of {bytes}");
    let re = encode_value(&ctx, ty, &v).unwrap_or_else(|e| panic!("{bytes} encode: {e}"));
    assert_eq!(
        ferroscale_core::hex::encode_prefixed(&re),
        ferroscale_core::hex::encode_prefixed(&b)
    );
}

#[test]
fn every_node_kind_round_trips() {
    let mut t = G::new();
    let u8_ = t.add(Node::Prim(Prim::U8));
    let u16_ = t.add(Node::Prim(Prim::U16));
    let u32_ = t.add(Node::Prim(Prim::U32));
    let u64_ = t.add(Node::Prim(Prim::U64));
    let u128_ = t.add(Node::Prim(Prim::U128));
    let u256_ = t.add(Node::Prim(Prim::U256));
    let i8_ = t.add(Node::Prim(Prim::I8));
    let i64_ = t.add(Node::Prim(Prim::I64));
    let i256_ = t.add(Node::Prim(Prim::I256));
    let b = t.add(Node::Prim(Prim::Bool));
    let ch = t.add(Node::Prim(Prim::Char));
    let s = t.add(Node::Prim(Prim::Str));
    let null = t.add(Node::Null);
    let c = t.add(Node::Compact(u128_));
    let c256 = t.add(Node::Compact(u256_));
    let bytes = t.add(Node::Bytes);
    let h256 = t.add(Node::ByteArray(32));
    let arr = t.add(Node::Array(u16_, 3));
    let seq = t.add(Node::Seq(u32_));
    let tup = t.add(Node::Tuple(vec![u8_, b]));
    let tup1 = t.add(Node::Tuple(vec![seq]));
    let empty_tup = t.add(Node::Tuple(vec![]));
    let st = t.add(Node::Struct(vec![
        Field {
            name: "a".into(),
            ty: u8_,
        },
        Field {
            name: "b".into(),
            ty: c,
        },
    ]));
    let en = t.add(Node::Enum(vec![
        Variant {
            index: 0,
            name: "Unit".into(),
            fields: Fields::Unit,
        },
        Variant {
            index: 1,
            name: "One".into(),
            fields: Fields::Unnamed(vec![u8_]),
        },
        Variant {
            index: 2,
            name: "Two".into(),
            fields: Fields::Unnamed(vec![u8_, b]),
        },
        Variant {
            index: 5,
            name: "Named".into(),
            fields: Fields::Named(vec![Field {
                name: "x".into(),
                ty: u16_,
            }]),
        },
        Variant {
            index: 6,
            name: "Empty".into(),
            fields: Fields::Unnamed(vec![empty_tup]),
        },
    ]));
    let opt = t.add(Node::Option(u32_));
    let optb = t.add(Node::Option(b));
    let res = t.add(Node::Result(u8_, bytes));
    let set = t.add(Node::Set {
        byte_len: 1,
        flags: vec![("A".into(), 1), ("B".into(), 2), ("C".into(), 4)],
    });
    let bits = t.add(Node::BitSeq {
        store: BitStore::U8,
        lsb0: true,
    });
    let map = t.add(Node::Map(u8_, b));
    let acc = t.add(Node::Special(Special::AccountId));
    let eth = t.add(Node::Special(Special::EthereumAccountId));
    let idx = t.add(Node::Special(Special::AccountIndex));
    let era = t.add(Node::Special(Special::Era));
    let data = t.add(Node::Special(Special::IdentityData));
    let hexb = t.add(Node::Special(Special::HexBytes));
    let vote = t.add(Node::Special(Special::Vote));
    let wko = t.add(Node::Special(Special::WrapperKeepOpaque(u32_)));
    let ma_enum = t.add(Node::Enum(vec![
        Variant {
            index: 0,
            name: "Id".into(),
            fields: Fields::Unnamed(vec![acc]),
        },
        Variant {
            index: 1,
            name: "Index".into(),
            fields: Fields::Unnamed(vec![c]),
        },
        Variant {
            index: 2,
            name: "Raw".into(),
            fields: Fields::Unnamed(vec![bytes]),
        },
    ]));
    let ma = t.add(Node::Special(Special::MultiAddress(ma_enum)));
    let g = &t.g;

    check(g, u8_, "0x2a", "42");
    check(g, u16_, "0x3412", "4660");
    check(g, u64_, "0xffffffffffffffff", "18446744073709551615");
    check(g, i8_, "0xff", "-1");
    check(g, i64_, "0xfeffffffffffffff", "-2");
    check(
        g,
        u256_,
        &format!("0x{}", "ff".repeat(32)),
        "115792089237316195423570985008687907853269984665640564039457584007913129639935",
    );
    check(g, i256_, &format!("0x{}", "ff".repeat(32)), "-1");
    check(g, b, "0x01", "true");
    check(g, ch, "0x41000000", "\"A\"");
    check(g, s, "0x0c616263", "\"abc\"");
    check(g, s, "0x08ff00", "\"0xff00\"");
    check(g, null, "0x", "null");
    check(g, c, "0x00", "0");
    check(g, c, "0xfc", "63");
    check(g, c, "0x0101", "64");
    check(g, c, "0x02000100", "16384");
    check(g, c, "0x0300000040", "1073741824");
    check(
        g,
        c,
        &format!("0x33{}", "ff".repeat(16)),
        &u128::MAX.to_string(),
    );
    check(
        g,
        c256,
        &format!("0x73{}", "ff".repeat(32)),
        "115792089237316195423570985008687907853269984665640564039457584007913129639935",
    );
    check(g, bytes, "0x0c616263", "\"abc\"");
    check(g, bytes, "0x08c328", "\"0xc328\"");
    check(
        g,
        h256,
        &format!("0x{}", "ab".repeat(32)),
        &format!("\"0x{}\"", "ab".repeat(32)),
    );
    check(g, arr, "0x010002000300", "[1, 2, 3]");
    check(g, seq, "0x080100000002000000", "[1, 2]");
    check(g, tup, "0x0701", "[7, true]");
    check(g, tup1, "0x0401000000", "[1]");
    check(g, empty_tup, "0x", "[]");
    check(g, st, "0x0104", r#"{"a": 1, "b": 1}"#);
    check(g, en, "0x00", "\"Unit\"");
    check(g, en, "0x0109", r#"{"One": 9}"#);
    check(g, en, "0x020900", r#"{"Two": [9, false]}"#);
    check(g, en, "0x050100", r#"{"Named": {"x": 1}}"#);
    check(g, en, "0x06", r#"{"Empty": []}"#);
    check(g, opt, "0x00", "null");
    check(g, opt, "0x0105000000", "5");
    check(g, optb, "0x0100", "false");
    check(g, res, "0x0003", r#"{"Ok": 3}"#);
    check(g, res, "0x010461", r#"{"Err": "a"}"#);
    check(g, set, "0x05", r#"["A", "C"]"#);
    check(g, set, "0x00", "[]");
    check(g, bits, "0x1405", "\"0b00101\"");
    check(g, bits, "0x00", "\"0b0\"");
    check(g, bits, "0x240101", "\"0b100000001\"");
    check(g, map, "0x0801000201", "[[1, false], [2, true]]");
    check(
        g,
        acc,
        &format!("0x{}", "11".repeat(32)),
        &format!("\"0x{}\"", "11".repeat(32)),
    );
    check(
        g,
        eth,
        &format!("0x{}", "22".repeat(20)),
        &format!("\"0x{}\"", "22".repeat(20)),
    );
    check(g, idx, "0x05000000", "5");
    check(g, era, "0x00", "\"00\"");
    check(g, era, "0x4e9c", "[32768, 20000]");
    check(g, data, "0x00", r#"{"None": null}"#);
    check(g, data, "0x04616263", r#"{"Raw": "abc"}"#);
    check(
        g,
        data,
        &format!("0x22{}", "33".repeat(32)),
        &format!(r#"{{"BlakeTwo256": "0x{}"}}"#, "33".repeat(32)),
    );
    check(g, hexb, "0x0c616263", "\"0x616263\"");
    check(
        g,
        vote,
        "0x81",
        r#"{"aye": true, "conviction": "Locked1x"}"#,
    );
    check(g, vote, "0x00", r#"{"aye": false, "conviction": "None"}"#);
    check(g, wko, "0x1007000000", "7");
    check(g, wko, "0x0c010203", "\"0x010203\"");
    check(
        g,
        ma,
        &format!("0x00{}", "44".repeat(32)),
        &format!("\"0x{}\"", "44".repeat(32)),
    );
    check(g, ma, "0x0104", "1");
    check(g, ma, "0x020461", r#"{"Raw": "a"}"#);

    // SS58 rendering when a format is set, and SS58 accepted for encoding.
    let ctx = Context::new(g).with_ss58(Some(0));
    let raw = hex(&format!("0x{}", "11".repeat(32)));
    let v = decode_value(&ctx, acc, &raw).unwrap();
    assert!(v.as_str().unwrap().starts_with('1'), "{v}");
    assert_eq!(encode_value(&ctx, acc, &v).unwrap(), raw);
    // py-scale-codec's alternative encode inputs.
    let ctx = Context::new(g);
    assert_eq!(
        encode_value(&ctx, st, &Value::List(vec![Value::UInt(1), Value::UInt(1)])).unwrap(),
        hex("0x0104")
    );
    assert_eq!(
        encode_value(
            &ctx,
            era,
            &Value::Dict(vec![
                ("period".into(), Value::UInt(64)),
                ("current".into(), Value::UInt(1000))
            ])
        )
        .unwrap()
        .len(),
        2
    );
    assert_eq!(
        encode_value(&ctx, ma, &Value::UInt(1)).unwrap(),
        hex("0x0104")
    );
}

#[test]
fn errors_name_type_and_offset() {
    let mut t = G::new();
    let u32_ = t.add(Node::Prim(Prim::U32));
    let seq = t.g.add(Node::Seq(u32_), Some("Vec<u32>".into()));
    let b = t.add(Node::Prim(Prim::Bool));
    let ctx = Context::new(&t.g);
    match decode_value(&ctx, seq, &hex("0x0801000000")) {
        Err(Error::NotEnoughBytes { ty, offset, .. }) => {
            assert_eq!(ty, "Vec<u32>");
            assert_eq!(offset, 0);
        }
        other => panic!("{other:?}"),
    }
    match decode_value(&ctx, b, &hex("0x02")) {
        Err(Error::Invalid {
            offset: 0, reason, ..
        }) => assert!(reason.contains("bool")),
        other => panic!("{other:?}"),
    }
    match decode_value(&ctx, b, &hex("0x0100")) {
        Err(Error::RemainingScaleBytesNotEmpty {
            offset: 1,
            length: 2,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    let (v, used) = decode_prefix(&ctx, b, &hex("0x0100"), &mut ValueSink).unwrap();
    assert_eq!((v, used), (Value::Bool(true), 1));
    let unresolved = t.g.add(Node::Unresolved("Foo".into()), None);
    let ctx = Context::new(&t.g);
    assert!(
        matches!(decode_value(&ctx, unresolved, &[]), Err(Error::Unresolved { name }) if name == "Foo")
    );
    let call = t.g.add(Node::Special(Special::Call), Some("Call".into()));
    let ctx = Context::new(&t.g);
    assert!(matches!(
        decode_value(&ctx, call, &[0, 0]),
        Err(Error::NoRuntime { .. })
    ));
}

#[test]
fn hostile_inputs_fail_before_allocating() {
    let mut t = G::new();
    let bytes = t.add(Node::Bytes);
    let vv = t.g.add(Node::Seq(bytes), Some("Vec<Vec<u8>>".into()));
    let unit = t.add(Node::Tuple(vec![]));
    let vunit = t.add(Node::Seq(unit));
    let u128_ = t.add(Node::Prim(Prim::U128));
    let c = t.add(Node::Compact(u128_));
    // Deep nesting: Option<Option<…>> 1000 levels.
    let mut deep = t.add(Node::Prim(Prim::U8));
    for _ in 0..1000 {
        deep = t.add(Node::Option(deep));
    }
    // A self-referential type.
    let rec = t.g.reserve("Rec".into());
    t.g.set(rec, Node::Option(rec));
    let ctx = Context::new(&t.g);

    // 2^30 elements claimed in 16 bytes.
    let mut input = vec![0x03, 0x00, 0x00, 0x00, 0x40];
    input.resize(16, 0);
    assert!(matches!(
        decode_value(&ctx, vv, &input),
        Err(Error::NotEnoughBytes { offset: 0, .. })
    ));
    // Zero-sized elements: bounded by a fixed cap, not by input.
    assert!(decode_value(&ctx, vunit, &[0x03, 0xff, 0xff, 0xff, 0xff]).is_err());
    assert_eq!(
        decode_value(&ctx, vunit, &[0x0c])
            .unwrap()
            .as_items()
            .map(|i| i.len()),
        Some(3)
    );
    // Compact wider than 128 bits.
    let mut wide = vec![0x17];
    wide.extend([0xff; 9]);
    wide.extend([0; 0]);
    let mut wide = vec![(13u8 << 2) | 3];
    wide.extend([0xff; 17]);
    assert!(
        matches!(decode_value(&ctx, c, &wide), Err(Error::Invalid { reason, .. }) if reason.contains("128 bits"))
    );
    // Deep nesting hits the depth limit.
    let deep_input = vec![1u8; 1001];
    assert!(matches!(
        decode_value(&ctx, deep, &deep_input),
        Err(Error::DepthLimit { limit: 256, .. })
    ));
    assert!(matches!(
        decode_value(&ctx, rec, &[1u8; 100_000]),
        Err(Error::DepthLimit { .. })
    ));
}

#[test]
fn batch_decode_matches_one_by_one() {
    let mut t = G::new();
    let u8_ = t.add(Node::Prim(Prim::U8));
    let b = t.add(Node::Prim(Prim::Bool));
    let ctx = Context::new(&t.g);
    let inputs: Vec<&[u8]> = vec![&[7], &[1], &[2], &[1, 2]];
    let types = [u8_, b, b, u8_];
    let out = batch_decode(&ctx, &types, &inputs).unwrap();
    for ((ty, input), r) in types.iter().zip(&inputs).zip(&out) {
        assert_eq!(r, &decode_value(&ctx, *ty, input));
    }
    assert_eq!(out[0], Ok(Value::UInt(7)));
    assert!(out[2].is_err() && out[3].is_err());
    assert!(matches!(
        batch_decode(&ctx, &[u8_], &[]),
        Err(Error::Usage(_))
    ));
}

/// With an SS58 format, account ids are rendered in groups: over several
/// groups (and a partial one), between other types, with inputs of the wrong
/// length and under formats SS58 reserves, the values equal one-by-one
/// decoding and each address is the account's own.
#[test]
fn batch_decode_renders_accounts_like_one_by_one() {
    let mut t = G::new();
    let account = t.add(Node::Special(Special::AccountId));
    let u8_ = t.add(Node::Prim(Prim::U8));
    let keys: Vec<[u8; 32]> = (0..150u32)
        .map(|i| std::array::from_fn(|j| (i * 31 + j as u32 * 7) as u8))
        .collect();
    let mut types = Vec::new();
    let mut inputs: Vec<&[u8]> = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        types.push(account);
        // Every 17th account is cut short: an error, not a rendered address.
        inputs.push(if i % 17 == 16 { &key[..31] } else { key });
        if i % 5 == 0 {
            types.push(u8_);
            inputs.push(&key[..1]);
        }
    }
    for format in [Some(0), Some(42), Some(7391), Some(46), None] {
        let ctx = Context::new(&t.g).with_ss58(format);
        let out = batch_decode(&ctx, &types, &inputs).unwrap();
        // Format 46 is reserved: accounts stay hex there.
        let ss58 = format.filter(|f| *f != 46);
        let mut rendered = 0;
        for ((ty, input), got) in types.iter().zip(&inputs).zip(&out) {
            assert_eq!(got, &decode_value(&ctx, *ty, input), "format {format:?}");
            if let (Ok(Value::Str(text)), Some(f)) = (got, ss58) {
                let back = ferroscale_core::ss58::decode(text, Some(f)).unwrap();
                assert_eq!(back.payload, *input);
                rendered += 1;
            }
        }
        let expected = if ss58.is_some() { 142 } else { 0 };
        assert_eq!(rendered, expected, "format {format:?}");
    }
}

#[test]
fn legacy_runtime_calls_and_event_records() {
    use ferroscale_dynamic::runtime::{Arg, ExtrinsicFormat, Item, Pallet};
    use ferroscale_dynamic::Runtime;
    let mut t = G::new();
    let u32_ = t.add(Node::Prim(Prim::U32));
    let u128_ = t.add(Node::Prim(Prim::U128));
    let bytes = t.add(Node::Bytes);
    let acc = t.add(Node::Special(Special::AccountId));
    let h256 = t.add(Node::ByteArray(32));
    let topics = t.add(Node::Seq(h256));
    let phase = t.add(Node::Enum(vec![
        Variant {
            index: 0,
            name: "ApplyExtrinsic".into(),
            fields: Fields::Unnamed(vec![u32_]),
        },
        Variant {
            index: 1,
            name: "Finalization".into(),
            fields: Fields::Unit,
        },
    ]));
    let event = t.add(Node::Special(Special::Event));
    let st = t.add(Node::Struct(vec![
        Field {
            name: "phase".into(),
            ty: phase,
        },
        Field {
            name: "event".into(),
            ty: event,
        },
        Field {
            name: "topics".into(),
            ty: topics,
        },
    ]));
    let record = t.add(Node::Special(Special::EventRecord(st)));
    let call = t.add(Node::Special(Special::Call));
    let arg = |name: Option<&str>, tn: &str, ty| Arg {
        name: name.map(Into::into),
        type_name: Some(tn.into()),
        ty,
    };
    let rt = Runtime::new(
        vec![Pallet {
            index: 0,
            event_index: 0,
            name: "Balances".into(),
            calls: vec![Item {
                index: 0,
                name: "remark".into(),
                args: vec![arg(Some("_remark"), "Bytes", bytes)],
            }],
            events: vec![Item {
                index: 1,
                name: "Transfer".into(),
                args: vec![arg(None, "AccountId", acc), arg(None, "Balance", u128_)],
            }],
        }],
        ExtrinsicFormat::default(),
        false,
    );
    let ctx = Context::new(&t.g).with_runtime(&rt);
    let rec_bytes = hex(&format!(
        "0x00010000000001{}{}00",
        "11".repeat(32),
        "05".to_string() + &"00".repeat(15)
    ));
    let v = decode_value(&ctx, record, &rec_bytes).unwrap();
    let account = format!("0x{}", "11".repeat(32));
    assert_eq!(
        v.to_string(),
        format!(
            r#"{{"phase": "ApplyExtrinsic", "extrinsic_idx": 1, "event": {{"event_index": "0001", "module_id": "Balances", "event_id": "Transfer", "attributes": [{{"type": "AccountId", "value": "{account}"}}, {{"type": "Balance", "value": 5}}]}}, "event_index": null, "module_id": "Balances", "event_id": "Transfer", "attributes": [{{"type": "AccountId", "value": "{account}"}}, {{"type": "Balance", "value": 5}}], "topics": []}}"#
        )
    );
    assert_eq!(encode_value(&ctx, record, &v).unwrap(), rec_bytes);
    // Legacy call args are serialised: Bytes as hex even when valid UTF-8.
    let call_bytes = hex("0x0000086869");
    let c = decode_value(&ctx, call, &call_bytes).unwrap();
    let args = c.get("call_args").and_then(Value::as_items).unwrap();
    assert_eq!(args[0].get("value"), Some(&Value::str("0x6869")));
    assert_eq!(args[0].get("type"), Some(&Value::str("Bytes")));
    assert_eq!(c.get("call_index"), Some(&Value::str("0x0000")));
    assert_eq!(encode_value(&ctx, call, &c).unwrap(), call_bytes);
}
