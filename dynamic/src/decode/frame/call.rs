//! Calls and extrinsics: the runtime's call table; format-4 extrinsics
//! (unsigned, signed with their signed extensions) and format-5 ones (bare,
//! general with the extensions of their transaction-extension version).

use std::ops::DerefMut;

use crate::graph::{Node, Special, TypeIdx};
use crate::runtime::{Preamble, Runtime, KEYS};
use crate::sink::Sink;

use crate::decode::{Decoder, Fail};

impl<'c, 'a: 'c, S: Sink<'a>, B: DerefMut<Target = S>> Decoder<'c, 'a, S, B> {
    #[inline(never)]
    pub(in crate::decode) fn call(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        let k = &*KEYS;
        let hashed = !std::mem::take(&mut self.skip_call_hash);
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
        for (i, a) in call.args.iter().enumerate() {
            let v = if rt.portable {
                self.node(a.ty)
            } else {
                self.serialized(a.ty)
            };
            // The position reads `Pallet.call.arg`.
            let v = v.map_err(|e| {
                let arg = a
                    .name
                    .as_deref()
                    .map_or_else(|| i.to_string(), str::to_owned);
                e.within(&arg).within(&call.name).within(&pallet.name)
            })?;
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
        let hash =
            hashed.then(|| ferroscale_core::hashing::blake2_256(&self.data[start..self.pos]));
        let mut d = self.sink.dict_begin(5);
        let idx = self.sink.hex(&[pi, ci]);
        self.sink.dict_insert(&mut d, &k.call_index, idx);
        let f = self.sink.name(&call.name);
        self.sink.dict_insert(&mut d, &k.call_function, f);
        let m = self.sink.name(&pallet.name);
        self.sink.dict_insert(&mut d, &k.call_module, m);
        let a = self.sink.list_end(args);
        self.sink.dict_insert(&mut d, &k.call_args, a);
        let h = match hash {
            Some(hash) => self.sink.hex(&hash),
            None => self.sink.null(),
        };
        self.sink.dict_insert(&mut d, &k.call_hash, h);
        self.sink.call_built();
        Ok(self.sink.dict_end(d))
    }

    #[inline(never)]
    pub(in crate::decode) fn extrinsic(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
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
        let bytes = &full[start..end];
        let hash = self
            .ctx
            .extrinsic_hash
            .and_then(|known| known.for_bytes(bytes))
            .unwrap_or_else(|| ferroscale_core::hashing::blake2_256(bytes));
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
    pub(in crate::decode) fn extrinsic_body(
        &mut self,
        ty: TypeIdx,
        rt: &'a Runtime,
        _start: usize,
        _len: usize,
    ) -> Result<(Vec<(&'a crate::graph::Name, S::Out)>, S::Out), Fail> {
        let k = &*KEYS;
        let at = self.pos;
        let first = self.byte(ty)?;
        let Some(preamble) = Preamble::from_byte(first) else {
            return Err(self.invalid(
                ty,
                at,
                format!(
                    "unsupported extrinsic version {} (first byte {first:#04x}; known: \
                     0x04 unsigned and 0x84 signed of format 4, 0x05 bare and 0x45 general of format 5)",
                    first & 0x3f
                ),
            ));
        };
        let x = &rt.extrinsic;
        let mut fields = Vec::new();
        if preamble.version() == 5 {
            let v = self.sink.uint(5);
            fields.push((&k.version, v));
        }
        match preamble {
            Preamble::Bare(_) => {}
            Preamble::Signed => {
                let (Some(addr), Some(sig)) = (x.address, x.signature) else {
                    return Err(self.invalid(ty, at, "runtime has no address/signature types"));
                };
                let a = self.serialized(addr).map_err(|e| e.within("address"))?;
                fields.push((&k.address, a));
                let s = self.node(sig).map_err(|e| e.within("signature"))?;
                fields.push((&k.signature, s));
                for ext in &x.extensions {
                    let v = self.node(ext.ty).map_err(|e| e.within(&ext.key))?;
                    fields.push((&ext.key, v));
                }
            }
            Preamble::General => {
                let at = self.pos;
                let version = self.byte(ty)?;
                let Some(extensions) = x.general_extensions.get(&version) else {
                    let known: Vec<u8> = x.general_extensions.keys().copied().collect();
                    return Err(self.invalid(
                        ty,
                        at,
                        format!(
                            "unknown transaction-extension version {version} \
                             (the metadata lists {known:?})"
                        ),
                    ));
                };
                let v = self.sink.uint(version.into());
                fields.push((&k.extension_version, v));
                for ext in extensions {
                    let v = self.node(ext.ty).map_err(|e| e.within(&ext.key))?;
                    fields.push((&ext.key, v));
                }
            }
        }
        self.skip_call_hash = !self.ctx.extrinsic_call_hash;
        let call = match rt.extrinsic.call {
            Some(c) if matches!(self.graph().get(c), Some(Node::Special(Special::Call))) => {
                self.node(c)
            }
            _ => self.call(ty),
        };
        // Unset also when no call decode took it (a hook decoded the call).
        self.skip_call_hash = false;
        Ok((fields, call?))
    }
}
