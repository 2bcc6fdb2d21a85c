//! What generated runtime types record about the runtime they were made
//! from: its spec name and version, one hash for the whole runtime and one
//! per call, event, storage entry, constant, extrinsic part, runtime API
//! method (V15+) and view function (V16).
//!
//! Plain data, so that the generated modules (`ferroscale-runtime-types`)
//! can carry it without depending on the metadata model; the hashes are
//! computed and compared by `ferroscale_metadata::fingerprint`
//! (`Metadata::check`), which says which items differ before anything is
//! decoded with types made for another runtime.

use std::fmt;

/// The kinds of item a runtime fingerprint hashes one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemKind {
    /// A pallet's call (a variant of its `Call` enum, at its pallet index).
    Call,
    /// A pallet's event (a variant of its `Event` enum, at its pallet index).
    Event,
    /// A storage entry: prefix, hashers, key and value types.
    Storage,
    /// A constant's type (not its value: a new value decodes the same way).
    Constant,
    /// A part of the extrinsic format (`Address`, `Call`, `Signature`,
    /// `Extra`), under the pallet name `""`.
    Extrinsic,
    /// A runtime API method (V15+), under its trait's name in place of the
    /// pallet: parameter names and types, output type.
    RuntimeApi,
    /// A pallet's view function (V16): query id, parameter names and
    /// types, output type.
    ViewFunction,
}

impl ItemKind {
    /// Every kind, in the order the whole-runtime hash visits them.
    pub const ALL: [ItemKind; 7] = [
        ItemKind::Call,
        ItemKind::Event,
        ItemKind::Storage,
        ItemKind::Constant,
        ItemKind::Extrinsic,
        ItemKind::RuntimeApi,
        ItemKind::ViewFunction,
    ];

    /// The kind's position in [`ItemKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for ItemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ItemKind::Call => "call",
            ItemKind::Event => "event",
            ItemKind::Storage => "storage entry",
            ItemKind::Constant => "constant",
            ItemKind::Extrinsic => "extrinsic part",
            ItemKind::RuntimeApi => "runtime API",
            ItemKind::ViewFunction => "view function",
        })
    }
}

/// One item's hash: `(pallet, name, hash)`.
pub type ItemHash = (&'static str, &'static str, u128);

/// The fingerprint a generated module carries (`RUNTIME`): every list is
/// sorted by `(pallet, name)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeFingerprint {
    /// `spec_name` of the runtime (empty when its metadata had no `System.Version`).
    pub spec_name: &'static str,
    /// `spec_version` of the runtime (0 when its metadata had no `System.Version`).
    pub spec_version: u32,
    /// The hash of the whole runtime: every item below, in order.
    pub hash: u128,
    /// Calls.
    pub calls: &'static [ItemHash],
    /// Events.
    pub events: &'static [ItemHash],
    /// Storage entries.
    pub storage: &'static [ItemHash],
    /// Constants.
    pub constants: &'static [ItemHash],
    /// Extrinsic parts.
    pub extrinsic: &'static [ItemHash],
    /// Runtime API methods, as `(trait, method, hash)` (empty before V15).
    pub runtime_apis: &'static [ItemHash],
    /// View functions (empty before V16).
    pub view_functions: &'static [ItemHash],
}

impl RuntimeFingerprint {
    /// The items of one kind, sorted by `(pallet, name)`.
    pub fn items(&self, kind: ItemKind) -> &'static [ItemHash] {
        match kind {
            ItemKind::Call => self.calls,
            ItemKind::Event => self.events,
            ItemKind::Storage => self.storage,
            ItemKind::Constant => self.constants,
            ItemKind::Extrinsic => self.extrinsic,
            ItemKind::RuntimeApi => self.runtime_apis,
            ItemKind::ViewFunction => self.view_functions,
        }
    }

    /// The hash of one item, if the runtime has it.
    pub fn item(&self, kind: ItemKind, pallet: &str, name: &str) -> Option<u128> {
        let items = self.items(kind);
        items
            .binary_search_by(|&(p, n, _)| (p, n).cmp(&(pallet, name)))
            .ok()
            .map(|i| items[i].2)
    }
}

/// One item of a generated module's runtime, as a typed payload carries it
/// (a runtime API call, a view function query): the module's `RUNTIME` and
/// the item's kind and name, so that `ferroscale_metadata::Metadata::check_payload`
/// can say whether the item still fits a loaded runtime before it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeItem {
    /// The runtime the item was generated from.
    pub runtime: &'static RuntimeFingerprint,
    /// What it is.
    pub kind: ItemKind,
    /// Its pallet, or its trait for a runtime API method.
    pub pallet: &'static str,
    /// Its name.
    pub name: &'static str,
}

impl RuntimeItem {
    /// The item's hash in its runtime (`None` only for a hand-made item the
    /// runtime does not list).
    pub fn hash(&self) -> Option<u128> {
        self.runtime.item(self.kind, self.pallet, self.name)
    }
}
