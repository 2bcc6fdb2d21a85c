//! Generated types become dynamic values in py-scale-codec's shapes.

use ferroscale_runtime_types::{decode_all, AccountId32, ToValue};
use ferroscale_tests::{polkadot_9180, subtensor_rpc};
use ferroscale_value::Value;

type DelegateInfo =
    subtensor_rpc::runtime_types::pallet_subtensor::rpc_info::delegate_info::DelegateInfo<
        AccountId32,
    >;

#[test]
fn delegates_info_becomes_a_list_of_dicts_in_field_order() {
    let bytes = ferroscale_fixtures::read_hex("payloads/subtensor/delegates_info.hex");
    let delegates: Vec<DelegateInfo> = decode_all(&bytes).unwrap();
    let value = delegates.to_value();
    let items = value.as_items().expect("a list");
    assert_eq!(items.len(), 360);
    let Value::Dict(first) = &items[0] else {
        panic!("a dict: {:?}", items[0])
    };
    let keys: Vec<&str> = first.iter().map(|(k, _)| &**k).collect();
    assert_eq!(
        keys,
        [
            "delegate_ss58",
            "take",
            "nominators",
            "owner_ss58",
            "registrations",
            "validator_permits",
            "return_per_1000",
            "total_daily_return"
        ]
    );
    // Account ids are 0x hex (no SS58 format is set at this layer), compacts are ints.
    let id = items[0]
        .get("delegate_ss58")
        .and_then(Value::as_str)
        .unwrap();
    assert_eq!(
        id,
        ferroscale_core::hex::encode_prefixed(&delegates[0].delegate_ss58.0)
    );
    assert_eq!(
        items[0].get("take").and_then(Value::as_u128),
        Some(u128::from(delegates[0].take))
    );
    // A nominator is a (account, stake) tuple.
    let nominators = items[0]
        .get("nominators")
        .and_then(Value::as_items)
        .unwrap();
    if let Some(Value::Tuple(pair)) = nominators.first() {
        assert_eq!(pair.len(), 2);
        assert!(pair[0].as_str().unwrap().starts_with("0x"));
    }
}

#[test]
fn calls_become_nested_variant_dicts() {
    let text = ferroscale_fixtures::read_string("payloads/polkadot-block-10000000/extrinsics.json");
    let list: Vec<String> = serde_json::from_str(&text).unwrap();
    let first = ferroscale_fixtures::decode_hex(&list[0]).unwrap();
    let xt: polkadot_9180::UncheckedExtrinsic = decode_all(&first).unwrap();
    let value = xt.to_value();
    let call = value.get("call").expect("call");
    let now = call
        .get("Timestamp")
        .and_then(|c| c.get("set"))
        .and_then(|s| s.get("now"))
        .and_then(Value::as_u128);
    assert!(now.is_some_and(|n| n > 1_600_000_000_000), "{call:?}");
    assert!(
        value.get("address").is_none(),
        "unsigned extrinsic has no address"
    );
}
