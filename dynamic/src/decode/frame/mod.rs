//! FRAME semantics of decoding: the graph's `Special` nodes (account ids,
//! addresses, Era, identity data, votes, opaque wrappers, calls,
//! extrinsics, events and event records, `MetadataVersioned`), read with the
//! walker's primitives into py-scale-codec 1.2.12's shapes.

mod call;
mod event;
mod metadata;

use std::ops::DerefMut;

use crate::error::Error;
use crate::graph::{Node, Special, TypeIdx};
use crate::runtime::{Runtime, KEYS};
use crate::sink::Sink;

use super::{Decoder, Fail};

impl<'c, 'a: 'c, S: Sink<'a>, B: DerefMut<Target = S>> Decoder<'c, 'a, S, B> {
    #[inline(never)]
    pub(in crate::decode) fn account(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        self.account_as(ty, false)
    }

    /// A 32-byte account id: SS58 text when the format allows, else hex,
    /// without its `0x` when `bare_hex` (py-scale-codec's `AccountIdAddress`).
    #[inline(always)]
    fn account_as(&mut self, ty: TypeIdx, bare_hex: bool) -> Result<S::Out, Fail> {
        let raw: &[u8] = self.take(32, ty)?;
        match (self.ctx.ss58_format, <&[u8; 32]>::try_from(raw)) {
            (Some(format), Ok(key)) if crate::account::format_allowed(format) => {
                Ok(self.sink.ss58_account(key, format))
            }
            _ if bare_hex => Ok(self.sink.hex_digits(raw)),
            _ => Ok(self.sink.hex(raw)),
        }
    }

    /// A consensus engine id: its name as text, `"0x…"` when not UTF-8.
    fn engine_id(&mut self, id: &[u8]) -> S::Out {
        match std::str::from_utf8(id) {
            Ok(name) => self.sink.text(name),
            Err(_) => self.sink.hex(id),
        }
    }

    /// A pre-runtime item's `data` decoded whole as the pre-digest `inner`;
    /// of an enum (`RawBabePreDigest`) the value inside its variant, as
    /// py-scale-codec keeps it. `None` when the data is not such a digest.
    fn pre_digest(&mut self, inner: TypeIdx, data: &[u8]) -> Option<S::Out> {
        let ctx = self.ctx;
        let graph = self.graph();
        let mut sub = self.nested(ctx, data, 0);
        let value = match graph.get(inner) {
            Some(Node::Enum(variants)) => sub
                .variant(inner, variants)
                .and_then(|v| sub.payload(&v.fields))
                .ok()
                .flatten(),
            _ => sub.node(inner).ok(),
        };
        let whole = sub.pos == data.len();
        self.zero_sized_left = sub.zero_sized_left;
        value.filter(|_| whole)
    }

    pub(in crate::decode) fn runtime(&self, ty: TypeIdx) -> Result<&'a Runtime, Fail> {
        self.ctx.runtime.ok_or_else(|| {
            Box::new(Error::NoRuntime {
                ty: self.graph().label(ty),
            })
        })
    }

    #[inline(never)]
    pub(in crate::decode) fn special(
        &mut self,
        ty: TypeIdx,
        s: &'a Special,
    ) -> Result<S::Out, Fail> {
        let k = &*KEYS;
        match s {
            // `node_inner` sends account ids and event records to their
            // decoders itself; they are here for completeness.
            Special::AccountId => self.account(ty),
            Special::AccountIdAddress => self.account_as(ty, true),
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
            Special::RawBytes { call: false } => {
                let rest = self.take(self.remaining(), ty)?;
                Ok(self.sink.hex(rest))
            }
            Special::RawBytes { call: true } => Err(self.invalid(
                ty,
                self.pos,
                "CallBytes only encodes (py-scale-codec cannot decode it either): decode a Call",
            )),
            Special::ConsensusEngineId => {
                let id = self.take(4, ty)?;
                Ok(self.engine_id(id))
            }
            Special::PreRuntime { babe, aura, .. } => {
                let engine = self.take(4, ty)?;
                let n = self.length(ty, 1)?;
                let data = self.take(n, ty)?;
                let pre_digest = match engine {
                    b"BABE" => self.pre_digest(*babe, data),
                    b"aura" => self.pre_digest(*aura, data),
                    _ => None,
                };
                let data = match pre_digest {
                    Some(v) => v,
                    None => self.sink.hex(data),
                };
                let engine = self.engine_id(engine);
                let mut d = self.sink.dict_begin(2);
                self.sink.dict_insert(&mut d, &k.engine, engine);
                self.sink.dict_insert(&mut d, &k.data, data);
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
}
