//! Presets are found at run time: without a configured folder, loading one
//! fails with a message naming both ways to give it (the variable and
//! `set_presets_dir`) and where to get the files; an explicit folder works
//! with nothing configured. (Its own test binary: it changes the
//! process's environment.)

use ferroscale_dynamic::preset::{presets_dir, Preset, PRESETS_DIR_ENV};
use ferroscale_dynamic::registry::Registry;

#[test]
fn missing_presets_name_every_way_to_give_them() {
    // This workspace's cargo config points the variable at the fetched
    // presets: remember that folder for the explicit API below.
    let configured = std::env::var_os(PRESETS_DIR_ENV).map(std::path::PathBuf::from);

    std::env::remove_var(PRESETS_DIR_ENV);
    let err = presets_dir().unwrap_err().to_string();
    for needle in [PRESETS_DIR_ENV, "set_presets_dir", "cargo xtask presets"] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    let err = Registry::with_presets(&["core"]).unwrap_err().to_string();
    assert!(err.contains(PRESETS_DIR_ENV), "{err}");

    let empty = std::env::temp_dir().join(format!("ferroscale-no-presets-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    std::env::set_var(PRESETS_DIR_ENV, &empty);
    let err = presets_dir().unwrap_err().to_string();
    assert!(err.contains(&empty.display().to_string()), "{err}");
    assert!(err.contains("cargo xtask presets"), "{err}");
    let err = Preset::named("polkadot").unwrap_err().to_string();
    assert!(err.contains("set_presets_dir"), "{err}");
    let err = Registry::with_presets_from(&empty, &["core"])
        .unwrap_err()
        .to_string();
    assert!(err.contains(&empty.display().to_string()), "{err}");
    std::fs::remove_dir_all(&empty).unwrap();
    // A name is never a path.
    assert!(Preset::named_in(&empty, "../core").is_err());

    // The explicit folder needs nothing configured.
    let dir = configured
        .expect("FERROSCALE_PRESETS_DIR (set by this workspace's .cargo/config.toml, or by CI)");
    std::env::remove_var(PRESETS_DIR_ENV);
    let mut registry = Registry::with_presets_from(&dir, &["core", "polkadot"])
        .unwrap_or_else(|e| panic!("{e} (run `cargo xtask presets` first)"));
    assert_eq!(
        registry.decode("Compact<u32>", &[0x04]).unwrap(),
        ferroscale_value::Value::UInt(1)
    );
}
