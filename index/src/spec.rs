//! One runtime's decoder: a registry loaded with that spec's metadata, with
//! the extrinsic and `System.Events` types resolved once.
//!
//! Built once per spec version and shared read-only by every decoding
//! thread: [`Registry`] is `Send + Sync` (its decode hook is `Send + Sync`
//! by trait bound) and decoding only borrows it through a
//! [`ferroscale_dynamic::Context`].

use std::fmt;
use std::path::PathBuf;
use std::sync::OnceLock;

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::runtime::convert_type_string;
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

/// The type-registry presets runtimes' decoders are built with (none:
/// V14+ metadata only, which describes its own types).
#[derive(Debug, Default)]
pub struct Presets {
    /// Preset names, in order.
    pub names: Vec<String>,
    /// Their folder (else the configured one:
    /// [`ferroscale_dynamic::preset::presets_dir`]).
    pub dir: Option<PathBuf>,
}

impl Presets {
    /// The decoder of runtime metadata `bytes` with these presets.
    pub fn decoder(
        &self,
        bytes: &[u8],
        ss58_format: Option<u16>,
    ) -> Result<SpecDecoder, SpecError> {
        if self.names.is_empty() {
            return SpecDecoder::from_metadata(bytes, ss58_format);
        }
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        let registry = match &self.dir {
            Some(dir) => Registry::with_presets_from(dir, &names),
            None => Registry::with_presets(&names),
        }
        .map_err(|e| SpecError(format!("presets: {e}")))?;
        SpecDecoder::with_registry(bytes, registry, ss58_format)
    }
}

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
    /// `System.SS58Prefix`. Legacy metadata (V9–V13) needs type
    /// definitions: see [`SpecDecoder::with_presets`].
    pub fn from_metadata(bytes: &[u8], ss58_format: Option<u16>) -> Result<Self, SpecError> {
        let md = Metadata::load(bytes).map_err(|e| SpecError(format!("metadata: {e}")))?;
        if md.version < 14 {
            return Err(SpecError(format!(
                "metadata V{} has no portable registry: its type strings need the chain's \
                 type-registry presets (for Polkadot: core, legacy, polkadot)",
                md.version
            )));
        }
        Self::build(md, bytes, Registry::new(), ss58_format)
    }

    /// A decoder for runtime metadata `bytes` of any version V9–V16 whose
    /// type strings resolve through the type-registry presets `presets`
    /// (py-scale-codec's, in order: `["core", "legacy", "polkadot"]` for a
    /// Polkadot runtime of before V14), at the metadata's spec version. For
    /// V14 and later the metadata's own registry describes the runtime, as
    /// with [`SpecDecoder::from_metadata`].
    pub fn with_presets(
        bytes: &[u8],
        presets: &[&str],
        ss58_format: Option<u16>,
    ) -> Result<Self, SpecError> {
        let registry =
            Registry::with_presets(presets).map_err(|e| SpecError(format!("presets: {e}")))?;
        Self::with_registry(bytes, registry, ss58_format)
    }

    /// [`SpecDecoder::with_presets`] over a registry of the caller's
    /// (presets from a folder of its choice, definitions of its own): the
    /// metadata `bytes` are loaded into `registry` at their spec version.
    pub fn with_registry(
        bytes: &[u8],
        registry: Registry,
        ss58_format: Option<u16>,
    ) -> Result<Self, SpecError> {
        let md = Metadata::load(bytes).map_err(|e| SpecError(format!("metadata: {e}")))?;
        Self::build(md, bytes, registry, ss58_format)
    }

    /// The decoder of `md` (read from `bytes`) over `registry`.
    fn build(
        md: Metadata,
        bytes: &[u8],
        mut registry: Registry,
        ss58_format: Option<u16>,
    ) -> Result<Self, SpecError> {
        let spec_version = md
            .runtime_version
            .as_ref()
            .map(|v| v.spec_version)
            .ok_or_else(|| SpecError("metadata has no System.Version constant".into()))?;
        // a legacy runtime's type strings mean what its spec's definitions say
        registry.set_active_spec_version_id(spec_version.into());
        registry
            .load_metadata(bytes)
            .map_err(|e| SpecError(format!("spec {spec_version}: loading metadata: {e}")))?;
        registry.set_ss58_format(ss58_format.or_else(|| ss58_prefix(&md)));
        let extrinsic = registry
            .resolve("Extrinsic")
            .map_err(|e| SpecError(format!("spec {spec_version}: Extrinsic type: {e}")))?;
        let events = match events_type(&md) {
            Some(ty) => Some(registry.resolve(&ty).map_err(|e| {
                SpecError(format!("spec {spec_version}: System.Events type {ty}: {e}"))
            })?),
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
    /// typed tables' rows (`typed::direct`), built on first use.
    pub(crate) fn direct_plan(&self) -> &DirectPlan {
        self.direct
            .get_or_init(|| DirectPlan::new(&self.registry, self.events, self.typed_tables()))
    }

    /// The registry (read-only).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }
}

/// The type string of `System.Events`' value: `scale_info::<id>` (V14+),
/// or the type string legacy metadata names, as py-scale-codec converts it.
fn events_type(md: &Metadata) -> Option<String> {
    let system = md.pallets.iter().find(|p| p.name == "System")?;
    let entry = system
        .storage
        .as_ref()?
        .entries
        .iter()
        .find(|e| e.name == "Events")?;
    Some(match &entry.value {
        TypeRef::Id(id) => format!("scale_info::{id}"),
        TypeRef::Name(name) => convert_type_string(name),
    })
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
