//! What a registry holds (`RegistryState`) and the changes to it, reached
//! through [`super::PyRegistry::lock`]; the Python class itself is in the
//! parent module.

use ferroscale_dynamic::preset::Preset;
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{Error, TypeIdx};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use std::sync::Arc;

use crate::convert::sink::NameCache;
use crate::errors::{guard, to_py};

/// One input that changed the registry; replayed in order on unpickling.
#[derive(Clone)]
pub(super) enum Input {
    Preset(String),
    Types(String),
    /// A spec version switched to, or `None`: the active one forgotten.
    Spec(Option<u64>),
    Ss58(Option<u16>),
    /// Shared with [`InstalledMetadata::bytes`]: a runtime's metadata is
    /// hundreds of kilobytes, copied once.
    Metadata(Arc<[u8]>),
}

/// Metadata currently installed in the registry's runtime (the bytes it
/// was installed from; not the `_model` pyclass, `LoadedMetadata`).
pub(super) struct InstalledMetadata {
    pub(super) bytes: Arc<[u8]>,
    /// The metadata model, read from `bytes` when first needed (the
    /// portable registry's paths and definitions, for decompositions).
    pub(super) model: Option<Arc<ferroscale_metadata::Metadata>>,
    /// Definitions generation the runtime was built against (legacy
    /// metadata resolves its argument types through the presets).
    pub(super) generation: u64,
    pub(super) legacy: bool,
}

/// What a [`PyRegistry`](super::PyRegistry) holds, reached through [`PyRegistry::lock`](super::PyRegistry::lock).
pub(crate) struct RegistryState {
    /// Shared with decodes running with the interpreter lock released
    /// ([`crate::convert::detached`]): they hold a clone of the `Arc`, so a change
    /// made meanwhile copies the registry ([`RegistryState::inner_mut`]) instead of
    /// changing it under them.
    pub(super) inner: Arc<Registry>,
    pub(super) names: NameCache,
    pub(super) metadata: Option<InstalledMetadata>,
    pub(super) log: Vec<Input>,
    /// Changes whenever the registry does (a fresh value from
    /// [`next_generation`], unique across registries): scale objects that
    /// kept a graph index take their fast decoding path only while it is
    /// unchanged.
    pub(super) generation: u64,
}

/// A process-wide counter, so that no two registry states share a generation.
fn next_generation() -> u64 {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl RegistryState {
    /// The dynamic-layer registry.
    pub(crate) fn inner(&self) -> &Registry {
        &self.inner
    }

    /// The registry to change: copied first when a decode running with the
    /// lock released still reads it.
    pub(crate) fn inner_mut(&mut self) -> &mut Registry {
        Arc::make_mut(&mut self.inner)
    }

    pub(crate) fn resolve_idx(&mut self, py: Python<'_>, type_string: &str) -> PyResult<TypeIdx> {
        // A type string seen before needs no change to the registry (and so
        // no copy of it while a released decode shares it).
        if let Some(idx) = self.inner.resolve_cached(type_string) {
            return Ok(idx);
        }
        self.inner_mut()
            .resolve(type_string)
            .map_err(|e| to_py(py, &e))
    }

    /// The current generation (see the field).
    pub(crate) fn current_generation(&self) -> u64 {
        self.generation
    }

    /// Marks the registry as changed.
    pub(super) fn touch(&mut self) {
        self.generation = next_generation();
    }

    pub(super) fn apply(&mut self, py: Python<'_>, input: &Input) -> PyResult<()> {
        self.touch();
        match input {
            Input::Preset(json) => {
                let preset = Preset::from_json_str(json).map_err(|e| to_py(py, &e.into()))?;
                self.inner_mut().update(&preset);
            }
            Input::Types(json) => self
                .inner_mut()
                .update_types_json(json)
                .map_err(|e| to_py(py, &e))?,
            Input::Spec(Some(spec)) => self.inner_mut().set_active_spec_version_id(*spec),
            Input::Spec(None) => self.inner_mut().clear_active_spec_version_id(),
            Input::Ss58(f) => self.inner_mut().set_ss58_format(*f),
            Input::Metadata(bytes) => self.load(py, Arc::clone(bytes))?,
        }
        Ok(())
    }

    pub(super) fn load(&mut self, py: Python<'_>, bytes: Arc<[u8]>) -> PyResult<()> {
        let model =
            ferroscale_metadata::Metadata::load(&bytes).map_err(|e| to_py(py, &Error::from(e)))?;
        self.install(py, bytes, Arc::new(model))
    }

    /// Loads `model`, read from `bytes`, into the registry's runtime.
    pub(super) fn install(
        &mut self,
        py: Python<'_>,
        bytes: Arc<[u8]>,
        model: Arc<ferroscale_metadata::Metadata>,
    ) -> PyResult<()> {
        self.inner_mut()
            .load_metadata_shared(model.clone())
            .map_err(|e| to_py(py, &e))?;
        let legacy = self.inner.portable().is_none();
        self.metadata = Some(InstalledMetadata {
            bytes,
            model: Some(model),
            generation: self.inner.definitions().generation(),
            legacy,
        });
        Ok(())
    }

    /// Whether `data` is not the metadata loaded, or that one is stale (see
    /// [`PyRegistry::ensure_metadata`](super::PyRegistry::ensure_metadata)).
    /// Whether `data` (whose reading is `read`, when the caller has it) is
    /// not the metadata loaded now. A reading that is the loaded one itself
    /// answers without comparing the bytes: objects that carry their
    /// metadata sync it before every decode and encode, and comparing
    /// 300 KB each time was most of encoding a call.
    pub(super) fn needs_load(
        &self,
        data: &[u8],
        read: Option<&Arc<ferroscale_metadata::Metadata>>,
    ) -> bool {
        match &self.metadata {
            Some(m) => {
                let stale = m.legacy && m.generation != self.inner.definitions().generation();
                let same = match (read, &m.model) {
                    (Some(read), Some(loaded)) if Arc::ptr_eq(read, loaded) => true,
                    _ => *m.bytes == *data,
                };
                !same || stale
            }
            None => true,
        }
    }

    /// [`PyRegistry::ensure_metadata`](super::PyRegistry::ensure_metadata) with the lock held throughout; `model` is
    /// `data` already read, when the caller read it.
    pub(super) fn ensure_metadata_held(
        &mut self,
        py: Python<'_>,
        data: &[u8],
        model: Option<Arc<ferroscale_metadata::Metadata>>,
    ) -> PyResult<bool> {
        if !self.needs_load(data, model.as_ref()) {
            return Ok(false);
        }
        self.touch();
        let bytes: Arc<[u8]> = Arc::from(data);
        guard("loading metadata", || match model {
            Some(model) => self.install(py, Arc::clone(&bytes), model),
            None => self.load(py, Arc::clone(&bytes)),
        })?;
        self.log.retain(|i| !matches!(i, Input::Metadata(_)));
        self.log.push(Input::Metadata(bytes));
        Ok(true)
    }

    /// An empty registry (py-scale-codec's built-in classes only).
    pub(super) fn new() -> Self {
        RegistryState {
            inner: Arc::new(Registry::new()),
            names: NameCache::with_account_texts(),
            metadata: None,
            log: Vec::new(),
            generation: next_generation(),
        }
    }

    /// Applies a preset given as JSON text (`update_type_registry`).
    pub(super) fn update_preset(&mut self, py: Python<'_>, json: &str) -> PyResult<()> {
        let input = Input::Preset(json.to_owned());
        guard("loading a preset", || self.apply(py, &input))?;
        self.log.push(input);
        Ok(())
    }

    /// Adds or overrides type definitions given as a JSON object (`update_type_registry_types`).
    pub(super) fn update_types(&mut self, py: Python<'_>, json: &str) -> PyResult<()> {
        let input = Input::Types(json.to_owned());
        guard("adding types", || self.apply(py, &input))?;
        self.log.push(input);
        Ok(())
    }

    /// Forgets every definition, the portable registry and the runtime.
    pub(super) fn clear(&mut self) {
        self.touch();
        self.inner_mut().clear();
        self.metadata = None;
        self.log.retain(|i| matches!(i, Input::Ss58(_)));
    }

    /// Switches the active spec version (applies the presets' versioning).
    pub(crate) fn set_active_spec_version_id(&mut self, spec: u64) {
        self.touch();
        self.inner_mut().set_active_spec_version_id(spec);
        self.log.push(Input::Spec(Some(spec)));
    }

    /// Forgets the active spec version (what its versioning applied stays).
    pub(crate) fn clear_active_spec_version_id(&mut self) {
        self.touch();
        self.inner_mut().clear_active_spec_version_id();
        self.log.push(Input::Spec(None));
    }

    /// The active spec version, if one was set.
    pub(crate) fn active_spec_version_id(&self) -> Option<u64> {
        self.inner.active_spec_version_id()
    }

    /// The spec version at `block` from the presets' `runtime_upgrades`.
    pub(crate) fn get_runtime_id_from_upgrades(&self, block: u64) -> Option<u64> {
        self.inner.get_runtime_id_from_upgrades(block)
    }

    /// Sets the newest block the runtime-upgrade table is known to cover.
    pub(crate) fn set_runtime_upgrades_head(&mut self, block: u64) {
        self.touch();
        self.inner_mut()
            .definitions_mut()
            .set_runtime_upgrades_head(block);
    }

    /// The SS58 format account ids render in (`None`: hex).
    pub(crate) fn get_ss58_format(&self) -> Option<u16> {
        self.inner.ss58_format()
    }

    /// Sets the SS58 format account ids render in.
    pub(crate) fn set_ss58_format(&mut self, format: Option<u16>) {
        self.touch();
        self.inner_mut().set_ss58_format(format);
        self.log.push(Input::Ss58(format));
    }

    /// Rebuilds the registry by replaying the pickled inputs.
    pub(super) fn replay(
        &mut self,
        py: Python<'_>,
        state: Vec<(String, Bound<'_, PyAny>)>,
    ) -> PyResult<()> {
        *self = RegistryState::new();
        for (tag, payload) in state {
            match tag.as_str() {
                "preset" => self.update_preset(py, &payload.extract::<String>()?)?,
                "types" => self.update_types(py, &payload.extract::<String>()?)?,
                "spec" => match payload.extract::<Option<u64>>()? {
                    Some(spec) => self.set_active_spec_version_id(spec),
                    None => self.clear_active_spec_version_id(),
                },
                "ss58" => self.set_ss58_format(payload.extract()?),
                "metadata" => {
                    self.ensure_metadata_held(py, &payload.extract::<Vec<u8>>()?, None)?;
                }
                other => {
                    return Err(PyValueError::new_err(format!(
                        "unknown registry state entry {other:?}"
                    )))
                }
            }
        }
        Ok(())
    }
}
