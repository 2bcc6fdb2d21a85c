//! Without the fetched presets, loading one fails with a message that says
//! how to get them. (Its own test binary: it points the presets folder
//! elsewhere through the environment.)

use ferroscale_dynamic::preset::{presets_dir, Preset, PRESETS_DIR_ENV};
use ferroscale_dynamic::registry::Registry;

#[test]
fn missing_presets_name_the_command_that_fetches_them() {
    let empty = std::env::temp_dir().join(format!("ferroscale-no-presets-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    std::env::set_var(PRESETS_DIR_ENV, &empty);
    let err = presets_dir().unwrap_err().to_string();
    assert!(err.contains("cargo xtask presets"), "{err}");
    assert!(err.contains(&empty.display().to_string()), "{err}");
    let err = Preset::named("polkadot").unwrap_err().to_string();
    assert!(err.contains("cargo xtask presets"), "{err}");
    let err = Registry::with_presets(&["core"]).unwrap_err().to_string();
    assert!(err.contains("cargo xtask presets"), "{err}");
    std::fs::remove_dir_all(&empty).unwrap();
}
