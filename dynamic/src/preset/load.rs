//! JSON → [`Preset`]: shape checks with errors that name the JSON path.

use super::error::PresetError;
use super::json::Json;
use super::model::{
    Definition, EnumVariants, Preset, RuntimeApi, RuntimeApiMethod, TypeDefs, TypeRef,
    VersionedTypes,
};

type Result<T> = std::result::Result<T, PresetError>;

fn expect_object<'a>(value: &'a Json, path: &str) -> Result<&'a [(String, Json)]> {
    match value {
        Json::Object(members) => Ok(members),
        other => Err(PresetError::at(
            path,
            format!("expected an object, found {}", other.kind()),
        )),
    }
}

fn expect_array<'a>(value: &'a Json, path: &str) -> Result<&'a [Json]> {
    match value {
        Json::Array(items) => Ok(items),
        other => Err(PresetError::at(
            path,
            format!("expected an array, found {}", other.kind()),
        )),
    }
}

fn expect_str<'a>(value: &'a Json, path: &str) -> Result<&'a str> {
    match value {
        Json::Str(s) => Ok(s),
        other => Err(PresetError::at(
            path,
            format!("expected a string, found {}", other.kind()),
        )),
    }
}

fn expect_uint(value: &Json, path: &str) -> Result<u64> {
    match value {
        Json::Int(i) => u64::try_from(*i).map_err(|_| {
            PresetError::at(path, format!("expected a non-negative integer, found {i}"))
        }),
        other => Err(PresetError::at(
            path,
            format!("expected an integer, found {}", other.kind()),
        )),
    }
}

/// Parses a preset document.
pub(super) fn preset_from_json(doc: &Json) -> Result<Preset> {
    let members = expect_object(doc, "")?;
    let mut preset = Preset::default();
    for (key, value) in members {
        match key.as_str() {
            "types" => preset.types = type_defs(value, "types")?,
            "runtime_id" => {
                preset.runtime_id = match value {
                    Json::Null => None,
                    v => Some(expect_uint(v, "runtime_id")?),
                }
            }
            "chain_id" => {
                preset.chain_id = match value {
                    Json::Null => None,
                    v => Some(expect_str(v, "chain_id")?.to_string()),
                }
            }
            "versioning" => {
                preset.versioning = match value {
                    Json::Null => None,
                    v => Some(versioning(v)?),
                }
            }
            "runtime_upgrades" => {
                preset.runtime_upgrades = match value {
                    Json::Null => None,
                    v => Some(runtime_upgrades(v)?),
                }
            }
            "runtime_api" => preset.runtime_api = runtime_apis(value)?,
            // py-scale-codec ignores other members; so do we.
            _ => {}
        }
    }
    Ok(preset)
}

/// `{"Name": definition, …}`.
pub(super) fn type_defs(value: &Json, path: &str) -> Result<TypeDefs> {
    let members = expect_object(value, path)?;
    members
        .iter()
        .map(|(name, def)| Ok((name.clone(), definition(def, &format!("{path}.{name}"))?)))
        .collect()
}

fn definition(value: &Json, path: &str) -> Result<Definition> {
    let obj = match value {
        Json::Str(alias) => return Ok(Definition::Alias(alias.clone())),
        Json::Object(_) => value,
        other => {
            return Err(PresetError::at(
                path,
                format!(
                    "a type definition is a type string or an object, found {}",
                    other.kind()
                ),
            ))
        }
    };
    let kind = match obj.get("type") {
        Some(k) => expect_str(k, &format!("{path}.type"))?,
        None => return Err(PresetError::at(path, "definition object without \"type\"")),
    };
    let base_class = match obj.get("base_class") {
        None | Some(Json::Null) => None,
        Some(b) => Some(expect_str(b, &format!("{path}.base_class"))?.to_string()),
    };
    let mapping_path = format!("{path}.type_mapping");
    match kind {
        "struct" => Ok(Definition::Struct {
            fields: named_refs(obj.get("type_mapping"), &mapping_path)?,
            base_class,
        }),
        "tuple" => {
            let items = match obj.get("type_mapping") {
                None | Some(Json::Null) => Vec::new(),
                Some(v) => expect_array(v, &mapping_path)?
                    .iter()
                    .map(type_ref)
                    .collect(),
            };
            Ok(Definition::Tuple { items, base_class })
        }
        "enum" => {
            let variants = match (obj.get("type_mapping"), obj.get("value_list")) {
                (Some(m), _) if *m != Json::Null => {
                    EnumVariants::Mapped(named_refs(Some(m), &mapping_path)?)
                }
                (_, Some(list)) if *list != Json::Null => {
                    enum_values(list, &format!("{path}.value_list"))?
                }
                _ => {
                    return Err(PresetError::at(
                        path,
                        "an enum needs \"type_mapping\" or \"value_list\"",
                    ))
                }
            };
            if let EnumVariants::Mapped(m) = &variants {
                if m.len() > 256 {
                    return Err(PresetError::at(
                        mapping_path,
                        format!("{} variants; an enum index is one byte", m.len()),
                    ));
                }
            }
            Ok(Definition::Enum {
                variants,
                base_class,
            })
        }
        "set" => {
            let list_path = format!("{path}.value_list");
            let list = obj
                .get("value_list")
                .ok_or_else(|| PresetError::at(path, "a set needs \"value_list\""))?;
            let flags = expect_object(list, &list_path)
                .map_err(|e| PresetError {
                    message: format!("{} (a set maps flag names to masks)", e.message),
                    ..e
                })?
                .iter()
                .map(|(name, mask)| {
                    let mask = match mask {
                        Json::Int(i) if *i >= 0 => *i as u128,
                        other => {
                            return Err(PresetError::at(
                                format!("{list_path}.{name}"),
                                format!("a set mask is a non-negative integer, found {other}"),
                            ))
                        }
                    };
                    Ok((name.clone(), mask))
                })
                .collect::<Result<_>>()?;
            let value_type = match obj.get("value_type") {
                None | Some(Json::Null) => "u64".to_string(),
                Some(v) => expect_str(v, &format!("{path}.value_type"))?.to_string(),
            };
            Ok(Definition::Set {
                flags,
                value_type,
                base_class,
            })
        }
        other => Err(PresetError::at(
            format!("{path}.type"),
            format!("unknown type kind {other:?} (expected struct, tuple, enum or set)"),
        )),
    }
}

/// `[[name, type], …]` (struct fields, enum variants).
fn named_refs(value: Option<&Json>, path: &str) -> Result<Vec<(String, TypeRef)>> {
    let items = match value {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(v) => expect_array(v, path)?,
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Json::Array(pair) if pair.len() == 2 => {
                let name = expect_str(&pair[0], &format!("{path}[{i}][0]"))?;
                Ok((name.to_string(), type_ref(&pair[1])))
            }
            other => Err(PresetError::at(
                format!("{path}[{i}]"),
                format!("expected a [name, type] pair, found {other}"),
            )),
        })
        .collect()
}

/// A field/element type: a string, `null`, or an inline struct object.
fn type_ref(value: &Json) -> TypeRef {
    match value {
        Json::Str(s) => TypeRef::Named(s.clone()),
        Json::Null => TypeRef::Null,
        Json::Object(members) => TypeRef::Inline(
            members
                .iter()
                .map(|(k, v)| (k.clone(), type_ref(v)))
                .collect(),
        ),
        other => TypeRef::Invalid(format!("{other}")),
    }
}

fn enum_values(value: &Json, path: &str) -> Result<EnumVariants> {
    let values = match value {
        Json::Array(items) => {
            if items.len() > 256 {
                return Err(PresetError::at(
                    path,
                    format!("{} values; an enum index is one byte", items.len()),
                ));
            }
            items
                .iter()
                .enumerate()
                .map(|(i, v)| Ok((expect_str(v, &format!("{path}[{i}]"))?.to_string(), i as u8)))
                .collect::<Result<_>>()?
        }
        Json::Object(members) => members
            .iter()
            .map(|(name, index)| {
                let at = format!("{path}.{name}");
                let index = expect_uint(index, &at)?;
                let index = u8::try_from(index).map_err(|_| {
                    PresetError::at(at, format!("enum index {index} does not fit in one byte"))
                })?;
                Ok((name.clone(), index))
            })
            .collect::<Result<_>>()?,
        other => {
            return Err(PresetError::at(
                path,
                format!(
                    "expected a list or an object of indices, found {}",
                    other.kind()
                ),
            ))
        }
    };
    Ok(EnumVariants::Values(values))
}

fn versioning(value: &Json) -> Result<Vec<VersionedTypes>> {
    expect_array(value, "versioning")?
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let path = format!("versioning[{i}]");
            expect_object(entry, &path)?;
            let range_path = format!("{path}.runtime_range");
            let range = entry
                .get("runtime_range")
                .ok_or_else(|| PresetError::at(&path, "entry without \"runtime_range\""))?;
            let (from, to) = match expect_array(range, &range_path)? {
                [from, to] => {
                    let from = expect_uint(from, &format!("{range_path}[0]"))?;
                    let to = match to {
                        Json::Null => None,
                        v => match expect_uint(v, &format!("{range_path}[1]"))? {
                            0 => None,
                            to => Some(to),
                        },
                    };
                    (from, to)
                }
                other => {
                    return Err(PresetError::at(
                        range_path,
                        format!("expected [from, to], found {} elements", other.len()),
                    ))
                }
            };
            let types = match entry.get("types") {
                Some(t) => type_defs(t, &format!("{path}.types"))?,
                None => return Err(PresetError::at(&path, "entry without \"types\"")),
            };
            Ok(VersionedTypes { from, to, types })
        })
        .collect()
}

fn runtime_upgrades(value: &Json) -> Result<Vec<(u64, i64)>> {
    expect_array(value, "runtime_upgrades")?
        .iter()
        .enumerate()
        .map(|(i, pair)| {
            let path = format!("runtime_upgrades[{i}]");
            match expect_array(pair, &path)? {
                [block, Json::Int(spec)] if *spec >= -1 && *spec <= u32::MAX as i128 => {
                    Ok((expect_uint(block, &format!("{path}[0]"))?, *spec as i64))
                }
                _ => Err(PresetError::at(
                    path,
                    format!("expected [block, spec_version], found {pair}"),
                )),
            }
        })
        .collect()
}

fn runtime_apis(value: &Json) -> Result<Vec<RuntimeApi>> {
    expect_object(value, "runtime_api")?
        .iter()
        .map(|(name, api)| {
            let path = format!("runtime_api.{name}");
            expect_object(api, &path)?;
            let methods = match api.get("methods") {
                None | Some(Json::Null) => Vec::new(),
                Some(m) => expect_object(m, &format!("{path}.methods"))?
                    .iter()
                    .map(|(method, def)| runtime_api_method(method, def, &path))
                    .collect::<Result<_>>()?,
            };
            let types = match api.get("types") {
                None | Some(Json::Null) => Vec::new(),
                Some(t) => type_defs(t, &format!("{path}.types"))?,
            };
            Ok(RuntimeApi {
                name: name.clone(),
                methods,
                types,
            })
        })
        .collect()
}

fn runtime_api_method(name: &str, def: &Json, api_path: &str) -> Result<RuntimeApiMethod> {
    let path = format!("{api_path}.methods.{name}");
    expect_object(def, &path)?;
    let description = match def.get("description") {
        None | Some(Json::Null) => String::new(),
        Some(d) => expect_str(d, &format!("{path}.description"))?.to_string(),
    };
    let params = match def.get("params") {
        None | Some(Json::Null) => Vec::new(),
        Some(p) => expect_array(p, &format!("{path}.params"))?
            .iter()
            .enumerate()
            .map(|(i, param)| {
                let at = format!("{path}.params[{i}]");
                let name = param
                    .get("name")
                    .ok_or_else(|| PresetError::at(&at, "parameter without \"name\""))?;
                let ty = param
                    .get("type")
                    .ok_or_else(|| PresetError::at(&at, "parameter without \"type\""))?;
                Ok((
                    expect_str(name, &format!("{at}.name"))?.to_string(),
                    expect_str(ty, &format!("{at}.type"))?.to_string(),
                ))
            })
            .collect::<Result<_>>()?,
    };
    let result = match def.get("type") {
        Some(t) => expect_str(t, &format!("{path}.type"))?.to_string(),
        None => return Err(PresetError::at(&path, "method without result \"type\"")),
    };
    Ok(RuntimeApiMethod {
        name: name.to_string(),
        description,
        params,
        result,
    })
}
