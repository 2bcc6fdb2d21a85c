//! Every V14+ metadata fixture of the manifest has its constants and storage
//! defaults round-tripped somewhere: by a test target of this crate (chains
//! expanded by the proc-macro) or by `ferroscale-tests` (the shipped
//! chains and spec 9180). A fixture added to the manifest fails this test
//! until a round-trip covers it.

use std::path::Path;

/// The sources of the round-trip tests, as text.
fn roundtrip_test_sources() -> Vec<(String, String)> {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(crate_dir.join("tests"))
        .expect("tests/ is readable")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs") && !p.ends_with("coverage.rs"))
        .collect();
    files.push(crate_dir.join("../tests/metadata_values.rs"));
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
            (p.display().to_string(), text)
        })
        .collect()
}

#[test]
fn every_v14_plus_fixture_is_round_tripped() {
    let sources = roundtrip_test_sources();
    let mut missing = Vec::new();
    let mut covered = 0;
    for entry in ferroscale_fixtures::entries_under("metadata") {
        let bytes = ferroscale_fixtures::read(entry.name);
        if bytes.get(4).copied().unwrap_or(0) < 14 {
            continue;
        }
        let quoted = format!("\"{}\"", entry.name);
        // Named next to a call of a round-trip checker.
        let used = sources
            .iter()
            .any(|(_, text)| text.contains(&quoted) && text.contains("check_chain("));
        if used {
            covered += 1;
        } else {
            missing.push(entry.name);
        }
    }
    assert!(
        missing.is_empty(),
        "V14+ fixtures whose constants and storage defaults no test round-trips: {missing:?}"
    );
    assert!(
        covered >= 16,
        "only {covered} V14+ fixtures in the manifest"
    );
}
