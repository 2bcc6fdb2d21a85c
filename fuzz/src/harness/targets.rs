//! One entry point per fuzzed API. Each takes arbitrary bytes and must return
//! without panicking, hanging or allocating more than the input justifies;
//! errors are the expected outcome for almost every input and are dropped.
//! Where an API makes a promise that can be checked cheaply (a decode that
//! succeeds used every byte; a type string's canonical form reads back as
//! itself), the entry point asserts it, so a broken promise is a crash too.

use super::{seeds, smoke::smoke_with};
use ferroscale_dynamic::ops::portable_decomposition;
use ferroscale_dynamic::portable::import_metadata_bytes;
use ferroscale_dynamic::preset::{Definitions, Preset};
use ferroscale_dynamic::typestr::{convert_type_string, parse, parse_key, rewrite_text};
use ferroscale_dynamic::{decode_prefix, decode_value, Context, TypeGraph, TypeIdx, ValueSink};
use ferroscale_metadata::Metadata;

use super::inputs::{FLAG_EXTRINSIC, FLAG_SS58};
use super::{named, registries};

/// The fuzz targets, by the name of their cargo-fuzz binary and corpus folder.
pub const TARGETS: [&str; 6] = [
    "metadata",
    "typestr",
    "dynamic_decode",
    "preset",
    "text",
    "named",
];

/// The smoke fuzz of harness target `target`: all its seeds, then
/// `iterations` mutated inputs (see [`super::smoke`]).
pub fn smoke(target: &str, iterations: usize) {
    smoke_with(
        target,
        seeds::for_target(target),
        |data| run(target, data),
        iterations,
    );
}

/// Runs the entry point of target `name` ([`TARGETS`]) on `data`.
///
/// # Panics
/// On an unknown name (a harness bug), and wherever the code under test panics.
pub fn run(name: &str, data: &[u8]) {
    match name {
        "metadata" => metadata(data),
        "typestr" => typestr(data),
        "dynamic_decode" => dynamic_decode(data),
        "preset" => preset(data),
        "text" => text(data),
        "named" => {
            named(data);
        }
        other => panic!("unknown fuzz target {other:?}"),
    }
}

/// How many constants of a metadata blob that loaded are decoded against the
/// registry imported from that same (hostile) blob.
const CONSTANTS_DECODED: usize = 64;

/// How many types of a loaded blob's portable registry are decomposed (as
/// py-scale-codec's `generate_type_decomposition`), and how deep: shallow, so
/// that a hostile registry's exponential expansion stays quick to refuse.
const TYPES_DECOMPOSED: u32 = 16;
const DECOMPOSITION_DEPTH: u32 = 3;
/// How many bytes of the input's end the metadata target reads as a call
/// for an RFC-0078 proof.
const DIGEST_CALL_BYTES: usize = 64;

/// Metadata loading: `ferroscale_core` (`Metadata::from_bytes`, `load`, which
/// also reads hex text) and the dynamic layer's import of the portable
/// registry; when both accept the blob, its constants are decoded against the
/// registry it brought, which exercises the decoder over hostile type graphs
/// (cycles, huge arrays, zero-sized elements); V14+ blobs also get their
/// RFC-0078 digest and a proof for the input's last bytes read as a call.
pub fn metadata(data: &[u8]) {
    let loaded = Metadata::from_bytes(data);
    let _ = Metadata::load(data);
    let mut graph = TypeGraph::new();
    let Ok(imported) = import_metadata_bytes(&mut graph, data) else {
        return;
    };
    let Ok(md) = loaded else { return };
    let ctx = Context::new(&graph)
        .with_runtime(&imported.runtime)
        .with_ss58(Some(42));
    let constants = md.pallets.iter().flat_map(|p| p.constants.iter());
    for c in constants.take(CONSTANTS_DECODED) {
        if let Some(ty) = c.ty.id().and_then(|id| imported.types.idx(id)) {
            let _ = decode_value(&ctx, ty, &c.value);
        }
    }
    // RFC-0078: the digest, and a proof read from the input's tail as a call.
    if let Ok(merkleized) = ferroscale_metadata::digest::Merkleized::new(&md) {
        let chain = ferroscale_metadata::digest::ChainInfo::new(10, "UNIT");
        if let Ok(extra) = chain.extra_info(&md) {
            let _ = merkleized.digest(extra).hash();
        }
        let tail = &data[data.len().saturating_sub(DIGEST_CALL_BYTES)..];
        let _ = merkleized.proof_for_extrinsic_parts(tail, &[], &[]);
        let _ = merkleized.split_extrinsic(tail);
    }
    if let Some(types) = &md.types {
        let defs = Definitions::new();
        for id in 0..TYPES_DECOMPOSED.min(types.types.len() as u32) {
            let _ = portable_decomposition::decompose(types, &defs, id, DECOMPOSITION_DEPTH);
        }
    }
}

/// The type-string parser and the rewrites around it. A string that parses
/// has a canonical form (`Display`, what registries key their caches on)
/// that reads back, without rewrites (`parse_key`), as the same form. (Not
/// `parse` again: the textual rewrites apply once, to the caller's string,
/// as in py-scale-codec: `X<\nT>` is `X<T>`, while `X<T>` is `X`.)
pub fn typestr(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = rewrite_text(text);
    let _ = convert_type_string(text);
    if let Ok(expr) = parse(text) {
        let canonical = expr.to_string();
        let again = parse_key(&canonical).unwrap_or_else(|e| {
            panic!("canonical form {canonical:?} of {text:?} does not parse: {e}")
        });
        assert_eq!(
            again.to_string(),
            canonical,
            "canonical form of {text:?} does not read back as itself"
        );
    }
    if let Ok(expr) = parse_key(text) {
        let _ = expr.key();
        let _ = expr.depth();
    }
}

/// The text codecs users hand untrusted strings to, and the grouped
/// encoders behind batch decoding. As text: `hex::decode` (what it accepts
/// must be what the encoder writes back, in lower case) and `ss58::decode`
/// (an accepted address of a 32/33-byte key must be exactly what
/// `ss58::encode` writes for its payload and format). As bytes: a format
/// (first two bytes) and 32-byte keys (the rest) through
/// `ss58::encode_addresses` and one by one through `encode_address`, which
/// must agree; and the bytes cut into BLAKE2b messages of 0–128 bytes,
/// hashed in vector lanes (`digest_many`) and one by one (`digest`), which
/// must agree too.
pub fn text(data: &[u8]) {
    use ferroscale_core::hashing::blake2b_block;
    use ferroscale_core::{hex, ss58};

    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(bytes) = hex::decode(s) {
            let digits = s
                .strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .unwrap_or(s);
            assert_eq!(
                hex::encode_prefixed(&bytes)[2..],
                digits.to_ascii_lowercase(),
                "hex {s:?}"
            );
        }
        if let Ok(decoded) = ss58::decode(s, None) {
            if decoded.payload.len() >= 32 {
                let again = ss58::encode(&decoded.payload, decoded.format)
                    .unwrap_or_else(|e| panic!("{s:?} decoded but does not encode back: {e}"));
                assert_eq!(again, s, "ss58 {s:?}");
            }
        }
    }
    let format = u16::from_le_bytes([
        data.first().copied().unwrap_or(0),
        data.get(1).copied().unwrap_or(0),
    ]) & 0x3fff;
    let keys: Vec<&[u8]> = data.get(2..).unwrap_or_default().chunks_exact(32).collect();
    let grouped = ss58::encode_addresses(&keys, format);
    let single: Result<Vec<_>, _> = keys
        .iter()
        .map(|k| ss58::encode_address(k, format))
        .collect();
    match (&grouped, &single) {
        (Ok(g), Ok(s)) => {
            let g: Vec<&str> = g.iter().map(|a| a.as_str()).collect();
            let s: Vec<&str> = s.iter().map(|a| a.as_str()).collect();
            assert_eq!(g, s, "format {format}");
        }
        (Err(_), Err(_)) => {}
        // No keys: nothing is encoded one by one, while the grouped call
        // still refuses a bad format.
        (Err(_), Ok(s)) if s.is_empty() => {}
        _ => panic!(
            "format {format}: grouped {:?} but one by one {:?}",
            grouped.is_ok(),
            single.is_ok()
        ),
    }
    // Message lengths vary with the data: each message's length is its
    // first byte (capped at what SS58 and short storage keys need and
    // beyond, up to one block).
    let mut messages = Vec::new();
    let mut rest = data;
    while let Some((&len, tail)) = rest.split_first() {
        let len = usize::from(len) % (blake2b_block::MAX_LEN + 1);
        let (message, tail) = tail.split_at(len.min(tail.len()));
        messages.push(message);
        rest = tail;
    }
    let mut many = vec![[0u8; 64]; messages.len()];
    assert!(blake2b_block::digest_many(&messages, &mut many));
    for (message, hash) in messages.iter().zip(&many) {
        assert_eq!(blake2b_block::digest::<64>(message).as_ref(), Some(hash));
    }
}

/// Dynamic decoding of arbitrary bytes against every type of the real
/// registries. Input: byte 0 picks the registry, bytes 1–2 (little-endian)
/// the graph node (modulo the node count, so every node is reachable), byte 3
/// holds flags ([`FLAG_EXTRINSIC`], [`FLAG_SS58`]); the rest is decoded.
/// A decode that succeeds must have used every byte, and decoding a prefix
/// must stop at the same place.
pub fn dynamic_decode(data: &[u8]) {
    let [r, lo, hi, flags, payload @ ..] = data else {
        return;
    };
    let all = registries::all();
    let reg = &all[*r as usize % all.len()];
    let ty = if flags & FLAG_EXTRINSIC != 0 {
        reg.extrinsic
    } else {
        TypeIdx((u16::from_le_bytes([*lo, *hi]) as usize % reg.graph.len()) as u32)
    };
    let ss58 = (flags & FLAG_SS58 != 0).then_some(42);
    let ctx = Context::new(&reg.graph)
        .with_runtime(&reg.imported.runtime)
        .with_ss58(ss58);
    if decode_value(&ctx, ty, payload).is_ok() {
        let (_, used) = decode_prefix(&ctx, ty, payload, &mut ValueSink).unwrap_or_else(|e| {
            panic!(
                "{}: whole decode of {ty} worked, prefix decode failed: {e}",
                reg.name
            )
        });
        assert_eq!(used, payload.len(), "{}: {ty}", reg.name);
    }
}

/// Preset JSON loading (`Preset::from_json_str`, `types_from_json_str`) and
/// the merge of a loaded preset (`Definitions`): spec-version switching over
/// every versioning range it declares, runtime upgrade look-ups, and a
/// look-up of every name it defines.
pub fn preset(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = Preset::types_from_json_str(text);
    let Ok(preset) = Preset::from_json_str(text) else {
        return;
    };
    let mut defs = Definitions::new();
    defs.update(&preset);
    for name in preset.types.iter().map(|(n, _)| n) {
        let _ = defs.lookup(name);
    }
    let mut specs: Vec<u64> = vec![0, 1, u64::MAX];
    for v in preset.versioning.iter().flatten() {
        specs.push(v.from);
        specs.extend(v.to);
    }
    for spec in specs {
        defs.set_active_spec_version_id(spec);
        let _ = defs.get_runtime_id_from_upgrades(spec);
    }
    defs.set_runtime_upgrades_head(u64::MAX);
    let _ = defs.len();
}

/// What clients reach by name on V15/V16 runtimes, fed arbitrary bytes:
/// runtime API results and view function answers decoded by name, storage
/// keys of every map read back into their parts, whole extrinsics of
/// formats 4 and 5 (bare, signed, general with its extension version).
/// Input: byte 0 picks the runtime, bytes 1–2 the item (modulo the number
/// of items of that kind), byte 3 the kind
/// ([`NamedKind`](super::inputs::NamedKind)); the rest is decoded (a
/// storage key gets the entry's real prefix in front, so the hashers and
/// keys are reached). Returns whether the bytes decoded (the
/// seeds' test checks that every seed does).
pub fn named(data: &[u8]) -> bool {
    let [r, lo, hi, kind, payload @ ..] = data else {
        return false;
    };
    let all = named::all();
    let n = &all[*r as usize % all.len()];
    let item = u16::from_le_bytes([*lo, *hi]) as usize;
    // A panic below fails the run anyway; a poisoned lock must not hide it
    // behind a second one.
    let mut registry = n
        .registry
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match kind % 4 {
        0 if !n.apis.is_empty() => {
            let (api, method) = &n.apis[item % n.apis.len()];
            let call = registry
                .runtime_api(api, method)
                .unwrap_or_else(|e| panic!("{}: listed {api}.{method}: {e}", n.name));
            registry.decode_runtime_api_result(&call, payload).is_ok()
        }
        1 if !n.view_functions.is_empty() => {
            let (pallet, name) = &n.view_functions[item % n.view_functions.len()];
            let view = registry
                .view_function(pallet, name)
                .unwrap_or_else(|e| panic!("{}: listed {pallet}.{name}: {e}", n.name));
            registry.decode_view_function_answer(&view, payload).is_ok()
        }
        2 if !n.maps.is_empty() => {
            let (pallet, entry, prefix) = &n.maps[item % n.maps.len()];
            let key = [&prefix[..], payload].concat();
            registry.decode_storage_key(pallet, entry, &key).is_ok()
        }
        3 => registry.decode("Extrinsic", payload).is_ok(),
        _ => false,
    }
}
