//! substrate dev node spec 267 (V14): every constant, storage default and
//! custom value decodes with types the proc-macro generates from the fixture
//! and re-encodes to its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/substrate-node-v14-spec267.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn substrate_node_267_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/substrate-node-v14-spec267.scale",
        chain::roundtrip_type,
    );
}
