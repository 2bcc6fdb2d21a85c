//! V9–V13 ("legacy") metadata into the model.
//!
//! The five versions are one format with small additions: V11 adds the
//! extrinsic description and the `Identity` hasher, V12 declared pallet
//! indexes, V13 N-maps. `frame-metadata` gives each version its own Rust
//! types, so the conversion is written once as a macro body and instantiated
//! per version with the few things that differ; everything that does not
//! depend on the concrete types (strings, hashers, indexes) lives in plain
//! generic helpers below.

use frame_metadata::decode_different::DecodeDifferent;
use parity_scale_codec::Encode;

use super::model::{
    Constant, Deprecation, Extrinsic, Field, Metadata, Pallet, PalletEnum, SignedExtension,
    Storage, StorageEntry, StorageHasher, StorageModifier, TypeRef, Variant,
};
use crate::error::Error;
use crate::hasher::FrameHasher;

/// The decoded side of a `DecodeDifferent`. Decoding only ever produces
/// `Decoded`; the `Encode` side (static data of a running runtime) reads as
/// empty rather than panicking.
fn owned<B, O: Default>(value: DecodeDifferent<B, O>) -> O {
    decoded(value).unwrap_or_default()
}

/// Like [`owned`] for values without a default.
fn decoded<B, O>(value: DecodeDifferent<B, O>) -> Option<O> {
    match value {
        DecodeDifferent::Decoded(o) => Some(o),
        DecodeDifferent::Encode(_) => None,
    }
}

/// A legacy type string.
fn type_ref<B>(name: DecodeDifferent<B, String>) -> TypeRef {
    TypeRef::Name(owned(name))
}

/// Several key types as one tuple string, the way legacy double/N-maps are
/// keyed as a whole: `"(A, B)"`; a single key stays itself.
fn key_tuple(keys: &[TypeRef]) -> TypeRef {
    match keys {
        [one] => one.clone(),
        _ => TypeRef::Name(format!(
            "({})",
            keys.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Every version's `StorageEntryModifier` is `Optional` (SCALE index 0) then
/// `Default` (1), so the encoded index identifies it across versions.
pub(super) fn modifier<M: Encode>(modifier: &M) -> StorageModifier {
    match modifier.encode().first() {
        Some(0) => StorageModifier::Optional,
        _ => StorageModifier::Default,
    }
}

/// A list position as an index byte; more than 256 entries cannot be addressed.
fn index_byte(position: usize, what: impl FnOnce() -> String) -> Result<u8, Error> {
    u8::try_from(position)
        .map_err(|_| Error::MetadataContent(format!("{}: more than 256 entries", what())))
}

/// Legacy calls, events and errors are lists; a variant's index is its position.
fn variants<T>(
    items: Vec<T>,
    pallet: &str,
    kind: &str,
    convert: impl Fn(T) -> (String, Vec<Field>, Vec<String>),
) -> Result<Vec<Variant>, Error> {
    items
        .into_iter()
        .enumerate()
        .map(|(position, item)| {
            let (name, fields, docs) = convert(item);
            Ok(Variant {
                name,
                index: index_byte(position, || format!("{kind} of module {pallet}"))?,
                fields,
                docs,
                deprecation: Deprecation::NotDeprecated,
            })
        })
        .collect()
}

/// V11–V13 extrinsic description: a version and signed-extension names.
fn extrinsic<B>(version: u8, identifiers: &[DecodeDifferent<B, String>]) -> Extrinsic {
    Extrinsic {
        versions: vec![version],
        signed_extensions: identifiers
            .iter()
            .map(|id| SignedExtension {
                identifier: match id {
                    DecodeDifferent::Decoded(s) => s.clone(),
                    DecodeDifferent::Encode(_) => String::new(),
                },
                ty: None,
                additional_signed: None,
            })
            .collect(),
        ..Extrinsic::default()
    }
}

/// The key side of a legacy storage entry, whichever entry kind it came from.
struct KeyShape {
    hashers: Vec<StorageHasher>,
    keys: Vec<TypeRef>,
    value: TypeRef,
    linked: bool,
}

impl KeyShape {
    fn plain(value: TypeRef) -> KeyShape {
        KeyShape {
            hashers: Vec::new(),
            keys: Vec::new(),
            value,
            linked: false,
        }
    }

    fn into_entry(
        self,
        name: String,
        modifier: StorageModifier,
        default: Vec<u8>,
        docs: Vec<String>,
    ) -> StorageEntry {
        StorageEntry {
            name,
            modifier,
            key: (!self.keys.is_empty()).then(|| key_tuple(&self.keys)),
            hashers: self.hashers,
            keys: self.keys,
            value: self.value,
            default,
            docs,
            linked: self.linked,
            deprecation: Deprecation::NotDeprecated,
        }
    }
}

/// Which byte introduces a pallet's calls and events in V9–V11, where only
/// modules that have calls (events) are counted.
#[derive(Default)]
struct PositionalCounters {
    calls: usize,
    events: usize,
}

/// Instantiates the legacy conversion for one `frame_metadata::vN` module.
///
/// - `version`: the metadata version number.
/// - `declared_index`: reads the module's declared index (V12+), or `None`.
/// - `extrinsic`: builds the [`Extrinsic`] from the whole metadata.
/// - `linked`: the name of the `Map` variant's bool field (`is_linked` in
///   V9/V10, `unused` later, where it is always false).
/// - `nmap`: the `NMap` storage variant, for versions that have one.
macro_rules! legacy_converter {
    (
        $(#[$doc:meta])*
        fn $name:ident($v:ident::$Meta:ident);
        version: $version:literal;
        declared_index: |$m:ident| $declared:expr;
        extrinsic: |$md:ident| $extrinsic:expr;
        linked: $linked:ident;
        $(nmap: $NMap:ident;)?
    ) => {
        $(#[$doc])*
        pub(super) fn $name(metadata: frame_metadata::$v::$Meta) -> Result<Metadata, Error> {
            use frame_metadata::$v::StorageEntryType as Ty;
            let extrinsic = {
                let $md = &metadata;
                $extrinsic
            };
            let modules = owned(metadata.modules);
            let mut counters = PositionalCounters::default();
            let mut pallets = Vec::with_capacity(modules.len());
            for (position, module) in modules.into_iter().enumerate() {
                let declared: Option<u8> = {
                    let $m = &module;
                    $declared
                };
                let name = owned(module.name);
                let index = match declared {
                    Some(index) => index,
                    None => index_byte(position, || "modules".into())?,
                };
                // Calls and events count only modules that have them until
                // pallets declare their index (V12).
                let enum_index = |counter: &mut usize| -> Result<u8, Error> {
                    let byte = match declared {
                        Some(index) => index,
                        None => index_byte(*counter, || "modules with calls/events".into())?,
                    };
                    *counter += 1;
                    Ok(byte)
                };
                let call_enum = match module.calls.map(owned) {
                    Some(calls) => Some(PalletEnum {
                        pallet_index: enum_index(&mut counters.calls)?,
                        type_id: None,
                        variants: variants(calls, &name, "calls", |call| {
                            let fields = owned(call.arguments)
                                .into_iter()
                                .map(|arg| Field {
                                    name: Some(owned(arg.name)),
                                    ty: type_ref(arg.ty),
                                    type_name: None,
                                })
                                .collect();
                            (owned(call.name), fields, owned(call.documentation))
                        })?,
                    }),
                    None => None,
                };
                let event_enum = match module.event.map(owned) {
                    Some(events) => Some(PalletEnum {
                        pallet_index: enum_index(&mut counters.events)?,
                        type_id: None,
                        variants: variants(events, &name, "events", |event| {
                            let fields = owned(event.arguments)
                                .into_iter()
                                .map(|ty| Field {
                                    name: None,
                                    ty: TypeRef::Name(ty),
                                    type_name: None,
                                })
                                .collect();
                            (owned(event.name), fields, owned(event.documentation))
                        })?,
                    }),
                    None => None,
                };
                // Errors are keyed by the module's position; a module without
                // any has none (as V14+ says with `error: None`).
                let errors = owned(module.errors);
                let error_enum = if errors.is_empty() {
                    None
                } else {
                    Some(PalletEnum {
                        pallet_index: index,
                        type_id: None,
                        variants: variants(errors, &name, "errors", |error| {
                            (owned(error.name), Vec::new(), owned(error.documentation))
                        })?,
                    })
                };
                let constants = owned(module.constants)
                    .into_iter()
                    .map(|c| Constant {
                        name: owned(c.name),
                        ty: type_ref(c.ty),
                        value: owned(c.value),
                        docs: owned(c.documentation),
                        deprecation: Deprecation::NotDeprecated,
                    })
                    .collect();
                let storage = module.storage.and_then(decoded).map(|storage| Storage {
                    prefix: owned(storage.prefix),
                    entries: owned(storage.entries)
                        .into_iter()
                        .map(|entry| {
                            let shape = match entry.ty {
                                Ty::Plain(value) => KeyShape::plain(type_ref(value)),
                                Ty::Map { hasher, key, value, $linked: linked } => KeyShape {
                                    hashers: vec![hasher.to_ours()],
                                    keys: vec![type_ref(key)],
                                    value: type_ref(value),
                                    linked,
                                },
                                Ty::DoubleMap { hasher, key1, key2, value, key2_hasher } => {
                                    KeyShape {
                                        hashers: vec![
                                            hasher.to_ours(),
                                            key2_hasher.to_ours(),
                                        ],
                                        keys: vec![type_ref(key1), type_ref(key2)],
                                        value: type_ref(value),
                                        linked: false,
                                    }
                                }
                                $(Ty::$NMap { keys, hashers, value } => KeyShape {
                                    hashers: owned(hashers).iter().map(FrameHasher::to_ours).collect(),
                                    keys: owned(keys).into_iter().map(TypeRef::Name).collect(),
                                    value: type_ref(value),
                                    linked: false,
                                },)?
                            };
                            shape.into_entry(
                                owned(entry.name),
                                modifier(&entry.modifier),
                                owned(entry.default),
                                owned(entry.documentation),
                            )
                        })
                        .collect(),
                });
                pallets.push(Pallet {
                    index,
                    name,
                    call_enum,
                    event_enum,
                    error_enum,
                    constants,
                    storage,
                    docs: Vec::new(),
                    view_functions: Vec::new(),
                    associated_types: Vec::new(),
                    deprecation: Deprecation::NotDeprecated,
                });
            }
            Ok(Metadata {
                version: $version,
                runtime_version: None,
                pallets,
                extrinsic,
                types: None,
                runtime_type: None,
                apis: Vec::new(),
                outer_enums: None,
                custom: Default::default(),
            })
        }
    };
}

legacy_converter! {
    /// V9: modules without declared indexes, no extrinsic description.
    fn from_v9(v9::RuntimeMetadataV9);
    version: 9;
    declared_index: |_m| None;
    extrinsic: |_md| Extrinsic::default();
    linked: is_linked;
}

legacy_converter! {
    /// V10: as V9 (adds only hasher variants in storage).
    fn from_v10(v10::RuntimeMetadataV10);
    version: 10;
    declared_index: |_m| None;
    extrinsic: |_md| Extrinsic::default();
    linked: is_linked;
}

legacy_converter! {
    /// V11: adds the extrinsic description.
    fn from_v11(v11::RuntimeMetadataV11);
    version: 11;
    declared_index: |_m| None;
    extrinsic: |md| extrinsic(md.extrinsic.version, &md.extrinsic.signed_extensions);
    linked: unused;
}

legacy_converter! {
    /// V12: adds declared pallet indexes.
    fn from_v12(v12::RuntimeMetadataV12);
    version: 12;
    declared_index: |m| Some(m.index);
    extrinsic: |md| extrinsic(md.extrinsic.version, &md.extrinsic.signed_extensions);
    linked: unused;
}

legacy_converter! {
    /// V13: adds N-maps.
    fn from_v13(v13::RuntimeMetadataV13);
    version: 13;
    declared_index: |m| Some(m.index);
    extrinsic: |md| extrinsic(md.extrinsic.version, &md.extrinsic.signed_extensions);
    linked: unused;
    nmap: NMap;
}
