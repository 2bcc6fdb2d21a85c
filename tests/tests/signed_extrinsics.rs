//! Signed extrinsics of Polkadot spec 9180 decode with the generated
//! `UncheckedExtrinsic` into the address, signature, signed extensions and
//! call they were built from, and re-encode to the same bytes.
//!
//! Block 10,000,000 holds only unsigned inherents, so the signed path is
//! exercised here with extrinsics assembled byte by byte from the metadata:
//! the signed extensions' order and types, and the pallet and call indices,
//! come from the spec-9180 fixture, not from the generated code; the calls
//! are hand-encoded ones plus the two real calls of the block. Every address
//! kind, every signature kind, immortal and mortal eras, and nonces and tips
//! across the compact widths are combined.

use ferroscale_metadata::Metadata;
use ferroscale_runtime_types::{decode_all, AccountId32, MultiAddress};
use ferroscale_tests::polkadot_9180::{
    self as rt,
    runtime_types::{frame_system, pallet_balances, pallet_utility, sp_core, sp_runtime},
};
use parity_scale_codec::{Compact, Encode};
use scale_info::TypeDef;

const FIXTURE: &str = "metadata/polkadot-v14-spec9180.scale";

fn metadata() -> Metadata {
    Metadata::load(&ferroscale_fixtures::read(FIXTURE)).expect("spec 9180 loads")
}

fn compact(n: u128) -> Vec<u8> {
    Compact(n).encode()
}

/// `[pallet index, call index]` of a call, from the metadata.
fn call_prefix(m: &Metadata, pallet: &str, call: &str) -> [u8; 2] {
    let p = m
        .pallet(pallet)
        .unwrap_or_else(|| panic!("no pallet {pallet}"));
    let calls = p.call_enum.as_ref().expect("pallet has calls");
    let v = calls
        .variant_named(call)
        .unwrap_or_else(|| panic!("no call {pallet}.{call}"));
    [calls.pallet_index, v.index]
}

/// A call's bytes and the value the generated types must decode them to.
struct BuiltCall {
    label: String,
    bytes: Vec<u8>,
    expected: rt::RuntimeCall,
}

fn remark(m: &Metadata, text: &[u8]) -> BuiltCall {
    let mut bytes = call_prefix(m, "System", "remark").to_vec();
    bytes.extend(compact(text.len() as u128));
    bytes.extend_from_slice(text);
    BuiltCall {
        label: format!("System.remark({} bytes)", text.len()),
        bytes,
        expected: rt::RuntimeCall::System(frame_system::pallet::Call::remark {
            remark: text.to_vec(),
        }),
    }
}

fn transfer(m: &Metadata, call: &str, to: [u8; 32], value: u128) -> BuiltCall {
    let mut bytes = call_prefix(m, "Balances", call).to_vec();
    bytes.push(0); // MultiAddress::Id
    bytes.extend_from_slice(&to);
    bytes.extend(compact(value));
    let dest = MultiAddress::Id(AccountId32::from(to));
    let expected = rt::RuntimeCall::Balances(match call {
        "transfer" => pallet_balances::pallet::Call::transfer { dest, value },
        "transfer_keep_alive" => pallet_balances::pallet::Call::transfer_keep_alive { dest, value },
        other => panic!("no expected value for Balances.{other}"),
    });
    BuiltCall {
        label: format!("Balances.{call}({value})"),
        bytes,
        expected,
    }
}

fn batch(m: &Metadata, inner: Vec<BuiltCall>) -> BuiltCall {
    let mut bytes = call_prefix(m, "Utility", "batch").to_vec();
    bytes.extend(compact(inner.len() as u128));
    for c in &inner {
        bytes.extend_from_slice(&c.bytes);
    }
    BuiltCall {
        label: format!("Utility.batch of {}", inner.len()),
        bytes,
        // Boxed: the call enum contains itself through this variant.
        expected: rt::RuntimeCall::Utility(Box::new(pallet_utility::pallet::Call::batch {
            calls: inner.into_iter().map(|c| c.expected).collect(),
        })),
    }
}

/// The two calls of block 10,000,000 (timestamp and parachains inherent),
/// cut out of their unsigned extrinsics; expected values are those the
/// unsigned extrinsics decode to (their round-trip is tested elsewhere).
fn block_calls() -> Vec<BuiltCall> {
    let text = ferroscale_fixtures::read_string("payloads/polkadot-block-10000000/extrinsics.json");
    let list: Vec<String> = serde_json::from_str(&text).expect("a list of hex strings");
    list.iter()
        .enumerate()
        .map(|(i, hex)| {
            let bytes = ferroscale_fixtures::decode_hex(hex).expect("hex");
            let unsigned: rt::UncheckedExtrinsic = decode_all(&bytes).expect("decodes");
            assert!(unsigned.signature().is_none());
            // Past the length prefix and the version byte.
            let mut rest = &bytes[..];
            let _: Compact<u32> = parity_scale_codec::Decode::decode(&mut rest).unwrap();
            assert_eq!(rest[0], 0x04, "an unsigned version-4 extrinsic");
            BuiltCall {
                label: format!("block 10000000 call {i}"),
                bytes: rest[1..].to_vec(),
                expected: unsigned.function,
            }
        })
        .collect()
}

/// An address kind: its bytes and the value they decode to.
fn addresses() -> Vec<(Vec<u8>, rt::Address)> {
    let mut raw = vec![2u8];
    raw.extend(compact(3));
    raw.extend_from_slice(&[0xaa, 0xbb, 0xcc]);
    vec![
        (
            [vec![0], vec![0x11; 32]].concat(),
            MultiAddress::Id(AccountId32::from([0x11; 32])),
        ),
        // The account index is `()` in this runtime: nothing follows.
        (vec![1], MultiAddress::Index(())),
        (raw, MultiAddress::Raw(vec![0xaa, 0xbb, 0xcc])),
        (
            [vec![3], vec![0x33; 32]].concat(),
            MultiAddress::Address32([0x33; 32]),
        ),
        (
            [vec![4], vec![0x44; 20]].concat(),
            MultiAddress::Address20([0x44; 20]),
        ),
    ]
}

fn signatures() -> Vec<(Vec<u8>, rt::Signature)> {
    vec![
        (
            [vec![0], vec![0xe1; 64]].concat(),
            sp_runtime::MultiSignature::Ed25519(sp_core::ed25519::Signature([0xe1; 64])),
        ),
        (
            [vec![1], vec![0x51; 64]].concat(),
            sp_runtime::MultiSignature::Sr25519(sp_core::sr25519::Signature([0x51; 64])),
        ),
        (
            [vec![2], vec![0xec; 65]].concat(),
            sp_runtime::MultiSignature::Ecdsa(sp_core::ecdsa::Signature([0xec; 65])),
        ),
    ]
}

/// Era bytes: immortal (one zero byte) and mortal (two bytes, first non-zero).
const ERAS: [&[u8]; 3] = [&[0x00], &[0xb5, 0x03], &[0x15, 0x01]];
const NONCES: [u32; 6] = [0, 63, 64, 16_383, 16_384, u32::MAX];
const TIPS: [u128; 5] = [0, 1, 1 << 30, 1 << 64, u128::MAX];

/// The signed extensions of spec 9180 in metadata order; what each adds to
/// the extrinsic is checked against its registry type.
const EXTENSIONS: [&str; 9] = [
    "CheckNonZeroSender",
    "CheckSpecVersion",
    "CheckTxVersion",
    "CheckGenesis",
    "CheckMortality",
    "CheckNonce",
    "CheckWeight",
    "ChargeTransactionPayment",
    "PrevalidateAttests",
];

/// The extra bytes, extension by extension in metadata order.
fn extra_bytes(m: &Metadata, era: &[u8], nonce: u32, tip: u128) -> Vec<u8> {
    let types = m.types.as_ref().unwrap();
    let mut out = Vec::new();
    for ext in m.extrinsic.extensions_for_version(0) {
        let ty = types.resolve(ext.ty.unwrap()).unwrap();
        match ext.identifier.as_str() {
            "CheckMortality" => out.extend_from_slice(era),
            "CheckNonce" => out.extend(Compact(nonce).encode()),
            "ChargeTransactionPayment" => out.extend(compact(tip)),
            other => {
                // Every other extension carries nothing in the extrinsic.
                let empty = match &ty.type_def {
                    TypeDef::Composite(c) => c.fields.is_empty(),
                    TypeDef::Tuple(t) => t.fields.is_empty(),
                    _ => false,
                };
                assert!(empty, "extension {other} carries data: {:?}", ty.type_def);
            }
        }
    }
    out
}

/// Bytes of an extrinsic's compact length prefix.
fn prefix_len(bytes: &[u8]) -> usize {
    let mut rest = bytes;
    let _: Compact<u32> = parity_scale_codec::Decode::decode(&mut rest).expect("a length prefix");
    bytes.len() - rest.len()
}

fn extrinsic(signed_part: &[u8], call: &[u8]) -> Vec<u8> {
    let mut inner = vec![0x84];
    inner.extend_from_slice(signed_part);
    inner.extend_from_slice(call);
    [compact(inner.len() as u128), inner].concat()
}

#[test]
fn the_fixture_names_the_extensions_this_test_builds() {
    let m = metadata();
    let names: Vec<&str> = m
        .extrinsic
        .extensions_for_version(0)
        .iter()
        .map(|e| e.identifier.as_str())
        .collect();
    assert_eq!(names, EXTENSIONS);
}

#[test]
fn built_signed_extrinsics_decode_to_their_parts_and_reencode() {
    let m = metadata();
    let mut calls = vec![
        remark(&m, b""),
        remark(&m, &[0x5a; 300]),
        transfer(&m, "transfer", [0x77; 32], 12_345_678_901),
        transfer(&m, "transfer_keep_alive", [0x78; 32], u128::MAX),
        batch(
            &m,
            vec![
                remark(&m, b"ferroscale"),
                transfer(&m, "transfer", [0x79; 32], 1),
            ],
        ),
    ];
    calls.extend(block_calls());
    let mut checked = 0usize;
    for call in &calls {
        for (address_bytes, address) in addresses() {
            for (signature_bytes, signature) in signatures() {
                for (e, era) in ERAS.iter().enumerate() {
                    let nonce = NONCES[(checked + e) % NONCES.len()];
                    let tip = TIPS[checked % TIPS.len()];
                    let signed_part = [
                        address_bytes.clone(),
                        signature_bytes.clone(),
                        extra_bytes(&m, era, nonce, tip),
                    ]
                    .concat();
                    let bytes = extrinsic(&signed_part, &call.bytes);
                    let what = format!("{} nonce {nonce} tip {tip} era {era:02x?}", call.label);
                    let xt: rt::UncheckedExtrinsic =
                        decode_all(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
                    let signed = xt.signature().expect("signed");
                    assert_eq!(signed.address, address, "{what}");
                    assert_eq!(signed.signature, signature, "{what}");
                    let (_, _, _, _, mortality, check_nonce, _, payment, _) = &signed.extra;
                    assert_eq!(mortality.0.encode(), *era, "{what}: era");
                    assert_eq!(check_nonce.0, nonce, "{what}: nonce");
                    assert_eq!(payment.0, tip, "{what}: tip");
                    assert!(xt.function == call.expected, "{what}: call differs");
                    assert_eq!(xt.encode(), bytes, "{what}: re-encoding differs");
                    checked += 1;
                }
            }
        }
    }
    let expected = calls.len() * addresses().len() * signatures().len() * ERAS.len();
    assert_eq!(checked, expected);
    eprintln!("{checked} signed spec-9180 extrinsics decode to their parts and re-encode");
}

#[test]
fn damaged_signed_extrinsics_are_errors() {
    let m = metadata();
    let call = remark(&m, b"x");
    let (address, _) = addresses().remove(0);
    let (signature, _) = signatures().remove(1);
    let extra = extra_bytes(&m, ERAS[1], 7, 9);
    let good = extrinsic(
        &[address.clone(), signature.clone(), extra.clone()].concat(),
        &call.bytes,
    );
    decode_all::<rt::UncheckedExtrinsic>(&good).expect("the undamaged one decodes");
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    // A signature kind the runtime does not have.
    let mut bad_signature = signature.clone();
    bad_signature[0] = 3;
    cases.push((
        "signature kind 3",
        extrinsic(
            &[address.clone(), bad_signature, extra.clone()].concat(),
            &call.bytes,
        ),
    ));
    // An address kind the runtime does not have.
    let mut bad_address = address.clone();
    bad_address[0] = 5;
    cases.push((
        "address kind 5",
        extrinsic(
            &[bad_address, signature.clone(), extra.clone()].concat(),
            &call.bytes,
        ),
    ));
    // The length prefix one byte short of the contents, and one byte long.
    let body = &good[prefix_len(&good)..];
    cases.push((
        "length prefix one short",
        [compact(body.len() as u128 - 1), body.to_vec()].concat(),
    ));
    cases.push((
        "length prefix one long",
        [compact(body.len() as u128 + 1), body.to_vec()].concat(),
    ));
    // Signed, but version 5.
    let mut v5 = good.clone();
    v5[prefix_len(&good)] = 0x85;
    cases.push(("version byte 0x85", v5));
    for (what, bytes) in cases {
        assert!(
            decode_all::<rt::UncheckedExtrinsic>(&bytes).is_err(),
            "{what}: decoded"
        );
    }
}

/// The dynamic layer over the spec-9180 metadata, for the same bytes.
fn dynamic_value(bytes: &[u8]) -> ferroscale_value::Value {
    use ferroscale_dynamic::{decode_value, portable::import_metadata, Context, Node, Special};
    let m = metadata();
    let mut graph = ferroscale_dynamic::TypeGraph::new();
    let imported = import_metadata(&mut graph, &m).expect("import");
    let xt = graph.add(Node::Special(Special::Extrinsic), Some("Extrinsic".into()));
    let ctx = Context::new(&graph).with_runtime(&imported.runtime);
    decode_value(&ctx, xt, bytes).expect("the dynamic layer decodes it")
}

#[test]
fn format_5_bare_and_general_decode_to_their_parts_and_reencode() {
    use ferroscale_runtime_types::Preamble;
    let m = metadata();
    let call = remark(&m, b"format 5");
    let framed = |inner: Vec<u8>| [compact(inner.len() as u128), inner].concat();

    let bare = framed([vec![0x05], call.bytes.clone()].concat());
    let xt: rt::UncheckedExtrinsic = decode_all(&bare).expect("bare format 5 decodes");
    assert!(matches!(xt.preamble, Preamble::Bare(5)));
    assert_eq!((xt.version(), xt.signature().is_none()), (5, true));
    assert!(xt.function == call.expected);
    assert_eq!(xt.encode(), bare);

    for (i, era) in ERAS.iter().enumerate() {
        let (nonce, tip) = (NONCES[i * 2], TIPS[i + 1]);
        let general = framed(
            [
                vec![0x45, 0],
                extra_bytes(&m, era, nonce, tip),
                call.bytes.clone(),
            ]
            .concat(),
        );
        let what = format!("general, era {era:02x?} nonce {nonce} tip {tip}");
        let xt: rt::UncheckedExtrinsic =
            decode_all(&general).unwrap_or_else(|e| panic!("{what}: {e}"));
        let Preamble::General(part) = &xt.preamble else {
            panic!("{what}: not general: {:?}", xt.preamble);
        };
        assert_eq!(part.extension_version, 0, "{what}");
        let (_, _, _, _, mortality, check_nonce, _, payment, _) = &part.extensions;
        assert_eq!(mortality.0.encode(), *era, "{what}: era");
        assert_eq!((check_nonce.0, payment.0), (nonce, tip), "{what}");
        assert!(xt.function == call.expected, "{what}: call differs");
        assert_eq!(xt.encode(), general, "{what}: re-encoding differs");
        // The dynamic layer reads the same parts from the same bytes.
        let value = dynamic_value(&general);
        assert_eq!(value.get("version").and_then(|v| v.as_u128()), Some(5));
        assert_eq!(
            value.get("nonce").and_then(|v| v.as_u128()),
            Some(nonce.into())
        );
        assert_eq!(
            value.get("tip").and_then(|v| v.as_u128()),
            Some(tip),
            "{what}"
        );
    }

    // Extension versions other than 0, signed format 5 and general format 4
    // are refused.
    let extra = extra_bytes(&m, ERAS[0], 1, 1);
    for head in [vec![0x45, 1], vec![0x85], vec![0x44, 0]] {
        let bytes = framed([head.clone(), extra.clone(), call.bytes.clone()].concat());
        assert!(
            decode_all::<rt::UncheckedExtrinsic>(&bytes).is_err(),
            "{head:02x?}: decoded"
        );
    }
}
