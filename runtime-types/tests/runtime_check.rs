//! Types that know their runtime: the shipped `polkadot` module (spec
//! 1001002) fits its own metadata item for item, and is refused, naming the
//! items, for Polkadot spec 9180, whose `System.Account` it would otherwise
//! decode without error but with the wrong field names.

use ferroscale_metadata::fingerprint::{Change, ItemDiff, ItemKind, Problem};
use ferroscale_metadata::Metadata;
use ferroscale_runtime_types::polkadot;

fn load(name: &str) -> Metadata {
    Metadata::load(&ferroscale_fixtures::read(name)).expect("metadata loads")
}

#[test]
fn the_shipped_module_fits_the_metadata_it_was_generated_from() {
    let metadata = load("metadata/polkadot-v15-spec1001002.scale");
    assert_eq!(metadata.spec_name(), Some(polkadot::SPEC_NAME));
    assert_eq!(metadata.spec_version(), Some(polkadot::SPEC_VERSION));
    let fingerprint = metadata.fingerprint().unwrap();
    assert_eq!(fingerprint.hash, polkadot::METADATA_HASH);
    metadata
        .check(&polkadot::RUNTIME)
        .expect("fits its own runtime");
    for kind in ItemKind::ALL {
        let items = polkadot::RUNTIME.items(kind);
        assert_eq!(items.len(), fingerprint.items(kind).len(), "{kind}");
        // View functions are V16; this metadata is V15 and lists none.
        let expected = kind != ItemKind::ViewFunction;
        assert_eq!(!items.is_empty(), expected, "Polkadot has {kind} items");
        for &(pallet, name, _) in items {
            metadata
                .check_item(&polkadot::RUNTIME, kind, pallet, name)
                .unwrap();
        }
    }
}

#[test]
fn spec_9180_is_refused_before_its_system_account_is_misread() {
    let metadata = load("metadata/polkadot-v14-spec9180.scale");

    // Without the check, the spec-9180 value decodes "fine" with the
    // 1001002 type: same length, other meaning (`frozen`/`flags` where the
    // runtime has `misc_frozen`/`fee_frozen`).
    let pairs: Vec<(String, String)> = serde_json::from_slice(&ferroscale_fixtures::read(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    ))
    .unwrap();
    let value = ferroscale_core::hex::decode(&pairs[0].1).unwrap();
    let misread =
        ferroscale_runtime_types::decode_all::<polkadot::pallets::system::storage::Account>(&value);
    assert!(misread.is_ok(), "the silent misread this check exists for");

    // The whole runtime: refused, naming both specs and System.Account.
    let err = metadata.check(&polkadot::RUNTIME).unwrap_err();
    assert_eq!(err.types_spec, ("polkadot".to_owned(), 1001002));
    assert_eq!(err.metadata_spec, Some(("polkadot".to_owned(), 9180)));
    let Problem::Items(items) = &err.problem else {
        panic!("expected differing items, got {err}")
    };
    let account = ItemDiff {
        kind: ItemKind::Storage,
        pallet: "System".to_owned(),
        name: "Account".to_owned(),
        change: Change::Changed,
    };
    assert!(items.contains(&account), "{err}");
    // Pallets added after 9180 are in the types only; none of 9180's is lost
    // without being reported.
    assert!(items
        .iter()
        .any(|d| d.change == Change::MissingFromMetadata));
    let message = err.to_string();
    assert!(
        message.starts_with(
            "types generated for polkadot spec 1001002 do not fit this metadata (polkadot spec 9180): "
        ) && !message.contains('\n'),
        "{message}"
    );

    // The one item: refused with exactly that item.
    let err = metadata
        .check_item(&polkadot::RUNTIME, ItemKind::Storage, "System", "Account")
        .unwrap_err();
    assert_eq!(err.problem, Problem::Items(vec![account]));
    assert_eq!(
        err.to_string(),
        "types generated for polkadot spec 1001002 do not fit this metadata (polkadot spec 9180): \
         1 item differs: storage entry System.Account changed"
    );

    // An item both specs share unchanged is accepted on its own: the check
    // is per item, not per spec number. (`System.remark` is not one: its
    // call index moved when `fill_block` was removed.)
    let same = [
        (ItemKind::Storage, "System", "Number"),
        (ItemKind::Call, "Timestamp", "set"),
        (ItemKind::Constant, "Balances", "ExistentialDeposit"),
    ];
    for (kind, pallet, name) in same {
        metadata
            .check_item(&polkadot::RUNTIME, kind, pallet, name)
            .unwrap_or_else(|e| panic!("{kind} {pallet}.{name}: {e}"));
    }
}

#[test]
fn legacy_metadata_cannot_be_checked_and_says_so() {
    let metadata = load("metadata/polkadot-v12-spec30.scale");
    let err = metadata.check(&polkadot::RUNTIME).unwrap_err();
    assert_eq!(err.problem, Problem::NoTypeRegistry { version: 12 });
    assert!(
        err.to_string()
            .contains("metadata V12 has no type registry"),
        "{err}"
    );
}
