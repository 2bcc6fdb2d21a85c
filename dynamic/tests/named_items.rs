//! Storage entries, constants, events and py-scale-codec's common type
//! strings by name, over real metadata and real chain data: Polkadot block
//! 10,000,000's `System.Account` pairs (spec 9180) and block 18,468,942's
//! events and extrinsics (spec 1000001).

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{Error, ItemKind};
use ferroscale_metadata::{Metadata, StorageHasher};
use ferroscale_value::Value;

fn metadata(name: &str) -> Metadata {
    Metadata::load(&ferroscale_fixtures::read(name)).expect("metadata loads")
}

fn hex(s: &str) -> Vec<u8> {
    ferroscale_fixtures::decode_hex(s).expect("hex")
}

fn account_pairs() -> Vec<(Vec<u8>, Vec<u8>)> {
    let pairs: Vec<(String, String)> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    ))
    .expect("json");
    assert!(!pairs.is_empty());
    pairs.iter().map(|(k, v)| (hex(k), hex(v))).collect()
}

#[test]
fn system_account_keys_read_back_and_rebuild_and_values_decode_by_name() {
    let md = metadata("metadata/polkadot-v14-spec9180.scale");
    let mut registry = Registry::from_metadata(&md).expect("registry");
    let pairs = account_pairs();
    for (key, value) in &pairs {
        let parts = registry
            .decode_storage_key("System", "Account", key)
            .expect("a real System.Account key");
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].hasher, StorageHasher::Blake2_128Concat);
        let account = parts[0].value.clone().expect("concat keys read back");
        // The account is the key's last 32 bytes (after prefix and digest).
        let expected = ferroscale_core::hex::encode_prefixed(&key[key.len() - 32..]);
        assert_eq!(account.as_str(), Some(expected.as_str()));
        let rebuilt = registry
            .storage_key("System", "Account", std::slice::from_ref(&account))
            .expect("key");
        assert_eq!(&rebuilt, key);
        // A partial key (no keys) is the map's prefix.
        let prefix = registry.storage_key("System", "Account", &[]).unwrap();
        assert_eq!(prefix, key[..32]);

        let by_name = registry.decode_storage("System", "Account", value).unwrap();
        let by_id = registry
            .decode(
                &format!(
                    "scale_info::{}",
                    md.storage_entry("System", "Account")
                        .unwrap()
                        .1
                        .value
                        .id()
                        .unwrap()
                ),
                value,
            )
            .unwrap();
        assert_eq!(by_name, by_id);
        // Spec 9180's field names (the shipped 1001002 types say `frozen`).
        let data = by_name.get("data").expect("data");
        assert!(data.get("misc_frozen").is_some() && data.get("fee_frozen").is_some());
    }
}

#[test]
fn registry_over_a_loaded_metadata_equals_one_over_its_bytes() {
    let bytes = ferroscale_fixtures::read("metadata/polkadot-v14-spec9180.scale");
    let md = Metadata::load(&bytes).unwrap();
    let mut from_model = Registry::from_metadata(&md).unwrap();
    let mut from_bytes = Registry::new();
    from_bytes.load_metadata(&bytes).unwrap();
    let (_, value) = &account_pairs()[0];
    assert_eq!(
        from_model
            .decode_storage("System", "Account", value)
            .unwrap(),
        from_bytes
            .decode_storage("System", "Account", value)
            .unwrap()
    );
    assert_eq!(from_model.metadata(), Some(&md));
}

#[test]
fn constants_and_defaults_decode_by_name() {
    let md = metadata("metadata/polkadot-v14-spec9180.scale");
    let mut registry = Registry::from_metadata(&md).unwrap();
    let c = md
        .pallet("Balances")
        .unwrap()
        .constant("ExistentialDeposit")
        .unwrap();
    let ed = registry.constant("Balances", "ExistentialDeposit").unwrap();
    assert_eq!(ed, registry.decode("u128", &c.value).unwrap());
    assert!(matches!(ed, Value::UInt(n) if n > 0));
    // A ValueQuery default decodes; an OptionQuery entry reads as None.
    let account = registry.storage_default("System", "Account").unwrap();
    assert_eq!(account.get("nonce"), Some(&Value::UInt(0)));
    let optional = md
        .pallets
        .iter()
        .flat_map(|p| p.storage_entries().iter().map(move |e| (p, e)))
        .find(|(_, e)| e.modifier == ferroscale_metadata::StorageModifier::Optional)
        .expect("an OptionQuery entry");
    assert_eq!(
        registry
            .storage_default(&optional.0.name, &optional.1.name)
            .unwrap(),
        Value::Null
    );
}

#[test]
fn wrong_names_and_foreign_keys_are_errors_that_say_what() {
    let md = metadata("metadata/polkadot-v14-spec9180.scale");
    let mut registry = Registry::from_metadata(&md).unwrap();
    let e = registry.storage_key("System", "Acount", &[]).unwrap_err();
    assert_eq!(
        e,
        Error::NotFound {
            kind: ItemKind::Storage,
            pallet: "System".into(),
            name: "Acount".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "the metadata has no storage entry System.Acount"
    );
    assert!(matches!(
        registry.constant("Nope", "X").unwrap_err(),
        Error::NotFound {
            kind: ItemKind::Constant,
            ..
        }
    ));
    let (key, _) = &account_pairs()[0];
    // The key of System.Account is not one of Balances.Locks.
    let e = registry
        .decode_storage_key("Balances", "Locks", key)
        .unwrap_err();
    assert!(
        matches!(&e, Error::StorageKey { pallet, item, key: None, offset: 0, .. }
            if pallet == "Balances" && item == "Locks"),
        "{e}"
    );
    assert!(e.to_string().contains("belongs to another entry"), "{e}");
    // A truncated key: the account does not fit.
    let e = registry
        .decode_storage_key("System", "Account", &key[..key.len() - 1])
        .unwrap_err();
    assert!(e.to_string().contains("byte"), "{e}");
    // Too many keys.
    assert!(matches!(
        registry
            .storage_key("System", "Account", &[Value::Null, Value::Null])
            .unwrap_err(),
        Error::Usage(_)
    ));
    // Without metadata: the item is named.
    let e = Registry::new()
        .constant("Balances", "ExistentialDeposit")
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("constant Balances.ExistentialDeposit"),
        "{e}"
    );
}

#[test]
fn py_scale_codec_common_strings_resolve_against_v14_metadata() {
    let md = metadata("metadata/polkadot-v14-spec1000001.scale");
    let mut registry = Registry::from_metadata(&md).unwrap();
    let events = ferroscale_fixtures::read_string("payloads/polkadot-block-18468942/events.hex");
    let events = hex(events.trim());
    let by_name = registry.decode_events(&events).unwrap();
    let Value::List(records) = &by_name else {
        panic!("a list of event records: {by_name:?}")
    };
    assert_eq!(records.len(), events[0] as usize >> 2);
    assert_eq!(
        registry.decode("Vec<EventRecord>", &events).unwrap(),
        by_name
    );
    // One record alone (58 fits the one-byte compact prefix).
    let record = registry.resolve("EventRecord").unwrap();
    let (first, _) = ferroscale_dynamic::decode_prefix(
        &registry.context(),
        record,
        &events[1..],
        &mut ferroscale_dynamic::ValueSink,
    )
    .unwrap();
    assert_eq!(&first, &records[0]);

    let extrinsics: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-18468942/extrinsics.json",
    ))
    .unwrap();
    // Events by name: every signed extrinsic paid a fee.
    let fees = ferroscale_dynamic::registry::events_named(
        &by_name,
        "TransactionPayment",
        "TransactionFeePaid",
    );
    let signed = extrinsics
        .iter()
        .filter(|x| {
            let b = hex(x);
            b[[1, 2, 4][(b[0] & 3) as usize]] & 0x80 != 0
        })
        .count();
    assert!(signed > 0);
    assert_eq!(fees.len(), signed);
    assert!(ferroscale_dynamic::registry::events_named(&by_name, "Nope", "X").is_empty());
    let mut unsigned = 0;
    for (i, x) in extrinsics.iter().enumerate() {
        let bytes = hex(x);
        let v = registry
            .decode("Extrinsic", &bytes)
            .unwrap_or_else(|e| panic!("extrinsic {i}: {e}"));
        let call = v.get("call").expect("call");
        // An unsigned extrinsic is its length, the version byte 0x04 and
        // the call: `Call` decodes that tail to the same call.
        let prefix = match bytes[0] & 3 {
            0 => 1,
            1 => 2,
            2 => 4,
            _ => panic!("extrinsic {i}: a length of 2^30 bytes or more"),
        };
        if bytes[prefix] == 0x04 {
            let alone = registry.decode("Call", &bytes[prefix + 1..]).unwrap();
            assert_eq!(&alone, call, "extrinsic {i}");
            unsigned += 1;
        }
    }
    assert!(unsigned > 0, "the block has inherents");
}

/// `storage_keys` of many accounts (SS58 and hex, read together; hashed in
/// vector lanes) is `storage_key` of each, and a bad account among them is
/// the encoder's error for it.
#[test]
fn storage_keys_of_many_is_storage_key_of_each() {
    let md = metadata("metadata/polkadot-v14-spec9180.scale");
    let mut registry = Registry::from_metadata(&md).expect("registry");
    let pairs = account_pairs();
    let mut keys: Vec<Vec<Value>> = Vec::new();
    for (i, (key, _)) in pairs.iter().enumerate() {
        let account = &key[48..];
        let text = if i % 3 == 0 {
            ferroscale_core::hex::encode_prefixed(account)
        } else {
            ferroscale_core::ss58::encode(account, [0, 2, 42][i % 3]).unwrap()
        };
        keys.push(vec![Value::str(text)]);
    }
    keys.push(Vec::new()); // the map's prefix
    let many = registry
        .storage_keys("System", "Account", &keys)
        .expect("keys");
    assert_eq!(many.len(), keys.len());
    for (i, (one_key, built)) in keys.iter().zip(&many).enumerate() {
        assert_eq!(
            *built,
            registry.storage_key("System", "Account", one_key).unwrap()
        );
        if let Some((key, _)) = pairs.get(i) {
            assert_eq!(built, key, "key {i}");
        }
    }
    let mut bad = keys.clone();
    bad[5] = vec![Value::str(
        "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ",
    )];
    let e = registry
        .storage_keys("System", "Account", &bad)
        .unwrap_err();
    let one = registry
        .storage_key("System", "Account", &bad[5])
        .unwrap_err();
    assert_eq!(e.to_string(), one.to_string());
    assert!(e.to_string().contains("checksum"), "{e}");
}
