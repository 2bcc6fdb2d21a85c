//! The portable registry into the RFC's types: which registry types an
//! extrinsic can reach, their RFC ids (registry order among the reachable
//! types that are not primitives, compacts or empty), each as one leaf (one
//! per variant for enums), and the extrinsic metadata in RFC references.

use std::collections::{BTreeMap, BTreeSet};

use parity_scale_codec::Compact;
use scale_info::form::PortableForm;
use scale_info::{PortableRegistry, TypeDef as Def, TypeDefPrimitive as Prim};

use super::types::{
    EnumerationVariant, ExtrinsicMetadata, Field, SignedExtensionMetadata, Type, TypeDef,
    TypeDefArray, TypeDefBitSequence, TypeRef,
};
use crate::{Error, Metadata};

/// Where a leaf sits: its RFC id and, for an enum's variant, the variant
/// index (0 for any other type). Leaves are ordered by this key.
pub(crate) type LeafKey = (u32, u32);

/// The metadata in the RFC's form: the leaves in tree order and the
/// extrinsic metadata.
pub(crate) struct Shaped {
    /// Every leaf with its key, ordered by key.
    pub(crate) leaves: Vec<(LeafKey, Type)>,
    /// The extrinsic metadata in RFC references.
    pub(crate) extrinsic: ExtrinsicMetadata,
}

/// The registry ids an extrinsic's parts point at: call, address, signature
/// and each signed extension's two types, with the extrinsic version.
struct Roots {
    version: u8,
    call: u32,
    address: u32,
    signature: u32,
    extensions: Vec<(String, u32, u32)>,
}

fn digest_error(what: impl Into<String>) -> Error {
    Error::Digest(what.into())
}

/// The metadata's extrinsic in registry ids. V14 reads them from the
/// `UncheckedExtrinsic` type's parameters (the model does it on load);
/// V16, which may list several extrinsic versions, is taken as the V15
/// metadata of the same runtime shows it: the lowest version and the
/// extensions a signed version-4 extrinsic carries.
fn roots(metadata: &Metadata) -> Result<Roots, Error> {
    let e = &metadata.extrinsic;
    let need = |id: Option<u32>, what: &str| {
        id.ok_or_else(|| {
            digest_error(format!(
                "the metadata does not name the extrinsic's {what} type"
            ))
        })
    };
    let version = *e
        .versions
        .iter()
        .min()
        .ok_or_else(|| digest_error("the metadata lists no extrinsic version"))?;
    let extensions = e
        .signed_extensions_v4()
        .into_iter()
        .map(|s| {
            Ok((
                s.identifier.clone(),
                need(s.ty, "signed extension")?,
                need(s.additional_signed, "signed extension's signed data")?,
            ))
        })
        .collect::<Result<_, Error>>()?;
    Ok(Roots {
        version,
        call: need(e.call_type, "call")?,
        address: need(e.address_type, "address")?,
        signature: need(e.signature_type, "signature")?,
        extensions,
    })
}

/// The registry's definition of `id`, or an error naming the id.
fn def(registry: &PortableRegistry, id: u32) -> Result<&Def<PortableForm>, Error> {
    registry
        .resolve(id)
        .map(|t| &t.type_def)
        .ok_or_else(|| digest_error(format!("type id {id} is not in the registry")))
}

/// Whether a registry type becomes leaves: primitives and compacts become
/// references, empty composites, tuples and enums `Void`.
fn has_leaves(def: &Def<PortableForm>) -> bool {
    match def {
        Def::Primitive(_) | Def::Compact(_) => false,
        Def::Composite(c) => !c.fields.is_empty(),
        Def::Variant(v) => !v.variants.is_empty(),
        Def::Tuple(t) => !t.fields.is_empty(),
        Def::Sequence(_) | Def::Array(_) | Def::BitSequence(_) => true,
    }
}

/// The ids reachable from `starts` through fields, elements and variants
/// (not into compacts, whose inner type becomes part of the reference, nor
/// into bit sequences' store and order types). Iterative: a deep registry
/// cannot exhaust the stack.
fn reachable(registry: &PortableRegistry, starts: &[u32]) -> Result<BTreeSet<u32>, Error> {
    let mut seen = BTreeSet::new();
    let mut stack = starts.to_vec();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        match def(registry, id)? {
            Def::Composite(c) => stack.extend(c.fields.iter().map(|f| f.ty.id)),
            Def::Variant(v) => stack.extend(
                v.variants
                    .iter()
                    .flat_map(|v| v.fields.iter().map(|f| f.ty.id)),
            ),
            Def::Sequence(s) => stack.push(s.type_param.id),
            Def::Array(a) => stack.push(a.type_param.id),
            Def::Tuple(t) => stack.extend(t.fields.iter().map(|f| f.id)),
            Def::Primitive(_) | Def::Compact(_) | Def::BitSequence(_) => {}
        }
    }
    Ok(seen)
}

/// The primitive types found anywhere below `start` (itself included),
/// through every edge: what a compact or a bit sequence's store stands for.
fn primitives_below(registry: &PortableRegistry, start: u32) -> Result<Vec<Prim>, Error> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![start];
    let mut found = Vec::new();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let def = def(registry, id)?;
        if let Def::Primitive(p) = def {
            found.push(p.clone());
        }
        stack.extend(crate::type_graph::children(def));
    }
    Ok(found)
}

/// Registry ids to RFC references, over the renumbering.
struct Refs<'a> {
    registry: &'a PortableRegistry,
    rfc_ids: &'a BTreeMap<u32, u32>,
}

impl Refs<'_> {
    /// The RFC reference to registry type `id`.
    fn of(&self, id: u32) -> Result<TypeRef, Error> {
        Ok(match def(self.registry, id)? {
            Def::Primitive(p) => primitive(p),
            Def::Compact(c) => {
                let found = primitives_below(self.registry, c.type_param.id)?;
                match found.as_slice() {
                    [] => TypeRef::Void,
                    [p] => compact(p, id)?,
                    _ => {
                        return Err(digest_error(format!(
                            "compact type {id} stands for several primitives"
                        )))
                    }
                }
            }
            d if !has_leaves(d) => TypeRef::Void,
            _ => TypeRef::ById(Compact(*self.rfc_ids.get(&id).ok_or_else(|| {
                digest_error(format!("type {id} is referred to but not reachable"))
            })?)),
        })
    }

    fn field(&self, f: &scale_info::Field<PortableForm>) -> Result<Field, Error> {
        Ok(Field {
            name: f.name.clone(),
            ty: self.of(f.ty.id)?,
            type_name: f.type_name.clone(),
        })
    }

    /// The leaves of registry type `id`: one per variant (by index) for an
    /// enum, one otherwise, their `type_id` left for the caller.
    fn leaves(&self, id: u32) -> Result<Vec<(u32, TypeDef)>, Error> {
        Ok(match def(self.registry, id)? {
            Def::Variant(v) => {
                let mut variants: Vec<_> = v.variants.iter().collect();
                variants.sort_by_key(|v| v.index);
                variants
                    .into_iter()
                    .map(|v| {
                        let fields = v
                            .fields
                            .iter()
                            .map(|f| self.field(f))
                            .collect::<Result<_, _>>()?;
                        let variant = EnumerationVariant {
                            name: v.name.clone(),
                            fields,
                            index: Compact(u32::from(v.index)),
                        };
                        Ok((u32::from(v.index), TypeDef::Enumeration(variant)))
                    })
                    .collect::<Result<_, Error>>()?
            }
            Def::Composite(c) => vec![(
                0,
                TypeDef::Composite(
                    c.fields
                        .iter()
                        .map(|f| self.field(f))
                        .collect::<Result<_, _>>()?,
                ),
            )],
            Def::Sequence(s) => vec![(0, TypeDef::Sequence(self.of(s.type_param.id)?))],
            Def::Array(a) => vec![(
                0,
                TypeDef::Array(TypeDefArray {
                    len: a.len,
                    type_param: self.of(a.type_param.id)?,
                }),
            )],
            Def::Tuple(t) => vec![(
                0,
                TypeDef::Tuple(
                    t.fields
                        .iter()
                        .map(|f| self.of(f.id))
                        .collect::<Result<_, _>>()?,
                ),
            )],
            Def::BitSequence(b) => vec![(0, TypeDef::BitSequence(self.bit_sequence(id, b)?))],
            Def::Primitive(_) | Def::Compact(_) => Vec::new(),
        })
    }

    /// A bit sequence: the store type's width and the order type's name.
    fn bit_sequence(
        &self,
        id: u32,
        b: &scale_info::TypeDefBitSequence<PortableForm>,
    ) -> Result<TypeDefBitSequence, Error> {
        let num_bytes = match primitives_below(self.registry, b.bit_store_type.id)?.as_slice() {
            [Prim::U8] => 1,
            [Prim::U16] => 2,
            [Prim::U32] => 4,
            [Prim::U64] => 8,
            _ => {
                return Err(digest_error(format!(
                    "bit sequence {id}: the store type is not one of u8, u16, u32, u64"
                )))
            }
        };
        let order = self
            .registry
            .resolve(b.bit_order_type.id)
            .and_then(|t| {
                t.path
                    .segments
                    .iter()
                    .find(|s| *s == "Lsb0" || *s == "Msb0")
            })
            .ok_or_else(|| {
                digest_error(format!(
                    "bit sequence {id}: the order type is neither Lsb0 nor Msb0"
                ))
            })?;
        Ok(TypeDefBitSequence {
            num_bytes,
            least_significant_bit_first: order == "Lsb0",
        })
    }
}

fn primitive(p: &Prim) -> TypeRef {
    match p {
        Prim::Bool => TypeRef::Bool,
        Prim::Char => TypeRef::Char,
        Prim::Str => TypeRef::Str,
        Prim::U8 => TypeRef::U8,
        Prim::U16 => TypeRef::U16,
        Prim::U32 => TypeRef::U32,
        Prim::U64 => TypeRef::U64,
        Prim::U128 => TypeRef::U128,
        Prim::U256 => TypeRef::U256,
        Prim::I8 => TypeRef::I8,
        Prim::I16 => TypeRef::I16,
        Prim::I32 => TypeRef::I32,
        Prim::I64 => TypeRef::I64,
        Prim::I128 => TypeRef::I128,
        Prim::I256 => TypeRef::I256,
    }
}

fn compact(p: &Prim, id: u32) -> Result<TypeRef, Error> {
    Ok(match p {
        Prim::U8 => TypeRef::CompactU8,
        Prim::U16 => TypeRef::CompactU16,
        Prim::U32 => TypeRef::CompactU32,
        Prim::U64 => TypeRef::CompactU64,
        Prim::U128 => TypeRef::CompactU128,
        Prim::U256 => TypeRef::CompactU256,
        other => {
            return Err(digest_error(format!(
                "compact type {id} over {other:?}, which is not an unsigned integer"
            )))
        }
    })
}

/// The metadata (V14 and later) in the RFC's form.
pub(crate) fn shape(metadata: &Metadata) -> Result<Shaped, Error> {
    let registry = metadata.types.as_ref().ok_or_else(|| {
        digest_error(format!(
            "RFC-0078 digests need metadata V14 or later (a portable type registry); this is V{}",
            metadata.version
        ))
    })?;
    let roots = roots(metadata)?;
    let mut starts = vec![roots.call, roots.address, roots.signature];
    for (_, ty, implicit) in &roots.extensions {
        starts.extend([*ty, *implicit]);
    }
    let mut rfc_ids = BTreeMap::new();
    for id in reachable(registry, &starts)? {
        if has_leaves(def(registry, id)?) {
            let next = u32::try_from(rfc_ids.len()).map_err(|_| digest_error("too many types"))?;
            rfc_ids.insert(id, next);
        }
    }
    let refs = Refs {
        registry,
        rfc_ids: &rfc_ids,
    };
    let path = |id: u32| -> Vec<String> {
        registry
            .resolve(id)
            .map(|t| t.path.segments.clone())
            .unwrap_or_default()
    };
    let mut leaves = BTreeMap::new();
    for (&id, &rfc_id) in &rfc_ids {
        let segments = path(id);
        for (variant, type_def) in refs.leaves(id)? {
            let leaf = Type {
                path: segments.clone(),
                type_def,
                type_id: Compact(rfc_id),
            };
            // A variant index listed twice: the later one stands.
            leaves.insert((rfc_id, variant), leaf);
        }
    }
    let extrinsic = ExtrinsicMetadata {
        version: roots.version,
        address_ty: refs.of(roots.address)?,
        call_ty: refs.of(roots.call)?,
        signature_ty: refs.of(roots.signature)?,
        signed_extensions: roots
            .extensions
            .iter()
            .map(|(identifier, ty, implicit)| {
                Ok(SignedExtensionMetadata {
                    identifier: identifier.clone(),
                    included_in_extrinsic: refs.of(*ty)?,
                    included_in_signed_data: refs.of(*implicit)?,
                })
            })
            .collect::<Result<_, Error>>()?,
    };
    Ok(Shaped {
        leaves: leaves.into_iter().collect(),
        extrinsic,
    })
}
