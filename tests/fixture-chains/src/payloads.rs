//! Typed runtime API calls and view function queries against the dynamic
//! layer: [`check_payloads`] builds, for every runtime API method and view
//! function of a fixture, the request with the generated function and with
//! `ferroscale_dynamic`'s `runtime_api_request` / `view_function_request`
//! for the same argument values, and requires the same bytes; answers
//! decode through the typed result type back to their bytes and through
//! the dynamic layer too.
//!
//! Argument and answer values are what each type decodes from a run of one
//! byte (the first of a few fills that decodes), so both layers start from
//! bytes a real runtime could send. Real answers are added where the
//! fixture itself is one: `Metadata_metadata_at_version` answers
//! `Some(OpaqueMetadata)` holding the fixture's own blob, and
//! `Metadata_metadata_versions` the versions up to the fixture's.

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{decode_prefix, TypeIdx, ValueSink};
use ferroscale_metadata::fingerprint::ItemKind;
use ferroscale_metadata::{Metadata, Param};
use ferroscale_runtime_types::PayloadRoundtrip;
use ferroscale_value::Value;
use parity_scale_codec::{Compact, Encode};

/// A generated chain's `payload_roundtrip(kind, owner, name, args, result)`.
pub type PayloadDispatch = fn(
    ItemKind,
    &str,
    &str,
    &[&[u8]],
    &[u8],
) -> Option<Result<PayloadRoundtrip, parity_scale_codec::Error>>;

/// What [`check_payloads`] verified in one fixture.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PayloadCounts {
    /// Runtime API traits the metadata lists.
    pub apis: usize,
    /// Runtime API methods whose typed request and result agree with the dynamic ones.
    pub methods: usize,
    /// View functions whose typed query and result agree with the dynamic ones.
    pub view_functions: usize,
    /// Real answers (the fixture's own metadata) decoded both ways.
    pub real_answers: usize,
}

/// Byte fills tried for sample values, in order.
const FILLS: [u8; 3] = [4, 1, 0];
/// Length of the byte run a sample value is decoded from.
const RUN: usize = 4096;

/// A value of `ty` and its bytes: what the type decodes from a run of one byte.
fn sample(registry: &Registry, ty: TypeIdx) -> Option<(Value, Vec<u8>)> {
    let ctx = registry.context();
    FILLS.into_iter().find_map(|fill| {
        let run = [fill; RUN];
        let (v, used) = decode_prefix(&ctx, ty, &run, &mut ValueSink).ok()?;
        Some((v, run[..used].to_vec()))
    })
}

/// Checks every runtime API method and view function of the fixture
/// `fixture` through `dispatch`, the `payload_roundtrip` of the module
/// generated from that same fixture. Panics naming the fixture and every
/// item that disagrees, lacks a generated function, or cannot be sampled,
/// and when the fixture lists nothing to check.
pub fn check_payloads(fixture: &str, dispatch: PayloadDispatch) -> PayloadCounts {
    let bytes = ferroscale_test_support::read(fixture);
    let metadata =
        Metadata::load(&bytes).unwrap_or_else(|e| panic!("{fixture}: metadata does not load: {e}"));
    let fingerprint = metadata
        .fingerprint()
        .unwrap_or_else(|e| panic!("{fixture}: {e}"));
    let mut registry = Registry::new();
    registry
        .load_metadata(&bytes)
        .unwrap_or_else(|e| panic!("{fixture}: the dynamic layer does not load it: {e}"));
    let mut failures = Vec::new();
    let mut counts = PayloadCounts {
        apis: metadata.apis.len(),
        ..PayloadCounts::default()
    };
    let mut items = Vec::new();
    for api in &metadata.apis {
        for m in &api.methods {
            items.push((ItemKind::RuntimeApi, &api.name, &m.name, &m.inputs));
        }
    }
    for p in &metadata.pallets {
        for f in &p.view_functions {
            items.push((ItemKind::ViewFunction, &p.name, &f.name, &f.inputs));
        }
    }
    for (kind, owner, name, inputs) in items {
        let what = format!("{kind} {owner}.{name}");
        let hash = fingerprint.item(kind, owner, name);
        match check_one(&mut registry, dispatch, kind, owner, name, inputs, hash) {
            Ok(()) if kind == ItemKind::RuntimeApi => counts.methods += 1,
            Ok(()) => counts.view_functions += 1,
            Err(e) => failures.push(format!("{what}: {e}")),
        }
    }
    for (method, answer) in real_answers(&metadata, &bytes) {
        let what = format!("real answer of Metadata.{method}");
        match real_answer(&mut registry, dispatch, method, &answer) {
            Ok(()) => counts.real_answers += 1,
            Err(e) => failures.push(format!("{what}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{fixture}: {} runtime API method(s)/view function(s) disagree typed vs dynamic:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        counts.methods > 0,
        "{fixture}: no runtime API method was checked, the check proves nothing"
    );
    eprintln!(
        "{fixture}: {} runtime APIs, {} methods and {} view functions agree typed = dynamic; \
         {} real answers decode both ways",
        counts.apis, counts.methods, counts.view_functions, counts.real_answers
    );
    counts
}

/// One item: sample arguments and answer, both requests, the typed result.
fn check_one(
    registry: &mut Registry,
    dispatch: PayloadDispatch,
    kind: ItemKind,
    owner: &str,
    name: &str,
    inputs: &[Param],
    hash: Option<u128>,
) -> Result<(), String> {
    let (signature, dynamic_request) = match kind {
        ItemKind::RuntimeApi => {
            let call = registry
                .runtime_api(owner, name)
                .map_err(|e| e.to_string())?;
            (call.signature.clone(), None)
        }
        _ => {
            let view = registry
                .view_function(owner, name)
                .map_err(|e| e.to_string())?;
            (view.signature.clone(), Some(view))
        }
    };
    if signature.inputs.len() != inputs.len() {
        return Err("the dynamic signature lists another number of inputs".into());
    }
    let mut values = Vec::new();
    let mut arg_bytes = Vec::new();
    for (arg, ty) in &signature.inputs {
        let (v, b) = sample(registry, *ty).ok_or(format!("no sample value of argument {arg}"))?;
        values.push(v);
        arg_bytes.push(b);
    }
    let (output, output_bytes) =
        sample(registry, signature.output).ok_or("no sample value of the output")?;
    let (method, data) = match &dynamic_request {
        None => {
            let call = registry
                .runtime_api(owner, name)
                .map_err(|e| e.to_string())?;
            registry.runtime_api_request(&call, &values)
        }
        Some(view) => registry.view_function_request(view, &values),
    }
    .map_err(|e| format!("dynamic request: {e}"))?;
    let args: Vec<&[u8]> = arg_bytes.iter().map(Vec::as_slice).collect();
    let typed = dispatch(kind, owner, name, &args, &output_bytes)
        .ok_or("no generated function")?
        .map_err(|e| format!("typed: {e}"))?;
    if typed.method != method {
        return Err(format!("method {} != dynamic {method}", typed.method));
    }
    if typed.call_data != data {
        return Err(format!(
            "call data {} != dynamic {}",
            ferroscale_core::hex::encode_prefixed(&typed.call_data),
            ferroscale_core::hex::encode_prefixed(&data)
        ));
    }
    // The payload names an item of this very runtime, with its hash.
    if typed.hash.is_none() || typed.hash != hash {
        return Err(format!(
            "payload hash {:?} != the metadata's {:?}",
            typed.hash, hash
        ));
    }
    if typed.result != output_bytes {
        return Err("the typed result does not re-encode to the answer's bytes".into());
    }
    let decoded = match &dynamic_request {
        None => {
            let call = registry
                .runtime_api(owner, name)
                .map_err(|e| e.to_string())?;
            registry.decode_runtime_api_result(&call, &output_bytes)
        }
        Some(view) => {
            // The whole answer: `Ok(output bytes)`.
            let mut answer = vec![0];
            Compact(output_bytes.len() as u64).encode_to(&mut answer);
            answer.extend_from_slice(&output_bytes);
            registry.decode_view_function_answer(view, &answer)
        }
    }
    .map_err(|e| format!("dynamic result: {e}"))?;
    if decoded != output {
        return Err("the dynamic result differs from the sampled value".into());
    }
    Ok(())
}

/// Answers a node gives for this very runtime: `metadata_at_version(v)` is
/// `Some(the fixture's blob)`, `metadata_versions` lists 14 up to its version.
fn real_answers(metadata: &Metadata, bytes: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let Some(api) = metadata.apis.iter().find(|a| a.name == "Metadata") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if api.methods.iter().any(|m| m.name == "metadata_at_version") {
        let mut answer = vec![1];
        answer.extend(bytes.to_vec().encode());
        out.push(("metadata_at_version", answer));
    }
    if api.methods.iter().any(|m| m.name == "metadata_versions") {
        let versions: Vec<u32> = (14..=metadata.version).collect();
        out.push(("metadata_versions", versions.encode()));
    }
    out
}

fn real_answer(
    registry: &mut Registry,
    dispatch: PayloadDispatch,
    method: &str,
    answer: &[u8],
) -> Result<(), String> {
    let call = registry
        .runtime_api("Metadata", method)
        .map_err(|e| e.to_string())?;
    let args: Vec<Vec<u8>> = call
        .signature
        .inputs
        .iter()
        .map(|_| 15u32.encode())
        .collect();
    let args: Vec<&[u8]> = args.iter().map(Vec::as_slice).collect();
    let typed = dispatch(ItemKind::RuntimeApi, "Metadata", method, &args, answer)
        .ok_or("no generated function")?
        .map_err(|e| format!("typed: {e}"))?;
    if typed.result != answer {
        return Err("the typed result does not re-encode to the answer".into());
    }
    let value = registry
        .decode_runtime_api_result(&call, answer)
        .map_err(|e| format!("dynamic: {e}"))?;
    if method == "metadata_at_version" {
        // The dynamic layer shows `Some(OpaqueMetadata)` as the blob's hex.
        let hex = value.as_str().ok_or("dynamic: not the blob as hex")?;
        let blob = ferroscale_core::hex::decode(hex).map_err(|e| e.to_string())?;
        if answer[1..] != blob.encode()[..] {
            return Err("dynamic: not the fixture's blob".into());
        }
    }
    Ok(())
}
