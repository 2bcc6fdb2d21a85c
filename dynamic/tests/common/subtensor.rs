//! The Bittensor runtime-API payloads of `payloads/subtensor/` and the types
//! they were encoded with, over the portable registry of `test_types.json`
//! (both from bt-decode's test data).
//!
//! `delegates_info.hex` and `delegated_info.hex` decode with the registry's
//! own `DelegateInfo`. The other three do not, and cannot:
//!
//! - `neurons.hex` and `neurons_lite.hex` were re-recorded by bt-decode in
//!   January 2025 (its "rao changes"), when subtensor's `NeuronInfo` and
//!   `NeuronInfoLite` had gained three `Compact<u64>` fields after `stake`
//!   (`total_stake`, `alpha_stake`, `tao_stake`); `test_types.json` dates
//!   from September 2024 and has the older layout. Read with it, the first
//!   neuron's `rank` (a `Compact<u16>`) lands on `total_stake`.
//! - `subnets_info.hex` is a `Vec<Option<SubnetInfo>>`, and `SubnetInfo`
//!   is not in the registry at all (bt-decode decodes it with a hand-written
//!   struct).
//!
//! [`payload_definitions`] describes those layouts in py-scale-codec's
//! preset format, taking every field type the registry has from the
//! registry (`scale_info::N`), so the files decode through the dynamic layer
//! and through py-scale-codec alike.

use scale_info::{PortableRegistry, TypeDef};
use serde_json::{json, Value as Json};

/// The subtensor registry of `test_types.json`.
pub(crate) fn registry() -> PortableRegistry {
    let json = ferroscale_fixtures::read_string("payloads/subtensor/test_types.json");
    serde_json::from_str(&json).expect("test_types.json is a PortableRegistry")
}

/// The id of the registry type whose path ends with `name`.
pub(crate) fn id_by_name(reg: &PortableRegistry, name: &str) -> u32 {
    reg.types
        .iter()
        .find(|t| t.ty.path.segments.last().map(String::as_str) == Some(name))
        .unwrap_or_else(|| panic!("{name} is not in the registry"))
        .id
}

/// Whether some registry type's path ends with `name`.
pub(crate) fn has_name(reg: &PortableRegistry, name: &str) -> bool {
    reg.types
        .iter()
        .any(|t| t.ty.path.segments.last().map(String::as_str) == Some(name))
}

/// The named fields of composite `id`: (name, type id).
pub(crate) fn fields(reg: &PortableRegistry, id: u32) -> Vec<(String, u32)> {
    let ty = reg.resolve(id).expect("type id in the registry");
    let TypeDef::Composite(c) = &ty.type_def else {
        panic!("type {id} is not a composite");
    };
    c.fields
        .iter()
        .map(|f| (f.name.clone().expect("named field"), f.ty.id))
        .collect()
}

/// The field type id of `field` in composite `id`.
fn field_type(reg: &PortableRegistry, id: u32, field: &str) -> u32 {
    fields(reg, id)
        .into_iter()
        .find(|(n, _)| n == field)
        .unwrap_or_else(|| panic!("type {id} has no field {field}"))
        .1
}

/// The neuron layout the payload files carry: the registry's fields of
/// `registry_name` with `total_stake`, `alpha_stake` and `tao_stake`
/// (`Compact<u64>`) inserted after `stake`.
fn rao_neuron(reg: &PortableRegistry, registry_name: &str) -> Json {
    let id = id_by_name(reg, registry_name);
    let compact_u64 = field_type(reg, id, "emission");
    let mut mapping = Vec::new();
    for (name, ty) in fields(reg, id) {
        let after_stake = name == "stake";
        mapping.push(json!([name, format!("scale_info::{ty}")]));
        if after_stake {
            for extra in ["total_stake", "alpha_stake", "tao_stake"] {
                mapping.push(json!([extra, format!("scale_info::{compact_u64}")]));
            }
        }
    }
    json!({"type": "struct", "type_mapping": mapping})
}

/// Subtensor's `SubnetInfo` (as bt-decode and the Bittensor SDK define it),
/// with the registry's `Compact<u16>`, `Compact<u64>` and `AccountId`.
fn subnet_info(reg: &PortableRegistry) -> Json {
    let delegate = id_by_name(reg, "DelegateInfo");
    let u16c = format!("scale_info::{}", field_type(reg, delegate, "take"));
    let u64c = format!(
        "scale_info::{}",
        field_type(reg, delegate, "return_per_1000")
    );
    let account = format!("scale_info::{}", field_type(reg, delegate, "owner_ss58"));
    let mut mapping = Vec::new();
    for (name, ty) in [
        ("netuid", &u16c),
        ("rho", &u16c),
        ("kappa", &u16c),
        ("difficulty", &u64c),
        ("immunity_period", &u16c),
        ("max_allowed_validators", &u16c),
        ("min_allowed_weights", &u16c),
        ("max_weights_limit", &u16c),
        ("scaling_law_power", &u16c),
        ("subnetwork_n", &u16c),
        ("max_allowed_uids", &u16c),
        ("blocks_since_last_step", &u64c),
        ("tempo", &u16c),
        ("network_modality", &u16c),
    ] {
        mapping.push(json!([name, ty]));
    }
    // (netuid, connection requirement) pairs: no registry type has this shape.
    mapping.push(json!(["network_connect", "Vec<[u16; 2]>"]));
    mapping.push(json!(["emission_values", u64c]));
    mapping.push(json!(["burn", u64c]));
    mapping.push(json!(["owner", account]));
    json!({"type": "struct", "type_mapping": mapping})
}

/// The `types` object (py-scale-codec preset format) of the payload types
/// the registry lacks: `RaoNeuronInfo`, `RaoNeuronInfoLite`, `SubnetInfo`.
pub(crate) fn payload_definitions(reg: &PortableRegistry) -> Json {
    json!({
        "RaoNeuronInfo": rao_neuron(reg, "NeuronInfo"),
        "RaoNeuronInfoLite": rao_neuron(reg, "NeuronInfoLite"),
        "SubnetInfo": subnet_info(reg),
    })
}

/// A registry over the subtensor types `reg` plus [`payload_definitions`].
pub(crate) fn payload_registry(reg: &PortableRegistry) -> ferroscale_dynamic::registry::Registry {
    let mut registry = ferroscale_dynamic::registry::Registry::new();
    registry.load_portable_registry(reg).expect("import");
    registry
        .update_types_json(&payload_definitions(reg).to_string())
        .expect("payload definitions");
    registry
}

/// One payload file and the type string it decodes as.
pub(crate) struct Payload {
    pub file: &'static str,
    pub type_string: String,
    pub items: usize,
}

/// Every payload file of `payloads/subtensor/` with its type string
/// (registry ids resolved) and number of items.
pub(crate) fn payloads(reg: &PortableRegistry) -> Vec<Payload> {
    let delegate = id_by_name(reg, "DelegateInfo");
    let at = |file: &'static str, type_string: String, items: usize| Payload {
        file,
        type_string,
        items,
    };
    vec![
        at(
            "payloads/subtensor/delegates_info.hex",
            format!("Vec<scale_info::{delegate}>"),
            360,
        ),
        at(
            "payloads/subtensor/delegated_info.hex",
            format!("Vec<(scale_info::{delegate}, Compact<u64>)>"),
            1,
        ),
        at(
            "payloads/subtensor/neurons.hex",
            "Vec<RaoNeuronInfo>".into(),
            4,
        ),
        at(
            "payloads/subtensor/neurons_lite.hex",
            "Vec<RaoNeuronInfoLite>".into(),
            4,
        ),
        at(
            "payloads/subtensor/subnets_info.hex",
            "Vec<Option<SubnetInfo>>".into(),
            207,
        ),
    ]
}
