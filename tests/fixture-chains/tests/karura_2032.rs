//! Karura spec 2032 (V14): every constant, storage default and custom value
//! decodes with types the proc-macro generates from the fixture and re-encodes
//! to its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/karura-v14-spec2032.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn karura_2032_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/karura-v14-spec2032.scale",
        chain::roundtrip_type,
    );
}
