//! Kusama spec 9111 (V14): every constant, storage default and custom value
//! decodes with types the proc-macro generates from the fixture and re-encodes
//! to its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/kusama-v14-spec9111.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn kusama_9111_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/kusama-v14-spec9111.scale",
        chain::roundtrip_type,
    );
}
