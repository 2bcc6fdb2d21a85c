//! Events and event records: the runtime's event table, py-scale-codec's
//! flattened event-record shape, legacy (V9–V13) events.

use std::ops::DerefMut;

use crate::decode::walker::variant_at;
use crate::graph::{Fields, Node, Special, TypeIdx};
use crate::runtime::KEYS;
use crate::sink::Sink;

use crate::decode::{Decoder, Fail};

/// The parts of a decoded event: (pallet index, event index, pallet name, event name, attributes).
type EventParts<'g, O> = (u8, u8, &'g crate::graph::Name, &'g crate::graph::Name, O);

impl<'c, 'a: 'c, S: Sink<'a>, B: DerefMut<Target = S>> Decoder<'c, 'a, S, B> {
    /// The `n` event records of [`Decoder::list_of`] once the depth is checked.
    pub(in crate::decode) fn records(
        &mut self,
        ty: TypeIdx,
        st: TypeIdx,
        n: usize,
        seq: &mut S::Seq,
    ) -> Result<(), Fail> {
        for i in 0..n {
            let before = self.pos;
            let v = self
                .event_record(ty, st)
                .map_err(|e| e.within(&format!("[{i}]")))?;
            self.charge_zero_sized(ty, before)?;
            self.sink.seq_push(seq, v);
        }
        Ok(())
    }

    #[inline(never)]
    pub(in crate::decode) fn event_parts(
        &mut self,
        e: TypeIdx,
    ) -> Result<EventParts<'a, S::Out>, Fail> {
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
        let attrs = self
            .fields(&ev.fields)
            .map_err(|e| e.within(&ev.name).within(&pallet.name))?;
        Ok((pi, ev.index, &pallet.name, &ev.name, attrs))
    }

    /// A value as py-scale-codec's `serialize()` gives it (legacy call and
    /// event arguments): like the value, except that `Bytes` render as hex.
    /// A legacy address's account key is `"0x…"` there too (its bare value has no `0x`).
    pub(in crate::decode) fn serialized(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
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
    pub(in crate::decode) fn legacy_event_parts(
        &mut self,
        ty: TypeIdx,
    ) -> Result<EventParts<'a, S::Out>, Fail> {
        let k = &*KEYS;
        let rt = self.runtime(ty)?;
        let at = self.pos;
        let pi = self.byte(ty)?;
        let ei = self.byte(ty)?;
        let Some(pallet) = rt.pallet_by_event_index(pi) else {
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
    pub(in crate::decode) fn event_dict(
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
    pub(in crate::decode) fn event_record(
        &mut self,
        ty: TypeIdx,
        st: TypeIdx,
    ) -> Result<S::Out, Fail> {
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
