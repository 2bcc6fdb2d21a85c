//! What code generation reads from a metadata blob: the portable type registry
//! and the few chain-level facts (outer enums, the extrinsic's parts, pallets).
//!
//! Works straight from `frame-metadata` so that every version with a type
//! registry (V14, V15, V16) feeds the same generator.

use frame_metadata::{RuntimeMetadata, RuntimeMetadataPrefixed};
use parity_scale_codec::Decode;
use scale_info::PortableRegistry;

use crate::CodegenError;

/// The extrinsic's generic parts, as type ids of the registry.
#[derive(Debug, Clone)]
pub struct ExtrinsicParts {
    /// `Address` (usually `MultiAddress<AccountId32, ()>`).
    pub address: u32,
    /// `RuntimeCall`.
    pub call: u32,
    /// `Signature` (usually `MultiSignature`).
    pub signature: u32,
    /// Types of the signed extensions' extra data, in order (they form the `Extra` tuple).
    pub extra: Vec<u32>,
}

/// One storage entry of a pallet.
#[derive(Debug, Clone)]
pub struct StorageInfo {
    /// Entry name, e.g. `Account`.
    pub name: String,
    /// Key type id (a tuple when there are several hashers), `None` for a plain value.
    pub key: Option<u32>,
    /// The hashers, one per key element.
    pub hashers: Vec<frame_metadata::v14::StorageHasher>,
    /// Value type id.
    pub value: u32,
    /// The default value bytes.
    pub default: Vec<u8>,
    /// `OptionQuery`: the default is an encoded `None` of `Option<value>`.
    pub optional: bool,
}

/// One pallet, reduced to what typed access needs.
#[derive(Debug, Clone)]
pub struct PalletInfo {
    /// Pallet name, e.g. `Balances`.
    pub name: String,
    /// Pallet index in `RuntimeCall`/`RuntimeEvent`.
    pub index: u8,
    /// Storage prefix (usually the pallet name).
    pub storage_prefix: String,
    /// Storage entries.
    pub storage: Vec<StorageInfo>,
    /// Constants: name, type id and value bytes.
    pub constants: Vec<(String, u32, Vec<u8>)>,
    /// The pallet's `Call` enum type id.
    pub calls: Option<u32>,
    /// The pallet's `Event` enum type id.
    pub event: Option<u32>,
    /// The pallet's `Error` enum type id.
    pub error: Option<u32>,
}

/// Everything the generator reads from one metadata blob.
#[derive(Debug, Clone)]
pub struct ChainInput {
    /// Metadata version (14, 15 or 16; 0 for a bare type registry).
    pub version: u32,
    /// The portable type registry.
    pub types: PortableRegistry,
    /// Pallets in metadata order.
    pub pallets: Vec<PalletInfo>,
    /// The extrinsic's generic parts (`None` for a bare type registry).
    pub extrinsic: Option<ExtrinsicParts>,
    /// `RuntimeEvent`, when the metadata names it (V15+) or a pallet event enum points to it.
    pub runtime_event: Option<u32>,
    /// `RuntimeError` (V15+).
    pub runtime_error: Option<u32>,
}

/// Decodes a `RuntimeMetadataPrefixed` blob into the generator's input.
pub fn load(bytes: &[u8]) -> Result<ChainInput, CodegenError> {
    let prefixed = RuntimeMetadataPrefixed::decode(&mut &bytes[..])
        .map_err(|e| CodegenError::Decode(e.to_string()))?;
    if prefixed.0 != frame_metadata::META_RESERVED {
        return Err(CodegenError::Decode(format!(
            "magic number is {:#010x}, expected {:#010x} (\"meta\")",
            prefixed.0,
            frame_metadata::META_RESERVED
        )));
    }
    let version = prefixed.1.version();
    match prefixed.1 {
        RuntimeMetadata::V14(m) => from_v14(m),
        RuntimeMetadata::V15(m) => from_v15(m),
        RuntimeMetadata::V16(m) => from_v16(m),
        _ if version < 14 => Err(CodegenError::PreV14(version)),
        _ => Err(CodegenError::UnsupportedVersion(version)),
    }
}

/// A bare `PortableRegistry` in scale-info's JSON form (what runtime-API
/// tooling such as bt-decode ships): types only, no pallets or extrinsic.
pub fn from_registry_json(text: &str) -> Result<ChainInput, CodegenError> {
    let types: PortableRegistry = serde_json::from_str(text)
        .map_err(|e| CodegenError::Decode(format!("type registry JSON: {e}")))?;
    Ok(ChainInput {
        version: 0,
        types,
        pallets: Vec::new(),
        extrinsic: None,
        runtime_event: None,
        runtime_error: None,
    })
}

fn from_v14(m: frame_metadata::v14::RuntimeMetadataV14) -> Result<ChainInput, CodegenError> {
    // V14 names the extrinsic's parts only as the type parameters of
    // `UncheckedExtrinsic<Address, Call, Signature, Extra>`.
    let ext_ty = m
        .types
        .resolve(m.extrinsic.ty.id)
        .ok_or_else(|| dangling("extrinsic type", m.extrinsic.ty.id))?;
    let param = |name: &str| -> Result<u32, CodegenError> {
        ext_ty
            .type_params
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.ty)
            .map(|t| t.id)
            .ok_or_else(|| {
                CodegenError::Registry(format!(
                    "the extrinsic type {} has no `{name}` type parameter",
                    m.extrinsic.ty.id
                ))
            })
    };
    let extrinsic = ExtrinsicParts {
        address: param("Address")?,
        call: param("Call")?,
        signature: param("Signature")?,
        extra: m
            .extrinsic
            .signed_extensions
            .iter()
            .map(|e| e.ty.id)
            .collect(),
    };
    let pallets = m
        .pallets
        .iter()
        .map(|p| PalletInfo {
            name: p.name.clone(),
            index: p.index,
            storage_prefix: p
                .storage
                .as_ref()
                .map(|s| s.prefix.clone())
                .unwrap_or_default(),
            storage: p
                .storage
                .iter()
                .flat_map(|s| &s.entries)
                .map(|e| storage_v14(&e.name, &e.modifier, &e.ty, &e.default))
                .collect(),
            constants: p
                .constants
                .iter()
                .map(|c| (c.name.clone(), c.ty.id, c.value.clone()))
                .collect(),
            calls: p.calls.as_ref().map(|c| c.ty.id),
            event: p.event.as_ref().map(|c| c.ty.id),
            error: p.error.as_ref().map(|c| c.ty.id),
        })
        .collect();
    Ok(ChainInput {
        version: 14,
        types: m.types,
        pallets,
        extrinsic: Some(extrinsic),
        runtime_event: None,
        runtime_error: None,
    })
}

fn storage_v14(
    name: &str,
    modifier: &frame_metadata::v14::StorageEntryModifier,
    ty: &frame_metadata::v14::StorageEntryType<scale_info::form::PortableForm>,
    default: &[u8],
) -> StorageInfo {
    use frame_metadata::v14::StorageEntryType;
    let (key, hashers, value) = match ty {
        StorageEntryType::Plain(v) => (None, Vec::new(), v.id),
        StorageEntryType::Map {
            hashers,
            key,
            value,
        } => (Some(key.id), hashers.clone(), value.id),
    };
    StorageInfo {
        name: name.to_owned(),
        key,
        hashers,
        value,
        default: default.to_vec(),
        optional: matches!(
            modifier,
            frame_metadata::v14::StorageEntryModifier::Optional
        ),
    }
}

fn from_v15(m: frame_metadata::v15::RuntimeMetadataV15) -> Result<ChainInput, CodegenError> {
    let pallets = m
        .pallets
        .iter()
        .map(|p| PalletInfo {
            name: p.name.clone(),
            index: p.index,
            storage_prefix: p
                .storage
                .as_ref()
                .map(|s| s.prefix.clone())
                .unwrap_or_default(),
            storage: p
                .storage
                .iter()
                .flat_map(|s| &s.entries)
                .map(|e| storage_v14(&e.name, &e.modifier, &e.ty, &e.default))
                .collect(),
            constants: p
                .constants
                .iter()
                .map(|c| (c.name.clone(), c.ty.id, c.value.clone()))
                .collect(),
            calls: p.calls.as_ref().map(|c| c.ty.id),
            event: p.event.as_ref().map(|c| c.ty.id),
            error: p.error.as_ref().map(|c| c.ty.id),
        })
        .collect();
    Ok(ChainInput {
        version: 15,
        types: m.types,
        pallets,
        extrinsic: Some(ExtrinsicParts {
            address: m.extrinsic.address_ty.id,
            call: m.extrinsic.call_ty.id,
            signature: m.extrinsic.signature_ty.id,
            extra: m
                .extrinsic
                .signed_extensions
                .iter()
                .map(|e| e.ty.id)
                .collect(),
        }),
        runtime_event: Some(m.outer_enums.event_enum_ty.id),
        runtime_error: Some(m.outer_enums.error_enum_ty.id),
    })
}

fn from_v16(m: frame_metadata::v16::RuntimeMetadataV16) -> Result<ChainInput, CodegenError> {
    // V16 lists transaction extensions per extrinsic version; the signed
    // (version 4) extrinsic carries those of extension version 0.
    let extra = match m.extrinsic.transaction_extensions_by_version.get(&0) {
        Some(indices) => indices
            .iter()
            .map(|i| {
                m.extrinsic
                    .transaction_extensions
                    .get(i.0 as usize)
                    .map(|e| e.ty.id)
                    .ok_or_else(|| {
                        CodegenError::Registry(format!(
                            "transaction extension index {} is out of range",
                            i.0
                        ))
                    })
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => m
            .extrinsic
            .transaction_extensions
            .iter()
            .map(|e| e.ty.id)
            .collect(),
    };
    let pallets = m
        .pallets
        .iter()
        .map(|p| PalletInfo {
            name: p.name.clone(),
            index: p.index,
            storage_prefix: p
                .storage
                .as_ref()
                .map(|s| s.prefix.clone())
                .unwrap_or_default(),
            storage: p
                .storage
                .iter()
                .flat_map(|s| &s.entries)
                .map(|e| storage_v14(&e.name, &e.modifier, &e.ty, &e.default))
                .collect(),
            constants: p
                .constants
                .iter()
                .map(|c| (c.name.clone(), c.ty.id, c.value.clone()))
                .collect(),
            calls: p.calls.as_ref().map(|c| c.ty.id),
            event: p.event.as_ref().map(|c| c.ty.id),
            error: p.error.as_ref().map(|c| c.ty.id),
        })
        .collect();
    Ok(ChainInput {
        version: 16,
        types: m.types,
        pallets,
        extrinsic: Some(ExtrinsicParts {
            address: m.extrinsic.address_ty.id,
            call: m.extrinsic.call_ty.id,
            signature: m.extrinsic.signature_ty.id,
            extra,
        }),
        runtime_event: Some(m.outer_enums.event_enum_ty.id),
        runtime_error: Some(m.outer_enums.error_enum_ty.id),
    })
}

fn dangling(what: &str, id: u32) -> CodegenError {
    CodegenError::Registry(format!(
        "{what} refers to type id {id}, which is not in the registry"
    ))
}
