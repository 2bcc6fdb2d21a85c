//! A registry type as the shape of a typed column: which Arrow type holds
//! it and how the dynamic layer's value of that type maps onto it.
//!
//! Built from the dynamic layer's type graph (the nodes the decoder walks),
//! so the shape and the decoded value come from the same definitions: a
//! `Compact<u32>` is the integer the decoder renders, an `AccountId32` the
//! SS58 text it renders. Types the columns cannot hold exactly as data
//! (recursive types, nesting past [`MAX_DEPTH`], schemas past
//! [`MAX_LEAVES`] columns, FRAME specials with their own value shapes)
//! become one JSON text column: the value written by
//! `ValueRef::write_json`, the rendering of the generic tables.

use std::collections::BTreeSet;

use ferroscale_dynamic::{Fields, Node, Prim, Special, TypeGraph, TypeIdx};

/// Nesting levels of typed columns (structs, lists, options) below a
/// table column; a deeper type is a JSON column (XCM's nesting is well
/// past it).
pub const MAX_DEPTH: u32 = 8;

/// Leaf columns one table column may expand to; a wider type (an enum of
/// many variants each carrying a large struct) is a JSON column, so a
/// schema stays readable and its Parquet file small.
pub const MAX_LEAVES: usize = 256;

/// How a value of one registry type sits in a typed column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `bool`.
    Bool,
    /// `u8`…`u64` (and `Compact` of them): the Arrow unsigned integer of
    /// that width (bits).
    UInt(u8),
    /// `i8`…`i64`: the Arrow signed integer of that width (bits).
    Int(u8),
    /// `u128`/`i128`/`u256`/`i256` (and `Compact<u128>`): a
    /// `Decimal128(38, 0)` column, plus a `<name>__text` companion holding
    /// the exact digits of a value the decimal cannot (|v| ≥ 10^38).
    Wide {
        /// Whether the type is signed.
        signed: bool,
    },
    /// Text (`str`, `char`, bit sequences, SS58 accounts): Utf8.
    Text,
    /// `Vec<u8>`: Binary (the value is UTF-8 text when the bytes are, else `0x…` hex).
    Bytes,
    /// `[u8; N]`, `H256`, 20-byte accounts (value `0x…` hex): FixedSizeBinary(N).
    Hex(u32),
    /// An enum without data: dictionary-encoded Utf8 of the variant name.
    Label,
    /// A value written as JSON text (see the module docs).
    Json,
    /// `Option<T>`: T, NULL for `None`.
    Option(Box<Shape>),
    /// `Vec<T>`, `[T; N]`, a map (items are `(key, value)` tuples), a set of flags.
    List(Box<Shape>),
    /// A struct (value: a dict with these keys) or a tuple (`tuple`: value a
    /// tuple; columns `_0`, `_1` …).
    Struct {
        /// Field names and shapes, in order.
        fields: Vec<(String, Shape)>,
        /// The value is a tuple, not a dict.
        tuple: bool,
    },
    /// An enum with data: a struct of `variant` (the name, dictionary
    /// text) and one nullable column per variant that carries data.
    Enum {
        /// Every variant in index order: its name and its payload's shape
        /// (`None`: no data).
        variants: Vec<(String, Option<Shape>)>,
    },
}

/// The tag column of an enum-with-data struct.
pub const VARIANT: &str = "variant";

impl Shape {
    /// The shape of graph node `ty`.
    pub fn of(graph: &TypeGraph, ty: TypeIdx) -> Shape {
        let mut b = ShapeBuilder::new(graph);
        let shape = b.node(ty, 0);
        b.finish(shape)
    }

    /// The shape of a variant payload as the decoder renders it (one
    /// unnamed field: the value itself; several: a tuple; named: a dict;
    /// none: `None`, no column).
    pub fn of_fields(graph: &TypeGraph, fields: &[(Option<&str>, TypeIdx)]) -> Option<Shape> {
        let mut b = ShapeBuilder::new(graph);
        let shape = b.fields(fields, 0)?;
        Some(b.finish(shape))
    }

    /// Leaf columns this shape expands to.
    pub fn leaves(&self) -> usize {
        match self {
            Shape::Wide { .. } => 2,
            Shape::Option(s) | Shape::List(s) => s.leaves(),
            Shape::Struct { fields, .. } => fields.iter().map(|(_, s)| s.leaves()).sum(),
            Shape::Enum { variants } => {
                1 + variants
                    .iter()
                    .filter_map(|(_, s)| s.as_ref())
                    .map(Shape::leaves)
                    .sum::<usize>()
            }
            _ => 1,
        }
    }
}

struct ShapeBuilder<'g> {
    graph: &'g TypeGraph,
    /// The nodes being built, outermost first (a node met again is recursive).
    stack: Vec<TypeIdx>,
    /// Nodes found to refer to themselves: each becomes a JSON column
    /// where it is entered first, so the outermost recursive type is the
    /// one held as JSON.
    recursive: BTreeSet<TypeIdx>,
    /// Nodes this column may still visit: a type wider than the column
    /// may hold stops the walk early (hostile metadata could otherwise
    /// make it exponential: 8 levels of 256-variant enums).
    budget: usize,
}

/// Nodes one column's walk may visit: a few per leaf column it may hold.
const NODE_BUDGET: usize = 4 * MAX_LEAVES;

impl<'g> ShapeBuilder<'g> {
    fn new(graph: &'g TypeGraph) -> Self {
        ShapeBuilder {
            graph,
            stack: Vec::new(),
            recursive: BTreeSet::new(),
            budget: NODE_BUDGET,
        }
    }

    /// The column's shape: JSON when the walk ran out of budget or the
    /// shape has more than [`MAX_LEAVES`] leaf columns.
    fn finish(&self, shape: Shape) -> Shape {
        if self.budget == 0 || shape.leaves() > MAX_LEAVES {
            Shape::Json
        } else {
            shape
        }
    }
}

impl ShapeBuilder<'_> {
    fn node(&mut self, ty: TypeIdx, depth: u32) -> Shape {
        if self.stack.contains(&ty) {
            self.recursive.insert(ty);
            return Shape::Json;
        }
        if depth > MAX_DEPTH || self.budget == 0 {
            return Shape::Json;
        }
        self.budget -= 1;
        self.stack.push(ty);
        let shape = self.inner(ty, depth);
        self.stack.pop();
        if self.recursive.contains(&ty) {
            Shape::Json
        } else {
            shape
        }
    }

    fn inner(&mut self, ty: TypeIdx, depth: u32) -> Shape {
        let d = depth + 1;
        let Some(node) = self.graph.get(ty) else {
            return Shape::Json;
        };
        match node {
            Node::Prim(p) => prim(*p),
            Node::Compact(inner) => self.compact(*inner, 0),
            Node::Bytes => Shape::Bytes,
            Node::ByteArray(0) => Shape::Json,
            Node::ByteArray(n) => Shape::Hex(*n),
            Node::Array(inner, _) | Node::Seq(inner) => Shape::List(Box::new(self.node(*inner, d))),
            Node::Tuple(items) => match items.as_slice() {
                // A 1-tuple is its element's value.
                [one] => self.node(*one, depth),
                [] => Shape::Json,
                _ => Shape::Struct {
                    fields: items
                        .iter()
                        .enumerate()
                        .map(|(i, t)| (format!("_{i}"), self.node(*t, d)))
                        .collect(),
                    tuple: true,
                },
            },
            Node::Struct(fields)
                if !fields.is_empty() && unique(fields.iter().map(|f| &*f.name)) =>
            {
                Shape::Struct {
                    fields: fields
                        .iter()
                        .map(|f| (f.name.to_string(), self.node(f.ty, d)))
                        .collect(),
                    tuple: false,
                }
            }
            Node::Enum(variants) => {
                if variants.iter().all(|v| matches!(v.fields, Fields::Unit)) {
                    return Shape::Label;
                }
                let names = variants.iter().map(|v| &*v.name);
                if !unique(names.clone()) || names.clone().any(|n| n == VARIANT) {
                    return Shape::Json;
                }
                let variants = variants
                    .iter()
                    .map(|v| {
                        let payload = match &v.fields {
                            Fields::Unit => None,
                            Fields::Unnamed(ts) => {
                                let f: Vec<_> = ts.iter().map(|t| (None, *t)).collect();
                                self.fields(&f, d)
                            }
                            Fields::Named(fs) => {
                                let f: Vec<_> = fs.iter().map(|f| (Some(&*f.name), f.ty)).collect();
                                self.fields(&f, d)
                            }
                        };
                        (v.name.to_string(), payload)
                    })
                    .collect();
                Shape::Enum { variants }
            }
            Node::Result(ok, err) => Shape::Enum {
                variants: vec![
                    ("Ok".into(), Some(self.node(*ok, d))),
                    ("Err".into(), Some(self.node(*err, d))),
                ],
            },
            Node::Option(inner) => Shape::Option(Box::new(self.node(*inner, depth))),
            Node::Map(k, v) => Shape::List(Box::new(Shape::Struct {
                fields: vec![
                    ("_0".into(), self.node(*k, d)),
                    ("_1".into(), self.node(*v, d)),
                ],
                tuple: true,
            })),
            Node::Set { .. } => Shape::List(Box::new(Shape::Text)),
            Node::BitSeq { .. } => Shape::Text,
            Node::Special(Special::AccountId) => Shape::Text,
            Node::Special(Special::EthereumAccountId) => Shape::Hex(20),
            // Null, the FRAME specials with value shapes of their own
            // (MultiAddress, Call, Era …), unresolved placeholders.
            _ => Shape::Json,
        }
    }

    /// `Compact<T>`: the integer the decoder renders, whatever wraps it.
    fn compact(&mut self, ty: TypeIdx, hops: u32) -> Shape {
        let wide = Shape::Wide { signed: false };
        if hops > 4 {
            return wide;
        }
        match self.graph.get(ty) {
            Some(Node::Prim(p)) => match prim(*p) {
                s @ (Shape::UInt(_) | Shape::Wide { .. }) => s,
                _ => wide,
            },
            Some(Node::Compact(t)) => self.compact(*t, hops + 1),
            Some(Node::Tuple(ts)) if ts.len() == 1 => self.compact(ts[0], hops + 1),
            Some(Node::Struct(fs)) if fs.len() == 1 => self.compact(fs[0].ty, hops + 1),
            _ => wide,
        }
    }

    /// A payload's shape (see [`Shape::of_fields`]).
    fn fields(&mut self, fields: &[(Option<&str>, TypeIdx)], depth: u32) -> Option<Shape> {
        match fields {
            [] => None,
            [(None, t)] => Some(self.node(*t, depth)),
            _ if fields.iter().all(|(n, _)| n.is_none()) => Some(Shape::Struct {
                fields: fields
                    .iter()
                    .enumerate()
                    .map(|(i, (_, t))| (format!("_{i}"), self.node(*t, depth + 1)))
                    .collect(),
                tuple: true,
            }),
            _ if fields.iter().all(|(n, _)| n.is_some())
                && unique(fields.iter().map(|(n, _)| n.unwrap_or_default())) =>
            {
                Some(Shape::Struct {
                    fields: fields
                        .iter()
                        .map(|(n, t)| (n.unwrap_or_default().to_string(), self.node(*t, depth + 1)))
                        .collect(),
                    tuple: false,
                })
            }
            _ => Some(Shape::Json),
        }
    }
}

fn prim(p: Prim) -> Shape {
    match p {
        Prim::Bool => Shape::Bool,
        Prim::U8 => Shape::UInt(8),
        Prim::U16 => Shape::UInt(16),
        Prim::U32 => Shape::UInt(32),
        Prim::U64 => Shape::UInt(64),
        Prim::I8 => Shape::Int(8),
        Prim::I16 => Shape::Int(16),
        Prim::I32 => Shape::Int(32),
        Prim::I64 => Shape::Int(64),
        Prim::U128 | Prim::U256 => Shape::Wide { signed: false },
        Prim::I128 | Prim::I256 => Shape::Wide { signed: true },
        Prim::Char | Prim::Str => Shape::Text,
    }
}

/// Whether no two names are equal, and none would collide with a wide
/// integer's `__text` companion or be empty.
fn unique<'a>(names: impl Iterator<Item = &'a str>) -> bool {
    let mut seen = BTreeSet::new();
    names
        .into_iter()
        .all(|n| !n.is_empty() && !n.contains("__") && seen.insert(n))
}
