//! A typed column's decode plan: its registry type and its [`Shape`]
//! compiled once per runtime into the steps that read the SCALE bytes
//! straight into the column's [`Builder`], without the dynamic layer's
//! value in between.
//!
//! Each step reads the bytes exactly as the dynamic decoder does (the same
//! lengths, discriminants and errors) and appends what
//! [`Builder::append`] appends for the value that decoder would give. What
//! a step does not read itself — JSON columns, FRAME specials, maps, sets,
//! 256-bit compacts, a type whose shape and node do not pair up — is a
//! [`Op::Dynamic`] step: the dynamic decoder reads that part into a
//! [`Document`] and [`Builder::append`] appends it, as for the generic
//! tables' values. So a plan's output is the old path's by construction
//! wherever it hands over, and by the rules below wherever it does not.

use ferroscale_core::hex;
use ferroscale_dynamic::graph::min_size;
use ferroscale_dynamic::{
    ss58_account, Context, Document, Fields, Node, Prim, Sink, Special, TypeGraph, TypeIdx,
    ValueSink, Variant,
};
use ferroscale_value::render::write_py_bit_string;
use ferroscale_value::Value;

use super::arrow_type::unwrap_option;
use super::column::Builder;
use super::shape::Shape;
use super::wide::{self, WideCell};

/// Why a plan stopped.
#[derive(Debug)]
pub(crate) enum Stop {
    /// The bytes are not a value of the type (the dynamic decoder fails on
    /// them too): the whole item is undone, as it never decoded.
    Invalid,
}

/// One step of a plan.
#[derive(Debug)]
pub(crate) enum Op {
    /// `bool`: one byte, 0 or 1.
    Bool,
    /// `u8`…`u64` little-endian (bytes), into an unsigned column.
    UInt(usize),
    /// `i8`…`i64` little-endian (bytes), into a signed column.
    Int(usize),
    /// `u128`/`i128` into a wide column.
    Wide128 {
        /// Signed.
        signed: bool,
    },
    /// `u256`/`i256` into a wide column.
    Wide256 {
        /// Signed.
        signed: bool,
    },
    /// A compact integer into an unsigned column of `bits`; a value past
    /// it is handed to the dynamic path (`redo`), whose append says why it
    /// does not fit.
    CompactUInt {
        /// The column's width.
        bits: u8,
        /// The step that reads it again when it does not fit.
        redo: Box<Op>,
    },
    /// A compact integer (at most 128 bits) into a wide unsigned column.
    CompactWide,
    /// A 32-byte account: SS58 text, or `0x…` hex without a format.
    Account,
    /// `str`: the text when UTF-8, else its `0x…` hex.
    Str,
    /// `char`: four bytes, one scalar value.
    Char,
    /// `Vec<u8>`: binary.
    Bytes,
    /// `[u8; N]`, 20-byte accounts: fixed-size binary.
    Fixed(usize),
    /// A bit sequence of words of this many bytes: `0b…` text.
    Bits(usize),
    /// An enum without data: its variant's name.
    Label(Box<Discriminants>),
    /// `Option<T>`.
    Option(Box<Op>),
    /// `Vec<T>` (`len` `None`) or `[T; len]`.
    List {
        /// The items' step.
        item: Box<Op>,
        /// An array's length.
        len: Option<u32>,
        /// The least bytes an item takes (never 0: such lists are [`Op::Dynamic`]).
        min_size: u64,
        /// Items are wide integers, each a struct of its two columns.
        wide: bool,
    },
    /// A struct or tuple: one step per field, in order.
    Struct(Vec<Op>),
    /// An enum with data (or a `Result`).
    Enum(Box<EnumOp>),
    /// Read by the dynamic decoder and appended as its value.
    Dynamic {
        /// The type.
        ty: TypeIdx,
        /// The column's shape there.
        shape: Shape,
        /// Composite levels above this step in the item (for the depth limit).
        depth: u32,
    },
}

/// An enum's variants by discriminant byte.
#[derive(Debug)]
pub(crate) struct Discriminants {
    /// Byte → position in `names` (the variant the dynamic decoder picks).
    at: Vec<Option<u16>>,
    names: Vec<String>,
}

impl Discriminants {
    fn of(variants: &[Variant]) -> Discriminants {
        // As the dynamic decoder's `variant_at`: the variant at position
        // `index` when it has that index, else the first that has it.
        let at = (0..=255u8)
            .map(|b| {
                let p = match variants.get(b as usize) {
                    Some(v) if v.index == b => Some(b as usize),
                    _ => variants.iter().position(|v| v.index == b),
                };
                p.map(|p| p as u16)
            })
            .collect();
        Discriminants {
            at,
            names: variants.iter().map(|v| v.name.to_string()).collect(),
        }
    }

    fn get(&self, byte: u8) -> Option<usize> {
        self.at[byte as usize].map(usize::from)
    }
}

/// An enum with data: per variant (by position) what its payload is.
#[derive(Debug)]
pub(crate) struct EnumOp {
    variants: Discriminants,
    payloads: Vec<Payload>,
    /// How many payload columns follow the label column.
    columns: usize,
}

/// A variant's payload.
#[derive(Debug)]
enum Payload {
    /// No data.
    Unit,
    /// Data into payload column `column` (0: the first after the label).
    Data { column: usize, op: Op },
}

/// Compiles the plan of a value of `ty` in a column of `shape` (the shape
/// [`Shape::of`] gives `ty`, or any other: a pair that does not match is a
/// [`Op::Dynamic`] step, whose append then says why the value does not fit).
pub(crate) fn compile(graph: &TypeGraph, ty: TypeIdx, shape: &Shape) -> Op {
    Compiler { graph }.op(ty, shape, 0)
}

struct Compiler<'g> {
    graph: &'g TypeGraph,
}

impl Compiler<'_> {
    fn op(&self, ty: TypeIdx, shape: &Shape, depth: u32) -> Op {
        self.fast(ty, shape, depth).unwrap_or_else(|| Op::Dynamic {
            ty,
            shape: shape.clone(),
            depth,
        })
    }

    /// The step that reads `ty` itself, if there is one for this pair.
    fn fast(&self, ty: TypeIdx, shape: &Shape, depth: u32) -> Option<Op> {
        // Shapes come from the graph's nesting (at most a few levels past
        // `MAX_DEPTH`); deeper is JSON there, and the dynamic path here.
        if depth > 2 * super::shape::MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        let node = self.graph.get(ty)?;
        Some(match (node, shape) {
            (Node::Prim(p), _) => prim(*p, shape)?,
            (Node::Compact(inner), Shape::UInt(bits)) if !is_256(self.graph, *inner) => {
                Op::CompactUInt {
                    bits: *bits,
                    redo: Box::new(Op::Dynamic {
                        ty,
                        shape: shape.clone(),
                        depth,
                    }),
                }
            }
            (Node::Compact(inner), Shape::Wide { signed: false })
                if !is_256(self.graph, *inner) =>
            {
                Op::CompactWide
            }
            (Node::Bytes, Shape::Bytes) => Op::Bytes,
            (Node::ByteArray(n), Shape::Hex(m)) if n == m && *n > 0 => Op::Fixed(*n as usize),
            (Node::Special(Special::AccountId), Shape::Text) => Op::Account,
            (Node::Special(Special::EthereumAccountId), Shape::Hex(20)) => Op::Fixed(20),
            (Node::BitSeq { store, .. }, Shape::Text) => Op::Bits(store.bytes()),
            (Node::Option(inner), Shape::Option(s)) => Op::Option(Box::new(self.op(*inner, s, d))),
            (Node::Seq(inner) | Node::Array(inner, _), Shape::List(item)) => {
                let min_size = min_size(self.graph, *inner, 0);
                if min_size == 0 {
                    return None;
                }
                let len = match node {
                    Node::Array(_, n) => Some(*n),
                    _ => None,
                };
                Op::List {
                    item: Box::new(self.op(*inner, item, d)),
                    len,
                    min_size,
                    wide: matches!(unwrap_option(item), Shape::Wide { .. }),
                }
            }
            // A 1-tuple is its element's value.
            (Node::Tuple(items), _) if items.len() == 1 => self.fast(items[0], shape, d)?,
            (
                Node::Tuple(items),
                Shape::Struct {
                    fields,
                    tuple: true,
                },
            ) if items.len() == fields.len() && items.len() > 1 => Op::Struct(
                items
                    .iter()
                    .zip(fields)
                    .map(|(t, (_, s))| self.op(*t, s, d))
                    .collect(),
            ),
            (
                Node::Struct(fs),
                Shape::Struct {
                    fields,
                    tuple: false,
                },
            ) if fs.len() == fields.len()
                && fs.iter().zip(fields).all(|(f, (n, _))| *f.name == **n) =>
            {
                Op::Struct(
                    fs.iter()
                        .zip(fields)
                        .map(|(f, (_, s))| self.op(f.ty, s, d))
                        .collect(),
                )
            }
            (Node::Enum(variants), Shape::Label)
                if variants.iter().all(|v| matches!(v.fields, Fields::Unit)) =>
            {
                Op::Label(Box::new(Discriminants::of(variants)))
            }
            (Node::Enum(variants), Shape::Enum { variants: shaped })
                if variants.len() == shaped.len() =>
            {
                let mut payloads = Vec::with_capacity(variants.len());
                let mut columns = 0;
                for (v, (name, payload)) in variants.iter().zip(shaped) {
                    if *v.name != **name {
                        return None;
                    }
                    payloads.push(match (&v.fields, payload) {
                        (Fields::Unit, None) => Payload::Unit,
                        (_, None) => return None,
                        (fields, Some(s)) => {
                            let op = self.payload(fields, s, d)?;
                            columns += 1;
                            Payload::Data {
                                column: columns - 1,
                                op,
                            }
                        }
                    });
                }
                Op::Enum(Box::new(EnumOp {
                    variants: Discriminants::of(variants),
                    payloads,
                    columns,
                }))
            }
            (Node::Result(ok, err), Shape::Enum { variants }) if variants.len() == 2 => {
                let (Some(ok_shape), Some(err_shape)) = (&variants[0].1, &variants[1].1) else {
                    return None;
                };
                let names: Vec<Variant> = ["Ok", "Err"]
                    .iter()
                    .enumerate()
                    .map(|(i, n)| Variant {
                        index: i as u8,
                        name: (*n).into(),
                        fields: Fields::Unit,
                    })
                    .collect();
                Op::Enum(Box::new(EnumOp {
                    variants: Discriminants::of(&names),
                    payloads: vec![
                        Payload::Data {
                            column: 0,
                            op: self.op(*ok, ok_shape, d),
                        },
                        Payload::Data {
                            column: 1,
                            op: self.op(*err, err_shape, d),
                        },
                    ],
                    columns: 2,
                }))
            }
            _ => return None,
        })
    }

    /// A variant payload's step (the value the decoder gives a payload:
    /// one unnamed field is the value itself, several a tuple, named a dict).
    fn payload(&self, fields: &Fields, shape: &Shape, depth: u32) -> Option<Op> {
        match (fields, shape) {
            (Fields::Unnamed(ts), _) if ts.len() == 1 => Some(self.op(ts[0], shape, depth)),
            (
                Fields::Unnamed(ts),
                Shape::Struct {
                    fields,
                    tuple: true,
                },
            ) if ts.len() == fields.len() && ts.len() > 1 => {
                // The payload's fields are read at the enum's level (its
                // tuple is no level of the dynamic walk).
                Some(Op::Struct(
                    ts.iter()
                        .zip(fields)
                        .map(|(t, (_, s))| self.op(*t, s, depth))
                        .collect(),
                ))
            }
            (
                Fields::Named(fs),
                Shape::Struct {
                    fields,
                    tuple: false,
                },
            ) if fs.len() == fields.len()
                && fs.iter().zip(fields).all(|(f, (n, _))| *f.name == **n) =>
            {
                Some(Op::Struct(
                    fs.iter()
                        .zip(fields)
                        .map(|(f, (_, s))| self.op(f.ty, s, depth))
                        .collect(),
                ))
            }
            _ => None,
        }
    }
}

fn prim(p: Prim, shape: &Shape) -> Option<Op> {
    Some(match (p, shape) {
        (Prim::Bool, Shape::Bool) => Op::Bool,
        (Prim::U8, Shape::UInt(8)) => Op::UInt(1),
        (Prim::U16, Shape::UInt(16)) => Op::UInt(2),
        (Prim::U32, Shape::UInt(32)) => Op::UInt(4),
        (Prim::U64, Shape::UInt(64)) => Op::UInt(8),
        (Prim::I8, Shape::Int(8)) => Op::Int(1),
        (Prim::I16, Shape::Int(16)) => Op::Int(2),
        (Prim::I32, Shape::Int(32)) => Op::Int(4),
        (Prim::I64, Shape::Int(64)) => Op::Int(8),
        (Prim::U128, Shape::Wide { signed: false }) => Op::Wide128 { signed: false },
        (Prim::I128, Shape::Wide { signed: true }) => Op::Wide128 { signed: true },
        (Prim::U256, Shape::Wide { signed: false }) => Op::Wide256 { signed: false },
        (Prim::I256, Shape::Wide { signed: true }) => Op::Wide256 { signed: true },
        (Prim::Str, Shape::Text) => Op::Str,
        (Prim::Char, Shape::Text) => Op::Char,
        _ => return None,
    })
}

/// Whether `ty` is a 256-bit integer (a compact of it reads up to 32 bytes).
fn is_256(graph: &TypeGraph, ty: TypeIdx) -> bool {
    matches!(graph.get(ty), Some(Node::Prim(Prim::U256 | Prim::I256)))
}

/// The bytes of one item (an event record, an extrinsic) and where the
/// plans have read to.
pub(crate) struct Input<'b> {
    data: &'b [u8],
    /// The next byte to read.
    pub pos: usize,
}

impl<'b> Input<'b> {
    /// `data`, read from `pos`.
    pub(crate) fn new(data: &'b [u8], pos: usize) -> Self {
        Input { data, pos }
    }

    /// The bytes not read yet.
    pub(crate) fn rest(&self) -> &'b [u8] {
        self.data.get(self.pos..).unwrap_or_default()
    }

    /// Whether every byte was read.
    pub(crate) fn at_end(&self) -> bool {
        self.pos == self.data.len()
    }

    /// The next `n` bytes.
    #[inline]
    pub(crate) fn take(&mut self, n: usize) -> Result<&'b [u8], Stop> {
        let end = self.pos.checked_add(n).ok_or(Stop::Invalid)?;
        let s = self.data.get(self.pos..end).ok_or(Stop::Invalid)?;
        self.pos = end;
        Ok(s)
    }

    /// One byte.
    #[inline]
    pub(crate) fn byte(&mut self) -> Result<u8, Stop> {
        Ok(self.take(1)?[0])
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> Result<[u8; N], Stop> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    /// A compact integer of at most 128 bits (wider is invalid, as in the
    /// dynamic decoder).
    pub(crate) fn compact(&mut self) -> Result<u128, Stop> {
        let b0 = self.byte()?;
        Ok(match b0 & 3 {
            0 => (b0 >> 2) as u128,
            1 => (u16::from_le_bytes([b0, self.byte()?]) >> 2) as u128,
            2 => {
                let r = self.array::<3>()?;
                (u32::from_le_bytes([b0, r[0], r[1], r[2]]) >> 2) as u128
            }
            _ => {
                let n = (b0 >> 2) as usize + 4;
                let bytes = self.take(n)?;
                if n > 16 && bytes[16..].iter().any(|&b| b != 0) {
                    return Err(Stop::Invalid);
                }
                let mut le = [0u8; 16];
                let k = n.min(16);
                le[..k].copy_from_slice(&bytes[..k]);
                u128::from_le_bytes(le)
            }
        })
    }

    /// A compact length of items of at least `min_size` bytes (> 0), which
    /// must fit in the rest of the input: nothing is sized by a length the
    /// bytes cannot hold.
    pub(crate) fn length(&mut self, min_size: u64) -> Result<usize, Stop> {
        let len = self.compact()?;
        let rest = (self.data.len() - self.pos) as u128;
        if len.saturating_mul(min_size.max(1) as u128) > rest {
            return Err(Stop::Invalid);
        }
        Ok(len as usize)
    }
}

/// What running plans needs besides the bytes: the decoding context (for
/// the SS58 format and the [`Op::Dynamic`] steps), a document those steps
/// decode into, and the first reason a value did not fit its column.
pub(crate) struct Runner<'r, 'g> {
    /// The runtime's decoding context.
    pub ctx: Context<'g>,
    /// The document [`Op::Dynamic`] steps decode into.
    pub doc: &'r mut Document<'g>,
    /// Composite levels the dynamic decoder is at where the item's fields
    /// start (its depth limit counts them).
    pub base_depth: u32,
    /// Why the row does not fit its table: the first misfit, in the order
    /// the old path met them. The row is read to its end all the same (the
    /// next item's bytes start there) and then taken back.
    pub misfit: Option<String>,
}

impl Runner<'_, '_> {
    /// Reads one value of `op` from `input` and appends it to `b`.
    pub(crate) fn run(
        &mut self,
        op: &Op,
        b: &mut Builder,
        input: &mut Input<'_>,
    ) -> Result<(), Stop> {
        match (op, b) {
            (Op::Bool, Builder::Bool(out)) => match input.byte()? {
                0 => out.push(Some(false)),
                1 => out.push(Some(true)),
                _ => return Err(Stop::Invalid),
            },
            (Op::UInt(n), Builder::UInt(_, out)) => {
                let mut le = [0u8; 8];
                le[..*n].copy_from_slice(input.take(*n)?);
                out.push(Some(u64::from_le_bytes(le)));
            }
            (Op::Int(n), Builder::Int(_, out)) => {
                let bytes = input.take(*n)?;
                let v = match *n {
                    1 => bytes[0] as i8 as i64,
                    2 => i16::from_le_bytes([bytes[0], bytes[1]]) as i64,
                    4 => i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as i64,
                    _ => {
                        let mut le = [0u8; 8];
                        le.copy_from_slice(bytes);
                        i64::from_le_bytes(le)
                    }
                };
                out.push(Some(v));
            }
            (Op::Wide128 { signed }, Builder::Wide(decimal, text)) => {
                let le: [u8; 16] = input.array()?;
                let value = if *signed {
                    Value::Int(i128::from_le_bytes(le))
                } else {
                    Value::UInt(u128::from_le_bytes(le))
                };
                push_wide(&value, decimal, text);
            }
            (Op::Wide256 { signed }, Builder::Wide(decimal, text)) => {
                let le: [u8; 32] = input.array()?;
                // As the dynamic decoder's value: an `UInt`/`Int` where it
                // fits 128 bits, else the 256-bit value.
                let mut sink = ValueSink;
                let value = if *signed {
                    sink.i256(&le)
                } else {
                    sink.u256(&le)
                };
                push_wide(&value, decimal, text);
            }
            (Op::CompactUInt { bits, redo }, b) => {
                let start = input.pos;
                let n = input.compact()?;
                match b {
                    Builder::UInt(_, out) if *bits >= 128 || n >> bits == 0 => {
                        out.push(Some(n as u64))
                    }
                    // Past the column's width: the dynamic path's append
                    // says why.
                    b => {
                        input.pos = start;
                        return self.run(redo, b, input);
                    }
                }
            }
            (Op::CompactWide, Builder::Wide(decimal, text)) => {
                let n = input.compact()?;
                push_wide(&Value::UInt(n), decimal, text);
            }
            (Op::Account, Builder::Text(out) | Builder::Label(out)) => {
                let key: [u8; 32] = input.array()?;
                match self.ctx.ss58_format.and_then(|f| ss58_account(&key, f)) {
                    Some(address) => out.push(&address),
                    None => out.push_with(|s| push_hex(s, &key)),
                }
            }
            (Op::Str, Builder::Text(out) | Builder::Label(out)) => {
                let n = input.length(1)?;
                let bytes = input.take(n)?;
                match std::str::from_utf8(bytes) {
                    Ok(s) => out.push(s),
                    Err(_) => out.push_with(|s| push_hex(s, bytes)),
                }
            }
            (Op::Char, Builder::Text(out) | Builder::Label(out)) => {
                let v = u32::from_le_bytes(input.array()?);
                let c = char::from_u32(v).ok_or(Stop::Invalid)?;
                out.push(c.encode_utf8(&mut [0u8; 4]));
            }
            (Op::Bytes, Builder::Bytes(out)) => {
                let n = input.length(1)?;
                out.push(input.take(n)?);
            }
            (Op::Fixed(n), Builder::Hex(width, data, valid)) if *width as usize == *n => {
                data.extend_from_slice(input.take(*n)?);
                valid.push(true);
            }
            (Op::Bits(word), Builder::Text(out) | Builder::Label(out)) => {
                let bits = input.compact()?;
                let words = bits.div_ceil(8 * *word as u128);
                let n = words.saturating_mul(*word as u128);
                if n > input.rest().len() as u128 {
                    return Err(Stop::Invalid);
                }
                let bytes = input.take(n as usize)?;
                out.push_with(|s| write_py_bit_string(bytes, bits as usize, s));
            }
            (Op::Label(names), Builder::Text(out) | Builder::Label(out)) => {
                let at = names.get(input.byte()?).ok_or(Stop::Invalid)?;
                out.push(&names.names[at]);
            }
            (Op::Option(inner), b) => match input.byte()? {
                0 => b.push_null(),
                1 => self.run(inner, b, input)?,
                _ => return Err(Stop::Invalid),
            },
            (
                Op::List {
                    item,
                    len,
                    min_size,
                    wide,
                },
                Builder::List(_, offsets, valid, items),
            ) => {
                let n = match len {
                    Some(n) => {
                        let n = *n as usize;
                        if (n as u128) * (*min_size as u128) > input.rest().len() as u128 {
                            return Err(Stop::Invalid);
                        }
                        n
                    }
                    None => input.length(*min_size)?,
                };
                for _ in 0..n {
                    match &mut **items {
                        // A wide item is a struct of its two columns.
                        Builder::Struct(_, item_valid, value) if *wide => {
                            let Some(b) = value.first_mut() else {
                                return Err(Stop::Invalid);
                            };
                            self.run(item, b, input)?;
                            item_valid.push(true);
                        }
                        b => self.run(item, b, input)?,
                    }
                }
                match i32::try_from(items.len()) {
                    Ok(end) => offsets.push(end),
                    Err(_) => self.not_fitting("a list past 2^31 items"),
                }
                valid.push(true);
            }
            (Op::Struct(ops), Builder::Struct(_, valid, children))
                if ops.len() == children.len() =>
            {
                for (op, b) in ops.iter().zip(children.iter_mut()) {
                    self.run(op, b, input)?;
                }
                valid.push(true);
            }
            (Op::Enum(e), Builder::Struct(_, valid, children))
                if children.len() == e.columns + 1 =>
            {
                let at = e.variants.get(input.byte()?).ok_or(Stop::Invalid)?;
                let (label, payload_columns) = children.split_at_mut(1);
                if let Builder::Text(label) = &mut label[0] {
                    label.push(&e.variants.names[at]);
                } else {
                    self.not_fitting("an enum column without its label");
                }
                let taken = match &e.payloads[at] {
                    Payload::Unit => None,
                    Payload::Data { column, op } => {
                        self.run(op, &mut payload_columns[*column], input)?;
                        Some(*column)
                    }
                };
                for (i, b) in payload_columns.iter_mut().enumerate() {
                    if Some(i) != taken {
                        b.push_null();
                    }
                }
                valid.push(true);
            }
            (Op::Dynamic { ty, shape, depth }, b) => self.dynamic(*ty, shape, *depth, b, input)?,
            // A step made for another builder (never: both come from the
            // column's shape): the dynamic path's append says why.
            (op, b) => {
                let _ = (op, b);
                self.not_fitting("a plan step of another shape");
            }
        }
        Ok(())
    }

    /// An [`Op::Dynamic`] step: the dynamic decoder reads the value, the
    /// column appends it as the old path did.
    fn dynamic(
        &mut self,
        ty: TypeIdx,
        shape: &Shape,
        depth: u32,
        b: &mut Builder,
        input: &mut Input<'_>,
    ) -> Result<(), Stop> {
        // The decoder's depth limit counts from where the item's value
        // starts, as in one decode of the whole item.
        let ctx = Context {
            max_depth: self
                .ctx
                .max_depth
                .saturating_sub(self.base_depth.saturating_add(depth)),
            ..self.ctx
        };
        let used = self
            .doc
            .decode_prefix_into(&ctx, ty, input.rest())
            .map_err(|_| Stop::Invalid)?;
        input.pos += used;
        if let Err(e) = b.append(shape, self.doc.root()) {
            self.misfit.get_or_insert(e);
        }
        Ok(())
    }

    /// Notes a value that does not fit (the first one wins).
    fn not_fitting(&mut self, why: &str) {
        self.misfit
            .get_or_insert_with(|| format!("value does not fit: {why}"));
    }
}

/// A wide integer's two columns.
fn push_wide(
    value: &Value,
    decimal: &mut Vec<Option<i128>>,
    text: &mut crate::columns::TextColumn,
) {
    match wide::cell(value) {
        Some(WideCell::Decimal(n)) => {
            decimal.push(Some(n));
            text.push_null();
        }
        Some(WideCell::Digits(s)) => {
            decimal.push(None);
            text.push(&s);
        }
        None => {
            decimal.push(None);
            text.push_null();
        }
    }
}

/// `0x` and the hex digits of `bytes`.
fn push_hex(out: &mut String, bytes: &[u8]) {
    out.push_str("0x");
    hex::push_hex(out, bytes);
}
