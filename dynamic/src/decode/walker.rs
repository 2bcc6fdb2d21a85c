//! The structural walk: a type graph node and the bytes into a [`Sink`],
//! generic over the output and free of FRAME semantics (the graph's
//! `Special` nodes go to [`super::frame`]). Before walking a node that is
//! not a leaf it asks the context's decode hook ([`crate::hook`]).

use std::ops::DerefMut;

use crate::error::Error;
use crate::graph::{BitStore, Fields, Node, Prim, Special, TypeGraph, TypeIdx, Variant};
use crate::hook::DecodeHook;
use crate::sink::Sink;

use super::{Decoder, Fail, MAX_ZERO_SIZED_ELEMENTS};

impl<'c, 'a: 'c, S: Sink<'a>, B: DerefMut<Target = S>> Decoder<'c, 'a, S, B> {
    /// Decodes one value of `ty`. Inlined into its callers up to the
    /// dispatch, so that the commonest leaves (primitives, compacts, account
    /// ids) go straight to their decoder instead of through two jump tables.
    #[inline]
    pub(in crate::decode) fn node(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        let graph = self.graph();
        let Some(node) = graph.get(ty) else {
            return Err(self.invalid(ty, self.pos, "type index out of range"));
        };
        if self.depth >= self.ctx.max_depth {
            return Err(self.depth_limit(ty));
        }
        match (node, self.ctx.hook) {
            (Node::Prim(p), None) => self.prim(ty, *p),
            (Node::Compact(inner), None) => self.compact_value(ty, *inner),
            (Node::Special(Special::AccountId), None) => self.account(ty),
            _ => self.composite(ty, node),
        }
    }

    /// A `Compact<inner>` value.
    #[inline(never)]
    pub(in crate::decode) fn compact_value(
        &mut self,
        ty: TypeIdx,
        inner: TypeIdx,
    ) -> Result<S::Out, Fail> {
        // Compact<u256> or wider inner types: allow up to 32 bytes.
        if is_256(self.graph(), inner) {
            return self.compact_256(ty);
        }
        let v = self.compact(ty)?;
        Ok(self.sink.uint(v))
    }

    /// [`Decoder::node`] for everything but those leaves (and for them too
    /// when there is a hook to try first): the hook, then the dynamic
    /// decode one level deeper.
    #[inline(never)]
    pub(in crate::decode) fn composite(
        &mut self,
        ty: TypeIdx,
        node: &'a Node,
    ) -> Result<S::Out, Fail> {
        if let Some(hook) = self.ctx.hook {
            if let Some(v) = self.hooked(hook, ty) {
                return Ok(v);
            }
        }
        if self.stack_base.exhausted(self.ctx.stack_budget) {
            return Err(self.stack_limit(ty));
        }
        self.depth += 1;
        let r = self.node_inner(ty, node);
        self.depth -= 1;
        r
    }

    /// Decodes `ty` through the hook, if it takes it ([`crate::hook`]):
    /// `None` leaves it to the walker.
    #[inline(never)]
    pub(in crate::decode) fn hooked(
        &mut self,
        hook: &dyn DecodeHook,
        ty: TypeIdx,
    ) -> Option<S::Out> {
        let room = self.ctx.max_depth.checked_sub(self.depth)?;
        let rest = self.data.get(self.pos..)?;
        let mut input = rest;
        let v = hook.decode(ty, room, self.ctx.ss58_format, &mut input)?;
        self.pos += rest.len() - input.len();
        Some(self.sink.value(v))
    }

    pub(in crate::decode) fn node_inner(
        &mut self,
        ty: TypeIdx,
        node: &'a Node,
    ) -> Result<S::Out, Fail> {
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
                    let needed = (n as u128) * (min as u128);
                    return Err(self.short(ty, self.pos, needed, self.remaining()));
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
                for (i, &t) in items.iter().enumerate() {
                    let v = self.node(t).map_err(|e| e.within(&i.to_string()))?;
                    self.sink.seq_push(&mut seq, v);
                }
                Ok(self.sink.tuple_end(seq))
            }
            Node::Struct(fields) => {
                let mut d = self.sink.dict_begin(fields.len());
                for f in fields {
                    let v = self.node(f.ty).map_err(|e| e.within(&f.name))?;
                    self.sink.dict_insert(&mut d, &f.name, v);
                }
                Ok(self.sink.dict_end(d))
            }
            Node::Enum(variants) => {
                let var = self.variant(ty, variants)?;
                let payload = self.payload(&var.fields);
                Ok(match payload.map_err(|e| e.within(&var.name))? {
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
    pub(in crate::decode) fn set(
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
    pub(in crate::decode) fn map(
        &mut self,
        ty: TypeIdx,
        k: TypeIdx,
        v: TypeIdx,
    ) -> Result<S::Out, Fail> {
        let min = self
            .min_sizes
            .get(self.ctx.graph, k)
            .saturating_add(self.min_sizes.get(self.ctx.graph, v));
        let n = self.length(ty, min)?;
        let mut seq = self.sink.seq_begin(n);
        for i in 0..n {
            let before = self.pos;
            let at = |e: Fail| e.within(&format!("[{i}]"));
            let kv = self.node(k).map_err(at)?;
            let vv = self.node(v).map_err(at)?;
            self.charge_zero_sized(ty, before)?;
            let mut pair = self.sink.seq_begin(2);
            self.sink.seq_push(&mut pair, kv);
            self.sink.seq_push(&mut pair, vv);
            let t = self.sink.tuple_end(pair);
            self.sink.seq_push(&mut seq, t);
        }
        Ok(self.sink.list_end(seq))
    }

    pub(in crate::decode) fn list_of(&mut self, inner: TypeIdx, n: usize) -> Result<S::Out, Fail> {
        let mut seq = self.sink.seq_begin(n);
        // A list of event records (`System.Events`, the value decoded most
        // often) goes to each record directly: the element's lookup, depth
        // check and two dispatches are the same for every record.
        if let (Some(Node::Special(Special::EventRecord(st))), None) =
            (self.graph().get(inner), self.ctx.hook)
        {
            if self.depth < self.ctx.max_depth {
                self.depth += 1;
                let filled = self.records(inner, *st, n, &mut seq);
                self.depth -= 1;
                filled?;
                return Ok(self.sink.list_end(seq));
            }
        }
        for i in 0..n {
            let before = self.pos;
            let v = self.node(inner).map_err(|e| e.within(&format!("[{i}]")))?;
            self.charge_zero_sized(inner, before)?;
            self.sink.seq_push(&mut seq, v);
        }
        Ok(self.sink.list_end(seq))
    }

    /// Counts an element that consumed no input (it started at `before`)
    /// against this decode's budget of such elements.
    pub(in crate::decode) fn charge_zero_sized(
        &mut self,
        ty: TypeIdx,
        before: usize,
    ) -> Result<(), Fail> {
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
    pub(in crate::decode) fn compact_256(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
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
    pub(in crate::decode) fn variant(
        &mut self,
        ty: TypeIdx,
        variants: &'a [Variant],
    ) -> Result<&'a Variant, Fail> {
        let at = self.pos;
        let idx = self.byte(ty)?;
        match variant_at(variants, idx) {
            Some(var) => Ok(var),
            None => Err(self.invalid(ty, at, format!("index '{idx}' not present in enum"))),
        }
    }

    /// A variant's payload, `None` for a unit variant.
    #[inline]
    pub(in crate::decode) fn payload(
        &mut self,
        fields: &'a Fields,
    ) -> Result<Option<S::Out>, Fail> {
        if matches!(fields, Fields::Unit) {
            return Ok(None);
        }
        self.fields(fields).map(Some)
    }

    /// The value of a variant payload: the single value, a tuple, a dict,
    /// or Python `None` for a unit variant (event attributes).
    pub(in crate::decode) fn fields(&mut self, fields: &'a Fields) -> Result<S::Out, Fail> {
        match fields {
            Fields::Unit => Ok(self.sink.null()),
            Fields::Unnamed(tys) if tys.len() == 1 => self.node(tys[0]),
            Fields::Unnamed(tys) => {
                let mut seq = self.sink.seq_begin(tys.len());
                for (i, &t) in tys.iter().enumerate() {
                    let v = self.node(t).map_err(|e| e.within(&i.to_string()))?;
                    self.sink.seq_push(&mut seq, v);
                }
                Ok(self.sink.tuple_end(seq))
            }
            Fields::Named(fs) => {
                let mut d = self.sink.dict_begin(fs.len());
                for f in fs {
                    let v = self.node(f.ty).map_err(|e| e.within(&f.name))?;
                    self.sink.dict_insert(&mut d, &f.name, v);
                }
                Ok(self.sink.dict_end(d))
            }
        }
    }

    #[inline(never)]
    pub(in crate::decode) fn prim(&mut self, ty: TypeIdx, p: Prim) -> Result<S::Out, Fail> {
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
    pub(in crate::decode) fn bit_seq(
        &mut self,
        ty: TypeIdx,
        store: BitStore,
    ) -> Result<S::Out, Fail> {
        let start = self.pos;
        let bits = self.compact(ty)?;
        let word_bits = 8 * store.bytes() as u128;
        let words = bits.div_ceil(word_bits);
        let nbytes = words.saturating_mul(store.bytes() as u128);
        if nbytes > self.remaining() as u128 {
            return Err(self.short(ty, start, nbytes, self.remaining()));
        }
        let bytes = self.take(nbytes as usize, ty)?;
        Ok(self.sink.bits(bytes, bits as usize))
    }
}

/// The variant with discriminant `index`: the one at position `index`
/// when the indexes have no gaps (most enums), else the first that has it.
#[inline]
pub(in crate::decode) fn variant_at(variants: &[Variant], index: u8) -> Option<&Variant> {
    match variants.get(index as usize) {
        Some(v) if v.index == index => Some(v),
        _ => variants.iter().find(|v| v.index == index),
    }
}

/// `("Ok", "Err")` names for Result values.
pub(in crate::decode) fn result_names() -> &'static (crate::graph::Name, crate::graph::Name) {
    static NAMES: std::sync::LazyLock<(crate::graph::Name, crate::graph::Name)> =
        std::sync::LazyLock::new(|| ("Ok".into(), "Err".into()));
    &NAMES
}

/// Whether `ty` is a 256-bit integer (for Compact<U256>).
pub(in crate::decode) fn is_256(graph: &TypeGraph, ty: TypeIdx) -> bool {
    matches!(graph.get(ty), Some(Node::Prim(Prim::U256 | Prim::I256)))
}
