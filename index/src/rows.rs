//! One block decoded into the rows of every table.
//!
//! Every item decodes through the dynamic layer into a
//! [`Document`] (the flat output, several times faster to build than the
//! `Value` tree and equal to it: `Document::to_value() == decode_value`), and
//! each JSON column is that value (or the part of it the column names)
//! rendered by [`crate::json`]: one value contract for the Rust, Python and
//! columnar outputs. An item that fails to decode becomes a row of the `errors`
//! table naming the block and the item; the rest of the block still decodes.

use ferroscale_dynamic::document::Kind;
use ferroscale_dynamic::{Document, ValueRef};

use crate::block::Block;
use crate::json::ref_to_json;
use crate::spec::SpecDecoder;

/// A row of the `blocks` table.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockRow {
    /// Block number.
    pub number: u64,
    /// Block hash, `"0x…"`.
    pub hash: String,
    /// Runtime spec version.
    pub spec_version: u32,
    /// Extrinsics in the block (decoded or not).
    pub extrinsic_count: u32,
    /// Event records in `System.Events`; `None` when the source had no events
    /// or they did not decode.
    pub event_count: Option<u32>,
}

/// A row of the `extrinsics` table.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtrinsicRow {
    /// Block number.
    pub block_number: u64,
    /// Position in the block.
    pub index: u32,
    /// Extrinsic format version (4 or 5).
    pub version: u8,
    /// Whether it carries a signature (format 4 signed).
    pub signed: bool,
    /// The signer: SS58 text, or the address value as JSON when it is not a plain account.
    pub address: Option<String>,
    /// The signature value as JSON.
    pub signature: Option<String>,
    /// `CheckNonce`.
    pub nonce: Option<u64>,
    /// `ChargeTransactionPayment`'s tip, exact decimal digits (a `u128`).
    pub tip: Option<String>,
    /// `CheckMortality` as JSON (`"00"` immortal, else `{"period", "phase"}`).
    pub era: Option<String>,
    /// `CheckMetadataHash`'s mode as JSON.
    pub mode: Option<String>,
    /// Format 5 general extrinsics: the transaction-extension version.
    pub extension_version: Option<u8>,
    /// Every extension value of the extrinsic as one JSON object, keyed as
    /// the dynamic layer keys them (`era`, `nonce`, `tip`, `mode`, or the
    /// extension's identifier).
    pub extensions: Option<String>,
    /// Call's pallet name.
    pub pallet: String,
    /// Call name.
    pub call: String,
    /// The call's arguments (`call_args`) as JSON.
    pub args: String,
    /// Length in bytes without the compact length prefix.
    pub length: u32,
    /// `"0x…"` blake2-256 of the extrinsic.
    pub hash: String,
    /// From `System.ExtrinsicSuccess` / `ExtrinsicFailed` in phase
    /// `ApplyExtrinsic(index)`; `None` without events.
    pub success: Option<bool>,
}

/// A row of the `calls` table: each call nested in an extrinsic's call
/// (batches, proxies, multisigs, sudo …), in pre-order. The extrinsic's own
/// call (index 0, depth 0) is its `extrinsics` row.
#[derive(Clone, Debug, PartialEq)]
pub struct CallRow {
    /// Block number.
    pub block_number: u64,
    /// The extrinsic's position in the block.
    pub extrinsic_index: u32,
    /// Position of this call in the extrinsic's pre-order walk (0, the
    /// extrinsic's own call, has no row here).
    pub index: u32,
    /// `index` of the call whose arguments hold this one (0: the extrinsic's call).
    pub parent_index: u32,
    /// Nesting depth (1: directly in the extrinsic's call).
    pub depth: u32,
    /// Pallet name.
    pub pallet: String,
    /// Call name.
    pub name: String,
    /// The call's arguments (`call_args`) as JSON.
    pub args: String,
    /// `"0x…"` blake2-256 of the call's bytes.
    pub call_hash: String,
}

/// A row of the `events` table.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRow {
    /// Block number.
    pub block_number: u64,
    /// Position in `System.Events`.
    pub index: u32,
    /// Phase name: `ApplyExtrinsic`, `Finalization`, `Initialization`.
    pub phase: String,
    /// The extrinsic index of an `ApplyExtrinsic` phase.
    pub extrinsic_index: Option<u32>,
    /// Pallet name.
    pub pallet: String,
    /// Event name.
    pub name: String,
    /// The event's attributes as JSON.
    pub args: String,
    /// Topics, `"0x…"` each.
    pub topics: Vec<String>,
}

/// A row of the `errors` table: an item that did not decode.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorRow {
    /// Block number.
    pub block_number: u64,
    /// What failed: `extrinsic N`, `events`, `block`.
    pub item: String,
    /// Why.
    pub error: String,
}

/// Rows of every table for some blocks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rows {
    /// `blocks` rows.
    pub blocks: Vec<BlockRow>,
    /// `extrinsics` rows.
    pub extrinsics: Vec<ExtrinsicRow>,
    /// `calls` rows.
    pub calls: Vec<CallRow>,
    /// `events` rows.
    pub events: Vec<EventRow>,
    /// `errors` rows.
    pub errors: Vec<ErrorRow>,
}

impl Rows {
    /// Appends `other`'s rows.
    pub fn append(&mut self, mut other: Rows) {
        self.blocks.append(&mut other.blocks);
        self.extrinsics.append(&mut other.extrinsics);
        self.calls.append(&mut other.calls);
        self.events.append(&mut other.events);
        self.errors.append(&mut other.errors);
    }

    /// All rows of `parts`, in order, each moved once (the tables sized up
    /// front).
    pub fn concat(parts: Vec<Rows>) -> Rows {
        let total = |f: fn(&Rows) -> usize| parts.iter().map(f).sum::<usize>();
        let mut all = Rows {
            blocks: Vec::with_capacity(total(|r| r.blocks.len())),
            extrinsics: Vec::with_capacity(total(|r| r.extrinsics.len())),
            calls: Vec::with_capacity(total(|r| r.calls.len())),
            events: Vec::with_capacity(total(|r| r.events.len())),
            errors: Vec::with_capacity(total(|r| r.errors.len())),
        };
        for rows in parts {
            all.append(rows);
        }
        all
    }
}

/// Decodes `block` with its runtime's decoder (`None`: no metadata for its
/// spec version, which becomes an error row).
pub fn decode_block(block: &Block, spec: Option<&SpecDecoder>) -> Rows {
    decode_block_with(block, spec, &mut Document::new())
}

/// [`decode_block`] decoding every item into `doc`, whose buffers are kept
/// from one item and one block to the next: a fresh document per item
/// allocates (and faults in) a few hundred kilobytes for a large
/// extrinsic, every time.
pub(crate) fn decode_block_with<'g>(
    block: &Block,
    spec: Option<&'g SpecDecoder>,
    doc: &mut Document<'g>,
) -> Rows {
    let mut rows = Rows::default();
    let n = block.number;
    let mut block_row = BlockRow {
        number: n,
        hash: block.hash.clone(),
        spec_version: block.spec_version,
        extrinsic_count: block.extrinsics.len() as u32,
        event_count: None,
    };
    let Some(spec) = spec else {
        rows.errors.push(ErrorRow {
            block_number: n,
            item: "block".into(),
            error: format!("no metadata for spec version {}", block.spec_version),
        });
        rows.blocks.push(block_row);
        return rows;
    };
    let ctx = spec.context();
    // Events first: the extrinsics' success flags come from them.
    let mut outcomes: Vec<Option<bool>> = vec![None; block.extrinsics.len()];
    if let Some(bytes) = &block.events {
        let decoded = match spec.events_type() {
            Some(ty) => doc.decode_into(&ctx, ty, bytes).map_err(|e| e.to_string()),
            None => Err("the runtime has no System.Events storage item".into()),
        };
        match decoded.and_then(|()| event_rows(n, doc.root())) {
            Ok(events) => {
                block_row.event_count = Some(events.len() as u32);
                for e in &events {
                    let flag = match (e.pallet.as_str(), e.name.as_str()) {
                        ("System", "ExtrinsicSuccess") => true,
                        ("System", "ExtrinsicFailed") => false,
                        _ => continue,
                    };
                    if let Some(slot) = e.extrinsic_index.and_then(|i| outcomes.get_mut(i as usize))
                    {
                        *slot = Some(flag);
                    }
                }
                rows.events = events;
            }
            Err(error) => rows.errors.push(ErrorRow {
                block_number: n,
                item: "events".into(),
                error,
            }),
        }
    }
    for (i, bytes) in block.extrinsics.iter().enumerate() {
        let index = i as u32;
        let base = rows.calls.len();
        let row = doc
            .decode_into(&ctx, spec.extrinsic_type(), bytes)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                let v = doc.root();
                let call = v.get("call").ok_or("extrinsic value has no call")?;
                let (_, _, args) =
                    call_parts(call).ok_or("call value has no module/function/args")?;
                let row = extrinsic_row(n, index, v, ref_to_json(args), outcomes[i])?;
                call_rows(n, index, call, 0, 0, base, &mut rows.calls);
                Ok(row)
            });
        match row {
            Ok(row) => rows.extrinsics.push(row),
            Err(error) => {
                rows.calls.truncate(base);
                rows.errors.push(ErrorRow {
                    block_number: n,
                    item: format!("extrinsic {i}"),
                    error,
                })
            }
        }
    }
    rows.blocks.push(block_row);
    rows
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

fn extrinsic_row(
    block_number: u64,
    index: u32,
    v: ValueRef<'_, '_>,
    args: String,
    success: Option<bool>,
) -> Result<ExtrinsicRow, String> {
    let entries = v
        .entries()
        .ok_or_else(|| format!("extrinsic value is not a dict: {v:?}"))?;
    let call = v.get("call").ok_or("extrinsic value has no call")?;
    let (pallet, name, _) = call_parts(call).ok_or("call value has no module/function/args")?;
    let address = v.get("address").map(|a| match a.as_str() {
        Some(s) => s.to_string(),
        None => ref_to_json(a),
    });
    let extension_version = v.get("extension_version").and_then(|e| e.as_u128());
    let ext: Vec<(&str, ValueRef<'_, '_>)> = entries
        .filter(|(k, _)| !NOT_EXTENSIONS.contains(k))
        .collect();
    let has_extensions = address.is_some() || extension_version.is_some();
    let extensions = has_extensions.then(|| {
        // The extension entries as one JSON object, in the value's order.
        let mut out = String::from("{");
        for (i, (k, e)) in ext.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            ferroscale_value::json::write_str(k, &mut out);
            out.push(':');
            e.write_json(&mut out);
        }
        out.push('}');
        out
    });
    let ext_get = |key: &str| ext.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    Ok(ExtrinsicRow {
        block_number,
        index,
        version: v.get("version").and_then(|x| x.as_u128()).unwrap_or(4) as u8,
        signed: address.is_some(),
        address,
        signature: v.get("signature").map(ref_to_json),
        nonce: ext_get("nonce")
            .and_then(|n| n.as_u128())
            .and_then(|n| u64::try_from(n).ok()),
        tip: ext_get("tip").map(ref_to_json),
        era: ext_get("era").map(ref_to_json),
        mode: ext_get("mode").map(ref_to_json),
        extension_version: extension_version.and_then(|e| u8::try_from(e).ok()),
        extensions,
        pallet: pallet.to_string(),
        call: name.to_string(),
        args,
        length: v
            .get("extrinsic_length")
            .and_then(|l| l.as_u128())
            .and_then(|l| u32::try_from(l).ok())
            .ok_or("extrinsic value has no extrinsic_length")?,
        hash: v
            .get("extrinsic_hash")
            .and_then(|h| h.as_str())
            .ok_or("extrinsic value has no extrinsic_hash")?
            .to_string(),
        success,
    })
}

/// A call value's pallet, name and arguments, when `v` is a call.
fn call_parts<'d, 'g>(v: ValueRef<'d, 'g>) -> Option<(&'d str, &'d str, ValueRef<'d, 'g>)> {
    if v.kind() != Kind::Dict {
        return None;
    }
    Some((
        v.get("call_module")?.as_str()?,
        v.get("call_function")?.as_str()?,
        v.get("call_args")?,
    ))
}

/// Appends, in pre-order, every call nested in `call`'s arguments; `call`
/// itself is numbered but only has a row when nested (`depth` > 0): the
/// extrinsic's own call is its `extrinsics` row (index 0 of the numbering),
/// so the large arguments of a top-level call are stored once.
/// Nesting is found by shape (a dict with `call_module`, `call_function`,
/// `call_args`), not by a list of pallets, so any wrapper call (utility,
/// proxy, multisig, sudo, scheduler, XCM …) is flattened; the decoder's
/// depth limit bounds the recursion. `base`: where this extrinsic's calls
/// start in `out`.
fn call_rows(
    block_number: u64,
    extrinsic_index: u32,
    call: ValueRef<'_, '_>,
    parent_index: u32,
    depth: u32,
    base: usize,
    out: &mut Vec<CallRow>,
) {
    let Some((pallet, name, args)) = call_parts(call) else {
        return;
    };
    let index = if depth == 0 {
        0
    } else {
        (out.len() - base) as u32 + 1
    };
    if depth > 0 {
        out.push(CallRow {
            block_number,
            extrinsic_index,
            index,
            parent_index,
            depth,
            pallet: pallet.to_string(),
            name: name.to_string(),
            args: ref_to_json(args),
            call_hash: call
                .get("call_hash")
                .and_then(|h| h.as_str())
                .unwrap_or_default()
                .to_string(),
        });
    }
    nested_calls(args, &mut |inner| {
        call_rows(
            block_number,
            extrinsic_index,
            inner,
            index,
            depth + 1,
            base,
            out,
        )
    });
}

/// Calls `f` on each outermost call value inside `v`.
fn nested_calls<'d, 'g>(v: ValueRef<'d, 'g>, f: &mut dyn FnMut(ValueRef<'d, 'g>)) {
    if call_parts(v).is_some() {
        return f(v);
    }
    // Plain loops over `items()` / `entries()`: this walks every node of
    // the arguments (a tenth of the rows stage's time in a profile of block
    // 18468942), and an `into_iter().flatten()` adapter is state copied
    // around at every node.
    if let Some(items) = v.items() {
        for item in items {
            if is_container(item) {
                nested_calls(item, f);
            }
        }
    } else if let Some(entries) = v.entries() {
        for (_, item) in entries {
            if is_container(item) {
                nested_calls(item, f);
            }
        }
    }
}

/// Whether `v` may hold a call (scalars never do; most nodes are scalars,
/// so they are not visited at all).
fn is_container(v: ValueRef<'_, '_>) -> bool {
    matches!(v.kind(), Kind::List | Kind::Tuple | Kind::Dict)
}

/// The rows of a decoded `System.Events` value.
fn event_rows(block_number: u64, v: ValueRef<'_, '_>) -> Result<Vec<EventRow>, String> {
    let records = v
        .items()
        .filter(|_| v.kind() == Kind::List)
        .ok_or_else(|| format!("System.Events value is not a list: {v:?}"))?;
    records
        .enumerate()
        .map(|(i, r)| {
            // One pass over the record's entries for every field (a `get`
            // per field scanned them six times).
            let found = fields(r, EVENT_FIELDS);
            let get = |k: &str| {
                EVENT_FIELDS
                    .iter()
                    .position(|f| *f == k)
                    .and_then(|at| found[at])
            };
            let field = |k: &str| get(k).ok_or_else(|| format!("event {i}: no {k}"));
            let text = |k: &str| -> Result<String, String> {
                Ok(field(k)?
                    .as_str()
                    .ok_or_else(|| format!("event {i}: {k} is not text"))?
                    .to_string())
            };
            let topics = field("topics")?
                .items()
                .ok_or_else(|| format!("event {i}: topics is not a list"))?
                .map(|t| match t.as_str() {
                    Some(s) => s.to_string(),
                    None => ref_to_json(t),
                })
                .collect();
            Ok(EventRow {
                block_number,
                index: i as u32,
                phase: text("phase")?,
                extrinsic_index: get("extrinsic_idx")
                    .and_then(|x| x.as_u128())
                    .and_then(|x| u32::try_from(x).ok()),
                pallet: text("module_id")?,
                name: text("event_id")?,
                args: ref_to_json(field("attributes")?),
                topics,
            })
        })
        .collect()
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
