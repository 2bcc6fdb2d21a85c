//! Rococo spec 1021002 (V15): every constant, storage default and custom value
//! decodes with types the proc-macro generates from the fixture and re-encodes
//! to its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/rococo-v15-spec1021002.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn rococo_1021002_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/rococo-v15-spec1021002.scale",
        chain::roundtrip_type,
    );
}

#[test]
fn rococo_1021002_runtime_apis_and_view_functions_typed_equal_dynamic() {
    let counts = ferroscale_fixture_chains::check_payloads(
        "metadata/rococo-v15-spec1021002.scale",
        chain::roundtrip_type,
        chain::payload_roundtrip,
    );
    assert!(counts.real_answers > 0, "{counts:?}");
}
