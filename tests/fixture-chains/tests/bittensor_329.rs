//! Bittensor node-subtensor spec 329 (V14): every constant, storage default and
//! custom value decodes with types the proc-macro generates from the fixture
//! and re-encodes to its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/bittensor-v14-spec329.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn bittensor_329_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/bittensor-v14-spec329.scale",
        chain::roundtrip_type,
    );
}
