//! Polkadot spec 2003000 (V16, extrinsic formats 4 and 5): every constant, storage default and custom value decodes with
//! types the proc-macro generates from the fixture and re-encodes to its
//! bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/polkadot-v16-spec2003000.scale",
    crate = "::ferroscale_runtime_types",
    values = false,
    roundtrip = true
)]
mod chain {}

#[test]
fn polkadot_2003000_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/polkadot-v16-spec2003000.scale",
        chain::roundtrip_type,
    );
}

#[test]
fn polkadot_2003000_runtime_apis_and_view_functions_typed_equal_dynamic() {
    let counts = ferroscale_fixture_chains::check_payloads(
        "metadata/polkadot-v16-spec2003000.scale",
        chain::roundtrip_type,
        chain::payload_roundtrip,
    );
    assert!(counts.real_answers > 0, "{counts:?}");
}

fn typed_extrinsic(bytes: &[u8]) -> Result<ferroscale_fixture_chains::TypedExtrinsic, String> {
    let x: chain::UncheckedExtrinsic =
        ferroscale_runtime_types::decode_all(bytes).map_err(|e| e.to_string())?;
    Ok(ferroscale_fixture_chains::TypedExtrinsic::of(&x))
}

/// Every call in formats 4 and 5 (every extension version), typed = dynamic
/// = frame-decode part by part.
#[test]
fn polkadot_2003000_extrinsics_agree_with_frame_decode() {
    let counts = ferroscale_fixture_chains::check_built_extrinsics(
        "metadata/polkadot-v16-spec2003000.scale",
        chain::roundtrip_type,
        typed_extrinsic,
    );
    assert!(
        counts
            .by_form
            .iter()
            .any(|(f, _)| f.starts_with("v5 general")),
        "{counts:?}"
    );
}

/// A full key of every storage map, by name, = frame-decode part by part.
#[test]
fn polkadot_2003000_storage_keys_agree_with_frame_decode() {
    ferroscale_fixture_chains::check_storage_keys(
        "metadata/polkadot-v16-spec2003000.scale",
        chain::roundtrip_type,
    );
}
