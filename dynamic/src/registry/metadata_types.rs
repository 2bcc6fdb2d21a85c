//! `MetadataVersioned`: runtime metadata V9–V16 as a value, in the shape
//! py-scale-codec 1.2.12 gives it — `("0x6d657461", {"V14": {…}})`, the
//! magic number as hex and the version-named metadata struct — with V15 and
//! V16 in the same style.
//!
//! py-scale-codec decodes metadata through the type definitions of its
//! `core` preset (`MetadataV9` … `MetadataV14` and their parts); so do we,
//! with [`NEWER_METADATA_TYPES`] (our definitions of V15 and V16, shaped like
//! the V14 ones) on top. Those definitions live in a private graph built
//! once per process ([`MetadataTypes`], `crate::metadata_types`), so a metadata value is the same
//! whatever presets the caller's registry holds, and every registry's
//! `MetadataVersioned` node decodes through it.
//!
//! The `core` preset is read from [`crate::preset::presets_dir`] the first
//! time it is needed; an embedder whose presets live elsewhere (the Python
//! module ships them in its package) hands it over with
//! [`install_core_preset`] first.

use crate::error::Error;
use crate::graph::Name;
use crate::metadata_types::{self, MetadataTypes};
use crate::preset::Preset;

use super::Registry;

/// The metadata versions decoded (the version byte after the magic).
pub const METADATA_VERSIONS: std::ops::RangeInclusive<u8> = 9..=16;

/// Definitions (py-scale-codec's preset `types` format) of the metadata
/// versions newer than py-scale-codec 1.2.12's `core` preset knows, shaped
/// like its V14 ones: same field names where the field is the same
/// (`documentation` for entry docs, `type` for type ids, `SiLookupTypeId`
/// for ids), frame-metadata's names for what is new. `MetadataAll` (the
/// version enum, not read by the decoder) gains `V15` and `V16`, and the new
/// pallet, storage and constant structs name py-scale-codec's classes as
/// `base_class`, so that the Python module types their parts as it does V14's.
pub const NEWER_METADATA_TYPES: &str = r#"{
  "MetadataAll": {"type": "enum", "base_class": "GenericMetadataAll", "type_mapping": [
    ["V0", "TypeNotSupported<MetadataV0>"], ["V1", "TypeNotSupported<MetadataV1>"], ["V2", "TypeNotSupported<MetadataV2>"], ["V3", "TypeNotSupported<MetadataV3>"], ["V4", "TypeNotSupported<MetadataV4>"], ["V5", "TypeNotSupported<MetadataV5>"], ["V6", "TypeNotSupported<MetadataV6>"], ["V7", "TypeNotSupported<MetadataV7>"],
    ["V8", "TypeNotSupported<MetadataV8>"], ["V9", "MetadataV9"], ["V10", "MetadataV10"], ["V11", "MetadataV11"], ["V12", "MetadataV12"], ["V13", "MetadataV13"], ["V14", "MetadataV14"], ["V15", "MetadataV15"], ["V16", "MetadataV16"]]},
  "MetadataV15": {"type": "struct", "type_mapping": [
    ["types", "PortableRegistry"], ["pallets", "Vec<PalletMetadataV15>"],
    ["extrinsic", "ExtrinsicMetadataV15"], ["runtime_type", "SiLookupTypeId"],
    ["apis", "Vec<RuntimeApiMetadataV15>"], ["outer_enums", "OuterEnumsV15"],
    ["custom", "BTreeMap<Text, CustomValueMetadataV15>"]]},
  "PalletMetadataV15": {"type": "struct", "base_class": "ScaleInfoPalletMetadata", "type_mapping": [
    ["name", "Text"], ["storage", "Option<StorageMetadataV14>"], ["calls", "Option<PalletCallMetadataV14>"],
    ["event", "Option<PalletEventMetadataV14>"], ["constants", "Vec<PalletConstantMetadataV15>"],
    ["error", "Option<PalletErrorMetadataV14>"], ["index", "u8"], ["docs", "Vec<Text>"]]},
  "PalletConstantMetadataV15": {"type": "struct", "base_class": "ScaleInfoModuleConstantMetadata", "type_mapping": [
    ["name", "Text"], ["type", "SiLookupTypeId"], ["value", "Bytes"], ["documentation", "Vec<Text>"]]},
  "ExtrinsicMetadataV15": {"type": "struct", "type_mapping": [
    ["version", "u8"], ["address_ty", "SiLookupTypeId"], ["call_ty", "SiLookupTypeId"],
    ["signature_ty", "SiLookupTypeId"], ["extra_ty", "SiLookupTypeId"],
    ["signed_extensions", "Vec<SignedExtensionMetadataV14>"]]},
  "RuntimeApiMetadataV15": {"type": "struct", "type_mapping": [
    ["name", "Text"], ["methods", "Vec<RuntimeApiMethodMetadataV15>"], ["docs", "Vec<Text>"]]},
  "RuntimeApiMethodMetadataV15": {"type": "struct", "type_mapping": [
    ["name", "Text"], ["inputs", "Vec<RuntimeApiMethodParamMetadataV15>"], ["output", "SiLookupTypeId"],
    ["docs", "Vec<Text>"]]},
  "RuntimeApiMethodParamMetadataV15": {"type": "struct", "type_mapping": [
    ["name", "Text"], ["ty", "SiLookupTypeId"]]},
  "OuterEnumsV15": {"type": "struct", "type_mapping": [
    ["call_enum_ty", "SiLookupTypeId"], ["event_enum_ty", "SiLookupTypeId"],
    ["error_enum_ty", "SiLookupTypeId"]]},
  "CustomValueMetadataV15": {"type": "struct", "type_mapping": [
    ["ty", "SiLookupTypeId"], ["value", "Bytes"]]},

  "MetadataV16": {"type": "struct", "type_mapping": [
    ["types", "PortableRegistry"], ["pallets", "Vec<PalletMetadataV16>"],
    ["extrinsic", "ExtrinsicMetadataV16"], ["apis", "Vec<RuntimeApiMetadataV16>"],
    ["outer_enums", "OuterEnumsV15"], ["custom", "BTreeMap<Text, CustomValueMetadataV15>"]]},
  "PalletMetadataV16": {"type": "struct", "base_class": "ScaleInfoPalletMetadata", "type_mapping": [
    ["name", "Text"], ["storage", "Option<StorageMetadataV16>"], ["calls", "Option<PalletEnumMetadataV16>"],
    ["event", "Option<PalletEnumMetadataV16>"], ["constants", "Vec<PalletConstantMetadataV16>"],
    ["error", "Option<PalletEnumMetadataV16>"], ["associated_types", "Vec<PalletAssociatedTypeMetadataV16>"],
    ["view_functions", "Vec<PalletViewFunctionMetadataV16>"], ["index", "u8"], ["docs", "Vec<Text>"],
    ["deprecation_info", "ItemDeprecationInfoV16"]]},
  "StorageMetadataV16": {"type": "struct", "type_mapping": [
    ["prefix", "Text"], ["entries", "Vec<StorageEntryMetadataV16>"]]},
  "StorageEntryMetadataV16": {"type": "struct", "base_class": "ScaleInfoStorageEntryMetadata", "type_mapping": [
    ["name", "Text"], ["modifier", "StorageEntryModifierV13"], ["type", "StorageEntryTypeV14"],
    ["default", "Bytes"], ["documentation", "Vec<Text>"], ["deprecation_info", "ItemDeprecationInfoV16"]]},
  "PalletEnumMetadataV16": {"type": "struct", "base_class": "ScaleInfoCallMetadata", "type_mapping": [
    ["ty", "SiLookupTypeId"], ["deprecation_info", "BTreeMap<u8, VariantDeprecationInfoV16>"]]},
  "PalletConstantMetadataV16": {"type": "struct", "base_class": "ScaleInfoModuleConstantMetadata", "type_mapping": [
    ["name", "Text"], ["type", "SiLookupTypeId"], ["value", "Bytes"], ["documentation", "Vec<Text>"],
    ["deprecation_info", "ItemDeprecationInfoV16"]]},
  "PalletAssociatedTypeMetadataV16": {"type": "struct", "type_mapping": [
    ["name", "Text"], ["type", "SiLookupTypeId"], ["docs", "Vec<Text>"]]},
  "PalletViewFunctionMetadataV16": {"type": "struct", "type_mapping": [
    ["id", "[u8; 32]"], ["name", "Text"], ["inputs", "Vec<RuntimeApiMethodParamMetadataV15>"],
    ["output", "SiLookupTypeId"], ["docs", "Vec<Text>"], ["deprecation_info", "ItemDeprecationInfoV16"]]},
  "DeprecationNoteV16": {"type": "struct", "type_mapping": [["note", "Text"], ["since", "Option<Text>"]]},
  "ItemDeprecationInfoV16": {"type": "enum", "type_mapping": [
    ["NotDeprecated", "Null"], ["DeprecatedWithoutNote", "Null"], ["Deprecated", "DeprecationNoteV16"]]},
  "VariantDeprecationInfoV16": {"type": "enum", "type_mapping": [
    ["Unused", "Null"], ["DeprecatedWithoutNote", "Null"], ["Deprecated", "DeprecationNoteV16"]]},
  "ExtrinsicMetadataV16": {"type": "struct", "type_mapping": [
    ["versions", "Vec<u8>"], ["address_ty", "SiLookupTypeId"], ["call_ty", "SiLookupTypeId"],
    ["signature_ty", "SiLookupTypeId"],
    ["transaction_extensions_by_version", "BTreeMap<u8, Vec<Compact<u32>>>"],
    ["transaction_extensions", "Vec<TransactionExtensionMetadataV16>"]]},
  "TransactionExtensionMetadataV16": {"type": "struct", "type_mapping": [
    ["identifier", "Text"], ["ty", "SiLookupTypeId"], ["implicit", "SiLookupTypeId"]]},
  "RuntimeApiMetadataV16": {"type": "struct", "type_mapping": [
    ["name", "Text"], ["methods", "Vec<RuntimeApiMethodMetadataV16>"], ["docs", "Vec<Text>"],
    ["version", "Compact<u32>"], ["deprecation_info", "ItemDeprecationInfoV16"]]},
  "RuntimeApiMethodMetadataV16": {"type": "struct", "type_mapping": [
    ["name", "Text"], ["inputs", "Vec<RuntimeApiMethodParamMetadataV15>"], ["output", "SiLookupTypeId"],
    ["docs", "Vec<Text>"], ["deprecation_info", "ItemDeprecationInfoV16"]]}
}"#;

// Notes on the V16 definitions above, which JSON cannot carry:
// - `VariantDeprecationInfoV16` has no variant 0 on the wire (frame-metadata
//   numbers `DeprecatedWithoutNote` 1 and `Deprecated` 2); `Unused` holds
//   index 0 so that the positions match.
// - `ExtrinsicMetadataV16.versions` is a `Vec<u8>`, which py-scale-codec's
//   language renders as `Bytes` (text or hex), like every `Vec<u8>`.

/// A registry of `core` (py-scale-codec's `core` preset, V9–V14 metadata
/// definitions) plus [`NEWER_METADATA_TYPES`] (V15, V16).
pub fn definitions_registry(core: &Preset) -> Result<Registry, Error> {
    let mut registry = Registry::new();
    registry.update(core);
    registry.update_types_json(NEWER_METADATA_TYPES)?;
    Ok(registry)
}

/// Compiles the `MetadataV<n>` definitions of [`definitions_registry`] into
/// their own graph.
pub fn compile_core_preset(core: &Preset) -> Result<MetadataTypes, Error> {
    let mut registry = definitions_registry(core)?;
    let mut versions = Vec::new();
    for v in METADATA_VERSIONS {
        let idx = registry.resolve_strict(&format!("MetadataV{v}"))?;
        versions.push((v, idx, Name::from(format!("V{v}"))));
    }
    Ok(MetadataTypes::new(registry.graph().clone(), versions))
}

/// Compiles the metadata definitions from `core` (py-scale-codec's `core`
/// preset) for this process, unless they already are: the first
/// installation wins (the definitions are those of the pinned preset,
/// whoever reads it).
pub fn install_core_preset(core: &Preset) -> Result<&'static MetadataTypes, Error> {
    if let Some(t) = metadata_types::get() {
        return Ok(t);
    }
    Ok(metadata_types::install(compile_core_preset(core)?))
}

/// The process's metadata definitions: those installed, else compiled from
/// the `core` preset in [`crate::preset::presets_dir`] (an error naming
/// `cargo xtask presets` when it is not there). What
/// [`Registry::context`] gives its decodes and encodes.
pub fn metadata_types() -> Result<&'static MetadataTypes, Error> {
    match metadata_types::get() {
        Some(t) => Ok(t),
        None => install_core_preset(&Preset::named("core")?),
    }
}
