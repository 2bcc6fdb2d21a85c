//! Polkadot Asset Hub spec 2003001 (V16, 28 view functions): every constant, storage default and custom value decodes with
//! types the proc-macro generates from the fixture and re-encodes to its
//! bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/asset-hub-polkadot-v16-spec2003001.scale",
    crate = "::ferroscale_runtime_types",
    values = false,
    roundtrip = true
)]
mod chain {}

#[test]
fn asset_hub_2003001_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/asset-hub-polkadot-v16-spec2003001.scale",
        chain::roundtrip_type,
    );
}

#[test]
fn asset_hub_2003001_runtime_apis_and_view_functions_typed_equal_dynamic() {
    let counts = ferroscale_fixture_chains::check_payloads(
        "metadata/asset-hub-polkadot-v16-spec2003001.scale",
        chain::payload_roundtrip,
    );
    // The fixture README counts 28 view functions: every one has its typed query.
    assert_eq!(counts.view_functions, 28, "{counts:?}");
    assert!(counts.real_answers > 0, "{counts:?}");
}
