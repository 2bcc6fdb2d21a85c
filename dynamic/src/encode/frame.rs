//! FRAME semantics of encoding: the graph's `Special` nodes (account ids,
//! addresses, Era, identity data, votes, opaque wrappers, calls,
//! extrinsics, events and event records, `MetadataVersioned`) from the
//! value forms py-scale-codec 1.2.12 accepts.

use ferroscale_value::Value;

use crate::context::Context;
use crate::error::Error;
use crate::graph::{Fields, Node, Special, TypeIdx};
use crate::runtime::{Extension, Item, Preamble, Runtime};

use super::CallArgs;

use super::{compact, Encoder};

impl<'c, 'a> Encoder<'c, 'a> {
    pub(in crate::encode) fn account_bytes(
        &self,
        ty: TypeIdx,
        v: &Value,
        len: usize,
    ) -> Result<Vec<u8>, Error> {
        let s = v
            .as_str()
            .ok_or_else(|| self.err(ty, format!("expected an SS58 address or \"0x…\", got {v}")))?;
        let b = if let Some(h) = s.strip_prefix("0x") {
            ferroscale_core::hex::decode(h).map_err(|e| self.err(ty, e.to_string()))?
        } else {
            ferroscale_core::ss58::decode(s, None)
                .map_err(|e| self.err(ty, e.to_string()))?
                .payload
        };
        if b.len() != len {
            return Err(self.err(
                ty,
                format!("account should be {len} bytes, got {}", b.len()),
            ));
        }
        Ok(b)
    }

    pub(in crate::encode) fn special(
        &mut self,
        ty: TypeIdx,
        s: &'a Special,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        match s {
            Special::AccountId => {
                let b = self.account_bytes(ty, v, 32)?;
                out.extend_from_slice(&b);
                Ok(())
            }
            Special::AccountIdAddress => {
                // Its decoded value without an ss58 format: hex, no `0x`
                // (an SS58 address of 32 bytes is under 50 characters).
                let b = match v.as_str() {
                    Some(h) if h.len() == 64 && h.bytes().all(|c| c.is_ascii_hexdigit()) => {
                        ferroscale_core::hex::decode(h).map_err(|e| self.err(ty, e.to_string()))?
                    }
                    _ => self.account_bytes(ty, v, 32)?,
                };
                out.extend_from_slice(&b);
                Ok(())
            }
            Special::EthereumAccountId => {
                let b = self.account_bytes(ty, v, 20)?;
                out.extend_from_slice(&b);
                Ok(())
            }
            Special::AccountIndex => {
                let n = self.uint(ty, v)?;
                let n = u32::try_from(n).map_err(|_| self.err(ty, format!("{n} out of range")))?;
                out.extend_from_slice(&n.to_le_bytes());
                Ok(())
            }
            Special::MultiAddress(e) => {
                let Some(Node::Enum(variants)) = self.ctx.graph.get(*e) else {
                    return Err(self.err(ty, "MultiAddress is not an enum"));
                };
                let by_index = |i: u8| variants.iter().find(|v| v.index == i);
                let (var, payload) = match v {
                    Value::UInt(_) | Value::Int(_) => (by_index(1), v),
                    Value::Str(s) => {
                        let is_hex_account = s.len() == 66 && s.starts_with("0x");
                        // The address read once: its account written here
                        // when the `Id` variant holds a 32-byte one.
                        let ss58 = if is_hex_account {
                            None
                        } else {
                            ferroscale_core::ss58::decode_with(s, None, |_, payload| {
                                <[u8; 32]>::try_from(payload).ok()
                            })
                            .ok()
                        };
                        if let (Some(Some(account)), Some(id)) = (&ss58, by_index(0)) {
                            if let Fields::Unnamed(f) = &id.fields {
                                if let [field] = &f[..] {
                                    if let Some(Node::Special(Special::AccountId)) =
                                        self.ctx.graph.get(*field)
                                    {
                                        out.push(id.index);
                                        out.extend_from_slice(account);
                                        return Ok(());
                                    }
                                }
                            }
                        }
                        if is_hex_account || ss58.is_some() {
                            (by_index(0), v)
                        } else if s.len() == 42 && s.starts_with("0x") {
                            (variants.iter().find(|v| &*v.name == "Address20"), v)
                        } else {
                            return Err(self.err(ty, format!("address '{s}' is not supported")));
                        }
                    }
                    Value::Dict(entries) if entries.len() == 1 => (
                        Some(self.find_variant(ty, variants, &entries[0].0)?),
                        &entries[0].1,
                    ),
                    _ => return Err(self.err(ty, format!("unsupported address value {v}"))),
                };
                let var = var.ok_or_else(|| self.err(ty, "address variant not present"))?;
                out.push(var.index);
                self.fields(ty, &var.fields, payload, out)
            }
            Special::LegacyAddress => {
                let s = v
                    .as_str()
                    .ok_or_else(|| self.err(ty, "expected an address string"))?;
                let hexs = s.strip_prefix("0x").unwrap_or(s);
                let b = match ferroscale_core::hex::decode(hexs) {
                    Ok(b) => b,
                    Err(_) => self.account_bytes(ty, v, 32)?,
                };
                match b.len() {
                    32 => out.push(0xff),
                    2 => out.push(0xfc),
                    4 => out.push(0xfd),
                    8 => out.push(0xfe),
                    1 if b[0] < 0xef => {}
                    n => return Err(self.err(ty, format!("address of {n} bytes"))),
                }
                out.extend_from_slice(&b);
                Ok(())
            }
            Special::Era => self.era(ty, v, out),
            Special::Call => self.call(ty, v, out),
            Special::Extrinsic => self.extrinsic(ty, v, out),
            Special::Event => {
                let rt = self.runtime(ty)?;
                let (pallet, event) = self.lookup_event(ty, rt, v)?;
                out.push(pallet);
                out.push(event.index);
                let attrs = v.get("attributes").and_then(Value::as_items).unwrap_or(&[]);
                if attrs.len() != event.args.len() {
                    return Err(self.err(ty, "attribute count does not match the event"));
                }
                for (a, val) in event.args.iter().zip(attrs) {
                    let val = val.get("value").unwrap_or(val);
                    self.node(a.ty, val, out)?;
                }
                Ok(())
            }
            Special::ScaleInfoEvent(e) => self.scale_info_event(ty, *e, v, out),
            Special::EventRecord(st) => self.event_record(ty, *st, v, out),
            Special::IdentityData => {
                let Value::Dict(entries) = v else {
                    return Err(self.err(ty, "value must be a dict"));
                };
                let [(k, val)] = &entries[..] else {
                    return Err(self.err(ty, "value can only have one entry"));
                };
                match &**k {
                    "None" => out.push(0),
                    "Raw" => {
                        let b = self.byte_string(ty, val)?;
                        if b.len() > 32 {
                            return Err(self.err(ty, "Raw type in Data cannot exceed 32 bytes"));
                        }
                        out.push(b.len() as u8 + 1);
                        out.extend_from_slice(&b);
                    }
                    name => {
                        let pos = ["BlakeTwo256", "Sha256", "Keccak256", "ShaThree256"]
                            .iter()
                            .position(|n| *n == name)
                            .ok_or_else(|| {
                                self.err(ty, format!("'{name}' is not a Data variant"))
                            })?;
                        let b = self.byte_string(ty, val)?;
                        if b.len() != 32 {
                            return Err(self.err(ty, "hash must be 32 bytes"));
                        }
                        out.push(34 + pos as u8);
                        out.extend_from_slice(&b);
                    }
                }
                Ok(())
            }
            Special::RawBytes { .. } => {
                // the bytes as they are: no length prefix
                out.extend_from_slice(&self.byte_string(ty, v)?);
                Ok(())
            }
            Special::ConsensusEngineId => {
                // the name as text (`"BABE"`), or its bytes as hex
                let b = self.byte_string(ty, v)?;
                if b.len() != 4 {
                    return Err(self.err(ty, "a consensus engine id is 4 bytes"));
                }
                out.extend_from_slice(&b);
                Ok(())
            }
            // from `{engine, data}` with the data as bytes: a decoded
            // pre-digest does not name its variant, so it cannot be encoded
            // back (py-scale-codec cannot either)
            Special::PreRuntime { fields, .. } => self.node(*fields, v, out),
            Special::HexBytes => {
                let b = self.byte_string(ty, v)?;
                compact(b.len() as u128, out);
                out.extend_from_slice(&b);
                Ok(())
            }
            Special::MetadataVersioned => self.metadata_versioned(ty, v, out),
            Special::Vote => {
                let b = match v {
                    Value::Dict(_) => {
                        let aye = matches!(v.get("aye"), Some(Value::Bool(true)));
                        let c = v
                            .get("conviction")
                            .and_then(Value::as_str)
                            .unwrap_or("None");
                        let ci = crate::runtime::KEYS
                            .convictions
                            .iter()
                            .position(|n| &**n == c)
                            .ok_or_else(|| self.err(ty, format!("'{c}' is not a conviction")))?;
                        ci as u8 | if aye { 0x80 } else { 0 }
                    }
                    _ => u8::try_from(self.uint(ty, v)?)
                        .map_err(|_| self.err(ty, "vote out of range"))?,
                };
                out.push(b);
                Ok(())
            }
            Special::WrapperKeepOpaque(inner) => {
                let mut buf = Vec::new();
                let bytes = match self.node(*inner, v, &mut buf) {
                    Ok(()) => buf,
                    Err(e) => match v.as_str().and_then(|s| s.strip_prefix("0x")) {
                        Some(h) => ferroscale_core::hex::decode(h).map_err(|_| e)?,
                        None => return Err(e),
                    },
                };
                compact(bytes.len() as u128, out);
                out.extend_from_slice(&bytes);
                Ok(())
            }
        }
    }

    /// `(magic, {"V<n>": metadata})` as the decoder gives it: the magic
    /// bytes, the version byte, the metadata through the process's metadata
    /// definitions ([`crate::metadata_value`]).
    pub(in crate::encode) fn metadata_versioned(
        &mut self,
        ty: TypeIdx,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let types = (self.ctx.metadata_types)()?;
        let [magic, versioned] = self.items(ty, v)? else {
            return Err(self.err(
                ty,
                format!("expected (magic, {{\"V<n>\": metadata}}), got {v}"),
            ));
        };
        let magic = match magic.as_str().and_then(|s| s.strip_prefix("0x")) {
            Some(h) => ferroscale_core::hex::decode(h)
                .ok()
                .filter(|b| b.len() == 4),
            None => None,
        }
        .ok_or_else(|| {
            self.err(
                ty,
                format!("expected a 4-byte hex magic number, got {magic}"),
            )
        })?;
        let (version, inner) = match versioned {
            Value::Dict(entries) if entries.len() == 1 => {
                let (name, inner) = &entries[0];
                let version = types.version_of(name).ok_or_else(|| {
                    self.err(
                        ty,
                        format!("metadata version {name:?} is not supported (only V9 to V16)"),
                    )
                })?;
                (version, inner)
            }
            other => {
                return Err(self.err(ty, format!("expected {{\"V<n>\": metadata}}, got {other}")))
            }
        };
        let Some((inner_ty, _)) = types.version(version) else {
            return Err(self.err(ty, format!("metadata version {version} is not supported")));
        };
        out.extend_from_slice(&magic);
        out.push(version);
        let mut ctx = Context::new(types.graph());
        ctx.max_depth = self.ctx.max_depth;
        ctx.stack_budget = self.ctx.stack_budget;
        Encoder {
            ctx: &ctx,
            depth: self.depth,
            stack_base: self.stack_base,
        }
        .node(inner_ty, inner, out)
    }

    pub(in crate::encode) fn era(
        &self,
        ty: TypeIdx,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let (period, phase) = match v {
            Value::Str(s) if &**s == "00" => {
                out.push(0);
                return Ok(());
            }
            Value::Dict(_) => {
                let period = v
                    .get("period")
                    .ok_or_else(|| self.err(ty, "missing 'period'"))?;
                let period = self.uint(ty, period)?;
                if let Some(phase) = v.get("phase") {
                    (period, self.uint(ty, phase)?)
                } else {
                    let current = v
                        .get("current")
                        .ok_or_else(|| self.err(ty, "dict Era must have 'phase' or 'current'"))?;
                    let current = self.uint(ty, current)?;
                    let period = period.max(1).next_power_of_two().clamp(4, 1 << 16);
                    let phase = current % period;
                    let q = (period >> 12).max(1);
                    (period, phase / q * q)
                }
            }
            _ => match v.as_items() {
                Some([p, ph]) => (self.uint(ty, p)?, self.uint(ty, ph)?),
                _ => return Err(self.err(ty, "value must be '00' or a (period, phase) pair")),
            },
        };
        if phase > period || !(4..=1 << 16).contains(&period) {
            return Err(self.err(ty, format!("invalid period {period} / phase {phase}")));
        }
        let q = (period >> 12).max(1);
        let tz = period.trailing_zeros() as u128;
        let encoded = (tz.saturating_sub(1)).clamp(1, 15) | ((phase / q) << 4);
        out.extend_from_slice(&(encoded as u16).to_le_bytes());
        Ok(())
    }

    /// The (pallet index, event) a legacy `Event` value names by `module_id` and `event_id`.
    fn lookup_event(
        &self,
        ty: TypeIdx,
        rt: &'a Runtime,
        v: &Value,
    ) -> Result<(u8, &'a Item), Error> {
        let pname = v.get("module_id").and_then(Value::as_str);
        let iname = v.get("event_id").and_then(Value::as_str);
        let (Some(pname), Some(iname)) = (pname, iname) else {
            return Err(self.err(ty, "value needs 'module_id' and 'event_id'"));
        };
        let pallet = rt
            .pallet(pname)
            .ok_or_else(|| self.err(ty, format!("pallet '{pname}' not found")))?;
        let item = pallet
            .events
            .iter()
            .find(|i| &*i.name == iname)
            .ok_or_else(|| self.err(ty, format!("'{pname}.{iname}' not found")))?;
        Ok((pallet.event_index, item))
    }

    /// A `Call` value `{"call_module", "call_function", "call_args"}`
    /// (`call_args` a dict by name or the decoded `[{"name", "value"}…]` list).
    pub(in crate::encode) fn call(
        &mut self,
        ty: TypeIdx,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let pname = v.get("call_module").and_then(Value::as_str);
        let cname = v.get("call_function").and_then(Value::as_str);
        let (Some(pname), Some(cname)) = (pname, cname) else {
            return Err(self.err(ty, "value needs 'call_module' and 'call_function'"));
        };
        let args = match v.get("call_args") {
            Some(Value::List(list)) => CallArgs::Decoded(list),
            Some(d @ Value::Dict(_)) => CallArgs::ByName(d),
            _ => CallArgs::None,
        };
        self.call_named(ty, pname, cname, args, out)
    }

    /// The call `pallet.call` with `args`: its pallet and call indices, then
    /// each argument in the call's order. What `Call` values and
    /// [`crate::encode_call`] both encode through.
    pub(in crate::encode) fn call_named(
        &mut self,
        ty: TypeIdx,
        pname: &str,
        cname: &str,
        args: CallArgs<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let rt = self.runtime(ty)?;
        let pallet = rt
            .pallet(pname)
            .ok_or_else(|| self.err(ty, format!("pallet '{pname}' not found")))?;
        let call = pallet
            .calls
            .iter()
            .find(|i| &*i.name == cname)
            .ok_or_else(|| self.err(ty, format!("'{pname}.{cname}' not found")))?;
        args.check(call)
            .map_err(|reason| self.err(ty, format!("{pname}.{cname}: {reason}")))?;
        out.push(pallet.index);
        out.push(call.index);
        for (pos, a) in call.args.iter().enumerate() {
            let name = a.name.as_deref().unwrap_or("");
            let Some(val) = args.get(pos, name) else {
                // A name given that the call does not have says more than
                // the argument it left out.
                args.check_all(call)
                    .map_err(|reason| self.err(ty, format!("{pname}.{cname}: {reason}")))?;
                return Err(self.err(ty, format!("parameter '{name}' not specified")));
            };
            // A legacy `OpaqueCall` argument (bytes to the type graph) may be
            // given as the call it holds, as py-scale-codec takes it.
            if a.type_name.as_deref() == Some("OpaqueCall") && matches!(val, Value::Dict(_)) {
                let mut inner = Vec::new();
                self.call(ty, val, &mut inner)?;
                compact(inner.len() as u128, out);
                out.extend_from_slice(&inner);
                continue;
            }
            self.node(a.ty, val, out)
                .map_err(|e| e.in_part(&format!("argument '{name}' of {pname}.{cname}")))?;
        }
        Ok(())
    }

    pub(in crate::encode) fn extrinsic(
        &mut self,
        ty: TypeIdx,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let rt = self.runtime(ty)?;
        let x = &rt.extrinsic;
        let mut body = Vec::new();
        let preamble = self.preamble(ty, v)?;
        body.push(preamble.byte());
        match preamble {
            Preamble::Bare(_) => {}
            Preamble::Signed => {
                let (Some(addr), Some(sig)) = (x.address, x.signature) else {
                    return Err(self.err(ty, "runtime has no address/signature types"));
                };
                self.node(addr, v.get("address").unwrap_or(&Value::Null), &mut body)?;
                let s = v
                    .get("signature")
                    .ok_or_else(|| self.err(ty, "missing 'signature'"))?;
                self.node(sig, s, &mut body)?;
                self.extensions(ty, &x.extensions, v, &mut body)?;
            }
            Preamble::General => {
                let version = v
                    .get("extension_version")
                    .and_then(Value::as_u128)
                    .and_then(|n| u8::try_from(n).ok())
                    .ok_or_else(|| self.err(ty, "'extension_version' must be a number 0-255"))?;
                let Some(extensions) = x.general_extensions.get(&version) else {
                    let known: Vec<u8> = x.general_extensions.keys().copied().collect();
                    return Err(self.err(
                        ty,
                        format!(
                            "unknown transaction-extension version {version} \
                             (the metadata lists {known:?})"
                        ),
                    ));
                };
                body.push(version);
                self.extensions(ty, extensions, v, &mut body)?;
            }
        }
        let call = v.get("call").unwrap_or(v);
        match x.call {
            Some(c) => self.node(c, call, &mut body)?,
            None => self.call(ty, call, &mut body)?,
        }
        compact(body.len() as u128, out);
        out.extend_from_slice(&body);
        Ok(())
    }

    /// The preamble an extrinsic value asks for: format 5 when its `version`
    /// says so (general when it names an `extension_version`, else bare);
    /// otherwise format 4, signed when it has an `address`.
    fn preamble(&self, ty: TypeIdx, v: &Value) -> Result<Preamble, Error> {
        match v.get("version").and_then(Value::as_u128) {
            None | Some(4) => {
                let signed = v.get("address").is_some_and(|a| !matches!(a, Value::Null));
                Ok(if signed {
                    Preamble::Signed
                } else {
                    Preamble::Bare(4)
                })
            }
            Some(5) => {
                let general = v
                    .get("extension_version")
                    .is_some_and(|e| !matches!(e, Value::Null));
                Ok(if general {
                    Preamble::General
                } else {
                    Preamble::Bare(5)
                })
            }
            Some(other) => Err(self.err(
                ty,
                format!("unsupported extrinsic version {other} (4 and 5 are known)"),
            )),
        }
    }

    /// Encodes the values of `extensions`, each read from `v` under its key.
    fn extensions(
        &mut self,
        ty: TypeIdx,
        extensions: &[Extension],
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        for e in extensions {
            let ev = v
                .get(&e.key)
                .ok_or_else(|| self.err(ty, format!("missing '{}' ({})", e.key, e.identifier)))?;
            self.node(e.ty, ev, out)?;
        }
        Ok(())
    }

    pub(in crate::encode) fn scale_info_event(
        &mut self,
        ty: TypeIdx,
        e: TypeIdx,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let Some(Node::Enum(outer)) = self.ctx.graph.get(e) else {
            return Err(self.err(ty, "event type is not an enum"));
        };
        let module = v.get("module_id").and_then(Value::as_str);
        let event = v.get("event_id").and_then(Value::as_str);
        let (Some(module), Some(event)) = (module, event) else {
            return Err(self.err(ty, "value needs 'module_id' and 'event_id'"));
        };
        let pallet = self.find_variant(ty, outer, module)?;
        let inner_ty = match &pallet.fields {
            Fields::Unnamed(t) if t.len() == 1 => t[0],
            _ => return Err(self.err(ty, "event variant does not wrap a pallet event")),
        };
        let Some(Node::Enum(events)) = self.ctx.graph.get(inner_ty) else {
            return Err(self.err(ty, "pallet event type is not an enum"));
        };
        let ev = self.find_variant(inner_ty, events, event)?;
        out.push(pallet.index);
        out.push(ev.index);
        let attrs = v.get("attributes").unwrap_or(&Value::Null);
        self.fields(inner_ty, &ev.fields, attrs, out)
    }

    pub(in crate::encode) fn event_record(
        &mut self,
        ty: TypeIdx,
        st: TypeIdx,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let Some(Node::Struct(fields)) = self.ctx.graph.get(st) else {
            return Err(self.err(ty, "EventRecord is not a struct"));
        };
        for f in fields {
            match &*f.name {
                "phase" => {
                    let Some(Node::Enum(vars)) = self.ctx.graph.get(f.ty) else {
                        return Err(self.err(ty, "phase is not an enum"));
                    };
                    let name = v
                        .get("phase")
                        .and_then(Value::as_str)
                        .ok_or_else(|| self.err(ty, "missing 'phase'"))?;
                    let var = self.find_variant(f.ty, vars, name)?;
                    out.push(var.index);
                    let idx = v.get("extrinsic_idx").unwrap_or(&Value::Null);
                    self.fields(f.ty, &var.fields, idx, out)?;
                }
                "event" => {
                    let ev = v
                        .get("event")
                        .ok_or_else(|| self.err(ty, "missing 'event'"))?;
                    self.node(f.ty, ev, out)?;
                }
                other => {
                    let fv = v
                        .get(other)
                        .ok_or_else(|| self.err(ty, format!("missing '{other}'")))?;
                    self.node(f.ty, fv, out)?;
                }
            }
        }
        Ok(())
    }

    pub(in crate::encode) fn runtime(&self, ty: TypeIdx) -> Result<&'a Runtime, Error> {
        self.ctx.runtime.ok_or_else(|| Error::NoRuntime {
            ty: self.ctx.graph.describe(ty),
        })
    }
}
