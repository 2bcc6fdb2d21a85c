//! Calls by name and signature payloads over real metadata and real signed
//! extrinsics.
//!
//! The payload of each real signed extrinsic of Polkadot block 18,468,942
//! (spec 1000001, V14) is checked against an
//! expectation built by hand: the call's bytes and the extension bytes cut
//! out of the extrinsic as the chain has them (between the signature and the
//! call), then the spec and transaction versions (Polkadot's, known), the
//! genesis hash and the era's checkpoint, laid out as FRAME signs them.
//! `CheckMetadataHash` (Polkadot 2003000, V16) and the hash of a long
//! payload are checked the same way; `encode_call` gives the bytes a `Call`
//! value encodes to, and bad input is an error naming what is wrong.

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{CallArgs, Error, ExtensionValues, PayloadInput};
use ferroscale_metadata::Metadata;
use ferroscale_value::Value;

/// Polkadot's genesis hash.
const POLKADOT_GENESIS: &str = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3";

fn hex(s: &str) -> Vec<u8> {
    ferroscale_fixtures::decode_hex(s).expect("hex")
}

fn registry(name: &str) -> Registry {
    let md = Metadata::load(&ferroscale_fixtures::read(name)).expect("metadata loads");
    Registry::from_metadata(&md).expect("registry")
}

fn compact_len(bytes: &[u8]) -> usize {
    match bytes[0] & 3 {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => (bytes[0] >> 2) as usize + 5,
    }
}

fn compact(n: u128) -> Vec<u8> {
    let mut out = Vec::new();
    if n < 1 << 6 {
        out.push((n as u8) << 2);
    } else if n < 1 << 14 {
        out.extend_from_slice(&(((n as u16) << 2) | 1).to_le_bytes());
    } else if n < 1 << 30 {
        out.extend_from_slice(&(((n as u32) << 2) | 2).to_le_bytes());
    } else {
        let bytes = n.to_le_bytes();
        let len = 16 - (n.leading_zeros() / 8) as usize;
        out.push((((len - 4) as u8) << 2) | 3);
        out.extend_from_slice(&bytes[..len]);
    }
    out
}

/// What FRAME signs, when longer than 256 bytes its BLAKE2b-256 hash.
fn signed(payload: Vec<u8>) -> Vec<u8> {
    if payload.len() > 256 {
        ferroscale_core::hashing::blake2_256(&payload).to_vec()
    } else {
        payload
    }
}

/// For each signed extrinsic of `block` under `metadata` (Polkadot, whose
/// signed extensions with data are era, nonce and tip, and spec and
/// transaction versions `versions`): the payload equals the hand-built one.
fn real_extrinsics_sign_as_built_by_hand(metadata: &str, block: &str, versions: (u32, u32)) {
    let mut registry = registry(metadata);
    assert_eq!(
        registry.runtime_versions().expect("System.Version"),
        versions
    );
    let identifiers: Vec<&str> = registry
        .runtime()
        .unwrap()
        .extrinsic
        .signing
        .iter()
        .map(|e| &*e.identifier)
        .collect();
    assert_eq!(
        &identifiers[1..8],
        [
            "CheckSpecVersion",
            "CheckTxVersion",
            "CheckGenesis",
            "CheckMortality",
            "CheckNonce",
            "CheckWeight",
            "ChargeTransactionPayment"
        ]
    );
    let list: Vec<String> =
        serde_json::from_str(&ferroscale_fixtures::read_string(block)).expect("json");
    let genesis = hex(POLKADOT_GENESIS);
    let checkpoint = vec![0x22; 32];
    let mut signed_count = 0;
    for (i, h) in list.iter().enumerate() {
        let bytes = hex(h);
        let value = registry
            .decode("Extrinsic", &bytes)
            .expect("extrinsic decodes");
        if value.get("address").is_none() {
            continue;
        }
        signed_count += 1;
        let body = &bytes[compact_len(&bytes)..];
        assert_eq!(body[0], 0x84, "extrinsic {i}: signed, format 4");
        // MultiAddress::Id (1 + 32), MultiSignature (1 + 64, ECDSA 1 + 65).
        assert_eq!(body[1], 0, "extrinsic {i}: an account id address");
        let signature_end = 34 + 1 + if body[34] == 2 { 65 } else { 64 };
        let call = value.get("call").expect("call");
        let call_bytes = registry.encode("Call", call).expect("call encodes");
        assert!(
            body.ends_with(&call_bytes),
            "extrinsic {i}: the call ends it"
        );
        let extension_bytes = &body[signature_end..body.len() - call_bytes.len()];

        let era = value.get("era").expect("era").clone();
        let immortal = extension_bytes[0] == 0;
        let mut expected = call_bytes.clone();
        expected.extend_from_slice(extension_bytes);
        expected.extend_from_slice(&versions.0.to_le_bytes());
        expected.extend_from_slice(&versions.1.to_le_bytes());
        expected.extend_from_slice(&genesis);
        expected.extend_from_slice(if immortal { &genesis } else { &checkpoint });

        let input = PayloadInput {
            era,
            nonce: value.get("nonce").expect("nonce").clone(),
            tip: value.get("tip").expect("tip").clone(),
            genesis_hash: Some(genesis.clone()),
            block_hash: (!immortal).then(|| checkpoint.clone()),
            ..registry.payload_input().expect("versions")
        };
        let payload = registry
            .signature_payload(&call_bytes, &input)
            .unwrap_or_else(|e| panic!("extrinsic {i}: {e}"));
        assert_eq!(
            ferroscale_core::hex::encode_prefixed(&payload),
            ferroscale_core::hex::encode_prefixed(&signed(expected)),
            "extrinsic {i} of {block}"
        );
    }
    assert!(signed_count > 0, "{block} has signed extrinsics");
}

#[test]
fn polkadot_block_18468942_signed_extrinsics() {
    real_extrinsics_sign_as_built_by_hand(
        "metadata/polkadot-v14-spec1000001.scale",
        "payloads/polkadot-block-18468942/extrinsics.json",
        (1000001, 24),
    );
}

/// Polkadot 2003000 (V16) signs `CheckMetadataHash`'s mode and hash; a
/// payload longer than 256 bytes is signed as its hash.
#[test]
fn metadata_hash_and_long_payloads_polkadot_v16() {
    let mut registry = registry("metadata/polkadot-v16-spec2003000.scale");
    let identifiers: Vec<String> = registry
        .runtime()
        .unwrap()
        .extrinsic
        .signing
        .iter()
        .map(|e| e.identifier.to_string())
        .collect();
    assert_eq!(
        identifiers.last().map(String::as_str),
        Some("CheckMetadataHash")
    );
    let (spec, tx) = registry.runtime_versions().expect("System.Version");
    assert_eq!(spec, 2003000);
    let genesis = hex(POLKADOT_GENESIS);
    let checkpoint = vec![0x22; 32];
    let metadata_hash = vec![0x33; 32];
    for remark_len in [10usize, 400] {
        let remark = Value::hex(&vec![0xab; remark_len]);
        let args = Value::Dict(vec![("remark".into(), remark.clone())]);
        let call = registry
            .encode_call("System", "remark", CallArgs::ByNameStrict(&args))
            .expect("call");
        for hash in [None, Some(metadata_hash.clone())] {
            let input = PayloadInput {
                era: Value::Dict(vec![
                    ("period".into(), Value::UInt(64)),
                    ("current".into(), Value::UInt(1000)),
                ]),
                nonce: Value::UInt(5),
                tip: Value::UInt(1_000_000),
                genesis_hash: Some(genesis.clone()),
                block_hash: Some(checkpoint.clone()),
                metadata_hash: hash.clone(),
                ..registry.payload_input().unwrap()
            };
            let mut expected = call.clone();
            // Era period 64, phase 1000 % 64 = 40: (log2(64) - 1) | 40 << 4.
            expected.extend_from_slice(&(5u16 | 40 << 4).to_le_bytes());
            expected.extend(compact(5));
            expected.extend(compact(1_000_000));
            expected.push(u8::from(hash.is_some()));
            expected.extend_from_slice(&spec.to_le_bytes());
            expected.extend_from_slice(&tx.to_le_bytes());
            expected.extend_from_slice(&genesis);
            expected.extend_from_slice(&checkpoint);
            match &hash {
                None => expected.push(0),
                Some(h) => {
                    expected.push(1);
                    expected.extend_from_slice(h);
                }
            }
            let long = expected.len() > 256;
            assert_eq!(long, remark_len > 256);
            let payload = registry.signature_payload(&call, &input).expect("payload");
            assert_eq!(payload, signed(expected));
            assert_eq!(payload.len() == 32, long);
        }
    }
}

/// `encode_call` gives a `Call` value's bytes, by name and by position.
#[test]
fn encode_call_is_the_call_values_encoding() {
    let mut registry = registry("metadata/polkadot-v14-spec9180.scale");
    registry.set_ss58_format(Some(0));
    let dest = Value::str("0x".to_owned() + &"d4".repeat(32));
    let named = Value::Dict(vec![
        ("dest".into(), dest.clone()),
        ("value".into(), Value::UInt(10u128.pow(12))),
    ]);
    let call_value = Value::Dict(vec![
        ("call_module".into(), Value::str("Balances")),
        ("call_function".into(), Value::str("transfer_keep_alive")),
        ("call_args".into(), named.clone()),
    ]);
    let expected = registry.encode("Call", &call_value).expect("Call value");
    let by_name = registry
        .encode_call(
            "Balances",
            "transfer_keep_alive",
            CallArgs::ByNameStrict(&named),
        )
        .unwrap();
    let positional = [dest.clone(), Value::UInt(10u128.pow(12))];
    let by_position = registry
        .encode_call(
            "Balances",
            "transfer_keep_alive",
            CallArgs::ByPosition(&positional),
        )
        .unwrap();
    assert_eq!(by_name, expected);
    assert_eq!(by_position, expected);
    // A call holding calls: Utility.batch of the transfer, given as a value.
    let batch = Value::Dict(vec![(
        "calls".into(),
        Value::List(vec![call_value.clone()]),
    )]);
    let batch_bytes = registry
        .encode_call("Utility", "batch", CallArgs::ByNameStrict(&batch))
        .unwrap();
    let mut expected_batch = vec![batch_bytes[0], batch_bytes[1], 4];
    expected_batch.extend_from_slice(&expected);
    assert_eq!(batch_bytes, expected_batch);

    let err = |pallet: &str, call: &str, args: CallArgs<'_>, registry: &mut Registry| {
        registry
            .encode_call(pallet, call, args)
            .unwrap_err()
            .to_string()
    };
    let e = err(
        "Balancez",
        "transfer",
        CallArgs::ByNameStrict(&named),
        &mut registry,
    );
    assert!(e.contains("pallet 'Balancez' not found"), "{e}");
    let e = err(
        "Balances",
        "transfer_all_of_it",
        CallArgs::ByNameStrict(&named),
        &mut registry,
    );
    assert!(e.contains("'Balances.transfer_all_of_it' not found"), "{e}");
    let typo = Value::Dict(vec![
        ("dst".into(), dest.clone()),
        ("value".into(), Value::UInt(1)),
    ]);
    let e = err(
        "Balances",
        "transfer_keep_alive",
        CallArgs::ByNameStrict(&typo),
        &mut registry,
    );
    assert!(
        e.contains("no argument 'dst'") && e.contains("dest, value"),
        "{e}"
    );
    let e = err(
        "Balances",
        "transfer_keep_alive",
        CallArgs::ByPosition(&positional[..1]),
        &mut registry,
    );
    assert!(
        e.contains("1 argument(s) given by position, the call takes 2"),
        "{e}"
    );
    let bad = Value::Dict(vec![
        ("dest".into(), dest),
        ("value".into(), Value::str("lots")),
    ]);
    let e = err(
        "Balances",
        "transfer_keep_alive",
        CallArgs::ByNameStrict(&bad),
        &mut registry,
    );
    assert!(
        e.contains("argument 'value' of Balances.transfer_keep_alive"),
        "{e}"
    );
}

/// An extension with data that is not FRAME's takes its values from
/// `extensions`, and without them is an error naming it; an immortal era
/// refuses a checkpoint that is not the genesis; a mortal one needs one.
#[test]
fn other_extensions_and_checkpoints() {
    let mut registry = registry("metadata/polkadot-v14-spec9180.scale");
    let call = registry
        .encode_call(
            "System",
            "remark",
            CallArgs::ByPosition(&[Value::str("0x00")]),
        )
        .unwrap();
    let genesis = hex(POLKADOT_GENESIS);
    let base = PayloadInput {
        genesis_hash: Some(genesis.clone()),
        ..registry.payload_input().unwrap()
    };
    let plain = registry.signature_payload(&call, &base).unwrap();
    // In place of what the fields give: the nonce as CheckNonce's value.
    let with_nonce = PayloadInput {
        extensions: vec![(
            "CheckNonce".into(),
            ExtensionValues {
                extrinsic: Some(Value::UInt(7)),
                additional_signed: None,
            },
        )],
        ..base.clone()
    };
    let by_field = PayloadInput {
        nonce: Value::UInt(7),
        ..base.clone()
    };
    assert_eq!(
        registry.signature_payload(&call, &with_nonce).unwrap(),
        registry.signature_payload(&call, &by_field).unwrap()
    );
    assert_ne!(plain, registry.signature_payload(&call, &by_field).unwrap());

    let unknown = PayloadInput {
        extensions: vec![("CheckNothing".into(), ExtensionValues::default())],
        ..base.clone()
    };
    let e = registry
        .signature_payload(&call, &unknown)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("no signed extension 'CheckNothing'") && e.contains("CheckNonce"),
        "{e}"
    );

    let wrong_checkpoint = PayloadInput {
        block_hash: Some(vec![0x22; 32]),
        ..base.clone()
    };
    let e = registry
        .signature_payload(&call, &wrong_checkpoint)
        .unwrap_err();
    assert!(
        matches!(e, Error::Usage(_)) && e.to_string().contains("immortal"),
        "{e}"
    );
    let genesis_checkpoint = PayloadInput {
        block_hash: Some(genesis.clone()),
        ..base.clone()
    };
    assert_eq!(
        registry
            .signature_payload(&call, &genesis_checkpoint)
            .unwrap(),
        plain
    );
    let mortal = PayloadInput {
        era: Value::Tuple(vec![Value::UInt(64), Value::UInt(40)]),
        ..base.clone()
    };
    let e = registry
        .signature_payload(&call, &mortal)
        .unwrap_err()
        .to_string();
    assert!(e.contains("give block_hash"), "{e}");

    // An extension with data that is not FRAME's (no fixture has one with
    // data: Polkadot's CheckNonce renamed stands for it).
    let mut md = Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v14-spec9180.scale",
    ))
    .expect("metadata");
    let x = &mut md.extrinsic.signed_extensions;
    let nonce = x.iter_mut().find(|e| e.identifier == "CheckNonce").unwrap();
    nonce.identifier = "CustomNonce".into();
    let mut custom = Registry::from_metadata(&md).expect("registry");
    let input = PayloadInput {
        genesis_hash: Some(genesis.clone()),
        ..custom.payload_input().unwrap()
    };
    let e = custom
        .signature_payload(&call, &input)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("signed extension 'CustomNonce' carries data in its extrinsic part")
            && e.contains("extensions={\"CustomNonce\""),
        "{e}"
    );
    let given = PayloadInput {
        extensions: vec![(
            "CustomNonce".into(),
            ExtensionValues {
                extrinsic: Some(Value::UInt(7)),
                additional_signed: None,
            },
        )],
        ..input
    };
    assert_eq!(
        custom.signature_payload(&call, &given).unwrap(),
        registry.signature_payload(&call, &by_field).unwrap()
    );
}
