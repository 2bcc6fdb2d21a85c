//! `Document` (a decoded value stored flat) against `decode_value` (the
//! `Value` tree), on real chain data:
//!
//! - every constant and storage default of every V14+ metadata fixture, a
//!   built event record for every event and a built signed extrinsic for
//!   every call of each runtime, every extrinsic of Polkadot block
//!   10,000,000, the `System.Account` values stored at that block, the
//!   Bittensor runtime-API payloads, every constant and storage default of
//!   the legacy (V9–V13) fixtures through the presets, and the extrinsics,
//!   `Staking.Validators` values and built legacy event records of block
//!   5,000,000: `Document::decode(..).to_value()` is the `Value`, with and
//!   without an SS58 format, and inputs cut short, with a byte too many or
//!   with a corrupted first byte fail with the same error;
//! - the node kinds real metadata rarely holds, on arbitrary bytes;
//! - every `ValueRef` accessor agrees with the `Value`, node by node;
//! - one document decoded into over and over (`decode_into`), errors
//!   included, always holds what a fresh decode gives;
//! - integers wider than 64 bits (u128, i128, U256, I256, `Compact<U256>`)
//!   keep their numbers;
//! - values that come from a decode hook (generated types, through
//!   `Sink::value`) land in the document as they are;
//! - and the checks themselves notice a changed value.

mod common;

use ferroscale_dynamic::document::Kind;
use ferroscale_dynamic::{
    decode_value, Context, Document, Error, Node, Prim, TypeGraph, TypeIdx, ValueRef,
};
use ferroscale_value::Value;

/// A probe key no decoded dict has.
const ABSENT_KEY: &str = "\u{0}no such key";

/// What the comparisons covered.
#[derive(Default)]
struct Tally {
    /// Inputs that decoded, compared value for value.
    values: usize,
    /// Inputs that failed, compared error for error.
    errors: usize,
    /// `ValueRef`s whose accessors were checked.
    nodes: usize,
    /// Differences found (label: what).
    failures: Vec<String>,
}

impl Tally {
    fn fail(&mut self, label: &str, what: String) {
        self.failures.push(format!("{label}: {what}"));
    }

    fn report(&self, what: &str) {
        eprintln!(
            "{what}: {} values and {} errors compared, {} value refs checked, {} failures",
            self.values,
            self.errors,
            self.nodes,
            self.failures.len()
        );
        for f in self.failures.iter().take(30) {
            eprintln!("FAIL {f}");
        }
        assert!(
            self.failures.is_empty(),
            "{what}: {} failures",
            self.failures.len()
        );
    }
}

/// The kind a `ValueRef` of `v` must report.
fn kind_of(v: &Value) -> Kind {
    match v {
        Value::Null => Kind::Null,
        Value::Bool(_) => Kind::Bool,
        Value::UInt(_) | Value::Int(_) | Value::U256(_) | Value::I256(_) => Kind::Int,
        Value::Str(_) => Kind::Str,
        Value::List(_) => Kind::List,
        Value::Tuple(_) => Kind::Tuple,
        Value::Dict(_) => Kind::Dict,
    }
}

/// The `i128` of an integer value that fits one.
fn i128_of(v: &Value) -> Option<i128> {
    match *v {
        Value::UInt(n) => i128::try_from(n).ok(),
        Value::Int(n) => Some(n),
        _ => None,
    }
}

/// Checks every accessor of `r` against `v`, recursively; the first
/// disagreement is returned with the path to it.
fn check_ref(r: ValueRef<'_, '_>, v: &Value, path: &str, nodes: &mut usize) -> Result<(), String> {
    *nodes += 1;
    let at = |what: &str| format!("at {path}: {what}");
    if r.kind() != kind_of(v) {
        return Err(at(&format!("kind {:?}, value {v}", r.kind())));
    }
    if r.is_null() != matches!(v, Value::Null) {
        return Err(at(&format!("is_null {} for {v}", r.is_null())));
    }
    let bool_of = match v {
        Value::Bool(b) => Some(*b),
        _ => None,
    };
    if r.as_bool() != bool_of {
        return Err(at(&format!("as_bool {:?} for {v}", r.as_bool())));
    }
    if r.as_u128() != v.as_u128() {
        return Err(at(&format!("as_u128 {:?} for {v}", r.as_u128())));
    }
    if r.as_i128() != i128_of(v) {
        return Err(at(&format!("as_i128 {:?} for {v}", r.as_i128())));
    }
    if r.as_str() != v.as_str() {
        return Err(at(&format!("as_str {:?} for {v}", r.as_str())));
    }
    if r.to_value() != *v {
        return Err(at(&format!("to_value {} != {v}", r.to_value())));
    }
    let len = match v {
        Value::List(items) | Value::Tuple(items) => items.len(),
        Value::Dict(entries) => entries.len(),
        _ => 0,
    };
    if r.len() != len || r.is_empty() != (len == 0) {
        return Err(at(&format!(
            "len {} (is_empty {}), expected {len}",
            r.len(),
            r.is_empty()
        )));
    }
    match v {
        Value::List(items) | Value::Tuple(items) => {
            if r.entries().is_some() || r.get(ABSENT_KEY).is_some() {
                return Err(at("a list or tuple reads as a dict"));
            }
            let it = r.items().ok_or_else(|| at("items() is None"))?;
            if it.len() != items.len() {
                return Err(at(&format!("items() has {} of {}", it.len(), items.len())));
            }
            let mut seen = 0;
            for (i, (item, expected)) in it.zip(items).enumerate() {
                check_ref(item, expected, &format!("{path}[{i}]"), nodes)?;
                seen += 1;
            }
            if seen != items.len() {
                return Err(at(&format!("items() yielded {seen} of {}", items.len())));
            }
            for (i, expected) in items.iter().enumerate() {
                match r.item(i) {
                    Some(item) if item.to_value() == *expected => {}
                    other => {
                        return Err(at(&format!("item({i}) is {other:?}, expected {expected}")))
                    }
                }
            }
            for beyond in [items.len(), items.len() + 1, usize::MAX] {
                if let Some(item) = r.item(beyond) {
                    return Err(at(&format!("item({beyond}) out of range gives {item:?}")));
                }
            }
        }
        Value::Dict(entries) => {
            if r.items().is_some() || r.item(0).is_some() {
                return Err(at("a dict reads as a list"));
            }
            let it = r.entries().ok_or_else(|| at("entries() is None"))?;
            if it.len() != entries.len() {
                return Err(at(&format!(
                    "entries() has {} of {}",
                    it.len(),
                    entries.len()
                )));
            }
            let mut seen = 0;
            for ((key, value), (expected_key, expected)) in it.zip(entries) {
                if key != &**expected_key {
                    return Err(at(&format!(
                        "key {seen} is {key:?}, expected {expected_key:?}"
                    )));
                }
                check_ref(value, expected, &format!("{path}.{key}"), nodes)?;
                seen += 1;
            }
            if seen != entries.len() {
                return Err(at(&format!(
                    "entries() yielded {seen} of {}",
                    entries.len()
                )));
            }
            for (key, _) in entries {
                // `Value::get` also takes the first entry of a key.
                let expected = v.get(key).expect("the key is in the dict");
                match r.get(key) {
                    Some(found) if found.to_value() == *expected => {}
                    other => {
                        return Err(at(&format!(
                            "get({key:?}) is {other:?}, expected {expected}"
                        )))
                    }
                }
            }
            if let Some(found) = r.get(ABSENT_KEY) {
                return Err(at(&format!("get of an absent key gives {found:?}")));
            }
        }
        _ => {
            if r.items().is_some() || r.entries().is_some() {
                return Err(at(&format!("scalar {v} has items or entries")));
            }
            if r.item(0).is_some() || r.get(ABSENT_KEY).is_some() {
                return Err(at(&format!("scalar {v} has an item or a key")));
            }
        }
    }
    Ok(())
}

/// Decodes `bytes` as `ty` with `decode_value`, with `Document::decode` and
/// into the reused document `reused`, and checks that all three agree (the
/// same value, or the same error), and every accessor on the way. Returns
/// whether `decode_value` decoded.
fn compare<'g>(
    ctx: &Context<'g>,
    ty: TypeIdx,
    bytes: &[u8],
    label: &str,
    reused: &mut Document<'g>,
    tally: &mut Tally,
) -> bool {
    let expected = decode_value(ctx, ty, bytes);
    let fresh = Document::decode(ctx, ty, bytes);
    let into = reused.decode_into(ctx, ty, bytes);
    match (&expected, &fresh) {
        (Ok(v), Ok(doc)) => {
            tally.values += 1;
            let got = doc.to_value();
            if got != *v {
                tally.fail(label, format!("document {got}\n  != value {v}"));
            } else if let Err(e) = check_ref(doc.root(), v, "root", &mut tally.nodes) {
                tally.fail(label, e);
            }
        }
        (Err(e), Err(doc_e)) => {
            tally.errors += 1;
            if e != doc_e || e.to_string() != doc_e.to_string() {
                tally.fail(
                    label,
                    format!("document error {doc_e}\n  != value error {e}"),
                );
            }
        }
        (Ok(v), Err(e)) => tally.fail(label, format!("document fails ({e}), value is {v}")),
        (Err(e), Ok(doc)) => tally.fail(
            label,
            format!("document decodes ({}), value fails ({e})", doc.to_value()),
        ),
    }
    match (&expected, into) {
        (Ok(v), Ok(())) => {
            if reused.to_value() != *v {
                tally.fail(
                    label,
                    format!("reused document {}\n  != {v}", reused.to_value()),
                );
            }
        }
        (Err(e), Err(into_e)) => {
            if *e != into_e {
                tally.fail(label, format!("reused document error {into_e} != {e}"));
            }
            let root = reused.root();
            if !root.is_null() || root.kind() != Kind::Null || !root.is_empty() {
                tally.fail(label, format!("failed decode_into left {root:?}"));
            }
            if reused.to_value() != Value::Null {
                tally.fail(
                    label,
                    format!("failed decode_into left {}", reused.to_value()),
                );
            }
        }
        (expected, into) => tally.fail(
            label,
            format!("decode_into gives {into:?}, decode_value {expected:?}"),
        ),
    }
    expected.is_ok()
}

/// [`compare`] on `bytes` and on three broken copies: the last byte cut,
/// a zero byte appended, the first byte set to 0xff. Returns whether
/// `bytes` themselves decoded.
fn compare_with_broken<'g>(
    ctx: &Context<'g>,
    ty: TypeIdx,
    bytes: &[u8],
    label: &str,
    reused: &mut Document<'g>,
    tally: &mut Tally,
) -> bool {
    let decoded = compare(ctx, ty, bytes, label, reused, tally);
    if let Some((_, head)) = bytes.split_last() {
        compare(ctx, ty, head, &format!("{label} (cut)"), reused, tally);
        let mut corrupted = bytes.to_vec();
        corrupted[0] = 0xff;
        compare(
            ctx,
            ty,
            &corrupted,
            &format!("{label} (0xff first)"),
            reused,
            tally,
        );
    }
    let mut longer = bytes.to_vec();
    longer.push(0);
    compare(
        ctx,
        ty,
        &longer,
        &format!("{label} (+1 byte)"),
        reused,
        tally,
    );
    decoded
}

/// One event record per event of the runtime whose arguments the example
/// generator can fill, encoded as `System.Events` (a one-record vector).
fn built_event_records(
    l: &common::Loaded,
    ctx: &Context<'_>,
    events_ty: TypeIdx,
) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut seed = 11u64;
    for p in &l.imported.runtime.pallets {
        for e in &p.events {
            seed += 1;
            let Some(record) = common::event_record_example(l, p, e, seed) else {
                continue;
            };
            let list = Value::List(vec![record]);
            if let Ok(b) = ferroscale_dynamic::encode_value(ctx, events_ty, &list) {
                out.push((format!("event {}.{}", p.name, e.name), b));
            }
        }
    }
    out
}

/// The SS58 formats every real value is decoded with.
const SS58_FORMATS: [Option<u16>; 2] = [None, Some(42)];

#[test]
fn metadata_items_events_and_extrinsics_agree_with_decode_value() {
    let fixtures = common::portable_fixtures();
    assert!(
        fixtures.len() >= 10,
        "expected the V14+ fixtures, found {fixtures:?}"
    );
    let mut tally = Tally::default();
    let (mut items, mut events, mut extrinsics) = (0usize, 0usize, 0usize);
    for name in &fixtures {
        let mut l = common::load(name);
        let xt = l.extrinsic_node();
        let events_ty = l
            .items
            .iter()
            .find(|i| i.what == "System.Events (storage default)")
            .map(|i| i.ty);
        let plain = Context::new(&l.graph).with_runtime(&l.imported.runtime);
        let built_events = events_ty
            .map(|ty| built_event_records(&l, &plain, ty))
            .unwrap_or_default();
        let mut built_calls = Vec::new();
        let mut seed = 3u64;
        for p in &l.imported.runtime.pallets {
            for c in &p.calls {
                seed += 1;
                if let Some(b) = common::signed_extrinsic(&l, &plain, xt, p, c, seed) {
                    built_calls.push((format!("extrinsic {}.{}", p.name, c.name), b));
                }
            }
        }
        for ss58 in SS58_FORMATS {
            let ctx = plain.with_ss58(ss58);
            let mut reused = Document::new();
            for item in &l.items {
                let label = format!("{name} {} ss58 {ss58:?}", item.what);
                if !compare_with_broken(&ctx, item.ty, &item.bytes, &label, &mut reused, &mut tally)
                {
                    tally.fail(&label, "the real value does not decode".into());
                }
            }
            if let Some(ty) = events_ty {
                for (what, bytes) in &built_events {
                    let label = format!("{name} {what} ss58 {ss58:?}");
                    if !compare_with_broken(&ctx, ty, bytes, &label, &mut reused, &mut tally) {
                        tally.fail(&label, "the encoded record does not decode".into());
                    }
                }
            }
            for (what, bytes) in &built_calls {
                let label = format!("{name} {what} ss58 {ss58:?}");
                if !compare_with_broken(&ctx, xt, bytes, &label, &mut reused, &mut tally) {
                    tally.fail(&label, "the encoded extrinsic does not decode".into());
                }
            }
        }
        eprintln!(
            "{name}: {} items, {} built event records, {} built signed extrinsics",
            l.items.len(),
            built_events.len(),
            built_calls.len()
        );
        items += l.items.len();
        events += built_events.len();
        extrinsics += built_calls.len();
    }
    eprintln!("{items} items, {events} event records, {extrinsics} extrinsics, each with ss58 {SS58_FORMATS:?}, each also cut, extended and corrupted");
    tally.report("metadata items, event records and extrinsics");
    assert!(items > 5000, "suspiciously few items: {items}");
    assert!(events > 1000, "suspiciously few event records: {events}");
    assert!(
        extrinsics > 1000,
        "suspiciously few extrinsics: {extrinsics}"
    );
    // The inputs compared include real successes and real failures.
    assert!(
        tally.values > 2 * items,
        "only {} values decoded",
        tally.values
    );
    assert!(
        tally.errors > 2 * items,
        "only {} errors compared",
        tally.errors
    );
}

#[test]
fn polkadot_block_10000000_extrinsics_and_accounts_agree_with_decode_value() {
    let mut l = common::load("metadata/polkadot-v14-spec9180.scale");
    let xt = l.extrinsic_node();
    let account_ty = l.storage_type("System.Account");
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/extrinsics.json",
    ))
    .expect("json");
    let accounts: Vec<(String, String)> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    ))
    .expect("json");
    assert!(!list.is_empty() && !accounts.is_empty());
    let mut tally = Tally::default();
    for ss58 in [None, Some(0), Some(42)] {
        let ctx = Context::new(&l.graph)
            .with_runtime(&l.imported.runtime)
            .with_ss58(ss58);
        let mut reused = Document::new();
        for (i, h) in list.iter().enumerate() {
            let bytes = ferroscale_fixtures::decode_hex(h).expect("hex");
            let label = format!("block extrinsic {i} ss58 {ss58:?}");
            if !compare_with_broken(&ctx, xt, &bytes, &label, &mut reused, &mut tally) {
                tally.fail(&label, "the block's extrinsic does not decode".into());
            }
        }
        for (key, h) in &accounts {
            let bytes = ferroscale_fixtures::decode_hex(h).expect("hex");
            let label = format!("System.Account {key} ss58 {ss58:?}");
            if !compare_with_broken(&ctx, account_ty, &bytes, &label, &mut reused, &mut tally) {
                tally.fail(&label, "the stored account does not decode".into());
            }
        }
    }
    // Spot check on the real data: the document reads the first extrinsic's call.
    let ctx = Context::new(&l.graph).with_runtime(&l.imported.runtime);
    let first = ferroscale_fixtures::decode_hex(&list[0]).expect("hex");
    let doc = Document::decode(&ctx, xt, &first).expect("decodes");
    let call = doc.root().get("call").expect("call");
    assert_eq!(
        call.get("call_module").and_then(ValueRef::as_str),
        Some("Timestamp")
    );
    eprintln!(
        "block 10000000: {} extrinsics and {} System.Account values, with ss58 None/0/42",
        list.len(),
        accounts.len()
    );
    tally.report("block 10000000");
}

#[test]
fn subtensor_payloads_agree_with_decode_value() {
    let reg = common::subtensor::registry();
    let mut registry = common::subtensor::payload_registry(&reg);
    let payloads = common::subtensor::payloads(&reg);
    let types: Vec<TypeIdx> = payloads
        .iter()
        .map(|p| registry.resolve(&p.type_string).expect("resolves"))
        .collect();
    let mut tally = Tally::default();
    for ss58 in SS58_FORMATS {
        let ctx = registry.context().with_ss58(ss58);
        let mut reused = Document::new();
        for (p, &ty) in payloads.iter().zip(&types) {
            let bytes = ferroscale_fixtures::read_hex(p.file);
            let label = format!("{} as {} ss58 {ss58:?}", p.file, p.type_string);
            if !compare_with_broken(&ctx, ty, &bytes, &label, &mut reused, &mut tally) {
                tally.fail(&label, "the payload does not decode".into());
            }
            let doc = Document::decode(&ctx, ty, &bytes).expect("payload decodes");
            assert_eq!(doc.root().len(), p.items, "{label}: items");
        }
    }
    tally.report("subtensor payloads");
}

#[test]
fn decode_into_reuses_one_document_across_values_and_errors() {
    let l = common::load("metadata/polkadot-v15-spec1001002.scale");
    let ctx = Context::new(&l.graph)
        .with_runtime(&l.imported.runtime)
        .with_ss58(Some(0));
    // The largest values first, then small ones: the buffers shrink in use
    // but never in capacity, so stale content would show.
    let mut order: Vec<&common::Item> = l.items.iter().collect();
    order.sort_by_key(|i| std::cmp::Reverse(i.bytes.len()));
    let mut doc = Document::new();
    assert!(doc.root().is_null(), "a new document reads as None");
    assert_eq!(doc.to_value(), Value::Null);
    let (mut decoded, mut failed) = (0, 0);
    for (n, item) in order.iter().enumerate() {
        let fresh = decode_value(&ctx, item.ty, &item.bytes).expect("metadata item decodes");
        doc.decode_into(&ctx, item.ty, &item.bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", item.what));
        assert_eq!(
            doc.to_value(),
            fresh,
            "{} after {n} other values",
            item.what
        );
        decoded += 1;
        // Every third item is followed by a truncated input: an error leaves
        // the document empty, and the next decode is whole again.
        if n % 3 == 0 && !item.bytes.is_empty() {
            let cut = &item.bytes[..item.bytes.len() - 1];
            let expected = decode_value(&ctx, item.ty, cut);
            let got = doc.decode_into(&ctx, item.ty, cut);
            match expected {
                Err(e) => {
                    assert_eq!(got, Err(e), "{} cut", item.what);
                    assert!(
                        doc.root().is_null(),
                        "{} cut: root {:?}",
                        item.what,
                        doc.root()
                    );
                    assert_eq!(doc.root().len(), 0);
                    assert!(doc.root().items().is_none() && doc.root().entries().is_none());
                    failed += 1;
                }
                // Some types read a shorter input too (a Vec<u8> can hold anything).
                Ok(v) => assert_eq!(got.map(|()| doc.to_value()), Ok(v), "{} cut", item.what),
            }
        }
    }
    eprintln!("decode_into: {decoded} values and {failed} errors into one document");
    assert!(
        decoded > 300 && failed > 100,
        "{decoded} decoded, {failed} failed"
    );
}

/// A graph of the wide integer types, and the nodes of each.
struct Wide {
    graph: TypeGraph,
    u64_: TypeIdx,
    u128_: TypeIdx,
    i128_: TypeIdx,
    u256: TypeIdx,
    i256: TypeIdx,
    compact_u128: TypeIdx,
    compact_u256: TypeIdx,
    seq_u128: TypeIdx,
    pair: TypeIdx,
}

impl Wide {
    fn new() -> Self {
        let mut graph = TypeGraph::new();
        let mut prim = |p| graph.add(Node::Prim(p), None);
        let (u64_, u128_, i128_, u256, i256) = (
            prim(Prim::U64),
            prim(Prim::U128),
            prim(Prim::I128),
            prim(Prim::U256),
            prim(Prim::I256),
        );
        let compact_u128 = graph.add(Node::Compact(u128_), None);
        let compact_u256 = graph.add(Node::Compact(u256), None);
        let seq_u128 = graph.add(Node::Seq(u128_), None);
        let pair = graph.add(Node::Tuple(vec![u256, i256, i128_]), None);
        Wide {
            graph,
            u64_,
            u128_,
            i128_,
            u256,
            i256,
            compact_u128,
            compact_u256,
            seq_u128,
            pair,
        }
    }
}

/// 32 little-endian bytes of `low` extended with `high`.
fn le256(low: u128, high: u128) -> [u8; 32] {
    let mut le = [0u8; 32];
    le[..16].copy_from_slice(&low.to_le_bytes());
    le[16..].copy_from_slice(&high.to_le_bytes());
    le
}

/// Decodes `bytes` as `ty` both ways, checks they agree (accessors too) and
/// returns the document's root value.
fn wide_value(w: &Wide, ty: TypeIdx, bytes: &[u8]) -> Value {
    let ctx = Context::new(&w.graph);
    let v = decode_value(&ctx, ty, bytes).unwrap_or_else(|e| panic!("{bytes:02x?}: {e}"));
    let doc = Document::decode(&ctx, ty, bytes).expect("document decodes");
    assert_eq!(doc.to_value(), v, "{bytes:02x?}");
    check_ref(doc.root(), &v, "root", &mut 0).unwrap_or_else(|e| panic!("{bytes:02x?}: {e}"));
    v
}

#[test]
fn wide_integers_keep_their_numbers() {
    let w = Wide::new();
    let ctx = Context::new(&w.graph);
    let read = |ty: TypeIdx, bytes: &[u8]| -> (Option<u128>, Option<i128>, Value) {
        let v = wide_value(&w, ty, bytes);
        let doc = Document::decode(&ctx, ty, bytes).expect("decodes");
        (doc.root().as_u128(), doc.root().as_i128(), v)
    };

    // Around the 64-bit boundary and up to u128::MAX.
    for n in [
        0,
        u128::from(u64::MAX),
        u128::from(u64::MAX) + 1,
        1 << 100,
        u128::MAX,
    ] {
        let (u, i, v) = read(w.u128_, &n.to_le_bytes());
        assert_eq!(
            (u, i, v),
            (Some(n), i128::try_from(n).ok(), Value::UInt(n)),
            "u128 {n}"
        );
        // The same number as a compact.
        let mut compact = vec![(12 << 2) | 3];
        compact.extend_from_slice(&n.to_le_bytes());
        if n > u128::from(u32::MAX) {
            let (u, _, v) = read(w.compact_u128, &compact);
            assert_eq!((u, v), (Some(n), Value::UInt(n)), "Compact<u128> {n}");
        }
    }
    let (u, i, _) = read(w.u64_, &u64::MAX.to_le_bytes());
    assert_eq!(
        (u, i),
        (Some(u128::from(u64::MAX)), Some(i128::from(u64::MAX)))
    );

    // Negative and beyond 64 bits.
    for n in [
        -1,
        i128::from(i64::MIN),
        i128::from(i64::MIN) - 1,
        i128::from(i64::MAX) + 1,
        -(1 << 100),
        i128::MIN,
        i128::MAX,
    ] {
        let (u, i, v) = read(w.i128_, &n.to_le_bytes());
        assert_eq!(
            (u, i, v),
            (u128::try_from(n).ok(), Some(n), Value::Int(n)),
            "i128 {n}"
        );
    }

    // U256: numbers that fit 128 bits become ordinary integers, larger ones stay U256.
    let (u, _, v) = read(w.u256, &le256(u128::MAX, 0));
    assert_eq!((u, v), (Some(u128::MAX), Value::UInt(u128::MAX)));
    let two_to_128 = le256(0, 1);
    let (u, i, v) = read(w.u256, &two_to_128);
    assert_eq!((u, i), (None, None), "2^128 fits neither u128 nor i128");
    assert_eq!(v, Value::U256(Box::new(two_to_128)));
    assert_eq!(v.to_string(), "340282366920938463463374607431768211456");
    let max = [0xffu8; 32];
    let (u, _, v) = read(w.u256, &max);
    assert_eq!((u, v.clone()), (None, Value::U256(Box::new(max))));
    assert_eq!(
        v.to_string(),
        "115792089237316195423570985008687907853269984665640564039457584007913129639935"
    );

    // I256: -1 and i128::MIN fit i128; -2^128 - 1 and the minimum do not.
    let (u, i, v) = read(w.i256, &[0xff; 32]);
    assert_eq!((u, i, v), (None, Some(-1), Value::Int(-1)));
    let (_, i, v) = read(w.i256, &le256(i128::MIN as u128, u128::MAX));
    assert_eq!((i, v), (Some(i128::MIN), Value::Int(i128::MIN)));
    let below = le256(u128::MAX, u128::MAX - 1); // -2^128 - 1
    let (u, i, v) = read(w.i256, &below);
    assert_eq!((u, i), (None, None));
    assert_eq!(v, Value::I256(Box::new(below)));
    assert_eq!(v.to_string(), "-340282366920938463463374607431768211457");
    let min = le256(0, 1 << 127);
    let (_, i, v) = read(w.i256, &min);
    assert_eq!((i, v.clone()), (None, Value::I256(Box::new(min))));
    assert!(v.to_string().starts_with(
        "-5789604461865809771178549250434395392663499233282028201972879200395656481996"
    ));

    // Compact<U256> of 32 bytes.
    let mut compact = vec![(28 << 2) | 3];
    compact.extend_from_slice(&two_to_128);
    let (u, _, v) = read(w.compact_u256, &compact);
    assert_eq!((u, v), (None, Value::U256(Box::new(two_to_128))));

    // Inside containers: a Vec<u128> and a (U256, I256, i128).
    let ns = [u128::MAX, 7, u128::from(u64::MAX) + 1];
    let mut bytes = vec![(ns.len() as u8) << 2];
    for n in ns {
        bytes.extend_from_slice(&n.to_le_bytes());
    }
    let v = wide_value(&w, w.seq_u128, &bytes);
    assert_eq!(v, Value::List(ns.iter().map(|&n| Value::UInt(n)).collect()));
    let doc = Document::decode(&ctx, w.seq_u128, &bytes).expect("decodes");
    let read_back: Vec<Option<u128>> = doc
        .root()
        .items()
        .expect("list")
        .map(ValueRef::as_u128)
        .collect();
    assert_eq!(read_back, ns.map(Some));

    let mut bytes = two_to_128.to_vec();
    bytes.extend_from_slice(&below);
    bytes.extend_from_slice(&(-5i128).to_le_bytes());
    let v = wide_value(&w, w.pair, &bytes);
    assert_eq!(
        v,
        Value::Tuple(vec![
            Value::U256(Box::new(two_to_128)),
            Value::I256(Box::new(below)),
            Value::Int(-5)
        ])
    );
    let doc = Document::decode(&ctx, w.pair, &bytes).expect("decodes");
    assert_eq!(doc.root().item(2).and_then(ValueRef::as_i128), Some(-5));
    assert_eq!(doc.root().item(0).map(ValueRef::kind), Some(Kind::Int));

    // Cut short: the same error both ways, and the document stays empty.
    let cut = &bytes[..40];
    let e: Error = decode_value(&ctx, w.pair, cut).expect_err("too short");
    assert_eq!(
        Document::decode(&ctx, w.pair, cut).map(|d| d.to_value()),
        Err(e)
    );
}

/// Values of generated (here: std) Rust types, through a decode hook that
/// runs their derived `Decode` and `ToValue` (what the typed fallback does).
mod typed {
    use super::*;
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicU64, Ordering};

    use ferroscale_dynamic::hook::DecodeHook;
    use ferroscale_value::typed::{decode_to_value, TypedDecoder};
    use parity_scale_codec::Encode;
    use scale_info::{meta_type, PortableRegistry};

    /// Decodes the four types through their Rust types, counting each use.
    #[derive(Debug)]
    struct RustTypes {
        decoders: HashMap<TypeIdx, TypedDecoder>,
        hits: AtomicU64,
    }

    impl RustTypes {
        fn hits(&self) -> u64 {
            self.hits.load(Ordering::Relaxed)
        }
    }

    impl DecodeHook for RustTypes {
        fn decode(
            &self,
            ty: TypeIdx,
            depth_room: u32,
            _ss58_format: Option<u16>,
            input: &mut &[u8],
        ) -> Option<Value> {
            let decode = self.decoders.get(&ty)?;
            let v = decode(depth_room, input).ok()?;
            self.hits.fetch_add(1, Ordering::Relaxed);
            Some(v)
        }

        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    type Pairs = Vec<(u32, Option<u128>)>;
    type Outcome = Result<Vec<i128>, (bool, String)>;
    type Nested = Vec<Option<Result<u64, (String, [u16; 3])>>>;
    type Table = Vec<(String, Vec<(bool, i64)>)>;

    /// A registry of the four types, imported into a graph, with a hook
    /// that decodes them through their Rust types.
    struct Setup {
        graph: TypeGraph,
        fallback: RustTypes,
        ids: [TypeIdx; 4],
    }

    fn setup() -> Setup {
        let mut registry = scale_info::Registry::new();
        let ids = [
            registry.register_type(&meta_type::<Pairs>()).id,
            registry.register_type(&meta_type::<Outcome>()).id,
            registry.register_type(&meta_type::<Nested>()).id,
            registry.register_type(&meta_type::<Table>()).id,
        ];
        let portable = PortableRegistry::from(registry);
        let decoders: [TypedDecoder; 4] = [
            decode_to_value::<Pairs>,
            decode_to_value::<Outcome>,
            decode_to_value::<Nested>,
            decode_to_value::<Table>,
        ];
        let mut graph = TypeGraph::new();
        let types =
            ferroscale_dynamic::portable::import_registry(&mut graph, &portable, "scale_info")
                .expect("import");
        let idx = |id: u32| types.idx(id).expect("id in range");
        let ids = ids.map(idx);
        let fallback = RustTypes {
            decoders: ids.iter().copied().zip(decoders).collect(),
            hits: AtomicU64::new(0),
        };
        Setup {
            fallback,
            ids,
            graph,
        }
    }

    /// A deterministic stream of numbers (the shared test xorshift).
    struct Numbers(ferroscale_test_support::Xorshift);
    impl Numbers {
        fn next(&mut self) -> u64 {
            self.0.next_u64()
        }
        fn wide(&mut self) -> u128 {
            (u128::from(self.next()) << 64) | u128::from(self.next())
        }
        fn text(&mut self) -> String {
            let n = self.next();
            match n % 3 {
                0 => String::new(),
                1 => format!("name {n}"),
                _ => "ünïcode ✓".repeat((n % 4) as usize),
            }
        }
    }

    /// Encoded values of the four types, one of each per round.
    fn inputs(rounds: usize) -> Vec<(usize, Vec<u8>)> {
        let mut r = Numbers(ferroscale_test_support::Xorshift::new(
            0x9e37_79b9_7f4a_7c15,
        ));
        let mut out = Vec::new();
        for round in 0..rounds {
            let len = round % 6;
            let pairs: Pairs = (0..len)
                .map(|_| {
                    let n = r.wide();
                    (r.next() as u32, (!n.is_multiple_of(3)).then_some(n))
                })
                .collect();
            out.push((0, pairs.encode()));
            let outcome: Outcome = if round % 2 == 0 {
                Ok((0..len).map(|_| r.wide() as i128).collect())
            } else {
                Err((round % 4 == 1, r.text()))
            };
            out.push((1, outcome.encode()));
            let nested: Nested = (0..len)
                .map(|k| match k % 3 {
                    0 => None,
                    1 => Some(Ok(r.next())),
                    _ => Some(Err((r.text(), [r.next() as u16, 0, u16::MAX]))),
                })
                .collect();
            out.push((2, nested.encode()));
            let table: Table = (0..len)
                .map(|_| {
                    let rows = (0..(r.next() % 4))
                        .map(|_| (r.next().is_multiple_of(2), r.next() as i64))
                        .collect();
                    (r.text(), rows)
                })
                .collect();
            out.push((3, table.encode()));
        }
        out
    }

    #[test]
    fn typed_fallback_values_land_in_the_document_unchanged() {
        let s = setup();
        let typed = Context::new(&s.graph).with_hook(Some(&s.fallback));
        let dynamic = Context::new(&s.graph);
        let mut tally = Tally::default();
        let mut reused = Document::new();
        let inputs = inputs(120);
        for (i, (which, bytes)) in inputs.iter().enumerate() {
            let ty = s.ids[*which];
            let label = format!("input {i} (type {which})");
            let before = s.fallback.hits();
            if !compare_with_broken(&typed, ty, bytes, &label, &mut reused, &mut tally) {
                tally.fail(&label, "the encoded value does not decode".into());
            }
            // The typed decoder ran (three times: decode_value, the fresh
            // and the reused document).
            assert!(
                s.fallback.hits() >= before + 3,
                "{label}: typed path not taken"
            );
            // And it gives the dynamic decoder's value.
            let expected = decode_value(&dynamic, ty, bytes).expect("dynamic decode");
            let doc = Document::decode(&typed, ty, bytes).expect("typed document");
            assert_eq!(doc.to_value(), expected, "{label}: typed vs dynamic");
        }
        eprintln!(
            "typed fallback: {} inputs, {} typed decodes",
            inputs.len(),
            s.fallback.hits()
        );
        tally.report("typed fallback");
    }
}

/// The node kinds real V14+ metadata rarely or never holds (preset sets,
/// bit sequences of every store, maps, eras, identity data, votes,
/// accounts, chars, bytes), each fed every 1- and 2-byte input and a few
/// hundred longer random ones, valid or not: the document agrees with
/// `decode_value` on every one.
#[test]
fn every_node_kind_agrees_on_arbitrary_bytes() {
    use ferroscale_dynamic::{BitStore, Field, Fields, Special, Variant};
    let mut g = TypeGraph::new();
    let mut add = |n: Node| g.add(n, None);
    let u8_ = add(Node::Prim(Prim::U8));
    let u32_ = add(Node::Prim(Prim::U32));
    let boolean = add(Node::Prim(Prim::Bool));
    let bytes = add(Node::Bytes);
    let compact = add(Node::Compact(u32_));
    let acc = add(Node::Special(Special::AccountId));
    let ma_enum = add(Node::Enum(vec![
        Variant {
            index: 0,
            name: "Id".into(),
            fields: Fields::Unnamed(vec![acc]),
        },
        Variant {
            index: 1,
            name: "Index".into(),
            fields: Fields::Unnamed(vec![compact]),
        },
        Variant {
            index: 3,
            name: "Named".into(),
            fields: Fields::Named(vec![
                Field {
                    name: "flag".into(),
                    ty: boolean,
                },
                Field {
                    name: "data".into(),
                    ty: bytes,
                },
            ]),
        },
    ]));
    let opt = add(Node::Option(compact));
    let ma_enum_node = g.node(ma_enum).clone();
    let mut nodes = vec![
        ("char", Node::Prim(Prim::Char)),
        ("str", Node::Prim(Prim::Str)),
        ("bytes", Node::Bytes),
        ("[u8; 3]", Node::ByteArray(3)),
        ("[u32; 0]", Node::Array(u32_, 0)),
        ("()", Node::Tuple(vec![])),
        ("Option<bool>", Node::Option(boolean)),
        ("Result<u8, Bytes>", Node::Result(u8_, bytes)),
        (
            "set",
            Node::Set {
                byte_len: 2,
                flags: vec![
                    ("A".into(), 1),
                    ("B".into(), 2),
                    ("C".into(), 0x100),
                    ("D".into(), 0x8000),
                ],
            },
        ),
        ("map", Node::Map(u8_, bytes)),
        ("Vec<Option<Compact<u32>>>", Node::Seq(opt)),
        ("Era", Node::Special(Special::Era)),
        ("IdentityData", Node::Special(Special::IdentityData)),
        ("Vote", Node::Special(Special::Vote)),
        ("HexBytes", Node::Special(Special::HexBytes)),
        ("AccountId", Node::Special(Special::AccountId)),
        (
            "EthereumAccountId",
            Node::Special(Special::EthereumAccountId),
        ),
        ("AccountIndex", Node::Special(Special::AccountIndex)),
        (
            "MultiAddress",
            Node::Special(Special::MultiAddress(ma_enum)),
        ),
        ("enum Id | Index | Named {flag, data}", ma_enum_node),
        (
            "WrapperKeepOpaque<u32>",
            Node::Special(Special::WrapperKeepOpaque(u32_)),
        ),
    ];
    for store in [BitStore::U8, BitStore::U16, BitStore::U32, BitStore::U64] {
        nodes.push(("BitVec", Node::BitSeq { store, lsb0: true }));
    }
    let kinds: Vec<(&str, TypeIdx)> = nodes
        .into_iter()
        .map(|(n, node)| (n, g.add(node, None)))
        .collect();

    let mut inputs: Vec<Vec<u8>> = vec![vec![]];
    inputs.extend((0..=255u8).map(|b| vec![b]));
    inputs.extend((0..=0xffffu16).step_by(7).map(|w| w.to_le_bytes().to_vec()));
    // Zeros and letters of every length up to 40 (fixed-size kinds: chars,
    // accounts, byte arrays).
    for len in 3..=40 {
        inputs.push(vec![0; len]);
        let mut letters = vec![b'A'; len];
        letters[0] = (len as u8 - 1) << 2;
        inputs.push(letters);
    }
    let mut rng = ferroscale_test_support::Xorshift::new(0x2545_f491_4f6c_dd1d);
    for len in 3..300 {
        let x = rng.next_u64();
        let mut input: Vec<u8> = (0..len % 70)
            .map(|i| (x >> (i % 8 * 8)) as u8 ^ i as u8)
            .collect();
        // Small length prefixes, so sequences and texts get filled.
        if let Some(first) = input.first_mut() {
            *first &= 0x1f;
        }
        inputs.push(input);
    }
    let mut tally = Tally::default();
    for ss58 in SS58_FORMATS {
        let ctx = Context::new(&g).with_ss58(ss58);
        let mut reused = Document::new();
        for (name, ty) in &kinds {
            let before = tally.values;
            for input in &inputs {
                let label = format!("{name} {input:02x?} ss58 {ss58:?}");
                compare(&ctx, *ty, input, &label, &mut reused, &mut tally);
            }
            assert!(tally.values > before, "{name}: no input decoded");
        }
    }
    eprintln!("{} node kinds, {} inputs each", kinds.len(), inputs.len());
    tally.report("node kinds on arbitrary bytes");
}

/// Legacy (V9–V13) metadata: every constant and storage default, decoded
/// by the type string the metadata names with its chain's presets, and
/// every extrinsic and Staking.Validators value of Polkadot block
/// 5,000,000 (V12 metadata, legacy events and calls).
#[test]
fn legacy_metadata_items_and_block_5000000_agree_with_decode_value() {
    use ferroscale_dynamic::registry::Registry;
    use ferroscale_metadata::{Metadata, StorageModifier};
    let mut tally = Tally::default();
    let (mut items, mut unresolved) = (0usize, 0usize);
    for entry in ferroscale_fixtures::entries_under("metadata") {
        let raw = ferroscale_fixtures::read(entry.name);
        let md = Metadata::load(&raw).expect("metadata loads");
        if md.version >= 14 {
            continue;
        }
        let file = entry.name.rsplit('/').next().unwrap_or(entry.name);
        let mut presets = vec!["core", "legacy"];
        presets.extend(
            [
                ("kusama", "kusama"),
                ("polkadot", "polkadot"),
                ("node-template", "substrate-node-template"),
            ]
            .iter()
            .find(|(prefix, _)| file.starts_with(prefix))
            .map(|(_, preset)| *preset),
        );
        let mut registry = Registry::with_presets(&presets).expect("presets");
        if let Some(spec) = md.spec_version() {
            registry.set_active_spec_version_id(u64::from(spec));
        }
        let mut resolved = Vec::new();
        for p in &md.pallets {
            let constants = p
                .constants
                .iter()
                .map(|c| (format!("{}.{} (constant)", p.name, c.name), &c.ty, &c.value));
            let defaults = p
                .storage_entries()
                .iter()
                .filter(|e| e.modifier == StorageModifier::Default)
                .map(|e| {
                    (
                        format!("{}.{} (storage default)", p.name, e.name),
                        &e.value,
                        &e.default,
                    )
                })
                .collect::<Vec<_>>();
            for (what, ty, bytes) in constants.chain(defaults) {
                let Some(ty_string) = ty.name() else { continue };
                items += 1;
                match registry.resolve(ty_string) {
                    Ok(idx) => {
                        resolved.push((format!("{file} {what} as {ty_string}"), idx, bytes.clone()))
                    }
                    Err(_) => unresolved += 1,
                }
            }
        }
        for ss58 in SS58_FORMATS {
            let ctx = registry.context().with_ss58(ss58);
            let mut reused = Document::new();
            for (label, ty, bytes) in &resolved {
                compare_with_broken(
                    &ctx,
                    *ty,
                    bytes,
                    &format!("{label} ss58 {ss58:?}"),
                    &mut reused,
                    &mut tally,
                );
            }
        }
    }
    eprintln!(
        "legacy metadata: {items} items, {unresolved} type strings the presets do not resolve"
    );
    assert!(
        items > 2000 && tally.values > 2 * (items - unresolved),
        "{items} items, {} values",
        tally.values
    );

    // Block 5,000,000 with its runtime (V12, spec 30).
    let mut registry = Registry::with_presets(&["core", "legacy", "polkadot"]).expect("presets");
    registry.set_active_spec_version_id(30);
    registry
        .load_metadata(&ferroscale_fixtures::read(
            "metadata/polkadot-v12-spec30.scale",
        ))
        .expect("metadata");
    let md = Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v12-spec30.scale",
    ))
    .expect("loads");
    let validators_ty = md
        .pallet("Staking")
        .and_then(|p| p.storage_entry("Validators"))
        .and_then(|e| e.value.name())
        .expect("Staking.Validators type string")
        .to_string();
    let xt = registry.resolve("Extrinsic").expect("Extrinsic");
    let validators = registry.resolve(&validators_ty).expect("validators type");
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-5000000/extrinsics.json",
    ))
    .expect("json");
    let stored: Vec<(String, String)> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-5000000/storage_staking_validators.json",
    ))
    .expect("json");
    // An event record for every event of the runtime whose arguments the
    // example generator can fill, put together byte by byte: phase
    // ApplyExtrinsic(n), the pallet and event index, the encoded arguments,
    // no topics.
    let records_ty = registry
        .resolve("Vec<EventRecord<Event, Hash>>")
        .expect("event records");
    let mut records = Vec::new();
    {
        let ctx = registry.context();
        let rt = registry.runtime().expect("runtime");
        let mut seed = 5u64;
        for p in &rt.pallets {
            for e in &p.events {
                seed += 1;
                let mut bytes = vec![4, 0];
                bytes.extend_from_slice(&(seed as u32 % 50).to_le_bytes());
                bytes.extend_from_slice(&[p.index, e.index]);
                let args: Option<Vec<Vec<u8>>> = e
                    .args
                    .iter()
                    .map(|a| {
                        let v = common::example(registry.graph(), a.ty, seed, 0)?;
                        ferroscale_dynamic::encode_value(&ctx, a.ty, &v).ok()
                    })
                    .collect();
                let Some(args) = args else { continue };
                bytes.extend(args.concat());
                bytes.push(0);
                records.push(bytes);
            }
        }
    }
    let before = tally.values;
    for ss58 in [None, Some(0)] {
        let ctx = registry.context().with_ss58(ss58);
        let mut reused = Document::new();
        let inputs = records
            .iter()
            .map(|b| (records_ty, "event record", b))
            .collect::<Vec<_>>();
        for (i, (ty, what, bytes)) in inputs.into_iter().enumerate() {
            let label = format!("block 5000000 runtime {what} {i} ss58 {ss58:?}");
            if !compare_with_broken(&ctx, ty, bytes, &label, &mut reused, &mut tally) {
                tally.fail(&label, "the built record does not decode".into());
            }
        }
        let inputs = list.iter().map(|h| (xt, "extrinsic", h)).chain(
            stored
                .iter()
                .map(|(_, h)| (validators, "validator prefs", h)),
        );
        for (i, (ty, what, h)) in inputs.enumerate() {
            let bytes = ferroscale_fixtures::decode_hex(h).expect("hex");
            let label = format!("block 5000000 {what} {i} ss58 {ss58:?}");
            if !compare_with_broken(&ctx, ty, &bytes, &label, &mut reused, &mut tally) {
                tally.fail(&label, "the block's value does not decode".into());
            }
        }
    }
    eprintln!(
        "block 5000000: {} extrinsics, {} Staking.Validators values and {} built event records ({} values compared)",
        list.len(),
        stored.len(),
        records.len(),
        tally.values - before
    );
    assert!(
        records.len() > 50,
        "only {} event records built",
        records.len()
    );
    tally.report("legacy metadata and block 5000000");
}

/// The comparison itself notices differences: a changed leaf, a dropped
/// item, a renamed key, a number one off, a list where a tuple was.
#[test]
fn the_checks_notice_differences() {
    let l = common::load("metadata/polkadot-v15-spec1001002.scale");
    let ctx = Context::new(&l.graph).with_runtime(&l.imported.runtime);
    let item = l
        .items
        .iter()
        .find(|i| i.what == "System.BlockWeights (constant)")
        .expect("System.BlockWeights");
    let doc = Document::decode(&ctx, item.ty, &item.bytes).expect("decodes");
    let v = decode_value(&ctx, item.ty, &item.bytes).expect("decodes");
    check_ref(doc.root(), &v, "root", &mut 0).expect("the real value agrees");

    /// A change to one node, `None` where it does not apply.
    type Change = dyn Fn(&Value) -> Option<Value>;
    /// Applies `change` to the first node (depth first) it changes.
    fn altered(v: &Value, change: &Change) -> Option<Value> {
        if let Some(changed) = change(v) {
            return Some(changed);
        }
        match v {
            Value::List(items) | Value::Tuple(items) => {
                for (i, item) in items.iter().enumerate() {
                    if let Some(changed) = altered(item, change) {
                        let mut items = items.clone();
                        items[i] = changed;
                        return Some(match v {
                            Value::List(_) => Value::List(items),
                            _ => Value::Tuple(items),
                        });
                    }
                }
                None
            }
            Value::Dict(entries) => {
                for (i, (_, item)) in entries.iter().enumerate() {
                    if let Some(changed) = altered(item, change) {
                        let mut entries = entries.clone();
                        entries[i].1 = changed;
                        return Some(Value::Dict(entries));
                    }
                }
                None
            }
            _ => None,
        }
    }
    let changes: [(&str, &Change); 4] = [
        ("a number one off", &|v| match v {
            Value::UInt(n) => Some(Value::UInt(n + 1)),
            _ => None,
        }),
        ("a renamed key", &|v| match v {
            Value::Dict(entries) => {
                let mut entries = entries.clone();
                entries[0].0 = "renamed".into();
                Some(Value::Dict(entries))
            }
            _ => None,
        }),
        ("a dropped entry", &|v| match v {
            Value::Dict(entries) if entries.len() > 1 => Some(Value::Dict(entries[1..].to_vec())),
            _ => None,
        }),
        ("an integer as text", &|v| match v {
            Value::UInt(n) => Some(Value::str(n.to_string())),
            _ => None,
        }),
    ];
    for (what, change) in changes {
        let wrong = altered(&v, change).unwrap_or_else(|| panic!("{what}: nothing to change"));
        assert!(
            check_ref(doc.root(), &wrong, "root", &mut 0).is_err(),
            "{what} went unnoticed"
        );
    }
}

#[test]
fn calls_counts_the_calls_built_and_a_recycled_document_decodes_the_same() {
    let mut l = common::load("metadata/polkadot-v14-spec9180.scale");
    let xt = l.extrinsic_node();
    let ctx = Context::new(&l.graph).with_runtime(&l.imported.runtime);
    // Unsigned format 4: Utility.batch([Timestamp.set(1), Timestamp.set(1)]).
    let batch = [
        0x28, 0x04, 0x1a, 0x00, 0x08, 0x03, 0x00, 0x04, 0x03, 0x00, 0x04,
    ];
    let mut doc = Document::decode(&ctx, xt, &batch).expect("decodes");
    let call = doc.root().get("call").expect("call");
    assert_eq!(
        call.get("call_module").and_then(ValueRef::as_str),
        Some("Utility")
    );
    assert_eq!(doc.calls(), Some(3), "the batch and the two calls in it");
    // Timestamp.set(1) alone: one call, nothing nested.
    doc.decode_into(&ctx, xt, &[0x10, 0x04, 0x03, 0x00, 0x04])
        .expect("decodes");
    assert_eq!(doc.calls(), Some(1));
    // A value without calls.
    let account_ty = l.storage_type("System.Account");
    let account = ferroscale_fixtures::decode_hex(
        &serde_json::from_str::<Vec<(String, String)>>(&ferroscale_fixtures::read_string(
            "payloads/polkadot-block-10000000/storage_system_account.json",
        ))
        .expect("json")[0]
            .1,
    )
    .expect("hex");
    doc.decode_into(&ctx, account_ty, &account)
        .expect("decodes");
    assert_eq!(doc.calls(), Some(0));

    // Recycled (through another lifetime, as a worker keeps it), the
    // document decodes the same again.
    doc.decode_into(&ctx, xt, &batch).expect("decodes");
    let expected = doc.to_value();
    let recycled: Document<'static> = doc.recycle();
    let mut again: Document<'_> = recycled.recycle();
    again.decode_into(&ctx, xt, &batch).expect("decodes");
    assert_eq!(again.to_value(), expected);
    assert_eq!(again.calls(), Some(3));
}

#[test]
fn a_known_extrinsic_hash_is_taken_for_its_own_bytes_only() {
    let mut l = common::load("metadata/polkadot-v14-spec9180.scale");
    let xt = l.extrinsic_node();
    let ctx = Context::new(&l.graph).with_runtime(&l.imported.runtime);
    let bytes = [0x10, 0x04, 0x03, 0x00, 0x04];
    let hash_of = |doc: &Document<'_>| {
        doc.root()
            .get("extrinsic_hash")
            .and_then(ValueRef::as_str)
            .map(str::to_owned)
    };
    let real = hash_of(&Document::decode(&ctx, xt, &bytes).expect("decodes"));
    let blake2 = ferroscale_core::hashing::blake2_256(&bytes);
    assert_eq!(real, Some(ferroscale_core::hex::encode_prefixed(&blake2)));
    // The caller's hash is taken as given for these very bytes …
    let known = ctx.with_extrinsic_hash(&bytes, [7; 32]);
    let taken = hash_of(&Document::decode(&known, xt, &bytes).expect("decodes"));
    assert_eq!(taken, Some(format!("0x{}", "07".repeat(32))));
    // … and not for equal bytes elsewhere.
    let copy = bytes.to_vec();
    let other = hash_of(&Document::decode(&known, xt, &copy).expect("decodes"));
    assert_eq!(other, real);
}

#[test]
fn decode_prefix_into_reads_one_value_and_leaves_the_rest() {
    let l = common::load("metadata/polkadot-v15-spec1001002.scale");
    let ctx = Context::new(&l.graph)
        .with_runtime(&l.imported.runtime)
        .with_ss58(Some(0));
    let mut doc = Document::new();
    let mut checked = 0;
    for item in l.items.iter().filter(|i| !i.bytes.is_empty()) {
        let fresh = decode_value(&ctx, item.ty, &item.bytes).expect("metadata item decodes");
        // The value, then bytes of something else: it reads the value's own.
        let mut bytes = item.bytes.clone();
        bytes.extend_from_slice(&[7, 7, 7]);
        let used = doc
            .decode_prefix_into(&ctx, item.ty, &bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", item.what));
        assert_eq!(used, item.bytes.len(), "{}", item.what);
        assert_eq!(doc.to_value(), fresh, "{}", item.what);
        // Cut short: the error a whole decode gives, and an empty document.
        let cut = &item.bytes[..item.bytes.len() - 1];
        if let Err(e) = decode_value(&ctx, item.ty, cut) {
            assert_eq!(
                doc.decode_prefix_into(&ctx, item.ty, cut),
                Err(e),
                "{}",
                item.what
            );
            assert!(doc.root().is_null(), "{}", item.what);
        }
        checked += 1;
    }
    assert!(checked > 10, "{checked} items");
}
