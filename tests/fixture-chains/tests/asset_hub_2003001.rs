//! Polkadot Asset Hub spec 2003001 (V16, 28 view functions): every constant, storage default and custom value decodes with
//! types the proc-macro generates from the fixture and re-encodes to its
//! bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/asset-hub-polkadot-v16-spec2003001.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn asset_hub_2003001_values_roundtrip_with_generated_types() {
    ferroscale_fixture_chains::check_chain(
        "metadata/asset-hub-polkadot-v16-spec2003001.scale",
        chain::roundtrip_type,
    );
}

#[test]
fn asset_hub_2003001_runtime_apis_and_view_functions_typed_equal_dynamic() {
    let counts = ferroscale_fixture_chains::check_payloads(
        "metadata/asset-hub-polkadot-v16-spec2003001.scale",
        chain::roundtrip_type,
        chain::payload_roundtrip,
    );
    // The fixture README counts 28 view functions: every one has its typed query.
    assert_eq!(counts.view_functions, 28, "{counts:?}");
    assert!(counts.real_answers > 0, "{counts:?}");
}

/// A view function by hand: `Proxy.is_superset(Any, NonTransfer)`, its
/// query, answers and the spec check against the fixture (and against a
/// copy whose query id differs).
#[test]
fn asset_hub_2003001_view_function_query_is_typed_and_checked() {
    use chain::runtime_types::asset_hub_polkadot_runtime::ProxyType;
    use ferroscale_runtime_types::ViewFunctionError;
    use parity_scale_codec::{Compact, Encode};

    let query =
        chain::pallets::proxy::view_functions::is_superset(ProxyType::Any, ProxyType::NonTransfer);
    assert_eq!(
        query.method_name(),
        "RuntimeViewFunction_execute_view_function"
    );
    let args = (ProxyType::Any, ProxyType::NonTransfer).encode();
    assert_eq!(query.args(), args);
    let expected = [
        query.query_id().to_vec(),
        Compact(args.len() as u32).encode(),
        args,
    ]
    .concat();
    assert_eq!(query.call_data(), expected);

    // `Ok(encoded bool)`, `Err(dispatch error)`, and garbage.
    assert!(query.decode_answer(&[0, 4, 1]).unwrap());
    assert!(!query.decode_result(&[0]).unwrap());
    assert_eq!(
        query.decode_answer(&[1, 0]),
        Err(ViewFunctionError::Dispatch(vec![0]))
    );
    assert!(matches!(
        query.decode_answer(&[2]),
        Err(ViewFunctionError::Decode(_))
    ));
    assert!(matches!(
        query.decode_answer(&[0, 4]),
        Err(ViewFunctionError::Decode(_))
    ));

    let bytes = ferroscale_fixtures::read("metadata/asset-hub-polkadot-v16-spec2003001.scale");
    let mut metadata = ferroscale_metadata::Metadata::load(&bytes).unwrap();
    let listed = metadata
        .pallet("Proxy")
        .and_then(|p| p.view_functions.iter().find(|f| f.name == "is_superset"))
        .unwrap();
    assert_eq!(listed.id, query.query_id());
    metadata.check_payload(query.item()).unwrap();
    metadata.check(&chain::RUNTIME).unwrap();
    let proxy = metadata
        .pallets
        .iter_mut()
        .find(|p| p.name == "Proxy")
        .unwrap();
    let f = proxy
        .view_functions
        .iter_mut()
        .find(|f| f.name == "is_superset")
        .unwrap();
    f.id[31] ^= 0xff;
    let e = metadata.check_payload(query.item()).unwrap_err();
    assert!(
        e.to_string()
            .contains("view function Proxy.is_superset changed"),
        "{e}"
    );
}

ferroscale_fixture_chains::frame_decode_checks!(
    "metadata/asset-hub-polkadot-v16-spec2003001.scale",
    forms = ["v4 signed", "v5 bare", "v5 general (extension version 0)"]
);
