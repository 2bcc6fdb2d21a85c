//! Polkadot spec 9110 (V14): every constant, storage default and custom value
//! decodes with types the proc-macro generates from the fixture and re-encodes
//! to its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/polkadot-v14-spec9110.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn polkadot_9110_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/polkadot-v14-spec9110.scale",
        chain::roundtrip_type,
    );
}
