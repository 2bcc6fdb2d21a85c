//! What `python/tests/test_live_clients.py` needs: the dev node
//! (`ferroscale-devnode`) and a venv per client, each holding the client,
//! its own `scalecodec` (the reference) and our wheel beside it, so that
//! one venv runs the client on either (`FERROSCALE_SCALECODEC=0/1`).

use std::path::Path;

use crate::reference::venv_with;
use crate::workspace::run_step;

/// substrate-interface 1.8.1 on py-scale-codec 1.2.12.
const SI_VENV: &str = ".venv-si";
const SI: &[(&str, &str)] = &[("substrate-interface", "1.8.1"), ("scalecodec", "1.2.12")];
/// async-substrate-interface 2.2.1 on cyscale 0.8.0, and the ed25519 library
/// substrate-interface signs with (the test's keypair for this client).
const ASI_VENV: &str = ".venv-asi";
const ASI: &[(&str, &str)] = &[
    ("async-substrate-interface", "2.2.1"),
    ("cyscale", "0.8.0"),
    ("py-ed25519-zebra-bindings", "1.3.0"),
];

/// Builds the dev node and the client venvs with `wheel` installed, and
/// names them to the tests through environment variables.
pub(crate) fn prepare(wheel: &Path) -> Result<(), String> {
    run_step(
        "the dev node",
        "cargo",
        &["build", "--package", "ferroscale-devnode"],
    )?;
    let node = crate::workspace::target_dir().join("debug/ferroscale-devnode");
    std::env::set_var("FERROSCALE_DEVNODE", &node);
    for (dir, packages, variable) in [
        (SI_VENV, SI, "FERROSCALE_SI_PYTHON"),
        (ASI_VENV, ASI, "FERROSCALE_ASI_PYTHON"),
    ] {
        let mut py = String::new();
        for (package, version) in packages {
            py = venv_with(dir, package, version)?;
        }
        crate::reference::install_wheel(
            &format!("the wheel beside the client in {dir}"),
            &py,
            wheel,
        )?;
        std::env::set_var(variable, &py);
    }
    Ok(())
}
