//! Runtime API methods (V15+) and view functions (V16) are items of the
//! runtime fingerprint: one hash each, checked one by one like calls and
//! storage entries, and part of the whole-runtime hash.

use ferroscale_metadata::fingerprint::ItemKind;
use ferroscale_metadata::Metadata;

fn load(name: &str) -> Metadata {
    Metadata::load(&ferroscale_fixtures::read(name)).unwrap()
}

#[test]
fn every_method_and_view_function_has_an_item() {
    for name in [
        "metadata/polkadot-v15-spec1001002.scale",
        "metadata/asset-hub-polkadot-v16-spec2003001.scale",
        "metadata/polkadot-v14-spec9180.scale",
    ] {
        let md = load(name);
        let f = md.fingerprint().unwrap();
        let methods: usize = md.apis.iter().map(|a| a.methods.len()).sum();
        let views: usize = md.pallets.iter().map(|p| p.view_functions.len()).sum();
        assert_eq!(f.items(ItemKind::RuntimeApi).len(), methods, "{name}");
        assert_eq!(f.items(ItemKind::ViewFunction).len(), views, "{name}");
        assert_eq!(md.version > 14, methods > 0, "{name}");
        if md.version == 16 && name.contains("asset-hub") {
            assert_eq!(views, 28, "{name}: the README counts 28");
        }
        for (api, method, hash) in f.items(ItemKind::RuntimeApi) {
            assert_ne!(*hash, 0, "{name}: {api}.{method}");
        }
    }
}

#[test]
fn a_changed_view_function_is_named_and_nothing_else() {
    let original = load("metadata/asset-hub-polkadot-v16-spec2003001.scale");
    let before = original.fingerprint().unwrap();
    let mut md = original.clone();
    let proxy = md.pallets.iter_mut().find(|p| p.name == "Proxy").unwrap();
    let view = proxy
        .view_functions
        .iter_mut()
        .find(|f| f.name == "check_permissions")
        .unwrap();
    // Another query id: a runtime would dispatch it elsewhere.
    view.id[0] ^= 1;
    let after = md.fingerprint().unwrap();
    assert_ne!(before.hash, after.hash);
    for kind in ItemKind::ALL {
        let differ: Vec<_> = before
            .items(kind)
            .iter()
            .zip(after.items(kind))
            .filter(|(a, b)| a != b)
            .map(|(a, _)| format!("{}.{}", a.0, a.1))
            .collect();
        let expected: Vec<String> = if kind == ItemKind::ViewFunction {
            vec!["Proxy.check_permissions".into()]
        } else {
            vec![]
        };
        assert_eq!(differ, expected, "{kind}");
    }
}

#[test]
fn a_renamed_parameter_changes_the_runtime_api_item() {
    let mut md = load("metadata/polkadot-v15-spec1001002.scale");
    let before = md.fingerprint().unwrap();
    let api = md.apis.iter_mut().find(|a| a.name == "Metadata").unwrap();
    let m = api
        .methods
        .iter_mut()
        .find(|m| m.name == "metadata_at_version")
        .unwrap();
    m.inputs[0].name = "v".into();
    let after = md.fingerprint().unwrap();
    let key = |f: &ferroscale_metadata::fingerprint::Fingerprint| {
        f.item(ItemKind::RuntimeApi, "Metadata", "metadata_at_version")
    };
    assert_ne!(key(&before), key(&after));
    assert_eq!(
        before.item(ItemKind::RuntimeApi, "Metadata", "metadata_versions"),
        after.item(ItemKind::RuntimeApi, "Metadata", "metadata_versions")
    );
}
