//! Shared helpers of the dynamic-layer tests: metadata fixtures, their
//! constants and storage defaults.
#![allow(dead_code)]

use ferroscale_dynamic::portable::{decode_metadata, import_metadata, ImportedMetadata};
use ferroscale_dynamic::{Node, TypeGraph, TypeIdx};
use frame_metadata::RuntimeMetadata;

/// One constant value or storage default of a metadata fixture.
pub struct Item {
    pub what: String,
    pub ty: TypeIdx,
    pub bytes: Vec<u8>,
}

/// A metadata fixture imported into its own graph.
pub struct Loaded {
    pub name: String,
    pub graph: TypeGraph,
    pub imported: ImportedMetadata,
    pub items: Vec<Item>,
}

/// Every V14+ metadata fixture (names from the manifest).
pub fn portable_fixtures() -> Vec<String> {
    ferroscale_fixtures::entries_under("metadata")
        .iter()
        .map(|e| e.name.to_string())
        .filter(|n| {
            [
                "-v14",
                "-v15",
                "-v16",
                "custom-values-v15",
                "frontier-template-v15",
            ]
            .iter()
            .any(|v| n.contains(v))
        })
        .collect()
}

/// Imports `name` and lists its constants and storage defaults (an
/// `Optional` storage default decodes as `Option<value>`).
pub fn load(name: &str) -> Loaded {
    let bytes = ferroscale_fixtures::read(name);
    let md = decode_metadata(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut graph = TypeGraph::new();
    let imported = import_metadata(&mut graph, &md.1).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut items = Vec::new();
    let mut push =
        |graph: &mut TypeGraph, what: String, id: u32, optional: bool, bytes: Vec<u8>| {
            let mut ty = imported.types.idx(id).expect("type id in range");
            if optional {
                ty = graph.add(Node::Option(ty), None);
            }
            items.push(Item { what, ty, bytes });
        };
    macro_rules! walk {
        ($m:expr, $optional:path) => {
            for p in &$m.pallets {
                for c in &p.constants {
                    push(
                        &mut graph,
                        format!("{}.{} (constant)", p.name, c.name),
                        c.ty.id,
                        false,
                        c.value.clone(),
                    );
                }
                if let Some(s) = &p.storage {
                    for e in &s.entries {
                        let id = match &e.ty {
                            frame_metadata::v14::StorageEntryType::Plain(t) => t.id,
                            frame_metadata::v14::StorageEntryType::Map { value, .. } => value.id,
                        };
                        let optional = matches!(e.modifier, $optional);
                        push(
                            &mut graph,
                            format!("{}.{} (storage default)", p.name, e.name),
                            id,
                            optional,
                            e.default.clone(),
                        );
                    }
                }
            }
        };
    }
    match &md.1 {
        RuntimeMetadata::V14(m) => walk!(m, frame_metadata::v14::StorageEntryModifier::Optional),
        RuntimeMetadata::V15(m) => walk!(m, frame_metadata::v14::StorageEntryModifier::Optional),
        RuntimeMetadata::V16(m) => walk!(m, frame_metadata::v14::StorageEntryModifier::Optional),
        _ => unreachable!("portable fixtures only"),
    }
    Loaded {
        name: name.to_string(),
        graph,
        imported,
        items,
    }
}
