//! Bittensor node-subtensor spec 343 as V14 metadata (the shipped `bittensor`
//! chain is its V15 form): every constant, storage default and custom value
//! decodes with types the proc-macro generates from the fixture and re-encodes
//! to its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/subtensor-v14-spec343.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn subtensor_343_v14_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/subtensor-v14-spec343.scale",
        chain::roundtrip_type,
    );
}
