//! What a type-graph node is, as one flat list: [`NodeKind`], the kind of a
//! [`Node`] with its primitive or special type spelled out
//! ([`Node::kind`]). Bindings that pick a class per kind (the Python
//! module's `TypeKind`) take the list from [`with_node_kinds!`](crate::with_node_kinds)
//! rather than writing it again.

use crate::graph::{Node, Prim, Special};

/// Calls the macro `$callback!` with the names of every node kind, in
/// [`NodeKind`]'s order, comma-separated: the one list of node kinds, for
/// bindings that declare an enum of their own with the same variants.
///
/// ```
/// macro_rules! count {
///     ($($kind:ident),* $(,)?) => { [$(stringify!($kind)),*].len() };
/// }
/// assert_eq!(ferroscale_dynamic::with_node_kinds!(count), 49);
/// ```
#[macro_export]
macro_rules! with_node_kinds {
    ($callback:ident) => {
        $callback! {
            Bool, U8, U16, U32, U64, U128, U256, I8, I16, I32, I64, I128, I256,
            Char, Str, Null, Compact, Seq, Bytes, ByteArray, Array, Tuple, Struct,
            Enum, Option, Result, Set, BitSeq, Map, AccountId, EthereumAccountId,
            AccountIndex, MultiAddress, LegacyAddress, Era, Call, Extrinsic, Event,
            ScaleInfoEvent, EventRecord, IdentityData, HexBytes, MetadataVersioned,
            Vote, WrapperKeepOpaque, ConsensusEngineId, PreRuntime, RawBytes, Unresolved,
        }
    };
}

macro_rules! node_kind_enum {
    ($($kind:ident),* $(,)?) => {
        /// What a type-graph node is: its variant, with the primitive
        /// ([`Prim`]) or special type ([`Special`]) spelled out. The names
        /// are those of the `Node`, `Prim` and `Special` variants.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum NodeKind {
            $($kind),*
        }
    };
}

with_node_kinds!(node_kind_enum);

impl Node {
    /// What this node is.
    pub fn kind(&self) -> NodeKind {
        match self {
            Node::Prim(p) => match p {
                Prim::Bool => NodeKind::Bool,
                Prim::U8 => NodeKind::U8,
                Prim::U16 => NodeKind::U16,
                Prim::U32 => NodeKind::U32,
                Prim::U64 => NodeKind::U64,
                Prim::U128 => NodeKind::U128,
                Prim::U256 => NodeKind::U256,
                Prim::I8 => NodeKind::I8,
                Prim::I16 => NodeKind::I16,
                Prim::I32 => NodeKind::I32,
                Prim::I64 => NodeKind::I64,
                Prim::I128 => NodeKind::I128,
                Prim::I256 => NodeKind::I256,
                Prim::Char => NodeKind::Char,
                Prim::Str => NodeKind::Str,
            },
            Node::Null => NodeKind::Null,
            Node::Compact(_) => NodeKind::Compact,
            Node::Seq(_) => NodeKind::Seq,
            Node::Bytes => NodeKind::Bytes,
            Node::ByteArray(_) => NodeKind::ByteArray,
            Node::Array(..) => NodeKind::Array,
            Node::Tuple(_) => NodeKind::Tuple,
            Node::Struct(_) => NodeKind::Struct,
            Node::Enum(_) => NodeKind::Enum,
            Node::Option(_) => NodeKind::Option,
            Node::Result(..) => NodeKind::Result,
            Node::Set { .. } => NodeKind::Set,
            Node::BitSeq { .. } => NodeKind::BitSeq,
            Node::Map(..) => NodeKind::Map,
            Node::Special(s) => match s {
                Special::AccountId | Special::AccountIdAddress => NodeKind::AccountId,
                Special::EthereumAccountId => NodeKind::EthereumAccountId,
                Special::AccountIndex => NodeKind::AccountIndex,
                Special::MultiAddress(_) => NodeKind::MultiAddress,
                Special::LegacyAddress => NodeKind::LegacyAddress,
                Special::Era => NodeKind::Era,
                Special::Call => NodeKind::Call,
                Special::Extrinsic => NodeKind::Extrinsic,
                Special::Event => NodeKind::Event,
                Special::ScaleInfoEvent(_) => NodeKind::ScaleInfoEvent,
                Special::EventRecord(_) => NodeKind::EventRecord,
                Special::IdentityData => NodeKind::IdentityData,
                Special::HexBytes => NodeKind::HexBytes,
                Special::MetadataVersioned => NodeKind::MetadataVersioned,
                Special::Vote => NodeKind::Vote,
                Special::WrapperKeepOpaque(_) => NodeKind::WrapperKeepOpaque,
                Special::ConsensusEngineId => NodeKind::ConsensusEngineId,
                Special::RawBytes { .. } => NodeKind::RawBytes,
                Special::PreRuntime { .. } => NodeKind::PreRuntime,
            },
            Node::Unresolved(_) => NodeKind::Unresolved,
        }
    }
}
