//! The registry: type strings → [`TypeIdx`] nodes of one [`TypeGraph`].
//!
//! It combines, in py-scale-codec's order of precedence:
//! 1. `scale_info::N` and registry path names of an imported V14+ portable
//!    registry ([`Registry::load_metadata`]);
//! 2. definitions from presets ([`Registry::update`], later ones override
//!    earlier ones, spec-version switching with
//!    [`Registry::set_active_spec_version_id`]);
//! 3. py-scale-codec's built-in classes (`u32`, `Bytes`, `Vec<T>`,
//!    `GenericAccountId` …) and, failing everything else, a few names py-scale-codec
//!    only knows from `core.json` (`AccountId`, `Call`, `Text` …).
//!
//! Every distinct type string is parsed and compiled once; the result is
//! cached by the raw string and by its canonical form until definitions
//! change. Recursive definitions are compiled through placeholder nodes
//! ([`crate::graph::Node::Unresolved`]) patched in place; alias cycles
//! (`A → B → A`) are errors that list the chain.
//!
//! Aliases are resolved when used, not when defined (py-scale-codec resolves
//! them eagerly): for the shipped presets both give the same types; with
//! lazy resolution a forward reference in a preset works instead of silently
//! resolving to nothing.

mod builtins;
mod legacy;
mod metadata_types;
mod named;
mod resolve;
mod runtime_api;
mod transaction;

use std::collections::HashMap;
use std::sync::Arc;

use ferroscale_value::Value;

use crate::context::Context;
use crate::decode::decode_value;
use crate::encode::encode_value;
use crate::error::Error;
use crate::graph::{TypeGraph, TypeIdx};
use crate::hook::{DecodeHook, HookFactory};
use crate::portable::PortableTypes;
use crate::preset::{Definitions, Preset, TypeDefs};
use crate::runtime::Runtime;

pub use builtins::{builtin, Builtin};
pub use legacy::{legacy_runtime, legacy_signed_extension, LEGACY_SIGNED_EXTENSIONS};
pub use metadata_types::{
    compile_core_preset, definitions_registry, install_core_preset, metadata_types,
    METADATA_VERSIONS, NEWER_METADATA_TYPES,
};
pub use named::{events_named, StorageKeyPart};
pub use runtime_api::{CallSignature, RuntimeApiCall, ViewFunctionCall};

/// Type strings resolved to graph nodes, over presets and portable registries.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    graph: TypeGraph,
    defs: Definitions,
    /// Canonical key (lower-cased) → node; valid for `cache_generation`.
    cache: HashMap<String, TypeIdx>,
    /// Type string exactly as given → node (skips parsing); same validity.
    strings: HashMap<String, TypeIdx>,
    cache_generation: u64,
    /// Built-in nodes (`u32`, `Bytes` …), independent of definitions.
    builtin_nodes: HashMap<String, TypeIdx>,
    portable: Option<PortableTypes>,
    runtime: Option<Runtime>,
    /// Nodes standing for names that could not be found: (name, why).
    unknown_nodes: HashMap<TypeIdx, (String, String)>,
    ss58_format: Option<u16>,
    /// What builds a decode hook for each portable registry ([`crate::hook`]).
    hook_factory: Option<Arc<dyn HookFactory>>,
    /// The hook built for the loaded portable registry.
    hook: Option<Arc<dyn DecodeHook>>,
    /// The loaded metadata (storage entries and constants by name, [`named`]).
    metadata: Option<Arc<ferroscale_metadata::Metadata>>,
    /// Runtime API methods already resolved, by trait then method (a
    /// look-up by name costs two hash probes instead of building the
    /// signature again); emptied whenever the metadata or registry changes.
    runtime_api_calls: HashMap<String, HashMap<String, Arc<runtime_api::RuntimeApiCall>>>,
    /// The loaded runtime's spec and transaction versions, once read
    /// ([`Registry::runtime_versions`]); emptied with the metadata.
    runtime_versions: Option<(u32, u32)>,
    /// V14+ metadata imported into `graph`, by the model it was read from.
    /// Loading the same model again reuses its nodes: a client's
    /// `init_runtime` clears the registry and loads its runtime's metadata
    /// on every switch, and each import added another copy of the whole
    /// portable registry to the graph, which only grows (about 0.4 MiB per
    /// Polkadot runtime load). `Weak`, so that a model dropped elsewhere is
    /// not kept alive here (its nodes stay, as every node does).
    imported: Vec<(
        std::sync::Weak<ferroscale_metadata::Metadata>,
        crate::portable::ImportedMetadata,
    )>,
}

/// The registry id of `System.Events`' element type (`Vec<EventRecord<…>>`).
fn event_record_id(md: &ferroscale_metadata::Metadata) -> Option<u32> {
    let events = md.storage_entry("System", "Events")?.1;
    let seq = md.types.as_ref()?.resolve(events.value.id()?)?;
    match &seq.type_def {
        scale_info::TypeDef::Sequence(s) => Some(s.type_param.id),
        _ => None,
    }
}

impl Registry {
    /// A registry that knows py-scale-codec's built-in classes only.
    pub fn new() -> Self {
        Self::default()
    }

    /// A registry with shipped presets loaded in order (e.g. `["core",
    /// "legacy", "polkadot"]`), found at run time by
    /// [`crate::preset::presets_dir`] (`$FERROSCALE_PRESETS_DIR` or
    /// [`crate::preset::set_presets_dir`]).
    pub fn with_presets(names: &[&str]) -> Result<Self, Error> {
        let mut registry = Registry::new();
        for name in names {
            registry.update(&Preset::named(name)?);
        }
        Ok(registry)
    }

    /// [`Registry::with_presets`] from the folder `dir`.
    pub fn with_presets_from(
        dir: impl AsRef<std::path::Path>,
        names: &[&str],
    ) -> Result<Self, Error> {
        let mut registry = Registry::new();
        for name in names {
            registry.update(&Preset::named_in(dir.as_ref(), name)?);
        }
        Ok(registry)
    }

    /// Loads a preset on top of the current definitions (`update_type_registry`).
    pub fn update(&mut self, preset: &Preset) {
        self.defs.update(preset);
    }

    /// Adds or overrides definitions (`update_type_registry_types`).
    pub fn update_types(&mut self, types: &TypeDefs) {
        self.defs.update_types(types);
    }

    /// Adds or overrides definitions given as a JSON `types` object.
    pub fn update_types_json(&mut self, json: &str) -> Result<(), Error> {
        let types = Preset::types_from_json_str(json)?;
        self.update_types(&types);
        Ok(())
    }

    /// Forgets every definition, the portable registry and the runtime
    /// (`clear_type_registry`). Nodes already built stay in the graph (indices
    /// handed out remain valid) but are no longer reachable by name.
    pub fn clear(&mut self) {
        self.defs.clear();
        self.portable = None;
        self.runtime = None;
        self.metadata = None;
        self.runtime_api_calls.clear();
        self.hook = None;
        self.cache.clear();
        self.strings.clear();
    }

    /// Switches to spec version `spec`, applying the versioning entries that cover it.
    pub fn set_active_spec_version_id(&mut self, spec: u64) {
        self.defs.set_active_spec_version_id(spec);
    }

    /// The active spec version.
    pub fn active_spec_version_id(&self) -> Option<u64> {
        self.defs.active_spec_version_id()
    }

    /// Forgets the active spec version; what its versioning applied stays.
    pub fn clear_active_spec_version_id(&mut self) {
        self.defs.clear_active_spec_version_id();
    }

    /// The spec version at `block` from the preset's `runtime_upgrades`.
    pub fn get_runtime_id_from_upgrades(&self, block: u64) -> Option<u64> {
        self.defs.get_runtime_id_from_upgrades(block)
    }

    /// The merged preset definitions.
    pub fn definitions(&self) -> &Definitions {
        &self.defs
    }

    /// Mutable access to the merged definitions (runtime-upgrade head etc.).
    pub fn definitions_mut(&mut self) -> &mut Definitions {
        &mut self.defs
    }

    /// The type graph.
    pub fn graph(&self) -> &TypeGraph {
        &self.graph
    }

    /// The imported portable registry, if any.
    pub fn portable(&self) -> Option<&PortableTypes> {
        self.portable.as_ref()
    }

    /// The active runtime (calls, events, extrinsic format), if metadata was loaded.
    pub fn runtime(&self) -> Option<&Runtime> {
        self.runtime.as_ref()
    }

    /// Sets the SS58 format account ids render in (`None`: `"0x…"` hex).
    pub fn set_ss58_format(&mut self, format: Option<u16>) {
        self.ss58_format = format;
    }

    /// The SS58 format account ids render in.
    pub fn ss58_format(&self) -> Option<u16> {
        self.ss58_format
    }

    /// Attaches what builds a decode hook ([`crate::hook`]) for every V14+
    /// metadata (or bare portable registry) loaded from now on, replacing
    /// any factory attached before; e.g. `ferroscale-typed-fallback`, which
    /// decodes through generated chain types. Attach before
    /// [`Registry::load_metadata`].
    pub fn attach_hook_factory(&mut self, factory: Arc<dyn HookFactory>) {
        self.hook_factory = Some(factory);
    }

    /// The attached hook factory, if any.
    pub fn hook_factory(&self) -> Option<&Arc<dyn HookFactory>> {
        self.hook_factory.as_ref()
    }

    /// The hook built for the loaded portable registry, if a factory is
    /// attached and offered one.
    pub fn decode_hook(&self) -> Option<&Arc<dyn DecodeHook>> {
        self.hook.as_ref()
    }

    /// The decoding context: graph, runtime, ss58 format and decode hook.
    pub fn context(&self) -> Context<'_> {
        let ctx = Context::new(&self.graph)
            .with_ss58(self.ss58_format)
            .with_hook(self.hook.as_deref())
            .with_metadata_types(metadata_types);
        match &self.runtime {
            Some(rt) => ctx.with_runtime(rt),
            None => ctx,
        }
    }

    /// Loads runtime metadata: V9–V13 in any framing
    /// [`ferroscale_metadata::Metadata::load`] accepts (read once, into
    /// core's model). V14+ imports the portable registry (`scale_info::N`, path
    /// names, and py-scale-codec's `Address`/`AccountId`/`LookupSource`/
    /// `ExtrinsicSignature` aliases onto it); V9–V13 builds the calls and
    /// events tables with argument types resolved through this registry's
    /// presets (so load the presets and set the spec version first).
    ///
    /// An already loaded [`ferroscale_metadata::Metadata`] goes through
    /// [`Registry::from_metadata`] / [`Registry::load_metadata_model`].
    pub fn load_metadata(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let md = ferroscale_metadata::Metadata::load(bytes)?;
        self.load_model(Arc::new(md))
    }

    fn load_model(&mut self, md: Arc<ferroscale_metadata::Metadata>) -> Result<(), Error> {
        if md.version >= 14 {
            self.load_portable_metadata(&md)?;
        } else {
            let runtime = legacy::legacy_runtime(self, &md)?;
            self.runtime = Some(runtime);
        }
        self.metadata = Some(md);
        self.runtime_api_calls.clear();
        self.runtime_versions = None;
        Ok(())
    }

    fn load_portable_metadata(
        &mut self,
        md: &Arc<ferroscale_metadata::Metadata>,
    ) -> Result<(), Error> {
        let imported = self.import_once(md)?;
        // The registry the core model already holds: no second decode.
        self.hook = md
            .types
            .as_ref()
            .and_then(|registry| self.build_hook(&imported.types, registry));
        let base = imported.types.base;
        let id_of = |idx: Option<TypeIdx>| idx.map(|i| i.0 - base);
        let x = &imported.runtime.extrinsic;
        let mut aliases: TypeDefs = Vec::new();
        let alias = |name: &str, id: u32| {
            (
                name.to_string(),
                crate::preset::Definition::Alias(format!("scale_info::{id}")),
            )
        };
        if let Some(address) = id_of(x.address) {
            aliases.push(alias("Address", address));
            aliases.push(alias("LookupSource", address));
            aliases.push(alias("AccountId", id_of(x.account_id).unwrap_or(address)));
        }
        if let Some(signature) = id_of(x.signature) {
            aliases.push(alias("ExtrinsicSignature", signature));
        }
        // py-scale-codec's habit `Vec<EventRecord>`: the element type of
        // `System.Events`, whatever its path in this runtime.
        if let Some(record) = event_record_id(md) {
            aliases.push(alias("EventRecord", record));
        }
        self.portable = Some(imported.types);
        self.runtime = Some(imported.runtime);
        self.defs.update_types(&aliases);
        Ok(())
    }

    /// `md` imported into the graph: the nodes of an earlier import of the
    /// same model when there was one (the import reads nothing but the
    /// model, so it would add the same nodes again).
    fn import_once(
        &mut self,
        md: &Arc<ferroscale_metadata::Metadata>,
    ) -> Result<crate::portable::ImportedMetadata, Error> {
        // A live `Weak` keeps its model's allocation, so no other model can
        // share its address; dead ones are dropped first.
        self.imported.retain(|(model, _)| model.strong_count() > 0);
        if let Some((_, imported)) = self
            .imported
            .iter()
            .find(|(model, _)| std::ptr::eq(model.as_ptr(), Arc::as_ptr(md)))
        {
            return Ok(imported.clone());
        }
        let imported = crate::portable::import_metadata(&mut self.graph, md)?;
        self.imported.push((Arc::downgrade(md), imported.clone()));
        Ok(imported)
    }

    /// Imports a bare portable registry (no pallets, no runtime), as
    /// py-scale-codec's `update_from_scale_info_types` does: `scale_info::N`
    /// and registry path names resolve against it from now on (a portable
    /// registry imported before is replaced; the runtime is kept).
    pub fn load_portable_registry(
        &mut self,
        registry: &scale_info::PortableRegistry,
    ) -> Result<(), Error> {
        let types = crate::portable::import_registry(&mut self.graph, registry, "scale_info")?;
        self.hook = self.build_hook(&types, registry);
        self.portable = Some(types);
        self.runtime_api_calls.clear();
        // Cached resolutions may name types of the previous registry.
        self.cache.clear();
        self.strings.clear();
        Ok(())
    }

    /// The attached factory's hook for a portable registry just imported as `types`.
    fn build_hook(
        &self,
        types: &PortableTypes,
        registry: &scale_info::PortableRegistry,
    ) -> Option<Arc<dyn DecodeHook>> {
        self.hook_factory
            .as_ref()?
            .build(&self.graph, types, registry)
    }

    /// Installs a runtime built elsewhere (e.g. by [`legacy_runtime`]).
    pub fn set_runtime(&mut self, runtime: Option<Runtime>) {
        self.runtime = runtime;
    }

    /// Decodes all of `bytes` as `type_string` (trailing bytes are an error,
    /// as py-scale-codec's `RemainingScaleBytesNotEmptyException`).
    pub fn decode(&mut self, type_string: &str, bytes: &[u8]) -> Result<Value, Error> {
        let ty = self.resolve(type_string)?;
        decode_value(&self.context(), ty, bytes)
    }

    /// Encodes `value` as `type_string`.
    pub fn encode(&mut self, type_string: &str, value: &Value) -> Result<Vec<u8>, Error> {
        let ty = self.resolve(type_string)?;
        encode_value(&self.context(), ty, value)
    }

    /// Decodes `byte_strings[i]` as `type_strings[i]` for every `i`, resolving
    /// each distinct type string once. Each item gets exactly the value or
    /// error one-by-one [`Registry::decode`] would give; the lengths must match.
    pub fn batch_decode<T: AsRef<str>, B: AsRef<[u8]>>(
        &mut self,
        type_strings: &[T],
        byte_strings: &[B],
    ) -> Result<Vec<Result<Value, Error>>, Error> {
        if type_strings.len() != byte_strings.len() {
            return Err(Error::Usage(format!(
                "batch_decode: {} type strings but {} byte strings",
                type_strings.len(),
                byte_strings.len()
            )));
        }
        let mut resolved: HashMap<&str, Result<TypeIdx, Error>> = HashMap::new();
        for t in type_strings {
            let t = t.as_ref();
            if !resolved.contains_key(t) {
                let r = self.resolve(t);
                resolved.insert(t, r);
            }
        }
        let ctx = self.context();
        Ok(type_strings
            .iter()
            .zip(byte_strings)
            .map(|(t, bytes)| match &resolved[t.as_ref()] {
                Ok(ty) => decode_value(&ctx, *ty, bytes.as_ref()),
                Err(e) => Err(e.clone()),
            })
            .collect())
    }
}
