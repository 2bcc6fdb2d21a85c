//! subxt's synthetic V15 blob: no pallets, a 7-type registry and custom
//! values (a `Foo { a: u8, b: &str }` struct and others, plus one whose type
//! id points outside the registry). Every custom value with a type decodes
//! with the types the proc-macro generates from the fixture and re-encodes to
//! its bytes.

#[ferroscale_macros::runtime(
    fixture = "metadata/custom-values-v15.scale",
    crate = "::ferroscale_runtime_types",
    roundtrip = true
)]
mod chain {}

#[test]
fn custom_values_roundtrip_with_generated_types() {
    let counts = ferroscale_fixture_chains::check_chain(
        "metadata/custom-values-v15.scale",
        chain::roundtrip_type,
    );
    // The blob has nothing else: the custom values are what this test proves.
    assert!(counts.custom_values > 0, "{counts:?}");
    assert_eq!(counts.constants + counts.storage_entries(), 0, "{counts:?}");
}
