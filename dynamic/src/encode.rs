//! Encoding a [`Value`] as a [`TypeGraph`](crate::graph::TypeGraph) node, accepting the value forms
//! py-scale-codec 1.2.12 accepts (ints for Compact, `"0x…"` or text for
//! Bytes, dict or list for structs, `"Name"` or `{"Name": v}` for enums, SS58
//! or hex for account ids …). Everything [`mod@crate::decode`] produces encodes
//! back to the same bytes.

use ferroscale_core::value::Value;

use crate::decode::Context;
use crate::error::Error;
use crate::graph::{BitStore, Fields, Node, Prim, Special, TypeIdx, Variant};
use crate::runtime::{Item, Runtime};

/// Encodes `value` as `ty`.
pub fn encode_value(ctx: &Context<'_>, ty: TypeIdx, value: &Value) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    encode_into(ctx, ty, value, &mut out)?;
    Ok(out)
}

/// Encodes `value` as `ty`, appending to `out`.
pub fn encode_into(
    ctx: &Context<'_>,
    ty: TypeIdx,
    value: &Value,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    Encoder { ctx, depth: 0 }.node(ty, value, out)
}

/// SCALE compact encoding of `v`.
pub fn compact(v: u128, out: &mut Vec<u8>) {
    if v < 1 << 6 {
        out.push((v as u8) << 2);
    } else if v < 1 << 14 {
        out.extend_from_slice(&(((v as u16) << 2) | 1).to_le_bytes());
    } else if v < 1 << 30 {
        out.extend_from_slice(&(((v as u32) << 2) | 2).to_le_bytes());
    } else {
        let bytes = v.to_le_bytes();
        let n = 16 - (v.leading_zeros() / 8) as usize;
        out.push((((n - 4) as u8) << 2) | 3);
        out.extend_from_slice(&bytes[..n]);
    }
}

fn compact_u256(le: &[u8; 32], out: &mut Vec<u8>) {
    let n = 32 - le.iter().rev().take_while(|&&b| b == 0).count();
    if n <= 16 {
        let mut b = [0u8; 16];
        b.copy_from_slice(&le[..16]);
        return compact(u128::from_le_bytes(b), out);
    }
    out.push((((n - 4) as u8) << 2) | 3);
    out.extend_from_slice(&le[..n]);
}

struct Encoder<'c, 'a> {
    ctx: &'c Context<'a>,
    depth: u32,
}

impl<'c, 'a> Encoder<'c, 'a> {
    fn err(&self, ty: TypeIdx, reason: impl Into<String>) -> Error {
        Error::Encode {
            ty: self.ctx.graph.describe(ty),
            reason: reason.into(),
        }
    }

    fn runtime(&self, ty: TypeIdx) -> Result<&'a Runtime, Error> {
        self.ctx.runtime.ok_or_else(|| Error::NoRuntime {
            ty: self.ctx.graph.describe(ty),
        })
    }

    fn node(&mut self, ty: TypeIdx, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        let graph = self.ctx.graph;
        let Some(node) = graph.get(ty) else {
            return Err(self.err(ty, "type index out of range"));
        };
        if self.depth >= self.ctx.max_depth {
            return Err(self.err(ty, format!("nesting deeper than {}", self.ctx.max_depth)));
        }
        self.depth += 1;
        let r = self.node_inner(ty, node, v, out);
        self.depth -= 1;
        r
    }

    fn items<'v>(&self, ty: TypeIdx, v: &'v Value) -> Result<&'v [Value], Error> {
        v.as_items()
            .ok_or_else(|| self.err(ty, format!("expected a list, got {v}")))
    }

    fn node_inner(
        &mut self,
        ty: TypeIdx,
        node: &'a Node,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        match node {
            Node::Prim(p) => self.prim(ty, *p, v, out),
            Node::Null => Ok(()),
            Node::Compact(_) => match v {
                Value::U256(le) => {
                    compact_u256(le, out);
                    Ok(())
                }
                _ => {
                    let n = self.uint(ty, v)?;
                    compact(n, out);
                    Ok(())
                }
            },
            Node::Bytes => {
                let b = self.byte_string(ty, v)?;
                compact(b.len() as u128, out);
                out.extend_from_slice(&b);
                Ok(())
            }
            Node::ByteArray(n) => {
                let b = self.byte_string(ty, v)?;
                if b.len() != *n as usize {
                    return Err(self.err(
                        ty,
                        format!("value should be {n} bytes long, got {}", b.len()),
                    ));
                }
                out.extend_from_slice(&b);
                Ok(())
            }
            Node::Array(inner, n) => {
                let items = self.items(ty, v)?;
                if items.len() != *n as usize {
                    return Err(self.err(ty, format!("expected {n} elements, got {}", items.len())));
                }
                for it in items {
                    self.node(*inner, it, out)?;
                }
                Ok(())
            }
            Node::Seq(inner) => {
                let items = self.items(ty, v)?;
                compact(items.len() as u128, out);
                for it in items {
                    self.node(*inner, it, out)?;
                }
                Ok(())
            }
            Node::Tuple(ts) => {
                if ts.len() == 1 {
                    return self.node(ts[0], v, out);
                }
                let items = match v {
                    Value::Null if ts.is_empty() => &[][..],
                    _ => self.items(ty, v)?,
                };
                if items.len() != ts.len() {
                    return Err(self.err(
                        ty,
                        format!(
                            "element count of value ({}) doesn't match type definition ({})",
                            items.len(),
                            ts.len()
                        ),
                    ));
                }
                for (t, it) in ts.iter().zip(items) {
                    self.node(*t, it, out)?;
                }
                Ok(())
            }
            Node::Struct(fields) => {
                match v {
                    Value::Dict(_) => {
                        for f in fields {
                            let Some(fv) = v.get(&f.name) else {
                                return Err(self.err(
                                    ty,
                                    format!(
                                        "element \"{}\" of struct is missing in given value",
                                        f.name
                                    ),
                                ));
                            };
                            self.node(f.ty, fv, out)?;
                        }
                    }
                    Value::List(items) | Value::Tuple(items) if items.len() == fields.len() => {
                        for (f, it) in fields.iter().zip(items) {
                            self.node(f.ty, it, out)?;
                        }
                    }
                    _ if fields.len() == 1 => self.node(fields[0].ty, v, out)?,
                    _ => return Err(self.err(ty, format!("expected a dict, got {v}"))),
                }
                Ok(())
            }
            Node::Enum(variants) => self.enum_value(ty, variants, v, out),
            Node::Option(inner) => {
                if matches!(v, Value::Null) {
                    out.push(0);
                    Ok(())
                } else {
                    out.push(1);
                    self.node(*inner, v, out)
                }
            }
            Node::Result(ok, err) => {
                if let Some(x) = v.get("Ok") {
                    out.push(0);
                    self.node(*ok, x, out)
                } else if let Some(x) = v.get("Err") {
                    out.push(1);
                    self.node(*err, x, out)
                } else {
                    Err(self.err(
                        ty,
                        format!("expected {{\"Ok\": …}} or {{\"Err\": …}}, got {v}"),
                    ))
                }
            }
            Node::Set { byte_len, flags } => {
                let items = self.items(ty, v)?;
                let mut mask: u128 = 0;
                for it in items {
                    let name = it
                        .as_str()
                        .ok_or_else(|| self.err(ty, format!("set item {it} is not a name")))?;
                    match flags.iter().find(|(n, _)| &**n == name) {
                        Some((_, bit)) => mask |= *bit as u128,
                        None => {
                            return Err(self.err(ty, format!("'{name}' is not a flag of this set")))
                        }
                    }
                }
                let n = (*byte_len as usize).min(16);
                out.extend_from_slice(&mask.to_le_bytes()[..n]);
                Ok(())
            }
            Node::BitSeq { store, .. } => self.bit_seq(ty, *store, v, out),
            Node::Map(k, val) => {
                let items = self.items(ty, v)?;
                compact(items.len() as u128, out);
                for it in items {
                    match it.as_items() {
                        Some([kv, vv]) => {
                            self.node(*k, kv, out)?;
                            self.node(*val, vv, out)?;
                        }
                        _ => {
                            return Err(
                                self.err(ty, format!("map entry {it} is not a (key, value) pair"))
                            )
                        }
                    }
                }
                Ok(())
            }
            Node::Special(s) => self.special(ty, s, v, out),
            Node::Unresolved(name) => Err(Error::Unresolved {
                name: name.to_string(),
            }),
        }
    }

    fn uint(&self, ty: TypeIdx, v: &Value) -> Result<u128, Error> {
        match v {
            Value::UInt(n) => Ok(*n),
            Value::Int(n) if *n >= 0 => Ok(*n as u128),
            Value::Str(s) => s
                .parse::<u128>()
                .map_err(|_| self.err(ty, format!("'{s}' is not an integer"))),
            _ => Err(self.err(ty, format!("expected an unsigned integer, got {v}"))),
        }
    }

    fn int(&self, ty: TypeIdx, v: &Value) -> Result<i128, Error> {
        match v {
            Value::Int(n) => Ok(*n),
            Value::UInt(n) => {
                i128::try_from(*n).map_err(|_| self.err(ty, format!("{n} out of range")))
            }
            Value::Str(s) => s
                .parse::<i128>()
                .map_err(|_| self.err(ty, format!("'{s}' is not an integer"))),
            _ => Err(self.err(ty, format!("expected an integer, got {v}"))),
        }
    }

    /// Bytes from `"0x…"` hex, text, or a list of byte values.
    fn byte_string(&self, ty: TypeIdx, v: &Value) -> Result<Vec<u8>, Error> {
        match v {
            Value::Str(s) => {
                if let Some(h) = s.strip_prefix("0x") {
                    if let Ok(b) = ferroscale_core::hex::decode(h) {
                        return Ok(b);
                    }
                }
                Ok(s.as_bytes().to_vec())
            }
            Value::List(items) | Value::Tuple(items) => items
                .iter()
                .map(|i| match i.as_u128() {
                    Some(b) if b < 256 => Ok(b as u8),
                    _ => Err(self.err(ty, format!("{i} is not a byte"))),
                })
                .collect(),
            _ => Err(self.err(ty, format!("expected bytes as \"0x…\" or text, got {v}"))),
        }
    }

    fn prim(&self, ty: TypeIdx, p: Prim, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        macro_rules! fixed_u {
            ($t:ty) => {{
                let n = self.uint(ty, v)?;
                let n = <$t>::try_from(n).map_err(|_| self.err(ty, format!("{n} out of range")))?;
                out.extend_from_slice(&n.to_le_bytes());
            }};
        }
        macro_rules! fixed_i {
            ($t:ty) => {{
                let n = self.int(ty, v)?;
                let n = <$t>::try_from(n).map_err(|_| self.err(ty, format!("{n} out of range")))?;
                out.extend_from_slice(&n.to_le_bytes());
            }};
        }
        match p {
            Prim::Bool => match v {
                Value::Bool(b) => out.push(*b as u8),
                _ => return Err(self.err(ty, "value must be boolean")),
            },
            Prim::U8 => fixed_u!(u8),
            Prim::U16 => fixed_u!(u16),
            Prim::U32 => fixed_u!(u32),
            Prim::U64 => fixed_u!(u64),
            Prim::U128 => fixed_u!(u128),
            Prim::I8 => fixed_i!(i8),
            Prim::I16 => fixed_i!(i16),
            Prim::I32 => fixed_i!(i32),
            Prim::I64 => fixed_i!(i64),
            Prim::I128 => fixed_i!(i128),
            Prim::U256 => match v {
                Value::U256(le) => out.extend_from_slice(&le[..]),
                _ => {
                    let n = self.uint(ty, v)?;
                    out.extend_from_slice(&n.to_le_bytes());
                    out.extend_from_slice(&[0u8; 16]);
                }
            },
            Prim::I256 => match v {
                Value::I256(le) => out.extend_from_slice(&le[..]),
                _ => {
                    let n = self.int(ty, v)?;
                    out.extend_from_slice(&n.to_le_bytes());
                    out.extend_from_slice(&[if n < 0 { 0xff } else { 0 }; 16]);
                }
            },
            Prim::Char => {
                let s = v
                    .as_str()
                    .ok_or_else(|| self.err(ty, "expected a one-character string"))?;
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => out.extend_from_slice(&(c as u32).to_le_bytes()),
                    _ => return Err(self.err(ty, format!("'{s}' is not one character"))),
                }
            }
            Prim::Str => {
                let b = self.byte_string(ty, v)?;
                compact(b.len() as u128, out);
                out.extend_from_slice(&b);
            }
        }
        Ok(())
    }

    fn bit_seq(
        &self,
        ty: TypeIdx,
        store: BitStore,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        // Bits most significant first, as rendered by the decoder.
        let bits: Vec<bool> = match v {
            Value::Str(s) => {
                let digits = s
                    .strip_prefix("0b")
                    .ok_or_else(|| self.err(ty, format!("'{s}' is not a \"0b…\" bit string")))?;
                digits
                    .chars()
                    .map(|c| match c {
                        '0' => Ok(false),
                        '1' => Ok(true),
                        _ => Err(self.err(ty, format!("'{s}' is not a \"0b…\" bit string"))),
                    })
                    .collect::<Result<_, _>>()?
            }
            Value::List(items) => items
                .iter()
                .map(|i| match i {
                    Value::Bool(b) => Ok(*b),
                    Value::UInt(0) => Ok(false),
                    Value::UInt(1) => Ok(true),
                    _ => Err(self.err(ty, format!("{i} is not a bit"))),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(self.err(ty, format!("expected \"0b…\" or a list of bits, got {v}"))),
        };
        // "0b0" is how an empty sequence renders (py-scale-codec's `bin(0)`);
        // otherwise the digits give the length.
        let n = if bits == [false] { 0 } else { bits.len() };
        compact(n as u128, out);
        let word = store.bytes();
        let nbytes = n.div_ceil(8 * word) * word;
        let mut bytes = vec![0u8; nbytes];
        // bits[n - 1 - i] is bit i of the little-endian integer.
        for (i, bit) in bits.iter().rev().take(n).enumerate() {
            if *bit {
                bytes[i / 8] |= 1 << (i % 8);
            }
        }
        out.extend_from_slice(&bytes);
        Ok(())
    }

    fn find_variant<'v>(
        &self,
        ty: TypeIdx,
        variants: &'v [Variant],
        name: &str,
    ) -> Result<&'v Variant, Error> {
        variants
            .iter()
            .find(|var| &*var.name == name)
            .ok_or_else(|| {
                self.err(
                    ty,
                    format!("value '{name}' not present in type_mapping of this enum"),
                )
            })
    }

    fn enum_value(
        &mut self,
        ty: TypeIdx,
        variants: &'a [Variant],
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let (name, payload) = match v {
            Value::Str(s) => (&**s, None),
            Value::Dict(entries) if entries.len() == 1 => (&*entries[0].0, Some(&entries[0].1)),
            _ => return Err(self.err(ty, format!("value must be a dict or str, not {v}"))),
        };
        let var = self.find_variant(ty, variants, name)?;
        out.push(var.index);
        self.fields(ty, &var.fields, payload.unwrap_or(&Value::Null), out)
    }

    fn fields(
        &mut self,
        ty: TypeIdx,
        fields: &'a Fields,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        match fields {
            Fields::Unit => Ok(()),
            Fields::Unnamed(ts) if ts.len() == 1 => self.node(ts[0], v, out),
            Fields::Unnamed(ts) => {
                let items = self.items(ty, v)?;
                if items.len() != ts.len() {
                    return Err(self.err(
                        ty,
                        format!("expected {} elements, got {}", ts.len(), items.len()),
                    ));
                }
                for (t, it) in ts.iter().zip(items) {
                    self.node(*t, it, out)?;
                }
                Ok(())
            }
            Fields::Named(fs) => {
                match v {
                    Value::Dict(_) => {
                        for f in fs {
                            let fv = v.get(&f.name).ok_or_else(|| {
                                self.err(
                                    ty,
                                    format!("element \"{}\" is missing in given value", f.name),
                                )
                            })?;
                            self.node(f.ty, fv, out)?;
                        }
                    }
                    Value::List(items) | Value::Tuple(items) if items.len() == fs.len() => {
                        for (f, it) in fs.iter().zip(items) {
                            self.node(f.ty, it, out)?;
                        }
                    }
                    _ => return Err(self.err(ty, format!("expected a dict, got {v}"))),
                }
                Ok(())
            }
        }
    }

    fn account_bytes(&self, ty: TypeIdx, v: &Value, len: usize) -> Result<Vec<u8>, Error> {
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

    fn special(
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
                        if is_hex_account || ferroscale_core::ss58::is_valid(s, None) {
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
                let (pallet, event) =
                    self.lookup_item(ty, rt, v, "module_id", "event_id", false)?;
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
    fn metadata_versioned(
        &mut self,
        ty: TypeIdx,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let types = crate::metadata_value::metadata_types()?;
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
        Encoder {
            ctx: &ctx,
            depth: self.depth,
        }
        .node(inner_ty, inner, out)
    }

    fn era(&self, ty: TypeIdx, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
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

    /// Finds (pallet index, item) from a value's pallet/item names (or a `call_index`).
    fn lookup_item(
        &self,
        ty: TypeIdx,
        rt: &'a Runtime,
        v: &Value,
        pallet_key: &str,
        item_key: &str,
        calls: bool,
    ) -> Result<(u8, &'a Item), Error> {
        let pname = v.get(pallet_key).and_then(Value::as_str);
        let iname = v.get(item_key).and_then(Value::as_str);
        let (Some(pname), Some(iname)) = (pname, iname) else {
            return Err(self.err(ty, format!("value needs '{pallet_key}' and '{item_key}'")));
        };
        let pallet = rt
            .pallet(pname)
            .ok_or_else(|| self.err(ty, format!("pallet '{pname}' not found")))?;
        let items = if calls { &pallet.calls } else { &pallet.events };
        let item = items
            .iter()
            .find(|i| &*i.name == iname)
            .ok_or_else(|| self.err(ty, format!("'{pname}.{iname}' not found")))?;
        Ok((pallet.index, item))
    }

    fn call(&mut self, ty: TypeIdx, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        let rt = self.runtime(ty)?;
        let (pi, call) = self.lookup_item(ty, rt, v, "call_module", "call_function", true)?;
        out.push(pi);
        out.push(call.index);
        let args = v.get("call_args");
        for (pos, a) in call.args.iter().enumerate() {
            let name = a.name.as_deref().unwrap_or("");
            let val = match args {
                // [{"name", "type", "value"}…] as decoded
                Some(Value::List(list)) => list
                    .iter()
                    .find(|e| e.get("name").and_then(Value::as_str) == Some(name))
                    .or_else(|| list.get(pos))
                    .and_then(|e| e.get("value")),
                Some(d @ Value::Dict(_)) => d.get(name),
                _ => None,
            }
            .ok_or_else(|| self.err(ty, format!("parameter '{name}' not specified")))?;
            // A legacy `OpaqueCall` argument (bytes to the type graph) may be
            // given as the call it holds, as py-scale-codec takes it.
            if a.type_name.as_deref() == Some("OpaqueCall") && matches!(val, Value::Dict(_)) {
                let mut inner = Vec::new();
                self.call(ty, val, &mut inner)?;
                compact(inner.len() as u128, out);
                out.extend_from_slice(&inner);
                continue;
            }
            self.node(a.ty, val, out)?;
        }
        Ok(())
    }

    fn extrinsic(&mut self, ty: TypeIdx, v: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
        let rt = self.runtime(ty)?;
        let x = &rt.extrinsic;
        let mut body = Vec::new();
        let signed = v.get("address").is_some_and(|a| !matches!(a, Value::Null));
        body.push(if signed { 0x84 } else { 0x04 });
        if signed {
            let (Some(addr), Some(sig)) = (x.address, x.signature) else {
                return Err(self.err(ty, "runtime has no address/signature types"));
            };
            self.node(addr, v.get("address").unwrap_or(&Value::Null), &mut body)?;
            let s = v
                .get("signature")
                .ok_or_else(|| self.err(ty, "missing 'signature'"))?;
            self.node(sig, s, &mut body)?;
            for e in &x.extensions {
                let ev = v.get(&e.key).ok_or_else(|| {
                    self.err(ty, format!("missing '{}' ({})", e.key, e.identifier))
                })?;
                self.node(e.ty, ev, &mut body)?;
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

    fn scale_info_event(
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

    fn event_record(
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
}
