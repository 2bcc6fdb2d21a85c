//! Typed runtime API calls and view function queries against the dynamic
//! layer: [`check_payloads`] builds, for every runtime API method and view
//! function of a fixture, the request with the generated function and with
//! `ferroscale_dynamic`'s `runtime_api_request` / `view_function_request`
//! for the same argument values, and requires the same bytes; answers
//! decode through the typed result type back to their bytes and through
//! the dynamic layer too.
//!
//! Argument and answer values come from bytes both layers accept for the
//! parameter's type: the type's smallest value (first variant, empty
//! sequences, zeros), an unsigned `System.remark` for an extrinsic, or what
//! the type decodes from a run of one byte; a candidate counts when the
//! dynamic layer decodes all of it and the generated type round-trips it
//! (`roundtrip_type`), so a payload difference is never a sampling artefact. Real answers are added where the
//! fixture itself is one: `Metadata_metadata_at_version` answers
//! `Some(OpaqueMetadata)` holding the fixture's own blob, and
//! `Metadata_metadata_versions` the versions up to the fixture's.

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{decode_prefix, ValueSink};
use ferroscale_metadata::fingerprint::ItemKind;
use ferroscale_metadata::{Metadata, Param};
use ferroscale_runtime_types::PayloadRoundtrip;
use ferroscale_value::Value;
use parity_scale_codec::{Compact, Encode};
use scale_info::{PortableRegistry, TypeDef, TypeDefPrimitive};

use crate::Roundtrip;

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

/// Byte fills tried for sample values, after the smallest value.
const FILLS: [u8; 4] = [4, 1, 0, 8];
/// Length of the byte run a fill sample is decoded from.
const RUN: usize = 4096;
/// Nesting depth at which the smallest-value builder gives up.
const MAX_DEPTH: u32 = 64;

/// What the checkers sample values with.
pub(crate) struct Sampler<'a> {
    registry: &'a mut Registry,
    types: &'a PortableRegistry,
    roundtrip: Roundtrip,
    /// An unsigned `System.remark(b"")` extrinsic, with its length prefix.
    remark: Option<Vec<u8>>,
}

impl<'a> Sampler<'a> {
    /// A sampler over `registry` (loaded from `metadata`, whose registry is
    /// `types`) and the generated chain's `roundtrip`.
    pub(crate) fn new(
        registry: &'a mut Registry,
        metadata: &Metadata,
        types: &'a PortableRegistry,
        roundtrip: Roundtrip,
    ) -> Self {
        Sampler {
            registry,
            types,
            roundtrip,
            remark: remark_extrinsic(metadata),
        }
    }

    /// A value of registry type `ty` and its bytes (see the module docs).
    pub(crate) fn sample(&mut self, ty: u32) -> Option<(Value, Vec<u8>)> {
        // `scale_info::<id>`: the registry type by id, py-scale-codec's spelling.
        let node = self.registry.resolve(&format!("scale_info::{ty}")).ok()?;
        let mut candidates = Vec::new();
        if self.is_extrinsic(ty) {
            candidates.extend(self.remark.clone());
        }
        // `WrapperKeepOpaque<Call>`: the runtime keeps the call's bytes
        // undecoded, but its type information (and so frame-decode) reads a
        // call inside; a real call keeps every decoder in agreement.
        if self.path_ends_with(ty, "WrapperKeepOpaque") {
            if let Some(remark) = &self.remark {
                let call = &remark[2..];
                candidates.push([Compact(call.len() as u32).encode(), call.to_vec()].concat());
            }
        }
        let mut smallest = Vec::new();
        if smallest_value(self.types, ty, 0, &mut smallest) {
            candidates.push(smallest);
        }
        let ctx = self.registry.context();
        for fill in FILLS {
            let run = [fill; RUN];
            if let Ok((_, used)) = decode_prefix(&ctx, node, &run, &mut ValueSink) {
                candidates.push(run[..used].to_vec());
            }
        }
        candidates.into_iter().find_map(|bytes| {
            let (v, used) = decode_prefix(&ctx, node, &bytes, &mut ValueSink).ok()?;
            let typed = (self.roundtrip)(ty, &bytes)?.ok()?;
            (used == bytes.len() && typed == bytes).then_some((v, bytes))
        })
    }

    fn is_extrinsic(&self, ty: u32) -> bool {
        self.path_ends_with(ty, "UncheckedExtrinsic")
    }

    fn path_ends_with(&self, ty: u32, name: &str) -> bool {
        self.types
            .resolve(ty)
            .and_then(|t| t.path.segments.last())
            .is_some_and(|s| s == name)
    }
}

/// An unsigned (version 4) `System.remark(b"")` with its length prefix.
fn remark_extrinsic(metadata: &Metadata) -> Option<Vec<u8>> {
    let system = metadata.pallet("System")?;
    let calls = system.call_enum.as_ref()?;
    let remark = calls.variants.iter().find(|v| v.name == "remark")?;
    let body = vec![4, calls.pallet_index, remark.index, 0];
    Some(body.encode())
}

/// Appends the smallest value of `ty`: the first variant, empty sequences,
/// zero numbers. `false` when there is none within the depth limit.
fn smallest_value(types: &PortableRegistry, ty: u32, depth: u32, out: &mut Vec<u8>) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let Some(t) = types.resolve(ty) else {
        return false;
    };
    let d = depth + 1;
    match &t.type_def {
        TypeDef::Composite(c) => c
            .fields
            .iter()
            .all(|f| smallest_value(types, f.ty.id, d, out)),
        TypeDef::Variant(v) => {
            // The first variant whose fields can be built (recursive types
            // have a way out, usually their first variant).
            let start = out.len();
            v.variants.iter().any(|var| {
                out.truncate(start);
                out.push(var.index);
                var.fields
                    .iter()
                    .all(|f| smallest_value(types, f.ty.id, d, out))
            })
        }
        TypeDef::Sequence(_) | TypeDef::Compact(_) | TypeDef::BitSequence(_) => {
            out.push(0);
            true
        }
        TypeDef::Array(a) => (0..a.len).all(|_| smallest_value(types, a.type_param.id, d, out)),
        TypeDef::Tuple(t) => t.fields.iter().all(|f| smallest_value(types, f.id, d, out)),
        TypeDef::Primitive(p) => {
            let size = match p {
                TypeDefPrimitive::Bool | TypeDefPrimitive::U8 | TypeDefPrimitive::I8 => 1,
                TypeDefPrimitive::Str => 1,
                TypeDefPrimitive::U16 | TypeDefPrimitive::I16 => 2,
                TypeDefPrimitive::U32 | TypeDefPrimitive::I32 => 4,
                TypeDefPrimitive::U64 | TypeDefPrimitive::I64 => 8,
                TypeDefPrimitive::U128 | TypeDefPrimitive::I128 => 16,
                TypeDefPrimitive::U256 | TypeDefPrimitive::I256 => 32,
                // `char` is a u32 code point: 'a'.
                TypeDefPrimitive::Char => {
                    out.extend(u32::from(b'a').to_le_bytes());
                    return true;
                }
            };
            out.extend(std::iter::repeat_n(0, size));
            true
        }
    }
}

/// Checks every runtime API method and view function of the fixture
/// `fixture` through `dispatch`, the `payload_roundtrip` of the module
/// generated from that same fixture (and `roundtrip`, its `roundtrip_type`,
/// to pick sample values the generated types accept). Panics naming the fixture and every
/// item that disagrees, lacks a generated function, or cannot be sampled,
/// and when the fixture lists nothing to check.
pub fn check_payloads(
    fixture: &str,
    roundtrip: Roundtrip,
    dispatch: PayloadDispatch,
) -> PayloadCounts {
    let bytes = ferroscale_fixtures::read(fixture);
    let metadata =
        Metadata::load(&bytes).unwrap_or_else(|e| panic!("{fixture}: metadata does not load: {e}"));
    let fingerprint = metadata
        .fingerprint()
        .unwrap_or_else(|e| panic!("{fixture}: {e}"));
    let mut registry = Registry::new();
    registry
        .load_metadata(&bytes)
        .unwrap_or_else(|e| panic!("{fixture}: the dynamic layer does not load it: {e}"));
    let types = metadata
        .types
        .as_ref()
        .unwrap_or_else(|| panic!("{fixture}: no type registry"));
    let mut sampler = Sampler::new(&mut registry, &metadata, types, roundtrip);
    let mut failures = Vec::new();
    let mut counts = PayloadCounts {
        apis: metadata.apis.len(),
        ..PayloadCounts::default()
    };
    let mut items = Vec::new();
    for api in &metadata.apis {
        for m in &api.methods {
            items.push((
                ItemKind::RuntimeApi,
                &api.name,
                &m.name,
                &m.inputs,
                m.output,
            ));
        }
    }
    for p in &metadata.pallets {
        for f in &p.view_functions {
            items.push((
                ItemKind::ViewFunction,
                &p.name,
                &f.name,
                &f.inputs,
                f.output,
            ));
        }
    }
    for (kind, owner, name, inputs, output) in items {
        let what = format!("{kind} {owner}.{name}");
        let hash = fingerprint.item(kind, owner, name);
        match check_one(
            &mut sampler,
            dispatch,
            (kind, owner, name),
            (inputs, output),
            hash,
        ) {
            Ok(()) if kind == ItemKind::RuntimeApi => counts.methods += 1,
            Ok(()) => counts.view_functions += 1,
            Err(e) => failures.push(format!("{what}: {e}")),
        }
    }
    for (method, answer) in real_answers(&metadata, &bytes) {
        let what = format!("real answer of Metadata.{method}");
        match real_answer(sampler.registry, dispatch, method, &answer) {
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
    sampler: &mut Sampler<'_>,
    dispatch: PayloadDispatch,
    (kind, owner, name): (ItemKind, &str, &str),
    (inputs, output_ty): (&[Param], u32),
    hash: Option<u128>,
) -> Result<(), String> {
    let registry = &mut *sampler.registry;
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
    for p in inputs {
        let (v, b) = sampler
            .sample(p.ty)
            .ok_or(format!("no sample value of argument {}", p.name))?;
        values.push(v);
        arg_bytes.push(b);
    }
    let (output, output_bytes) = sampler
        .sample(output_ty)
        .ok_or("no sample value of the output")?;
    let registry = &mut *sampler.registry;
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
