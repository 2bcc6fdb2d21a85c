//! The substrate dev node, spec 268 (V16, pallet-revive: recursive generic types such as `CallTrace<U256>` holding `Vec<CallTrace<U256>>`): every constant, storage default and custom value decodes with
//! types the proc-macro generates from the fixture and re-encodes to its
//! bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/substrate-node-v16-spec268.scale",
    crate = "::ferroscale_runtime_types",
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

ferroscale_fixture_chains::frame_decode_checks!(
    "metadata/substrate-node-v16-spec268.scale",
    forms = ["v4 signed", "v5 bare", "v5 general (extension version 0)"]
);
