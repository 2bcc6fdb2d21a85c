//! `cargo xtask presets`: puts py-scale-codec 1.2.12's type-registry presets
//! in `python/python/ferroscale/type_registry/` (gitignored), where the
//! Python package carries them and the Rust tests read them. The fetch
//! (pinned wheel, sha256-checked files) is `ferroscale-presets-fetch`, which
//! the build script of `ferroscale-python` runs too.

use std::path::PathBuf;

use crate::workspace::workspace_root;

/// Where the presets go.
pub(crate) fn presets_dir() -> PathBuf {
    workspace_root().join("python/python/ferroscale/type_registry")
}

/// Makes sure every preset is in place with its pinned checksum (the wheel
/// is cached in `target/presets/` between runs).
pub(crate) fn ensure() -> Result<(), String> {
    let dir = presets_dir();
    let cache = workspace_root().join("target/presets");
    let files = ferroscale_presets_fetch::FILES.len();
    match ferroscale_presets_fetch::ensure(&dir, &cache, "python3")? {
        0 => eprintln!("presets: {files} files up to date in {}", dir.display()),
        n => eprintln!("presets: wrote {n} of {files} files to {}", dir.display()),
    }
    Ok(())
}

/// `cargo xtask presets`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    if let Some(extra) = args.first() {
        return Err(format!("presets takes no arguments, got {extra:?}"));
    }
    ensure()
}
