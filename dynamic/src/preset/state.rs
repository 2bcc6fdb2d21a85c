//! The merged type-registry state py-scale-codec keeps in
//! `RuntimeConfigurationObject.type_registry`: definitions from every preset
//! loaded so far, the versioning and runtime upgrades of the last one, the
//! runtime APIs, and the active spec version.

use std::collections::HashMap;
use std::sync::Arc;

use super::model::{Definition, Preset, RuntimeApi, TypeDefs, VersionedTypes};
use crate::typestr::parse_key;

/// A definition and the name it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedDefinition {
    /// The name as written in the preset (`"OpenTip"`, `"(AccountId, Balance)"` …).
    pub name: String,
    /// The definition.
    pub def: Definition,
    /// When it was defined (increasing over every definition of a registry).
    pub seq: u64,
    /// The definition the name had before this one, if any (py-scale-codec
    /// resolves aliases when they are defined, so an alias cycle or a
    /// self-alias such as `"H256": "H256"` means the earlier meaning).
    pub previous: Option<Arc<NamedDefinition>>,
}

impl NamedDefinition {
    /// The definition that was current for this name just before `seq`.
    pub fn as_of(self: &Arc<Self>, seq: u64) -> Option<Arc<NamedDefinition>> {
        let mut at = Some(self.clone());
        while let Some(def) = at {
            if def.seq < seq {
                return Some(def);
            }
            at = def.previous.clone();
        }
        None
    }
}

/// Lookup keys of a definition name: the name lower-cased (py-scale-codec's
/// key) and, when it parses, its canonical form lower-cased, so that
/// `"ReferendumInfo<BlockNumber,Hash>"` finds `"ReferendumInfo<BlockNumber, Hash>"`.
pub fn name_keys(name: &str) -> (String, Option<String>) {
    let raw = name.to_lowercase();
    let canonical = parse_key(name).ok().map(|e| e.key()).filter(|k| *k != raw);
    (raw, canonical)
}

/// How many aliases a chain may pass through (presets use two or three; the
/// cap stops what a cycle check would miss).
pub const MAX_ALIAS_CHAIN: usize = 32;

/// The end of a chain of aliases ([`Definitions::follow_aliases`]).
#[derive(Clone, Debug)]
pub struct AliasEnd<'a> {
    /// The last name (as the last alias wrote it).
    pub name: String,
    /// Its definition; `None` for a name the presets do not define.
    pub definition: Option<&'a Arc<NamedDefinition>>,
    /// How many aliases led there (0: `name` is no alias).
    pub aliases: usize,
}

/// Merged definitions and versioning state (pure data; resolution into a
/// type graph is the registry's job).
#[derive(Clone, Debug, Default)]
pub struct Definitions {
    defs: HashMap<String, Arc<NamedDefinition>>,
    versioning: Option<Vec<VersionedTypes>>,
    runtime_upgrades: Option<Vec<(u64, i64)>>,
    runtime_api: Vec<RuntimeApi>,
    active_spec: Option<u64>,
    chain_id: Option<String>,
    /// Bumped on every change of the definitions, so caches know to drop.
    generation: u64,
    /// Sequence number of the next definition.
    next_seq: u64,
}

impl Definitions {
    /// No definitions.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets everything (py-scale-codec's `clear_type_registry`).
    pub fn clear(&mut self) {
        let generation = self.generation + 1;
        let next_seq = self.next_seq;
        *self = Definitions {
            generation,
            next_seq,
            ..Definitions::default()
        };
    }

    /// Counter that changes whenever the definitions do.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Number of distinct definitions.
    pub fn len(&self) -> usize {
        self.defs
            .iter()
            .filter(|(k, d)| **k == d.name.to_lowercase())
            .count()
    }

    /// Whether there are no definitions.
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    /// The definition for a lower-cased key (raw name or canonical form).
    pub fn get(&self, key: &str) -> Option<&Arc<NamedDefinition>> {
        self.defs.get(key)
    }

    /// The definition of `name`, looked up as py-scale-codec does (case-insensitively).
    pub fn lookup(&self, name: &str) -> Option<&Arc<NamedDefinition>> {
        let (raw, canonical) = name_keys(name);
        self.defs
            .get(&raw)
            .or_else(|| canonical.and_then(|k| self.defs.get(&k)))
    }

    /// Where the chain of aliases from `name` ends (`"Index"` → `"u32"` in
    /// the legacy preset, through every alias on the way; a `Name<…>` with
    /// no definition of its own is looked up as `Name`): the last name and
    /// its definition, `None` when it has none (a built-in such as `u32`),
    /// with how many aliases were followed. A name defined as itself
    /// (`"H256": "H256"` in the legacy preset) ends the chain with no
    /// definition: it means what it means without the presets (a built-in;
    /// anything else fails to resolve). `None` for a longer cycle of names
    /// or a chain longer than [`MAX_ALIAS_CHAIN`].
    pub fn follow_aliases(&self, name: &str) -> Option<AliasEnd<'_>> {
        let mut name = name.trim().to_owned();
        let mut seen: Vec<String> = Vec::new();
        loop {
            let found = self
                .lookup(&name)
                .or_else(|| name.find('<').and_then(|i| self.lookup(name[..i].trim())));
            match found.map(|named| &named.def) {
                Some(Definition::Alias(target)) if target.trim().eq_ignore_ascii_case(&name) => {
                    return Some(AliasEnd {
                        name,
                        definition: None,
                        aliases: seen.len(),
                    })
                }
                Some(Definition::Alias(target)) => {
                    seen.push(name.to_lowercase());
                    if seen.len() > MAX_ALIAS_CHAIN || seen.contains(&target.to_lowercase()) {
                        return None;
                    }
                    name = target.clone();
                }
                _ => {
                    return Some(AliasEnd {
                        name,
                        definition: found,
                        aliases: seen.len(),
                    })
                }
            }
        }
    }

    /// Loads a preset on top of what is there (`update_type_registry`): the
    /// active spec becomes its `runtime_id`; its `versioning` and
    /// `runtime_upgrades` replace the previous ones (also when absent);
    /// runtime APIs merge by name; types override by name.
    pub fn update(&mut self, preset: &Preset) {
        self.active_spec = preset.runtime_id;
        self.chain_id = preset.chain_id.clone();
        self.versioning = preset.versioning.clone();
        self.runtime_upgrades = preset.runtime_upgrades.clone();
        for api in &preset.runtime_api {
            match self.runtime_api.iter_mut().find(|a| a.name == api.name) {
                Some(slot) => *slot = api.clone(),
                None => self.runtime_api.push(api.clone()),
            }
        }
        self.update_types(&preset.types);
    }

    /// Adds or overrides definitions (`update_type_registry_types`).
    pub fn update_types(&mut self, types: &TypeDefs) {
        for (name, def) in types {
            let (raw, canonical) = name_keys(name);
            let entry = Arc::new(NamedDefinition {
                name: name.clone(),
                def: def.clone(),
                seq: self.next_seq,
                previous: self.defs.get(&raw).cloned(),
            });
            self.next_seq += 1;
            if let Some(key) = canonical {
                self.defs.insert(key, entry.clone());
            }
            self.defs.insert(raw, entry);
        }
        self.generation += 1;
    }

    /// Switches to runtime `spec` (`set_active_spec_version_id`): when it differs
    /// from the active one, applies every versioning entry covering it, in
    /// order. Entries of other ranges are not undone, as in py-scale-codec.
    /// Returns whether anything changed.
    pub fn set_active_spec_version_id(&mut self, spec: u64) -> bool {
        if self.active_spec == Some(spec) {
            return false;
        }
        self.active_spec = Some(spec);
        let entries: Vec<TypeDefs> = self
            .versioning
            .iter()
            .flatten()
            .filter(|v| v.covers(spec))
            .map(|v| v.types.clone())
            .collect();
        for types in &entries {
            self.update_types(types);
        }
        true
    }

    /// The active spec version (`runtime_id` of the last preset, or the last switch).
    pub fn active_spec_version_id(&self) -> Option<u64> {
        self.active_spec
    }

    /// Forgets which spec version is active (py-scale-codec's
    /// `active_spec_version_id = None`); the versioning entries already
    /// applied for it stay applied, as there.
    pub fn clear_active_spec_version_id(&mut self) {
        self.active_spec = None;
    }

    /// `chain_id` of the last preset loaded.
    pub fn chain_id(&self) -> Option<&str> {
        self.chain_id.as_deref()
    }

    /// The spec version running at `block` according to `runtime_upgrades`
    /// (`get_runtime_id_from_upgrades`): `None` without upgrades, past the
    /// last known upgrade, or before the first.
    pub fn get_runtime_id_from_upgrades(&self, block: u64) -> Option<u64> {
        let upgrades = self.runtime_upgrades.as_deref().filter(|u| !u.is_empty())?;
        if block > upgrades.last()?.0 {
            return None;
        }
        upgrades
            .iter()
            .rev()
            .find(|(from, spec)| block >= *from && *spec != -1)
            .map(|(_, spec)| *spec as u64)
    }

    /// Marks `block` as the newest known block (`set_runtime_upgrades_head`):
    /// moves an open head, or opens one past the last upgrade.
    pub fn set_runtime_upgrades_head(&mut self, block: u64) {
        if let Some(upgrades) = self.runtime_upgrades.as_mut() {
            match upgrades.last_mut() {
                Some(last) if last.1 == -1 => last.0 = block,
                Some(last) if block > last.0 => upgrades.push((block, -1)),
                _ => {}
            }
        }
    }

    /// `runtime_upgrades` of the last preset loaded.
    pub fn runtime_upgrades(&self) -> Option<&[(u64, i64)]> {
        self.runtime_upgrades.as_deref()
    }

    /// `versioning` of the last preset loaded.
    pub fn versioning(&self) -> Option<&[VersionedTypes]> {
        self.versioning.as_deref()
    }

    /// Runtime APIs of every preset loaded (`runtime_api`).
    pub fn runtime_api(&self) -> &[RuntimeApi] {
        &self.runtime_api
    }

    /// Every definition once, under its own name, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<NamedDefinition>> {
        self.defs
            .iter()
            .filter(|(k, d)| **k == d.name.to_lowercase())
            .map(|(_, d)| d)
    }
}
