//! One block decoded into the rows of every table.
//!
//! Every item decodes through the dynamic layer into a
//! [`Document`] (the flat output, several times faster to build than the
//! `Value` tree and equal to it: `Document::to_value() == decode_value`), and
//! each JSON column is that value (or the part of it the column names)
//! written by [`ValueRef::write_json`] straight into the column's buffer:
//! one value contract for the Rust, Python and columnar outputs. An item
//! that fails to decode becomes a row of the `errors` table naming the block
//! and the item; the rest of the block still decodes.

use ferroscale_dynamic::document::{Items, Kind};
use ferroscale_dynamic::{Document, ValueRef};

use crate::block::Block;
use crate::call_tree::{call_parts, nested_calls};
use crate::columns::TextColumn;
use crate::spec::SpecDecoder;
use crate::store::{BlockRow, Rows};
use crate::typed::direct::BlockReader;
use crate::typed::rows::{Item, Place, TypedRows};

/// Decodes `block` with its runtime's decoder (`None`: no metadata for its
/// spec version, which becomes an error row).
pub fn decode_block<B: AsRef<[u8]>>(block: &Block<B>, spec: Option<&SpecDecoder>) -> Rows {
    let mut rows = Rows::default();
    decode_block_into(block, spec, None, &mut Document::new(), &mut rows);
    rows
}

/// [`decode_block`], with the rows of the typed tables too (`rows.typed`;
/// see [`crate::typed`]).
pub fn decode_block_typed<B: AsRef<[u8]>>(block: &Block<B>, spec: Option<&SpecDecoder>) -> Rows {
    let mut rows = Rows {
        typed: Some(crate::typed::TypedRows::default()),
        ..Rows::default()
    };
    decode_block_into(block, spec, None, &mut Document::new(), &mut rows);
    rows
}

/// The typed tables' rows of `block` alone (`rows.typed`, which must be
/// set, and an `errors` row per event or call that does not fit its
/// table), without the generic tables' rows: what [`decode_block_typed`]
/// gives there, read from the bytes by the runtime's plans
/// (`typed::direct`). An item that does not decode adds nothing
/// here (beside the generic tables, their error row names it), nor does a
/// block without its runtime.
pub(crate) fn decode_block_typed_only_into<'g, B: AsRef<[u8]>>(
    block: &Block<B>,
    spec: Option<&'g SpecDecoder>,
    doc: &mut Document<'g>,
    rows: &mut Rows,
) {
    let (Some(spec), Some(typed)) = (spec, rows.typed.as_mut()) else {
        return;
    };
    let place = Place {
        block_number: block.number,
        block_hash: &block.hash,
        spec_version: block.spec_version,
        catalog: spec.typed_tables(),
    };
    if let Some(events) = &block.events {
        let events = events.as_ref();
        typed_events(typed, &mut rows.errors, spec, &place, events, doc, false);
    }
    for (i, bytes) in block.extrinsics.iter().enumerate() {
        let bytes = bytes.as_ref();
        typed_calls(
            typed,
            &mut rows.errors,
            spec,
            &place,
            i as u32,
            bytes,
            doc,
            false,
        );
    }
}

/// [`decode_block`] appending to `rows` and decoding every item into `doc`,
/// whose buffers are kept from one item and one block to the next: a fresh
/// document per item allocates (and faults in) a few hundred kilobytes for
/// a large extrinsic, every time. `hashes`: the extrinsics' BLAKE2b-256, when
/// the caller hashed them already (see [`ferroscale_dynamic::KnownHash`]).
pub(crate) fn decode_block_into<'g, B: AsRef<[u8]>>(
    block: &Block<B>,
    spec: Option<&'g SpecDecoder>,
    hashes: Option<&[[u8; 32]]>,
    doc: &mut Document<'g>,
    rows: &mut Rows,
) {
    let n = block.number;
    let header = HeaderText::of(block);
    let (slot, author_index) = block
        .header
        .as_ref()
        .and_then(|h| h.slot_and_author())
        .map_or((None, None), |(s, a)| (Some(s), a));
    let mut block_row = BlockRow {
        number: n,
        hash: &block.hash,
        spec_version: block.spec_version,
        extrinsic_count: block.extrinsics.len() as u32,
        event_count: None,
        parent_hash: header.as_ref().map(|h| h.parent_hash.as_str()),
        state_root: header.as_ref().map(|h| h.state_root.as_str()),
        extrinsics_root: header.as_ref().map(|h| h.extrinsics_root.as_str()),
        digest: header.as_ref().map(|h| h.digest.as_str()),
        slot,
        author_index,
        timestamp: None,
        finalized: block.finalized,
    };
    let spec_version = block.spec_version;
    let Some(spec) = spec else {
        // Every item kept with its bytes, to be decoded once the runtime
        // is known.
        let error = format!("no metadata for spec version {spec_version}");
        if let Some(events) = &block.events {
            rows.errors
                .push(n, spec_version, "events", &error, events.as_ref());
        }
        for (i, bytes) in block.extrinsics.iter().enumerate() {
            let item = format!("extrinsic {i}");
            rows.errors
                .push(n, spec_version, &item, &error, bytes.as_ref());
        }
        if block.events.is_none() && block.extrinsics.is_empty() {
            rows.errors.push(n, spec_version, "block", &error, &[]);
        }
        rows.blocks.push(block_row);
        return;
    };
    let ctx = spec.context();
    // Where a typed table's rows of this block come from (`--typed`).
    let place = Place {
        block_number: n,
        block_hash: &block.hash,
        spec_version,
        catalog: spec.typed_tables(),
    };
    // Events first: the extrinsics' success flags come from them.
    let mut outcomes: Vec<Option<bool>> = vec![None; block.extrinsics.len()];
    if let Some(bytes) = &block.events {
        let decoded = match spec.events_type() {
            Some(ty) => doc
                .decode_into(&ctx, ty, bytes.as_ref())
                .map_err(|e| e.to_string()),
            None => Err("the runtime has no System.Events storage item".into()),
        };
        match decoded.and_then(|()| push_events(n, doc.root(), &mut outcomes, rows)) {
            Ok(count) => {
                block_row.event_count = Some(count);
                if let Some(typed) = &mut rows.typed {
                    typed_events(
                        typed,
                        &mut rows.errors,
                        spec,
                        &place,
                        bytes.as_ref(),
                        doc,
                        true,
                    );
                }
            }
            // `event_count` stays NULL: not "no events", which is 0.
            Err(error) => rows
                .errors
                .push(n, spec_version, "events", &error, bytes.as_ref()),
        }
    }
    for (i, bytes) in block.extrinsics.iter().enumerate() {
        let bytes = bytes.as_ref();
        let ctx = match hashes.and_then(|h| h.get(i)) {
            Some(hash) => ctx.with_extrinsic_hash(bytes, *hash),
            None => ctx,
        };
        let pushed = doc
            .decode_into(&ctx, spec.extrinsic_type(), bytes)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                // One call built: the extrinsic's own, nothing nested in it.
                let nested = doc.calls() != Some(1);
                push_extrinsic(n, i as u32, doc.root(), nested, outcomes[i], rows)
            });
        if let (Ok(_), Some(typed)) = (&pushed, &mut rows.typed) {
            typed_calls(
                typed,
                &mut rows.errors,
                spec,
                &place,
                i as u32,
                bytes,
                doc,
                true,
            );
        }
        match pushed {
            Ok(Some(now)) => block_row.timestamp = Some(now),
            Ok(None) => {}
            Err(error) => {
                let item = format!("extrinsic {i}");
                rows.errors.push(n, spec_version, &item, &error, bytes);
            }
        }
    }
    rows.blocks.push(block_row);
}

/// Appends the typed rows of a block's `System.Events` value `events`:
/// read from its bytes by the runtime's plans (`typed::direct`),
/// or from its value decoded into `doc` (the value already there when
/// `decoded`, else decoded now) for a runtime the plans do not read. An
/// event that does not fit its table is an `errors` row with its record's
/// bytes. `doc` is the plans' scratch document.
#[allow(clippy::too_many_arguments)]
fn typed_events<'g>(
    typed: &mut TypedRows,
    errors: &mut crate::store::ErrorRows,
    spec: &'g SpecDecoder,
    place: &Place<'_>,
    events: &[u8],
    doc: &mut Document<'g>,
    decoded: bool,
) {
    let (n, spec_version) = (place.block_number, place.spec_version);
    let mut misfits = 0;
    let mut report = |item: &Item, error: &str| {
        misfits += 1;
        // The event record's own bytes (all of `System.Events`
        // where they cannot be told apart).
        let bytes = match *item {
            Item::Event(i) => event_record_bytes(spec, events, i),
            Item::Call { .. } => None,
        };
        let bytes = bytes.unwrap_or(events);
        errors.push(n, spec_version, &item.to_string(), error, bytes)
    };
    let read = spec.direct_plan().reads_events()
        && BlockReader::new(spec.direct_plan(), spec.context(), doc)
            .is_some_and(|mut r| r.push_events(typed, place, events, &mut report));
    if !read {
        // The old path, from the value: decoded into `doc` (the generic
        // rows' decode, when this runs beside them, left it there; it is
        // decoded again only in typed-only runs, where nothing else did).
        if !decoded {
            let Some(ty) = spec.events_type() else {
                return;
            };
            if doc.decode_into(&spec.context(), ty, events).is_err() {
                return;
            }
            // Only where the generic `events` table takes the value (as
            // beside it): its rows made and dropped.
            let mut outcomes = Vec::new();
            if push_events(n, doc.root(), &mut outcomes, &mut Rows::default()).is_err() {
                return;
            }
        }
        typed.push_events(place, doc.root(), &mut report);
    }
    typed.misfits += misfits;
}

/// Appends the typed rows of extrinsic `index`'s call and the calls nested
/// in it, as [`typed_events`] does for events: from the bytes by the plans,
/// or from the extrinsic's value in `doc` (there already when `decoded`).
#[allow(clippy::too_many_arguments)]
fn typed_calls<'g>(
    typed: &mut TypedRows,
    errors: &mut crate::store::ErrorRows,
    spec: &'g SpecDecoder,
    place: &Place<'_>,
    index: u32,
    bytes: &[u8],
    doc: &mut Document<'g>,
    decoded: bool,
) {
    let (n, spec_version) = (place.block_number, place.spec_version);
    let mut misfits = 0;
    // A call's row carries its extrinsic's bytes (a nested call's own
    // bytes are not kept apart by the decoder).
    let mut report = |item: &Item, error: &str| {
        misfits += 1;
        errors.push(n, spec_version, &item.to_string(), error, bytes)
    };
    let read = spec.direct_plan().reads_calls()
        && BlockReader::new(spec.direct_plan(), spec.context(), doc)
            .is_some_and(|mut r| r.push_calls(typed, place, index, bytes, &mut report));
    if !read {
        let nested = |doc: &Document<'_>| doc.calls() != Some(1);
        if !decoded {
            if doc
                .decode_into(&spec.context(), spec.extrinsic_type(), bytes)
                .is_err()
            {
                return;
            }
            // Only where the generic tables take the value (as beside
            // them): its rows made and dropped.
            let scratch = &mut Rows::default();
            if push_extrinsic(n, index, doc.root(), nested(doc), None, scratch).is_err() {
                return;
            }
        }
        let nested = nested(doc);
        if let Some(call) = doc.root().get("call") {
            typed.push_calls(place, index, call, nested, &mut report);
        }
    }
    typed.misfits += misfits;
}

/// The bytes of event record `i` in `events` (the block's `System.Events`
/// value, a `Vec` of records), read with the runtime's record type; `None`
/// when the value is not such a `Vec` or has no record `i`. Only an error
/// row asks for them, so the records before it are decoded again here.
pub(crate) fn event_record_bytes<'b>(
    spec: &SpecDecoder,
    events: &'b [u8],
    i: usize,
) -> Option<&'b [u8]> {
    let ty = spec.events_type()?;
    let ferroscale_dynamic::Node::Seq(record) = spec.registry().graph().node(ty) else {
        return None;
    };
    let (count, mut at) = compact_length(events)?;
    if i as u64 >= count {
        return None;
    }
    let ctx = spec.context();
    for k in 0..=i {
        let rest = events.get(at..)?;
        let (_, used) = ferroscale_dynamic::decode_prefix(
            &ctx,
            *record,
            rest,
            &mut ferroscale_dynamic::ValueSink,
        )
        .ok()?;
        if k == i {
            return rest.get(..used);
        }
        at += used;
    }
    None
}

/// A SCALE compact integer at the start of `bytes`: its value and length.
fn compact_length(bytes: &[u8]) -> Option<(u64, usize)> {
    let first = *bytes.first()?;
    let le = |n: usize| -> Option<u64> {
        let b = bytes.get(..n)?;
        Some(b.iter().rev().fold(0u64, |v, &x| (v << 8) | x as u64))
    };
    match first & 3 {
        0 => Some(((first >> 2) as u64, 1)),
        1 => Some((le(2)? >> 2, 2)),
        2 => Some((le(4)? >> 2, 4)),
        _ => {
            let n = (first >> 2) as usize + 4;
            if n > 8 {
                return None;
            }
            let v = bytes
                .get(1..1 + n)?
                .iter()
                .rev()
                .fold(0u64, |v, &x| (v << 8) | x as u64);
            Some((v, 1 + n))
        }
    }
}

/// Keys of an extrinsic value that are not extension values.
const NOT_EXTENSIONS: [&str; 7] = [
    "extrinsic_hash",
    "extrinsic_length",
    "version",
    "address",
    "signature",
    "extension_version",
    "call",
];

/// Appends the `extrinsics` row of extrinsic value `v`, and a `calls` row
/// per call nested in its call (looked for only when `nested`: walking the
/// arguments of a large call is a tenth of its rows' time). Everything that
/// can fail is read first, so a failure appends nothing.
fn push_extrinsic(
    block_number: u64,
    index: u32,
    v: ValueRef<'_, '_>,
    nested: bool,
    success: Option<bool>,
    rows: &mut Rows,
) -> Result<Option<u64>, String> {
    let entries = v
        .entries()
        .ok_or_else(|| format!("extrinsic value is not a dict: {v:?}"))?;
    let call = v.get("call").ok_or("extrinsic value has no call")?;
    let (pallet, name, args) = call_parts(call).ok_or("call value has no module/function/args")?;
    let length = v
        .get("extrinsic_length")
        .and_then(|l| l.as_u128())
        .and_then(|l| u32::try_from(l).ok())
        .ok_or("extrinsic value has no extrinsic_length")?;
    let hash = v
        .get("extrinsic_hash")
        .and_then(|h| h.as_str())
        .ok_or("extrinsic value has no extrinsic_hash")?;
    let address = v.get("address");
    let extension_version = v.get("extension_version").and_then(|e| e.as_u128());
    let ext: Vec<(&str, ValueRef<'_, '_>)> = entries
        .filter(|(k, _)| !NOT_EXTENSIONS.contains(k))
        .collect();
    let ext_get = |key: &str| ext.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);

    if nested {
        push_calls(block_number, index, call, 0, 0, rows.calls.len(), rows);
    }
    let t = &mut rows.extrinsics;
    t.block_number.push(block_number);
    t.index.push(index);
    t.version
        .push(v.get("version").and_then(|x| x.as_u128()).unwrap_or(4) as u8);
    t.signed.push(address.is_some());
    match address {
        Some(a) => match a.as_str() {
            Some(s) => t.address.push(s),
            None => t.address.push_with(|out| a.write_json(out)),
        },
        None => t.address.push_null(),
    }
    push_json(&mut t.signature, v.get("signature"));
    t.nonce.push(
        ext_get("nonce")
            .and_then(|n| n.as_u128())
            .and_then(|n| u64::try_from(n).ok()),
    );
    push_json(&mut t.tip, ext_get("tip"));
    push_json(&mut t.era, ext_get("era"));
    push_json(&mut t.mode, ext_get("mode"));
    t.extension_version
        .push(extension_version.and_then(|e| u8::try_from(e).ok()));
    if address.is_some() || extension_version.is_some() {
        // The extension entries as one JSON object, in the value's order.
        t.extensions.push_with(|out| {
            out.push('{');
            for (i, (k, e)) in ext.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ferroscale_value::json::write_str(k, out);
                out.push(':');
                e.write_json(out);
            }
            out.push('}');
        });
    } else {
        t.extensions.push_null();
    }
    t.pallet.push(pallet);
    t.call.push(name);
    t.args.push_with(|out| args.write_json(out));
    t.length.push(length);
    t.hash.push(hash);
    t.success.push(success);
    Ok(timestamp_set(pallet, name, args))
}

/// Appends `value`'s JSON to `column`, or a null.
fn push_json(column: &mut TextColumn, value: Option<ValueRef<'_, '_>>) {
    match value {
        Some(v) => column.push_with(|out| v.write_json(out)),
        None => column.push_null(),
    }
}

/// The block's time, when this call is `Timestamp.set`: its `now`
/// argument, milliseconds since the Unix epoch.
fn timestamp_set(pallet: &str, name: &str, args: ValueRef<'_, '_>) -> Option<u64> {
    if (pallet, name) != ("Timestamp", "set") {
        return None;
    }
    args.items()?
        .find(|arg| arg.get("name").and_then(|n| n.as_str()) == Some("now"))?
        .get("value")?
        .as_u128()
        .and_then(|now| u64::try_from(now).ok())
}

/// A header's fields as the `blocks` table's text.
struct HeaderText {
    parent_hash: String,
    state_root: String,
    extrinsics_root: String,
    digest: String,
}

impl HeaderText {
    fn of<B>(block: &Block<B>) -> Option<HeaderText> {
        let h = block.header.as_ref()?;
        let hex = |b: &[u8]| ferroscale_core::hex::encode_prefixed(b);
        let logs: Vec<String> = h.digest.iter().map(|l| format!("\"{}\"", hex(l))).collect();
        Some(HeaderText {
            parent_hash: hex(&h.parent_hash),
            state_root: hex(&h.state_root),
            extrinsics_root: hex(&h.extrinsics_root),
            digest: format!("[{}]", logs.join(",")),
        })
    }
}

/// Appends, in pre-order, every call nested in `call`'s arguments; `call`
/// itself is numbered but only has a row when nested (`depth` > 0): the
/// extrinsic's own call is its `extrinsics` row (index 0 of the numbering),
/// so the large arguments of a top-level call are stored once.
/// Nesting is found by shape (a dict with `call_module`, `call_function`,
/// `call_args`), not by a list of pallets, so any wrapper call (utility,
/// proxy, multisig, sudo, scheduler, XCM …) is flattened; the decoder's
/// depth limit bounds the recursion. `base`: where this extrinsic's calls
/// start in `rows.calls`.
fn push_calls(
    block_number: u64,
    extrinsic_index: u32,
    call: ValueRef<'_, '_>,
    parent_index: u32,
    depth: u32,
    base: usize,
    rows: &mut Rows,
) {
    let Some((pallet, name, args)) = call_parts(call) else {
        return;
    };
    let t = &mut rows.calls;
    let index = if depth == 0 {
        0
    } else {
        (t.len() - base) as u32 + 1
    };
    if depth > 0 {
        t.block_number.push(block_number);
        t.extrinsic_index.push(extrinsic_index);
        t.index.push(index);
        t.parent_index.push(parent_index);
        t.depth.push(depth);
        t.pallet.push(pallet);
        t.name.push(name);
        t.args.push_with(|out| args.write_json(out));
        t.call_hash.push(
            call.get("call_hash")
                .and_then(|h| h.as_str())
                .unwrap_or_default(),
        );
    }
    nested_calls(args, &mut |inner| {
        push_calls(
            block_number,
            extrinsic_index,
            inner,
            index,
            depth + 1,
            base,
            rows,
        )
    });
}

/// Appends the rows of a decoded `System.Events` value and records each
/// extrinsic's outcome from `System.ExtrinsicSuccess` / `ExtrinsicFailed`;
/// returns the number of events. Every record is read before any row is
/// appended, so a malformed one appends nothing.
fn push_events(
    block_number: u64,
    v: ValueRef<'_, '_>,
    outcomes: &mut [Option<bool>],
    rows: &mut Rows,
) -> Result<u32, String> {
    let records = v
        .items()
        .filter(|_| v.kind() == Kind::List)
        .ok_or_else(|| format!("System.Events value is not a list: {v:?}"))?;
    let events = records
        .enumerate()
        .map(|(i, r)| {
            // One pass over the record's entries for every field (a `get`
            // per field scanned them six times).
            let [phase, extrinsic_index, pallet, name, args, topics] = fields(r, EVENT_FIELDS);
            let text = |found, k| {
                required(found, i, k)?
                    .as_str()
                    .ok_or_else(|| format!("event {i}: {k} is not text"))
            };
            Ok(Event {
                phase: text(phase, "phase")?,
                extrinsic_index: extrinsic_index
                    .and_then(|x| x.as_u128())
                    .and_then(|x| u32::try_from(x).ok()),
                pallet: text(pallet, "module_id")?,
                name: text(name, "event_id")?,
                args: required(args, i, "attributes")?,
                topics: required(topics, i, "topics")?
                    .items()
                    .ok_or_else(|| format!("event {i}: topics is not a list"))?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let t = &mut rows.events;
    for (i, e) in events.iter().enumerate() {
        let outcome = match (e.pallet, e.name) {
            ("System", "ExtrinsicSuccess") => Some(true),
            ("System", "ExtrinsicFailed") => Some(false),
            _ => None,
        };
        if let Some(slot) = outcome
            .and(e.extrinsic_index)
            .and_then(|x| outcomes.get_mut(x as usize))
        {
            *slot = outcome;
        }
        t.block_number.push(block_number);
        t.index.push(i as u32);
        t.phase.push(e.phase);
        t.extrinsic_index.push(e.extrinsic_index);
        t.pallet.push(e.pallet);
        t.name.push(e.name);
        t.args.push_with(|out| e.args.write_json(out));
        t.topics.push_with(|items| {
            for topic in e.topics.clone() {
                match topic.as_str() {
                    Some(s) => items.push(s),
                    None => items.push_with(|out| topic.write_json(out)),
                }
            }
        });
    }
    Ok(events.len() as u32)
}

/// Field `k` of event record `i`, which must be there.
fn required<'d, 'g>(
    found: Option<ValueRef<'d, 'g>>,
    i: usize,
    k: &str,
) -> Result<ValueRef<'d, 'g>, String> {
    found.ok_or_else(|| format!("event {i}: no {k}"))
}

/// An event record's parts, read before its row is appended.
struct Event<'d, 'g> {
    phase: &'d str,
    extrinsic_index: Option<u32>,
    pallet: &'d str,
    name: &'d str,
    args: ValueRef<'d, 'g>,
    topics: Items<'d, 'g>,
}

/// The fields of an event record the `events` table reads.
const EVENT_FIELDS: [&str; 6] = [
    "phase",
    "extrinsic_idx",
    "module_id",
    "event_id",
    "attributes",
    "topics",
];

/// The values under `keys` in dict `v` (the first entry of each key, as
/// [`ValueRef::get`] finds it), in one pass over its entries.
fn fields<'d, 'g, const N: usize>(
    v: ValueRef<'d, 'g>,
    keys: [&str; N],
) -> [Option<ValueRef<'d, 'g>>; N] {
    let mut found = [None; N];
    for (k, item) in v.entries().into_iter().flatten() {
        if let Some(at) = keys.iter().position(|key| *key == k) {
            found[at].get_or_insert(item);
        }
    }
    found
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::typed::shape::Shape;
    use crate::typed::{Catalog, Kind};

    /// Block 18,468,942 (its extrinsics and events; no header).
    pub(crate) fn block() -> Block {
        let dir = "payloads/polkadot-block-18468942";
        let extrinsics: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
            &format!("{dir}/extrinsics.json"),
        ))
        .expect("extrinsics.json");
        Block {
            number: 18_468_942,
            hash: "0x00".into(),
            spec_version: 1_000_001,
            extrinsics: extrinsics
                .iter()
                .map(|x| ferroscale_core::hex::decode(x.trim_start_matches("0x")).expect("hex"))
                .collect(),
            events: Some(ferroscale_fixtures::read_hex(&format!("{dir}/events.hex"))),
            header: None,
            finalized: None,
        }
    }

    /// Spec 1,000,001's decoder with its own typed tables, but Balances.Withdraw's
    /// `amount` and Timestamp.set's `now` narrowed to a byte: the real values
    /// do not fit.
    pub(crate) fn narrowed_spec() -> SpecDecoder {
        let metadata = ferroscale_fixtures::read("metadata/polkadot-v14-spec1000001.scale");
        let spec = SpecDecoder::from_metadata(&metadata, None).expect("metadata");
        // The runtime's own tables, with Balances.Withdraw's `amount` and
        // Timestamp.set's `now` narrowed to a byte: the real values do not fit.
        let mut tables: Vec<_> = Catalog::new(spec.registry(), 1_000_001)
            .tables()
            .iter()
            .map(|t| (**t).clone())
            .collect();
        for t in &mut tables {
            let (kind, name) = (t.kind, t.name());
            for c in &mut t.columns {
                let narrowed = (kind, name.as_str(), c.name.as_str());
                if matches!(
                    narrowed,
                    (Kind::Event, "Balances.Withdraw", "amount")
                        | (Kind::Call, "Timestamp.set", "now")
                ) {
                    c.shape = Shape::UInt(8);
                }
            }
        }
        spec.typed
            .set(Catalog::from_tables(tables))
            .expect("no catalog yet");
        spec
    }

    #[test]
    fn an_item_that_does_not_fit_its_typed_table_is_an_error_row_with_its_bytes() {
        let spec = narrowed_spec();
        let block = block();
        let rows = decode_block_typed(&block, Some(&spec));
        let events = block.events.as_deref().expect("events");
        let all_events = ferroscale_core::hex::encode_prefixed(events);
        let (mut withdraws, mut now) = (0, 0);
        let graph_events = spec.events_type().expect("System.Events");
        for e in rows.errors.iter() {
            assert_eq!((e.block_number, e.spec_version), (18_468_942, 1_000_001));
            assert!(e.error.starts_with("typed table "), "{e:?}");
            if e.item == "extrinsic 0 call 0" {
                // Timestamp.set: the extrinsic's bytes.
                assert!(e.error.contains("calls/Timestamp.set: column now"), "{e:?}");
                assert_eq!(
                    e.bytes,
                    ferroscale_core::hex::encode_prefixed(&block.extrinsics[0])
                );
                now += 1;
                continue;
            }
            // An event: its record's own bytes, a part of System.Events that
            // decodes alone as a Balances.Withdraw record.
            assert!(
                e.error.contains("events/Balances.Withdraw: column amount"),
                "{e:?}"
            );
            let i: usize = e
                .item
                .strip_prefix("event ")
                .expect("event")
                .parse()
                .expect("index");
            let bytes = ferroscale_core::hex::decode(&e.bytes[2..]).expect("hex");
            assert!(!bytes.is_empty() && bytes.len() < events.len(), "{e:?}");
            assert!(all_events.contains(&e.bytes[2..]), "{e:?}");
            let ferroscale_dynamic::Node::Seq(record) = spec.registry().graph().node(graph_events)
            else {
                panic!("System.Events is not a Vec");
            };
            let value = ferroscale_dynamic::decode_value(&spec.context(), *record, &bytes)
                .expect("the record decodes alone, to its end");
            let whole = ferroscale_dynamic::decode_value(&spec.context(), graph_events, events)
                .expect("events");
            assert_eq!(
                Some(&value),
                whole.as_items().and_then(|r| r.get(i)),
                "{e:?}"
            );
            assert_eq!(
                value.get("event_id").and_then(|v| v.as_str()),
                Some("Withdraw")
            );
            withdraws += 1;
        }
        assert_eq!(now, 1);
        assert!(withdraws > 0);
        assert_eq!(rows.errors.len(), withdraws + now);
        let misfits = rows.typed.as_ref().expect("typed").misfits;
        assert_eq!(misfits as usize, rows.errors.len());
    }
}
