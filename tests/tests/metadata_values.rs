//! Every constant value, storage default and custom value of a shipped
//! chain's metadata (and of the test-only spec 9180) decodes with the
//! generated types and re-encodes to the same bytes. The checker
//! (`ferroscale_fixture_chains::check_chain`) is the one the macro-expanded
//! fixture chains use: it fails on any mismatch and when the numbers checked
//! differ from what frame-metadata counts in the blob.

use ferroscale_fixture_chains::check_chain;

#[test]
fn polkadot_1001002_constants_and_defaults_roundtrip() {
    check_chain(
        "metadata/polkadot-v15-spec1001002.scale",
        ferroscale_runtime_types::polkadot::roundtrip_type,
    );
}

#[test]
fn bittensor_343_constants_and_defaults_roundtrip() {
    check_chain(
        "metadata/subtensor-v15-spec343.scale",
        ferroscale_runtime_types::bittensor::roundtrip_type,
    );
}

#[test]
fn polkadot_9180_constants_and_defaults_roundtrip() {
    check_chain(
        "metadata/polkadot-v14-spec9180.scale",
        ferroscale_tests::polkadot_9180::roundtrip_type,
    );
}

#[test]
fn kusama_1001002_constants_and_defaults_roundtrip() {
    check_chain(
        "metadata/kusama-v15-spec1001002.scale",
        ferroscale_runtime_types::kusama::roundtrip_type,
    );
}

#[test]
fn asset_hub_2000003_constants_and_defaults_roundtrip() {
    // The fixture is trimmed to one pallet (all 770 types kept).
    check_chain(
        "metadata/statemint-v16-spec2000003-small.scale",
        ferroscale_runtime_types::asset_hub::roundtrip_type,
    );
}

#[test]
fn substrate_node_268_constants_and_defaults_roundtrip() {
    check_chain(
        "metadata/substrate-node-v15-spec268.scale",
        ferroscale_runtime_types::substrate_node::roundtrip_type,
    );
}

#[test]
fn unknown_type_ids_are_refused() {
    assert!(ferroscale_runtime_types::polkadot::roundtrip_type(u32::MAX, &[]).is_none());
}
