//! Extrinsics against `frame-decode`: built ones (every call, every form
//! and extension version) and recorded ones, typed = dynamic = frame-decode.

use std::ops::Range;

use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::Metadata;
use ferroscale_value::Value;
use frame_decode::extrinsics::{decode_extrinsic, ExtrinsicType};
use frame_metadata::RuntimeMetadata;
use parity_scale_codec::{Compact, Decode, Encode};

use super::{load, Sampled};
use crate::payloads::Sampler;
use crate::Roundtrip;

/// What a generated chain's `UncheckedExtrinsic` read from one extrinsic,
/// each part encoded again on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedExtrinsic {
    /// The format: 4 or 5.
    pub version: u8,
    /// A general transaction's transaction-extension version.
    pub extension_version: Option<u8>,
    /// A signed extrinsic's address.
    pub address: Option<Vec<u8>>,
    /// A signed extrinsic's signature.
    pub signature: Option<Vec<u8>>,
    /// The extensions' data, all of them (signed or general).
    pub extensions: Option<Vec<u8>>,
    /// The call.
    pub call: Vec<u8>,
    /// The whole extrinsic encoded again.
    pub whole: Vec<u8>,
}

impl TypedExtrinsic {
    /// The parts of a decoded generated `UncheckedExtrinsic`, each encoded again.
    pub fn of<A, C, S, E, G>(
        x: &ferroscale_runtime_types::UncheckedExtrinsic<A, C, S, E, G>,
    ) -> Self
    where
        A: Encode,
        C: Encode,
        S: Encode,
        E: Encode,
        G: ferroscale_runtime_types::GeneralExtensions,
    {
        let general = x.general().map(|g| {
            let mut bytes = Vec::new();
            g.extensions.encode_extensions_to(&mut bytes);
            (g.extension_version, bytes)
        });
        TypedExtrinsic {
            version: x.version(),
            extension_version: general.as_ref().map(|(v, _)| *v),
            address: x.signature().map(|s| s.address.encode()),
            signature: x.signature().map(|s| s.signature.encode()),
            extensions: x
                .signature()
                .map(|s| s.extra.encode())
                .or(general.map(|(_, bytes)| bytes)),
            call: x.function.encode(),
            whole: x.encode(),
        }
    }
}

/// A generated chain's decoding of one extrinsic (with its length prefix)
/// into [`TypedExtrinsic`].
pub type TypedExtrinsicDecoder = fn(&[u8]) -> Result<TypedExtrinsic, String>;

/// What [`check_built_extrinsics`] checked in one fixture.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExtrinsicCounts {
    /// Calls the metadata lists.
    pub calls: usize,
    /// Calls whose arguments could be sampled (each built in every form).
    pub built_calls: usize,
    /// Extrinsics checked, per form: `"v4 unsigned"`, `"v4 signed"`,
    /// `"v5 bare"`, `"v5 general (extension version N)"`.
    pub by_form: Vec<(String, usize)>,
}

impl ExtrinsicCounts {
    fn count(&mut self, form: &str) {
        match self.by_form.iter_mut().find(|(f, _)| f == form) {
            Some((_, n)) => *n += 1,
            None => self.by_form.push((form.to_string(), 1)),
        }
    }

    /// Extrinsics checked, all forms.
    pub fn total(&self) -> usize {
        self.by_form.iter().map(|(_, n)| n).sum()
    }
}

/// What one extrinsic's parts are, by `frame-decode`.
#[derive(Debug, PartialEq, Eq)]
struct Parts {
    version: u8,
    kind: &'static str,
    extension_version: Option<u8>,
    address: Option<Range<usize>>,
    signature: Option<Range<usize>>,
    /// Identifier, range, type id.
    extensions: Vec<(String, Range<usize>, u32)>,
    pallet: String,
    call_name: String,
    call: Range<usize>,
    /// Name, range, type id.
    args: Vec<(String, Range<usize>, u32)>,
}

fn reference_parts(md: &RuntimeMetadata, fixture: &str, bytes: &[u8]) -> Result<Parts, String> {
    with_reference!(md, fixture, |m| {
        let mut cursor = bytes;
        let x = decode_extrinsic(&mut cursor, m, &m.types).map_err(|e| format!("{e:?}"))?;
        if !cursor.is_empty() {
            return Err(format!("{} bytes left over", cursor.len()));
        }
        Ok(Parts {
            version: x.version(),
            kind: match x.ty() {
                ExtrinsicType::Bare => "bare",
                ExtrinsicType::Signed => "signed",
                ExtrinsicType::General => "general",
            },
            extension_version: match x.ty() {
                ExtrinsicType::General => x.transaction_extension_payload().map(|e| e.version()),
                _ => None,
            },
            address: x.signature_payload().map(|s| s.address_range()),
            signature: x.signature_payload().map(|s| s.signature_range()),
            extensions: x
                .transaction_extension_payload()
                .map(|e| {
                    e.iter()
                        .map(|a| (a.name().to_string(), a.range(), *a.ty()))
                        .collect()
                })
                .unwrap_or_default(),
            pallet: x.pallet_name().to_string(),
            call_name: x.call_name().to_string(),
            // `call_data_range` of frame-decode 0.18.1 ends at the pallet
            // index for a call without arguments; the arguments' range ends
            // right in every case.
            call: x.call_data_range().start..x.call_data_args_range().end,
            args: x
                .call_data()
                .map(|a| (a.name().to_string(), a.range(), *a.ty()))
                .collect(),
        })
    })
}

/// The form of an extrinsic to build.
#[derive(Clone, Copy)]
enum Form {
    Unsigned4,
    Signed4,
    Bare5,
    General5(u8),
}

impl Form {
    fn name(self) -> String {
        match self {
            Form::Unsigned4 => "v4 unsigned".into(),
            Form::Signed4 => "v4 signed".into(),
            Form::Bare5 => "v5 bare".into(),
            Form::General5(v) => format!("v5 general (extension version {v})"),
        }
    }
}

/// What a built extrinsic holds, with the ranges its parts were written to.
struct Built {
    bytes: Vec<u8>,
    expected: Parts,
    /// The sampled values: address, signature, extensions (dynamic key,
    /// value), arguments.
    address: Option<Value>,
    extensions: Vec<(String, Value)>,
    args: Vec<Value>,
}

/// Builds `pallet.call` in `form` from the samples; the ranges include the
/// length prefix, as `frame-decode` counts them.
fn build(
    form: Form,
    (pallet, pallet_index): (&str, u8),
    call: &ferroscale_metadata::Variant,
    args: &[Sampled],
    signer: Option<(&Sampled, &Sampled)>,
    extensions: &[(String, String, u32, Sampled)],
) -> Built {
    let mut body = Vec::new();
    let mut address = None;
    let mut signature = None;
    let mut extension_version = None;
    let mut ext_ranges = Vec::new();
    let mut ext_values = Vec::new();
    let (version, kind) = match form {
        Form::Unsigned4 => (4, "bare"),
        Form::Signed4 => (4, "signed"),
        Form::Bare5 => (5, "bare"),
        Form::General5(_) => (5, "general"),
    };
    body.push(match form {
        Form::Unsigned4 => 0x04,
        Form::Signed4 => 0x84,
        Form::Bare5 => 0x05,
        Form::General5(_) => 0x45,
    });
    if let Form::Signed4 = form {
        let (a, s) = signer.expect("a signed form has a signer");
        let at = body.len();
        body.extend_from_slice(&a.1);
        address = Some((at..body.len(), a.0.clone()));
        let at = body.len();
        body.extend_from_slice(&s.1);
        signature = Some(at..body.len());
    }
    if let Form::General5(v) = form {
        body.push(v);
        extension_version = Some(v);
    }
    if matches!(form, Form::Signed4 | Form::General5(_)) {
        for (identifier, key, ty, (value, bytes)) in extensions {
            let at = body.len();
            body.extend_from_slice(bytes);
            ext_ranges.push((identifier.clone(), at..body.len(), *ty));
            ext_values.push((key.clone(), value.clone()));
        }
    }
    let call_start = body.len();
    body.extend_from_slice(&[pallet_index, call.index]);
    let mut arg_ranges = Vec::new();
    for (field, (_, bytes)) in call.fields.iter().zip(args) {
        let at = body.len();
        body.extend_from_slice(bytes);
        arg_ranges.push((
            field.name.clone().unwrap_or_default(),
            at..body.len(),
            field.ty.id().expect("V14+ type id"),
        ));
    }
    let call_range = call_start..body.len();
    let prefix = Compact(body.len() as u32).encode();
    let shift = |r: Range<usize>| r.start + prefix.len()..r.end + prefix.len();
    let bytes = [prefix.clone(), body].concat();
    Built {
        bytes,
        expected: Parts {
            version,
            kind,
            extension_version,
            address: address.as_ref().map(|(r, _)| shift(r.clone())),
            signature: signature.map(shift),
            extensions: ext_ranges
                .into_iter()
                .map(|(n, r, t)| (n, shift(r), t))
                .collect(),
            pallet: pallet.to_string(),
            call_name: call.name.clone(),
            call: shift(call_range),
            args: arg_ranges
                .into_iter()
                .map(|(n, r, t)| (n, shift(r), t))
                .collect(),
        },
        address: address.map(|(_, v)| v),
        extensions: ext_values,
        args: args.iter().map(|(v, _)| v.clone()).collect(),
    }
}

/// Checks a built extrinsic: `frame-decode` finds the parts where they were
/// written; the dynamic layer reads the sampled values and re-encodes the
/// bytes; the generated type's parts re-encode to the written ranges.
fn check_built(
    md: &RuntimeMetadata,
    fixture: &str,
    registry: &mut Registry,
    typed: TypedExtrinsicDecoder,
    built: &Built,
) -> Result<(), String> {
    let bytes = &built.bytes;
    let parts = reference_parts(md, fixture, bytes).map_err(|e| format!("frame-decode: {e}"))?;
    if parts != built.expected {
        return Err(format!(
            "frame-decode reads other parts:\n  frame-decode {parts:?}\n  written      {:?}",
            built.expected
        ));
    }
    // The dynamic layer.
    let value = registry
        .decode("Extrinsic", bytes)
        .map_err(|e| format!("dynamic decode: {e}"))?;
    if parts.version == 5 && value.get("version").and_then(Value::as_u128) != Some(5) {
        return Err(format!("dynamic: no version 5 in {value}"));
    }
    let ext_version = value
        .get("extension_version")
        .and_then(Value::as_u128)
        .map(|v| v as u8);
    if ext_version != parts.extension_version {
        return Err(format!("dynamic: extension version {ext_version:?}"));
    }
    if let Some(address) = &built.address {
        if value.get("address") != Some(address) {
            return Err(format!("dynamic: address {:?}", value.get("address")));
        }
    }
    for ((key, v), (_, range, _)) in built.extensions.iter().zip(&parts.extensions) {
        // py-scale-codec's value leaves out extensions that carry no data.
        if range.is_empty() && value.get(key).is_none() {
            continue;
        }
        if value.get(key) != Some(v) {
            return Err(format!(
                "dynamic: extension '{key}' is {:?}",
                value.get(key)
            ));
        }
    }
    let call = value.get("call").ok_or("dynamic: no call")?;
    let module = call.get("call_module").and_then(Value::as_str);
    let function = call.get("call_function").and_then(Value::as_str);
    if module != Some(parts.pallet.as_str()) || function != Some(parts.call_name.as_str()) {
        return Err(format!("dynamic: call {module:?}.{function:?}"));
    }
    let args: Vec<&Value> = match call.get("call_args") {
        Some(Value::List(args)) => args.iter().filter_map(|a| a.get("value")).collect(),
        other => return Err(format!("dynamic: call_args {other:?}")),
    };
    if args.len() != built.args.len() || args.iter().zip(&built.args).any(|(a, b)| *a != b) {
        return Err("dynamic: call arguments differ from the sampled values".into());
    }
    let again = registry
        .encode("Extrinsic", &value)
        .map_err(|e| format!("dynamic encode: {e}"))?;
    if &again != bytes {
        return Err("dynamic: re-encoded bytes differ".into());
    }
    check_typed(typed, bytes, &parts)
}

/// The generated type's parts against `frame-decode`'s ranges.
fn check_typed(typed: TypedExtrinsicDecoder, bytes: &[u8], parts: &Parts) -> Result<(), String> {
    let t = typed(bytes).map_err(|e| format!("typed decode: {e}"))?;
    let range = |r: &Option<Range<usize>>| r.as_ref().map(|r| bytes[r.clone()].to_vec());
    let extensions = match (
        parts.kind,
        parts.extensions.first(),
        parts.extensions.last(),
    ) {
        ("bare", _, _) => None,
        (_, Some(first), Some(last)) => Some(bytes[first.1.start..last.1.end].to_vec()),
        _ => Some(Vec::new()),
    };
    let checks = [
        ("format", t.version == parts.version),
        (
            "extension version",
            t.extension_version == parts.extension_version,
        ),
        ("address", t.address == range(&parts.address)),
        ("signature", t.signature == range(&parts.signature)),
        ("extensions", t.extensions == extensions),
        ("call", t.call == bytes[parts.call.clone()]),
        ("whole", t.whole == bytes),
    ];
    match checks.iter().find(|(_, ok)| !ok) {
        Some((what, _)) => Err(format!("typed: the {what} differs from frame-decode's")),
        None => Ok(()),
    }
}

/// A format-5 extrinsic damaged: cut at every offset (length prefix kept, so
/// it promises more than is there), cut with the prefix fixed to the cut
/// body, and (general) with an extension version the metadata does not list.
/// Every one is an error of both layers, never a panic; a cut body with a
/// fixed prefix may still decode (a shorter valid call), and then must
/// re-encode to its bytes.
fn check_damaged(
    registry: &mut Registry,
    typed: TypedExtrinsicDecoder,
    bytes: &[u8],
    unlisted: Option<u8>,
) -> Result<(), String> {
    let prefix = Compact::<u32>::decode(&mut &bytes[..]).map_err(|e| e.to_string())?;
    let start = Compact(prefix.0).encoded_size();
    for cut in 0..bytes.len() {
        let short = &bytes[..cut];
        if registry.decode("Extrinsic", short).is_ok() || typed(short).is_ok() {
            return Err(format!("cut at {cut} of {} decodes", bytes.len()));
        }
        if cut > start {
            let body = &bytes[start..cut];
            let refixed = [Compact(body.len() as u32).encode(), body.to_vec()].concat();
            if let Ok(v) = registry.decode("Extrinsic", &refixed) {
                if registry.encode("Extrinsic", &v).ok().as_deref() != Some(&refixed[..]) {
                    return Err(format!("body cut at {cut} decodes but does not re-encode"));
                }
            }
            let _ = typed(&refixed);
        }
    }
    if let (Some(v), 0x45) = (unlisted, bytes[start]) {
        let mut wrong = bytes.to_vec();
        wrong[start + 1] = v;
        match registry.decode("Extrinsic", &wrong) {
            Ok(_) => return Err(format!("unlisted extension version {v} decodes")),
            Err(e) if !e.to_string().contains("transaction-extension version") => {
                return Err(format!("unlisted extension version {v}: {e}"))
            }
            Err(_) => {}
        }
        if typed(&wrong).is_ok() {
            return Err(format!("typed: unlisted extension version {v} decodes"));
        }
    }
    Ok(())
}

/// Builds every call of `fixture` in every form its metadata lists and
/// checks each against `frame-decode`, the dynamic layer and `typed` (the
/// generated chain's `UncheckedExtrinsic`; `roundtrip` its `roundtrip_type`,
/// so sampled values are ones both layers accept). Panics naming every
/// extrinsic that disagrees, and when fewer than nine calls in ten could be
/// built.
pub fn check_built_extrinsics(
    fixture: &str,
    roundtrip: Roundtrip,
    typed: TypedExtrinsicDecoder,
) -> ExtrinsicCounts {
    check_built_extrinsics_of(
        fixture,
        &ferroscale_fixtures::read(fixture),
        roundtrip,
        typed,
    )
}

/// [`check_built_extrinsics`] over metadata `bytes` (named `fixture` in
/// messages) that are not a fixture file: a runtime made from one.
pub fn check_built_extrinsics_of(
    fixture: &str,
    bytes: &[u8],
    roundtrip: Roundtrip,
    typed: TypedExtrinsicDecoder,
) -> ExtrinsicCounts {
    let (reference, mut registry) = load(fixture, bytes);
    let metadata =
        Metadata::load(bytes).unwrap_or_else(|e| panic!("{fixture}: metadata does not load: {e}"));
    let types = metadata.types.as_ref().expect("V14+ registry");
    let x = &metadata.extrinsic;
    let extension_keys = {
        let rt = registry.runtime().expect("runtime");
        rt.extrinsic
            .extensions
            .iter()
            .chain(rt.extrinsic.general_extensions.values().flatten())
            .map(|e| (e.identifier.to_string(), e.key.to_string()))
            .collect::<Vec<_>>()
    };
    let key_of = |identifier: &str| {
        extension_keys
            .iter()
            .find(|(i, _)| i == identifier)
            .map(|(_, k)| k.clone())
            .unwrap_or_else(|| identifier.to_string())
    };
    let mut sampler = Sampler::new(&mut registry, &metadata, types, roundtrip);
    let mut sample_extensions = |list: Vec<&ferroscale_metadata::SignedExtension>| {
        list.into_iter()
            .map(|e| {
                let ty = e.ty.expect("V14+ extension type");
                let s = sampler.sample(ty).unwrap_or_else(|| {
                    panic!("{fixture}: no sample of extension {}", e.identifier)
                });
                (e.identifier.clone(), key_of(&e.identifier), ty, s)
            })
            .collect::<Vec<_>>()
    };
    let signed_extensions = sample_extensions(x.signed_extensions_v4());
    let general: Vec<(u8, Vec<_>)> = x
        .extensions_by_version
        .keys()
        .map(|&v| (v, sample_extensions(x.extensions_for_version(v))))
        .collect();
    let signer = match (x.address_type, x.signature_type) {
        (Some(a), Some(s)) => Some((
            sampler.sample(a).expect("an address sample"),
            sampler.sample(s).expect("a signature sample"),
        )),
        _ => None,
    };
    let mut forms = Vec::new();
    if x.versions.contains(&4) {
        forms.push(Form::Unsigned4);
        if signer.is_some() {
            forms.push(Form::Signed4);
        }
    }
    if x.versions.contains(&5) {
        forms.push(Form::Bare5);
        forms.extend(general.iter().map(|(v, _)| Form::General5(*v)));
    }
    let mut counts = ExtrinsicCounts::default();
    let mut to_check = Vec::new();
    let mut unbuilt = Vec::new();
    for p in &metadata.pallets {
        let Some(calls) = &p.call_enum else { continue };
        for call in &calls.variants {
            counts.calls += 1;
            let args: Option<Vec<Sampled>> = call
                .fields
                .iter()
                .map(|f| sampler.sample(f.ty.id().expect("V14+ type id")))
                .collect();
            let Some(args) = args else {
                unbuilt.push(format!("{}.{}", p.name, call.name));
                continue;
            };
            counts.built_calls += 1;
            for &form in &forms {
                let extensions = match form {
                    Form::General5(v) => &general.iter().find(|(g, _)| *g == v).unwrap().1,
                    _ => &signed_extensions,
                };
                let built = build(
                    form,
                    (&p.name, calls.pallet_index),
                    call,
                    &args,
                    signer.as_ref().map(|(a, s)| (a, s)),
                    extensions,
                );
                to_check.push((form, format!("{}.{}", p.name, call.name), built));
            }
        }
    }
    drop(sampler);
    let mut failures = Vec::new();
    let unlisted = (0..=u8::MAX).find(|v| !x.extensions_by_version.contains_key(v));
    for (form, what, built) in &to_check {
        let result = check_built(&reference, fixture, &mut registry, typed, built).and_then(|()| {
            if matches!(form, Form::Bare5 | Form::General5(_)) {
                check_damaged(&mut registry, typed, &built.bytes, unlisted)
            } else {
                Ok(())
            }
        });
        match result {
            Ok(()) => counts.count(&form.name()),
            Err(e) => failures.push(format!("{what} as {}: {e}", form.name())),
        }
    }
    assert!(
        failures.is_empty(),
        "{fixture}: {} of {} built extrinsics disagree:\n{}",
        failures.len(),
        to_check.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert!(
        counts.built_calls * 10 >= counts.calls * 9,
        "{fixture}: only {} of {} calls could be built",
        counts.built_calls,
        counts.calls
    );
    eprintln!(
        "{fixture}: {} of {} calls built (no sample of an argument: {unbuilt:?}); \
         agreed with frame-decode, dynamic and typed: {:?}",
        counts.built_calls, counts.calls, counts.by_form
    );
    counts
}

/// Checks the recorded extrinsics `extrinsics` (hex, each with its length
/// prefix) of a block of the runtime `fixture`: `frame-decode`'s part
/// ranges, read by the dynamic layer part by part, give the values the
/// dynamic layer read from the whole extrinsic; the generated type's parts
/// re-encode to those ranges. Returns how many were checked.
pub fn check_real_extrinsics(
    fixture: &str,
    extrinsics: &[Vec<u8>],
    typed: TypedExtrinsicDecoder,
) -> usize {
    let bytes = ferroscale_fixtures::read(fixture);
    let (reference, mut registry) = load(fixture, &bytes);
    let keys: Vec<(String, String)> = registry
        .runtime()
        .expect("runtime")
        .extrinsic
        .extensions
        .iter()
        .map(|e| (e.identifier.to_string(), e.key.to_string()))
        .collect();
    let mut failures = Vec::new();
    for (i, xt) in extrinsics.iter().enumerate() {
        let result = (|| -> Result<(), String> {
            let parts = reference_parts(&reference, fixture, xt)?;
            let value = registry
                .decode("Extrinsic", xt)
                .map_err(|e| format!("dynamic decode: {e}"))?;
            let mut part = |ty: u32, r: &Range<usize>| {
                registry
                    .decode(&format!("scale_info::{ty}"), &xt[r.clone()])
                    .map_err(|e| format!("dynamic decode of type {ty} at {r:?}: {e}"))
            };
            for (name, r, ty) in &parts.extensions {
                let key = keys
                    .iter()
                    .find(|(id, _)| id == name)
                    .map_or(name.as_str(), |(_, k)| k.as_str());
                // py-scale-codec's value leaves out extensions that carry no data.
                if r.is_empty() && value.get(key).is_none() {
                    continue;
                }
                let expected = part(*ty, r)?;
                if value.get(key) != Some(&expected) {
                    return Err(format!("extension {name}: {:?}", value.get(key)));
                }
            }
            let call = value.get("call").ok_or("no call")?;
            let Some(Value::List(args)) = call.get("call_args") else {
                return Err("no call_args".into());
            };
            if args.len() != parts.args.len() {
                return Err(format!(
                    "{} arguments, frame-decode {}",
                    args.len(),
                    parts.args.len()
                ));
            }
            for (a, (name, r, ty)) in args.iter().zip(&parts.args) {
                let expected = part(*ty, r)?;
                if a.get("name").and_then(Value::as_str) != Some(name.as_str())
                    || a.get("value") != Some(&expected)
                {
                    return Err(format!("argument {name} differs"));
                }
            }
            if call.get("call_module").and_then(Value::as_str) != Some(parts.pallet.as_str())
                || call.get("call_function").and_then(Value::as_str)
                    != Some(parts.call_name.as_str())
            {
                return Err("another call".into());
            }
            check_typed(typed, xt, &parts)
        })();
        if let Err(e) = result {
            failures.push(format!("extrinsic {i}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{fixture}: recorded extrinsics disagree with frame-decode:\n{}",
        failures.join("\n")
    );
    assert!(!extrinsics.is_empty(), "{fixture}: no extrinsics to check");
    extrinsics.len()
}
