//! Extrinsic format 5 on the V16 metadata of Polkadot 2003000 (which lists
//! formats 4 and 5): bare and general extrinsics decode into the format-4
//! value shape plus `version` (and `extension_version` with the extensions
//! of that version, by name) and re-encode to the same bytes; a general
//! transaction's bytes are the preamble byte, the extension version, the
//! extensions of that version in the metadata's order, then the call.

use ferroscale_dynamic::portable::import_metadata;
use ferroscale_dynamic::runtime::Runtime;
use ferroscale_dynamic::{
    decode_prefix, decode_value, encode_value, Context, Node, Special, TypeGraph, TypeIdx,
    ValueSink,
};
use ferroscale_metadata::Metadata;
use ferroscale_value::Value;

struct Chain {
    graph: TypeGraph,
    runtime: Runtime,
    extrinsic: TypeIdx,
    metadata: Metadata,
}

/// The V16 fixtures: every one lists extrinsic formats 4 and 5.
const V16: [&str; 4] = [
    "metadata/polkadot-v16-spec2003000.scale",
    "metadata/kusama-v16-spec2003000.scale",
    "metadata/asset-hub-polkadot-v16-spec2003001.scale",
    "metadata/substrate-node-v16-spec268.scale",
];

fn polkadot_v16() -> Chain {
    chain(V16[0])
}

fn chain(fixture: &str) -> Chain {
    let bytes = ferroscale_fixtures::read(fixture);
    let metadata = Metadata::from_bytes(&bytes).expect("V16 metadata");
    let mut graph = TypeGraph::new();
    let imported = import_metadata(&mut graph, &metadata).expect("import");
    let extrinsic = graph.add(Node::Special(Special::Extrinsic), Some("Extrinsic".into()));
    Chain {
        graph,
        runtime: imported.runtime,
        extrinsic,
        metadata,
    }
}

fn compact_prefixed(body: &[u8]) -> Vec<u8> {
    let n = body.len();
    assert!(n < 1 << 14, "test extrinsics stay below 16 KiB");
    let mut out = if n < 1 << 6 {
        vec![(n as u8) << 2]
    } else {
        (((n as u16) << 2) | 1).to_le_bytes().to_vec()
    };
    out.extend_from_slice(body);
    out
}

/// `System.remark(remark)` as call bytes, indexes read from the metadata.
fn remark_call(md: &Metadata, remark: &[u8]) -> Vec<u8> {
    let system = md
        .pallets
        .iter()
        .find(|p| p.name == "System")
        .expect("System pallet");
    let calls = system.call_enum.as_ref().expect("System calls");
    let remark_variant = calls
        .variants
        .iter()
        .find(|v| v.name == "remark")
        .expect("System.remark");
    let mut call = vec![calls.pallet_index, remark_variant.index];
    call.extend(compact_prefixed(remark));
    call
}

fn round_trip(chain: &Chain, bytes: &[u8]) -> Value {
    let ctx = Context::new(&chain.graph)
        .with_runtime(&chain.runtime)
        .with_ss58(Some(0));
    let value = decode_value(&ctx, chain.extrinsic, bytes).expect("decode");
    let again = encode_value(&ctx, chain.extrinsic, &value).expect("encode");
    assert_eq!(again, bytes, "re-encoding {value}");
    value
}

#[test]
fn metadata_lists_format_5_and_extension_versions() {
    let chain = polkadot_v16();
    assert_eq!(chain.metadata.extrinsic.versions, vec![4, 5]);
    assert_eq!(chain.runtime.extrinsic.versions, vec![4, 5]);
    let by_version = &chain.metadata.extrinsic.extensions_by_version;
    assert!(!by_version.is_empty(), "V16 lists extensions by version");
    for version in by_version.keys() {
        assert!(chain
            .runtime
            .extrinsic
            .general_extensions
            .contains_key(version));
    }
}

#[test]
fn bare_format_5_decodes_and_round_trips() {
    let chain = polkadot_v16();
    let call = remark_call(&chain.metadata, b"ferroscale v5");
    let mut body = vec![0x05];
    body.extend_from_slice(&call);
    let bytes = compact_prefixed(&body);
    let value = round_trip(&chain, &bytes);
    assert_eq!(value.get("version").and_then(Value::as_u128), Some(5));
    assert!(value.get("extension_version").is_none());
    assert!(value.get("address").is_none());
    let call = value.get("call").expect("call");
    assert_eq!(
        call.get("call_module").and_then(Value::as_str),
        Some("System")
    );
    assert_eq!(
        call.get("call_function").and_then(Value::as_str),
        Some("remark")
    );
    assert_eq!(
        value.get("extrinsic_length").and_then(Value::as_u128),
        Some(body.len() as u128)
    );
}

#[test]
fn general_format_5_carries_the_extensions_of_its_version() {
    for fixture in V16 {
        general_transactions(&chain(fixture), fixture);
    }
}

fn general_transactions(chain: &Chain, fixture: &str) {
    assert_eq!(chain.runtime.extrinsic.versions, vec![4, 5], "{fixture}");
    let ctx = Context::new(&chain.graph)
        .with_runtime(&chain.runtime)
        .with_ss58(Some(0));
    let call = remark_call(&chain.metadata, b"general");
    for (&version, extensions) in &chain.runtime.extrinsic.general_extensions {
        // Each extension's part is what its own type encodes: the value
        // decoded from a run of one byte, a different byte per extension
        // where the type takes it (so a swap of two extensions shows), else
        // from zeros (immortal era, nonce 0, mode Disabled, None …).
        let mut body = vec![0x45, version];
        let mut expected = Vec::new();
        for (i, e) in extensions.iter().enumerate() {
            let (v, part) = [4 * (i as u8 + 1), 1, 0]
                .into_iter()
                .find_map(|fill| {
                    let run = [fill; 64];
                    let (v, used) = decode_prefix(&ctx, e.ty, &run, &mut ValueSink).ok()?;
                    Some((v, run[..used].to_vec()))
                })
                .unwrap_or_else(|| panic!("{}: no value decodes from a byte run", e.identifier));
            body.extend_from_slice(&part);
            expected.push((e.key.to_string(), v));
        }
        body.extend_from_slice(&call);
        let bytes = compact_prefixed(&body);
        let value = round_trip(chain, &bytes);
        assert_eq!(value.get("version").and_then(Value::as_u128), Some(5));
        assert_eq!(
            value.get("extension_version").and_then(Value::as_u128),
            Some(version.into())
        );
        for (key, v) in &expected {
            assert_eq!(
                value.get(key),
                Some(v),
                "{fixture}: extension '{key}' of version {version}"
            );
        }
        assert!(value.get("signature").is_none());
        println!(
            "{fixture}: extension version {version}: {:?}",
            extensions
                .iter()
                .map(|e| e.identifier.to_string())
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn unknown_formats_and_extension_versions_are_named() {
    let chain = polkadot_v16();
    let ctx = Context::new(&chain.graph).with_runtime(&chain.runtime);
    let call = remark_call(&chain.metadata, b"x");
    let decode_err = |first: &[u8]| {
        let mut body = first.to_vec();
        body.extend_from_slice(&call);
        decode_value(&ctx, chain.extrinsic, &compact_prefixed(&body))
            .expect_err("must be refused")
            .to_string()
    };
    // Format 6, signed format 5 and general format 4 do not exist.
    for (first, version) in [(0x06u8, 6), (0x85, 5), (0x44, 4)] {
        let e = decode_err(&[first]);
        assert!(
            e.contains(&format!("unsupported extrinsic version {version}"))
                && e.contains(&format!("{first:#04x}")),
            "{first:#04x}: {e}"
        );
    }
    let unknown = (0..=u8::MAX)
        .find(|v| !chain.runtime.extrinsic.general_extensions.contains_key(v))
        .unwrap();
    let e = decode_err(&[0x45, unknown]);
    assert!(
        e.contains(&format!("unknown transaction-extension version {unknown}")),
        "{e}"
    );
    // Encoding refuses the same.
    let value = Value::Dict(vec![
        ("version".into(), Value::UInt(5)),
        ("extension_version".into(), Value::UInt(unknown.into())),
        ("call".into(), Value::Null),
    ]);
    let e = encode_value(&ctx, chain.extrinsic, &value)
        .expect_err("unknown extension version")
        .to_string();
    assert!(e.contains("unknown transaction-extension version"), "{e}");
}
