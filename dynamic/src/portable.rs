//! Import of a scale-info `PortableRegistry` (V14–V16 metadata, read through
//! core's metadata model, [`ferroscale_metadata`]) into the
//! [`TypeGraph`]: one node per registry id (`scale_info::N`), path names
//! (`sp_core::crypto::accountid32`, lower-cased as py-scale-codec registers
//! them), and py-scale-codec's overrides by path (AccountId32, MultiAddress,
//! Era, Call, Event, EventRecord, identity Data, BoundedVec, Option, U256,
//! conviction votes, WrapperKeepOpaque).
//!
//! The import formats no strings per node (names are lazy, see
//! [`TypeGraph::name_range`]), so building stays well under a millisecond
//! for a full Polkadot registry.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use ferroscale_metadata::{
    Extrinsic as MdExtrinsic, Metadata, Pallet as MdPallet, SignedExtension,
};
use scale_info::form::PortableForm;
use scale_info::{PortableRegistry, TypeDef, TypeDefPrimitive};

use crate::error::Error;
use crate::graph::{
    BitStore, Field, Fields, Name, Node, Prim, Special, TypeGraph, TypeIdx, Variant,
};
use crate::runtime::{
    extension_key, Extension, ExtrinsicFormat, FrameExtension, PalletTables, Runtime,
    SigningExtension,
};
use crate::typestr::convert_type_string;

/// Where a portable registry landed in the graph.
#[derive(Clone, Debug)]
pub struct PortableTypes {
    /// The prefix of the lazily formed names (`scale_info`).
    pub prefix: Name,
    /// Graph index of registry id 0.
    pub base: u32,
    /// Number of registry ids.
    pub count: u32,
    /// Lower-cased `::`-joined paths → node (the last type with a path wins,
    /// as in py-scale-codec's registry).
    pub by_path: HashMap<String, TypeIdx>,
}

impl PortableTypes {
    /// The node of registry id `id`.
    pub fn idx(&self, id: u32) -> Option<TypeIdx> {
        (id < self.count).then(|| TypeIdx(self.base + id))
    }

    /// Resolves `scale_info::N` (with this import's prefix) or a path name
    /// (case-insensitive) to a node.
    pub fn lookup(&self, name: &str) -> Option<TypeIdx> {
        if let Some(rest) = name
            .strip_prefix(&*self.prefix)
            .and_then(|r| r.strip_prefix("::"))
        {
            if let Ok(id) = rest.parse::<u32>() {
                return self.idx(id);
            }
        }
        self.by_path.get(&name.to_ascii_lowercase()).copied()
    }

    /// The registry id of node `idx` (`None` for a node outside the registry).
    pub fn id(&self, idx: TypeIdx) -> Option<u32> {
        idx.0.checked_sub(self.base).filter(|id| *id < self.count)
    }
}

/// A metadata blob imported into a graph: its types and its runtime context.
#[derive(Clone, Debug)]
pub struct ImportedMetadata {
    /// The registry's nodes.
    pub types: PortableTypes,
    /// Pallets, calls, events and the extrinsic format.
    pub runtime: Runtime,
    /// The metadata version (14, 15 or 16).
    pub version: u32,
}

/// Imports V14–V16 metadata bytes (any form
/// [`Metadata::load`] accepts): registry nodes plus runtime context.
pub fn import_metadata_bytes(
    graph: &mut TypeGraph,
    bytes: &[u8],
) -> Result<ImportedMetadata, Error> {
    let md = Metadata::load(bytes)?;
    import_metadata(graph, &md)
}

/// Imports V14–V16 metadata from core's model (the one every layer reads
/// metadata through): registry nodes plus runtime context.
pub fn import_metadata(graph: &mut TypeGraph, md: &Metadata) -> Result<ImportedMetadata, Error> {
    let Some(reg) = &md.types else {
        return Err(Error::Import(format!(
            "metadata V{} has no portable registry (legacy metadata decodes with presets)",
            md.version
        )));
    };
    let types = import_registry(graph, reg, "scale_info")?;
    let x = &md.extrinsic;
    let runtime = build_runtime(reg, &types, &md.pallets, x)?;
    Ok(ImportedMetadata {
        types,
        runtime,
        version: md.version,
    })
}

/// What a registry path maps to, per py-scale-codec's `core.json` overrides.
enum PathOverride {
    None,
    AccountId,
    MultiAddress,
    Era,
    Vote,
    IdentityData,
    BoundedVec,
    WrapperKeepOpaque,
    Call,
    Event,
    EventRecord,
    Option,
    U256,
}

fn path_override(seg: &[String]) -> PathOverride {
    let s = |i: usize| seg.get(i).map(String::as_str);
    match seg.len() {
        0 => PathOverride::None,
        1 => match s(0) {
            Some("Option") => PathOverride::Option,
            _ => PathOverride::None,
        },
        2 => match (s(0), s(1)) {
            (Some("primitive_types"), Some("U256")) => PathOverride::U256,
            (_, Some("Call" | "RuntimeCall")) => PathOverride::Call,
            (_, Some("Event" | "RuntimeEvent")) => PathOverride::Event,
            (_, Some("EventRecord")) => PathOverride::EventRecord,
            _ => PathOverride::None,
        },
        _ => {
            let joined_eq = |want: &[&str]| {
                seg.len() == want.len() && seg.iter().zip(want).all(|(a, b)| a == b)
            };
            if joined_eq(&["sp_core", "crypto", "AccountId32"])
                || joined_eq(&["ink_env", "types", "AccountId"])
                || joined_eq(&["ink_primitives", "types", "AccountId"])
            {
                PathOverride::AccountId
            } else if joined_eq(&["sp_runtime", "multiaddress", "MultiAddress"]) {
                PathOverride::MultiAddress
            } else if joined_eq(&["sp_runtime", "generic", "era", "Era"]) {
                PathOverride::Era
            } else if joined_eq(&["pallet_identity", "types", "Data"]) {
                PathOverride::IdentityData
            } else if joined_eq(&["sp_core", "bounded", "bounded_vec", "BoundedVec"])
                || joined_eq(&["sp_core", "bounded", "weak_bounded_vec", "WeakBoundedVec"])
                || joined_eq(&[
                    "frame_support",
                    "storage",
                    "weak_bounded_vec",
                    "WeakBoundedVec",
                ])
                || joined_eq(&["frame_support", "storage", "bounded_vec", "BoundedVec"])
            {
                PathOverride::BoundedVec
            } else if joined_eq(&["frame_support", "traits", "misc", "WrapperKeepOpaque"]) {
                PathOverride::WrapperKeepOpaque
            } else if seg.len() == 3 && s(1) == Some("vote") && s(2) == Some("Vote") {
                PathOverride::Vote
            } else if seg.len() == 3 && s(1) == Some("runtime") && s(2) == Some("Call") {
                PathOverride::Call
            } else if seg.len() == 3 && s(1) == Some("runtime") && s(2) == Some("Event") {
                PathOverride::Event
            } else {
                PathOverride::None
            }
        }
    }
}

/// Imports every type of `reg` into `graph`; registry id `N` becomes the node
/// `base + N`, named lazily `prefix::N`.
pub fn import_registry(
    graph: &mut TypeGraph,
    reg: &PortableRegistry,
    prefix: &str,
) -> Result<PortableTypes, Error> {
    let count = reg.types.len();
    let count_u32 = u32::try_from(count).map_err(|_| Error::Import("registry too large".into()))?;
    for (pos, t) in reg.types.iter().enumerate() {
        if t.id as usize != pos {
            return Err(Error::Import(format!(
                "registry type at position {pos} has id {} (ids must be dense)",
                t.id
            )));
        }
    }
    let base = graph.len() as u32;
    let check = |id: u32| -> Result<TypeIdx, Error> {
        if id < count_u32 {
            Ok(TypeIdx(base + id))
        } else {
            Err(Error::Import(format!(
                "type id {id} out of range (registry has {count})"
            )))
        }
    };
    let is_u8 = |id: u32| {
        reg.types
            .get(id as usize)
            .is_some_and(|t| matches!(t.ty.type_def, TypeDef::Primitive(TypeDefPrimitive::U8)))
    };
    // Extra nodes (the enum behind MultiAddress/Event, the struct behind
    // EventRecord) go after the registry's nodes.
    let mut aux: Vec<Node> = Vec::new();
    let mut aux_labels: Vec<(TypeIdx, Name)> = Vec::new();
    let aux_base = base + count_u32;
    let mut by_path: HashMap<String, TypeIdx> = HashMap::with_capacity(count / 2);
    let mut labels: Vec<Option<Name>> = Vec::with_capacity(count);
    graph.reserve_nodes(count);

    for t in &reg.types {
        let ty = &t.ty;
        let natural = || convert_def(&ty.type_def, &check, &is_u8);
        let node = match path_override(&ty.path.segments) {
            PathOverride::None => natural()?,
            PathOverride::AccountId => Node::Special(Special::AccountId),
            PathOverride::Era => Node::Special(Special::Era),
            PathOverride::Vote => Node::Special(Special::Vote),
            PathOverride::IdentityData => Node::Special(Special::IdentityData),
            PathOverride::Call => Node::Special(Special::Call),
            PathOverride::U256 => Node::Prim(Prim::U256),
            PathOverride::MultiAddress | PathOverride::Event | PathOverride::EventRecord => {
                let inner = natural()?;
                let at = TypeIdx(aux_base + aux.len() as u32);
                aux.push(inner);
                if let Some(last) = ty.path.segments.last() {
                    aux_labels.push((at, Name::from(last.as_str())));
                }
                Node::Special(match path_override(&ty.path.segments) {
                    PathOverride::MultiAddress => Special::MultiAddress(at),
                    PathOverride::Event => Special::ScaleInfoEvent(at),
                    _ => Special::EventRecord(at),
                })
            }
            PathOverride::BoundedVec | PathOverride::Option => {
                match ty.type_params.first().and_then(|p| p.ty) {
                    Some(p) => {
                        let inner = check(p.id)?;
                        if matches!(path_override(&ty.path.segments), PathOverride::Option) {
                            Node::Option(inner)
                        } else if is_u8(p.id) {
                            Node::Bytes
                        } else {
                            Node::Seq(inner)
                        }
                    }
                    None => natural()?,
                }
            }
            PathOverride::WrapperKeepOpaque => match &ty.type_def {
                TypeDef::Composite(c) if c.fields.len() == 2 => {
                    Node::Special(Special::WrapperKeepOpaque(check(c.fields[1].ty.id)?))
                }
                _ => natural()?,
            },
        };
        graph.add(node, None);
        labels.push(ty.path.segments.last().map(|s| Name::from(s.as_str())));
        if !ty.path.segments.is_empty() {
            let mut key = String::with_capacity(64);
            for (i, s) in ty.path.segments.iter().enumerate() {
                if i > 0 {
                    key.push_str("::");
                }
                key.push_str(s);
            }
            key.make_ascii_lowercase();
            by_path.insert(key, TypeIdx(base + t.id));
        }
    }
    let prefix: Name = Arc::from(prefix);
    graph.name_range_with_labels(TypeIdx(base), count_u32, prefix.clone(), labels);
    for node in aux {
        graph.add(node, None);
    }
    for (at, label) in aux_labels {
        graph.set_label(at, label);
    }
    let types = PortableTypes {
        prefix,
        base,
        count: count_u32,
        by_path,
    };
    fix_bit_sequences(graph, reg, &types);
    Ok(types)
}

/// The node of a registry type definition, without path overrides.
fn convert_def(
    def: &TypeDef<PortableForm>,
    check: &impl Fn(u32) -> Result<TypeIdx, Error>,
    is_u8: &impl Fn(u32) -> bool,
) -> Result<Node, Error> {
    Ok(match def {
        TypeDef::Composite(c) => {
            if c.fields.iter().all(|f| f.name.is_some()) {
                Node::Struct(named_fields(&c.fields, check)?)
            } else {
                Node::Tuple(
                    c.fields
                        .iter()
                        .map(|f| check(f.ty.id))
                        .collect::<Result<_, _>>()?,
                )
            }
        }
        TypeDef::Variant(v) => {
            let mut variants = Vec::with_capacity(v.variants.len());
            for var in &v.variants {
                let fields = if var.fields.is_empty() {
                    Fields::Unit
                } else if var.fields.iter().all(|f| f.name.is_some()) {
                    Fields::Named(named_fields(&var.fields, check)?)
                } else {
                    Fields::Unnamed(
                        var.fields
                            .iter()
                            .map(|f| check(f.ty.id))
                            .collect::<Result<_, _>>()?,
                    )
                };
                variants.push(Variant {
                    index: var.index,
                    name: Arc::from(var.name.as_str()),
                    fields,
                });
            }
            variants.sort_by_key(|v| v.index);
            Node::Enum(variants)
        }
        TypeDef::Sequence(s) => {
            let inner = check(s.type_param.id)?;
            if is_u8(s.type_param.id) {
                Node::Bytes
            } else {
                Node::Seq(inner)
            }
        }
        TypeDef::Array(a) => {
            let inner = check(a.type_param.id)?;
            if is_u8(a.type_param.id) && a.len > 0 {
                Node::ByteArray(a.len)
            } else {
                Node::Array(inner, a.len)
            }
        }
        TypeDef::Tuple(t) => Node::Tuple(
            t.fields
                .iter()
                .map(|f| check(f.id))
                .collect::<Result<_, _>>()?,
        ),
        TypeDef::Primitive(p) => Node::Prim(match p {
            TypeDefPrimitive::Bool => Prim::Bool,
            TypeDefPrimitive::Char => Prim::Char,
            TypeDefPrimitive::Str => Prim::Str,
            TypeDefPrimitive::U8 => Prim::U8,
            TypeDefPrimitive::U16 => Prim::U16,
            TypeDefPrimitive::U32 => Prim::U32,
            TypeDefPrimitive::U64 => Prim::U64,
            TypeDefPrimitive::U128 => Prim::U128,
            TypeDefPrimitive::U256 => Prim::U256,
            TypeDefPrimitive::I8 => Prim::I8,
            TypeDefPrimitive::I16 => Prim::I16,
            TypeDefPrimitive::I32 => Prim::I32,
            TypeDefPrimitive::I64 => Prim::I64,
            TypeDefPrimitive::I128 => Prim::I128,
            TypeDefPrimitive::I256 => Prim::I256,
        }),
        TypeDef::Compact(c) => Node::Compact(check(c.type_param.id)?),
        TypeDef::BitSequence(b) => {
            // The store is a primitive; the order's path ends in Lsb0 or Msb0.
            check(b.bit_store_type.id)?;
            check(b.bit_order_type.id)?;
            Node::BitSeq {
                store: BitStore::U8,
                lsb0: true,
            }
        }
    })
}

fn named_fields(
    fields: &[scale_info::Field<PortableForm>],
    check: &impl Fn(u32) -> Result<TypeIdx, Error>,
) -> Result<Vec<Field>, Error> {
    fields
        .iter()
        .map(|f| {
            Ok(Field {
                name: Arc::from(f.name.as_deref().unwrap_or("")),
                ty: check(f.ty.id)?,
            })
        })
        .collect()
}

/// Refines bit-sequence nodes with their store and order, which needs the
/// registry (the store/order types are separate registry entries).
fn fix_bit_sequences(graph: &mut TypeGraph, reg: &PortableRegistry, types: &PortableTypes) {
    for t in &reg.types {
        if let TypeDef::BitSequence(b) = &t.ty.type_def {
            let store = match reg.resolve(b.bit_store_type.id).map(|s| &s.type_def) {
                Some(TypeDef::Primitive(TypeDefPrimitive::U16)) => BitStore::U16,
                Some(TypeDef::Primitive(TypeDefPrimitive::U32)) => BitStore::U32,
                Some(TypeDef::Primitive(TypeDefPrimitive::U64)) => BitStore::U64,
                _ => BitStore::U8,
            };
            let lsb0 = reg
                .resolve(b.bit_order_type.id)
                .and_then(|o| o.path.segments.last())
                .is_none_or(|s| s != "Msb0");
            if let Some(idx) = types.idx(t.id) {
                graph.set(idx, Node::BitSeq { store, lsb0 });
            }
        }
    }
}

/// Whether a registry type encodes to zero bytes (empty tuples and structs,
/// nested), looking at most a few levels deep.
fn is_zero_sized(reg: &PortableRegistry, id: u32, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    match reg.resolve(id).map(|t| &t.type_def) {
        Some(TypeDef::Composite(c)) => c
            .fields
            .iter()
            .all(|f| is_zero_sized(reg, f.ty.id, depth + 1)),
        Some(TypeDef::Tuple(t)) => t.fields.iter().all(|f| is_zero_sized(reg, f.id, depth + 1)),
        Some(TypeDef::Array(a)) => a.len == 0 || is_zero_sized(reg, a.type_param.id, depth + 1),
        _ => false,
    }
}

fn build_runtime(
    reg: &PortableRegistry,
    types: &PortableTypes,
    pallets: &[MdPallet],
    x: &MdExtrinsic,
) -> Result<Runtime, Error> {
    let idx = |id: u32| {
        types
            .idx(id)
            .ok_or_else(|| Error::Import(format!("type id {id} out of range")))
    };
    let mut tables = PalletTables::default();
    for p in pallets {
        tables.add(p, &mut |_, _, f| {
            let ty = f.ty.id().ok_or_else(|| {
                Error::Import(format!("argument type {} is not a registry id", f.ty))
            })?;
            let type_name = f
                .type_name
                .as_deref()
                .map(|t| Arc::from(convert_type_string(t).as_str()));
            Ok((idx(ty)?, type_name))
        })?;
    }
    let account_id = x.address_type.and_then(|a| {
        let t = reg.resolve(a)?;
        if t.path.segments.last().map(String::as_str) != Some("MultiAddress") {
            return None;
        }
        t.type_params
            .iter()
            .find(|p| p.name == "AccountId")
            .and_then(|p| p.ty)
            .and_then(|p| types.idx(p.id))
    });
    let with_data = |list: Vec<&SignedExtension>| -> Result<Vec<Extension>, Error> {
        let mut out = Vec::with_capacity(list.len());
        for e in list {
            // An extension without data (or without a type) adds no bytes.
            let Some(ty) = e.ty.filter(|&ty| !is_zero_sized(reg, ty, 0)) else {
                continue;
            };
            let key = extension_key(&e.identifier).unwrap_or(e.identifier.as_str());
            out.push(Extension {
                identifier: Arc::from(e.identifier.as_str()),
                key: Arc::from(key),
                ty: idx(ty)?,
            });
        }
        Ok(out)
    };
    let extensions = with_data(x.signed_extensions_v4())?;
    let sized = |ty: Option<u32>| -> Result<Option<TypeIdx>, Error> {
        ty.filter(|&ty| !is_zero_sized(reg, ty, 0))
            .map(idx)
            .transpose()
    };
    let signing = x
        .signed_extensions_v4()
        .into_iter()
        .map(|e| {
            Ok(SigningExtension {
                identifier: Arc::from(e.identifier.as_str()),
                frame: FrameExtension::of(&e.identifier),
                extrinsic: sized(e.ty)?,
                additional_signed: sized(e.additional_signed)?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    // A format-5 general transaction names its extension version in a byte
    // of its own; without versions in the metadata, version 0 is everything.
    let general_extensions = if x.extensions_by_version.is_empty() {
        BTreeMap::from([(0, extensions.clone())])
    } else {
        x.extensions_by_version
            .keys()
            .map(|&v| Ok((v, with_data(x.extensions_for_version(v))?)))
            .collect::<Result<_, Error>>()?
    };
    let extrinsic = ExtrinsicFormat {
        versions: if x.versions.is_empty() {
            vec![4]
        } else {
            x.versions.clone()
        },
        address: x.address_type.map(idx).transpose()?,
        signature: x.signature_type.map(idx).transpose()?,
        account_id,
        call: x.call_type.map(idx).transpose()?,
        extensions,
        general_extensions,
        signing,
    };
    Ok(tables.into_runtime(extrinsic, true, false))
}
