//! RFC-0078 digests and proofs against the `merkleized-metadata` crate (the
//! RFC's reference implementation, a dev-dependency only): the digest of
//! every V14–V16 metadata fixture, and proofs for real signed extrinsics of
//! Polkadot blocks, split into call and extension bytes.
//!
//! `merkleized-metadata` 0.5.1 accepts V15 metadata only ("Only supports
//! metadata V15"). V14 and V16 fixtures are handed to it as V15 metadata
//! built here from frame-metadata's own decoding, the way the V15 metadata
//! of the same runtime describes its extrinsic: V14's address, call and
//! signature types are the `UncheckedExtrinsic` type's parameters; V16's
//! extrinsic is read at its lowest version with the extensions of
//! transaction-extension version 0. The registry, tree, hashing and proof
//! rules are then all the reference's.

use std::collections::BTreeMap;

use ferroscale_metadata::digest::{self, ChainInfo, ExtraInfo, Merkleized};
use ferroscale_metadata::{Error, Metadata};
use frame_metadata::v15;
use frame_metadata::{RuntimeMetadata, RuntimeMetadataPrefixed};
use parity_scale_codec::{Decode, Encode};
use scale_info::form::PortableForm;
use scale_info::interner::UntrackedSymbol;
use scale_info::PortableRegistry;

const DECIMALS: u8 = 10;
const TOKEN: &str = "UNIT";

/// The V14+ metadata fixtures: every `.scale` file of the manifest whose
/// version byte (after the `meta` magic) is 14 or more.
fn modern_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in ferroscale_fixtures::entries_under("metadata") {
        if !entry.name.ends_with(".scale") {
            continue;
        }
        let bytes = ferroscale_fixtures::read(entry.name);
        if bytes.len() > 4 && bytes[4] >= 14 {
            out.push((entry.name.to_owned(), bytes));
        }
    }
    out
}

fn sym(id: u32) -> UntrackedSymbol<std::any::TypeId> {
    UntrackedSymbol::from(id)
}

/// The V15 metadata the reference crate takes, from a decoded V14/V15/V16.
fn as_v15(metadata: RuntimeMetadata) -> v15::RuntimeMetadataV15 {
    let build = |types: PortableRegistry,
                 version: u8,
                 address: u32,
                 call: u32,
                 signature: u32,
                 extensions: Vec<(String, u32, u32)>,
                 ty: u32| {
        v15::RuntimeMetadataV15 {
            types,
            pallets: Vec::new(),
            extrinsic: v15::ExtrinsicMetadata {
                version,
                address_ty: sym(address),
                call_ty: sym(call),
                signature_ty: sym(signature),
                extra_ty: sym(call),
                signed_extensions: extensions
                    .into_iter()
                    .map(
                        |(identifier, t, implicit)| v15::SignedExtensionMetadata::<PortableForm> {
                            identifier,
                            ty: sym(t),
                            additional_signed: sym(implicit),
                        },
                    )
                    .collect(),
            },
            ty: sym(ty),
            apis: Vec::new(),
            outer_enums: v15::OuterEnums {
                call_enum_ty: sym(call),
                event_enum_ty: sym(call),
                error_enum_ty: sym(call),
            },
            custom: v15::CustomMetadata {
                map: BTreeMap::new(),
            },
        }
    };
    match metadata {
        RuntimeMetadata::V15(m) => m,
        RuntimeMetadata::V14(m) => {
            let e = &m.extrinsic;
            let params = &m
                .types
                .resolve(e.ty.id)
                .expect("extrinsic type")
                .type_params;
            let param = |name: &str| {
                params
                    .iter()
                    .find(|p| p.name == name)
                    .and_then(|p| p.ty)
                    .unwrap_or_else(|| panic!("UncheckedExtrinsic has no {name} parameter"))
                    .id
            };
            let extensions = e
                .signed_extensions
                .iter()
                .map(|s| (s.identifier.clone(), s.ty.id, s.additional_signed.id))
                .collect();
            let (a, c, s) = (param("Address"), param("Call"), param("Signature"));
            build(m.types, e.version, a, c, s, extensions, m.ty.id)
        }
        RuntimeMetadata::V16(m) => {
            let e = &m.extrinsic;
            let all: Vec<_> = e
                .transaction_extensions
                .iter()
                .map(|t| (t.identifier.clone(), t.ty.id, t.implicit.id))
                .collect();
            let extensions = match e.transaction_extensions_by_version.get(&0) {
                Some(indexes) => indexes.iter().map(|i| all[i.0 as usize].clone()).collect(),
                None => all,
            };
            let version = *e.versions.iter().min().expect("an extrinsic version");
            let (a, c, s) = (e.address_ty.id, e.call_ty.id, e.signature_ty.id);
            build(m.types, version, a, c, s, extensions, c)
        }
        other => panic!("not V14+: V{}", other.version()),
    }
}

fn reference_metadata(bytes: &[u8]) -> RuntimeMetadata {
    RuntimeMetadata::V15(as_v15(
        RuntimeMetadataPrefixed::decode(&mut &bytes[..])
            .expect("frame-metadata decodes the fixture")
            .1,
    ))
}

fn reference_extra(extra: &ExtraInfo) -> merkleized_metadata::ExtraInfo {
    merkleized_metadata::ExtraInfo {
        spec_version: extra.spec_version,
        spec_name: extra.spec_name.clone(),
        base58_prefix: extra.base58_prefix,
        decimals: extra.decimals,
        token_symbol: extra.token_symbol.clone(),
    }
}

/// The chain facts for a fixture: from its metadata where it holds them
/// (the synthetic `custom-values` metadata has no `System` pallet, so its
/// spec and prefix are given).
fn extra_for(name: &str, metadata: &Metadata) -> ExtraInfo {
    let mut chain = ChainInfo::new(DECIMALS, TOKEN);
    if name.contains("custom-values") {
        chain.spec_version = Some(1);
        chain.spec_name = Some("custom".into());
        chain.base58_prefix = Some(42);
    }
    chain.extra_info(metadata).unwrap()
}

#[test]
fn every_modern_fixture_digest_equals_the_reference() {
    let fixtures = modern_fixtures();
    assert!(
        fixtures.len() >= 14,
        "only {} V14+ fixtures",
        fixtures.len()
    );
    for (name, bytes) in &fixtures {
        let metadata = Metadata::load(bytes).unwrap();
        let extra = extra_for(name, &metadata);
        let ours = digest::metadata_digest(
            &metadata,
            &ChainInfo {
                spec_version: Some(extra.spec_version),
                spec_name: Some(extra.spec_name.clone()),
                base58_prefix: Some(extra.base58_prefix),
                ..ChainInfo::new(DECIMALS, TOKEN)
            },
        )
        .unwrap();
        let reference = merkleized_metadata::generate_metadata_digest(
            &reference_metadata(bytes),
            reference_extra(&extra),
        )
        .unwrap_or_else(|e| panic!("{name}: the reference refuses it: {e}"));
        let reference_hash = reference.hash();
        eprintln!("{name}: 0x{}", hex(&reference_hash));
        assert_eq!(ours.hash(), reference_hash, "{name}");
        assert_eq!(ours.encode(), reference.encode(), "{name}");
    }
}

/// The value `merkleized-metadata` 0.5.1's own test suite expects for its
/// `polkadot_metadata_v15` fixture (our `polkadot-v15-spec1001002.scale`)
/// with its made-up extra info: a known answer that does not come from
/// either implementation run here.
#[test]
fn the_reference_suites_known_answer() {
    let metadata = Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v15-spec1001002.scale",
    ))
    .unwrap();
    let chain = ChainInfo {
        spec_version: Some(1),
        spec_name: Some("nice".into()),
        base58_prefix: Some(1),
        ..ChainInfo::new(1, "lol")
    };
    let hash = digest::metadata_hash(&metadata, &chain).unwrap();
    assert_eq!(
        hex(&hash),
        "72b3e70cb722edeb45a9380720ecad79b09b4113ab2dee5f5d974f170fb77a7e"
    );
}

#[test]
fn extra_info_comes_from_the_metadata_unless_given() {
    let metadata = Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v15-spec1001002.scale",
    ))
    .unwrap();
    let extra = ChainInfo::new(10, "DOT").extra_info(&metadata).unwrap();
    assert_eq!(
        (
            extra.spec_version,
            extra.spec_name.as_str(),
            extra.base58_prefix
        ),
        (1001002, "polkadot", 0)
    );
    let kusama = Metadata::load(&ferroscale_fixtures::read(
        "metadata/kusama-v15-spec1001002.scale",
    ))
    .unwrap();
    assert_eq!(
        ChainInfo::new(12, "KSM")
            .extra_info(&kusama)
            .unwrap()
            .base58_prefix,
        2
    );
    let given = ChainInfo {
        spec_version: Some(7),
        spec_name: Some("other".into()),
        base58_prefix: Some(42),
        ..ChainInfo::new(10, "DOT")
    };
    let extra = given.extra_info(&metadata).unwrap();
    assert_eq!(
        (
            extra.spec_version,
            extra.spec_name.as_str(),
            extra.base58_prefix
        ),
        (7, "other", 42)
    );
    // Each fact changes the hash.
    let base = digest::metadata_hash(&metadata, &ChainInfo::new(10, "DOT")).unwrap();
    assert_ne!(
        base,
        digest::metadata_hash(&metadata, &ChainInfo::new(12, "DOT")).unwrap()
    );
    assert_ne!(
        base,
        digest::metadata_hash(&metadata, &ChainInfo::new(10, "KSM")).unwrap()
    );
    assert_ne!(base, digest::metadata_hash(&metadata, &given).unwrap());
}

#[test]
fn legacy_metadata_is_refused_with_a_clear_error() {
    for name in [
        "metadata/kusama-v13-spec9030.scale",
        "metadata/kusama-v9-spec1021.scale",
    ] {
        let metadata = Metadata::load(&ferroscale_fixtures::read(name)).unwrap();
        let err = Merkleized::new(&metadata)
            .err()
            .expect("V9–V13 has no digest");
        assert!(
            matches!(&err, Error::Digest(m) if m.contains("V14 or later")),
            "{err}"
        );
    }
}

/// The signed data an extension adds, built from its identifier: these are
/// the only extensions with signed data in the Polkadot runtimes used here.
fn signed_data(extensions: &[digest::SignedExtensionMetadata]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in extensions {
        match e.identifier.as_str() {
            "CheckSpecVersion" => out.extend(9180u32.to_le_bytes()),
            "CheckTxVersion" => out.extend(12u32.to_le_bytes()),
            "CheckGenesis" => out.extend([0x91; 32]),
            "CheckMortality" | "CheckEra" => out.extend([0x42; 32]),
            "CheckMetadataHash" => out.push(0),
            _ => {}
        }
    }
    out
}

fn extrinsics(name: &str) -> Vec<Vec<u8>> {
    let list: Vec<String> = serde_json::from_slice(&ferroscale_fixtures::read(name)).unwrap();
    list.iter()
        .map(|h| ferroscale_fixtures::decode_hex(h).unwrap())
        .collect()
}

/// Proofs for each signed extrinsic of a block equal the reference's;
/// returns how many were checked.
fn check_block(metadata_name: &str, block: &str) -> usize {
    let bytes = ferroscale_fixtures::read(metadata_name);
    let metadata = Metadata::load(&bytes).unwrap();
    let merkleized = Merkleized::new(&metadata).unwrap();
    let reference = reference_metadata(&bytes);
    let signed = signed_data(&merkleized.extrinsic_metadata().signed_extensions);
    let mut checked = 0;
    for xt in extrinsics(block) {
        let Ok(parts) = merkleized.split_extrinsic(&xt) else {
            // Unsigned (inherents): no extensions to split.
            continue;
        };
        let ours = merkleized
            .proof_for_extrinsic_parts(parts.call, parts.included_in_extrinsic, &signed)
            .unwrap();
        let theirs = merkleized_metadata::generate_proof_for_extrinsic_parts(
            parts.call,
            Some(merkleized_metadata::SignedExtrinsicData {
                included_in_extrinsic: parts.included_in_extrinsic,
                included_in_signed_data: &signed,
            }),
            &reference,
        )
        .unwrap();
        assert_eq!(ours.encode(), theirs.encode(), "{metadata_name} {block}");
        // The offline signer's bundle: proof, extrinsic metadata, extra info.
        let chain = ChainInfo::new(DECIMALS, TOKEN);
        let extra = chain.extra_info(&metadata).unwrap();
        let mut bundle = theirs.encode();
        let prepared = merkleized_metadata::FrameMetadataPrepared::prepare(&reference).unwrap();
        bundle.extend(
            prepared
                .as_type_information()
                .unwrap()
                .extrinsic_metadata
                .encode(),
        );
        bundle.extend(
            (
                extra.spec_version,
                &extra.spec_name,
                extra.base58_prefix,
                extra.decimals,
                &extra.token_symbol,
            )
                .encode(),
        );
        let ours = digest::extrinsic_proof(
            &metadata,
            &chain,
            parts.call,
            parts.included_in_extrinsic,
            &signed,
        );
        assert_eq!(ours.unwrap(), bundle);
        checked += 1;
    }
    checked
}

/// Block 18,468,942's two signed extrinsics with their own runtime's V14
/// metadata (block 10,000,000 holds only inherents: nothing to prove).
#[test]
fn proofs_of_real_v14_extrinsics_equal_the_reference() {
    let n = check_block(
        "metadata/polkadot-v14-spec1000001.scale",
        "payloads/polkadot-block-18468942/extrinsics.json",
    );
    assert!(n >= 2, "signed extrinsics checked: {n}");
}

/// Polkadot's V15 metadata of spec 1001002 reads the signed extrinsics of
/// block 18,468,942 (spec 1000001: the same calls and extensions).
#[test]
fn proofs_of_real_extrinsics_against_v15_metadata_equal_the_reference() {
    let n = check_block(
        "metadata/polkadot-v15-spec1001002.scale",
        "payloads/polkadot-block-18468942/extrinsics.json",
    );
    assert!(n >= 2, "signed extrinsics checked: {n}");
}

#[test]
fn bad_call_bytes_are_errors() {
    let metadata = Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v15-spec1001002.scale",
    ))
    .unwrap();
    let merkleized = Merkleized::new(&metadata).unwrap();
    let signed = signed_data(&merkleized.extrinsic_metadata().signed_extensions);
    let xt = extrinsics("payloads/polkadot-block-18468942/extrinsics.json")
        .into_iter()
        .find_map(|x| {
            merkleized
                .split_extrinsic(&x)
                .ok()
                .map(|p| (p.call.to_vec(), p.included_in_extrinsic.to_vec()))
        })
        .unwrap();
    let (call, extra) = xt;
    let proof = |c: &[u8], e: &[u8], s: &[u8]| merkleized.proof_for_extrinsic_parts(c, e, s);
    assert!(proof(&call, &extra, &signed).is_ok());
    for cut in 0..call.len() {
        assert!(
            matches!(proof(&call[..cut], &extra, &signed), Err(Error::Digest(_))),
            "cut at {cut}"
        );
    }
    let mut longer = call.clone();
    longer.push(0);
    assert!(proof(&longer, &extra, &signed).is_err());
    assert!(proof(&[0xff, 0xff], &extra, &signed).is_err());
    assert!(proof(&call, &extra[..extra.len() - 1], &signed).is_err());
    assert!(proof(&call, &extra, &signed[1..]).is_err());
    // A sequence claiming a billion elements in a few bytes.
    let mut rng = ferroscale_test_support::Xorshift::new(7);
    for _ in 0..2000 {
        let len = (rng.next_u64() % 64) as usize;
        let junk: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let _ = proof(&junk, &extra, &signed);
        let _ = merkleized.split_extrinsic(&junk);
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Metadata with bytes flipped that still loads never makes the digest
/// panic: it gives a digest or an error.
#[test]
fn damaged_metadata_gives_a_digest_or_an_error() {
    let original = ferroscale_fixtures::read("metadata/frontier-template-v15-small.scale");
    let mut rng = ferroscale_test_support::Xorshift::new(0x5eed);
    let mut loaded = 0;
    for _ in 0..300 {
        let mut bytes = original.clone();
        for _ in 0..1 + rng.below(4) {
            let at = 5 + rng.below(bytes.len() - 5);
            bytes[at] = rng.next_u8();
        }
        if let Ok(metadata) = Metadata::load(&bytes) {
            loaded += 1;
            if let Ok(m) = Merkleized::new(&metadata) {
                let _ = m.proof_for_extrinsic_parts(&[0, 0], &[], &[]);
            }
        }
    }
    assert!(loaded > 10, "only {loaded} damaged copies loaded");
}

/// A call type that holds itself (`enum Call { Nest(Call), Stop }`): its
/// digest is made, and bytes nesting it a hundred thousand deep are an
/// error at the depth limit, not a stack overflow.
#[test]
fn self_holding_call_type_is_cut_at_the_depth_limit() {
    use scale_info::{Field as SField, Path, PortableType, Type as SType, TypeDef as SDef};
    use scale_info::{TypeDefPrimitive, TypeDefVariant, Variant};
    let ty = |type_def| SType::<PortableForm> {
        path: Path {
            segments: vec!["Call".into()],
        },
        type_params: Vec::new(),
        type_def,
        docs: Vec::new(),
    };
    let nest = Variant::<PortableForm> {
        name: "Nest".into(),
        fields: vec![SField {
            name: None,
            ty: sym(0),
            type_name: None,
            docs: Vec::new(),
        }],
        index: 0,
        docs: Vec::new(),
    };
    let stop = Variant::<PortableForm> {
        name: "Stop".into(),
        fields: Vec::new(),
        index: 1,
        docs: Vec::new(),
    };
    let types = PortableRegistry {
        types: vec![
            PortableType {
                id: 0,
                ty: ty(SDef::Variant(TypeDefVariant {
                    variants: vec![nest, stop],
                })),
            },
            PortableType {
                id: 1,
                ty: ty(SDef::Primitive(TypeDefPrimitive::U8)),
            },
        ],
    };
    let v15 = v15::RuntimeMetadataV15 {
        types,
        pallets: Vec::new(),
        extrinsic: v15::ExtrinsicMetadata {
            version: 4,
            address_ty: sym(1),
            call_ty: sym(0),
            signature_ty: sym(1),
            extra_ty: sym(1),
            signed_extensions: Vec::new(),
        },
        ty: sym(0),
        apis: Vec::new(),
        outer_enums: v15::OuterEnums {
            call_enum_ty: sym(0),
            event_enum_ty: sym(0),
            error_enum_ty: sym(0),
        },
        custom: v15::CustomMetadata {
            map: BTreeMap::new(),
        },
    };
    let bytes = RuntimeMetadataPrefixed::from(v15.clone()).encode();
    let metadata = Metadata::from_bytes(&bytes).unwrap();
    let merkleized = Merkleized::new(&metadata).unwrap();
    // Shallow nesting: the reference agrees.
    let call = [0, 0, 0, 1];
    let ours = merkleized
        .proof_for_extrinsic_parts(&call, &[], &[])
        .unwrap();
    let theirs = merkleized_metadata::generate_proof_for_extrinsic_parts(
        &call,
        Some(merkleized_metadata::SignedExtrinsicData {
            included_in_extrinsic: &[],
            included_in_signed_data: &[],
        }),
        &RuntimeMetadata::V15(v15),
    )
    .unwrap();
    assert_eq!(ours.encode(), theirs.encode());
    let mut deep = vec![0u8; 100_000];
    deep.push(1);
    let err = merkleized
        .proof_for_extrinsic_parts(&deep, &[], &[])
        .unwrap_err();
    assert!(err.to_string().contains("nest deeper"), "{err}");
}
