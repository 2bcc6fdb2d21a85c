//! The one metadata model every version (V9–V16) is converted into.
//!
//! Legacy metadata (V9–V13) names its types with strings in py-scale-codec's
//! type-string language (`"Vec<T::AccountId>"`); V14 and later point into the
//! portable registry by id. [`TypeRef`] carries either, so the rest of the
//! model is the same for every version. Items a version does not have are
//! empty (`Vec`), `None`, or [`Deprecation::NotDeprecated`].

use std::collections::BTreeMap;

use scale_info::PortableRegistry;

/// The project's one storage-hasher enum (from `ferroscale_core::hashing`), so that
/// hashers taken from the model feed the storage-key builder directly.
pub use ferroscale_core::hashing::StorageHasher;

/// A reference to a type: an id into [`Metadata::types`] (V14+) or a legacy
/// type string (V9–V13).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypeRef {
    /// An id into the portable registry (V14 and later).
    Id(u32),
    /// A type string as legacy metadata writes it, e.g. `"Vec<T::AccountId>"`.
    Name(String),
}

impl TypeRef {
    /// The registry id, when this is one.
    pub fn id(&self) -> Option<u32> {
        match self {
            TypeRef::Id(id) => Some(*id),
            TypeRef::Name(_) => None,
        }
    }

    /// The legacy type string, when this is one.
    pub fn name(&self) -> Option<&str> {
        match self {
            TypeRef::Id(_) => None,
            TypeRef::Name(name) => Some(name),
        }
    }
}

impl std::fmt::Display for TypeRef {
    /// `scale_info::<id>` for registry ids (py-scale-codec's spelling), the
    /// string itself for legacy names.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeRef::Id(id) => write!(f, "scale_info::{id}"),
            TypeRef::Name(name) => f.write_str(name),
        }
    }
}

/// The runtime's identity, read from the `System` pallet's `Version` constant
/// (a SCALE `RuntimeVersion`, of which the first four fields are read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeVersion {
    /// `spec_name`, e.g. `"polkadot"`.
    pub spec_name: String,
    /// `impl_name`, e.g. `"parity-polkadot"`.
    pub impl_name: String,
    /// `authoring_version`.
    pub authoring_version: u32,
    /// `spec_version`, e.g. `9180`.
    pub spec_version: u32,
}

/// Runtime metadata of any version from V9 to V16, in one shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metadata {
    /// The metadata version (9–16).
    pub version: u32,
    /// Spec name and version, when the metadata carries a `System.Version`
    /// constant that decodes as a `RuntimeVersion`.
    pub runtime_version: Option<RuntimeVersion>,
    /// Pallets (modules) in metadata order.
    pub pallets: Vec<Pallet>,
    /// How extrinsics are built.
    pub extrinsic: Extrinsic,
    /// The portable type registry (V14+); `None` for legacy metadata, whose
    /// types are strings. Kept exactly as `scale-info` decoded it.
    pub types: Option<PortableRegistry>,
    /// The type id of the runtime itself (V14 and V15 carry it).
    pub runtime_type: Option<u32>,
    /// Runtime API traits (V15+).
    pub apis: Vec<RuntimeApi>,
    /// The type ids of the outer `RuntimeCall`/`RuntimeEvent`/`RuntimeError` enums (V15+).
    pub outer_enums: Option<OuterEnums>,
    /// Custom values (V15+), by name.
    pub custom: BTreeMap<String, CustomValue>,
}

impl Metadata {
    /// The spec name (e.g. `"polkadot"`), when known.
    pub fn spec_name(&self) -> Option<&str> {
        self.runtime_version.as_ref().map(|v| v.spec_name.as_str())
    }

    /// The spec version (e.g. `9180`), when known.
    pub fn spec_version(&self) -> Option<u32> {
        self.runtime_version.as_ref().map(|v| v.spec_version)
    }

    /// The number of types in the registry; 0 for legacy metadata.
    pub fn type_count(&self) -> usize {
        self.types.as_ref().map_or(0, |t| t.types.len())
    }

    /// How many bytes the portable registry takes in the metadata's SCALE
    /// encoding (V14+, where it comes first, right after the version
    /// byte); `None` for legacy metadata. Lets a reader skip the types, four
    /// fifths of a modern metadata, to reach the pallets.
    pub fn types_encoded_len(&self) -> Option<usize> {
        use parity_scale_codec::Encode;
        self.types.as_ref().map(Encode::encoded_size)
    }

    /// The pallet with this name.
    pub fn pallet(&self, name: &str) -> Option<&Pallet> {
        self.pallets.iter().find(|p| p.name == name)
    }

    /// The pallet with this index ([`Pallet::index`]).
    pub fn pallet_by_index(&self, index: u8) -> Option<&Pallet> {
        self.pallets.iter().find(|p| p.index == index)
    }

    /// The pallet and call an encoded call starts with (`[pallet byte, call byte]`).
    pub fn call_by_index(&self, pallet: u8, call: u8) -> Option<(&Pallet, &Variant)> {
        self.pallets.iter().find_map(|p| {
            let calls = p.call_enum.as_ref()?;
            (calls.pallet_index == pallet)
                .then(|| calls.variant(call).map(|c| (p, c)))
                .flatten()
        })
    }

    /// The pallet and error a `DispatchError::Module { index, error }` names
    /// (`error` is the first byte of the module error).
    pub fn error_by_index(&self, pallet: u8, error: u8) -> Option<(&Pallet, &Variant)> {
        self.pallets.iter().find_map(|p| {
            let errors = p.error_enum.as_ref()?;
            (errors.pallet_index == pallet)
                .then(|| errors.variant(error).map(|e| (p, e)))
                .flatten()
        })
    }

    /// The storage entry `pallet.entry`, e.g. `("System", "Account")`.
    pub fn storage_entry(&self, pallet: &str, entry: &str) -> Option<(&Pallet, &StorageEntry)> {
        let pallet = self.pallet(pallet)?;
        Some((pallet, pallet.storage_entry(entry)?))
    }

    /// The pallet and event an encoded event starts with (`[pallet byte, event byte]`).
    pub fn event_by_index(&self, pallet: u8, event: u8) -> Option<(&Pallet, &Variant)> {
        self.pallets.iter().find_map(|p| {
            let events = p.event_enum.as_ref()?;
            (events.pallet_index == pallet)
                .then(|| events.variant(event).map(|e| (p, e)))
                .flatten()
        })
    }
}

/// One pallet (a "module" in legacy metadata).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pallet {
    /// The pallet's index: declared in V12+; its position in the module list
    /// for V9–V11 (where errors use it; calls and events count differently,
    /// see [`PalletEnum::pallet_index`]).
    pub index: u8,
    /// The pallet's name, e.g. `"Balances"`.
    pub name: String,
    /// Its calls, when the pallet has any.
    pub call_enum: Option<PalletEnum>,
    /// Its events, when the pallet has any.
    pub event_enum: Option<PalletEnum>,
    /// Its errors, when the pallet declares any.
    pub error_enum: Option<PalletEnum>,
    /// Its constants.
    pub constants: Vec<Constant>,
    /// Its storage, when it has any.
    pub storage: Option<Storage>,
    /// Documentation (V15+).
    pub docs: Vec<String>,
    /// View functions (V16).
    pub view_functions: Vec<ViewFunction>,
    /// Associated types of the pallet's config (V16).
    pub associated_types: Vec<AssociatedType>,
    /// Whether the pallet is deprecated (V16).
    pub deprecation: Deprecation,
}

impl Pallet {
    /// The calls (empty when the pallet has none).
    pub fn calls(&self) -> &[Variant] {
        self.call_enum.as_ref().map_or(&[], |e| &e.variants)
    }

    /// The events (empty when the pallet has none).
    pub fn events(&self) -> &[Variant] {
        self.event_enum.as_ref().map_or(&[], |e| &e.variants)
    }

    /// The errors (empty when the pallet has none).
    pub fn errors(&self) -> &[Variant] {
        self.error_enum.as_ref().map_or(&[], |e| &e.variants)
    }

    /// The storage entries (empty when the pallet has no storage).
    pub fn storage_entries(&self) -> &[StorageEntry] {
        self.storage.as_ref().map_or(&[], |s| &s.entries)
    }

    /// The constant with this name.
    pub fn constant(&self, name: &str) -> Option<&Constant> {
        self.constants.iter().find(|c| c.name == name)
    }

    /// The storage entry with this name.
    pub fn storage_entry(&self, name: &str) -> Option<&StorageEntry> {
        self.storage_entries().iter().find(|e| e.name == name)
    }
}

/// A pallet's calls, events or errors: the variants of one enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PalletEnum {
    /// The byte that identifies the pallet in front of an encoded call/event/
    /// error. Equal to [`Pallet::index`] for V12+. In V9–V11 calls count only
    /// the modules that have calls and events only those that have events
    /// (as py-scale-codec does), errors use the module position.
    pub pallet_index: u8,
    /// The enum's type id (V14+); `None` for legacy metadata.
    pub type_id: Option<u32>,
    /// The variants, in declaration order.
    pub variants: Vec<Variant>,
}

impl PalletEnum {
    /// The variant with this index byte.
    pub fn variant(&self, index: u8) -> Option<&Variant> {
        self.variants.iter().find(|v| v.index == index)
    }

    /// The variant with this name.
    pub fn variant_named(&self, name: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.name == name)
    }
}

/// A call, event or error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    /// Its name, e.g. `"transfer"` or `"Transfer"`.
    pub name: String,
    /// Its index byte (the position in the list for legacy metadata).
    pub index: u8,
    /// Call arguments / event fields.
    pub fields: Vec<Field>,
    /// Documentation lines.
    pub docs: Vec<String>,
    /// Whether it is deprecated (V16).
    pub deprecation: Deprecation,
}

/// A call argument or event/error field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Its name; legacy event arguments and tuple-like fields have none.
    pub name: Option<String>,
    /// Its type.
    pub ty: TypeRef,
    /// The type's name as written in the source (V14+), e.g. `"T::Balance"`.
    pub type_name: Option<String>,
}

/// A pallet constant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: TypeRef,
    /// Its SCALE-encoded value.
    pub value: Vec<u8>,
    /// Documentation lines.
    pub docs: Vec<String>,
    /// Whether it is deprecated (V16).
    pub deprecation: Deprecation,
}

/// A pallet's storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Storage {
    /// The prefix hashed into every key (usually the pallet name).
    pub prefix: String,
    /// Its entries.
    pub entries: Vec<StorageEntry>,
}

/// Whether a storage entry without a value reads as `None` or as its default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageModifier {
    /// Absent values are `None`.
    Optional,
    /// Absent values are [`StorageEntry::default`].
    Default,
}

/// One storage item: a plain value or a map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageEntry {
    /// Its name, e.g. `"Account"`.
    pub name: String,
    /// `Optional` or `Default`.
    pub modifier: StorageModifier,
    /// One hasher per key; empty for a plain value.
    pub hashers: Vec<StorageHasher>,
    /// The key type as declared: `None` for a plain value. For V14+ maps with
    /// several hashers this is the id of the key tuple; for legacy double and
    /// N-maps a tuple string such as `"(T::AccountId, T::Hash)"`.
    pub key: Option<TypeRef>,
    /// One type per hasher (the key tuple split up), in key order.
    pub keys: Vec<TypeRef>,
    /// The value type.
    pub value: TypeRef,
    /// The SCALE-encoded default value.
    pub default: Vec<u8>,
    /// Documentation lines.
    pub docs: Vec<String>,
    /// A V9/V10 linked map (values carry linkage; gone from V11 on).
    pub linked: bool,
    /// Whether it is deprecated (V16).
    pub deprecation: Deprecation,
}

impl StorageEntry {
    /// Whether this is a map (has keys).
    pub fn is_map(&self) -> bool {
        !self.hashers.is_empty()
    }
}

/// How extrinsics are encoded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Extrinsic {
    /// The extrinsic format versions supported (one for V11–V15, several
    /// possible in V16, none recorded by V9/V10).
    pub versions: Vec<u8>,
    /// The extrinsic type itself (V14 only: `UncheckedExtrinsic<…>`).
    pub type_id: Option<u32>,
    /// The address type (V15+; for V14 the extrinsic type's `Address` parameter).
    pub address_type: Option<u32>,
    /// The call type (V15+; for V14 the extrinsic type's `Call` parameter).
    pub call_type: Option<u32>,
    /// The signature type (V15+; for V14 the extrinsic type's `Signature` parameter).
    pub signature_type: Option<u32>,
    /// The type of all signed extensions together (V15; V14 from the `Extra`
    /// parameter; V16 no longer has it).
    pub extra_type: Option<u32>,
    /// Signed extensions (V16: transaction extensions), in order.
    pub signed_extensions: Vec<SignedExtension>,
    /// V16: for each transaction-extension version (the byte a V5 general
    /// transaction carries; signed V4 extrinsics use version 0), the indexes
    /// into [`Extrinsic::signed_extensions`] of the extensions it uses, in
    /// order. Empty before V16, where every extension always applies (see
    /// [`Extrinsic::extensions_for_version`]).
    pub extensions_by_version: BTreeMap<u8, Vec<u32>>,
}

impl Extrinsic {
    /// The signed extensions a signed format-4 extrinsic carries: those of
    /// transaction-extension version 0 when the metadata lists that version,
    /// else every extension (before V16 there are no versions; a V16
    /// runtime without a version 0 still signs with all of them). The one
    /// rule the dynamic layer and codegen both follow.
    pub fn signed_extensions_v4(&self) -> Vec<&SignedExtension> {
        if self.extensions_by_version.contains_key(&0) {
            self.extensions_for_version(0)
        } else {
            self.signed_extensions.iter().collect()
        }
    }

    /// The signed extensions of transaction-extension version
    /// `extension_version` (0 for everything before V16 and for signed V4
    /// extrinsics). Empty for a version the metadata does not list.
    pub fn extensions_for_version(&self, extension_version: u8) -> Vec<&SignedExtension> {
        match self.extensions_by_version.get(&extension_version) {
            Some(indexes) => indexes
                .iter()
                .filter_map(|&i| self.signed_extensions.get(i as usize))
                .collect(),
            None if self.extensions_by_version.is_empty() && extension_version == 0 => {
                self.signed_extensions.iter().collect()
            }
            None => Vec::new(),
        }
    }
}

/// A signed (V16: transaction) extension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedExtension {
    /// Its identifier, e.g. `"CheckNonce"`.
    pub identifier: String,
    /// The type of the data it adds to the extrinsic (V14+).
    pub ty: Option<u32>,
    /// The type of the data it adds to the signed payload only
    /// (`additional_signed`; V16 calls it `implicit`) (V14+).
    pub additional_signed: Option<u32>,
}

/// A runtime API trait (V15+).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeApi {
    /// The trait name, e.g. `"Core"`.
    pub name: String,
    /// Its methods.
    pub methods: Vec<RuntimeApiMethod>,
    /// Documentation lines.
    pub docs: Vec<String>,
    /// The trait's version (V16).
    pub version: Option<u32>,
    /// Whether it is deprecated (V16).
    pub deprecation: Deprecation,
}

/// A runtime API method (called as `<Trait>_<method>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeApiMethod {
    /// The method name, e.g. `"version"`.
    pub name: String,
    /// Its parameters.
    pub inputs: Vec<Param>,
    /// The output type id.
    pub output: u32,
    /// Documentation lines.
    pub docs: Vec<String>,
    /// Whether it is deprecated (V16).
    pub deprecation: Deprecation,
}

/// A named parameter of a runtime API method or view function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its type id.
    pub ty: u32,
}

/// A pallet view function (V16).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewFunction {
    /// Its 32-byte identifier (used to call it).
    pub id: [u8; 32],
    /// Its name.
    pub name: String,
    /// Its parameters.
    pub inputs: Vec<Param>,
    /// The output type id.
    pub output: u32,
    /// Documentation lines.
    pub docs: Vec<String>,
    /// Whether it is deprecated.
    pub deprecation: Deprecation,
}

/// An associated type of a pallet's config trait (V16).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssociatedType {
    /// Its name, e.g. `"Balance"`.
    pub name: String,
    /// Its type id.
    pub ty: u32,
    /// Documentation lines.
    pub docs: Vec<String>,
}

/// Deprecation status of an item (V16; everything earlier is not deprecated).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Deprecation {
    /// Not deprecated.
    #[default]
    NotDeprecated,
    /// Deprecated, without a note.
    DeprecatedWithoutNote,
    /// Deprecated with a note and, optionally, the version since when.
    Deprecated {
        /// Why, or what to use instead.
        note: String,
        /// Since which version.
        since: Option<String>,
    },
}

/// The type ids of the runtime's outer enums (V15+).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OuterEnums {
    /// `RuntimeCall`.
    pub call: u32,
    /// `RuntimeEvent`.
    pub event: u32,
    /// `RuntimeError`.
    pub error: u32,
}

/// A custom value (V15+).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomValue {
    /// Its type id. Unlike every other id in the model this one is not
    /// checked against the registry (runtimes do not enforce it): resolve it
    /// with `types.resolve(ty)` and handle `None`.
    pub ty: u32,
    /// Its SCALE-encoded value.
    pub value: Vec<u8>,
}
