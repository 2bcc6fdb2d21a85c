//! Typed general transactions of every transaction-extension version a
//! runtime lists, not only version 0: the runtime is Asset Hub's
//! (statemint 2000003) with versions 1 (three extensions, out of order) and
//! 3 (none) added by `build.rs`; the proc-macro generates its types from that
//! file. Every call in every form and version agrees typed = dynamic =
//! frame-decode part by part, and the typed extrinsic holds the version's own
//! extensions.

#[ferroscale_macros::runtime(
    metadata = "$OUT_DIR/statemint-extension-versions.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

use parity_scale_codec::Encode;

fn metadata() -> Vec<u8> {
    std::fs::read(concat!(
        env!("OUT_DIR"),
        "/statemint-extension-versions.scale"
    ))
    .expect("build.rs wrote the test runtime")
}

fn typed_extrinsic(bytes: &[u8]) -> Result<ferroscale_fixture_chains::TypedExtrinsic, String> {
    let x: chain::UncheckedExtrinsic =
        ferroscale_runtime_types::decode_all(bytes).map_err(|e| e.to_string())?;
    Ok(ferroscale_fixture_chains::TypedExtrinsic::of(&x))
}

#[test]
fn every_extension_version_agrees_typed_dynamic_and_frame_decode() {
    let counts = ferroscale_fixture_chains::check_built_extrinsics_of(
        "statemint 2000003 with extension versions 0, 1 and 3",
        &metadata(),
        chain::roundtrip_type,
        typed_extrinsic,
    );
    for version in [0, 1, 3] {
        let form = format!("v5 general (extension version {version})");
        assert!(
            counts.by_form.iter().any(|(f, n)| *f == form && *n > 0),
            "{form} not checked: {counts:?}"
        );
    }
}

/// A `System.remark(b"")` extrinsic with `preamble` (the version byte and
/// what follows it before the call), length-prefixed.
fn remark_extrinsic(preamble: &[u8]) -> Vec<u8> {
    let md = ferroscale_metadata::Metadata::load(&metadata()).unwrap();
    let system = md.pallet("System").expect("System");
    let calls = system.call_enum.as_ref().expect("System calls");
    let remark = calls.variants.iter().find(|v| v.name == "remark").unwrap();
    let body = [preamble, &[calls.pallet_index, remark.index, 0][..]].concat();
    [
        parity_scale_codec::Compact(body.len() as u32).encode(),
        body,
    ]
    .concat()
}

/// Version 1's extensions are the enum's `V1` tuple (nonce, era, payment, in
/// that order); version 3's are empty; a version the runtime does not list
/// is an error naming the listed ones.
#[test]
fn the_typed_extensions_are_those_of_the_version() {
    use chain::TransactionExtensions;
    // Version 1: nonce 5 (compact), an immortal era, ChargeAssetTxPayment
    // with tip 0 and no asset.
    let v1 = remark_extrinsic(&[0x45, 1, 5 << 2, 0, 0, 0]);
    let typed: chain::UncheckedExtrinsic = ferroscale_runtime_types::decode_all(&v1).unwrap();
    let general = typed.general().expect("a general transaction");
    assert_eq!(general.extension_version, 1);
    let TransactionExtensions::V1((nonce, _era, _payment)) = &general.extensions else {
        panic!("version 1 decoded as {:?}", general.extensions);
    };
    assert_eq!(nonce.encode(), vec![5 << 2]);
    assert_eq!(typed.encode(), v1);

    let v3 = remark_extrinsic(&[0x45, 3]);
    let typed: chain::UncheckedExtrinsic = ferroscale_runtime_types::decode_all(&v3).unwrap();
    assert!(matches!(
        typed.general().map(|g| &g.extensions),
        Some(TransactionExtensions::V3(()))
    ));
    assert_eq!(typed.encode(), v3);

    let e =
        ferroscale_runtime_types::decode_all::<chain::UncheckedExtrinsic>(&remark_extrinsic(&[
            0x45, 2,
        ]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("unknown transaction-extension version") && e.contains("[0, 1, 3]"),
        "{e}"
    );
}

/// Wherever the registry's own `UncheckedExtrinsic` type is used (its type,
/// and `Block`, which holds a list of them; runtime API parameters in a
/// runtime that has them), the generated type takes the general
/// transactions of every version the runtime lists, not only version 0.
#[test]
fn the_registry_extrinsic_type_takes_every_extension_version() {
    let md = ferroscale_metadata::Metadata::load(&metadata()).unwrap();
    let types = md.types.as_ref().expect("V16 registry");
    let by_path = |last: &str| {
        types
            .types
            .iter()
            .find(|t| t.ty.path.segments.last().map(String::as_str) == Some(last))
            .unwrap_or_else(|| panic!("no {last} type"))
            .id
    };
    let (extrinsic, block) = (by_path("UncheckedExtrinsic"), by_path("Block"));
    let v1 = remark_extrinsic(&[0x45, 1, 5 << 2, 0, 0, 0]);
    let v3 = remark_extrinsic(&[0x45, 3]);
    for x in [&v1, &v3] {
        let back = chain::roundtrip_type(extrinsic, x).expect("a generated type");
        assert_eq!(back.expect("decodes"), *x);
    }
    // A block: a header, then the extrinsics as a list.
    let header = {
        let mut h = vec![0u8; 32];
        h.extend(parity_scale_codec::Compact(7u32).encode());
        h.extend([0u8; 64]);
        h.push(0); // no digest items
        h
    };
    let block_bytes = [
        header,
        parity_scale_codec::Compact(2u32).encode(),
        v1.clone(),
        v3.clone(),
    ]
    .concat();
    let back = chain::roundtrip_type(block, &block_bytes).expect("a generated type");
    assert_eq!(back.expect("decodes"), block_bytes);
}
