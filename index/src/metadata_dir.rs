//! A folder of runtime metadata, one file per runtime:
//! `DIR/<spec_name>/<spec_version>.scale` (the metadata bytes as the node's
//! `state_getMetadata` gives them, SCALE, not hex).
//!
//! The RPC source fills it (each spec's metadata fetched once, then read
//! from here on every later run) and the pipeline reads it lazily, one
//! runtime at a time, so a range crossing hundreds of runtime upgrades never
//! holds hundreds of registries. The file source reads the same folder.
//! Files are written under a hidden temporary name and renamed, so a
//! `.scale` file present is complete.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// Why the folder could not be read or written.
#[derive(Debug)]
pub struct MetadataDirError(pub String);

impl fmt::Display for MetadataDirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MetadataDirError {}

/// A spec name usable as a folder name: it comes from the node, so
/// anything that could leave the folder (`/`, `..`) or hide (`.x`) is
/// refused rather than escaped.
fn check_spec_name(name: &str) -> Result<(), MetadataDirError> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(())
    } else {
        Err(MetadataDirError(format!(
            "spec name {name:?} is not usable as a folder name (1–64 of A–Z a–z 0–9 - _ .)"
        )))
    }
}

/// The metadata file of runtime `spec_name` `spec_version` under `dir`.
pub fn metadata_path(
    dir: &Path,
    spec_name: &str,
    spec_version: u32,
) -> Result<PathBuf, MetadataDirError> {
    check_spec_name(spec_name)?;
    Ok(dir.join(spec_name).join(format!("{spec_version}.scale")))
}

/// Stores a runtime's metadata bytes (atomically: temporary file, then rename).
pub fn store(
    dir: &Path,
    spec_name: &str,
    spec_version: u32,
    bytes: &[u8],
) -> Result<PathBuf, MetadataDirError> {
    let path = metadata_path(dir, spec_name, spec_version)?;
    let fail = |what: &str, e: std::io::Error| {
        MetadataDirError(format!("{}: {what}: {e}", path.display()))
    };
    let folder = path.parent().expect("a file under the spec folder");
    fs::create_dir_all(folder).map_err(|e| fail("creating the folder", e))?;
    let tmp = folder.join(format!(".{spec_version}.scale.tmp"));
    fs::write(&tmp, bytes).map_err(|e| fail("writing", e))?;
    fs::rename(&tmp, &path).map_err(|e| fail("renaming into place", e))?;
    Ok(path)
}

/// The file of spec version `spec_version` under `dir`, whatever its spec
/// name: `None` when there is none, an error when several chains' runtimes
/// share the number (the folder then serves one chain only).
pub fn find(dir: &Path, spec_version: u32) -> Result<Option<PathBuf>, MetadataDirError> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(MetadataDirError(format!("{}: {e}", dir.display()))),
    };
    let file = format!("{spec_version}.scale");
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| MetadataDirError(format!("{}: {e}", dir.display())))?;
        let candidate = entry.path().join(&file);
        if candidate.is_file() {
            found.push(candidate);
        }
    }
    found.sort();
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop()),
        _ => Err(MetadataDirError(format!(
            "{}: several runtimes have spec version {spec_version} ({}); use one folder per chain",
            dir.display(),
            found
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_names_that_leave_the_folder_are_refused() {
        let dir = Path::new("/nonexistent");
        for bad in ["", "../x", "a/b", ".hidden", "a\\b", &"x".repeat(65)] {
            assert!(metadata_path(dir, bad, 1).is_err(), "{bad:?}");
        }
        assert_eq!(
            metadata_path(dir, "polkadot", 9180).unwrap(),
            dir.join("polkadot").join("9180.scale")
        );
    }

    #[test]
    fn stored_files_are_found_by_spec_version() {
        let dir = std::env::temp_dir().join(format!("ferroscale-mdir-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(find(&dir, 1).unwrap(), None);
        let path = store(&dir, "polkadot", 1, b"meta").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"meta");
        assert_eq!(find(&dir, 1).unwrap(), Some(path));
        assert_eq!(find(&dir, 2).unwrap(), None);
        store(&dir, "kusama", 1, b"meta").unwrap();
        let err = find(&dir, 1).unwrap_err().to_string();
        assert!(err.contains("several runtimes"), "{err}");
        let _ = fs::remove_dir_all(&dir);
    }
}
