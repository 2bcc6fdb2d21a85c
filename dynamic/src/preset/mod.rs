//! py-scale-codec type-registry presets: the JSON format (`types`,
//! `runtime_id`, `versioning`, `runtime_upgrades`, `runtime_api`), loaded into
//! checked data ([`Preset`]) and merged like py-scale-codec merges them
//! ([`Definitions`]: overrides, spec-version switching, runtime upgrades).
//!
//! The 20 presets shipped in the `scalecodec` 1.2.12 wheel are not part of
//! this repository: `cargo xtask presets` fetches the pinned wheel from PyPI,
//! checks its sha256 and extracts them to `python/python/scalecodec/type_registry/`
//! (where the Python package carries them). [`presets_dir`] finds them there,
//! or in `$FERROSCALE_PRESETS_DIR`. Any other preset loads with
//! [`Preset::from_file`] / [`Preset::from_json_str`].

mod error;
mod json;
mod load;
mod model;
mod state;

use std::path::{Path, PathBuf};

pub use error::PresetError;
pub use json::Json;
pub use model::{
    Definition, EnumVariants, Preset, RuntimeApi, RuntimeApiMethod, TypeDefs, TypeRef,
    VersionedTypes,
};
pub use state::{name_keys, Definitions, NamedDefinition};

/// The presets py-scale-codec 1.2.12 ships, by name (`load_type_registry_preset`).
pub const PRESET_NAMES: [&str; 20] = [
    "acala",
    "canvas",
    "contracts-on-rococo",
    "core",
    "crust",
    "karura",
    "kusama",
    "legacy",
    "moonbase-alpha",
    "moonbeam",
    "moonriver",
    "polkadot",
    "polymesh-mainnet",
    "polymesh-testnet",
    "rococo",
    "statemine",
    "statemint",
    "substrate-node-template",
    "test",
    "westend",
];

/// Environment variable naming a folder of preset JSON files.
pub const PRESETS_DIR_ENV: &str = "FERROSCALE_PRESETS_DIR";

/// Largest preset file read (legacy.json, the biggest shipped, is 208 KB).
const MAX_PRESET_BYTES: u64 = 64 << 20;

/// Where the embedding program keeps the presets (see [`set_presets_dir`]).
static PRESETS_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Tells the engine where the shipped presets are when they do not live in
/// this workspace — the Python module points it at the `type_registry/`
/// folder of the installed package, wherever the wheel was unpacked. The
/// first call wins; `$FERROSCALE_PRESETS_DIR` still takes precedence.
pub fn set_presets_dir(dir: impl Into<PathBuf>) {
    let _ = PRESETS_DIR.set(dir.into());
}

/// The folder holding the shipped presets: `$FERROSCALE_PRESETS_DIR`, else
/// the folder given to [`set_presets_dir`], else
/// `python/python/scalecodec/type_registry/` of this workspace. Fails, naming
/// `cargo xtask presets`, when `core.json` is not there.
pub fn presets_dir() -> Result<PathBuf, PresetError> {
    let dir = match (std::env::var_os(PRESETS_DIR_ENV), PRESETS_DIR.get()) {
        (Some(d), _) => PathBuf::from(d),
        (None, Some(d)) => d.clone(),
        (None, None) => {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../python/python/scalecodec/type_registry")
        }
    };
    if dir.join("core.json").is_file() {
        Ok(dir)
    } else {
        Err(PresetError::at(
            "",
            format!(
                "the py-scale-codec presets are not in {} (run `cargo xtask presets` to fetch them, or set {PRESETS_DIR_ENV})",
                dir.display()
            ),
        ))
    }
}

impl Preset {
    /// Parses preset JSON text.
    pub fn from_json_str(text: &str) -> Result<Preset, PresetError> {
        let doc = Json::parse(text).map_err(|e| {
            PresetError::at(
                "",
                format!("not JSON: {e} (line {}, column {})", e.line(), e.column()),
            )
        })?;
        load::preset_from_json(&doc)
    }

    /// Reads a preset from a JSON file.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Preset, PresetError> {
        let path = path.as_ref();
        let source = path.display().to_string();
        let size = std::fs::metadata(path)
            .map_err(|e| PresetError::at("", format!("cannot read: {e}")).in_source(&source))?
            .len();
        if size > MAX_PRESET_BYTES {
            return Err(PresetError::at(
                "",
                format!("{size} bytes is more than the {MAX_PRESET_BYTES} a preset may have"),
            )
            .in_source(source));
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| PresetError::at("", format!("cannot read: {e}")).in_source(&source))?;
        Self::from_json_str(&text).map_err(|e| e.in_source(source))
    }

    /// One of the shipped presets by name ([`PRESET_NAMES`]), from [`presets_dir`].
    pub fn named(name: &str) -> Result<Preset, PresetError> {
        if !PRESET_NAMES.contains(&name) {
            return Err(PresetError::at(
                "",
                format!("unsupported type registry preset {name:?}"),
            ));
        }
        Self::from_file(presets_dir()?.join(format!("{name}.json")))
    }

    /// Parses a `types` object alone (`{"Name": definition, …}`), as
    /// `update_type_registry_types` takes it.
    pub fn types_from_json_str(text: &str) -> Result<TypeDefs, PresetError> {
        let doc = Json::parse(text).map_err(|e| PresetError::at("", format!("not JSON: {e}")))?;
        load::type_defs(&doc, "types")
    }
}
