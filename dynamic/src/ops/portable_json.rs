//! Portable registries given as scale-info JSON values (`{"types": [{"id",
//! "type": {"path", "params", "def", "docs"}}]}`), and the registry of
//! py-scale-codec's metadata type definitions they are encoded with.

use ferroscale_value::Value;

use crate::error::Error;
use crate::preset::Preset;
use crate::registry::Registry;

/// A registry of py-scale-codec's `core` preset plus the V15/V16 metadata
/// definitions ([`crate::registry::NEWER_METADATA_TYPES`]): metadata values
/// and portable registries decode and encode through it the same whatever
/// presets a caller's own registry holds. Build it once and keep it (it
/// reads the `core` preset).
pub fn metadata_definitions() -> Result<Registry, Error> {
    crate::registry::definitions_registry(&Preset::named("core")?)
}

/// V14 metadata bytes holding the portable registry `types` (the list of
/// `{"id", "type"}` values) and nothing else: no pallets, extrinsic type 0,
/// version 4, no extensions, runtime type 0, encoded with `definitions`
/// (from [`metadata_definitions`]). Loading it imports the types as
/// `scale_info::N`.
pub fn v14_metadata_from_types(
    definitions: &mut Registry,
    types: Vec<Value>,
) -> Result<Vec<u8>, Error> {
    if types.is_empty() {
        return Err(Error::Usage("no portable types given".into()));
    }
    let registry_value = Value::Dict(vec![("types".into(), Value::List(types))]);
    let registry_value = fill_defaults("PortableRegistry", registry_value);
    let encoded = definitions.encode("PortableRegistry", &registry_value)?;
    let mut out = b"meta\x0e".to_vec();
    out.extend_from_slice(&encoded);
    out.extend_from_slice(&[0x00, 0x00, 0x04, 0x00, 0x00]);
    Ok(out)
}

/// The kinds of scale-info type definition py-scale-codec 1.2.12 knows (lower-case).
pub const TYPE_DEF_KINDS: [&str; 9] = [
    "composite",
    "variant",
    "sequence",
    "array",
    "tuple",
    "primitive",
    "compact",
    "bitsequence",
    "historicmetacompat",
];

/// Checks that a `RegistryType` value (`{"path", "params", "def", "docs"}`)
/// has a definition of a kind in [`TYPE_DEF_KINDS`]; the error names the
/// kind found.
pub fn check_type_def(registry_type: &Value) -> Result<(), Error> {
    let kind = match registry_type.get("def") {
        Some(Value::Dict(entries)) => entries.first().map(|(k, _)| k.to_string()),
        Some(Value::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    match kind {
        Some(k) if TYPE_DEF_KINDS.contains(&k.to_lowercase().as_str()) => Ok(()),
        other => Err(Error::unknown_type(
            other.as_deref().unwrap_or("None").to_string(),
            format!(
                "RegistryTypeDef {} not implemented",
                other.as_deref().unwrap_or("None")
            ),
        )),
    }
}

/// `value` as a value of the scale-info type named `type_name`
/// (`PortableRegistry`, `PortableType`, `RegistryType`, `TypeDef`,
/// `TypeDefComposite`, `TypeDefVariant`, `Field`, `Variant`) with what
/// scale-info's JSON leaves out filled in: empty lists and absent names.
/// Values of other types are returned as they are.
pub fn fill_defaults(type_name: &str, value: Value) -> Value {
    match type_name {
        "PortableRegistry" => fill_list(value, "types", portable_type),
        "PortableType" => portable_type(value),
        "RegistryType" => registry_type(value),
        "TypeDef" => type_def(value),
        "TypeDefComposite" => fill_list(value, "fields", field),
        "TypeDefVariant" => fill_list(value, "variants", variant),
        "Field" => field(value),
        "Variant" => variant(value),
        _ => value,
    }
}

/// Whether [`fill_defaults`] changes values of `type_name`.
pub fn has_defaults(type_name: &str) -> bool {
    matches!(
        type_name,
        "PortableRegistry"
            | "PortableType"
            | "RegistryType"
            | "TypeDef"
            | "TypeDefComposite"
            | "TypeDefVariant"
            | "Field"
            | "Variant"
    )
}

/// A key and the maker of its default value.
type KeyDefault<'k> = (&'k str, fn() -> Value);

fn with_defaults(value: Value, defaults: &[KeyDefault<'_>]) -> Value {
    let Value::Dict(mut entries) = value else {
        return value;
    };
    for (key, default) in defaults {
        if !entries.iter().any(|(k, _)| &**k == *key) {
            entries.push(((*key).into(), default()));
        }
    }
    Value::Dict(entries)
}

fn map_key(value: Value, key: &str, f: impl Fn(Value) -> Value) -> Value {
    let Value::Dict(entries) = value else {
        return value;
    };
    Value::Dict(
        entries
            .into_iter()
            .map(|(k, v)| if &*k == key { (k, f(v)) } else { (k, v) })
            .collect(),
    )
}

fn fill_list(value: Value, key: &str, item: fn(Value) -> Value) -> Value {
    let value = with_defaults(value, &[(key, || Value::List(Vec::new()))]);
    map_key(value, key, |v| match v {
        Value::List(items) => Value::List(items.into_iter().map(item).collect()),
        other => other,
    })
}

fn empty() -> Value {
    Value::List(Vec::new())
}

fn field(value: Value) -> Value {
    with_defaults(
        value,
        &[
            ("name", || Value::Null),
            ("typeName", || Value::Null),
            ("docs", empty),
        ],
    )
}

fn variant(value: Value) -> Value {
    let value = with_defaults(value, &[("docs", empty)]);
    fill_list(value, "fields", field)
}

fn type_def(value: Value) -> Value {
    match value {
        Value::Dict(entries) if entries.len() == 1 => {
            let (kind, inner) = entries.into_iter().next().expect("one entry");
            let inner = match &*kind {
                "composite" => fill_list(inner, "fields", field),
                "variant" => fill_list(inner, "variants", variant),
                _ => inner,
            };
            Value::Dict(vec![(kind, inner)])
        }
        other => other,
    }
}

fn registry_type(value: Value) -> Value {
    let value = with_defaults(
        value,
        &[("path", empty), ("params", empty), ("docs", empty)],
    );
    map_key(value, "def", type_def)
}

fn portable_type(value: Value) -> Value {
    map_key(value, "type", registry_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_what_scale_info_json_leaves_out() {
        let composite = Value::Dict(vec![(
            "composite".into(),
            Value::Dict(vec![(
                "fields".into(),
                Value::List(vec![Value::Dict(vec![("type".into(), Value::UInt(1))])]),
            )]),
        )]);
        let ty = Value::Dict(vec![("def".into(), composite)]);
        let filled = fill_defaults("RegistryType", ty);
        assert_eq!(filled.get("path"), Some(&Value::List(vec![])));
        let fields = filled
            .get("def")
            .and_then(|d| d.get("composite"))
            .and_then(|c| c.get("fields"));
        let first = &fields.and_then(Value::as_items).expect("fields")[0];
        assert_eq!(first.get("typeName"), Some(&Value::Null));
        assert_eq!(first.get("docs"), Some(&Value::List(vec![])));
    }
}
