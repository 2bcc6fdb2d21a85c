//! `decode`, `encode`, `extrinsic` and `events`: the dynamic layer over a
//! registry built from presets and/or a runtime's metadata.

use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::Metadata;

use crate::cli::RegistryArgs;
use crate::{input, output};

/// The registry the options describe: presets in order, the spec version,
/// then the metadata (legacy metadata resolves its argument types through
/// the presets, so they come first).
fn registry(args: &RegistryArgs) -> Result<(Registry, Option<Metadata>), String> {
    let names: Vec<&str> = args.presets.iter().map(String::as_str).collect();
    let mut registry = match (&args.presets_dir, names.is_empty()) {
        (_, true) => Ok(Registry::new()),
        (Some(dir), false) => Registry::with_presets_from(dir, &names),
        (None, false) => Registry::with_presets(&names),
    }
    .map_err(|e| format!("presets {}: {e}", names.join(",")))?;
    if let Some(spec) = args.spec {
        registry.set_active_spec_version_id(spec);
    }
    registry.set_ss58_format(args.ss58);
    let metadata = match input::metadata_opt(args.metadata.as_deref(), &args.node)? {
        Some((bytes, shown)) => {
            let md = Metadata::load(&bytes).map_err(|e| format!("{shown}: {e}"))?;
            if md.version < 14 && names.is_empty() {
                return Err(format!(
                    "{shown} is V{} metadata: its types are strings that need presets \
                     (e.g. --presets core,legacy,polkadot --spec N)",
                    md.version
                ));
            }
            registry
                .load_metadata(&bytes)
                .map_err(|e| format!("{shown}: {e}"))?;
            Some(md)
        }
        None => None,
    };
    Ok((registry, metadata))
}

/// Whether the options name a runtime's metadata (a file or a node).
fn has_metadata(args: &RegistryArgs) -> bool {
    args.metadata.is_some() || args.node.url.is_some()
}

/// `decode TYPE HEX`.
pub(crate) fn decode(
    type_string: &str,
    hex: &str,
    args: &RegistryArgs,
    pretty: bool,
) -> Result<String, String> {
    let bytes = input::bytes(hex)?;
    let (mut registry, _) = registry(args)?;
    let value = registry
        .decode(type_string, &bytes)
        .map_err(|e| e.to_string())?;
    Ok(output::json(&value, pretty))
}

/// `encode TYPE JSON`.
pub(crate) fn encode(type_string: &str, json: &str, args: &RegistryArgs) -> Result<String, String> {
    let value = input::json_value(&input::text(json)?)?;
    let (mut registry, _) = registry(args)?;
    let bytes = registry
        .encode(type_string, &value)
        .map_err(|e| e.to_string())?;
    Ok(ferroscale_core::hex::encode_prefixed(&bytes))
}

/// `extrinsic HEX --metadata FILE`.
pub(crate) fn extrinsic(hex: &str, args: &RegistryArgs, pretty: bool) -> Result<String, String> {
    if !has_metadata(args) {
        return Err(
            "an extrinsic decodes against its runtime: give --metadata FILE or --url URL".into(),
        );
    }
    decode("Extrinsic", hex, args, pretty)
}

/// `events HEX --metadata FILE`: the `System.Events` value.
pub(crate) fn events(hex: &str, args: &RegistryArgs, pretty: bool) -> Result<String, String> {
    let bytes = input::bytes(hex)?;
    let (mut registry, metadata) = registry(args)?;
    let Some(metadata) = metadata else {
        return Err(
            "events decode against their runtime: give --metadata FILE or --url URL".into(),
        );
    };
    // V14+ names the storage value's registry type; legacy runtimes use
    // the preset name.
    let type_string = match metadata
        .storage_entry("System", "Events")
        .and_then(|(_, entry)| entry.value.id())
    {
        Some(id) if metadata.version >= 14 => format!("scale_info::{id}"),
        _ => "Vec<EventRecord>".to_owned(),
    };
    let value = registry
        .decode(&type_string, &bytes)
        .map_err(|e| e.to_string())?;
    Ok(output::json(&value, pretty))
}

/// The registry over `--metadata`, which these commands need.
fn runtime_registry(args: &RegistryArgs, what: &str) -> Result<Registry, String> {
    if !has_metadata(args) {
        return Err(format!(
            "{what} needs the runtime's metadata: give --metadata FILE or --url URL"
        ));
    }
    Ok(registry(args)?.0)
}

/// `storage-key PALLET ENTRY KEYS…`.
pub(crate) fn storage_key(
    pallet: &str,
    entry: &str,
    keys: &[String],
    args: &RegistryArgs,
) -> Result<String, String> {
    let mut registry = runtime_registry(args, "a storage key")?;
    let keys = keys
        .iter()
        .map(|k| input::json_value(&input::text(k)?))
        .collect::<Result<Vec<_>, _>>()?;
    let key = registry
        .storage_key(pallet, entry, &keys)
        .map_err(|e| e.to_string())?;
    Ok(ferroscale_core::hex::encode_prefixed(&key))
}

/// `runtime-api TRAIT METHOD ARGS… [--answer HEX]`.
pub(crate) fn runtime_api(
    trait_name: &str,
    method: &str,
    args: &[String],
    answer: Option<&str>,
    registry_args: &RegistryArgs,
    pretty: bool,
) -> Result<String, String> {
    let mut registry = runtime_registry(registry_args, "a runtime API call")?;
    let call = registry
        .runtime_api(trait_name, method)
        .map_err(|e| e.to_string())?;
    if let Some(answer) = answer {
        let bytes = input::bytes(answer)?;
        let value = registry
            .decode_runtime_api_result(&call, &bytes)
            .map_err(|e| e.to_string())?;
        return Ok(output::json(&value, pretty));
    }
    let values = args
        .iter()
        .map(|a| input::json_value(&input::text(a)?))
        .collect::<Result<Vec<_>, _>>()?;
    let (name, data) = registry
        .runtime_api_request(&call, &values)
        .map_err(|e| e.to_string())?;
    let request = ferroscale_value::Value::Dict(vec![
        ("method".into(), ferroscale_value::Value::str(name.as_str())),
        (
            "data".into(),
            ferroscale_value::Value::str(ferroscale_core::hex::encode_prefixed(&data).as_str()),
        ),
    ]);
    Ok(output::json(&request, pretty))
}
