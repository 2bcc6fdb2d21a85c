//! Events and calls read from their SCALE bytes straight into the rows of
//! their typed tables, by the runtime's [`DirectPlan`]: each table's
//! columns compiled once into [`plan`](super::plan) steps.
//!
//! The rows are those [`super::rows`] builds from the dynamic layer's
//! value of the same bytes, and fail where it fails: the bytes are read by
//! the dynamic decoder's rules (an `EventRecord`'s fields in its struct's
//! order, the extrinsic's length prefix and preamble, its address,
//! signature and extensions through the dynamic decoder itself), an item
//! whose bytes do not decode adds no row and no report (the generic
//! tables' error row names it), and a row that does not fit its table is
//! taken back and reported with the old path's words. A call that may hold
//! other calls (utility, proxy, multisig …) is read by the dynamic decoder
//! whole and its rows made from that value, so that nested calls become
//! rows exactly as before.

use std::collections::HashMap;

use ferroscale_dynamic::graph::min_size;
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::runtime::{Preamble, Runtime};
use ferroscale_dynamic::{
    Context, Document, Fields, Node, Prim, Special, TypeGraph, TypeIdx, Variant,
};

use super::plan::{compile, Input, Op, Runner, Stop};
use super::rows::{Item, Place, TypedRows};
use super::schema::Kind;
use super::Catalog;

/// A runtime's plans: `None` parts are read through the dynamic value
/// ([`super::rows`]), for runtimes whose events or extrinsics are laid out
/// in a way the plans do not read (legacy events, a record without an
/// enum phase, a decode hook).
#[derive(Debug, Default)]
pub(crate) struct DirectPlan {
    events: Option<EventsPlan>,
    calls: Option<CallsPlan>,
}

/// `System.Events`: a `Vec` of event records.
#[derive(Debug)]
struct EventsPlan {
    /// The least bytes a record takes (bounds the length prefix).
    record_min: u64,
    /// The record struct's fields, in order.
    fields: Vec<RecordField>,
}

#[derive(Debug)]
enum RecordField {
    Phase(Phases),
    Event(Box<Events>),
    /// A field the rows do not read (topics): skipped.
    Skip(Skip),
}

/// How a field that is not read is passed over.
#[derive(Debug)]
enum Skip {
    /// `Vec<[u8; n]>` (topics): its bytes counted.
    FixedSeq(u64),
    /// Anything else: decoded by the dynamic decoder and dropped.
    Dynamic(TypeIdx),
}

/// The phase enum: by discriminant, the variant's name and payload.
#[derive(Debug)]
struct Phases {
    at: Vec<Option<u16>>,
    variants: Vec<(String, PhasePayload)>,
}

#[derive(Debug)]
enum PhasePayload {
    Unit,
    /// `ApplyExtrinsic(u32)`: the extrinsic's index.
    Extrinsic,
    /// Other data, skipped.
    Skip(Vec<TypeIdx>),
}

/// The outer event enum: by pallet discriminant, the pallet's events.
#[derive(Debug)]
struct Events {
    at: Vec<Option<u16>>,
    /// `None`: a variant that does not wrap a pallet event enum (reading
    /// it is an error, as in the dynamic decoder).
    pallets: Vec<Option<PalletEvents>>,
}

#[derive(Debug)]
struct PalletEvents {
    name: String,
    at: Vec<Option<u16>>,
    events: Vec<ItemPlan>,
}

/// One event or call: its names, its table in the catalog, a step per column.
#[derive(Debug)]
struct ItemPlan {
    name: String,
    table: Option<usize>,
    ops: Vec<Op>,
    /// The columns' names (a misfit names its column).
    columns: Vec<String>,
    /// The field types (read and dropped when the item has no table).
    types: Vec<TypeIdx>,
    /// A call whose arguments may hold calls: read through the dynamic value.
    nests: bool,
}

/// Extrinsics: the runtime's extrinsic format, and each call by
/// (pallet index, call index).
#[derive(Debug)]
struct CallsPlan {
    /// The `RuntimeCall` node (a call read through the dynamic value).
    call_ty: TypeIdx,
    calls: HashMap<(u8, u8), ItemPlan>,
}

/// Composite levels the dynamic decoder is at where an event's fields
/// start (the record list, the record) and where a call's arguments start
/// (the extrinsic, the call).
const EVENT_DEPTH: u32 = 2;
const CALL_DEPTH: u32 = 2;

/// The variant positions by discriminant, as the dynamic decoder picks them.
fn positions(variants: &[Variant]) -> Vec<Option<u16>> {
    (0..=255u8)
        .map(|b| {
            let p = match variants.get(b as usize) {
                Some(v) if v.index == b => Some(b as usize),
                _ => variants.iter().position(|v| v.index == b),
            };
            p.map(|p| p as u16)
        })
        .collect()
}

fn field_types(fields: &Fields) -> Vec<TypeIdx> {
    match fields {
        Fields::Unit => Vec::new(),
        Fields::Unnamed(ts) => ts.clone(),
        Fields::Named(fs) => fs.iter().map(|f| f.ty).collect(),
    }
}

/// The plan of an item whose fields are `types`, into `table` of the
/// catalog (`None` when the table's columns do not pair with the fields).
fn item_plan(
    graph: &TypeGraph,
    catalog: &Catalog,
    kind: Kind,
    pallet: &str,
    name: &str,
    types: Vec<TypeIdx>,
) -> Option<ItemPlan> {
    let table = catalog.index(kind, pallet, name);
    let (ops, columns) = match table.and_then(|t| catalog.tables().get(t)) {
        Some(def) => {
            if def.columns.len() != types.len() {
                return None;
            }
            let ops = types
                .iter()
                .zip(&def.columns)
                .map(|(t, c)| compile(graph, *t, &c.shape))
                .collect();
            (ops, def.columns.iter().map(|c| c.name.clone()).collect())
        }
        None => (Vec::new(), Vec::new()),
    };
    let nests = kind == Kind::Call && types.iter().any(|t| may_hold_calls(graph, *t));
    Some(ItemPlan {
        name: name.to_string(),
        table,
        ops,
        columns,
        types,
        nests,
    })
}

/// Whether a value of `ty` may hold a call (or anything else the plans
/// leave to the dynamic value's rows: FRAME specials that decode further
/// types). Conservative: a yes only costs speed.
fn may_hold_calls(graph: &TypeGraph, ty: TypeIdx) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![ty];
    while let Some(t) = todo.pop() {
        if !seen.insert(t) {
            continue;
        }
        let Some(node) = graph.get(t) else {
            return true;
        };
        match node {
            Node::Prim(_) | Node::Null | Node::Bytes | Node::ByteArray(_) => {}
            Node::Set { .. } | Node::BitSeq { .. } | Node::Compact(_) => {}
            Node::Seq(i) | Node::Array(i, _) | Node::Option(i) => todo.push(*i),
            Node::Tuple(ts) => todo.extend(ts),
            Node::Struct(fs) => todo.extend(fs.iter().map(|f| f.ty)),
            Node::Enum(vs) => {
                for v in vs {
                    todo.extend(field_types(&v.fields));
                }
            }
            Node::Result(a, b) | Node::Map(a, b) => todo.extend([*a, *b]),
            Node::Special(s) => match s {
                Special::AccountId
                | Special::EthereumAccountId
                | Special::AccountIndex
                | Special::LegacyAddress
                | Special::Era
                | Special::IdentityData
                | Special::HexBytes
                | Special::Vote
                | Special::ConsensusEngineId
                | Special::RawBytes { .. } => {}
                Special::MultiAddress(e) => todo.push(*e),
                _ => return true,
            },
            Node::Unresolved(_) => return true,
        }
    }
    false
}

impl DirectPlan {
    /// The plans of the runtime loaded in `registry`, whose `System.Events`
    /// is `events` and whose typed tables are `catalog`.
    pub(crate) fn new(
        registry: &Registry,
        events: Option<TypeIdx>,
        catalog: &Catalog,
    ) -> DirectPlan {
        let graph = registry.graph();
        let Some(runtime) = registry.runtime().filter(|r| r.portable) else {
            return DirectPlan::default();
        };
        if registry.context().hook.is_some() {
            return DirectPlan::default();
        }
        DirectPlan {
            events: events.and_then(|ty| events_plan(graph, ty, catalog)),
            calls: calls_plan(graph, runtime, catalog),
        }
    }

    /// Whether events are read by the plans.
    pub(crate) fn reads_events(&self) -> bool {
        self.events.is_some()
    }

    /// Whether extrinsics' calls are read by the plans.
    pub(crate) fn reads_calls(&self) -> bool {
        self.calls.is_some()
    }
}

fn events_plan(graph: &TypeGraph, ty: TypeIdx, catalog: &Catalog) -> Option<EventsPlan> {
    let Node::Seq(record) = graph.get(ty)? else {
        return None;
    };
    let Node::Special(Special::EventRecord(st)) = graph.get(*record)? else {
        return None;
    };
    let Node::Struct(fields) = graph.get(*st)? else {
        return None;
    };
    let record_min = min_size(graph, *record, 0);
    if record_min == 0 {
        return None;
    }
    let mut out = Vec::new();
    let (mut phase, mut event) = (false, false);
    for f in fields {
        out.push(match &*f.name {
            "phase" => {
                let Node::Enum(variants) = graph.get(f.ty)? else {
                    return None;
                };
                phase = true;
                RecordField::Phase(Phases {
                    at: positions(variants),
                    variants: variants
                        .iter()
                        .map(|v| {
                            let payload = match (&*v.name, &v.fields) {
                                (_, Fields::Unit) => PhasePayload::Unit,
                                ("ApplyExtrinsic", Fields::Unnamed(ts))
                                    if ts.len() == 1
                                        && graph.get(ts[0]) == Some(&Node::Prim(Prim::U32)) =>
                                {
                                    PhasePayload::Extrinsic
                                }
                                // Another payload of `ApplyExtrinsic` is
                                // the index's value (not a u32: left to
                                // the dynamic value's rows).
                                ("ApplyExtrinsic", _) => return None,
                                (_, fields) => PhasePayload::Skip(field_types(fields)),
                            };
                            Some((v.name.to_string(), payload))
                        })
                        .collect::<Option<Vec<_>>>()?,
                })
            }
            "event" => {
                let e = match graph.get(f.ty)? {
                    Node::Special(Special::ScaleInfoEvent(e)) => *e,
                    Node::Special(_) => return None,
                    _ => f.ty,
                };
                event = true;
                RecordField::Event(Box::new(events_enum(graph, e, catalog)?))
            }
            // A list (the generic `events` table refuses other topics, and
            // the old path made no typed rows then).
            "topics" => match graph.get(f.ty)? {
                Node::Seq(item) => match plain_width(graph, *item, 0) {
                    Some(n) if n > 0 => RecordField::Skip(Skip::FixedSeq(n)),
                    _ => RecordField::Skip(Skip::Dynamic(f.ty)),
                },
                Node::Array(..) => RecordField::Skip(Skip::Dynamic(f.ty)),
                _ => return None,
            },
            _ => RecordField::Skip(Skip::Dynamic(f.ty)),
        });
    }
    (phase && event).then_some(EventsPlan {
        record_min,
        fields: out,
    })
}

/// The width of a value of `ty` whose every byte pattern decodes (bytes,
/// integers, and tuples, structs and arrays of them: `H256`), so that it
/// is skipped by counting; `None` for other types.
fn plain_width(graph: &TypeGraph, ty: TypeIdx, depth: u32) -> Option<u64> {
    if depth > 8 {
        return None;
    }
    match graph.get(ty)? {
        Node::ByteArray(n) => Some(u64::from(*n)),
        Node::Prim(p) if !matches!(p, Prim::Bool | Prim::Char | Prim::Str) => {
            p.fixed_size().map(|n| n as u64)
        }
        Node::Tuple(ts) => ts.iter().try_fold(0u64, |a, t| {
            a.checked_add(plain_width(graph, *t, depth + 1)?)
        }),
        Node::Struct(fs) => fs.iter().try_fold(0u64, |a, f| {
            a.checked_add(plain_width(graph, f.ty, depth + 1)?)
        }),
        Node::Array(t, n) => plain_width(graph, *t, depth + 1)?.checked_mul(u64::from(*n)),
        _ => None,
    }
}

fn events_enum(graph: &TypeGraph, e: TypeIdx, catalog: &Catalog) -> Option<Events> {
    let Node::Enum(outer) = graph.get(e)? else {
        return None;
    };
    let mut pallets = Vec::with_capacity(outer.len());
    for p in outer {
        let inner = match &p.fields {
            Fields::Unnamed(t) if t.len() == 1 => t[0],
            _ => {
                pallets.push(None);
                continue;
            }
        };
        let Some(Node::Enum(events)) = graph.get(inner) else {
            pallets.push(None);
            continue;
        };
        let plans = events
            .iter()
            .map(|v| {
                item_plan(
                    graph,
                    catalog,
                    Kind::Event,
                    &p.name,
                    &v.name,
                    field_types(&v.fields),
                )
            })
            .collect::<Option<Vec<_>>>()?;
        pallets.push(Some(PalletEvents {
            name: p.name.to_string(),
            at: positions(events),
            events: plans,
        }));
    }
    Some(Events {
        at: positions(outer),
        pallets,
    })
}

fn calls_plan(graph: &TypeGraph, runtime: &Runtime, catalog: &Catalog) -> Option<CallsPlan> {
    let call_ty = runtime.extrinsic.call?;
    if graph.get(call_ty) != Some(&Node::Special(Special::Call)) {
        return None;
    }
    let mut calls = HashMap::new();
    for pallet in &runtime.pallets {
        for call in &pallet.calls {
            let types = call.args.iter().map(|a| a.ty).collect();
            let plan = item_plan(graph, catalog, Kind::Call, &pallet.name, &call.name, types)?;
            calls.insert((pallet.index, call.index), plan);
        }
    }
    Some(CallsPlan { call_ty, calls })
}

/// An event or call that did not fit its table, reported once its item
/// is known to decode.
type Pending = Vec<(Item, String)>;

/// The typed rows of one block's items, read by the plans.
pub(crate) struct BlockReader<'r, 'g> {
    /// The plans.
    pub plan: &'g DirectPlan,
    /// The runtime (calls by index, the extrinsic format).
    pub runtime: &'g Runtime,
    /// Where the dynamic steps decode and state their misfits.
    pub runner: Runner<'r, 'g>,
}

impl<'r, 'g> BlockReader<'r, 'g> {
    /// A reader of a runtime's blocks by its `plan`, with its decoding
    /// context (which has its [`Runtime`]); `doc` is where the dynamic
    /// steps decode. `None` without a runtime.
    pub(crate) fn new(
        plan: &'g DirectPlan,
        ctx: Context<'g>,
        doc: &'r mut Document<'g>,
    ) -> Option<Self> {
        Some(BlockReader {
            plan,
            runtime: ctx.runtime?,
            runner: Runner {
                ctx,
                doc,
                base_depth: 0,
                misfit: None,
            },
        })
    }
}

/// Tables a block's item appended to, with their lengths before it: what
/// is taken back when the item turns out not to decode.
#[derive(Default)]
struct Journal(Vec<(usize, usize)>);

impl Journal {
    fn note(&mut self, at: usize, len: usize) {
        if !self.0.iter().any(|(t, _)| *t == at) {
            self.0.push((at, len));
        }
    }

    fn undo(self, typed: &mut TypedRows) {
        for (at, len) in self.0 {
            typed.truncate_table(at, len);
        }
    }
}

impl BlockReader<'_, '_> {
    /// Appends the rows of the block's `System.Events` value `bytes` (as
    /// [`TypedRows::push_events`] does with its decoded value); `false`
    /// when the plans do not read this runtime's events (nothing done).
    /// An event that does not fit its table is `report`ed; bytes that do not
    /// decode add nothing.
    pub(crate) fn push_events(
        &mut self,
        typed: &mut TypedRows,
        place: &Place<'_>,
        bytes: &[u8],
        report: &mut dyn FnMut(&Item, &str),
    ) -> bool {
        let Some(plan) = &self.plan.events else {
            return false;
        };
        let mut journal = Journal::default();
        let mut pending = Pending::new();
        match self.events(plan, typed, place, bytes, &mut journal, &mut pending) {
            Ok(()) => {
                for (item, error) in pending {
                    report(&item, &error);
                }
            }
            Err(Stop::Invalid) => journal.undo(typed),
        }
        true
    }

    fn events(
        &mut self,
        plan: &EventsPlan,
        typed: &mut TypedRows,
        place: &Place<'_>,
        bytes: &[u8],
        journal: &mut Journal,
        pending: &mut Pending,
    ) -> Result<(), Stop> {
        let mut input = Input::new(bytes, 0);
        let n = input.length(plan.record_min)?;
        self.runner.base_depth = EVENT_DEPTH;
        for i in 0..n {
            let mut phase: Option<&str> = None;
            let mut extrinsic = None;
            // The event's table (its position in `typed`) and its rows before it.
            let mut row: Option<(usize, usize)> = None;
            let mut names = None;
            for field in &plan.fields {
                match field {
                    RecordField::Phase(p) => {
                        let at = p.at[input.byte()? as usize].ok_or(Stop::Invalid)?;
                        let (name, payload) = &p.variants[at as usize];
                        match payload {
                            PhasePayload::Unit => {}
                            PhasePayload::Extrinsic => {
                                let b = input.take(4)?;
                                extrinsic = Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                            }
                            PhasePayload::Skip(types) => {
                                for t in types {
                                    self.skip(*t, &mut input)?;
                                }
                            }
                        }
                        phase = Some(name.as_str());
                    }
                    RecordField::Event(events) => {
                        let pi = input.byte()?;
                        let p = events.at[pi as usize].ok_or(Stop::Invalid)?;
                        let pallet = events.pallets[p as usize].as_ref().ok_or(Stop::Invalid)?;
                        let e = pallet.at[input.byte()? as usize].ok_or(Stop::Invalid)?;
                        let event = &pallet.events[e as usize];
                        names = Some((pallet.name.as_str(), event.name.as_str()));
                        row = self.item(typed, place, event, &mut input, journal)?;
                    }
                    RecordField::Skip(Skip::FixedSeq(width)) => {
                        // The length is checked against the rest first.
                        let n = input.length(*width)?;
                        input.take(n * *width as usize)?;
                    }
                    RecordField::Skip(Skip::Dynamic(ty)) => self.skip(*ty, &mut input)?,
                }
            }
            let (Some(phase), Some((pallet, name))) = (phase, names) else {
                continue;
            };
            let item = Item::Event(i);
            match row {
                Some((at, _)) => {
                    let misfit = self.runner.misfit.take();
                    let rows = typed.table_rows(at);
                    match misfit {
                        None => rows.push_place(place, extrinsic, i as u32, phase),
                        Some(error) => {
                            let before = row.map_or(0, |(_, b)| b);
                            rows.truncate(before);
                            let error = format!("typed table events/{}: {error}", rows.def.name());
                            pending.push((item, error));
                        }
                    }
                }
                None => pending.push((
                    item,
                    format!("typed table events/{pallet}.{name}: not in the runtime's event enum"),
                )),
            }
        }
        if !input.at_end() {
            return Err(Stop::Invalid);
        }
        Ok(())
    }

    /// Reads an item's fields into its table's columns (the place columns
    /// are left to the caller, once the rest of the item decodes): the
    /// table's position in `typed` and its rows before, or `None` when the
    /// item has no table (its fields read and dropped).
    fn item(
        &mut self,
        typed: &mut TypedRows,
        place: &Place<'_>,
        item: &ItemPlan,
        input: &mut Input<'_>,
        journal: &mut Journal,
    ) -> Result<Option<(usize, usize)>, Stop> {
        self.runner.misfit = None;
        let Some((at, rows)) = item.table.and_then(|t| typed.table_at(place, t)) else {
            for t in &item.types {
                self.skip(*t, input)?;
            }
            return Ok(None);
        };
        let before = rows.len();
        journal.note(at, before);
        for ((op, b), name) in item.ops.iter().zip(rows.columns_mut()).zip(&item.columns) {
            let fitted = self.runner.misfit.is_none();
            self.runner.run(op, b, input)?;
            // As the old path words it: the column, then why.
            if let (true, Some(why)) = (fitted, &mut self.runner.misfit) {
                *why = format!("column {name}: {why}");
            }
        }
        Ok(Some((at, before)))
    }

    /// Reads one value of `ty` with the dynamic decoder and drops it (its
    /// depth limit counted from where the item's value starts).
    fn skip(&mut self, ty: TypeIdx, input: &mut Input<'_>) -> Result<(), Stop> {
        let ctx = Context {
            max_depth: self
                .runner
                .ctx
                .max_depth
                .saturating_sub(self.runner.base_depth),
            ..self.runner.ctx
        };
        let used = self
            .runner
            .doc
            .decode_prefix_into(&ctx, ty, input.rest())
            .map_err(|_| Stop::Invalid)?;
        input.pos += used;
        Ok(())
    }

    /// Appends the rows of extrinsic `index`'s call (and the calls nested
    /// in it), as [`TypedRows::push_calls`] does with its decoded value;
    /// `false` when the plans do not read this runtime's extrinsics.
    pub(crate) fn push_calls(
        &mut self,
        typed: &mut TypedRows,
        place: &Place<'_>,
        index: u32,
        bytes: &[u8],
        report: &mut dyn FnMut(&Item, &str),
    ) -> bool {
        let Some(plan) = &self.plan.calls else {
            return false;
        };
        let mut journal = Journal::default();
        let mut pending = Pending::new();
        match self.extrinsic(plan, typed, place, index, bytes, &mut journal, &mut pending) {
            Ok(()) => {
                for (item, error) in pending {
                    report(&item, &error);
                }
            }
            Err(Stop::Invalid) => journal.undo(typed),
        }
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn extrinsic(
        &mut self,
        plan: &CallsPlan,
        typed: &mut TypedRows,
        place: &Place<'_>,
        index: u32,
        bytes: &[u8],
        journal: &mut Journal,
        pending: &mut Pending,
    ) -> Result<(), Stop> {
        // The length prefix covers the rest, exactly (as a whole decode).
        let mut input = Input::new(bytes, 0);
        let len = input.length(1)?;
        if input.pos + len != bytes.len() {
            return Err(Stop::Invalid);
        }
        // The preamble, address, signature and extensions: the dynamic
        // decoder's, one level in.
        self.runner.base_depth = 1;
        let x = &self.runtime.extrinsic;
        match Preamble::from_byte(input.byte()?).ok_or(Stop::Invalid)? {
            Preamble::Bare(_) => {}
            Preamble::Signed => {
                let (Some(address), Some(signature)) = (x.address, x.signature) else {
                    return Err(Stop::Invalid);
                };
                self.skip(address, &mut input)?;
                self.skip(signature, &mut input)?;
                for ext in &x.extensions {
                    self.skip(ext.ty, &mut input)?;
                }
            }
            Preamble::General => {
                let version = input.byte()?;
                let extensions = x.general_extensions.get(&version).ok_or(Stop::Invalid)?;
                for ext in extensions {
                    self.skip(ext.ty, &mut input)?;
                }
            }
        }
        let start = input.pos;
        let pi = input.byte()?;
        let ci = input.byte()?;
        let call = plan.calls.get(&(pi, ci)).ok_or(Stop::Invalid)?;
        if call.nests {
            // Read whole by the dynamic decoder: its nested calls become
            // rows as the old path makes them.
            input.pos = start;
            let ctx = Context {
                max_depth: self.runner.ctx.max_depth.saturating_sub(1),
                ..self.runner.ctx
            };
            let used = self
                .runner
                .doc
                .decode_prefix_into(&ctx, plan.call_ty, input.rest())
                .map_err(|_| Stop::Invalid)?;
            input.pos += used;
            if !input.at_end() {
                return Err(Stop::Invalid);
            }
            let nested = self.runner.doc.calls() != Some(1);
            typed.push_calls(
                place,
                index,
                self.runner.doc.root(),
                nested,
                &mut |item, error| pending.push((*item, error.to_string())),
            );
            return Ok(());
        }
        self.runner.base_depth = CALL_DEPTH;
        let row = self.item(typed, place, call, &mut input, journal)?;
        if !input.at_end() {
            return Err(Stop::Invalid);
        }
        let item = Item::Call {
            extrinsic: index,
            call: 0,
        };
        let pallet = self.runtime.pallet_by_index(pi).map_or("", |p| &*p.name);
        match row {
            Some((at, before)) => {
                let rows = typed.table_rows(at);
                match self.runner.misfit.take() {
                    None => rows.push_place(place, Some(index), 0, ""),
                    Some(error) => {
                        rows.truncate(before);
                        let error = format!("typed table calls/{}: {error}", rows.def.name());
                        pending.push((item, error));
                    }
                }
            }
            None => pending.push((
                item,
                format!(
                    "typed table calls/{pallet}.{}: not in the runtime's call enum",
                    call.name
                ),
            )),
        }
        Ok(())
    }
}
