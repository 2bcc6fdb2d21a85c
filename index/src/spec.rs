//! One runtime's decoder: a registry loaded with that spec's metadata, with
//! the extrinsic and `System.Events` types resolved once.
//!
//! Built once per spec version and shared read-only by every decoding
//! thread: [`Registry`] is `Send + Sync` (its decode hook is `Send + Sync`
//! by trait bound) and decoding only borrows it through a
//! [`ferroscale_dynamic::Context`].

use std::fmt;
use std::sync::OnceLock;

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{Context, TypeIdx};
use ferroscale_metadata::{Metadata, TypeRef};

use crate::typed::direct::DirectPlan;
use crate::typed::Catalog;

/// Why a runtime's decoder could not be built.
#[derive(Debug)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// The decoder of one runtime (spec version).
#[derive(Debug)]
pub struct SpecDecoder {
    spec_version: u32,
    registry: Registry,
    extrinsic: TypeIdx,
    events: Option<TypeIdx>,
    /// The typed tables' definitions, built the first time they are asked for.
    pub(crate) typed: OnceLock<Catalog>,
    /// The typed tables' decode plans, built with them.
    pub(crate) direct: OnceLock<DirectPlan>,
}

// Decoding threads share one decoder per spec by reference.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<SpecDecoder>();
};

impl SpecDecoder {
    /// A decoder for runtime metadata `bytes` (V14 or later: the extrinsic
    /// and event types come from its portable registry). The spec version
    /// is read from the metadata's `System.Version` constant; accounts
    /// render in SS58 with `ss58_format`, or else the chain's own
    /// `System.SS58Prefix`.
    pub fn from_metadata(bytes: &[u8], ss58_format: Option<u16>) -> Result<Self, SpecError> {
        let md = Metadata::load(bytes).map_err(|e| SpecError(format!("metadata: {e}")))?;
        if md.version < 14 {
            return Err(SpecError(format!(
                "metadata V{} has no portable registry; the indexer reads V14 and later",
                md.version
            )));
        }
        let spec_version = md
            .runtime_version
            .as_ref()
            .map(|v| v.spec_version)
            .ok_or_else(|| SpecError("metadata has no System.Version constant".into()))?;
        let mut registry = Registry::new();
        registry
            .load_metadata(bytes)
            .map_err(|e| SpecError(format!("spec {spec_version}: loading metadata: {e}")))?;
        registry.set_ss58_format(ss58_format.or_else(|| ss58_prefix(&md)));
        let extrinsic = registry
            .resolve("Extrinsic")
            .map_err(|e| SpecError(format!("spec {spec_version}: Extrinsic type: {e}")))?;
        let events = match events_type(&md) {
            Some(id) => Some(
                registry
                    .resolve(&format!("scale_info::{id}"))
                    .map_err(|e| {
                        SpecError(format!("spec {spec_version}: System.Events type: {e}"))
                    })?,
            ),
            None => None,
        };
        Ok(SpecDecoder {
            spec_version,
            registry,
            extrinsic,
            events,
            typed: OnceLock::new(),
            direct: OnceLock::new(),
        })
    }

    /// The spec version this decoder is for.
    pub fn spec_version(&self) -> u32 {
        self.spec_version
    }

    /// The decoding context (graph, runtime, SS58 format). Extrinsics'
    /// calls get no `call_hash`: no table shows it (`calls` holds nested
    /// calls, which keep theirs), and it is a hash over the whole call.
    pub fn context(&self) -> Context<'_> {
        Context {
            extrinsic_call_hash: false,
            ..self.registry.context()
        }
    }

    /// The node extrinsics decode as.
    pub fn extrinsic_type(&self) -> TypeIdx {
        self.extrinsic
    }

    /// The node of the `System.Events` value, if the runtime has that storage item.
    pub fn events_type(&self) -> Option<TypeIdx> {
        self.events
    }

    /// The typed tables of this runtime (a table per event variant and per
    /// call), built on first use.
    pub fn typed_tables(&self) -> &Catalog {
        self.typed
            .get_or_init(|| Catalog::new(&self.registry, self.spec_version))
    }

    /// The plans that read events and calls from their bytes into the
    /// typed tables' rows ([`crate::typed::direct`]), built on first use.
    pub(crate) fn direct_plan(&self) -> &DirectPlan {
        self.direct
            .get_or_init(|| DirectPlan::new(&self.registry, self.events, self.typed_tables()))
    }

    /// The registry (read-only).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }
}

/// The registry id of `System.Events`' value type.
fn events_type(md: &Metadata) -> Option<u32> {
    let system = md.pallets.iter().find(|p| p.name == "System")?;
    let entry = system
        .storage
        .as_ref()?
        .entries
        .iter()
        .find(|e| e.name == "Events")?;
    match entry.value {
        TypeRef::Id(id) => Some(id),
        TypeRef::Name(_) => None,
    }
}

/// The chain's `System.SS58Prefix` constant (a `u16`, or a `u8` in early runtimes).
fn ss58_prefix(md: &Metadata) -> Option<u16> {
    let system = md.pallets.iter().find(|p| p.name == "System")?;
    let c = system.constants.iter().find(|c| c.name == "SS58Prefix")?;
    match c.value.as_slice() {
        [lo, hi] => Some(u16::from_le_bytes([*lo, *hi])),
        [b] => Some(*b as u16),
        _ => None,
    }
}
