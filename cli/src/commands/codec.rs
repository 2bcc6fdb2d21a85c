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
    let mut registry = if names.is_empty() {
        Registry::new()
    } else {
        Registry::with_presets(&names).map_err(|e| format!("presets {}: {e}", names.join(",")))?
    };
    if let Some(spec) = args.spec {
        registry.set_active_spec_version_id(spec);
    }
    registry.set_ss58_format(args.ss58);
    let metadata = match &args.metadata {
        Some(path) => {
            let bytes = input::file(path)?;
            let shown = path.display();
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
    if args.metadata.is_none() {
        return Err("an extrinsic decodes against its runtime: give --metadata FILE".into());
    }
    decode("Extrinsic", hex, args, pretty)
}

/// `events HEX --metadata FILE`: the `System.Events` value.
pub(crate) fn events(hex: &str, args: &RegistryArgs, pretty: bool) -> Result<String, String> {
    let bytes = input::bytes(hex)?;
    let (mut registry, metadata) = registry(args)?;
    let Some(metadata) = metadata else {
        return Err("events decode against their runtime: give --metadata FILE".into());
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
