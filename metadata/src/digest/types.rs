//! The RFC-0078 type model: the shapes that are SCALE-encoded and hashed
//! (leaves of the types tree, the extrinsic metadata, the digest, the proof).
//! Field order and enum indexes are the RFC's; nothing here knows about the
//! portable registry (that is `shape.rs`).

use parity_scale_codec::{Compact, Encode};

/// A 32-byte BLAKE3 hash.
pub type Hash = [u8; 32];

/// BLAKE3 of a value's SCALE encoding: how the RFC hashes every part.
pub(crate) fn hash_of<T: Encode>(value: &T) -> Hash {
    blake3::hash(&value.encode()).into()
}

/// A reference to a type: a primitive, a compact integer, nothing (`Void`:
/// an empty struct, tuple or enum) or a type of the tree by its RFC id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Encode)]
pub enum TypeRef {
    /// `bool`.
    #[codec(index = 0)]
    Bool,
    /// `char`.
    #[codec(index = 1)]
    Char,
    /// `str`.
    #[codec(index = 2)]
    Str,
    /// `u8`.
    #[codec(index = 3)]
    U8,
    /// `u16`.
    #[codec(index = 4)]
    U16,
    /// `u32`.
    #[codec(index = 5)]
    U32,
    /// `u64`.
    #[codec(index = 6)]
    U64,
    /// `u128`.
    #[codec(index = 7)]
    U128,
    /// `u256`.
    #[codec(index = 8)]
    U256,
    /// `i8`.
    #[codec(index = 9)]
    I8,
    /// `i16`.
    #[codec(index = 10)]
    I16,
    /// `i32`.
    #[codec(index = 11)]
    I32,
    /// `i64`.
    #[codec(index = 12)]
    I64,
    /// `i128`.
    #[codec(index = 13)]
    I128,
    /// `i256`.
    #[codec(index = 14)]
    I256,
    /// `Compact<u8>`.
    #[codec(index = 15)]
    CompactU8,
    /// `Compact<u16>`.
    #[codec(index = 16)]
    CompactU16,
    /// `Compact<u32>`.
    #[codec(index = 17)]
    CompactU32,
    /// `Compact<u64>`.
    #[codec(index = 18)]
    CompactU64,
    /// `Compact<u128>`.
    #[codec(index = 19)]
    CompactU128,
    /// `Compact<u256>`.
    #[codec(index = 20)]
    CompactU256,
    /// No data: an empty composite, tuple or enum.
    #[codec(index = 21)]
    Void,
    /// A type of the tree, by its RFC id.
    #[codec(index = 22)]
    ById(Compact<u32>),
}

impl TypeRef {
    /// The RFC id, for [`TypeRef::ById`].
    pub fn id(&self) -> Option<u32> {
        match self {
            TypeRef::ById(id) => Some(id.0),
            _ => None,
        }
    }
}

/// A field of a composite or of an enum variant.
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub struct Field {
    /// Its name (none for tuple-like fields).
    pub name: Option<String>,
    /// Its type.
    pub ty: TypeRef,
    /// The type's name as written in the source, e.g. `T::Balance`.
    pub type_name: Option<String>,
}

/// One variant of an enum: each variant is a leaf of its own.
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub struct EnumerationVariant {
    /// The variant's name.
    pub name: String,
    /// Its fields.
    pub fields: Vec<Field>,
    /// Its index byte (widened).
    pub index: Compact<u32>,
}

/// A fixed-length array.
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub struct TypeDefArray {
    /// Number of elements.
    pub len: u32,
    /// Element type.
    pub type_param: TypeRef,
}

/// A bit sequence (`BitVec<Store, Order>`).
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub struct TypeDefBitSequence {
    /// Bytes of the store type: 1, 2, 4 or 8.
    pub num_bytes: u8,
    /// `Lsb0` (true) or `Msb0` (false).
    pub least_significant_bit_first: bool,
}

/// What a type is.
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub enum TypeDef {
    /// A struct with at least one field.
    #[codec(index = 0)]
    Composite(Vec<Field>),
    /// One variant of an enum.
    #[codec(index = 1)]
    Enumeration(EnumerationVariant),
    /// A vector.
    #[codec(index = 2)]
    Sequence(TypeRef),
    /// A fixed-length array.
    #[codec(index = 3)]
    Array(TypeDefArray),
    /// A tuple with at least one element.
    #[codec(index = 4)]
    Tuple(Vec<TypeRef>),
    /// A bit sequence.
    #[codec(index = 5)]
    BitSequence(TypeDefBitSequence),
}

/// A leaf of the types tree.
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub struct Type {
    /// The type's path (module path and name); empty for built-in shapes.
    pub path: Vec<String>,
    /// Its definition.
    pub type_def: TypeDef,
    /// Its RFC id (the ids of the types reachable from the extrinsic,
    /// numbered in registry order).
    pub type_id: Compact<u32>,
}

/// One signed (transaction) extension as the RFC records it.
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub struct SignedExtensionMetadata {
    /// Its identifier, e.g. `CheckNonce`.
    pub identifier: String,
    /// The type of the bytes it puts in the extrinsic.
    pub included_in_extrinsic: TypeRef,
    /// The type of the bytes it adds to the signed data only.
    pub included_in_signed_data: TypeRef,
}

/// How an extrinsic is built, in RFC types; its hash is part of the digest.
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub struct ExtrinsicMetadata {
    /// The extrinsic format version (4).
    pub version: u8,
    /// The address type.
    pub address_ty: TypeRef,
    /// The call type (`RuntimeCall`).
    pub call_ty: TypeRef,
    /// The signature type.
    pub signature_ty: TypeRef,
    /// The signed extensions in the order they appear in the extrinsic.
    pub signed_extensions: Vec<SignedExtensionMetadata>,
}

/// The chain facts the digest covers beside the metadata (the RFC's
/// `ExtraInfo`), in the order they are encoded.
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub struct ExtraInfo {
    /// The runtime's spec version.
    pub spec_version: u32,
    /// The runtime's spec name, e.g. `polkadot`.
    pub spec_name: String,
    /// The SS58 (base58) address prefix.
    pub base58_prefix: u16,
    /// Decimals of the chain's main token.
    pub decimals: u8,
    /// Symbol of the chain's main token, e.g. `DOT`.
    pub token_symbol: String,
}

/// The RFC's `MetadataDigest` (version 1); [`MetadataDigest::hash`] is the
/// 32-byte metadata hash that `CheckMetadataHash` signs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataDigest {
    /// Root of the merkle tree over the types.
    pub types_tree_root: Hash,
    /// Hash of the [`ExtrinsicMetadata`].
    pub extrinsic_metadata_hash: Hash,
    /// The chain facts.
    pub extra: ExtraInfo,
}

impl Encode for MetadataDigest {
    fn size_hint(&self) -> usize {
        1 + 64 + self.extra.size_hint()
    }

    fn encode_to<O: parity_scale_codec::Output + ?Sized>(&self, dest: &mut O) {
        // Variant 1 (`V1`) of the RFC's enum; 0 is `Disabled`.
        dest.push_byte(1);
        self.types_tree_root.encode_to(dest);
        self.extrinsic_metadata_hash.encode_to(dest);
        self.extra.encode_to(dest);
    }
}

impl MetadataDigest {
    /// The metadata hash: BLAKE3 of the digest's SCALE encoding.
    pub fn hash(&self) -> Hash {
        hash_of(self)
    }
}

/// The types an extrinsic needs, with the tree nodes that prove they belong
/// to the digest's types tree (the RFC's `Proof`).
#[derive(Debug, Clone, PartialEq, Eq, Encode)]
pub struct Proof {
    /// The leaves, left to right in the tree.
    pub leaves: Vec<Type>,
    /// Each leaf's node index in the tree (root 0, children of `i` at
    /// `2i + 1` and `2i + 2`), in the order of `leaves`.
    pub leaf_indices: Vec<u32>,
    /// The hashes of the nodes that cannot be computed from the leaves, in
    /// the order a verifier consumes them.
    pub nodes: Vec<Hash>,
}
