//! The registry: type strings resolved over presets and built-ins, decoded
//! and encoded; caching, overrides, spec switching, recursion, alias cycles,
//! unknown names, hostile definitions and batch decoding.

use ferroscale_dynamic::preset::Preset;
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::Error;
use ferroscale_test_support::Xorshift;
use ferroscale_value::Value;

fn with(presets: &[&str]) -> Registry {
    Registry::with_presets(presets).unwrap_or_else(|e| panic!("{e}"))
}

fn types(json: &str) -> Registry {
    let mut r = Registry::new();
    r.update_types_json(json).unwrap();
    r
}

#[test]
fn built_in_names_decode_without_presets() {
    let mut r = Registry::new();
    let cases: &[(&str, &[u8], Value)] = &[
        ("u32", &[1, 0, 0, 0], Value::UInt(1)),
        ("U32", &[2, 0, 0, 0], Value::UInt(2)),
        ("i16", &[0xff, 0xff], Value::Int(-1)),
        ("bool", &[1], Value::Bool(true)),
        ("Compact<u64>", &[0x15, 0x01], Value::UInt(69)),
        ("Vec<u8>", &[8, b'h', b'i'], Value::str("hi")),
        ("Bytes", &[8, 0xff, 0xfe], Value::str("0xfffe")),
        ("Text", &[8, b'o', b'k'], Value::str("ok")),
        ("[u8; 2]", &[0xab, 0xcd], Value::str("0xabcd")),
        // py-scale-codec 1.2.12: an empty array is `[]`, bytes or not
        ("[u8; 0]", &[], Value::List(vec![])),
        ("[u32; 0]", &[], Value::List(vec![])),
        (
            "H160",
            &[0x11; 20],
            Value::str(format!("0x{}", "11".repeat(20))),
        ),
        (
            "[u16; 2]",
            &[1, 0, 2, 0],
            Value::List(vec![Value::UInt(1), Value::UInt(2)]),
        ),
        (
            "(u8, bool)",
            &[7, 0],
            Value::Tuple(vec![Value::UInt(7), Value::Bool(false)]),
        ),
        ("(u8)", &[7], Value::UInt(7)),
        ("()", &[], Value::Null),
        ("Option<u8>", &[0], Value::Null),
        ("Option<u8>", &[1, 9], Value::UInt(9)),
        (
            "Vec<Option<bool>>",
            &[8, 1, 1, 0],
            Value::List(vec![Value::Bool(true), Value::Null]),
        ),
        (
            "BTreeMap<u8, bool>",
            &[8, 1, 1, 2, 0],
            Value::List(vec![
                Value::Tuple(vec![Value::UInt(1), Value::Bool(true)]),
                Value::Tuple(vec![Value::UInt(2), Value::Bool(false)]),
            ]),
        ),
        (
            "BTreeSet<u16>",
            &[4, 5, 0],
            Value::List(vec![Value::UInt(5)]),
        ),
        ("BoundedVec<u8, MaxLen>", &[4, b'a'], Value::str("a")),
        ("Box<T::u8>", &[3], Value::UInt(3)),
        (
            "AccountId",
            &[0x22; 32],
            Value::str(format!("0x{}", "22".repeat(32))),
        ),
        ("Era", &[0], Value::str("00")),
    ];
    for (ty, bytes, want) in cases {
        let got = r.decode(ty, bytes).unwrap_or_else(|e| panic!("{ty}: {e}"));
        assert_eq!(&got, want, "{ty}");
        // Encoding gives the bytes back.
        let encoded = r
            .encode(ty, &got)
            .unwrap_or_else(|e| panic!("encode {ty}: {e}"));
        assert_eq!(&encoded, bytes, "{ty}");
    }
}

#[test]
fn presets_resolve_py_scale_codec_names() {
    let mut r = with(&["core", "legacy", "polkadot"]);
    assert_eq!(
        r.decode("Balance", &[5; 16]).unwrap().as_u128(),
        Some(u128::from_le_bytes([5; 16]))
    );
    assert_eq!(
        r.decode("Compact<Balance>", &[0x04]).unwrap(),
        Value::UInt(1)
    );
    assert_eq!(
        r.decode("<Balance as HasCompact>::Type", &[0x08]).unwrap(),
        Value::UInt(2)
    );
    assert_eq!(
        r.decode("T::BlockNumber", &[9, 0, 0, 0]).unwrap(),
        Value::UInt(9)
    );
    assert_eq!(
        r.decode("Vec<<T as Trait>::AccountIndex>", &[0]).unwrap(),
        Value::List(vec![])
    );
    // A set: IdentityFields (u64 mask).
    assert_eq!(
        r.decode("IdentityFields", &[0b101, 0, 0, 0, 0, 0, 0, 0])
            .unwrap(),
        Value::List(vec![Value::str("Display"), Value::str("Web")])
    );
    // An enum with value_list, a struct, a type-string key with its own definition.
    assert_eq!(
        r.decode("Conviction", &[2]).unwrap(),
        Value::str("Locked2x")
    );
    let prefs = r
        .decode("ValidatorPrefs", &[0x02, 0x3f, 0xab, 0x01, 0x00])
        .unwrap();
    assert_eq!(prefs.get("blocked"), Some(&Value::Bool(false)));
    assert!(r.resolve("ReferendumInfo<BlockNumber, Hash>").is_ok());
    // Case-insensitive names, like py-scale-codec's lower-cased registry.
    assert_eq!(r.resolve("balance").unwrap(), r.resolve("Balance").unwrap());
    // Explicit enum indices (test.json).
    let mut t = with(&["core", "test"]);
    assert_eq!(
        t.decode("EnumSpecifiedIndex", &[128]).unwrap(),
        Value::str("KAR")
    );
    assert!(t.decode("EnumSpecifiedIndex", &[5]).is_err());
}

#[test]
fn resolutions_are_cached_by_canonical_form() {
    let mut r = with(&["core", "legacy"]);
    let a = r.resolve("Vec<(AccountId, Balance)>").unwrap();
    let nodes = r.graph().len();
    assert_eq!(r.resolve("Vec<(AccountId,Balance)>").unwrap(), a);
    assert_eq!(r.resolve(" Vec< ( T::AccountId , Balance ) > ").unwrap(), a);
    assert_eq!(r.resolve("vec<(accountid, balance)>").unwrap(), a);
    assert_eq!(r.graph().len(), nodes, "no new nodes for a cached type");
}

#[test]
fn later_definitions_override_and_invalidate() {
    let mut r = types(r#"{"Foo": "u8"}"#);
    assert_eq!(r.decode("Vec<Foo>", &[4, 7]).unwrap(), Value::str("\u{7}"));
    r.update_types_json(r#"{"Foo": "u16"}"#).unwrap();
    assert_eq!(
        r.decode("Vec<Foo>", &[4, 7, 0]).unwrap(),
        Value::List(vec![Value::UInt(7)])
    );
    r.clear();
    let err = r.resolve("Foo").unwrap_err().to_string();
    assert!(err.contains("'Foo'"), "{err}");
}

#[test]
fn spec_switching_changes_types() {
    let mut r = with(&["core", "legacy", "polkadot"]);
    r.set_active_spec_version_id(12);
    // OpenTip at spec 12: reason, who, finder: Option<OpenTipFinder>, closes, tips.
    let old = r.resolve("OpenTip").unwrap();
    let mut bytes = vec![0x11; 32]; // reason
    bytes.extend([0x22; 32]); // who
    bytes.push(0); // finder: None
    bytes.push(0); // closes: None
    bytes.push(0); // tips: []
    let v12 = r.decode("OpenTip", &bytes).unwrap();
    assert_eq!(v12.get("finder"), Some(&Value::Null));
    r.set_active_spec_version_id(13);
    let new = r.resolve("OpenTip").unwrap();
    assert_ne!(old, new);
    // The spec-12 encoding is too short for spec 13's struct.
    assert!(r.decode("OpenTip", &bytes).is_err());
    let Value::Dict(fields) = r
        .decode("OpenTip", &{
            let mut b = vec![0x11; 32];
            b.extend([0x22; 32]); // who
            b.extend([0x33; 32]); // finder: AccountId
            b.extend([0; 16]); // deposit
            b.extend([0, 0, 1]); // closes, tips, finders_fee
            b
        })
        .unwrap()
    else {
        panic!()
    };
    let names: Vec<&str> = fields.iter().map(|(k, _)| &**k).collect();
    assert_eq!(
        names,
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
    assert_eq!(r.get_runtime_id_from_upgrades(5_000_000), Some(30));
}

#[test]
fn recursive_definitions_decode() {
    let mut r = types(
        r#"{"Tree": {"type": "struct", "type_mapping": [["value", "u8"], ["children", "Vec<Tree>"]]},
            "Node": "Tree",
            "Expr": {"type": "enum", "type_mapping": [["Leaf", "u8"], ["Neg", "Box<Expr>"], ["Pair", "(ExprRef, ExprRef)"]]},
            "ExprRef": "Expr"}"#,
    );
    let v = r.decode("Node", &[1, 4, 2, 0]).unwrap();
    assert_eq!(
        v.to_string(),
        r#"{"value": 1, "children": [{"value": 2, "children": []}]}"#
    );
    let v = r.decode("Expr", &[2, 0, 5, 1, 0, 6]).unwrap();
    assert_eq!(
        v.to_string(),
        r#"{"Pair": [{"Leaf": 5}, {"Neg": {"Leaf": 6}}]}"#
    );
}

#[test]
fn alias_cycles_fail_or_take_the_earlier_meaning() {
    // A cycle with no earlier meaning: an error naming the chain.
    let mut r = types(r#"{"A": "B", "B": "Vec<C>", "C": "A"}"#);
    let err = r.resolve("A").unwrap_err().to_string();
    assert!(
        err.contains("alias cycle") && err.contains("A → B → C → A"),
        "{err}"
    );
    let mut r = types(r#"{"Selfish": "Selfish"}"#);
    assert!(r
        .resolve("Selfish")
        .unwrap_err()
        .to_string()
        .contains("alias cycle"));
    // A self-alias of a built-in keeps the built-in (legacy.json's "H256": "H256").
    let mut r = types(r#"{"H256": "H256"}"#);
    assert_eq!(
        r.decode("H256", &[0; 32]).unwrap(),
        Value::str(format!("0x{}", "00".repeat(32)))
    );
    // A two-cycle over earlier definitions: py-scale-codec resolved the first
    // alias against the earlier meaning of its target.
    let mut r = types(r#"{"X": "u8", "Y": "u16"}"#);
    r.update_types_json(r#"{"X": "Y", "Y": "X"}"#).unwrap();
    assert_eq!(r.decode("X", &[1, 0]).unwrap(), Value::UInt(1));
    assert_eq!(r.decode("Y", &[1, 0]).unwrap(), Value::UInt(1));
}

#[test]
fn unknown_names_are_named_with_their_place() {
    let mut r = with(&["core"]);
    // The whole type unknown: an error naming it and where it is.
    let err = r.resolve("NoSuchType").unwrap_err();
    assert!(
        matches!(&err, Error::UnknownType { name, .. } if name == "NoSuchType"),
        "{err:?}"
    );
    assert!(err.to_string().contains("'NoSuchType'"), "{err}");
    // Nested: py-scale-codec resolves lazily, so the type resolves, an empty
    // Vec decodes, and decoding an element fails naming the type.
    assert_eq!(
        r.decode("Vec<(u8, NoSuchType)>", &[0]).unwrap(),
        Value::List(vec![])
    );
    let err = r
        .decode("Vec<(u8, NoSuchType)>", &[4, 1, 2])
        .unwrap_err()
        .to_string();
    assert!(err.contains("NoSuchType"), "{err}");
    // The strict form reports it up front, with its place in the string.
    let err = r
        .resolve_strict("Vec<(u8, NoSuchType)>")
        .unwrap_err()
        .to_string();
    assert!(err.contains("'NoSuchType'"), "{err}");
    let err = r
        .resolve("Option<Vec<NoSuchType>>")
        .map(|_| ())
        .and_then(|_| r.resolve("NoSuchType").map(|_| ()));
    assert!(err.unwrap_err().to_string().contains("offset 0"));
    let err = r.resolve("Vec<u8").unwrap_err();
    assert!(
        matches!(err, Error::TypeString(ref e) if e.offset == 6),
        "{err}"
    );
    let mut r = types(r#"{"Outer": {"type": "struct", "type_mapping": [["x", "Missing"]]}}"#);
    assert!(r.resolve("Outer").is_ok());
    let text = r.resolve_strict("Outer").unwrap_err().to_string();
    assert!(
        text.contains("'Missing'") && text.contains("Outer"),
        "{text}"
    );
    let mut r =
        types(r#"{"Odd": {"type": "struct", "base_class": "NoClass", "type_mapping": []}}"#);
    assert!(r
        .resolve("Odd")
        .unwrap_err()
        .to_string()
        .contains("base_class 'NoClass'"));
    // An alias to an unknown name is unknown itself.
    let mut r = types(r#"{"Alias": "Gone"}"#);
    assert!(r
        .resolve("Alias")
        .unwrap_err()
        .to_string()
        .contains("'Gone'"));
    // A scale_info name without a portable registry.
    assert!(Registry::new().resolve("scale_info::3").is_err());
}

#[test]
fn hostile_definitions_fail_cleanly() {
    // A 10,000-long alias chain and 10,000 nested structs: errors, no stack overflow.
    let chain: Vec<String> = (0..10_000)
        .map(|i| format!("\"A{i}\": \"A{}\"", i + 1))
        .collect();
    let mut r = types(&format!("{{{}, \"A10000\": \"u8\"}}", chain.join(", ")));
    let err = r.resolve("A0").unwrap_err().to_string();
    assert!(err.contains("deeper than"), "{err}");
    // A short chain is fine.
    assert_eq!(r.decode("A9950", &[4]).unwrap(), Value::UInt(4));
    let nested: Vec<String> = (0..10_000)
        .map(|i| {
            format!(
                "\"S{i}\": {{\"type\": \"struct\", \"type_mapping\": [[\"f\", \"S{}\"]]}}",
                i + 1
            )
        })
        .collect();
    let mut r = types(&format!("{{{}, \"S10000\": \"u8\"}}", nested.join(", ")));
    assert!(r.resolve("S0").is_err());
    // Shapes py-scale-codec accepts when loading but cannot decode: resolving fails.
    let mut r = types(r#"{"P": {"type": "struct", "type_mapping": [["x", 8]]}}"#);
    assert!(r
        .resolve("P")
        .unwrap_err()
        .to_string()
        .contains("cannot decode"));
    // A set whose value_type is not an integer.
    let mut r = types(r#"{"S": {"type": "set", "value_type": "Bytes", "value_list": {"a": 1}}}"#);
    assert!(r.resolve("S").is_err());
    // Presets loaded from any JSON file work the same.
    let dir = std::env::temp_dir().join(format!("ferroscale-preset-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("custom.json");
    std::fs::write(&file, r#"{"types": {"Pair": "(u8, u8)"}}"#).unwrap();
    let mut r = Registry::new();
    r.update(&Preset::from_file(&file).unwrap());
    assert_eq!(
        r.decode("Pair", &[1, 2]).unwrap(),
        Value::Tuple(vec![Value::UInt(1), Value::UInt(2)])
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn batch_decode_equals_one_by_one() {
    let mut r = with(&["core", "legacy"]);
    let types = ["u8", "Compact<Balance>", "u8", "Nope", "Vec<u16>", "u8"];
    let data: [&[u8]; 6] = [&[1], &[0x08], &[1, 2], &[0], &[4, 1, 0], &[]];
    let batch = r.batch_decode(&types, &data).unwrap();
    for ((t, d), got) in types.iter().zip(data).zip(&batch) {
        let alone = r.decode(t, d);
        assert_eq!(got, &alone, "{t}");
    }
    assert!(batch[2].is_err(), "trailing bytes are an error");
    assert!(batch[3].is_err() && batch[5].is_err());
    assert_eq!(batch[4], Ok(Value::List(vec![Value::UInt(1)])));
    assert!(r.batch_decode(&types, &data[..2]).is_err());
}

#[test]
fn portable_metadata_names_resolve_through_the_registry() {
    let mut r = with(&["core"]);
    r.load_metadata(&ferroscale_fixtures::read(
        "metadata/polkadot-v14-spec9180.scale",
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let portable = r.portable().expect("portable registry").clone();
    // scale_info::N is node base + N; path names resolve case-insensitively.
    assert_eq!(
        r.resolve("scale_info::0").unwrap(),
        portable.idx(0).unwrap()
    );
    let account = r.resolve("sp_core::crypto::AccountId32").unwrap();
    assert_eq!(r.resolve("SP_CORE::crypto::accountid32").unwrap(), account);
    // Like add_portable_registry: AccountId/Address/ExtrinsicSignature point
    // into the registry (MultiAddress's AccountId parameter for AccountId).
    let account_id = r.resolve("AccountId").unwrap();
    assert_eq!(
        r.graph().node(account_id),
        r.graph().node(account),
        "AccountId is an AccountId32 of the registry"
    );
    assert_eq!(
        r.graph().node(account_id),
        &ferroscale_dynamic::Node::Special(ferroscale_dynamic::Special::AccountId)
    );
    let address = r.resolve("Address").unwrap();
    assert_eq!(r.resolve("LookupSource").unwrap(), address);
    assert_ne!(address, account_id);
    assert!(r.resolve("ExtrinsicSignature").is_ok());
    let v = r.decode("Vec<scale_info::0>", &[0]).unwrap();
    assert_eq!(v, Value::List(vec![]));
    // Extrinsics of block 10,000,000 decode through the registry's runtime.
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/extrinsics.json",
    ))
    .unwrap();
    for hex in &list {
        let xt = r
            .decode("Extrinsic", &ferroscale_fixtures::decode_hex(hex).unwrap())
            .unwrap();
        assert!(xt.get("call").is_some());
    }
    // Out of range ids are unknown.
    let err = r
        .resolve(&format!("scale_info::{}", portable.count))
        .unwrap_err();
    assert!(err.to_string().contains("no such type"), "{err}");
}

#[test]
fn random_type_strings_resolve_or_fail_cleanly() {
    // Names from the presets mixed with generic syntax; whatever resolves is
    // decoded from a few bytes. Nothing may panic or hang.
    const PIECES: &[&str] = &[
        "Vec<",
        "Option<",
        "Compact<",
        "BTreeMap<",
        "(",
        ")",
        ">",
        ", ",
        "[",
        "; 3]",
        "u8",
        "u32",
        "Balance",
        "AccountId",
        "Call",
        "Era",
        "OpenTip",
        "ValidatorPrefs",
        "IdentityInfo",
        "Nope",
        "T::",
        "Box<",
        "()",
        "Extrinsic",
        "MultiAddress",
        "Data",
        "H256",
        "Bytes",
    ];
    let mut r = with(&["core", "legacy", "polkadot"]);
    let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
    let (mut resolved, mut decoded) = (0, 0);
    for _ in 0..5_000 {
        let len = 1 + rng.below(8);
        let s: String = (0..len).map(|_| *rng.pick(PIECES)).collect();
        if r.resolve(&s).is_ok() {
            resolved += 1;
            let bytes: Vec<u8> = (0..rng.below(40)).map(|_| rng.next_u8()).collect();
            if r.decode(&s, &bytes).is_ok() {
                decoded += 1;
            }
            let _ = r.resolve_strict(&s);
        }
    }
    println!("{resolved} random type strings resolved, {decoded} decoded random bytes");
    assert!(resolved > 50);
}

#[test]
fn generic_bases_follow_aliases() {
    // A base renamed by an alias takes the arguments; a self-alias of a
    // built-in base keeps the built-in; a definition ignores arguments.
    let mut r = types(
        r#"{"MyVec": "Vec", "Vec": "Vec", "Wrapper": {"type": "struct", "type_mapping": [["x", "u8"]]}}"#,
    );
    assert_eq!(
        r.decode("MyVec<u16>", &[4, 1, 0]).unwrap(),
        Value::List(vec![Value::UInt(1)])
    );
    assert_eq!(
        r.decode("Vec<u16>", &[4, 1, 0]).unwrap(),
        Value::List(vec![Value::UInt(1)])
    );
    assert_eq!(
        r.decode("Wrapper<Whatever>", &[7]).unwrap().get("x"),
        Some(&Value::UInt(7))
    );
}

#[test]
fn empty_byte_array_encodes_from_empty_hex_and_none() {
    let mut r = Registry::new();
    for v in [Value::str("0x"), Value::Null, Value::List(vec![])] {
        assert_eq!(r.encode("[u8; 0]", &v).unwrap(), Vec::<u8>::new(), "{v}");
    }
    assert!(r.encode("[u8; 0]", &Value::str("0x00")).is_err());
}

#[test]
fn i256_encodes_every_value_of_256_bits_twos_complement() {
    // py-scale-codec 1.2.12 encodes -2^255 ..= 2^255 - 1; values of 128 bits or
    // more reach the encoder unsigned (U256) or, below 2^128, as UInt.
    let mut r = Registry::new();
    let mut le = [0u8; 32];
    le[16] = 1; // 2^128
    let big = Value::U256(Box::new(le));
    assert_eq!(r.encode("i256", &big).unwrap(), le.to_vec());
    assert_eq!(r.decode("i256", &le).unwrap().to_string(), big.to_string());
    let mut max = [0xffu8; 32];
    max[31] = 0x7f; // 2^255 - 1
    assert_eq!(
        r.encode("i256", &Value::U256(Box::new(max))).unwrap(),
        max.to_vec()
    );
    let mut top = [0u8; 32];
    top[31] = 0x80; // 2^255: out of range
    assert!(r.encode("i256", &Value::U256(Box::new(top))).is_err());
    let mut want = [0u8; 32];
    want[..16].copy_from_slice(&u128::MAX.to_le_bytes());
    assert_eq!(
        r.encode("i256", &Value::UInt(u128::MAX)).unwrap(),
        want.to_vec()
    );
    assert_eq!(r.encode("i256", &Value::Int(-1)).unwrap(), vec![0xff; 32]);
}
