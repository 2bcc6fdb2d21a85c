//! Encoding a [`Value`] as a [`TypeGraph`](crate::graph::TypeGraph) node, accepting the value forms
//! py-scale-codec 1.2.12 accepts (ints for Compact, `"0x…"` or text for
//! Bytes, dict or list for structs, `"Name"` or `{"Name": v}` for enums, SS58
//! or hex for account ids …). Everything [`mod@crate::decode`] produces encodes
//! back to the same bytes.
//!
//! This module holds the structural walk; [`frame`] the FRAME semantics
//! (account ids, addresses, Era, calls, extrinsics, events and event
//! records, `MetadataVersioned`), which the walk hands the graph's `Special`
//! nodes to.

use ferroscale_value::Value;

mod frame;
pub(crate) mod payload;

use crate::context::Context;
use crate::error::Error;
use crate::graph::{BitStore, Fields, Node, Prim, TypeIdx, Variant};
use ferroscale_core::stack::StackBase;

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
    Encoder::starting(ctx).node(ty, value, out)
}

/// The arguments of a call to encode ([`encode_call`]).
#[derive(Clone, Copy, Debug)]
pub enum CallArgs<'v> {
    /// A dict of the arguments by name (extra names are ignored, as
    /// py-scale-codec ignores them in a `Call` value's `call_args`).
    ByName(&'v Value),
    /// A dict of the arguments by name, every name the call's (an unknown
    /// name is an error naming the call's arguments).
    ByNameStrict(&'v Value),
    /// The arguments in the call's order, as many as it has.
    ByPosition(&'v [Value]),
    /// The decoded shape `[{"name", "type", "value"}…]`: each item found by
    /// its name, else by its position.
    Decoded(&'v [Value]),
    /// None given (a call without arguments).
    None,
}

impl<'v> CallArgs<'v> {
    /// The argument at `pos` named `name`.
    fn get(&self, pos: usize, name: &str) -> Option<&'v Value> {
        match *self {
            CallArgs::ByName(d) | CallArgs::ByNameStrict(d) => d.get(name),
            CallArgs::ByPosition(items) => items.get(pos),
            CallArgs::Decoded(list) => list
                .iter()
                .find(|e| e.get("name").and_then(Value::as_str) == Some(name))
                .or_else(|| list.get(pos))
                .and_then(|e| e.get("value")),
            CallArgs::None => None,
        }
    }

    /// What is wrong with the arguments given for `call`, before any is
    /// encoded: a count that is not the call's (by position), more names
    /// than the call has arguments (strict). With no more names than
    /// arguments, a name that is not the call's leaves an argument missing;
    /// [`CallArgs::check_all`] names it then.
    fn check(&self, call: &crate::runtime::Item) -> Result<(), String> {
        match *self {
            CallArgs::ByNameStrict(Value::Dict(entries)) if entries.len() > call.args.len() => {
                self.check_all(call)
            }
            CallArgs::ByPosition(items) if items.len() != call.args.len() => Err(format!(
                "{} argument(s) given by position, the call takes {} ({})",
                items.len(),
                call.args.len(),
                arg_names(call)
            )),
            _ => Ok(()),
        }
    }

    /// [`CallArgs::check`], every name given checked against the call's.
    fn check_all(&self, call: &crate::runtime::Item) -> Result<(), String> {
        if let CallArgs::ByNameStrict(Value::Dict(entries)) = *self {
            for (k, _) in entries {
                if !call.args.iter().any(|a| a.name.as_deref() == Some(&**k)) {
                    return Err(format!("no argument '{k}' ({})", arg_names(call)));
                }
            }
        }
        self.check(call)
    }
}

/// `its arguments: a, b` (or `it takes none`), for errors.
fn arg_names(call: &crate::runtime::Item) -> String {
    let names: Vec<&str> = call
        .args
        .iter()
        .map(|a| a.name.as_deref().unwrap_or("?"))
        .collect();
    if names.is_empty() {
        "it takes none".to_owned()
    } else {
        format!("its arguments: {}", names.join(", "))
    }
}

/// Encodes the call `pallet.call` of `ctx`'s runtime with `args`: pallet
/// index, call index, the arguments in order — the bytes a `Call` value
/// `{"call_module", "call_function", "call_args"}` encodes to (`ty`, the
/// call type node, names the type in errors).
pub fn encode_call(
    ctx: &Context<'_>,
    ty: TypeIdx,
    pallet: &str,
    call: &str,
    args: CallArgs<'_>,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    Encoder::starting(ctx).call_named(ty, pallet, call, args, out)
}

/// SCALE compact encoding of `v`.
pub(crate) fn compact(v: u128, out: &mut Vec<u8>) {
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
    /// Where this encode started on the stack ([`ferroscale_core::stack`]).
    stack_base: StackBase,
}

impl<'c, 'a> Encoder<'c, 'a> {
    /// An encode that starts here: depth 0, its stack measured from this frame.
    pub(in crate::encode) fn starting(ctx: &'c Context<'a>) -> Self {
        Encoder {
            ctx,
            depth: 0,
            stack_base: StackBase::here(),
        }
    }

    pub(in crate::encode) fn err(&self, ty: TypeIdx, reason: impl Into<String>) -> Error {
        Error::Encode {
            ty: self.ctx.graph.describe(ty),
            reason: reason.into(),
        }
    }

    pub(in crate::encode) fn node(
        &mut self,
        ty: TypeIdx,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let graph = self.ctx.graph;
        let Some(node) = graph.get(ty) else {
            return Err(self.err(ty, "type index out of range"));
        };
        if self.depth >= self.ctx.max_depth {
            return Err(self.err(ty, format!("nesting deeper than {}", self.ctx.max_depth)));
        }
        if self.stack_base.exhausted(self.ctx.stack_budget) {
            return Err(self.err(
                ty,
                format!(
                    "nesting {} levels deep used more than the encoder's stack budget of {} KiB",
                    self.depth,
                    self.ctx.stack_budget / 1024
                ),
            ));
        }
        self.depth += 1;
        let r = self.node_inner(ty, node, v, out);
        self.depth -= 1;
        r
    }

    pub(in crate::encode) fn items<'v>(
        &self,
        ty: TypeIdx,
        v: &'v Value,
    ) -> Result<&'v [Value], Error> {
        v.as_items()
            .ok_or_else(|| self.err(ty, format!("expected a list, got {v}")))
    }

    pub(in crate::encode) fn node_inner(
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
            // An empty array takes no bytes from `None` or empty hex too, as
            // py-scale-codec encodes `[u8; 0]` (its value `[]`, given as `"0x"`).
            Node::Array(_, 0) if matches!(v, Value::Null) || v.as_str() == Some("0x") => Ok(()),
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

    pub(in crate::encode) fn uint(&self, ty: TypeIdx, v: &Value) -> Result<u128, Error> {
        match v {
            Value::UInt(n) => Ok(*n),
            Value::Int(n) if *n >= 0 => Ok(*n as u128),
            Value::Str(s) => s
                .parse::<u128>()
                .map_err(|_| self.err(ty, format!("'{s}' is not an integer"))),
            _ => Err(self.err(ty, format!("expected an unsigned integer, got {v}"))),
        }
    }

    pub(in crate::encode) fn int(&self, ty: TypeIdx, v: &Value) -> Result<i128, Error> {
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
    pub(in crate::encode) fn byte_string(&self, ty: TypeIdx, v: &Value) -> Result<Vec<u8>, Error> {
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

    pub(in crate::encode) fn prim(
        &self,
        ty: TypeIdx,
        p: Prim,
        v: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
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
                // A positive value of 128 bits or more arrives unsigned: it
                // fits while its top bit (the sign bit of an i256) is clear.
                Value::U256(le) if le[31] & 0x80 == 0 => out.extend_from_slice(&le[..]),
                Value::U256(_) => return Err(self.err(ty, format!("{v} out of range for i256"))),
                Value::UInt(n) => {
                    out.extend_from_slice(&n.to_le_bytes());
                    out.extend_from_slice(&[0u8; 16]);
                }
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

    pub(in crate::encode) fn bit_seq(
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

    pub(in crate::encode) fn find_variant<'v>(
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

    pub(in crate::encode) fn enum_value(
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

    pub(in crate::encode) fn fields(
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
}
