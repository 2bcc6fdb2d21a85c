//! The `named` target's registries and items: what a client reaches by name
//! on today's runtimes — runtime API results and view function answers
//! (V15/V16), storage keys read back for map iteration, and whole extrinsics
//! of formats 4 and 5 — over the V16 metadata of Polkadot 2003000 and
//! Polkadot Asset Hub 2003001 (the view functions), each loaded once per
//! process into a dynamic `Registry`.

use std::sync::{Mutex, OnceLock};

use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::Metadata;

/// The fixtures, in selector order.
pub const NAMED_FIXTURES: [&str; 2] = [
    "metadata/polkadot-v16-spec2003000.scale",
    "metadata/asset-hub-polkadot-v16-spec2003001.scale",
];

/// One runtime and the names it lists.
pub struct Named {
    /// The fixture it came from.
    pub name: &'static str,
    /// The registry (behind a lock: look-ups by name take `&mut`).
    pub registry: Mutex<Registry>,
    /// Runtime API methods: (trait, method).
    pub apis: Vec<(String, String)>,
    /// View functions: (pallet, name).
    pub view_functions: Vec<(String, String)>,
    /// Storage maps: (pallet, entry, the entry's 32-byte prefix).
    pub maps: Vec<(String, String, [u8; 32])>,
}

/// Every runtime of [`NAMED_FIXTURES`], loaded on first use.
///
/// # Panics
/// When a fixture is missing or does not load (the target cannot run
/// without them).
pub fn all() -> &'static [Named] {
    static ALL: OnceLock<Vec<Named>> = OnceLock::new();
    ALL.get_or_init(|| NAMED_FIXTURES.iter().map(|f| load(f)).collect())
}

fn load(name: &'static str) -> Named {
    let bytes = ferroscale_fixtures::read(name);
    let md = Metadata::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut registry = Registry::new();
    registry
        .load_metadata(&bytes)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let apis = md
        .apis
        .iter()
        .flat_map(|a| a.methods.iter().map(|m| (a.name.clone(), m.name.clone())))
        .collect();
    let view_functions = md
        .pallets
        .iter()
        .flat_map(|p| {
            p.view_functions
                .iter()
                .map(|f| (p.name.clone(), f.name.clone()))
        })
        .collect();
    let maps = md
        .pallets
        .iter()
        .flat_map(|p| {
            let prefix = p
                .storage
                .as_ref()
                .map(|s| s.prefix.clone())
                .unwrap_or_default();
            p.storage_entries()
                .iter()
                .filter(|e| e.is_map())
                .map(move |e| {
                    let key = ferroscale_core::hashing::storage_prefix(&prefix, &e.name);
                    (p.name.clone(), e.name.clone(), key)
                })
        })
        .collect();
    Named {
        name,
        registry: Mutex::new(registry),
        apis,
        view_functions,
        maps,
    }
}
