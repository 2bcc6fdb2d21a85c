//! The chain registries the dynamic decoder is fuzzed against: Polkadot,
//! Kusama and Bittensor (V14 and V15 each) and Asset Hub (V16), imported once
//! per process from the fixture files (`$FERROSCALE_FIXTURES` or
//! `../shared/fixtures`).

use std::sync::OnceLock;

use ferroscale_dynamic::portable::{import_metadata_bytes, ImportedMetadata};
use ferroscale_dynamic::{Node, Special, TypeGraph, TypeIdx};

/// The metadata fixtures whose registries are fuzzed, in selector order.
pub const REGISTRY_FIXTURES: [&str; 7] = [
    "metadata/polkadot-v14-spec9180.scale",
    "metadata/polkadot-v15-spec1001002.scale",
    "metadata/kusama-v14-spec9111.scale",
    "metadata/kusama-v15-spec1001002.scale",
    "metadata/bittensor-v14-spec329.scale",
    "metadata/subtensor-v15-spec343.scale",
    "metadata/statemint-v16-spec2000003-small.scale",
];

/// One imported registry.
pub struct Registry {
    /// The fixture it came from.
    pub name: &'static str,
    /// Every node: the registry's, the importer's auxiliary nodes, and
    /// [`Registry::extrinsic`].
    pub graph: TypeGraph,
    /// Types and runtime context (calls, events, extrinsic format).
    pub imported: ImportedMetadata,
    /// A node decoding a whole extrinsic (py-scale-codec's `Extrinsic`), which
    /// a portable registry has no id for.
    pub extrinsic: TypeIdx,
}

/// Every registry of [`REGISTRY_FIXTURES`], imported on first use.
///
/// # Panics
/// When a fixture is missing or does not import: the harness cannot run
/// without its registries, and saying so loudly beats fuzzing nothing.
pub fn all() -> &'static [Registry] {
    static ALL: OnceLock<Vec<Registry>> = OnceLock::new();
    ALL.get_or_init(|| REGISTRY_FIXTURES.iter().map(|name| load(name)).collect())
}

fn load(name: &'static str) -> Registry {
    let bytes = ferroscale_fixtures::read(name);
    let mut graph = TypeGraph::new();
    let imported = import_metadata_bytes(&mut graph, &bytes)
        .unwrap_or_else(|e| panic!("fuzz registry {name} does not import: {e}"));
    let extrinsic = graph.add(Node::Special(Special::Extrinsic), None);
    Registry {
        name,
        graph,
        imported,
        extrinsic,
    }
}
