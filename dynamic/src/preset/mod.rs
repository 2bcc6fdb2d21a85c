//! py-scale-codec type-registry presets: the JSON format (`types`,
//! `runtime_id`, `versioning`, `runtime_upgrades`, `runtime_api`), loaded into
//! checked data ([`Preset`]) and merged like py-scale-codec merges them
//! ([`Definitions`]: overrides, spec-version switching, runtime upgrades).
//!
//! The 20 presets shipped in the `scalecodec` 1.2.12 wheel are not part of
//! this repository: `cargo xtask presets` fetches the pinned wheel from PyPI,
//! checks its sha256 and extracts them to `python/python/ferroscale/type_registry/`
//! (where the Python package carries them). They are found at run time,
//! never through a path compiled into this crate: a folder given explicitly
//! ([`Preset::named_in`], `Registry::with_presets_from`), else
//! the folder set by [`set_presets_dir`], else `$FERROSCALE_PRESETS_DIR`
//! ([`presets_dir`]). This workspace's `.cargo/config.toml` points the
//! variable at the extracted folder for its own tests and tools. Any other
//! preset loads with [`Preset::from_file`] / [`Preset::from_json_str`].

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
pub use state::{name_keys, AliasEnd, Definitions, NamedDefinition, MAX_ALIAS_CHAIN};

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

/// Tells the engine where the shipped presets are — the Python module points
/// it at the `type_registry/` folder of the installed package, wherever the
/// wheel was unpacked. The first call wins, and it wins over
/// `$FERROSCALE_PRESETS_DIR`: a program that says where its own presets are
/// (the Python package, whose presets ship inside it) is not redirected by
/// a variable meant for Rust crates that have none.
pub fn set_presets_dir(dir: impl Into<PathBuf>) {
    let _ = PRESETS_DIR.set(dir.into());
}

/// Where to get the presets, said by every error that could not find them.
const WHERE: &str = "set FERROSCALE_PRESETS_DIR to a folder holding py-scale-codec 1.2.12's \
     type_registry/*.json, or call ferroscale_dynamic::preset::set_presets_dir(folder) \
     (`cargo xtask presets` extracts them to python/python/ferroscale/type_registry/ of a \
     ferroscale checkout; `pip download scalecodec==1.2.12` has them under \
     scalecodec/type_registry/)";

/// The folder holding the shipped presets: the folder given to
/// [`set_presets_dir`], else `$FERROSCALE_PRESETS_DIR`. Fails, naming both,
/// when neither is set or the folder has no `core.json`.
pub fn presets_dir() -> Result<PathBuf, PresetError> {
    let (dir, from) = match (PRESETS_DIR.get(), std::env::var_os(PRESETS_DIR_ENV)) {
        (Some(d), _) => (d.clone(), "set_presets_dir"),
        (None, Some(d)) if !d.is_empty() => (PathBuf::from(d), PRESETS_DIR_ENV),
        _ => {
            return Err(PresetError::at(
                "",
                format!("no folder of type-registry presets is configured: {WHERE}"),
            ))
        }
    };
    check_presets_dir(&dir).map_err(|e| PresetError::at("", format!("{e} (from {from})")))?;
    Ok(dir)
}

/// Whether `dir` holds the presets (`core.json` is there).
fn check_presets_dir(dir: &Path) -> Result<(), String> {
    if dir.join("core.json").is_file() {
        Ok(())
    } else {
        Err(format!(
            "the py-scale-codec presets are not in {}: {WHERE}",
            dir.display()
        ))
    }
}

/// Only the shipped names: a name is never a path.
fn check_name(name: &str) -> Result<(), PresetError> {
    if PRESET_NAMES.contains(&name) {
        Ok(())
    } else {
        Err(PresetError::at(
            "",
            format!("unsupported type registry preset {name:?}"),
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
        check_name(name)?;
        Self::from_file(presets_dir()?.join(format!("{name}.json")))
    }

    /// One of the shipped presets by name, from the folder `dir` (no
    /// variable or process-wide setting involved).
    pub fn named_in(dir: impl AsRef<Path>, name: &str) -> Result<Preset, PresetError> {
        check_name(name)?;
        let dir = dir.as_ref();
        check_presets_dir(dir).map_err(|e| PresetError::at("", e))?;
        Self::from_file(dir.join(format!("{name}.json")))
    }

    /// Parses a `types` object alone (`{"Name": definition, …}`), as
    /// `update_type_registry_types` takes it.
    pub fn types_from_json_str(text: &str) -> Result<TypeDefs, PresetError> {
        let doc = Json::parse(text).map_err(|e| PresetError::at("", format!("not JSON: {e}")))?;
        load::type_defs(&doc, "types")
    }
}
