//! Polkadot spec 1000001 (V14): every constant, storage default and custom
//! value decodes with types the proc-macro generates from the fixture and re-
//! encodes to its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/polkadot-v14-spec1000001.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn polkadot_1000001_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/polkadot-v14-spec1000001.scale",
        chain::roundtrip_type,
    );
}

ferroscale_fixture_chains::frame_decode_checks!(
    "metadata/polkadot-v14-spec1000001.scale",
    forms = ["v4 unsigned", "v4 signed"]
);

/// The 4 extrinsics of block 18,468,942 (2 signed, one a 50 KB
/// `ParaInherent.enter`): typed = dynamic = frame-decode part by part.
#[test]
fn polkadot_1000001_block_extrinsics_agree_with_frame_decode() {
    let extrinsics =
        ferroscale_fixture_chains::hex_list("payloads/polkadot-block-18468942/extrinsics.json");
    let checked = ferroscale_fixture_chains::check_real_extrinsics(
        "metadata/polkadot-v14-spec1000001.scale",
        &extrinsics,
        typed_extrinsic,
    );
    assert_eq!(checked, 4);
}
