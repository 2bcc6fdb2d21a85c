//! Real chain data decodes with the generated types and re-encodes to the
//! same bytes; truncated and garbage input gives errors, never panics.

use ferroscale_runtime_types::{decode_all, AccountId32};
use ferroscale_test_support::Xorshift;
use ferroscale_tests::{polkadot_9180, subtensor_rpc};
use parity_scale_codec::Encode;

// The runtime-API results were encoded with the registry of
// `payloads/subtensor/test_types.json` (older than spec 343, whose
// `DelegateInfo.nominators` carries per-subnet stakes).
use subtensor_rpc::runtime_types::pallet_subtensor::rpc_info as rpc;
type DelegateInfo = rpc::delegate_info::DelegateInfo<AccountId32>;

fn block_extrinsics() -> Vec<Vec<u8>> {
    let text = ferroscale_fixtures::read_string("payloads/polkadot-block-10000000/extrinsics.json");
    let list: Vec<String> =
        serde_json::from_str(&text).expect("extrinsics.json is a list of hex strings");
    list.iter()
        .map(|h| ferroscale_fixtures::decode_hex(h).expect("hex"))
        .collect()
}

#[test]
fn block_10000000_extrinsics_roundtrip_with_spec_9180_types() {
    let extrinsics = block_extrinsics();
    assert!(!extrinsics.is_empty());
    for (i, bytes) in extrinsics.iter().enumerate() {
        let xt: polkadot_9180::UncheckedExtrinsic =
            decode_all(bytes).unwrap_or_else(|e| panic!("extrinsic {i}: {e}"));
        assert_eq!(&xt.encode(), bytes, "extrinsic {i} re-encodes differently");
    }
    eprintln!("{} extrinsics round-trip", extrinsics.len());
}

#[test]
fn the_timestamp_inherent_decodes_to_its_call() {
    let first = &block_extrinsics()[0];
    let xt: polkadot_9180::UncheckedExtrinsic = decode_all(first).unwrap();
    assert!(xt.signature().is_none());
    let text = format!("{:?}", xt.function);
    assert!(text.starts_with("Timestamp(set {"), "{text}");
}

#[test]
fn every_prefix_of_a_real_extrinsic_is_an_error() {
    for bytes in block_extrinsics() {
        for cut in 0..bytes.len() {
            let r = decode_all::<polkadot_9180::UncheckedExtrinsic>(&bytes[..cut]);
            assert!(r.is_err(), "prefix of {cut}/{} bytes decoded", bytes.len());
        }
    }
}

#[test]
fn garbage_bytes_give_errors_not_panics() {
    // A fixed-seed xorshift: reproducible garbage of many lengths.
    let mut random = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    let mut decoded = 0;
    for len in 0..2000usize {
        let bytes: Vec<u8> = (0..len % 300).map(|_| random.next_u8()).collect();
        decoded += usize::from(decode_all::<polkadot_9180::UncheckedExtrinsic>(&bytes).is_ok());
        decoded += usize::from(decode_all::<polkadot_9180::RuntimeCall>(&bytes).is_ok());
        decoded += usize::from(decode_all::<Vec<DelegateInfo>>(&bytes).is_ok());
    }
    // Some short garbage may happen to be valid; most must not be.
    assert!(decoded < 1000, "{decoded} of 6000 garbage inputs decoded");
}

#[test]
fn deeply_nested_calls_hit_the_depth_limit() {
    // utility.batch([utility.batch([… ])]) nested far beyond any real call:
    // Utility is pallet 26, batch is call 0, the vec holds one call.
    let mut bytes = Vec::new();
    for _ in 0..10_000 {
        bytes.extend_from_slice(&[26, 0, 4]);
    }
    assert!(decode_all::<polkadot_9180::RuntimeCall>(&bytes).is_err());
}

#[test]
fn system_account_values_at_block_10000000_roundtrip() {
    type AccountInfo = polkadot_9180::runtime_types::frame_system::AccountInfo<
        u32,
        polkadot_9180::runtime_types::pallet_balances::AccountData<u128>,
    >;
    let text = ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    );
    let pairs: Vec<(String, String)> = serde_json::from_str(&text).unwrap();
    assert!(!pairs.is_empty());
    for (key, value) in &pairs {
        let key = ferroscale_fixtures::decode_hex(key).unwrap();
        let value = ferroscale_fixtures::decode_hex(value).unwrap();
        // twox128("System") ++ twox128("Account") ++ blake2_128(id) ++ id
        let id: AccountId32 = decode_all(&key[48..]).expect("key ends with the account id");
        let info: AccountInfo = decode_all(&value).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(info.encode(), value, "{id}");
    }
    eprintln!("{} System.Account values round-trip", pairs.len());
}

#[test]
fn delegates_info_decodes_as_360_delegates_and_roundtrips() {
    let bytes = ferroscale_fixtures::read_hex("payloads/subtensor/delegates_info.hex");
    let delegates: Vec<DelegateInfo> = decode_all(&bytes).expect("delegates_info decodes");
    assert_eq!(delegates.len(), 360);
    assert_eq!(delegates.encode(), bytes);
    let nominations: usize = delegates.iter().map(|d| d.nominators.len()).sum();
    assert!(nominations > 0);
    // Every delegate's owner prints as an SS58 address.
    assert!(delegates
        .iter()
        .all(|d| d.owner_ss58.to_string().starts_with('5')));
}

#[test]
fn delegated_info_roundtrips() {
    fn check<T: parity_scale_codec::Decode + Encode>(fixture: &str) -> T {
        let bytes = ferroscale_fixtures::read_hex(fixture);
        let value: T = decode_all(&bytes).unwrap_or_else(|e| panic!("{fixture}: {e}"));
        assert_eq!(value.encode(), bytes, "{fixture}");
        value
    }
    type Stake = parity_scale_codec::Compact<u64>;
    let delegated = check::<Vec<(DelegateInfo, Stake)>>("payloads/subtensor/delegated_info.hex");
    assert!(!delegated.is_empty());
}

#[test]
fn truncated_delegates_info_is_an_error() {
    let bytes = ferroscale_fixtures::read_hex("payloads/subtensor/delegates_info.hex");
    for cut in (0..bytes.len()).step_by(997) {
        assert!(
            decode_all::<Vec<DelegateInfo>>(&bytes[..cut]).is_err(),
            "cut {cut}"
        );
    }
}
