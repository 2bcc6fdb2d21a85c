//! `generate FILE|--url URL`: the Rust module for every type of a V14+ runtime.

use std::path::Path;

use crate::cli::NodeArgs;
use crate::input;

/// Generates and renders the module; writes it to `out` or returns it.
pub(crate) fn run(
    file: Option<&Path>,
    node: &NodeArgs,
    out: Option<&Path>,
) -> Result<String, String> {
    let (bytes, shown) = input::metadata(file, node)?;
    let generated = ferroscale_codegen::generate(&bytes).map_err(|e| format!("{shown}: {e}"))?;
    let text = ferroscale_codegen::render(&generated.tokens).map_err(|e| e.to_string())?;
    let summary = format!(
        "{shown}: metadata V{}, {} registry types -> {} definitions",
        generated.metadata_version, generated.registry_types, generated.definitions
    );
    match out {
        Some(path) => {
            std::fs::write(path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok(format!("{summary}, written to {}", path.display()))
        }
        None => Ok(text),
    }
}
