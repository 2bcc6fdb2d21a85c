//! Kusama spec 2003000 (V16, extrinsic formats 4 and 5): every constant, storage default and custom value decodes with
//! types the proc-macro generates from the fixture and re-encodes to its
//! bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/kusama-v16-spec2003000.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn kusama_2003000_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/kusama-v16-spec2003000.scale",
        chain::roundtrip_type,
    );
}

#[test]
fn kusama_2003000_runtime_apis_and_view_functions_typed_equal_dynamic() {
    let counts = ferroscale_fixture_chains::check_payloads(
        "metadata/kusama-v16-spec2003000.scale",
        chain::roundtrip_type,
        chain::payload_roundtrip,
    );
    assert!(counts.real_answers > 0, "{counts:?}");
}

ferroscale_fixture_chains::frame_decode_checks!(
    "metadata/kusama-v16-spec2003000.scale",
    forms = ["v4 signed", "v5 bare", "v5 general (extension version 0)"]
);
