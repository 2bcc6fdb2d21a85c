//! py-scale-codec's built-in classes, by their lower-cased class name (the
//! keys `clear_type_registry` puts in its type registry), and what each one
//! becomes in the type graph.

use crate::graph::{Prim, Special};

/// A built-in class and the behaviour it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A fixed-size primitive or `String`/`Str`/`Text`.
    Prim(Prim),
    /// `Null`: zero bytes, value `None`.
    Null,
    /// `Bytes`: compact length + bytes (text when UTF-8).
    Bytes,
    /// `H160`/`H256`/`H512`: `N` bytes as `"0x…"`.
    ByteArray(u32),
    /// `Compact<T>` (`Compact`), `CompactU32`, `CompactMoment`: a compact integer.
    Compact(Option<Prim>),
    /// `Vec<T>`, `BoundedVec<T, S>`, `BTreeSet<T>`: a sequence (bytes for `u8`).
    Vec,
    /// `Option<T>`.
    Option,
    /// `OptionBytes`: `Option<Bytes>`.
    OptionBytes,
    /// `BTreeMap<K, V>`, `HashMap`, `BoundedBTreeMap`, `Map`: list of pairs.
    Map,
    /// `Result<T, E>` (not a py-scale-codec class; an extension).
    Result,
    /// `BitVec`.
    BitVec,
    /// A special node without inner types.
    Special(Special),
    /// `GenericMultiAddress`: the MultiAddress enum with special rendering.
    MultiAddress,
    /// `StorageHasher`: the enum of storage hashers.
    StorageHasher,
    /// `Conviction`: the conviction enum.
    Conviction,
    /// A class that needs a definition (`Struct`, `Enum`, `Tuple`, `Set`,
    /// `FixedLengthArray`, `WrapperKeepOpaque`, `GenericEventRecord` …); as a
    /// preset `base_class` it contributes the definition's shape only.
    Shape(&'static str),
    /// A class py-scale-codec has but cannot decode with either (`CallBytes`,
    /// `GenericBlock`, `TypeNotSupported`, `F32`/`F64` …).
    Unsupported(&'static str),
    /// A struct class with its own `type_mapping` (`GenericConsensus` …).
    Struct(&'static [(&'static str, &'static str)]),
    /// `GenericPreRuntime`: a struct of these fields whose data is decoded
    /// as the engine's pre-digest ([`Special::PreRuntime`]).
    PreRuntime(&'static [(&'static str, &'static str)]),
}

/// The fields of a consensus, seal or pre-runtime digest item.
const DIGEST_ITEM_FIELDS: &[(&str, &str)] =
    &[("engine", "ConsensusEngineId"), ("data", "HexBytes")];

/// The built-in class named `lower` (a lower-cased class name), if any.
pub fn builtin(lower: &str) -> Option<Builtin> {
    use Builtin as B;
    Some(match lower {
        "bool" => B::Prim(Prim::Bool),
        "u8" => B::Prim(Prim::U8),
        "u16" => B::Prim(Prim::U16),
        "u32" => B::Prim(Prim::U32),
        "u64" => B::Prim(Prim::U64),
        "u128" => B::Prim(Prim::U128),
        "u256" => B::Prim(Prim::U256),
        "i8" => B::Prim(Prim::I8),
        "i16" => B::Prim(Prim::I16),
        "i32" => B::Prim(Prim::I32),
        "i64" => B::Prim(Prim::I64),
        "i128" => B::Prim(Prim::I128),
        "i256" => B::Prim(Prim::I256),
        // `char` and `str` come from scale-info primitives.
        "char" => B::Prim(Prim::Char),
        "str" | "string" | "genericstringtype" => B::Prim(Prim::Str),
        "h160" => B::ByteArray(20),
        "h256" => B::ByteArray(32),
        "h512" => B::ByteArray(64),
        "null" => B::Null,
        "bytes" | "opaquecall" => B::Bytes,
        "hexbytes" => B::Special(Special::HexBytes),
        "optionbytes" => B::OptionBytes,
        "compact" => B::Compact(None),
        "compactu32" => B::Compact(Some(Prim::U32)),
        "compactmoment" => B::Compact(Some(Prim::U64)),
        "vec" | "boundedvec" | "weakboundedvec" | "btreeset" | "vecdeque" => B::Vec,
        "option" => B::Option,
        "map" | "hashmap" | "btreemap" | "boundedbtreemap" => B::Map,
        "result" => B::Result,
        "bitvec" => B::BitVec,
        "era" => B::Special(Special::Era),
        "genericaccountid" | "multiaccountid" => B::Special(Special::AccountId),
        "accountidaddress" => B::Special(Special::AccountIdAddress),
        "genericethereumaccountid" => B::Special(Special::EthereumAccountId),
        "genericaccountindex" => B::Special(Special::AccountIndex),
        "genericaddress" | "rawaddress" => B::Special(Special::LegacyAddress),
        "data" => B::Special(Special::IdentityData),
        "genericvote" => B::Special(Special::Vote),
        "genericcall" => B::Special(Special::Call),
        "genericextrinsic" | "extrinsic" => B::Special(Special::Extrinsic),
        "genericevent" | "genericscaleinfoevent" => B::Special(Special::Event),
        "genericmetadataversioned" => B::Special(Special::MetadataVersioned),
        "genericmultiaddress" => B::MultiAddress,
        "storagehasher" => B::StorageHasher,
        "conviction" => B::Conviction,
        "genericconsensusengineid" => B::Special(Special::ConsensusEngineId),
        "struct"
        | "tuple"
        | "enum"
        | "set"
        | "fixedlengtharray"
        | "wrapperkeepopaque"
        | "genericeventrecord"
        | "eventrecord"
        | "genericextrinsicv4"
        | "genericmetadataall"
        | "genericregistrytype"
        | "genericfield"
        | "genericvariant"
        | "generictypedefcomposite"
        | "generictypedefvariant"
        | "genericfunctionargumentmetadata"
        | "genericfunctionmetadata"
        | "scaleinfocallmetadata"
        | "scaleinfopalleterrormetadata"
        | "scaleinfopalleteventmetadata"
        | "genericpalletmetadata"
        | "scaleinfopalletmetadata"
        | "genericstorageentrymetadata"
        | "scaleinfostorageentrymetadata"
        | "genericruntimecalldefinition"
        | "genericeventmetadata"
        | "genericerrormetadata"
        | "genericmoduleconstantmetadata"
        | "scaleinfomoduleconstantmetadata"
        | "scaleinfofunctionargumentmetadata"
        | "genericcontractexecresult"
        | "genericcontractexecresultv2"
        | "logdigest" => B::Shape(static_name(lower)),
        // Struct classes with a type_mapping of their own. ProposalPreimage
        // post-processes its data in py-scale-codec (the proposal call);
        // here it keeps the raw fields.
        "genericsealv0" => B::Struct(&[("slot", "u64"), ("signature", "Signature")]),
        "genericconsensus" | "genericseal" => B::Struct(DIGEST_ITEM_FIELDS),
        "genericpreruntime" => B::PreRuntime(DIGEST_ITEM_FIELDS),
        "proposalpreimage" => B::Struct(&[
            ("proposal", "HexBytes"),
            ("registredBy", "AccountId"),
            ("deposit", "BalanceOf"),
            ("blockNumber", "BlockNumber"),
        ]),
        "rawbytes" => B::Special(Special::RawBytes { call: false }),
        "callbytes" => B::Special(Special::RawBytes { call: true }),
        "f32" | "f64" | "genericblock" | "typenotsupported" => B::Unsupported(static_name(lower)),
        _ => return None,
    })
}

/// The class names above as `'static` strings (for error messages).
fn static_name(lower: &str) -> &'static str {
    const NAMES: &[&str] = &[
        "struct",
        "tuple",
        "enum",
        "set",
        "fixedlengtharray",
        "wrapperkeepopaque",
        "genericeventrecord",
        "eventrecord",
        "genericextrinsicv4",
        "genericmetadataall",
        "genericregistrytype",
        "genericfield",
        "genericvariant",
        "generictypedefcomposite",
        "generictypedefvariant",
        "genericfunctionargumentmetadata",
        "genericfunctionmetadata",
        "scaleinfocallmetadata",
        "scaleinfopalleterrormetadata",
        "scaleinfopalleteventmetadata",
        "genericpalletmetadata",
        "scaleinfopalletmetadata",
        "genericstorageentrymetadata",
        "scaleinfostorageentrymetadata",
        "genericruntimecalldefinition",
        "genericeventmetadata",
        "genericerrormetadata",
        "genericmoduleconstantmetadata",
        "scaleinfomoduleconstantmetadata",
        "scaleinfofunctionargumentmetadata",
        "genericcontractexecresult",
        "genericcontractexecresultv2",
        "proposalpreimage",
        "genericsealv0",
        "genericconsensus",
        "genericseal",
        "genericpreruntime",
        "logdigest",
        "f32",
        "f64",
        "genericblock",
        "typenotsupported",
    ];
    NAMES
        .iter()
        .find(|n| **n == lower)
        .copied()
        .unwrap_or("class")
}

/// Names that py-scale-codec only knows from `core.json`, resolved without
/// it too so that a registry without presets understands the basics. A
/// loaded preset's definitions of the same names take precedence.
pub(super) fn fallback_alias(lower: &str) -> Option<&'static str> {
    Some(match lower {
        "text" => "String",
        "accountid" => "GenericAccountId",
        "address" | "multiaddress" | "lookupsource" => "GenericMultiAddress",
        "call" => "GenericCall",
        "event" => "GenericEvent",
        "hash" => "H256",
        "accountindex" => "GenericAccountIndex",
        "metadataversioned" => "GenericMetadataVersioned",
        _ => return None,
    })
}
