//! py-scale-codec 1.2.12's type-registry presets (20 JSON files) for the
//! `scalecodec` Python package, fetched from the pinned `scalecodec` wheel on
//! PyPI with pip and extracted with Python's `zipfile` (Python is needed for
//! pip anyway; no zip crate is pulled in for this).
//!
//! Pinned: the wheel's sha256 and every extracted file's sha256. Idempotent:
//! when every file is present with its checksum, nothing is downloaded; the
//! wheel is kept in a cache folder between runs.
//!
//! One implementation for its two users: `cargo xtask presets` (developers,
//! CI) and the build script of `ferroscale-python`, so that `pip install
//! ./python` on a fresh clone gets the presets without a step before it.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

/// The distribution the presets come from.
pub const REQUIREMENT: &str = "scalecodec==1.2.12";
/// Its wheel's file name on PyPI.
const WHEEL: &str = "scalecodec-1.2.12-py3-none-any.whl";
/// sha256 of that wheel.
const WHEEL_SHA256: &str = "b9de1a2d3d98b9e4285804478d8f5f13b3787ebc4d05625eb0054add7feebe45";
/// Where the JSON files live inside the wheel.
const WHEEL_DIR: &str = "scalecodec/type_registry";

/// The preset files and their sha256, as in the pinned wheel.
pub const FILES: [(&str, &str); 20] = [
    (
        "acala.json",
        "0769e0008e7f820e1e2f4af6e34a8e285cd89d08c2c41111825a588323342b7a",
    ),
    (
        "canvas.json",
        "c9be05b21e131522a2a54e41b366656b100959535d58bdc9ee6d71dc42876da5",
    ),
    (
        "contracts-on-rococo.json",
        "542b43e48e768ecfad60fae299f39934c25f55ab0c56535049cac5cfd6c54db9",
    ),
    (
        "core.json",
        "e9cc9fddecf06df100231730b3d8c7dcde5131a8d05e73406da5f899a5f2386a",
    ),
    (
        "crust.json",
        "472eeff3501bcbb471d03489a7f093d77fa828ca3f0ee3226040bd367cf0f0af",
    ),
    (
        "karura.json",
        "d5f2037f3f540c875ab7025d28a5df8995be4f43d95e4f5f65d3a820f4e4a823",
    ),
    (
        "kusama.json",
        "10442ece3f49ed4eeb8f8403b91152bfb7d7ec46cffc0c27bdef3efef295b0d3",
    ),
    (
        "legacy.json",
        "b21cb70455f701a23c96b6610d63de2f3a9f561b0839145ce253fa520a9544d5",
    ),
    (
        "moonbase-alpha.json",
        "2abae2a26d8ba56da3fa9ac6939b52e4ba948c2080866c2819e38904537a1e9e",
    ),
    (
        "moonbeam.json",
        "1feb2fb7aff3caa7e1561a340667ac55193b3c8f39ce8b34efa16b82ca0b68ce",
    ),
    (
        "moonriver.json",
        "ea8b67935a8272ae15e2e9d95f5f9a0df0d90f389f4609c688eac346dfaa7f33",
    ),
    (
        "polkadot.json",
        "5c18e9153fe5a090d52585561eb1511865395273416c6e5a6a369307121b72b7",
    ),
    (
        "polymesh-mainnet.json",
        "14668dd8e1c682cf971cfc14e91d0041b04705e099a5f91b3be6cbe592cfb5b1",
    ),
    (
        "polymesh-testnet.json",
        "14668dd8e1c682cf971cfc14e91d0041b04705e099a5f91b3be6cbe592cfb5b1",
    ),
    (
        "rococo.json",
        "970aab8122fcabc47f2dcfe8f4b09665ac56fb4d91992d382d34d9d6bbaccdea",
    ),
    (
        "statemine.json",
        "d16dfbe5f500f936188c27a2b15979e256a52824d0c18b850b8a77004ae19197",
    ),
    (
        "statemint.json",
        "d16dfbe5f500f936188c27a2b15979e256a52824d0c18b850b8a77004ae19197",
    ),
    (
        "substrate-node-template.json",
        "16e38009e37085424930bbde13f6f6e3fe16f9815c4d311256ec33febd8ccc1c",
    ),
    (
        "test.json",
        "50778c764a4ad04d687e8a57f9d919bb8738b73e8c936b72fea79e327a7caa42",
    ),
    (
        "westend.json",
        "8a127641190ea17fb2ac3329e73fa4cfa8b7f3c8e6a090501bf8eb4b794f3e79",
    ),
];

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn file_matches(path: &Path, sha256: &str) -> bool {
    std::fs::read(path).is_ok_and(|bytes| sha256_hex(&bytes) == sha256)
}

/// The preset files missing from `dir` or not matching their pinned checksum.
pub fn stale_files(dir: &Path) -> Vec<&'static str> {
    FILES
        .iter()
        .filter(|(name, sha)| !file_matches(&dir.join(name), sha))
        .map(|(name, _)| *name)
        .collect()
}

/// The pinned wheel, from `cache` or downloaded there with `python -m pip`,
/// checksum verified.
fn wheel(cache: &Path, python: &str) -> Result<PathBuf, String> {
    let wheel = cache.join(WHEEL);
    if file_matches(&wheel, WHEEL_SHA256) {
        return Ok(wheel);
    }
    std::fs::create_dir_all(cache)
        .map_err(|e| format!("cannot create {}: {e}", cache.display()))?;
    let _ = std::fs::remove_file(&wheel);
    eprintln!("presets: downloading {REQUIREMENT} (wheel) from PyPI with pip");
    let status = Command::new(python)
        .args([
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary",
            ":all:",
        ])
        .args(["--disable-pip-version-check", "--quiet", "-d"])
        .arg(cache)
        .arg(REQUIREMENT)
        .status()
        .map_err(|e| format!("cannot start {python} -m pip: {e}"))?;
    if !status.success() {
        return Err(format!(
            "{python} -m pip download {REQUIREMENT} failed ({status})"
        ));
    }
    let bytes =
        std::fs::read(&wheel).map_err(|e| format!("pip left no {}: {e}", wheel.display()))?;
    let actual = sha256_hex(&bytes);
    if actual != WHEEL_SHA256 {
        let _ = std::fs::remove_file(&wheel);
        return Err(format!(
            "{WHEEL} has sha256 {actual}, expected {WHEEL_SHA256}: refusing to use it"
        ));
    }
    Ok(wheel)
}

/// Extracts `names` from the wheel (a zip) into `dir` with `python`'s `zipfile`.
fn extract(python: &str, wheel: &Path, dir: &Path, names: &[&str]) -> Result<(), String> {
    const SCRIPT: &str = r#"
import sys, zipfile, os
wheel, prefix, out = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(wheel) as z:
    for name in sys.argv[4:]:
        data = z.read(prefix + "/" + name)
        tmp = os.path.join(out, name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(out, name))
"#;
    let status = Command::new(python)
        .arg("-c")
        .arg(SCRIPT)
        .arg(wheel)
        .arg(WHEEL_DIR)
        .arg(dir)
        .args(names)
        .status()
        .map_err(|e| format!("cannot start {python}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "extracting presets from {} failed ({status})",
            wheel.display()
        ))
    }
}

/// Makes sure every preset is in `dir` with its pinned checksum, fetching the
/// wheel into `cache` with `python` (an interpreter with pip) when one is
/// missing. Returns how many files it wrote (0: all were in place).
pub fn ensure(dir: &Path, cache: &Path, python: &str) -> Result<usize, String> {
    let stale = stale_files(dir);
    if stale.is_empty() {
        return Ok(0);
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let wheel = wheel(cache, python)?;
    extract(python, &wheel, dir, &stale)?;
    let still = stale_files(dir);
    if !still.is_empty() {
        return Err(format!(
            "presets do not match their pinned sha256 after extraction: {still:?}"
        ));
    }
    Ok(stale.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_of_the_python_package_is_listed_once() {
        let mut names: Vec<_> = FILES.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FILES.len());
        assert!(names.contains(&"core.json") && names.contains(&"polkadot.json"));
        assert!(FILES.iter().all(|(_, sha)| sha.len() == 64));
    }

    #[test]
    fn a_folder_without_presets_lists_them_all_as_stale() {
        let dir =
            std::env::temp_dir().join(format!("ferroscale-presets-empty-{}", std::process::id()));
        assert_eq!(stale_files(&dir).len(), FILES.len());
    }
}
