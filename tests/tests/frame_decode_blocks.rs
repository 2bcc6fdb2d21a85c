//! Polkadot block 10,000,000 (runtime spec 9180, the test-only typed chain
//! of this crate) against Parity's `frame-decode`: every recorded extrinsic
//! part by part (typed = dynamic = frame-decode), every call built signed and
//! unsigned, and the recorded `System.Account` keys and a key of every
//! storage map of the runtime.

use ferroscale_fixture_chains::{
    check_built_extrinsics, check_real_extrinsics, check_real_storage_keys, check_storage_keys,
    hex_list, TypedExtrinsic,
};
use ferroscale_tests::polkadot_9180 as rt;

const METADATA: &str = "metadata/polkadot-v14-spec9180.scale";

fn typed_extrinsic(bytes: &[u8]) -> Result<TypedExtrinsic, String> {
    let x: rt::UncheckedExtrinsic =
        ferroscale_runtime_types::decode_all(bytes).map_err(|e| e.to_string())?;
    Ok(TypedExtrinsic::of(&x))
}

#[test]
fn block_10000000_extrinsics_agree_with_frame_decode() {
    let extrinsics = hex_list("payloads/polkadot-block-10000000/extrinsics.json");
    let checked = check_real_extrinsics(METADATA, &extrinsics, typed_extrinsic);
    assert_eq!(checked, extrinsics.len());
}

#[test]
fn every_call_of_spec_9180_agrees_with_frame_decode() {
    let counts = check_built_extrinsics(METADATA, rt::roundtrip_type, typed_extrinsic);
    assert!(
        counts.by_form.iter().any(|(f, _)| f == "v4 signed"),
        "{counts:?}"
    );
}

#[test]
fn system_account_keys_of_block_10000000_agree_with_frame_decode() {
    let text = ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    );
    let pairs: Vec<(String, String)> = serde_json::from_str(&text).expect("[key, value] pairs");
    let keys: Vec<Vec<u8>> = pairs
        .iter()
        .map(|(k, _)| ferroscale_fixtures::decode_hex(k).expect("hex key"))
        .collect();
    let checked = check_real_storage_keys(METADATA, "System", "Account", &keys);
    assert_eq!(checked, pairs.len());
}

#[test]
fn storage_keys_of_spec_9180_agree_with_frame_decode() {
    check_storage_keys(METADATA, rt::roundtrip_type, rt::storage_key_roundtrip);
}
