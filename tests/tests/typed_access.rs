//! Typed access per pallet on real data: storage keys equal the chain's,
//! constants decode to their known values, call constructors encode to the
//! block's call bytes.

use ferroscale_runtime_types::{decode_all, polkadot, AccountId32};
use ferroscale_tests::polkadot_9180;
use parity_scale_codec::Encode;

#[test]
fn system_account_keys_equal_the_chains_keys() {
    let text = ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    );
    let pairs: Vec<(String, String)> = serde_json::from_str(&text).unwrap();
    use polkadot_9180::pallets::system::storage;
    assert!(!pairs.is_empty());
    for (key, _) in &pairs {
        let key = ferroscale_fixtures::decode_hex(key).unwrap();
        let id: AccountId32 = decode_all(&key[48..]).unwrap();
        assert_eq!(storage::account(&id), key, "{id}");
        // The way back: the account, from the key alone.
        assert_eq!(storage::account_decode_key(&key).unwrap(), id);
        assert!(key.starts_with(&storage::account_prefix()));
        assert_eq!(storage::account_prefix().len(), 32);
    }
}

#[test]
fn storage_keys_of_other_entries_or_damaged_are_refused() {
    use polkadot_9180::pallets::{balances, system};
    let text = ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    );
    let pairs: Vec<(String, String)> = serde_json::from_str(&text).unwrap();
    let key = ferroscale_fixtures::decode_hex(&pairs[0].0).unwrap();
    let other = balances::storage::account_decode_key(&key).unwrap_err();
    assert_eq!(
        other.to_string(),
        "storage key of Balances.Account at byte 0: the key belongs to another entry"
    );
    let mut flipped = key.clone();
    flipped[60] ^= 0x40;
    assert_eq!(
        system::storage::account_decode_key(&flipped)
            .unwrap_err()
            .to_string(),
        "storage key of System.Account, map key 0 at byte 48: the digest does not match the key bytes that follow it"
    );
    for cut in 0..key.len() {
        assert!(system::storage::account_decode_key(&key[..cut]).is_err());
    }
}

#[test]
fn plain_storage_keys_are_the_twox_prefix() {
    // twox128("Timestamp") ++ twox128("Now"), a well-known key.
    let key = polkadot::pallets::timestamp::storage::now();
    assert_eq!(
        ferroscale_core::hex::encode_prefixed(&key),
        "0xf0c365c3cf59d671eb72da0e7a4113c49f1f0515f462cdcf84e0f1d6045dfcbb"
    );
}

#[test]
fn constants_decode_to_the_runtimes_values() {
    use polkadot::pallets;
    // 1 DOT (10^10 planck) is Polkadot's existential deposit; 6 s blocks.
    assert_eq!(
        pallets::balances::constants::existential_deposit().unwrap(),
        10_000_000_000
    );
    assert_eq!(
        pallets::babe::constants::expected_block_time().unwrap(),
        6000
    );
    assert_eq!(pallets::system::constants::ss58_prefix().unwrap(), 0);
    let version = pallets::system::constants::version().unwrap();
    assert_eq!(version.spec_version, 1_001_002);
    assert_eq!(version.spec_name, "polkadot");
}

#[test]
fn storage_defaults_decode() {
    use polkadot::pallets;
    assert_eq!(
        pallets::balances::storage::total_issuance_default().unwrap(),
        0
    );
    let info = pallets::system::storage::account_default().unwrap();
    assert_eq!(info.nonce, 0);
}

#[test]
fn call_constructors_encode_to_the_blocks_call_bytes() {
    let text = ferroscale_fixtures::read_string("payloads/polkadot-block-10000000/extrinsics.json");
    let list: Vec<String> = serde_json::from_str(&text).unwrap();
    let first = ferroscale_fixtures::decode_hex(&list[0]).unwrap();
    let xt: polkadot_9180::UncheckedExtrinsic = decode_all(&first).unwrap();
    let polkadot_9180::RuntimeCall::Timestamp(
        polkadot_9180::runtime_types::pallet_timestamp::pallet::Call::set { now },
    ) = xt.function
    else {
        panic!("the first extrinsic is the timestamp inherent");
    };
    let built = polkadot_9180::pallets::timestamp::calls::set(now);
    // compact length, version 0x04, then the call.
    assert_eq!(built.encode(), first[2..].to_vec());
}

/// The names a typed call gives (`pallet_name`, `call_name`) are the ones
/// the dynamic layer decodes from the same bytes (`call_module`,
/// `call_function`), for every extrinsic of block 10,000,000; the events
/// enum's names are its pallets' and their events' metadata names.
#[test]
fn typed_call_names_are_the_dynamic_layers() {
    use ferroscale_metadata::Metadata;
    use ferroscale_value::Value;
    let metadata = Metadata::from_bytes(&ferroscale_fixtures::read(
        "metadata/polkadot-v14-spec9180.scale",
    ))
    .unwrap();
    let mut registry = ferroscale_dynamic::registry::Registry::from_metadata(&metadata).unwrap();
    let text = ferroscale_fixtures::read_string("payloads/polkadot-block-10000000/extrinsics.json");
    let hexes: Vec<String> = serde_json::from_str(&text).unwrap();
    assert!(!hexes.is_empty());
    for hex in &hexes {
        let bytes = ferroscale_fixtures::decode_hex(hex).unwrap();
        let typed: polkadot_9180::UncheckedExtrinsic = decode_all(&bytes).unwrap();
        let dynamic = registry.decode("Extrinsic", &bytes).unwrap();
        let call = dynamic.get("call").unwrap();
        let name = |key: &str| call.get(key).and_then(Value::as_str).unwrap();
        assert_eq!(
            (typed.function.pallet_name(), typed.function.call_name()),
            (name("call_module"), name("call_function")),
            "{hex:.40}"
        );
    }
    let event = polkadot_9180::RuntimeEvent::System(
        polkadot_9180::runtime_types::frame_system::pallet::Event::NewAccount {
            account: AccountId32([7; 32]),
        },
    );
    assert_eq!(
        (event.pallet_name(), event.event_name()),
        ("System", "NewAccount")
    );
}
