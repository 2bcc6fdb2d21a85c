//! The type graph: every type a registry can express, compiled once into flat
//! nodes addressed by [`TypeIdx`]. Both the portable-registry import and the
//! type-string/preset compiler write into one [`TypeGraph`]; the decoder and
//! encoder walk it without looking at names or strings again.
//!
//! Recursive types are built by reserving a node ([`Node::Unresolved`]) first,
//! compiling its children (which may point back at it), then [`TypeGraph::set`].

use std::fmt;

pub use ferroscale_value::Name;

/// Index of a node in a [`TypeGraph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeIdx(pub u32);

impl TypeIdx {
    /// The index as a `usize`, for slice access.
    #[inline]
    pub fn get(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for TypeIdx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Fixed-size primitive types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    /// `bool`: one byte, 0 or 1.
    Bool,
    /// `u8`.
    U8,
    /// `u16`.
    U16,
    /// `u32`.
    U32,
    /// `u64`.
    U64,
    /// `u128`.
    U128,
    /// `u256` (32 bytes little-endian).
    U256,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `i128`.
    I128,
    /// `i256` (32 bytes little-endian two's complement).
    I256,
    /// `char`: a `u32` Unicode scalar value.
    Char,
    /// `str`/`String`/`Text`: compact length + UTF-8 bytes (invalid UTF-8 renders as `"0x…"`).
    Str,
}

impl Prim {
    /// Encoded size in bytes, `None` for variable-size [`Prim::Str`].
    pub fn fixed_size(self) -> Option<usize> {
        Some(match self {
            Prim::Bool | Prim::U8 | Prim::I8 => 1,
            Prim::U16 | Prim::I16 => 2,
            Prim::U32 | Prim::I32 | Prim::Char => 4,
            Prim::U64 | Prim::I64 => 8,
            Prim::U128 | Prim::I128 => 16,
            Prim::U256 | Prim::I256 => 32,
            Prim::Str => return None,
        })
    }
}

/// A named struct field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Field name (the dict key of the value).
    pub name: Name,
    /// Field type.
    pub ty: TypeIdx,
}

/// The payload of an enum variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fields {
    /// No payload: the value is the bare variant name.
    Unit,
    /// Positional payload: one type is the value itself, several a tuple.
    Unnamed(Vec<TypeIdx>),
    /// Named payload: a dict.
    Named(Vec<Field>),
}

/// One enum variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The SCALE discriminant byte.
    pub index: u8,
    /// Variant name.
    pub name: Name,
    /// Variant payload.
    pub fields: Fields,
}

/// Store type of a bit sequence (`BitVec<Store, Order>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitStore {
    /// `u8` words.
    U8,
    /// `u16` words.
    U16,
    /// `u32` words.
    U32,
    /// `u64` words.
    U64,
}

impl BitStore {
    /// Word size in bytes.
    pub fn bytes(self) -> usize {
        match self {
            BitStore::U8 => 1,
            BitStore::U16 => 2,
            BitStore::U32 => 4,
            BitStore::U64 => 8,
        }
    }
}

/// Types with behaviour of their own (py-scale-codec's classes with `process`
/// overrides). The runtime context they need (calls, events, ss58 format,
/// signed extensions) lives in the runtime context (`runtime.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Special {
    /// `AccountId`/`AccountId32`: 32 bytes; SS58 text when an ss58 format is set, else `"0x…"`.
    AccountId,
    /// `EthereumAccountId`/`AccountId20`: 20 bytes, `"0x…"`.
    EthereumAccountId,
    /// `AccountIndex`: a `u32`.
    AccountIndex,
    /// `MultiAddress` (py-scale-codec `GenericMultiAddress`): the underlying
    /// enum node; the `Id` variant renders as the bare account, `Index` as the
    /// bare index, other variants as `{"Name": value}`.
    MultiAddress(TypeIdx),
    /// Legacy `Address`/`GenericAddress` (pre-MultiAddress indices encoding).
    LegacyAddress,
    /// `Era`: `"00"` immortal, `(period, phase)` mortal.
    Era,
    /// `Call`/`RuntimeCall`: pallet index + call index + args from the runtime.
    Call,
    /// An extrinsic as py-scale-codec's `GenericExtrinsic` (compact-length prefixed).
    Extrinsic,
    /// Legacy `Event` (py-scale-codec `GenericEvent`): pallet index + event
    /// index + attributes `[{"type", "value"}…]` from the runtime's event table.
    Event,
    /// scale-info `RuntimeEvent` (py-scale-codec `GenericScaleInfoEvent`): the
    /// inner node is the runtime's event enum; the value is
    /// `{"event_index", "module_id", "event_id", "attributes"}`.
    ScaleInfoEvent(TypeIdx),
    /// `EventRecord`: phase, event, topics in py-scale-codec's flattened shape.
    /// The inner node is the record's struct (phase, event, topics).
    EventRecord(TypeIdx),
    /// Identity `Data`: `{"None": None}`, `{"Raw": text}`, `{"BlakeTwo256": "0x…"}` ….
    IdentityData,
    /// `HexBytes`: compact length + bytes, always rendered `"0x…"`.
    HexBytes,
    /// `MetadataVersioned`: the runtime metadata as py-scale-codec shows it.
    MetadataVersioned,
    /// A conviction vote byte (py-scale-codec `GenericVote`): `{"aye": bool, "conviction": name}`.
    Vote,
    /// `WrapperKeepOpaque<T>`: length-prefixed bytes holding a `T`; the value is
    /// the decoded `T`, or `"0x…"` when the bytes do not decode.
    WrapperKeepOpaque(TypeIdx),
}

/// One node of the type graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A fixed-size primitive or text.
    Prim(Prim),
    /// Zero bytes, value `None` (`Null`, `()`).
    Null,
    /// `Compact<T>`: inner is an integer, or a single-field struct/tuple wrapping one.
    Compact(TypeIdx),
    /// `Vec<T>`, `BoundedVec<T, S>`.
    Seq(TypeIdx),
    /// `Vec<u8>`/`Bytes`: value is UTF-8 text if valid, else `"0x…"`.
    Bytes,
    /// `[u8; N]`, H160/H256/H512: value `"0x…"`.
    ByteArray(u32),
    /// `[T; N]`.
    Array(TypeIdx, u32),
    /// A tuple; a 1-tuple unwraps to its element.
    Tuple(Vec<TypeIdx>),
    /// A struct: dict in field order.
    Struct(Vec<Field>),
    /// An enum: `"Name"` / `{"Name": value}`.
    Enum(Vec<Variant>),
    /// `Option<T>`: `None` or the inner value.
    Option(TypeIdx),
    /// `Result<T, E>`: `{"Ok": v}` / `{"Err": e}`.
    Result(TypeIdx, TypeIdx),
    /// py-scale-codec `set`: a list of flag names.
    Set {
        /// Bytes of the bit mask (1, 2, 4, 8 or 16).
        byte_len: u8,
        /// Flag names and their masks.
        flags: Vec<(Name, u64)>,
    },
    /// A bit sequence: value `"0b…"`.
    BitSeq {
        /// Word type.
        store: BitStore,
        /// Bit order is `Lsb0` (else `Msb0`).
        lsb0: bool,
    },
    /// `BTreeMap`/`HashMap`: list of `(k, v)` tuples.
    Map(TypeIdx, TypeIdx),
    /// Types with behaviour of their own.
    Special(Special),
    /// Placeholder while compiling recursive types; decoding one is an error naming it.
    Unresolved(Name),
}

/// The type graph: nodes and their display names.
#[derive(Clone, Debug, Default)]
pub struct TypeGraph {
    nodes: Vec<Node>,
    names: Vec<Option<Name>>,
    /// Ranges named lazily as `prefix::offset` (portable registries: `scale_info::N`),
    /// so importing a registry formats no strings.
    ranges: Vec<NamedRange>,
}

/// A range of nodes whose display names are `prefix::(index - start)`.
#[derive(Clone, Debug)]
struct NamedRange {
    start: u32,
    len: u32,
    prefix: Name,
}

impl TypeGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty graph with room for `n` nodes.
    pub fn with_capacity(n: usize) -> Self {
        TypeGraph {
            nodes: Vec::with_capacity(n),
            names: Vec::with_capacity(n),
            ranges: Vec::new(),
        }
    }

    /// Appends a node; returns its index.
    pub fn add(&mut self, node: Node, name: Option<Name>) -> TypeIdx {
        let idx = TypeIdx(self.nodes.len() as u32);
        self.nodes.push(node);
        self.names.push(name);
        idx
    }

    /// Reserves a node to be filled later with [`TypeGraph::set`] (for recursive types).
    pub fn reserve(&mut self, name: Name) -> TypeIdx {
        self.add(Node::Unresolved(name.clone()), Some(name))
    }

    /// Replaces the node at `idx`.
    ///
    /// # Panics
    /// If `idx` is not a node of this graph (a programming error of the compiler).
    pub fn set(&mut self, idx: TypeIdx, node: Node) {
        self.nodes[idx.get()] = node;
    }

    /// Sets the display name of `idx`.
    pub fn set_name(&mut self, idx: TypeIdx, name: Option<Name>) {
        self.names[idx.get()] = name;
    }

    /// The node at `idx`.
    ///
    /// # Panics
    /// If `idx` is not a node of this graph.
    #[inline]
    pub fn node(&self, idx: TypeIdx) -> &Node {
        &self.nodes[idx.get()]
    }

    /// The node at `idx`, or `None` when out of range.
    #[inline]
    pub fn get(&self, idx: TypeIdx) -> Option<&Node> {
        self.nodes.get(idx.get())
    }

    /// The display name (type string) of `idx`, if it has one.
    pub fn name(&self, idx: TypeIdx) -> Option<&Name> {
        self.names.get(idx.get()).and_then(Option::as_ref)
    }

    /// Names the nodes `start..start + len` lazily as `prefix::0`, `prefix::1` ….
    pub fn name_range(&mut self, start: TypeIdx, len: u32, prefix: Name) {
        self.ranges.push(NamedRange {
            start: start.0,
            len,
            prefix,
        });
    }

    /// A name for error messages: the display name, else the lazily formed
    /// range name (`scale_info::N`), else `#N`.
    pub fn describe(&self, idx: TypeIdx) -> String {
        if let Some(n) = self.name(idx) {
            return n.to_string();
        }
        for r in self.ranges.iter().rev() {
            if idx.0 >= r.start && idx.0 - r.start < r.len {
                return format!("{}::{}", r.prefix, idx.0 - r.start);
            }
        }
        idx.to_string()
    }

    /// Reserves room for `n` more nodes.
    pub fn reserve_nodes(&mut self, n: usize) {
        self.nodes.reserve(n);
        self.names.reserve(n);
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// All nodes, in index order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }
}

/// A lower bound of the encoded size of `ty` (0 when unknown), used to bound
/// length prefixes before allocating.
pub fn min_size(graph: &TypeGraph, ty: TypeIdx, depth: u32) -> u64 {
    if depth > 6 {
        return 0;
    }
    let Some(node) = graph.get(ty) else { return 0 };
    match node {
        Node::Prim(p) => p.fixed_size().unwrap_or(1) as u64,
        Node::Null | Node::Unresolved(_) => 0,
        Node::Compact(_) | Node::Seq(_) | Node::Bytes | Node::Map(..) | Node::BitSeq { .. } => 1,
        Node::ByteArray(n) => *n as u64,
        Node::Array(t, n) => (*n as u64).saturating_mul(min_size(graph, *t, depth + 1)),
        Node::Tuple(ts) => ts.iter().fold(0u64, |a, t| {
            a.saturating_add(min_size(graph, *t, depth + 1))
        }),
        Node::Struct(fs) => fs.iter().fold(0u64, |a, f| {
            a.saturating_add(min_size(graph, f.ty, depth + 1))
        }),
        Node::Enum(_) | Node::Option(_) | Node::Result(..) => 1,
        Node::Set { byte_len, .. } => *byte_len as u64,
        Node::Special(s) => match s {
            Special::AccountId => 32,
            Special::EthereumAccountId => 20,
            Special::AccountIndex => 4,
            _ => 1,
        },
    }
}
