//! The type graph: every type a registry can express, compiled once into flat
//! nodes addressed by [`TypeIdx`]. Both the portable-registry import and the
//! type-string/preset compiler write into one [`TypeGraph`]; the decoder and
//! encoder walk it without looking at names or strings again.
//!
//! Recursive types are built by reserving a node ([`Node::Unresolved`]) first,
//! compiling its children (which may point back at it), then [`TypeGraph::set`].

use std::fmt;
use std::sync::Arc;

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

impl Special {
    /// The name people know the FRAME type by, for the specials that have
    /// no inner type of their own.
    pub fn label(&self) -> Option<&'static str> {
        Some(match self {
            Special::AccountId => "AccountId",
            Special::AccountIdAddress => "AccountIdAddress",
            Special::EthereumAccountId => "AccountId20",
            Special::AccountIndex => "AccountIndex",
            Special::LegacyAddress => "Address",
            Special::Era => "Era",
            Special::Call => "Call",
            Special::Extrinsic => "Extrinsic",
            Special::Event => "Event",
            Special::IdentityData => "Data",
            Special::MetadataVersioned => "MetadataVersioned",
            Special::Vote => "Vote",
            Special::ConsensusEngineId => "ConsensusEngineId",
            Special::RawBytes { call: false } => "RawBytes",
            Special::RawBytes { call: true } => "CallBytes",
            _ => return None,
        })
    }
}

impl Prim {
    /// The Rust name (`u64`, `bool`, `str` …).
    pub fn rust_name(self) -> &'static str {
        match self {
            Prim::Bool => "bool",
            Prim::U8 => "u8",
            Prim::U16 => "u16",
            Prim::U32 => "u32",
            Prim::U64 => "u64",
            Prim::U128 => "u128",
            Prim::U256 => "u256",
            Prim::I8 => "i8",
            Prim::I16 => "i16",
            Prim::I32 => "i32",
            Prim::I64 => "i64",
            Prim::I128 => "i128",
            Prim::I256 => "i256",
            Prim::Char => "char",
            Prim::Str => "str",
        }
    }

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
    /// `AccountIdAddress`, the `Address` of Polkadot and Kusama before
    /// `MultiAddress`: an `AccountId`, but without an ss58 format its hex has
    /// no `0x` (py-scale-codec 1.2.12 strips it).
    AccountIdAddress,
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
    /// py-scale-codec's `RawBytes` and `CallBytes`: bytes with no length
    /// prefix, `"0x…"`. `RawBytes` decodes as the rest of the input;
    /// `CallBytes` (`call`) only encodes, as in py-scale-codec, which
    /// builds signature payloads with it.
    RawBytes {
        /// `CallBytes`: decoding it is an error.
        call: bool,
    },
    /// A consensus engine id (py-scale-codec `GenericConsensusEngineId`):
    /// 4 bytes, the engine's name as text (`"BABE"`, `"aura"`); `"0x…"`
    /// when they are not UTF-8.
    ConsensusEngineId,
    /// A pre-runtime digest item of the legacy types (py-scale-codec
    /// `GenericPreRuntime`): `{"engine", "data"}` as the struct `fields`
    /// holds them (an engine id and hex bytes), where a BABE item's data is
    /// its pre-digest decoded as `babe` (`RawBabePreDigest`, the inner value
    /// of its one variant) and an Aura item's as `aura` (`RawAuraPreDigest`):
    /// what a client reads a block's author from. Data that does not decode
    /// as its pre-digest stays hex.
    PreRuntime {
        /// The `{engine, data}` struct.
        fields: TypeIdx,
        /// `RawBabePreDigest`.
        babe: TypeIdx,
        /// `RawAuraPreDigest`.
        aura: TypeIdx,
    },
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
    /// Short path names of nodes outside the ranges (the enum behind a
    /// runtime's `MultiAddress`), for [`TypeGraph::label`].
    labels: std::collections::HashMap<u32, Name>,
}

/// A range of nodes whose display names are `prefix::(index - start)`.
#[derive(Clone, Debug)]
struct NamedRange {
    start: u32,
    len: u32,
    prefix: Name,
    /// Per node, the last segment of its type's path (`MultiAddress`), for
    /// error messages ([`TypeGraph::label`]); empty when not known.
    labels: Arc<[Option<Name>]>,
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
            labels: Default::default(),
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
        self.name_range_with_labels(start, len, prefix, Vec::new());
    }

    /// [`TypeGraph::name_range`], with each node's short path name
    /// (`labels[i]` for node `start + i`) for [`TypeGraph::label`].
    pub fn name_range_with_labels(
        &mut self,
        start: TypeIdx,
        len: u32,
        prefix: Name,
        labels: Vec<Option<Name>>,
    ) {
        self.ranges.push(NamedRange {
            start: start.0,
            len,
            prefix,
            labels: labels.into(),
        });
    }

    /// Gives `idx` a short name for [`TypeGraph::label`] (not a display name:
    /// [`TypeGraph::describe`] and type-string lookups do not see it).
    pub fn set_label(&mut self, idx: TypeIdx, label: Name) {
        self.labels.insert(idx.0, label);
    }

    /// The range holding `idx` and its offset in it.
    fn range_of(&self, idx: TypeIdx) -> Option<(&NamedRange, u32)> {
        self.ranges
            .iter()
            .rev()
            .find(|r| idx.0 >= r.start && idx.0 - r.start < r.len)
            .map(|r| (r, idx.0 - r.start))
    }

    /// The id of `idx` in the registry it was imported from (`116` for
    /// `scale_info::116`), if it came from one.
    pub fn registry_id(&self, idx: TypeIdx) -> Option<u32> {
        if self.name(idx).is_some() {
            return None;
        }
        self.range_of(idx).map(|(_, offset)| offset)
    }

    /// A name for people: the display name, else (a registry's type) the
    /// Rust-like shape — `Compact<u64>`, `Vec<AccountId32>`, the last
    /// segment of a type's path —, else [`TypeGraph::describe`].
    pub fn label(&self, idx: TypeIdx) -> String {
        self.label_in(idx, 0)
    }

    fn label_in(&self, idx: TypeIdx, depth: u32) -> String {
        if let Some(n) = self.name(idx) {
            // Built-in classes are named by their lower-cased lookup key
            // (`genericextrinsic`): people read the FRAME name.
            if let Some(Node::Special(s)) = self.get(idx) {
                if !n.chars().any(|c| c.is_ascii_uppercase()) {
                    if let Some(label) = s.label() {
                        return label.to_owned();
                    }
                }
            }
            return n.to_string();
        }
        // Deep or recursive shapes stop at the registry name.
        let inner = |i: TypeIdx| {
            if depth >= 4 {
                self.describe(i)
            } else {
                self.label_in(i, depth + 1)
            }
        };
        match self.get(idx) {
            Some(Node::Prim(p)) => p.rust_name().to_owned(),
            Some(Node::Null) => "()".to_owned(),
            Some(Node::Compact(i)) => format!("Compact<{}>", inner(*i)),
            Some(Node::Bytes) => "Vec<u8>".to_owned(),
            Some(Node::ByteArray(n)) => format!("[u8; {n}]"),
            Some(Node::Array(i, n)) => format!("[{}; {n}]", inner(*i)),
            Some(Node::Seq(i)) => format!("Vec<{}>", inner(*i)),
            Some(Node::Option(i)) => format!("Option<{}>", inner(*i)),
            Some(Node::Result(a, b)) => format!("Result<{}, {}>", inner(*a), inner(*b)),
            // Tuples, structs, enums and FRAME types: the last segment of
            // the path (`H256`, `MultiAddress`); a tuple without one by shape.
            Some(node) => match self.path_label(idx) {
                Some(l) => l.to_string(),
                None => match node {
                    Node::Tuple(items) => {
                        let items: Vec<String> = items.iter().map(|i| inner(*i)).collect();
                        format!("({})", items.join(", "))
                    }
                    _ => self.describe(idx),
                },
            },
            None => self.describe(idx),
        }
    }

    /// The short path name recorded for `idx`, if any.
    fn path_label(&self, idx: TypeIdx) -> Option<&Name> {
        if let Some((r, offset)) = self.range_of(idx) {
            if let Some(Some(l)) = r.labels.get(offset as usize) {
                return Some(l);
            }
        }
        self.labels.get(&idx.0)
    }

    /// A name for error messages: the display name, else the lazily formed
    /// range name (`scale_info::N`), else `#N`.
    pub fn describe(&self, idx: TypeIdx) -> String {
        if let Some(n) = self.name(idx) {
            return n.to_string();
        }
        if let Some((r, offset)) = self.range_of(idx) {
            return format!("{}::{offset}", r.prefix);
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
            Special::AccountId | Special::AccountIdAddress => 32,
            Special::EthereumAccountId => 20,
            Special::AccountIndex => 4,
            _ => 1,
        },
    }
}
