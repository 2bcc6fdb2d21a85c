//! The substrate dev node, spec 268 (V16, pallet-revive: recursive generic types such as `CallTrace<U256>` holding `Vec<CallTrace<U256>>`): every constant, storage default and custom value decodes with
//! types the proc-macro generates from the fixture and re-encodes to its
//! bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/substrate-node-v16-spec268.scale",
    crate = "::ferroscale_runtime_types",
    values = false,
    roundtrip = true
)]
mod chain {}

#[test]
fn substrate_node_268_v16_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/substrate-node-v16-spec268.scale",
        chain::roundtrip_type,
    );
}

#[test]
fn substrate_node_268_v16_runtime_apis_and_view_functions_typed_equal_dynamic() {
    // pallet-revive's recursive `CallTrace` values sampled from byte runs
    // nest toward the decoders' depth cap (256); both decoders stop within
    // their stack budget (`ferroscale_core::stack`), so the default 2 MiB
    // test thread is enough.
    let counts = ferroscale_fixture_chains::check_payloads(
        "metadata/substrate-node-v16-spec268.scale",
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
fn substrate_node_268_v16_extrinsics_agree_with_frame_decode() {
    let counts = ferroscale_fixture_chains::check_built_extrinsics(
        "metadata/substrate-node-v16-spec268.scale",
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
fn substrate_node_268_v16_storage_keys_agree_with_frame_decode() {
    ferroscale_fixture_chains::check_storage_keys(
        "metadata/substrate-node-v16-spec268.scale",
        chain::roundtrip_type,
    );
}
