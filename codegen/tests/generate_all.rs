//! Generation over every metadata fixture: V14+ blobs give parseable,
//! deterministic code; older ones and garbage give clear errors.

use ferroscale_codegen::{generate, render, CodegenError};

fn version_of(bytes: &[u8]) -> u8 {
    bytes.get(4).copied().unwrap_or(0)
}

#[test]
fn every_v14_plus_fixture_generates_parseable_deterministic_code() {
    let mut generated = 0;
    for entry in ferroscale_fixtures::entries_under("metadata") {
        let bytes = ferroscale_fixtures::read(entry.name);
        if version_of(&bytes) < 14 {
            continue;
        }
        let first = generate(&bytes).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        let text = render(&first.tokens).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        let again = render(&generate(&bytes).unwrap().tokens).unwrap();
        assert!(text == again, "{}: two generations differ", entry.name);
        assert!(first.definitions > 0 && text.contains("pub mod runtime_types"));
        generated += 1;
    }
    assert!(generated >= 15, "only {generated} V14+ fixtures");
}

#[test]
fn pre_v14_metadata_points_to_the_dynamic_layer() {
    let mut refused = 0;
    for entry in ferroscale_fixtures::entries_under("metadata") {
        let bytes = ferroscale_fixtures::read(entry.name);
        if version_of(&bytes) >= 14 {
            continue;
        }
        match generate(&bytes) {
            Err(e @ CodegenError::PreV14(_)) => {
                assert!(e.to_string().contains("dynamic layer"), "{e}");
                refused += 1;
            }
            other => panic!("{}: expected PreV14, got {other:?}", entry.name),
        }
    }
    assert!(refused >= 10, "only {refused} pre-V14 fixtures");
}

#[test]
fn garbage_and_truncated_metadata_are_errors() {
    assert!(matches!(generate(b""), Err(CodegenError::Decode(_))));
    assert!(matches!(
        generate(b"not metadata at all"),
        Err(CodegenError::Decode(_))
    ));
    let bytes = ferroscale_fixtures::read("metadata/polkadot-v15-spec1001002.scale");
    for cut in [5, 100, bytes.len() / 2, bytes.len() - 1] {
        assert!(generate(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut wrong_magic = bytes.clone();
    wrong_magic[0] = b'x';
    assert!(generate(&wrong_magic).is_err());
}

#[test]
fn a_registry_with_a_dangling_type_id_is_refused() {
    let json =
        r#"{"types":[{"id":0,"type":{"path":["A"],"def":{"composite":{"fields":[{"type":7}]}}}}]}"#;
    let input = ferroscale_codegen::input::from_registry_json(json).unwrap();
    let err = ferroscale_codegen::generate_from(&input).unwrap_err();
    assert!(err.to_string().contains("type id 7"), "{err}");
}

#[test]
fn a_type_containing_itself_through_anonymous_types_is_refused() {
    // Type 0 is a tuple holding a Vec of itself: no finite Rust spelling.
    let json = r#"{"types":[
        {"id":0,"type":{"def":{"tuple":[1]}}},
        {"id":1,"type":{"def":{"sequence":{"type":0}}}}
    ]}"#;
    let input = ferroscale_codegen::input::from_registry_json(json).unwrap();
    let err = ferroscale_codegen::generate_from(&input).unwrap_err();
    assert!(err.to_string().contains("anonymous"), "{err}");
}

/// `runtime_apis` is generated exactly for metadata that lists runtime APIs
/// (V15+; V14 has none), with one module per trait and one function per
/// method; `view_functions` exactly for pallets with view functions (V16).
#[test]
fn runtime_apis_and_view_functions_are_generated_from_v15_and_v16_only() {
    let (mut with_apis, mut v14) = (0, 0);
    for entry in ferroscale_fixtures::entries_under("metadata") {
        let bytes = ferroscale_fixtures::read(entry.name);
        if version_of(&bytes) < 14 {
            continue;
        }
        let md = ferroscale_metadata::Metadata::load(&bytes).unwrap();
        let text = render(&generate(&bytes).unwrap().tokens).unwrap();
        let methods: usize = md.apis.iter().map(|a| a.methods.len()).sum();
        let views: usize = md.pallets.iter().map(|p| p.view_functions.len()).sum();
        assert_eq!(
            text.contains("pub mod runtime_apis"),
            methods > 0,
            "{}",
            entry.name
        );
        assert_eq!(
            text.matches("RuntimeApiPayload::new(").count(),
            methods,
            "{}: one function per runtime API method",
            entry.name
        );
        assert_eq!(
            text.matches("ViewFunctionPayload::new(").count(),
            views,
            "{}: one function per view function",
            entry.name
        );
        if md.version == 14 {
            assert_eq!(methods, 0, "{}", entry.name);
            v14 += 1;
        }
        with_apis += usize::from(methods > 0);
    }
    assert!(
        with_apis >= 6 && v14 >= 5,
        "{with_apis} with APIs, {v14} V14"
    );
}
