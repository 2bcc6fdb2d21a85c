//! The fixtures manifest's `chain` and `spec` columns (`fixtures/manifest.tsv`)
//! say what each metadata file records about its runtime: where the metadata
//! holds `System.Version`, the chain is its `spec_name` and the spec its
//! `spec_version`; a `-specNNN` in a file name agrees with the spec column.

use ferroscale_metadata::Metadata;

/// The `NNN` of `…-specNNN…` in a fixture name.
fn spec_in_name(name: &str) -> Option<u32> {
    let rest = &name[name.find("-spec")? + 5..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[test]
fn chain_and_spec_columns_match_the_metadata_files() {
    let mut failures = Vec::new();
    for entry in ferroscale_fixtures::entries_under("metadata") {
        let bytes = ferroscale_fixtures::read(entry.name);
        let metadata =
            Metadata::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        if let Some(version) = &metadata.runtime_version {
            let recorded = (version.spec_name.as_str(), Some(version.spec_version));
            if (entry.chain, entry.spec) != recorded {
                failures.push(format!(
                    "{}: the manifest says ({}, {:?}), the metadata records {recorded:?}",
                    entry.name, entry.chain, entry.spec
                ));
            }
        }
        if let Some(named) = spec_in_name(entry.name) {
            if entry.spec != Some(named) {
                failures.push(format!(
                    "{}: the name says spec {named}, the manifest {:?}",
                    entry.name, entry.spec
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn payloads_name_a_runtime_the_manifest_lists() {
    // A payload of a known spec decodes against that runtime's metadata file.
    for entry in ferroscale_fixtures::entries_under("payloads") {
        let Some(spec) = entry.spec else { continue };
        let runtime = ferroscale_fixtures::entries_under("metadata")
            .into_iter()
            .find(|m| m.chain == entry.chain && m.spec == Some(spec));
        assert!(
            runtime.is_some(),
            "{}: no metadata file of {} spec {spec} in the manifest",
            entry.name,
            entry.chain
        );
    }
}
