//! Decoding SCALE bytes against a [`TypeGraph`] node into a [`Sink`]
//! (py-scale-codec 1.2.12's value shapes).
//!
//! - this module: the entry points and the decoder's state with its byte-level
//!   reading (bytes, compacts, length prefixes);
//! - [`walker`]: the structural walk of the type graph (primitives,
//!   sequences, tuples, structs, enums, maps, bit sequences …), generic over
//!   the [`Sink`], asking the context's [`DecodeHook`](crate::hook::DecodeHook)
//!   first; it hands the graph's `Special` nodes to
//! - [`frame`]: FRAME semantics (account ids, calls, extrinsics, event
//!   records, Era, identity data, votes, opaque wrappers, `MetadataVersioned`),
//!   which read with the walker's primitives.
//!
//! Guarantees on hostile input: no panics; a length prefix is checked against
//! the remaining input (times the element's minimum encoded size) before
//! anything is allocated; nesting is capped ([`DEFAULT_MAX_DEPTH`]); every
//! error names the type, the byte offset and what failed.

mod frame;
mod walker;

use std::marker::PhantomData;
use std::ops::DerefMut;

use ferroscale_value::Value;

use crate::context::Context;
use crate::error::Error;
use crate::graph::{min_size, TypeGraph, TypeIdx};
use crate::sink::{Sink, ValueSink};
use ferroscale_core::stack::StackBase;

/// Length prefixes of zero-sized elements above this are refused (no input
/// bytes bound them). The same number bounds, per decode, how many elements
/// that consumed no input may be produced in all: otherwise nested
/// sequences (`Vec<Vec<()>>`) multiply it by every few input bytes.
const MAX_ZERO_SIZED_ELEMENTS: u64 = 1 << 16;

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
        ty: ctx.graph.label(ty),
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
    let (v, sink) = decode_owned_prefix(ctx, ty, bytes, sink);
    let v = v.and_then(|(v, used)| all_used(ctx, ty, bytes, used).map(|()| v));
    (v, sink)
}

/// [`decode_owned`] of a value at the start of `bytes`: the value and the
/// bytes it used (the rest is left for the caller).
pub(crate) fn decode_owned_prefix<'a, S: Sink<'a>>(
    ctx: &Context<'a>,
    ty: TypeIdx,
    bytes: &[u8],
    sink: S,
) -> (Result<(S::Out, usize), Error>, S) {
    let mut d = Decoder::new(ctx, bytes, Owned(sink));
    let v = d.node(ty).map_err(|e| *e).map(|v| (v, d.pos));
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

/// Reads a compact integer at the start of `bytes` outside a type walk:
/// `(value, bytes used)`, or `None` when the input ends first or the value
/// is wider than 128 bits (`ops::compact::decode` for users).
pub(crate) fn compact_prefix(bytes: &[u8]) -> Option<(u128, usize)> {
    let first = *bytes.first()?;
    let len = match first & 3 {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => 5 + (first >> 2) as usize,
    };
    let raw = bytes.get(..len)?;
    let value = match first & 3 {
        0 => u128::from(first >> 2),
        1 => u128::from(u16::from_le_bytes([raw[0], raw[1]]) >> 2),
        2 => u128::from(u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]) >> 2),
        _ => {
            let digits = &raw[1..];
            if digits.len() > 16 {
                return None;
            }
            let mut le = [0u8; 16];
            le[..digits.len()].copy_from_slice(digits);
            u128::from_le_bytes(le)
        }
    };
    Some((value, len))
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
    /// Where this decode started on the stack ([`ferroscale_core::stack`]).
    stack_base: StackBase,
    /// How many more sequence elements that consumed no input this decode
    /// may produce (see [`MAX_ZERO_SIZED_ELEMENTS`]).
    zero_sized_left: u64,
    /// Element sizes of the sequences seen in this decode.
    min_sizes: MinSizeMemo,
    /// Set by an extrinsic for its call when the context asks for no
    /// `call_hash` there ([`Context::extrinsic_call_hash`]); the call
    /// decode takes it, so the calls nested in its arguments see it unset.
    skip_call_hash: bool,
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

impl<'c, 'a: 'c, S: Sink<'a>, B: DerefMut<Target = S>> Decoder<'c, 'a, S, B> {
    pub(in crate::decode) fn new(ctx: &'c Context<'a>, data: &'c [u8], sink: B) -> Self {
        Decoder {
            ctx,
            data,
            pos: 0,
            depth: 0,
            stack_base: StackBase::here(),
            zero_sized_left: MAX_ZERO_SIZED_ELEMENTS,
            min_sizes: MinSizeMemo::default(),
            skip_call_hash: false,
            sink,
            _sink: PhantomData,
        }
    }

    /// A decoder that goes on from this one over other bytes (`data`, from
    /// `pos`) or another graph (`ctx`): the same sink, depth and budget of
    /// elements that take no input (the caller takes back what it used).
    pub(in crate::decode) fn nested<'n>(
        &'n mut self,
        ctx: &'n Context<'a>,
        data: &'n [u8],
        pos: usize,
    ) -> Decoder<'n, 'a, S, &'n mut S> {
        let (depth, zero_sized_left) = (self.depth, self.zero_sized_left);
        let mut sub = Decoder::new(ctx, data, &mut *self.sink);
        sub.pos = pos;
        sub.depth = depth;
        sub.stack_base = self.stack_base;
        sub.zero_sized_left = zero_sized_left;
        sub
    }

    pub(in crate::decode) fn graph(&self) -> &'a TypeGraph {
        self.ctx.graph
    }

    #[cold]
    #[inline(never)]
    pub(in crate::decode) fn invalid(
        &self,
        ty: TypeIdx,
        offset: usize,
        reason: impl Into<String>,
    ) -> Fail {
        Box::new(Error::Invalid {
            ty: self.graph().label(ty),
            type_id: self.graph().registry_id(ty),
            path: String::new(),
            offset,
            reason: reason.into(),
        })
    }

    /// The input ends before `needed` bytes from `offset`. Out of line and
    /// cold: it formats the type's label, and inlined into every read it
    /// would bloat the hot walk.
    #[cold]
    #[inline(never)]
    pub(in crate::decode) fn short(
        &self,
        ty: TypeIdx,
        offset: usize,
        needed: u128,
        available: usize,
    ) -> Fail {
        Box::new(Error::NotEnoughBytes {
            ty: self.graph().label(ty),
            type_id: self.graph().registry_id(ty),
            path: String::new(),
            offset,
            needed: u64::try_from(needed).unwrap_or(u64::MAX),
            available,
        })
    }

    #[inline]
    pub(in crate::decode) fn take(&mut self, n: usize, ty: TypeIdx) -> Result<&'c [u8], Fail> {
        let rest = self.data.len() - self.pos;
        if n > rest {
            return Err(self.short(ty, self.pos, n as u128, rest));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    #[inline]
    pub(in crate::decode) fn byte(&mut self, ty: TypeIdx) -> Result<u8, Fail> {
        Ok(self.take(1, ty)?[0])
    }

    #[inline]
    pub(in crate::decode) fn array<const N: usize>(
        &mut self,
        ty: TypeIdx,
    ) -> Result<[u8; N], Fail> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, ty)?);
        Ok(a)
    }

    pub(in crate::decode) fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// A SCALE compact integer (up to 128 bits; wider is an error).
    pub(in crate::decode) fn compact(&mut self, ty: TypeIdx) -> Result<u128, Fail> {
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
    pub(in crate::decode) fn length(&mut self, ty: TypeIdx, min_size: u64) -> Result<usize, Fail> {
        let start = self.pos;
        let len = self.compact(ty)?;
        let rest = self.remaining() as u128;
        let fits = if min_size == 0 {
            len <= MAX_ZERO_SIZED_ELEMENTS as u128
        } else {
            len.saturating_mul(min_size as u128) <= rest
        };
        if !fits {
            let needed = len.saturating_mul(min_size.max(1) as u128);
            return Err(self.short(ty, start, needed, rest as usize));
        }
        Ok(len as usize)
    }

    #[cold]
    #[inline(never)]
    pub(in crate::decode) fn stack_limit(&self, ty: TypeIdx) -> Fail {
        self.invalid(
            ty,
            self.pos,
            format!(
                "nesting {} levels deep used more than the decoder's stack budget of {} KiB",
                self.depth,
                self.ctx.stack_budget / 1024
            ),
        )
    }

    #[cold]
    #[inline(never)]
    pub(in crate::decode) fn depth_limit(&self, ty: TypeIdx) -> Fail {
        Box::new(Error::DepthLimit {
            ty: self.graph().label(ty),
            type_id: self.graph().registry_id(ty),
            path: String::new(),
            offset: self.pos,
            limit: self.ctx.max_depth,
        })
    }
}
