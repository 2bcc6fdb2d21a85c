//! The preset data model: py-scale-codec's type-registry JSON, checked and
//! typed, with nothing resolved yet.

/// A type used by a field, tuple element or variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeRef {
    /// A type string.
    Named(String),
    /// JSON `null`: `Null` (an enum variant without payload).
    Null,
    /// An inline struct: a JSON object of field name → type.
    Inline(Vec<(String, TypeRef)>),
    /// A JSON value py-scale-codec accepts when loading but cannot decode with
    /// (for example karura's `["_set", {"_bitLength": 8, …}]`); resolving it
    /// fails with this description.
    Invalid(String),
}

/// The variants of an enum definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnumVariants {
    /// `type_mapping`: `[name, type]` pairs, indexed by position.
    Mapped(Vec<(String, TypeRef)>),
    /// `value_list`: unit variants with their indices (position for a list,
    /// the given number for an object).
    Values(Vec<(String, u8)>),
}

/// One type definition of a preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Definition {
    /// `"Name": "OtherType"`.
    Alias(String),
    /// `{"type": "struct", "type_mapping": [[field, type], …]}`.
    Struct {
        /// Fields in order.
        fields: Vec<(String, TypeRef)>,
        /// `base_class`: a built-in behaviour (py-scale-codec class name).
        base_class: Option<String>,
    },
    /// `{"type": "tuple", "type_mapping": [type, …]}`.
    Tuple {
        /// Elements in order.
        items: Vec<TypeRef>,
        /// `base_class`.
        base_class: Option<String>,
    },
    /// `{"type": "enum", "type_mapping" | "value_list": …}`.
    Enum {
        /// The variants.
        variants: EnumVariants,
        /// `base_class`.
        base_class: Option<String>,
    },
    /// `{"type": "set", "value_type": "u64", "value_list": {name: mask, …}}`.
    Set {
        /// Flag names and masks, in order.
        flags: Vec<(String, u128)>,
        /// The integer type holding the mask (`value_type`, default `u64`).
        value_type: String,
        /// `base_class`.
        base_class: Option<String>,
    },
}

impl Definition {
    /// The `base_class`, if any.
    pub fn base_class(&self) -> Option<&str> {
        match self {
            Definition::Alias(_) => None,
            Definition::Struct { base_class, .. }
            | Definition::Tuple { base_class, .. }
            | Definition::Enum { base_class, .. }
            | Definition::Set { base_class, .. } => base_class.as_deref(),
        }
    }
}

/// Type definitions in document order (later entries of the same name win).
pub type TypeDefs = Vec<(String, Definition)>;

/// A `versioning` entry: types that apply to runtimes `from..=to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionedTypes {
    /// First spec version the entry applies to.
    pub from: u64,
    /// Last spec version, `None` for open-ended. py-scale-codec treats an
    /// upper bound of `0` as open-ended too (`not runtime_range[1]`); so do we.
    pub to: Option<u64>,
    /// The definitions to apply.
    pub types: TypeDefs,
}

impl VersionedTypes {
    /// Whether this entry applies to `spec`.
    pub fn covers(&self, spec: u64) -> bool {
        self.from <= spec
            && match self.to {
                None => true,
                Some(to) => to >= spec,
            }
    }
}

/// A runtime-API method of `runtime_api`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeApiMethod {
    /// Method name.
    pub name: String,
    /// Description text.
    pub description: String,
    /// Parameters: name and type string.
    pub params: Vec<(String, String)>,
    /// The result type string.
    pub result: String,
}

/// One runtime API of `runtime_api`: its methods and the types they use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeApi {
    /// API name (`"AccountNonceApi"` …).
    pub name: String,
    /// Methods in order.
    pub methods: Vec<RuntimeApiMethod>,
    /// Type definitions local to the API.
    pub types: TypeDefs,
}

/// A type-registry preset (py-scale-codec's JSON format).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preset {
    /// `runtime_id`: the spec version the top-level `types` describe.
    pub runtime_id: Option<u64>,
    /// `chain_id`, when given.
    pub chain_id: Option<String>,
    /// `types`.
    pub types: TypeDefs,
    /// `versioning`, `None` when absent (loading such a preset clears the
    /// registry's versioning, as py-scale-codec does).
    pub versioning: Option<Vec<VersionedTypes>>,
    /// `runtime_upgrades`: `(block, spec)` pairs, spec `-1` marking an open head.
    pub runtime_upgrades: Option<Vec<(u64, i64)>>,
    /// `runtime_api` (core.json), in order.
    pub runtime_api: Vec<RuntimeApi>,
}
