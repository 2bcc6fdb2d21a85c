//! Runtime APIs (V15+) and view functions (V16) by name, on real metadata:
//! the request a node's `state_call` takes and the decoding of its answer.
//!
//! - `Metadata_metadata_at_version(15)` on Polkadot 1001002: the argument
//!   encodes as a `u32`, and an answer carrying the fixture's own metadata
//!   (`Option<OpaqueMetadata>`) decodes back to exactly those bytes.
//! - Every view function of Polkadot Asset Hub 2003001 (the metadata lists
//!   28): its query id, argument encoding and answer decoding, with argument
//!   and result values taken from what their types decode from a byte run.
//! - V14 metadata has no runtime APIs, V15 no view functions: errors say so.

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{decode_prefix, Error, ValueSink};
use ferroscale_metadata::Metadata;
use ferroscale_value::Value;

fn registry(fixture: &str) -> (Registry, Vec<u8>) {
    let bytes = ferroscale_fixtures::read(fixture);
    let mut registry = Registry::new();
    registry.load_metadata(&bytes).expect("metadata loads");
    (registry, bytes)
}

fn compact(n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let n = n as u64;
    if n < 1 << 6 {
        out.push((n as u8) << 2);
    } else if n < 1 << 14 {
        out.extend_from_slice(&(((n as u16) << 2) | 1).to_le_bytes());
    } else if n < 1 << 30 {
        out.extend_from_slice(&(((n as u32) << 2) | 2).to_le_bytes());
    } else {
        panic!("test payloads stay below 1 GiB");
    }
    out
}

#[test]
fn metadata_at_version_round_trips_the_fixture_itself() {
    let (mut registry, bytes) = registry("metadata/polkadot-v15-spec1001002.scale");
    let call = registry
        .runtime_api("Metadata", "metadata_at_version")
        .expect("Metadata.metadata_at_version");
    assert_eq!(call.method_name(), "Metadata_metadata_at_version");
    assert_eq!(call.signature.inputs.len(), 1);
    let (method, data) = registry
        .runtime_api_request(&call, &[Value::UInt(15)])
        .expect("request");
    assert_eq!(method, "Metadata_metadata_at_version");
    assert_eq!(data, 15u32.to_le_bytes());

    // The node answers `Some(OpaqueMetadata)`: the prefixed metadata blob,
    // as a byte vector.
    let mut answer = vec![1];
    answer.extend(compact(bytes.len()));
    answer.extend_from_slice(&bytes);
    let value = registry
        .decode_runtime_api_result(&call, &answer)
        .expect("answer decodes");
    let hex = value.as_str().expect("the Some payload, as hex");
    assert_eq!(ferroscale_core::hex::decode(hex).unwrap(), bytes);
    // And what it carries is the same metadata.
    let again = Metadata::load(&ferroscale_core::hex::decode(hex).unwrap()).unwrap();
    assert_eq!(again.spec_version(), Some(1_001_002));

    let none = registry.decode_runtime_api_result(&call, &[0]).unwrap();
    assert_eq!(none, Value::Null);
}

#[test]
fn runtime_api_names_and_argument_counts_are_checked() {
    let (mut registry, _) = registry("metadata/polkadot-v15-spec1001002.scale");
    let e = registry.runtime_api("Metadata", "nope").unwrap_err();
    assert!(matches!(e, Error::NotFound { .. }), "{e}");
    assert!(e.to_string().contains("runtime API Metadata.nope"), "{e}");
    let call = registry
        .runtime_api("Metadata", "metadata_at_version")
        .unwrap();
    let e = registry.runtime_api_request(&call, &[]).unwrap_err();
    assert!(
        e.to_string()
            .contains("takes 1 argument(s) (version), 0 given"),
        "{e}"
    );
    let e = registry
        .runtime_api_request(&call, &[Value::str("not a number")])
        .unwrap_err();
    assert!(e.to_string().contains("argument version"), "{e}");
}

#[test]
fn older_metadata_says_what_it_lacks() {
    let (mut v14, _) = registry("metadata/polkadot-v14-spec9180.scale");
    let e = v14
        .runtime_api("Metadata", "metadata_versions")
        .unwrap_err();
    assert!(matches!(e, Error::NotInMetadata { version: 14, .. }), "{e}");
    assert!(
        e.to_string()
            .contains("metadata V14 has no runtime API metadata"),
        "{e}"
    );
    let (mut v15, _) = registry("metadata/polkadot-v15-spec1001002.scale");
    let e = v15.view_function("Proxy", "check_permissions").unwrap_err();
    assert!(
        e.to_string()
            .contains("metadata V15 has no view function metadata"),
        "{e}"
    );
}

/// A value of type `ty` and its bytes: what the type decodes from a run of
/// one byte (the first fill that decodes).
fn sample(registry: &Registry, ty: ferroscale_dynamic::TypeIdx, what: &str) -> (Value, Vec<u8>) {
    let ctx = registry.context();
    [4u8, 1, 0]
        .into_iter()
        .find_map(|fill| {
            let run = [fill; 128];
            let (v, used) = decode_prefix(&ctx, ty, &run, &mut ValueSink).ok()?;
            Some((v, run[..used].to_vec()))
        })
        .unwrap_or_else(|| panic!("{what}: no value decodes from a byte run"))
}

#[test]
fn every_asset_hub_view_function_builds_its_request_and_reads_its_answer() {
    let fixture = "metadata/asset-hub-polkadot-v16-spec2003001.scale";
    let (mut registry, bytes) = registry(fixture);
    let md = Metadata::load(&bytes).unwrap();
    let listed: Vec<(String, String, [u8; 32])> = md
        .pallets
        .iter()
        .flat_map(|p| {
            p.view_functions
                .iter()
                .map(move |f| (p.name.clone(), f.name.clone(), f.id))
        })
        .collect();
    assert_eq!(
        listed.len(),
        28,
        "the fixture's README counts 28 view functions"
    );
    for (pallet, name, id) in listed {
        let what = format!("{pallet}.{name}");
        let view = registry.view_function(&pallet, &name).expect(&what);
        assert_eq!(view.id, id, "{what}");
        let mut args = Vec::new();
        let mut encoded = Vec::new();
        for (arg, ty) in view.signature.inputs.clone() {
            let (v, b) = sample(&registry, ty, &format!("{what} argument {arg}"));
            args.push(v);
            encoded.extend(b);
        }
        let (method, data) = registry.view_function_request(&view, &args).expect(&what);
        assert_eq!(method, "RuntimeViewFunction_execute_view_function");
        let expected = [id.to_vec(), compact(encoded.len()), encoded].concat();
        assert_eq!(data, expected, "{what}: request");

        // `Ok(output bytes)` decodes to the output value.
        let (output, output_bytes) = sample(&registry, view.signature.output, &what);
        let answer = [vec![0], compact(output_bytes.len()), output_bytes.clone()].concat();
        let value = registry
            .decode_view_function_answer(&view, &answer)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(value, output, "{what}: answer");
        assert_eq!(
            registry
                .decode_view_function_result(&view, &output_bytes)
                .unwrap(),
            output
        );
    }
    // An `Err` answer (the first dispatch error variant) is an error naming it.
    let view = registry
        .view_function("Proxy", "check_permissions")
        .unwrap();
    let e = registry
        .decode_view_function_answer(&view, &[1, 0])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("Proxy.check_permissions failed in the runtime"),
        "{e}"
    );
}

/// A method is resolved once per loaded metadata: looking it up again gives
/// the same shared call, and loading other metadata into the registry
/// resolves it again against the new types (never a stale type).
#[test]
fn resolved_methods_are_shared_until_the_metadata_changes() {
    let (mut registry, _) = registry("metadata/polkadot-v15-spec1001002.scale");
    let first = registry
        .runtime_api("Core", "version")
        .expect("Core.version");
    let again = registry.runtime_api("Core", "version").unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &again));

    let other = ferroscale_fixtures::read("metadata/polkadot-v16-spec2003000.scale");
    registry
        .load_metadata(&other)
        .expect("second metadata loads");
    let reloaded = registry.runtime_api("Core", "version").unwrap();
    assert!(!std::sync::Arc::ptr_eq(&first, &reloaded));
    assert_ne!(
        first.signature.output, reloaded.signature.output,
        "the output must be the new registry's node"
    );
    let md = Metadata::from_bytes(&other).unwrap();
    let output_id = md
        .apis
        .iter()
        .find(|a| a.name == "Core")
        .and_then(|a| a.methods.iter().find(|m| m.name == "version"))
        .map(|m| m.output)
        .unwrap();
    let by_id = registry
        .resolve(&format!("scale_info::{output_id}"))
        .unwrap();
    assert_eq!(reloaded.signature.output, by_id);

    registry.clear();
    assert!(registry.runtime_api("Core", "version").is_err());
}

/// A recorded Bittensor answer through the runtime-API path by name:
/// `SubnetInfoRuntimeApi.get_subnets_info` of subtensor spec 343 reads
/// `payloads/subtensor/subnets_info.hex` whole (the fixture's other answers
/// were recorded from an older runtime, whose types differ: see
/// `tests/tests/real_payloads.rs`), the same value as decoding by the output's
/// type id, and encodes back to the recorded bytes.
#[test]
fn a_recorded_subtensor_answer_decodes_by_name() {
    let (mut registry, bytes) = registry("metadata/subtensor-v15-spec343.scale");
    let answer = ferroscale_fixtures::read_hex("payloads/subtensor/subnets_info.hex");
    let call = registry
        .runtime_api("SubnetInfoRuntimeApi", "get_subnets_info")
        .expect("SubnetInfoRuntimeApi.get_subnets_info");
    assert_eq!(call.method_name(), "SubnetInfoRuntimeApi_get_subnets_info");
    let value = registry
        .decode_runtime_api_result(&call, &answer)
        .expect("the recorded answer decodes");
    let subnets = value.as_items().expect("a list of subnets");
    assert!(subnets.len() > 10, "{} subnets", subnets.len());
    let netuids: Vec<u128> = subnets
        .iter()
        .filter_map(|s| s.get("netuid").and_then(Value::as_u128))
        .collect();
    assert!(
        !netuids.is_empty() && netuids.windows(2).all(|w| w[0] < w[1]),
        "{netuids:?}"
    );

    let md = Metadata::from_bytes(&bytes).unwrap();
    let output = md
        .apis
        .iter()
        .find(|a| a.name == "SubnetInfoRuntimeApi")
        .and_then(|a| a.methods.iter().find(|m| m.name == "get_subnets_info"))
        .map(|m| m.output)
        .unwrap();
    let by_id = registry
        .decode(&format!("scale_info::{output}"), &answer)
        .unwrap();
    assert_eq!(by_id, value);
    let again = registry
        .encode(&format!("scale_info::{output}"), &value)
        .unwrap();
    assert_eq!(again, answer);
}
