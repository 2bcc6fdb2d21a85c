//! Decoding SCALE bytes against a [`TypeGraph`] node into a [`Sink`]
//! (py-scale-codec 1.2.12's value shapes).
//!
//! Guarantees on hostile input: no panics; a length prefix is checked against
//! the remaining input (times the element's minimum encoded size) before
//! anything is allocated; nesting is capped ([`DEFAULT_MAX_DEPTH`]); every
//! error names the type, the byte offset and what failed.

use std::marker::PhantomData;
use std::ops::DerefMut;

use ferroscale_core::value::Value;

use crate::error::Error;
use crate::graph::{BitStore, Fields, Node, Prim, Special, TypeGraph, TypeIdx, Variant};
use crate::runtime::{Runtime, KEYS};
use crate::sink::{Sink, ValueSink};
use crate::typed::TypedFallback;

/// Default nesting limit.
pub const DEFAULT_MAX_DEPTH: u32 = 256;

/// Length prefixes of zero-sized elements above this are refused (no input
/// bytes bound them). The same number bounds, per decode, how many elements
/// that consumed no input may be produced in all: otherwise nested
/// sequences (`Vec<Vec<()>>`) multiply it by every few input bytes.
const MAX_ZERO_SIZED_ELEMENTS: u64 = 1 << 16;

/// Everything a decode reads besides the bytes.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The type graph.
    pub graph: &'a TypeGraph,
    /// The active runtime (needed by Call and Extrinsic).
    pub runtime: Option<&'a Runtime>,
    /// SS58 format for AccountId rendering; `None` renders `"0x…"`.
    pub ss58_format: Option<u16>,
    /// Nesting limit.
    pub max_depth: u32,
    /// Generated types to decode matching portable types with ([`crate::typed`]).
    pub typed: Option<&'a TypedFallback>,
}

impl<'a> Context<'a> {
    /// A context over `graph` without runtime or ss58 format.
    pub fn new(graph: &'a TypeGraph) -> Self {
        Context {
            graph,
            runtime: None,
            ss58_format: None,
            max_depth: DEFAULT_MAX_DEPTH,
            typed: None,
        }
    }

    /// With generated types for the portable types they match (built over
    /// this context's graph: [`crate::registry::Registry::context`] passes
    /// its own).
    pub fn with_typed(mut self, typed: Option<&'a TypedFallback>) -> Self {
        self.typed = typed;
        self
    }

    /// With an active runtime.
    pub fn with_runtime(mut self, runtime: &'a Runtime) -> Self {
        self.runtime = Some(runtime);
        self
    }

    /// With an ss58 format for account ids.
    pub fn with_ss58(mut self, format: Option<u16>) -> Self {
        self.ss58_format = format;
        self
    }
}

/// Decodes all of `bytes` as `ty`; trailing bytes are an
/// [`Error::RemainingScaleBytesNotEmpty`].
pub fn decode<'a, S: Sink<'a>>(
    ctx: &Context<'a>,
    ty: TypeIdx,
    bytes: &[u8],
    sink: &mut S,
) -> Result<S::Out, Error> {
    let (v, used) = decode_prefix(ctx, ty, bytes, sink)?;
    all_used(ctx, ty, bytes, used)?;
    Ok(v)
}

/// [`Error::RemainingScaleBytesNotEmpty`] unless the value of `ty` used all
/// of `bytes`.
fn all_used(ctx: &Context<'_>, ty: TypeIdx, bytes: &[u8], used: usize) -> Result<(), Error> {
    if used == bytes.len() {
        return Ok(());
    }
    Err(Error::RemainingScaleBytesNotEmpty {
        ty: ctx.graph.describe(ty),
        offset: used,
        length: bytes.len(),
    })
}

/// Decodes a `ty` from the start of `bytes`; returns the value and the bytes consumed.
pub fn decode_prefix<'a, S: Sink<'a>>(
    ctx: &Context<'a>,
    ty: TypeIdx,
    bytes: &[u8],
    sink: &mut S,
) -> Result<(S::Out, usize), Error> {
    let mut d = Decoder::new(ctx, bytes, sink);
    let v = d.node(ty).map_err(|e| *e)?;
    Ok((v, d.pos))
}

/// [`decode`] into a sink the decoder holds by value (one indirection fewer
/// per sink call than through `&mut`); gives the sink back.
pub(crate) fn decode_owned<'a, S: Sink<'a>>(
    ctx: &Context<'a>,
    ty: TypeIdx,
    bytes: &[u8],
    sink: S,
) -> (Result<S::Out, Error>, S) {
    let mut d = Decoder::new(ctx, bytes, Owned(sink));
    let v = d.node(ty).map_err(|e| *e);
    let v = v.and_then(|v| all_used(ctx, ty, bytes, d.pos).map(|()| v));
    (v, d.sink.0)
}

/// A sink held by value (see [`decode_owned`]).
struct Owned<S>(S);

impl<S> std::ops::Deref for Owned<S> {
    type Target = S;
    fn deref(&self) -> &S {
        &self.0
    }
}

impl<S> std::ops::DerefMut for Owned<S> {
    fn deref_mut(&mut self) -> &mut S {
        &mut self.0
    }
}

/// Decodes all of `bytes` as `ty` into a [`Value`].
pub fn decode_value(ctx: &Context<'_>, ty: TypeIdx, bytes: &[u8]) -> Result<Value, Error> {
    decode(ctx, ty, bytes, &mut ValueSink)
}

/// The decoder's state; the sink is reached through `B`: `&mut S` for the
/// public entry points, the sink itself for [`decode_owned`].
struct Decoder<'c, 'a, S: Sink<'a>, B: DerefMut<Target = S>> {
    ctx: &'c Context<'a>,
    data: &'c [u8],
    pos: usize,
    depth: u32,
    /// How many more sequence elements that consumed no input this decode
    /// may produce (see [`MAX_ZERO_SIZED_ELEMENTS`]).
    zero_sized_left: u64,
    /// Element sizes of the sequences seen in this decode.
    min_sizes: MinSizeMemo,
    sink: B,
    _sink: PhantomData<fn() -> S>,
}

/// A small direct-mapped memo of [`min_size`] by type: a decode meets the
/// same few sequence element types over and over (every event record's
/// topics), and `min_size` walks the element's type each time.
#[derive(Clone, Copy)]
struct MinSizeMemo([(u32, u64); 16]);

impl Default for MinSizeMemo {
    fn default() -> Self {
        MinSizeMemo([(u32::MAX, 0); 16])
    }
}

impl MinSizeMemo {
    #[inline]
    fn get(&mut self, graph: &TypeGraph, ty: TypeIdx) -> u64 {
        let slot = &mut self.0[ty.0 as usize % 16];
        if slot.0 != ty.0 {
            *slot = (ty.0, min_size(graph, ty, 0));
        }
        slot.1
    }
}

/// The decoder's error: boxed, so that a `Result` of a sink's small output
/// is returned in registers on the hot path (an [`Error`] is 64 bytes).
type Fail = Box<Error>;

/// The parts of a decoded event: (pallet index, event index, pallet name, event name, attributes).
type EventParts<'g, O> = (u8, u8, &'g crate::graph::Name, &'g crate::graph::Name, O);

impl<'c, 'a: 'c, S: Sink<'a>, B: DerefMut<Target = S>> Decoder<'c, 'a, S, B> {
    fn new(ctx: &'c Context<'a>, data: &'c [u8], sink: B) -> Self {
        Decoder {
            ctx,
            data,
            pos: 0,
            depth: 0,
            zero_sized_left: MAX_ZERO_SIZED_ELEMENTS,
            min_sizes: MinSizeMemo::default(),
            sink,
            _sink: PhantomData,
        }
    }

    /// A decoder that goes on from this one over other bytes (`data`, from
    /// `pos`) or another graph (`ctx`): the same sink, depth and budget of
    /// elements that take no input (the caller takes back what it used).
    fn nested<'n>(
        &'n mut self,
        ctx: &'n Context<'a>,
        data: &'n [u8],
        pos: usize,
    ) -> Decoder<'n, 'a, S, &'n mut S> {
        let (depth, zero_sized_left) = (self.depth, self.zero_sized_left);
        let mut sub = Decoder::new(ctx, data, &mut *self.sink);
        sub.pos = pos;
        sub.depth = depth;
        sub.zero_sized_left = zero_sized_left;
        sub
    }

    fn graph(&self) -> &'a TypeGraph {
        self.ctx.graph
    }

    fn invalid(&self, ty: TypeIdx, offset: usize, reason: impl Into<String>) -> Fail {
        Box::new(Error::Invalid {
            ty: self.graph().describe(ty),
            offset,
            reason: reason.into(),
        })
    }

    #[inline]
    fn take(&mut self, n: usize, ty: TypeIdx) -> Result<&'c [u8], Fail> {
        let rest = self.data.len() - self.pos;
        if n > rest {
            return Err(Box::new(Error::NotEnoughBytes {
                ty: self.graph().describe(ty),
                offset: self.pos,
                needed: n as u64,
                available: rest,
            }));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    #[inline]
    fn byte(&mut self, ty: TypeIdx) -> Result<u8, Fail> {
        Ok(self.take(1, ty)?[0])
    }

    #[inline]
    fn array<const N: usize>(&mut self, ty: TypeIdx) -> Result<[u8; N], Fail> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, ty)?);
        Ok(a)
    }

    fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// A SCALE compact integer (up to 128 bits; wider is an error).
    fn compact(&mut self, ty: TypeIdx) -> Result<u128, Fail> {
        let start = self.pos;
        let b0 = self.byte(ty)?;
        Ok(match b0 & 3 {
            0 => (b0 >> 2) as u128,
            1 => (u16::from_le_bytes([b0, self.byte(ty)?]) >> 2) as u128,
            2 => {
                let rest = self.array::<3>(ty)?;
                (u32::from_le_bytes([b0, rest[0], rest[1], rest[2]]) >> 2) as u128
            }
            _ => {
                let n = (b0 >> 2) as usize + 4;
                let bytes = self.take(n, ty)?;
                if n > 16 && bytes[16..].iter().any(|&b| b != 0) {
                    return Err(self.invalid(
                        ty,
                        start,
                        format!("compact integer of {n} bytes exceeds 128 bits"),
                    ));
                }
                let mut le = [0u8; 16];
                let k = n.min(16);
                le[..k].copy_from_slice(&bytes[..k]);
                u128::from_le_bytes(le)
            }
        })
    }

    /// A compact length, checked against the remaining input: `len` elements
    /// of at least `min_size` bytes each must fit.
    fn length(&mut self, ty: TypeIdx, min_size: u64) -> Result<usize, Fail> {
        let start = self.pos;
        let len = self.compact(ty)?;
        let rest = self.remaining() as u128;
        let fits = if min_size == 0 {
            len <= MAX_ZERO_SIZED_ELEMENTS as u128
        } else {
            len.saturating_mul(min_size as u128) <= rest
        };
        if !fits {
            return Err(Box::new(Error::NotEnoughBytes {
                ty: self.graph().describe(ty),
                offset: start,
                needed: u64::try_from(len.saturating_mul(min_size.max(1) as u128))
                    .unwrap_or(u64::MAX),
                available: rest as usize,
            }));
        }
        Ok(len as usize)
    }

    /// Decodes one value of `ty`. Inlined into its callers up to the
    /// dispatch, so that the commonest leaves (primitives, compacts, account
    /// ids) go straight to their decoder instead of through two jump tables.
    #[inline]
    fn node(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        let graph = self.graph();
        let Some(node) = graph.get(ty) else {
            return Err(self.invalid(ty, self.pos, "type index out of range"));
        };
        if self.depth >= self.ctx.max_depth {
            return Err(self.depth_limit(ty));
        }
        match (node, self.ctx.typed) {
            (Node::Prim(p), None) => self.prim(ty, *p),
            (Node::Compact(inner), None) => self.compact_value(ty, *inner),
            (Node::Special(Special::AccountId), None) => self.account(ty),
            _ => self.composite(ty, node),
        }
    }

    /// A `Compact<inner>` value.
    #[inline(never)]
    fn compact_value(&mut self, ty: TypeIdx, inner: TypeIdx) -> Result<S::Out, Fail> {
        // Compact<u256> or wider inner types: allow up to 32 bytes.
        if is_256(self.graph(), inner) {
            return self.compact_256(ty);
        }
        let v = self.compact(ty)?;
        Ok(self.sink.uint(v))
    }

    #[cold]
    #[inline(never)]
    fn depth_limit(&self, ty: TypeIdx) -> Fail {
        Box::new(Error::DepthLimit {
            ty: self.graph().describe(ty),
            offset: self.pos,
            limit: self.ctx.max_depth,
        })
    }

    /// [`Decoder::node`] for everything but those leaves (and for them too
    /// when there are generated types to try first): the typed fallback,
    /// then the dynamic decode one level deeper.
    #[inline(never)]
    fn composite(&mut self, ty: TypeIdx, node: &'a Node) -> Result<S::Out, Fail> {
        if let Some(typed) = self.ctx.typed {
            if let Some(v) = self.typed(typed, ty) {
                return Ok(v);
            }
        }
        self.depth += 1;
        let r = self.node_inner(ty, node);
        self.depth -= 1;
        r
    }

    /// Decodes `ty` through a generated type, if one fits here
    /// ([`crate::typed`]): `None` leaves it to the dynamic path, also when
    /// the typed decoder fails (so errors stay the dynamic ones).
    #[inline(never)]
    fn typed(&mut self, typed: &TypedFallback, ty: TypeIdx) -> Option<S::Out> {
        let entry = typed.entry(ty)?;
        if entry.has_accounts && self.ctx.ss58_format.is_some() {
            return None;
        }
        // The dynamic decoder could not hit its depth limit inside.
        let room = self.ctx.max_depth.checked_sub(self.depth)?;
        if entry.depth > room {
            return None;
        }
        let rest = self.data.get(self.pos..)?;
        let mut input = rest;
        let v = (entry.decode)(room, &mut input).ok()?;
        self.pos += rest.len() - input.len();
        typed.record_hit();
        Some(self.sink.value(v))
    }

    fn node_inner(&mut self, ty: TypeIdx, node: &'a Node) -> Result<S::Out, Fail> {
        match node {
            Node::Prim(p) => self.prim(ty, *p),
            Node::Null => Ok(self.sink.null()),
            Node::Compact(inner) => self.compact_value(ty, *inner),
            Node::Bytes => {
                let n = self.length(ty, 1)?;
                let b = self.take(n, ty)?;
                Ok(self.sink.bytes(b))
            }
            Node::ByteArray(n) => {
                let b = self.take(*n as usize, ty)?;
                Ok(self.sink.hex(b))
            }
            Node::Array(inner, n) => {
                let min = self.min_sizes.get(self.ctx.graph, *inner);
                let n = *n as usize;
                if min == 0 && n as u64 > MAX_ZERO_SIZED_ELEMENTS {
                    return Err(self.invalid(
                        ty,
                        self.pos,
                        format!("array of {n} elements that may take no input bytes (limit {MAX_ZERO_SIZED_ELEMENTS})"),
                    ));
                }
                if (n as u128) * (min as u128) > self.remaining() as u128 {
                    return Err(Box::new(Error::NotEnoughBytes {
                        ty: self.graph().describe(ty),
                        offset: self.pos,
                        needed: (n as u64).saturating_mul(min),
                        available: self.remaining(),
                    }));
                }
                self.list_of(*inner, n)
            }
            Node::Seq(inner) => {
                let min = self.min_sizes.get(self.ctx.graph, *inner);
                let n = self.length(ty, min)?;
                self.list_of(*inner, n)
            }
            Node::Tuple(items) => {
                if items.len() == 1 {
                    return self.node(items[0]);
                }
                let mut seq = self.sink.seq_begin(items.len());
                for &t in items {
                    let v = self.node(t)?;
                    self.sink.seq_push(&mut seq, v);
                }
                Ok(self.sink.tuple_end(seq))
            }
            Node::Struct(fields) => {
                let mut d = self.sink.dict_begin(fields.len());
                for f in fields {
                    let v = self.node(f.ty)?;
                    self.sink.dict_insert(&mut d, &f.name, v);
                }
                Ok(self.sink.dict_end(d))
            }
            Node::Enum(variants) => {
                let var = self.variant(ty, variants)?;
                Ok(match self.payload(&var.fields)? {
                    None => self.sink.name(&var.name),
                    Some(v) => self.sink.single_entry(&var.name, v),
                })
            }
            Node::Option(inner) => {
                let at = self.pos;
                match self.byte(ty)? {
                    0 => Ok(self.sink.null()),
                    1 => self.node(*inner),
                    b => Err(self.invalid(ty, at, format!("invalid Option discriminant {b}"))),
                }
            }
            Node::Result(ok, err) => {
                let at = self.pos;
                let (name, t) = match self.byte(ty)? {
                    0 => (&result_names().0, *ok),
                    1 => (&result_names().1, *err),
                    b => {
                        return Err(self.invalid(
                            ty,
                            at,
                            format!("invalid Result discriminant {b}"),
                        ))
                    }
                };
                let v = self.node(t)?;
                Ok(self.sink.single_entry(name, v))
            }
            Node::Set { byte_len, flags } => self.set(ty, *byte_len, flags),
            Node::BitSeq { store, .. } => self.bit_seq(ty, *store),
            Node::Map(k, v) => self.map(ty, *k, *v),
            // The specials met most often, without the second dispatch in `special`.
            Node::Special(Special::AccountId) => self.account(ty),
            Node::Special(Special::EventRecord(st)) => self.event_record(ty, *st),
            Node::Special(s) => self.special(ty, s),
            Node::Unresolved(name) => Err(Box::new(Error::Unresolved {
                name: name.to_string(),
            })),
        }
    }

    #[inline(never)]
    fn set(
        &mut self,
        ty: TypeIdx,
        byte_len: u8,
        flags: &'a [(crate::graph::Name, u64)],
    ) -> Result<S::Out, Fail> {
        {
            {
                let n = byte_len as usize;
                if n > 16 {
                    return Err(self.invalid(
                        ty,
                        self.pos,
                        format!("set of {n} bytes is not supported"),
                    ));
                }
                let b = self.take(n, ty)?;
                let mut le = [0u8; 16];
                le[..n].copy_from_slice(b);
                let mask = u128::from_le_bytes(le);
                let mut seq = self.sink.seq_begin(flags.len());
                if mask > 0 {
                    for (name, bit) in flags {
                        if mask & (*bit as u128) > 0 {
                            let v = self.sink.name(name);
                            self.sink.seq_push(&mut seq, v);
                        }
                    }
                }
                Ok(self.sink.list_end(seq))
            }
        }
    }

    #[inline(never)]
    fn map(&mut self, ty: TypeIdx, k: TypeIdx, v: TypeIdx) -> Result<S::Out, Fail> {
        let min = self
            .min_sizes
            .get(self.ctx.graph, k)
            .saturating_add(self.min_sizes.get(self.ctx.graph, v));
        let n = self.length(ty, min)?;
        let mut seq = self.sink.seq_begin(n);
        for _ in 0..n {
            let before = self.pos;
            let kv = self.node(k)?;
            let vv = self.node(v)?;
            self.charge_zero_sized(ty, before)?;
            let mut pair = self.sink.seq_begin(2);
            self.sink.seq_push(&mut pair, kv);
            self.sink.seq_push(&mut pair, vv);
            let t = self.sink.tuple_end(pair);
            self.sink.seq_push(&mut seq, t);
        }
        Ok(self.sink.list_end(seq))
    }

    fn list_of(&mut self, inner: TypeIdx, n: usize) -> Result<S::Out, Fail> {
        let mut seq = self.sink.seq_begin(n);
        // A list of event records (`System.Events`, the value decoded most
        // often) goes to each record directly: the element's lookup, depth
        // check and two dispatches are the same for every record.
        if let (Some(Node::Special(Special::EventRecord(st))), None) =
            (self.graph().get(inner), self.ctx.typed)
        {
            if self.depth < self.ctx.max_depth {
                self.depth += 1;
                let filled = self.records(inner, *st, n, &mut seq);
                self.depth -= 1;
                filled?;
                return Ok(self.sink.list_end(seq));
            }
        }
        for _ in 0..n {
            let before = self.pos;
            let v = self.node(inner)?;
            self.charge_zero_sized(inner, before)?;
            self.sink.seq_push(&mut seq, v);
        }
        Ok(self.sink.list_end(seq))
    }

    /// The `n` event records of [`Decoder::list_of`] once the depth is checked.
    fn records(
        &mut self,
        ty: TypeIdx,
        st: TypeIdx,
        n: usize,
        seq: &mut S::Seq,
    ) -> Result<(), Fail> {
        for _ in 0..n {
            let before = self.pos;
            let v = self.event_record(ty, st)?;
            self.charge_zero_sized(ty, before)?;
            self.sink.seq_push(seq, v);
        }
        Ok(())
    }

    /// Counts an element that consumed no input (it started at `before`)
    /// against this decode's budget of such elements.
    fn charge_zero_sized(&mut self, ty: TypeIdx, before: usize) -> Result<(), Fail> {
        if self.pos != before {
            return Ok(());
        }
        if self.zero_sized_left == 0 {
            return Err(self.invalid(
                ty,
                self.pos,
                format!("more than {MAX_ZERO_SIZED_ELEMENTS} elements that take no input bytes in one value"),
            ));
        }
        self.zero_sized_left -= 1;
        Ok(())
    }

    #[inline(never)]
    fn compact_256(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        let start = self.pos;
        let b0 = self.byte(ty)?;
        if b0 & 3 != 3 {
            self.pos = start;
            let v = self.compact(ty)?;
            return Ok(self.sink.uint(v));
        }
        let n = (b0 >> 2) as usize + 4;
        let bytes = self.take(n, ty)?;
        if n > 32 && bytes[32..].iter().any(|&b| b != 0) {
            return Err(self.invalid(
                ty,
                start,
                format!("compact integer of {n} bytes exceeds 256 bits"),
            ));
        }
        let mut le = [0u8; 32];
        let k = n.min(32);
        le[..k].copy_from_slice(&bytes[..k]);
        Ok(self.sink.u256(&le))
    }

    /// Reads an enum's discriminant: its variant. (The payload is read
    /// apart, by [`Decoder::payload`], so that each result comes back in
    /// registers.)
    fn variant(&mut self, ty: TypeIdx, variants: &'a [Variant]) -> Result<&'a Variant, Fail> {
        let at = self.pos;
        let idx = self.byte(ty)?;
        match variant_at(variants, idx) {
            Some(var) => Ok(var),
            None => Err(self.invalid(ty, at, format!("index '{idx}' not present in enum"))),
        }
    }

    /// A variant's payload, `None` for a unit variant.
    #[inline]
    fn payload(&mut self, fields: &'a Fields) -> Result<Option<S::Out>, Fail> {
        if matches!(fields, Fields::Unit) {
            return Ok(None);
        }
        self.fields(fields).map(Some)
    }

    /// The value of a variant payload: the single value, a tuple, a dict,
    /// or Python `None` for a unit variant (event attributes).
    fn fields(&mut self, fields: &'a Fields) -> Result<S::Out, Fail> {
        match fields {
            Fields::Unit => Ok(self.sink.null()),
            Fields::Unnamed(tys) if tys.len() == 1 => self.node(tys[0]),
            Fields::Unnamed(tys) => {
                let mut seq = self.sink.seq_begin(tys.len());
                for &t in tys {
                    let v = self.node(t)?;
                    self.sink.seq_push(&mut seq, v);
                }
                Ok(self.sink.tuple_end(seq))
            }
            Fields::Named(fs) => {
                let mut d = self.sink.dict_begin(fs.len());
                for f in fs {
                    let v = self.node(f.ty)?;
                    self.sink.dict_insert(&mut d, &f.name, v);
                }
                Ok(self.sink.dict_end(d))
            }
        }
    }

    #[inline(never)]
    fn prim(&mut self, ty: TypeIdx, p: Prim) -> Result<S::Out, Fail> {
        Ok(match p {
            Prim::Bool => {
                let at = self.pos;
                match self.byte(ty)? {
                    0 => self.sink.bool(false),
                    1 => self.sink.bool(true),
                    b => return Err(self.invalid(ty, at, format!("invalid bool byte {b}"))),
                }
            }
            Prim::U8 => {
                let v = self.byte(ty)?;
                self.sink.uint(v as u128)
            }
            Prim::U16 => {
                let v = u16::from_le_bytes(self.array(ty)?);
                self.sink.uint(v as u128)
            }
            Prim::U32 => {
                let v = u32::from_le_bytes(self.array(ty)?);
                self.sink.uint(v as u128)
            }
            Prim::U64 => {
                let v = u64::from_le_bytes(self.array(ty)?);
                self.sink.uint(v as u128)
            }
            Prim::U128 => {
                let v = u128::from_le_bytes(self.array(ty)?);
                self.sink.uint(v)
            }
            Prim::U256 => {
                let le: [u8; 32] = self.array(ty)?;
                self.sink.u256(&le)
            }
            Prim::I8 => {
                let v = self.byte(ty)? as i8;
                self.sink.int(v as i128)
            }
            Prim::I16 => {
                let v = i16::from_le_bytes(self.array(ty)?);
                self.sink.int(v as i128)
            }
            Prim::I32 => {
                let v = i32::from_le_bytes(self.array(ty)?);
                self.sink.int(v as i128)
            }
            Prim::I64 => {
                let v = i64::from_le_bytes(self.array(ty)?);
                self.sink.int(v as i128)
            }
            Prim::I128 => {
                let v = i128::from_le_bytes(self.array(ty)?);
                self.sink.int(v)
            }
            Prim::I256 => {
                let le: [u8; 32] = self.array(ty)?;
                self.sink.i256(&le)
            }
            Prim::Char => {
                let at = self.pos;
                let v = u32::from_le_bytes(self.array(ty)?);
                match char::from_u32(v) {
                    Some(c) => {
                        let mut buf = [0u8; 4];
                        self.sink.text(c.encode_utf8(&mut buf))
                    }
                    None => return Err(self.invalid(ty, at, format!("{v:#x} is not a char"))),
                }
            }
            Prim::Str => {
                let n = self.length(ty, 1)?;
                let b = self.take(n, ty)?;
                self.sink.bytes(b)
            }
        })
    }

    #[inline(never)]
    fn bit_seq(&mut self, ty: TypeIdx, store: BitStore) -> Result<S::Out, Fail> {
        let start = self.pos;
        let bits = self.compact(ty)?;
        let word_bits = 8 * store.bytes() as u128;
        let words = bits.div_ceil(word_bits);
        let nbytes = words.saturating_mul(store.bytes() as u128);
        if nbytes > self.remaining() as u128 {
            return Err(Box::new(Error::NotEnoughBytes {
                ty: self.graph().describe(ty),
                offset: start,
                needed: u64::try_from(nbytes).unwrap_or(u64::MAX),
                available: self.remaining(),
            }));
        }
        let bytes = self.take(nbytes as usize, ty)?;
        let s = render_bits(bytes, bits as usize);
        Ok(self.sink.text(&s))
    }

    #[inline(never)]
    fn account(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        let raw: &[u8] = self.take(32, ty)?;
        match (self.ctx.ss58_format, <&[u8; 32]>::try_from(raw)) {
            (Some(format), Ok(key)) if crate::account::format_allowed(format) => {
                Ok(self.sink.ss58_account(key, format))
            }
            _ => Ok(self.sink.hex(raw)),
        }
    }

    fn runtime(&self, ty: TypeIdx) -> Result<&'a Runtime, Fail> {
        self.ctx.runtime.ok_or_else(|| {
            Box::new(Error::NoRuntime {
                ty: self.graph().describe(ty),
            })
        })
    }

    #[inline(never)]
    fn special(&mut self, ty: TypeIdx, s: &'a Special) -> Result<S::Out, Fail> {
        let k = &*KEYS;
        match s {
            // `node_inner` sends account ids and event records to their
            // decoders itself; they are here for completeness.
            Special::AccountId => self.account(ty),
            Special::EthereumAccountId => {
                let b = self.take(20, ty)?;
                Ok(self.sink.hex(b))
            }
            Special::AccountIndex => {
                let v = u32::from_le_bytes(self.array(ty)?);
                Ok(self.sink.uint(v as u128))
            }
            Special::MultiAddress(e) => {
                let Some(Node::Enum(variants)) = self.graph().get(*e) else {
                    return Err(self.invalid(ty, self.pos, "MultiAddress is not an enum"));
                };
                let var = self.variant(*e, variants)?;
                Ok(match (var.index, self.payload(&var.fields)?) {
                    (0 | 1, Some(v)) => v,
                    (_, None) => self.sink.name(&var.name),
                    (_, Some(v)) => self.sink.single_entry(&var.name, v),
                })
            }
            Special::LegacyAddress => {
                let b = self.byte(ty)?;
                let n = match b {
                    0xff => 32,
                    0xfc => 2,
                    0xfd => 4,
                    0xfe => 8,
                    _ => return Ok(self.sink.hex_digits(&[b])),
                };
                let key = self.take(n, ty)?;
                Ok(self.sink.hex_digits(key))
            }
            Special::Era => {
                let at = self.pos;
                let b0 = self.byte(ty)?;
                if b0 == 0 {
                    return Ok(self.sink.text("00"));
                }
                let b1 = self.byte(ty)?;
                let encoded = u16::from_le_bytes([b0, b1]) as u64;
                let period = 2u64 << (encoded % (1 << 4));
                let quantize = (period >> 12).max(1);
                let phase = (encoded >> 4) * quantize;
                if period >= 4 && phase < period {
                    let mut t = self.sink.seq_begin(2);
                    let p = self.sink.uint(period as u128);
                    self.sink.seq_push(&mut t, p);
                    let p = self.sink.uint(phase as u128);
                    self.sink.seq_push(&mut t, p);
                    Ok(self.sink.tuple_end(t))
                } else {
                    Err(self.invalid(
                        ty,
                        at,
                        format!("invalid phase and period: {phase}, {period}"),
                    ))
                }
            }
            Special::Call => self.call(ty),
            Special::Extrinsic => self.extrinsic(ty),
            Special::Event => {
                let (pi, ei, module, event, attrs) = self.legacy_event_parts(ty)?;
                let module = self.sink.name(module);
                let event = self.sink.name(event);
                let d = self.event_dict(pi, ei, module, event, attrs);
                Ok(d)
            }
            Special::ScaleInfoEvent(e) => {
                let (pi, ei, module, event, attrs) = self.event_parts(*e)?;
                let module = self.sink.name(module);
                let event = self.sink.name(event);
                let d = self.event_dict(pi, ei, module, event, attrs);
                Ok(d)
            }
            Special::EventRecord(st) => self.event_record(ty, *st),
            Special::IdentityData => {
                let at = self.pos;
                let idx = self.byte(ty)?;
                match idx {
                    0 => {
                        let n = self.sink.null();
                        Ok(self.sink.single_entry(&k.none, n))
                    }
                    1..=33 => {
                        let b = self.take(idx as usize - 1, ty)?;
                        let v = self.sink.bytes(b);
                        Ok(self.sink.single_entry(&k.raw, v))
                    }
                    34..=37 => {
                        let b = self.take(32, ty)?;
                        let v = self.sink.hex(b);
                        Ok(self.sink.single_entry(&k.hash_names[idx as usize - 34], v))
                    }
                    _ => Err(self.invalid(ty, at, format!("invalid Data indicator byte {idx}"))),
                }
            }
            Special::HexBytes => {
                let n = self.length(ty, 1)?;
                let b = self.take(n, ty)?;
                Ok(self.sink.hex(b))
            }
            Special::MetadataVersioned => self.metadata_versioned(ty),
            Special::Vote => {
                let at = self.pos;
                let b = self.byte(ty)?;
                let conviction = (b & 0x7f) as usize;
                let Some(cname) = k.convictions.get(conviction) else {
                    return Err(self.invalid(ty, at, format!("invalid conviction {conviction}")));
                };
                let mut d = self.sink.dict_begin(2);
                let aye = self.sink.bool(b & 0x80 != 0);
                self.sink.dict_insert(&mut d, &k.aye, aye);
                let c = self.sink.name(cname);
                self.sink.dict_insert(&mut d, &k.conviction, c);
                Ok(self.sink.dict_end(d))
            }
            Special::WrapperKeepOpaque(inner) => {
                let n = self.length(ty, 1)?;
                let b = self.take(n, ty)?;
                let ctx = self.ctx;
                let mut sub = self.nested(ctx, b, 0);
                let r = sub.node(*inner);
                self.zero_sized_left = sub.zero_sized_left;
                match r {
                    Ok(v) => Ok(v),
                    Err(_) => Ok(self.sink.hex(b)),
                }
            }
        }
    }

    /// `MetadataVersioned`: the magic number as hex and `{"V<n>": metadata}`,
    /// the metadata decoded with the process's metadata definitions
    /// ([`crate::metadata_value`]), which have their own graph.
    #[inline(never)]
    fn metadata_versioned(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        let types = crate::metadata_value::metadata_types()?;
        let magic = self.take(4, ty)?;
        let at = self.pos;
        let version = self.byte(ty)?;
        let Some((inner_ty, name)) = types.version(version) else {
            return Err(self.invalid(
                ty,
                at,
                format!("metadata version {version} is not supported (only V9 to V16)"),
            ));
        };
        let mut ctx = Context::new(types.graph());
        ctx.max_depth = self.ctx.max_depth;
        let (data, pos) = (self.data, self.pos);
        let mut sub = self.nested(&ctx, data, pos);
        let inner = sub.node(inner_ty);
        let (pos, zero_sized_left) = (sub.pos, sub.zero_sized_left);
        self.pos = pos;
        self.zero_sized_left = zero_sized_left;
        let inner = inner?;
        let mut t = self.sink.seq_begin(2);
        let m = self.sink.hex(magic);
        self.sink.seq_push(&mut t, m);
        let v = self.sink.single_entry(name, inner);
        self.sink.seq_push(&mut t, v);
        Ok(self.sink.tuple_end(t))
    }

    #[inline(never)]
    fn call(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        let k = &*KEYS;
        let rt = self.runtime(ty)?;
        let start = self.pos;
        let pi = self.byte(ty)?;
        let Some(pallet) = rt.pallet_by_index(pi) else {
            return Err(self.invalid(ty, start, format!("no pallet with index {pi}")));
        };
        let ci = self.byte(ty)?;
        let Some(call) = pallet.call(ci) else {
            return Err(self.invalid(
                ty,
                start + 1,
                format!("pallet {} has no call with index {ci}", pallet.name),
            ));
        };
        let mut args = self.sink.seq_begin(call.args.len());
        for a in &call.args {
            let v = if rt.portable {
                self.node(a.ty)?
            } else {
                self.serialized(a.ty)?
            };
            let mut d = self.sink.dict_begin(3);
            let name = match &a.name {
                Some(n) => self.sink.name(n),
                None => self.sink.null(),
            };
            self.sink.dict_insert(&mut d, &k.name, name);
            let tn = match &a.type_name {
                Some(n) => self.sink.name(n),
                None => self.sink.null(),
            };
            self.sink.dict_insert(&mut d, &k.type_, tn);
            self.sink.dict_insert(&mut d, &k.value, v);
            let d = self.sink.dict_end(d);
            self.sink.seq_push(&mut args, d);
        }
        let hash = ferroscale_core::hashing::blake2_256(&self.data[start..self.pos]);
        let mut d = self.sink.dict_begin(5);
        let idx = self.sink.hex(&[pi, ci]);
        self.sink.dict_insert(&mut d, &k.call_index, idx);
        let f = self.sink.name(&call.name);
        self.sink.dict_insert(&mut d, &k.call_function, f);
        let m = self.sink.name(&pallet.name);
        self.sink.dict_insert(&mut d, &k.call_module, m);
        let a = self.sink.list_end(args);
        self.sink.dict_insert(&mut d, &k.call_args, a);
        let h = self.sink.hex(&hash);
        self.sink.dict_insert(&mut d, &k.call_hash, h);
        Ok(self.sink.dict_end(d))
    }

    #[inline(never)]
    fn extrinsic(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        let k = &*KEYS;
        let rt = self.runtime(ty)?;
        let start = self.pos;
        let len = self.length(ty, 1)?;
        let end = self.pos + len;
        // Everything of this extrinsic must lie within its length prefix.
        let full = self.data;
        self.data = &full[..end];
        let r = self.extrinsic_body(ty, rt, start, len);
        self.data = full;
        let (fields, call) = r?;
        if self.pos != end {
            return Err(self.invalid(
                ty,
                self.pos,
                format!(
                    "extrinsic length prefix says {len} bytes, the content used {}",
                    self.pos - (end - len)
                ),
            ));
        }
        let hash = ferroscale_core::hashing::blake2_256(&full[start..end]);
        let mut d = self.sink.dict_begin(fields.len() + 3);
        let h = self.sink.hex(&hash);
        self.sink.dict_insert(&mut d, &k.extrinsic_hash, h);
        let l = self.sink.uint(len as u128);
        self.sink.dict_insert(&mut d, &k.extrinsic_length, l);
        for (key, v) in fields {
            self.sink.dict_insert(&mut d, key, v);
        }
        self.sink.dict_insert(&mut d, &k.call, call);
        Ok(self.sink.dict_end(d))
    }

    #[allow(clippy::type_complexity)]
    #[inline(never)]
    fn extrinsic_body(
        &mut self,
        ty: TypeIdx,
        rt: &'a Runtime,
        _start: usize,
        _len: usize,
    ) -> Result<(Vec<(&'a crate::graph::Name, S::Out)>, S::Out), Fail> {
        let k = &*KEYS;
        let at = self.pos;
        let version = self.byte(ty)?;
        let signed = version & 0x80 != 0;
        if version & 0x7f != 4 {
            return Err(self.invalid(
                ty,
                at,
                format!("unsupported extrinsic version {}", version & 0x7f),
            ));
        }
        let mut fields = Vec::new();
        if signed {
            let x = &rt.extrinsic;
            let (Some(addr), Some(sig)) = (x.address, x.signature) else {
                return Err(self.invalid(ty, at, "runtime has no address/signature types"));
            };
            let a = self.serialized(addr)?;
            fields.push((&k.address, a));
            let s = self.node(sig)?;
            fields.push((&k.signature, s));
            for e in &x.extensions {
                let v = self.node(e.ty)?;
                fields.push((&e.key, v));
            }
        }
        let call = match rt.extrinsic.call {
            Some(c) if matches!(self.graph().get(c), Some(Node::Special(Special::Call))) => {
                self.node(c)?
            }
            _ => self.call(ty)?,
        };
        Ok((fields, call))
    }

    #[inline(never)]
    fn event_parts(&mut self, e: TypeIdx) -> Result<EventParts<'a, S::Out>, Fail> {
        let Some(Node::Enum(outer)) = self.graph().get(e) else {
            return Err(self.invalid(e, self.pos, "event type is not an enum"));
        };
        let at = self.pos;
        let pi = self.byte(e)?;
        let Some(pallet) = variant_at(outer, pi) else {
            return Err(self.invalid(e, at, format!("index '{pi}' not present in event enum")));
        };
        let inner_ty = match &pallet.fields {
            Fields::Unnamed(t) if t.len() == 1 => t[0],
            _ => {
                return Err(self.invalid(
                    e,
                    at,
                    format!("event variant {} does not wrap a pallet event", pallet.name),
                ))
            }
        };
        let Some(Node::Enum(events)) = self.graph().get(inner_ty) else {
            return Err(self.invalid(inner_ty, self.pos, "pallet event type is not an enum"));
        };
        let ev = self.variant(inner_ty, events)?;
        let attrs = self.fields(&ev.fields)?;
        Ok((pi, ev.index, &pallet.name, &ev.name, attrs))
    }

    /// A value as py-scale-codec's `serialize()` gives it (legacy call and
    /// event arguments): like the value, except that `Bytes` render as hex.
    /// A legacy address's account key is `"0x…"` there too (its bare value has no `0x`).
    fn serialized(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        match self.graph().get(ty) {
            Some(Node::Bytes) => {
                let n = self.length(ty, 1)?;
                let b = self.take(n, ty)?;
                Ok(self.sink.hex(b))
            }
            Some(Node::Special(Special::LegacyAddress))
                if self.data.get(self.pos) == Some(&0xff) =>
            {
                self.pos += 1;
                let key = self.take(32, ty)?;
                Ok(self.sink.hex(key))
            }
            _ => self.node(ty),
        }
    }

    /// A legacy event: two index bytes, then the args of the runtime's event
    /// table as `[{"type", "value"}…]`.
    #[inline(never)]
    fn legacy_event_parts(&mut self, ty: TypeIdx) -> Result<EventParts<'a, S::Out>, Fail> {
        let k = &*KEYS;
        let rt = self.runtime(ty)?;
        let at = self.pos;
        let pi = self.byte(ty)?;
        let ei = self.byte(ty)?;
        let Some(pallet) = rt.pallet_by_index(pi) else {
            return Err(self.invalid(ty, at, format!("no pallet with event index {pi}")));
        };
        let Some(event) = pallet.event(ei) else {
            return Err(self.invalid(
                ty,
                at + 1,
                format!("pallet {} has no event with index {ei}", pallet.name),
            ));
        };
        let mut list = self.sink.seq_begin(event.args.len());
        for a in &event.args {
            let v = self.serialized(a.ty)?;
            let mut d = self.sink.dict_begin(2);
            let t = match &a.type_name {
                Some(n) => self.sink.name(n),
                None => self.sink.null(),
            };
            self.sink.dict_insert(&mut d, &k.type_, t);
            self.sink.dict_insert(&mut d, &k.value, v);
            let d = self.sink.dict_end(d);
            self.sink.seq_push(&mut list, d);
        }
        let attrs = self.sink.list_end(list);
        Ok((pi, ei, &pallet.name, &event.name, attrs))
    }

    /// The event dict; `module` and `event` are the names as values (an
    /// event record repeats them, so it makes them once).
    fn event_dict(
        &mut self,
        pi: u8,
        ei: u8,
        module: S::Out,
        event: S::Out,
        attrs: S::Out,
    ) -> S::Out {
        let k = &*KEYS;
        let mut d = self.sink.dict_begin(4);
        let idx = self.sink.hex_digits(&[pi, ei]);
        self.sink.dict_insert(&mut d, &k.event_index, idx);
        self.sink.dict_insert(&mut d, &k.module_id, module);
        self.sink.dict_insert(&mut d, &k.event_id, event);
        self.sink.dict_insert(&mut d, &k.attributes, attrs);
        self.sink.dict_end(d)
    }

    #[inline(never)]
    fn event_record(&mut self, ty: TypeIdx, st: TypeIdx) -> Result<S::Out, Fail> {
        let k = &*KEYS;
        let Some(Node::Struct(fields)) = self.graph().get(st) else {
            return Err(self.invalid(ty, self.pos, "EventRecord is not a struct"));
        };
        let mut phase = None;
        let mut xt_idx = None;
        let mut event = None;
        // py-scale-codec's `event_index` here is the event enum's `index`,
        // which its legacy GenericEvent never sets: `None` for legacy events.
        let mut legacy = false;
        let mut topics = None;
        for f in fields {
            match &*f.name {
                "phase" => {
                    if let Some(Node::Enum(vars)) = self.graph().get(f.ty) {
                        let var = self.variant(f.ty, vars)?;
                        let inner = self.payload(&var.fields)?;
                        phase = Some(self.sink.name(&var.name));
                        if &*var.name == "ApplyExtrinsic" {
                            xt_idx = inner;
                        }
                    } else {
                        phase = Some(self.node(f.ty)?);
                    }
                }
                "event" => {
                    event = Some(match self.graph().get(f.ty) {
                        Some(Node::Special(Special::ScaleInfoEvent(e))) => self.event_parts(*e)?,
                        Some(Node::Special(Special::Event)) => {
                            legacy = true;
                            self.legacy_event_parts(f.ty)?
                        }
                        _ => self.event_parts(f.ty)?,
                    });
                }
                "topics" => topics = Some(self.node(f.ty)?),
                _ => {
                    self.node(f.ty)?;
                }
            }
        }
        let Some((pi, ei, module, ev, attrs)) = event else {
            return Err(self.invalid(ty, self.pos, "EventRecord has no event field"));
        };
        let attrs2 = self.sink.dup(&attrs);
        let mut d = self.sink.dict_begin(8);
        let p = phase.unwrap_or_else(|| self.sink.null());
        self.sink.dict_insert(&mut d, &k.phase, p);
        let x = xt_idx.unwrap_or_else(|| self.sink.null());
        self.sink.dict_insert(&mut d, &k.extrinsic_idx, x);
        let m = self.sink.name(module);
        let m2 = self.sink.dup(&m);
        let n = self.sink.name(ev);
        let n2 = self.sink.dup(&n);
        let e = self.event_dict(pi, ei, m, n, attrs);
        self.sink.dict_insert(&mut d, &k.event, e);
        let i = if legacy {
            self.sink.null()
        } else {
            self.sink.uint(pi as u128)
        };
        self.sink.dict_insert(&mut d, &k.event_index, i);
        self.sink.dict_insert(&mut d, &k.module_id, m2);
        self.sink.dict_insert(&mut d, &k.event_id, n2);
        self.sink.dict_insert(&mut d, &k.attributes, attrs2);
        let t = match topics {
            Some(t) => t,
            None => {
                let s = self.sink.seq_begin(0);
                self.sink.list_end(s)
            }
        };
        self.sink.dict_insert(&mut d, &k.topics, t);
        Ok(self.sink.dict_end(d))
    }
}

/// The variant with discriminant `index`: the one at position `index`
/// when the indexes have no gaps (most enums), else the first that has it.
#[inline]
fn variant_at(variants: &[Variant], index: u8) -> Option<&Variant> {
    match variants.get(index as usize) {
        Some(v) if v.index == index => Some(v),
        _ => variants.iter().find(|v| v.index == index),
    }
}

/// `("Ok", "Err")` names for Result values.
fn result_names() -> &'static (crate::graph::Name, crate::graph::Name) {
    static NAMES: std::sync::LazyLock<(crate::graph::Name, crate::graph::Name)> =
        std::sync::LazyLock::new(|| ("Ok".into(), "Err".into()));
    &NAMES
}

/// Whether `ty` is a 256-bit integer (for Compact<U256>).
fn is_256(graph: &TypeGraph, ty: TypeIdx) -> bool {
    matches!(graph.get(ty), Some(Node::Prim(Prim::U256 | Prim::I256)))
}

/// py-scale-codec's bit-sequence text: `"0b"` + the bits of the little-endian
/// integer, most significant first, zero-padded to `bits` digits.
pub(crate) fn render_bits(bytes: &[u8], bits: usize) -> String {
    // One rendering for this decoder and the generated types' values.
    ferroscale_runtime_types::bits::py_bit_string(bytes, bits)
}

/// A lower bound of the encoded size of `ty` (0 when unknown), used to bound
/// length prefixes before allocating.
pub fn min_size(graph: &TypeGraph, ty: TypeIdx, depth: u32) -> u64 {
    if depth > 6 {
        return 0;
    }
    let Some(node) = graph.get(ty) else { return 0 };
    match node {
        Node::Prim(p) => p.fixed_size().unwrap_or(1) as u64,
        Node::Null | Node::Unresolved(_) => 0,
        Node::Compact(_) | Node::Seq(_) | Node::Bytes | Node::Map(..) | Node::BitSeq { .. } => 1,
        Node::ByteArray(n) => *n as u64,
        Node::Array(t, n) => (*n as u64).saturating_mul(min_size(graph, *t, depth + 1)),
        Node::Tuple(ts) => ts.iter().fold(0u64, |a, t| {
            a.saturating_add(min_size(graph, *t, depth + 1))
        }),
        Node::Struct(fs) => fs.iter().fold(0u64, |a, f| {
            a.saturating_add(min_size(graph, f.ty, depth + 1))
        }),
        Node::Enum(_) | Node::Option(_) | Node::Result(..) => 1,
        Node::Set { byte_len, .. } => *byte_len as u64,
        Node::Special(s) => match s {
            Special::AccountId => 32,
            Special::EthereumAccountId => 20,
            Special::AccountIndex => 4,
            _ => 1,
        },
    }
}
