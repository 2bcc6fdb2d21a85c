//! V14–V16 metadata into the model.
//!
//! These versions share the portable registry and (V15 re-exports V14's)
//! most pallet item types; V16 adds deprecation info, view functions,
//! associated types and versioned transaction extensions. Calls, events and
//! errors are enum types in the registry, so their variants are read from it.

use frame_metadata::{v14, v15, v16};
use scale_info::form::PortableForm;
use scale_info::{PortableRegistry, TypeDef};

use super::legacy::modifier;
use super::model::{
    AssociatedType, Constant, CustomValue, Deprecation, Extrinsic, Field, Metadata, OuterEnums,
    Pallet, PalletEnum, Param, RuntimeApi, RuntimeApiMethod, SignedExtension, Storage,
    StorageEntry, StorageHasher, TypeRef, Variant, ViewFunction,
};
use super::registry_check;
use crate::error::Error;
use crate::hasher::FrameHasher;
use crate::type_graph;

/// V14: the registry, pallets, the extrinsic type and the runtime type.
pub(super) fn from_v14(m: v14::RuntimeMetadataV14) -> Result<Metadata, Error> {
    let types = m.types;
    type_graph::check_registry(&types)?;
    let pallets = m
        .pallets
        .into_iter()
        .map(|p| {
            let parts = V14Parts {
                name: p.name,
                index: p.index,
                storage: p.storage,
                calls: p.calls,
                event: p.event,
                error: p.error,
                constants: p.constants,
            };
            parts.into_pallet(&types, Vec::new())
        })
        .collect::<Result<_, _>>()?;
    let extrinsic = extrinsic_v14(&types, m.extrinsic);
    finish(Metadata {
        version: 14,
        runtime_version: None,
        pallets,
        extrinsic,
        types: Some(types),
        runtime_type: Some(m.ty.id),
        apis: Vec::new(),
        outer_enums: None,
        custom: Default::default(),
    })
}

/// V15: V14 plus pallet docs, runtime APIs, outer enums and custom values.
pub(super) fn from_v15(m: v15::RuntimeMetadataV15) -> Result<Metadata, Error> {
    let types = m.types;
    type_graph::check_registry(&types)?;
    let pallets = m
        .pallets
        .into_iter()
        .map(|p| {
            let parts = V14Parts {
                name: p.name,
                index: p.index,
                storage: p.storage,
                calls: p.calls,
                event: p.event,
                error: p.error,
                constants: p.constants,
            };
            parts.into_pallet(&types, p.docs)
        })
        .collect::<Result<_, _>>()?;
    let e = m.extrinsic;
    let extrinsic = Extrinsic {
        versions: vec![e.version],
        type_id: None,
        address_type: Some(e.address_ty.id),
        call_type: Some(e.call_ty.id),
        signature_type: Some(e.signature_ty.id),
        extra_type: Some(e.extra_ty.id),
        signed_extensions: e
            .signed_extensions
            .into_iter()
            .map(|s| SignedExtension {
                identifier: s.identifier,
                ty: Some(s.ty.id),
                additional_signed: Some(s.additional_signed.id),
            })
            .collect(),
        extensions_by_version: Default::default(),
    };
    let apis = m
        .apis
        .into_iter()
        .map(|api| RuntimeApi {
            name: api.name,
            methods: api
                .methods
                .into_iter()
                .map(|method| RuntimeApiMethod {
                    name: method.name,
                    inputs: params(method.inputs),
                    output: method.output.id,
                    docs: method.docs,
                    deprecation: Deprecation::NotDeprecated,
                })
                .collect(),
            docs: api.docs,
            version: None,
            deprecation: Deprecation::NotDeprecated,
        })
        .collect();
    finish(Metadata {
        version: 15,
        runtime_version: None,
        pallets,
        extrinsic,
        types: Some(types),
        runtime_type: Some(m.ty.id),
        apis,
        outer_enums: Some(outer_enums(&m.outer_enums)),
        custom: custom(m.custom),
    })
}

/// V16: deprecation info everywhere, view functions, associated types,
/// several extrinsic versions and transaction extensions per version.
pub(super) fn from_v16(m: v16::RuntimeMetadataV16) -> Result<Metadata, Error> {
    let types = m.types;
    type_graph::check_registry(&types)?;
    let pallets = m
        .pallets
        .into_iter()
        .map(|p| pallet_v16(&types, p))
        .collect::<Result<_, _>>()?;
    let e = m.extrinsic;
    let extrinsic = Extrinsic {
        versions: e.versions,
        type_id: None,
        address_type: Some(e.address_ty.id),
        call_type: Some(e.call_ty.id),
        signature_type: Some(e.signature_ty.id),
        extra_type: None,
        signed_extensions: e
            .transaction_extensions
            .into_iter()
            .map(|t| SignedExtension {
                identifier: t.identifier,
                ty: Some(t.ty.id),
                additional_signed: Some(t.implicit.id),
            })
            .collect(),
        extensions_by_version: e
            .transaction_extensions_by_version
            .into_iter()
            .map(|(version, indexes)| (version, indexes.into_iter().map(|i| i.0).collect()))
            .collect(),
    };
    let apis = m
        .apis
        .into_iter()
        .map(|api| RuntimeApi {
            name: api.name,
            methods: api
                .methods
                .into_iter()
                .map(|method| RuntimeApiMethod {
                    name: method.name,
                    inputs: params(method.inputs),
                    output: method.output.id,
                    docs: method.docs,
                    deprecation: item_deprecation(method.deprecation_info),
                })
                .collect(),
            docs: api.docs,
            version: Some(api.version.0),
            deprecation: item_deprecation(api.deprecation_info),
        })
        .collect();
    finish(Metadata {
        version: 16,
        runtime_version: None,
        pallets,
        extrinsic,
        types: Some(types),
        runtime_type: None,
        apis,
        outer_enums: Some(outer_enums(&m.outer_enums)),
        custom: custom(m.custom),
    })
}

/// Every type id the model holds must resolve in the registry, so that the
/// layers above can look ids up without checking each time.
fn finish(metadata: Metadata) -> Result<Metadata, Error> {
    registry_check::check_model_ids(&metadata)?;
    Ok(metadata)
}

/// The pallet fields V14 and V15 share (V15 re-exports V14's item types).
struct V14Parts {
    name: String,
    index: u8,
    storage: Option<v14::PalletStorageMetadata<PortableForm>>,
    calls: Option<v14::PalletCallMetadata<PortableForm>>,
    event: Option<v14::PalletEventMetadata<PortableForm>>,
    error: Option<v14::PalletErrorMetadata<PortableForm>>,
    constants: Vec<v14::PalletConstantMetadata<PortableForm>>,
}

impl V14Parts {
    fn into_pallet(self, types: &PortableRegistry, docs: Vec<String>) -> Result<Pallet, Error> {
        let not_deprecated = |_: u8| Deprecation::NotDeprecated;
        let enum_of = |ty: Option<u32>, kind| {
            pallet_enum(types, &self.name, kind, self.index, ty, not_deprecated)
        };
        let call_enum = enum_of(self.calls.map(|c| c.ty.id), "calls")?;
        let event_enum = enum_of(self.event.map(|e| e.ty.id), "events")?;
        let error_enum = enum_of(self.error.map(|e| e.ty.id), "errors")?;
        let storage = match self.storage {
            Some(s) => Some(Storage {
                prefix: s.prefix,
                entries: s
                    .entries
                    .into_iter()
                    .map(|e| {
                        storage_entry(
                            types,
                            &self.name,
                            EntryParts {
                                name: e.name,
                                modifier: &e.modifier,
                                ty: e.ty,
                                default: e.default,
                                docs: e.docs,
                                deprecation: Deprecation::NotDeprecated,
                            },
                        )
                    })
                    .collect::<Result<_, _>>()?,
            }),
            None => None,
        };
        Ok(Pallet {
            index: self.index,
            name: self.name,
            call_enum,
            event_enum,
            error_enum,
            constants: self
                .constants
                .into_iter()
                .map(|c| Constant {
                    name: c.name,
                    ty: TypeRef::Id(c.ty.id),
                    value: c.value,
                    docs: c.docs,
                    deprecation: Deprecation::NotDeprecated,
                })
                .collect(),
            storage,
            docs,
            view_functions: Vec::new(),
            associated_types: Vec::new(),
            deprecation: Deprecation::NotDeprecated,
        })
    }
}

fn pallet_v16(
    types: &PortableRegistry,
    p: v16::PalletMetadata<PortableForm>,
) -> Result<Pallet, Error> {
    let enum_of = |item: Option<(u32, &v16::EnumDeprecationInfo<PortableForm>)>, kind| {
        let (ty, info) = item.unzip();
        pallet_enum(types, &p.name, kind, p.index, ty, |index| {
            info.map_or(Deprecation::NotDeprecated, |info| {
                variant_deprecation(info, index)
            })
        })
    };
    let call_enum = enum_of(
        p.calls.as_ref().map(|c| (c.ty.id, &c.deprecation_info)),
        "calls",
    )?;
    let event_enum = enum_of(
        p.event.as_ref().map(|e| (e.ty.id, &e.deprecation_info)),
        "events",
    )?;
    let error_enum = enum_of(
        p.error.as_ref().map(|e| (e.ty.id, &e.deprecation_info)),
        "errors",
    )?;
    let storage = match p.storage {
        Some(s) => Some(Storage {
            prefix: s.prefix,
            entries: s
                .entries
                .into_iter()
                .map(|e| {
                    storage_entry(
                        types,
                        &p.name,
                        EntryParts {
                            name: e.name,
                            modifier: &e.modifier,
                            ty: e.ty,
                            default: e.default,
                            docs: e.docs,
                            deprecation: item_deprecation(e.deprecation_info),
                        },
                    )
                })
                .collect::<Result<_, _>>()?,
        }),
        None => None,
    };
    Ok(Pallet {
        index: p.index,
        name: p.name,
        call_enum,
        event_enum,
        error_enum,
        constants: p
            .constants
            .into_iter()
            .map(|c| Constant {
                name: c.name,
                ty: TypeRef::Id(c.ty.id),
                value: c.value,
                docs: c.docs,
                deprecation: item_deprecation(c.deprecation_info),
            })
            .collect(),
        storage,
        docs: p.docs,
        view_functions: p
            .view_functions
            .into_iter()
            .map(|f| ViewFunction {
                id: f.id,
                name: f.name,
                inputs: params(f.inputs),
                output: f.output.id,
                docs: f.docs,
                deprecation: item_deprecation(f.deprecation_info),
            })
            .collect(),
        associated_types: p
            .associated_types
            .into_iter()
            .map(|a| AssociatedType {
                name: a.name,
                ty: a.ty.id,
                docs: a.docs,
            })
            .collect(),
        deprecation: item_deprecation(p.deprecation_info),
    })
}

/// A pallet's calls/events/errors: the variants of enum type `ty`.
fn pallet_enum(
    types: &PortableRegistry,
    pallet: &str,
    kind: &str,
    pallet_index: u8,
    ty: Option<u32>,
    deprecation: impl Fn(u8) -> Deprecation,
) -> Result<Option<PalletEnum>, Error> {
    let Some(ty) = ty else { return Ok(None) };
    let resolved = types.resolve(ty).ok_or_else(|| {
        Error::MetadataContent(format!(
            "pallet {pallet}: {kind} type {ty} is not in the registry"
        ))
    })?;
    let TypeDef::Variant(def) = &resolved.type_def else {
        return Err(Error::MetadataContent(format!(
            "pallet {pallet}: {kind} type {ty} is not an enum"
        )));
    };
    let variants = def
        .variants
        .iter()
        .map(|v| Variant {
            name: v.name.clone(),
            index: v.index,
            fields: v
                .fields
                .iter()
                .map(|f| Field {
                    name: f.name.clone(),
                    ty: TypeRef::Id(f.ty.id),
                    type_name: f.type_name.clone(),
                })
                .collect(),
            docs: v.docs.clone(),
            deprecation: deprecation(v.index),
        })
        .collect();
    Ok(Some(PalletEnum {
        pallet_index,
        type_id: Some(ty),
        variants,
    }))
}

/// What V14–V16 storage entries have in common.
struct EntryParts<'a> {
    name: String,
    modifier: &'a v14::StorageEntryModifier,
    ty: v14::StorageEntryType<PortableForm>,
    default: Vec<u8>,
    docs: Vec<String>,
    deprecation: Deprecation,
}

/// A storage entry; a map's key tuple is split into one key per hasher.
fn storage_entry(
    types: &PortableRegistry,
    pallet: &str,
    e: EntryParts<'_>,
) -> Result<StorageEntry, Error> {
    let (hashers, key, keys, value) = match e.ty {
        v14::StorageEntryType::Plain(value) => (Vec::new(), None, Vec::new(), value.id),
        v14::StorageEntryType::Map {
            hashers,
            key,
            value,
        } => {
            let hashers: Vec<StorageHasher> = hashers.iter().map(FrameHasher::to_ours).collect();
            let keys = split_key(types, key.id, hashers.len()).ok_or_else(|| {
                Error::MetadataContent(format!(
                    "storage {pallet}.{}: {} hashers but key type {} is not a tuple of that many",
                    e.name,
                    hashers.len(),
                    key.id
                ))
            })?;
            (hashers, Some(TypeRef::Id(key.id)), keys, value.id)
        }
    };
    Ok(StorageEntry {
        modifier: modifier(e.modifier),
        name: e.name,
        hashers,
        key,
        keys,
        value: TypeRef::Id(value),
        default: e.default,
        docs: e.docs,
        linked: false,
        deprecation: e.deprecation,
    })
}

/// One key type per hasher: the key itself for one hasher, the tuple's
/// fields for several. `None` when the registry disagrees.
fn split_key(types: &PortableRegistry, key: u32, hashers: usize) -> Option<Vec<TypeRef>> {
    if hashers == 1 {
        return Some(vec![TypeRef::Id(key)]);
    }
    match &types.resolve(key)?.type_def {
        TypeDef::Tuple(tuple) if tuple.fields.len() == hashers => {
            Some(tuple.fields.iter().map(|f| TypeRef::Id(f.id)).collect())
        }
        _ => None,
    }
}

/// V14's extrinsic: address/call/signature/extra are the generic parameters
/// of the `UncheckedExtrinsic<Address, Call, Signature, Extra>` type.
fn extrinsic_v14(types: &PortableRegistry, e: v14::ExtrinsicMetadata<PortableForm>) -> Extrinsic {
    let param = |name: &str| {
        types
            .resolve(e.ty.id)?
            .type_params
            .iter()
            .find(|p| p.name == name)?
            .ty
            .map(|t| t.id)
    };
    Extrinsic {
        versions: vec![e.version],
        type_id: Some(e.ty.id),
        address_type: param("Address"),
        call_type: param("Call"),
        signature_type: param("Signature"),
        extra_type: param("Extra"),
        signed_extensions: e
            .signed_extensions
            .into_iter()
            .map(|s| SignedExtension {
                identifier: s.identifier,
                ty: Some(s.ty.id),
                additional_signed: Some(s.additional_signed.id),
            })
            .collect(),
        extensions_by_version: Default::default(),
    }
}

fn params(inputs: Vec<v15::RuntimeApiMethodParamMetadata<PortableForm>>) -> Vec<Param> {
    inputs
        .into_iter()
        .map(|p| Param {
            name: p.name,
            ty: p.ty.id,
        })
        .collect()
}

fn outer_enums(e: &v15::OuterEnums<PortableForm>) -> OuterEnums {
    OuterEnums {
        call: e.call_enum_ty.id,
        event: e.event_enum_ty.id,
        error: e.error_enum_ty.id,
    }
}

fn custom(c: v15::CustomMetadata<PortableForm>) -> std::collections::BTreeMap<String, CustomValue> {
    c.map
        .into_iter()
        .map(|(name, v)| {
            (
                name,
                CustomValue {
                    ty: v.ty.id,
                    value: v.value,
                },
            )
        })
        .collect()
}

fn item_deprecation(info: v16::ItemDeprecationInfo<PortableForm>) -> Deprecation {
    match info {
        v16::ItemDeprecationInfo::NotDeprecated => Deprecation::NotDeprecated,
        v16::ItemDeprecationInfo::DeprecatedWithoutNote => Deprecation::DeprecatedWithoutNote,
        v16::ItemDeprecationInfo::Deprecated { note, since } => {
            Deprecation::Deprecated { note, since }
        }
    }
}

fn variant_deprecation(info: &v16::EnumDeprecationInfo<PortableForm>, index: u8) -> Deprecation {
    match info.0.get(&index) {
        None => Deprecation::NotDeprecated,
        Some(v16::VariantDeprecationInfo::DeprecatedWithoutNote) => {
            Deprecation::DeprecatedWithoutNote
        }
        Some(v16::VariantDeprecationInfo::Deprecated { note, since }) => Deprecation::Deprecated {
            note: note.clone(),
            since: since.clone(),
        },
    }
}
