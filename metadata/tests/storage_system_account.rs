//! Real data: every `System.Account` pair of Polkadot block 10,000,000 is
//! rebuilt byte-for-byte from its account id, with the pallet prefix, the
//! entry name and the hasher taken from the metadata of that runtime (spec
//! 9180), and every value decodes as that runtime's `AccountInfo`, whose
//! shape is first confirmed against the metadata's type registry.
//!
//! The metadata comes through `ferroscale_metadata` (the project's
//! model), so this also checks that the model hands out the right prefix,
//! hasher and types for a storage entry.

use ferroscale_core::hashing::{split_storage_key, storage_key, StorageHasher};
use ferroscale_metadata::Metadata;
use parity_scale_codec::{Decode, DecodeAll};
use scale_info::form::PortableForm;
use scale_info::{PortableRegistry, TypeDef, TypeDefPrimitive};

const METADATA: &str = "metadata/polkadot-v14-spec9180.scale";
const PAIRS: &str = "payloads/polkadot-block-10000000/storage_system_account.json";

/// `frame_system::AccountInfo<u32, pallet_balances::AccountData<u128>>` as
/// spec 9180 has it (the registry check below must agree with this shape).
#[derive(Debug, Decode)]
struct AccountInfo {
    nonce: u32,
    consumers: u32,
    providers: u32,
    sufficients: u32,
    data: AccountData,
}

#[derive(Debug, Decode)]
struct AccountData {
    free: u128,
    reserved: u128,
    misc_frozen: u128,
    fee_frozen: u128,
}

fn metadata() -> Metadata {
    let bytes = ferroscale_fixtures::read(METADATA);
    let m = Metadata::from_bytes(&bytes).unwrap_or_else(|e| panic!("{METADATA}: {e}"));
    assert_eq!(m.version, 14, "{METADATA}");
    assert_eq!(m.spec_version(), Some(9180), "{METADATA}");
    m
}

fn registry(m: &Metadata) -> &PortableRegistry {
    m.types.as_ref().expect("V14 metadata has a type registry")
}

/// The System pallet's storage prefix and its `Account` entry's hashers, key
/// type id and value type id.
fn system_account(m: &Metadata) -> (String, Vec<StorageHasher>, u32, u32) {
    let system = m.pallet("System").expect("a System pallet");
    let storage = system.storage.as_ref().expect("System has storage");
    let entry = system.storage_entry("Account").expect("System.Account");
    assert_eq!(entry.keys.len(), entry.hashers.len());
    let key = entry
        .keys
        .first()
        .and_then(|k| k.id())
        .expect("a key type id");
    let value = entry.value.id().expect("a value type id");
    (storage.prefix.clone(), entry.hashers.clone(), key, value)
}

fn type_def(types: &PortableRegistry, id: u32) -> (&[String], &TypeDef<PortableForm>) {
    let ty = &types.resolve(id).unwrap_or_else(|| panic!("type {id}"));
    (&ty.path.segments, &ty.type_def)
}

/// The named fields of composite type `id`, with their type ids.
fn fields(types: &PortableRegistry, id: u32) -> Vec<(String, u32)> {
    match type_def(types, id).1 {
        TypeDef::Composite(c) => c
            .fields
            .iter()
            .map(|f| (f.name.clone().unwrap_or_default(), f.ty.id))
            .collect(),
        other => panic!("type {id} is not a composite: {other:?}"),
    }
}

fn is_primitive(types: &PortableRegistry, id: u32, expected: TypeDefPrimitive) -> bool {
    matches!(type_def(types, id).1, TypeDef::Primitive(p) if *p == expected)
}

/// Checks the key is `AccountId32([u8; 32])` and returns its encoded size.
fn account_id_size(types: &PortableRegistry, key: u32) -> usize {
    let (path, _) = type_def(types, key);
    assert_eq!(path.join("::"), "sp_core::crypto::AccountId32");
    let inner = fields(types, key);
    assert_eq!(inner.len(), 1);
    match type_def(types, inner[0].1).1 {
        TypeDef::Array(a) => {
            assert!(is_primitive(types, a.type_param.id, TypeDefPrimitive::U8));
            a.len as usize
        }
        other => panic!("AccountId32's field is not an array: {other:?}"),
    }
}

/// Confirms that the value type has exactly the shape of [`AccountInfo`].
fn assert_account_info_shape(types: &PortableRegistry, value: u32) {
    let (path, _) = type_def(types, value);
    assert_eq!(path.join("::"), "frame_system::AccountInfo");
    let info = fields(types, value);
    let names: Vec<&str> = info.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["nonce", "consumers", "providers", "sufficients", "data"]
    );
    for (name, id) in &info[..4] {
        assert!(is_primitive(types, *id, TypeDefPrimitive::U32), "{name}");
    }
    let data_id = info[4].1;
    assert_eq!(
        type_def(types, data_id).0.join("::"),
        "pallet_balances::AccountData"
    );
    let data = fields(types, data_id);
    let names: Vec<&str> = data.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["free", "reserved", "misc_frozen", "fee_frozen"]);
    for (name, id) in &data {
        assert!(is_primitive(types, *id, TypeDefPrimitive::U128), "{name}");
    }
}

/// `Balances.ExistentialDeposit`, from the metadata's constants.
fn existential_deposit(m: &Metadata) -> u128 {
    let constant = m
        .pallet("Balances")
        .and_then(|p| p.constant("ExistentialDeposit"))
        .expect("Balances.ExistentialDeposit");
    u128::decode_all(&mut &constant.value[..]).unwrap()
}

fn pairs() -> Vec<(Vec<u8>, Vec<u8>)> {
    let text = ferroscale_fixtures::read_string(PAIRS);
    let json: Vec<[String; 2]> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{PAIRS}: {e}"));
    json.iter()
        .map(|[k, v]| {
            (
                ferroscale_core::hex::decode(k).unwrap(),
                ferroscale_core::hex::decode(v).unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_key_is_rebuilt_from_its_account_id_and_the_metadata() {
    let m = metadata();
    let (prefix, hashers, key_ty, value_ty) = system_account(&m);
    assert_eq!(prefix, "System");
    assert_eq!(hashers.len(), 1, "System.Account has one key");
    let hasher = hashers[0];
    let size = account_id_size(registry(&m), key_ty);
    assert_eq!(size, 32);
    assert_account_info_shape(registry(&m), value_ty);

    let pairs = pairs();
    assert_eq!(pairs.len(), 100, "pairs in {PAIRS}");
    let mut seen = std::collections::HashSet::new();
    for (key, _) in &pairs {
        assert!(key.len() >= size, "key of {} bytes", key.len());
        let account = &key[key.len() - size..];
        let rebuilt = storage_key(&prefix, "Account", &[(hasher, account)]);
        assert_eq!(
            ferroscale_core::hex::encode_prefixed(&rebuilt),
            ferroscale_core::hex::encode_prefixed(key)
        );
        // And back: the key splits into the same account id.
        let parts = split_storage_key(key, &prefix, "Account", &hashers, &[Some(size)]).unwrap();
        assert_eq!(parts[0].key, Some(account));
        assert!(seen.insert(account.to_vec()), "duplicate account");
    }
    // The hasher is what the metadata says; it must be one that keeps the key.
    assert_eq!(hasher, StorageHasher::Blake2_128Concat);
}

#[test]
fn every_value_decodes_as_the_runtimes_account_info() {
    let m = metadata();
    let (_, _, _, value_ty) = system_account(&m);
    assert_account_info_shape(registry(&m), value_ty);
    let existential = existential_deposit(&m);
    assert_eq!(existential, 10_000_000_000, "1 DOT at spec 9180");

    let pairs = pairs();
    let mut with_nonce = 0;
    for (key, value) in &pairs {
        let info = AccountInfo::decode_all(&mut &value[..]).unwrap_or_else(|e| {
            panic!(
                "value of {}: {e}",
                ferroscale_core::hex::encode_prefixed(key)
            )
        });
        let AccountData {
            free,
            reserved,
            misc_frozen,
            fee_frozen,
        } = info.data;
        // A stored account is kept alive by a provider or sufficient reference
        // and holds at least the existential deposit.
        assert!(info.providers + info.sufficients >= 1, "{info:?}");
        // frame_system refuses a consumer reference without a provider.
        assert!(info.consumers == 0 || info.providers > 0, "{info:?}");
        assert!(free + reserved >= existential, "{info:?}");
        assert!(free > 0, "{info:?}");
        assert!(misc_frozen <= free && fee_frozen <= free, "{info:?}");
        with_nonce += usize::from(info.nonce > 0);
    }
    // Some of these accounts have sent transactions and some have not (a
    // decoder reading the wrong bytes would not see this mix).
    assert!(with_nonce > 0 && with_nonce < pairs.len(), "{with_nonce}");
}

#[test]
fn a_value_with_trailing_or_missing_bytes_is_refused() {
    let (_, value) = pairs().swap_remove(0);
    let mut longer = value.clone();
    longer.push(0);
    assert!(AccountInfo::decode_all(&mut &longer[..]).is_err());
    assert!(AccountInfo::decode_all(&mut &value[..value.len() - 1]).is_err());
}
