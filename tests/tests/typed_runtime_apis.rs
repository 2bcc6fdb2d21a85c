//! Typed runtime API calls (`runtime_apis::<trait>::<method>`) of the
//! shipped chains against the dynamic layer and the spec check:
//!
//! - every method of every shipped chain that lists runtime APIs builds the
//!   same request as `runtime_api_request` for the same argument values,
//!   and its result type decodes sample and real answers back to their bytes
//!   (`ferroscale_fixture_chains::check_payloads`);
//! - `Metadata_metadata_at_version` on Polkadot 1001002, by hand: the answer
//!   carrying the fixture's own metadata decodes typed to exactly its bytes;
//! - `Metadata::check_payload` accepts a payload on the runtime it was made
//!   from and refuses it, naming the item, where that item differs.

use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::fingerprint::{Change, Problem};
use ferroscale_metadata::Metadata;
use ferroscale_runtime_types::{bittensor, kusama, polkadot, substrate_node};
use ferroscale_value::Value;
use parity_scale_codec::Encode;

const POLKADOT: &str = "metadata/polkadot-v15-spec1001002.scale";

#[test]
fn every_shipped_chains_runtime_api_methods_agree_typed_dynamic() {
    for (fixture, roundtrip, dispatch) in [
        (
            POLKADOT,
            polkadot::roundtrip_type as ferroscale_fixture_chains::Roundtrip,
            polkadot::payload_roundtrip as ferroscale_fixture_chains::PayloadDispatch,
        ),
        (
            "metadata/kusama-v15-spec1001002.scale",
            kusama::roundtrip_type,
            kusama::payload_roundtrip,
        ),
        (
            "metadata/subtensor-v15-spec343.scale",
            bittensor::roundtrip_type,
            bittensor::payload_roundtrip,
        ),
        (
            "metadata/substrate-node-v15-spec268.scale",
            substrate_node::roundtrip_type,
            substrate_node::payload_roundtrip,
        ),
    ] {
        let counts = ferroscale_fixture_chains::check_payloads(fixture, roundtrip, dispatch);
        assert!(
            counts.apis > 5 && counts.real_answers == 2,
            "{fixture}: {counts:?}"
        );
    }
}

#[test]
fn metadata_at_version_answers_with_the_fixture_itself() {
    let bytes = ferroscale_fixtures::read(POLKADOT);
    let payload = polkadot::runtime_apis::metadata::metadata_at_version(15);
    assert_eq!(payload.method_name(), "Metadata_metadata_at_version");
    assert_eq!(payload.call_data(), 15u32.to_le_bytes());

    let mut registry = Registry::new();
    registry.load_metadata(&bytes).unwrap();
    let call = registry
        .runtime_api("Metadata", "metadata_at_version")
        .unwrap();
    let (method, data) = registry
        .runtime_api_request(&call, &[Value::UInt(15)])
        .unwrap();
    assert_eq!(
        (method.as_str(), data.as_slice()),
        (payload.method_name().as_str(), payload.call_data())
    );

    // `Some(OpaqueMetadata)`: the blob as a byte vector.
    let answer = [vec![1], bytes.encode()].concat();
    let opaque = payload
        .decode_result(&answer)
        .unwrap()
        .expect("Some(OpaqueMetadata)");
    assert_eq!(opaque.0, bytes);
    let again = Metadata::load(&opaque.0).unwrap();
    assert_eq!(again.spec_version(), Some(polkadot::SPEC_VERSION));
    assert_eq!(payload.decode_result(&[0]).unwrap(), None);
    // A cut answer is an error, not a panic.
    assert!(payload.decode_result(&answer[..answer.len() - 1]).is_err());

    let versions = polkadot::runtime_apis::metadata::metadata_versions();
    assert_eq!(versions.call_data(), b"");
    assert_eq!(
        versions.decode_result(&vec![14u32, 15].encode()).unwrap(),
        vec![14, 15]
    );
}

#[test]
fn the_spec_check_accepts_its_own_runtime_and_names_a_changed_method() {
    let bytes = ferroscale_fixtures::read(POLKADOT);
    let mut metadata = Metadata::load(&bytes).unwrap();
    let payload = polkadot::runtime_apis::metadata::metadata_at_version(15);
    assert_eq!(
        payload.item().hash(),
        metadata.fingerprint().unwrap().item(
            ferroscale_metadata::fingerprint::ItemKind::RuntimeApi,
            "Metadata",
            "metadata_at_version"
        )
    );
    metadata.check_payload(payload.item()).unwrap();
    metadata.check(&polkadot::RUNTIME).unwrap();

    // The same method answering another type: refused, by name.
    let versions_output = {
        let api = metadata.apis.iter().find(|a| a.name == "Metadata").unwrap();
        api.methods
            .iter()
            .find(|m| m.name == "metadata_versions")
            .unwrap()
            .output
    };
    let api = metadata
        .apis
        .iter_mut()
        .find(|a| a.name == "Metadata")
        .unwrap();
    let method = api
        .methods
        .iter_mut()
        .find(|m| m.name == "metadata_at_version")
        .unwrap();
    method.output = versions_output;
    let e = metadata.check_payload(payload.item()).unwrap_err();
    let Problem::Items(items) = &e.problem else {
        panic!("{e}")
    };
    assert_eq!(items.len(), 1, "{e}");
    assert_eq!(items[0].change, Change::Changed);
    assert!(
        e.to_string()
            .contains("runtime API Metadata.metadata_at_version changed"),
        "{e}"
    );
    // The whole-runtime check names it too; the other methods still fit.
    let whole = metadata.check(&polkadot::RUNTIME).unwrap_err();
    assert!(
        whole
            .to_string()
            .contains("1 item differs: runtime API Metadata.metadata_at_version changed"),
        "{whole}"
    );
    metadata
        .check_payload(polkadot::runtime_apis::metadata::metadata_versions().item())
        .unwrap();

    // A method the runtime no longer has.
    metadata
        .apis
        .iter_mut()
        .find(|a| a.name == "Metadata")
        .unwrap()
        .methods
        .retain(|m| m.name != "metadata_at_version");
    let e = metadata.check_payload(payload.item()).unwrap_err();
    assert!(
        e.to_string()
            .contains("runtime API Metadata.metadata_at_version is not in the metadata"),
        "{e}"
    );
}

#[test]
fn payloads_of_one_spec_are_checked_against_the_next() {
    // Polkadot 2003000's block type differs from 1001002's (new calls):
    // `Core.execute_block` no longer fits, `Metadata.metadata_versions` does.
    let next = Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v16-spec2003000.scale",
    ))
    .unwrap();
    next.check_payload(polkadot::runtime_apis::metadata::metadata_versions().item())
        .unwrap();
    let header_only = polkadot::runtime_apis::core::version();
    let block = next
        .check_item(
            &polkadot::RUNTIME,
            ferroscale_metadata::fingerprint::ItemKind::RuntimeApi,
            "Core",
            "execute_block",
        )
        .unwrap_err();
    assert!(
        block.to_string().contains("polkadot spec 1001002")
            && block.to_string().contains("polkadot spec 2003000")
            && block
                .to_string()
                .contains("runtime API Core.execute_block changed"),
        "{block}"
    );
    // What the payload carries is what `check_item` looks up.
    assert_eq!(
        header_only.item().kind,
        ferroscale_metadata::fingerprint::ItemKind::RuntimeApi
    );
    assert_eq!(
        (header_only.trait_name(), header_only.method()),
        ("Core", "version")
    );
}
