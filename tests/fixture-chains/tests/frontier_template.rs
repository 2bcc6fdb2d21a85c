//! Frontier template (V15, EVM chain with 20-byte accounts): every constant,
//! storage default and custom value decodes with types the proc-macro generates
//! from the fixture and re-encodes to its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/frontier-template-v15-small.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn frontier_template_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/frontier-template-v15-small.scale",
        chain::roundtrip_type,
    );
}

#[test]
fn frontier_template_runtime_apis_and_view_functions_typed_equal_dynamic() {
    let counts = ferroscale_fixture_chains::check_payloads(
        "metadata/frontier-template-v15-small.scale",
        chain::roundtrip_type,
        chain::payload_roundtrip,
    );
    assert!(counts.real_answers > 0, "{counts:?}");
}
