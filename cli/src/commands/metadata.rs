//! `ferroscale metadata FILE|--url URL`: a runtime's metadata version, spec, type count
//! and one line per pallet; `--pallet NAME` one pallet's items; `--type
//! ID|PATH` one registry type; `--json` the same as JSON; `--digest` the
//! RFC-0078 metadata hash.

use std::fmt::Write as _;
use std::path::Path;

use ferroscale_metadata::{digest, Metadata, Pallet};
use ferroscale_value::Value;

use crate::cli::{DigestArgs, NodeArgs};
use crate::input;

/// Runs the command.
pub(crate) fn run(
    file: Option<&Path>,
    node: &NodeArgs,
    pallet: Option<&str>,
    type_: Option<&str>,
    (json, pretty): (bool, bool),
    save: Option<&Path>,
    digest: Option<&DigestArgs>,
) -> Result<String, String> {
    let (bytes, path) = input::metadata(file, node)?;
    let metadata = Metadata::load(&bytes).map_err(|e| format!("{path}: {e}"))?;
    if let Some(out) = save {
        std::fs::write(out, &bytes)
            .map_err(|e| format!("--save: cannot write {}: {e}", out.display()))?;
    }
    if let Some(chain) = digest {
        return metadata_hash(&metadata, chain, &path);
    }
    if let Some(name) = pallet {
        let p = metadata.pallet(name).ok_or_else(|| {
            let names: Vec<&str> = metadata.pallets.iter().map(|p| p.name.as_str()).collect();
            format!(
                "{path} has no pallet {name:?} (it has {})",
                names.join(", ")
            )
        })?;
        return Ok(crate::output::json(&pallet_value(p), pretty));
    }
    if let Some(wanted) = type_ {
        return type_description(&metadata, wanted, pretty);
    }
    Ok(if json {
        crate::output::json(&summary_value(&metadata), pretty)
    } else {
        render(&path, &metadata)
    })
}

/// The RFC-0078 metadata hash as 0x hex, with the chain facts given and
/// the rest from the metadata.
fn metadata_hash(metadata: &Metadata, args: &DigestArgs, path: &str) -> Result<String, String> {
    let decimals = args.decimals.ok_or(
        "--digest needs --decimals N: the token's decimals are a chain property \
         (the node's system_properties), not in the metadata",
    )?;
    let token = args.token.clone().ok_or(
        "--digest needs --token SYMBOL: the token symbol is a chain property \
         (the node's system_properties), not in the metadata",
    )?;
    let chain = digest::ChainInfo {
        spec_version: args.spec_version,
        spec_name: args.spec_name.clone(),
        base58_prefix: args.base58_prefix,
        ..digest::ChainInfo::new(decimals, token)
    };
    let hash = digest::metadata_hash(metadata, &chain).map_err(|e| format!("{path}: {e}"))?;
    Ok(ferroscale_core::hex::encode_prefixed(&hash))
}

fn names<'a>(items: impl IntoIterator<Item = &'a str>) -> Value {
    Value::List(items.into_iter().map(Value::str).collect())
}

fn pallet_value(p: &Pallet) -> Value {
    Value::Dict(vec![
        ("name".into(), Value::str(p.name.as_str())),
        ("index".into(), Value::UInt(p.index.into())),
        (
            "calls".into(),
            names(p.calls().iter().map(|v| v.name.as_str())),
        ),
        (
            "events".into(),
            names(p.events().iter().map(|v| v.name.as_str())),
        ),
        (
            "errors".into(),
            names(p.errors().iter().map(|v| v.name.as_str())),
        ),
        (
            "constants".into(),
            names(p.constants.iter().map(|c| c.name.as_str())),
        ),
        (
            "storage".into(),
            names(p.storage_entries().iter().map(|e| e.name.as_str())),
        ),
    ])
}

fn summary_value(m: &Metadata) -> Value {
    let opt = |v: Option<Value>| v.unwrap_or(Value::Null);
    Value::Dict(vec![
        ("version".into(), Value::UInt(m.version.into())),
        ("spec_name".into(), opt(m.spec_name().map(Value::str))),
        (
            "spec_version".into(),
            opt(m.spec_version().map(|v| Value::UInt(v.into()))),
        ),
        ("types".into(), Value::UInt(m.type_count() as u128)),
        (
            "pallets".into(),
            Value::List(m.pallets.iter().map(pallet_value).collect()),
        ),
    ])
}

/// One registry type (V14+), by id or by its path's last segments.
fn type_description(m: &Metadata, wanted: &str, pretty: bool) -> Result<String, String> {
    let types = m
        .types
        .as_ref()
        .ok_or("legacy metadata (V9–V13) has no type registry: its types are strings")?;
    let found = match wanted.parse::<u32>() {
        Ok(id) => types.types.iter().find(|t| t.id == id),
        Err(_) => types
            .types
            .iter()
            .find(|t| t.ty.path.segments.join("::") == wanted)
            .or_else(|| {
                types
                    .types
                    .iter()
                    .find(|t| t.ty.path.segments.last().is_some_and(|s| s == wanted))
            }),
    };
    let t = found.ok_or_else(|| format!("no type {wanted:?} in the registry"))?;
    // scale-info's own JSON of the type (id, path, params, definition, docs).
    let json = serde_json::to_string(t).map_err(|e| e.to_string())?;
    if !pretty {
        return Ok(json);
    }
    let parsed: serde_json::Value = serde_json::from_str(&json).map_err(|e| e.to_string())?;
    serde_json::to_string_pretty(&parsed).map_err(|e| e.to_string())
}

/// The summary as text: a header, then a table of pallets.
pub(crate) fn render(path: &str, m: &Metadata) -> String {
    let mut out = String::new();
    let spec = match &m.runtime_version {
        Some(v) => format!("{} {}", v.spec_name, v.spec_version),
        None => "unknown (no System.Version constant)".into(),
    };
    let types = match &m.types {
        Some(t) => t.types.len().to_string(),
        None => "none (legacy metadata: types are strings)".into(),
    };
    // Writing into a String cannot fail.
    let _ = writeln!(out, "from:     {path}");
    let _ = writeln!(out, "metadata: V{}", m.version);
    let _ = writeln!(out, "spec:     {spec}");
    let _ = writeln!(out, "types:    {types}");
    let _ = writeln!(out, "pallets:  {}", m.pallets.len());
    if m.version >= 15 {
        let _ = writeln!(out, "apis:     {}", m.apis.len());
    }
    let _ = writeln!(out);
    let name_width = m
        .pallets
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max("pallet".len());
    let _ = writeln!(
        out,
        "{:>5}  {:<name_width$}  {:>5}  {:>6}  {:>6}  {:>9}  {:>7}",
        "index", "pallet", "calls", "events", "errors", "constants", "storage"
    );
    for p in &m.pallets {
        let _ = writeln!(
            out,
            "{:>5}  {:<name_width$}  {:>5}  {:>6}  {:>6}  {:>9}  {:>7}",
            p.index,
            p.name,
            p.calls().len(),
            p.events().len(),
            p.errors().len(),
            p.constants.len(),
            p.storage_entries().len()
        );
    }
    out
}
