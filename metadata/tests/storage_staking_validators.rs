//! Real data for `Twox64Concat`: every `Staking.Validators` pair of Polkadot
//! block 5,000,000 (runtime spec 30, V12 metadata) is rebuilt byte-for-byte
//! from its stash account id with the prefix and hasher from that metadata,
//! and every value decodes as that runtime's `ValidatorPrefs`.

use ferroscale_core::hashing::{split_storage_key, storage_key, StorageHasher};
use ferroscale_core::hex::{decode as unhex, encode_prefixed as hex};
use ferroscale_metadata::{Metadata, TypeRef};
use parity_scale_codec::{Compact, Decode, DecodeAll};

const METADATA: &str = "metadata/polkadot-v12-spec30.scale";
const PAIRS: &str = "payloads/polkadot-block-5000000/storage_staking_validators.json";

/// An `AccountId` of Polkadot (sr25519/ed25519 public key or its hash).
const ACCOUNT_ID_LEN: usize = 32;

/// `pallet_staking::ValidatorPrefs` at spec 30. Legacy metadata names the
/// type without describing it; the entry's default value (below) and every
/// stored value must decode as exactly this.
#[derive(Debug, Decode)]
struct ValidatorPrefs {
    commission: Compact<u32>,
    blocked: bool,
}

/// Perbill's denominator: a commission is at most 100 %.
const PERBILL: u32 = 1_000_000_000;

#[test]
fn every_key_is_rebuilt_and_every_value_decodes() {
    let metadata = Metadata::from_bytes(&ferroscale_fixtures::read(METADATA))
        .unwrap_or_else(|e| panic!("{METADATA}: {e}"));
    assert_eq!((metadata.version, metadata.spec_version()), (12, Some(30)));
    let staking = metadata.pallet("Staking").expect("Staking pallet");
    let prefix = &staking.storage.as_ref().expect("Staking storage").prefix;
    let entry = staking
        .storage_entry("Validators")
        .expect("Staking.Validators");
    assert_eq!(entry.keys, [TypeRef::Name("T::AccountId".into())]);
    assert_eq!(entry.value, TypeRef::Name("ValidatorPrefs".into()));
    let hashers = entry.hashers.clone();
    assert_eq!(hashers, [StorageHasher::Twox64Concat]);
    let default = ValidatorPrefs::decode_all(&mut &entry.default[..]).expect("default decodes");
    assert_eq!((default.commission.0, default.blocked), (0, false));

    let json: Vec<[String; 2]> =
        serde_json::from_str(&ferroscale_fixtures::read_string(PAIRS)).expect("pairs JSON");
    assert_eq!(json.len(), 100, "pairs in {PAIRS}");
    let mut commissions = std::collections::BTreeSet::new();
    for [key, value] in &json {
        let key = unhex(key).unwrap();
        let stash = &key[key.len() - ACCOUNT_ID_LEN..];
        let rebuilt = storage_key(prefix, &entry.name, &[(hashers[0], stash)]);
        assert_eq!(hex(&rebuilt), hex(&key));
        let parts = split_storage_key(&key, prefix, &entry.name, &hashers, &[Some(ACCOUNT_ID_LEN)])
            .unwrap();
        assert_eq!(parts[0].key, Some(stash));

        let prefs = ValidatorPrefs::decode_all(&mut &unhex(value).unwrap()[..])
            .unwrap_or_else(|e| panic!("{value}: {e}"));
        assert!(prefs.commission.0 <= PERBILL, "{prefs:?}");
        commissions.insert(prefs.commission.0);
    }
    // Validators set different commissions; a misread field would not vary.
    assert!(commissions.len() > 5, "{commissions:?}");
}
