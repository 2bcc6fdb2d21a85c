//! Runtime fingerprints: does a set of generated types fit this metadata?
//!
//! Every call, event, storage entry, constant, extrinsic part, runtime API
//! method (V15+) and view function (V16) gets a hash
//! of what decoding it depends on (names, indices, hashers and the
//! structural hashes of its types, [`crate::type_hash`]); the whole runtime's
//! hash is that of every item in order. Generated modules carry the hashes of
//! the runtime they were made from (a [`RuntimeFingerprint`]);
//! [`Metadata::check`] and [`Metadata::check_item`] compare them with a
//! loaded runtime's and name every item that differs, so types made for one
//! spec are not silently used to decode another's data.
//!
//! Docs, type ids and constant values are left out on purpose: a runtime
//! upgrade that changes only those decodes exactly as before.

use std::fmt;

pub use ferroscale_core::fingerprint::{ItemHash, ItemKind, RuntimeFingerprint, RuntimeItem};
use ferroscale_core::hashing::blake2_128;
use parity_scale_codec::Encode;

use crate::type_hash::TypeHasher;
use crate::{Error, Metadata, Pallet, Param, TypeRef, Variant};

/// One item of an owned fingerprint: `(pallet, name, hash)`.
pub type OwnedItem = (String, String, u128);

/// The fingerprint of a loaded runtime (what codegen writes into a generated
/// module as its `RUNTIME`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    /// The runtime's spec name, when the metadata has `System.Version`.
    pub spec_name: Option<String>,
    /// The runtime's spec version, when the metadata has `System.Version`.
    pub spec_version: Option<u32>,
    /// The hash of the whole runtime.
    pub hash: u128,
    /// Items by kind (indexed by [`ItemKind::index`]), each list sorted by
    /// `(pallet, name)`.
    pub items: [Vec<OwnedItem>; ItemKind::ALL.len()],
}

impl Fingerprint {
    /// The items of one kind, sorted by `(pallet, name)`.
    pub fn items(&self, kind: ItemKind) -> &[OwnedItem] {
        &self.items[kind.index()]
    }

    /// The hash of one item, if the runtime has it.
    pub fn item(&self, kind: ItemKind, pallet: &str, name: &str) -> Option<u128> {
        let items = self.items(kind);
        items
            .binary_search_by(|(p, n, _)| (p.as_str(), n.as_str()).cmp(&(pallet, name)))
            .ok()
            .map(|i| items[i].2)
    }
}

/// How one item differs between the types and the metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Both have it, with different hashes: decoding it with the types
    /// would misread it.
    Changed,
    /// The types have it, the metadata does not.
    MissingFromMetadata,
    /// The metadata has it, the types do not.
    MissingFromTypes,
}

/// One item that differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemDiff {
    /// What it is.
    pub kind: ItemKind,
    /// Its pallet (`""` for an extrinsic part).
    pub pallet: String,
    /// Its name.
    pub name: String,
    /// How it differs.
    pub change: Change,
}

impl fmt::Display for ItemDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.kind)?;
        if !self.pallet.is_empty() {
            write!(f, "{}.", self.pallet)?;
        }
        f.write_str(&self.name)?;
        f.write_str(match self.change {
            Change::Changed => " changed",
            Change::MissingFromMetadata => " is not in the metadata",
            Change::MissingFromTypes => " is not in the types",
        })
    }
}

/// Why generated types do not fit a runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The metadata (V9–V13) has no type registry to compare with.
    NoTypeRegistry {
        /// Its metadata version.
        version: u32,
    },
    /// The metadata's registry could not be hashed (too deep).
    Unhashable(String),
    /// These items differ (never empty).
    Items(Vec<ItemDiff>),
}

/// Generated types that do not fit a runtime: which spec they were made
/// for, which spec the metadata is, and what differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeMismatch {
    /// Spec name and version the types were generated from.
    pub types_spec: (String, u32),
    /// Spec name and version of the metadata, when it has `System.Version`.
    pub metadata_spec: Option<(String, u32)>,
    /// What differs.
    pub problem: Problem,
}

/// Items a one-line message lists before it says how many more there are.
const LISTED: usize = 5;

impl fmt::Display for RuntimeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, version) = &self.types_spec;
        write!(
            f,
            "types generated for {name} spec {version} do not fit this metadata ("
        )?;
        match &self.metadata_spec {
            Some((n, v)) => write!(f, "{n} spec {v}")?,
            None => f.write_str("no System.Version")?,
        }
        f.write_str("): ")?;
        match &self.problem {
            Problem::NoTypeRegistry { version } => {
                write!(
                    f,
                    "metadata V{version} has no type registry to compare with"
                )
            }
            Problem::Unhashable(why) => write!(f, "its type registry cannot be hashed: {why}"),
            Problem::Items(items) => {
                let n = items.len();
                let verb = if n == 1 {
                    "item differs"
                } else {
                    "items differ"
                };
                write!(f, "{n} {verb}")?;
                // Changed items first: those are the silent misreads.
                let changed = items.iter().filter(|d| d.change == Change::Changed);
                let other = items.iter().filter(|d| d.change != Change::Changed);
                for (i, d) in changed.chain(other).take(LISTED).enumerate() {
                    f.write_str(if i == 0 { ": " } else { "; " })?;
                    write!(f, "{d}")?;
                }
                if items.len() > LISTED {
                    write!(f, "; and {} more", items.len() - LISTED)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for RuntimeMismatch {}

impl Metadata {
    /// The fingerprint of this runtime (V14+: it needs the type registry).
    ///
    /// # Errors
    ///
    /// [`Error::MetadataContent`] for legacy metadata (no registry) or a
    /// registry too deep to hash.
    pub fn fingerprint(&self) -> Result<Fingerprint, Error> {
        let types = self.types.as_ref().ok_or_else(|| {
            Error::MetadataContent(format!(
                "metadata V{} has no type registry to fingerprint",
                self.version
            ))
        })?;
        let mut hasher = TypeHasher::new(types);
        let mut items: [Vec<OwnedItem>; ItemKind::ALL.len()] = Default::default();
        for kind in ItemKind::ALL {
            let list = &mut items[kind.index()];
            for (pallet, name) in self.item_names(kind) {
                let hash = self.hash_item(&mut hasher, kind, &pallet, &name)?;
                list.push((pallet, name, hash.unwrap_or(0)));
            }
            list.sort();
        }
        let hash = runtime_hash(ItemKind::ALL.iter().map(|&k| {
            items[k.index()]
                .iter()
                .map(|(p, n, h)| (p.as_str(), n.as_str(), *h))
        }));
        Ok(Fingerprint {
            spec_name: self.spec_name().map(str::to_owned),
            spec_version: self.spec_version(),
            hash,
            items,
        })
    }

    /// Whether the types a [`RuntimeFingerprint`] describes (a generated
    /// module's `RUNTIME`) fit this whole runtime: equal runtime hashes, or
    /// the list of every item that differs.
    ///
    /// # Errors
    ///
    /// A [`RuntimeMismatch`] naming both specs and what differs.
    pub fn check(&self, expected: &RuntimeFingerprint) -> Result<(), RuntimeMismatch> {
        let found = self.fingerprint().map_err(|e| self.mismatch(expected, e))?;
        if found.hash == expected.hash {
            return Ok(());
        }
        let mut diffs = Vec::new();
        for kind in ItemKind::ALL {
            diff_kind(kind, expected.items(kind), found.items(kind), &mut diffs);
        }
        if diffs.is_empty() {
            // Equal items always hash equal; the hash alone differing means
            // the fingerprint was written by another hashing scheme.
            diffs.push(ItemDiff {
                kind: ItemKind::Extrinsic,
                pallet: String::new(),
                name: "runtime hash (the types were generated by another ferroscale version)"
                    .to_owned(),
                change: Change::Changed,
            });
        }
        Err(RuntimeMismatch {
            types_spec: types_spec(expected),
            metadata_spec: self.spec(),
            problem: Problem::Items(diffs),
        })
    }

    /// Whether one item of the types (e.g. `(ItemKind::Storage, "System",
    /// "Account")`) fits this runtime: the rest of the runtime may differ.
    ///
    /// # Errors
    ///
    /// A [`RuntimeMismatch`] naming the item when its hashes differ or
    /// either side lacks it.
    pub fn check_item(
        &self,
        expected: &RuntimeFingerprint,
        kind: ItemKind,
        pallet: &str,
        name: &str,
    ) -> Result<(), RuntimeMismatch> {
        let Some(types) = &self.types else {
            // `mismatch` reports the missing registry itself.
            let e = Error::MetadataContent("no type registry".to_owned());
            return Err(self.mismatch(expected, e));
        };
        let mut hasher = TypeHasher::new(types);
        let found = self
            .hash_item(&mut hasher, kind, pallet, name)
            .map_err(|e| self.mismatch(expected, e))?;
        let change = match (expected.item(kind, pallet, name), found) {
            (Some(a), Some(b)) if a == b => return Ok(()),
            (Some(_), Some(_)) => Change::Changed,
            (Some(_), None) => Change::MissingFromMetadata,
            (None, _) => Change::MissingFromTypes,
        };
        Err(RuntimeMismatch {
            types_spec: types_spec(expected),
            metadata_spec: self.spec(),
            problem: Problem::Items(vec![ItemDiff {
                kind,
                pallet: pallet.to_owned(),
                name: name.to_owned(),
                change,
            }]),
        })
    }

    /// Whether the item a typed payload was generated for (a runtime API
    /// method, a view function: its [`RuntimeItem`]) fits this runtime,
    /// exactly as [`Metadata::check_item`] checks it.
    ///
    /// # Errors
    ///
    /// A [`RuntimeMismatch`] naming the item when it changed or is missing.
    pub fn check_payload(&self, item: &RuntimeItem) -> Result<(), RuntimeMismatch> {
        self.check_item(item.runtime, item.kind, item.pallet, item.name)
    }

    fn spec(&self) -> Option<(String, u32)> {
        self.runtime_version
            .as_ref()
            .map(|v| (v.spec_name.clone(), v.spec_version))
    }

    fn mismatch(&self, expected: &RuntimeFingerprint, e: Error) -> RuntimeMismatch {
        RuntimeMismatch {
            types_spec: types_spec(expected),
            metadata_spec: self.spec(),
            problem: if self.types.is_none() {
                Problem::NoTypeRegistry {
                    version: self.version,
                }
            } else {
                Problem::Unhashable(e.to_string())
            },
        }
    }

    /// `(pallet, name)` of every item of a kind, in metadata order.
    fn item_names(&self, kind: ItemKind) -> Vec<(String, String)> {
        let of = |f: &dyn Fn(&Pallet) -> Vec<String>| -> Vec<(String, String)> {
            self.pallets
                .iter()
                .flat_map(|p| f(p).into_iter().map(|n| (p.name.clone(), n)))
                .collect()
        };
        match kind {
            ItemKind::Call => of(&|p| p.calls().iter().map(|v| v.name.clone()).collect()),
            ItemKind::Event => of(&|p| p.events().iter().map(|v| v.name.clone()).collect()),
            ItemKind::Storage => {
                of(&|p| p.storage_entries().iter().map(|e| e.name.clone()).collect())
            }
            ItemKind::Constant => of(&|p| p.constants.iter().map(|c| c.name.clone()).collect()),
            ItemKind::Extrinsic => EXTRINSIC_PARTS
                .iter()
                .map(|n| (String::new(), (*n).to_owned()))
                .collect(),
            ItemKind::RuntimeApi => self
                .apis
                .iter()
                .flat_map(|a| a.methods.iter().map(|m| (a.name.clone(), m.name.clone())))
                .collect(),
            ItemKind::ViewFunction => {
                of(&|p| p.view_functions.iter().map(|f| f.name.clone()).collect())
            }
        }
    }

    /// The hash of one item, `None` when the runtime has no such item.
    fn hash_item(
        &self,
        hasher: &mut TypeHasher<'_>,
        kind: ItemKind,
        pallet: &str,
        name: &str,
    ) -> Result<Option<u128>, Error> {
        let mut buf = Buf(vec![kind as u8]);
        if kind == ItemKind::Extrinsic {
            let ext = &self.extrinsic;
            let found = match name {
                "Address" => buf.ty_opt(hasher, ext.address_type)?,
                "Call" => buf.ty_opt(hasher, ext.call_type)?,
                "Signature" => buf.ty_opt(hasher, ext.signature_type)?,
                "Extra" => {
                    // Signed (version 4) extrinsics carry the extensions of
                    // extension version 0, in order.
                    for e in ext.extensions_for_version(0) {
                        buf.str(&e.identifier);
                        buf.ty_opt(hasher, e.ty)?;
                    }
                    true
                }
                _ => false,
            };
            return Ok(found.then(|| buf.digest()));
        }
        if kind == ItemKind::RuntimeApi {
            let method = self
                .apis
                .iter()
                .find(|a| a.name == pallet)
                .and_then(|a| a.methods.iter().find(|m| m.name == name));
            let Some(m) = method else {
                return Ok(None);
            };
            buf.str(pallet);
            buf.str(name);
            buf.signature(hasher, &m.inputs, m.output)?;
            return Ok(Some(buf.digest()));
        }
        let Some(p) = self.pallet(pallet) else {
            return Ok(None);
        };
        match kind {
            ItemKind::Call | ItemKind::Event => {
                let list = if kind == ItemKind::Call {
                    p.calls()
                } else {
                    p.events()
                };
                let Some(v) = list.iter().find(|v| v.name == name) else {
                    return Ok(None);
                };
                buf.0.push(p.index);
                buf.variant(hasher, v)?;
            }
            ItemKind::Storage => {
                let Some(e) = p.storage_entry(name) else {
                    return Ok(None);
                };
                buf.str(p.storage.as_ref().map_or("", |s| s.prefix.as_str()));
                buf.0.push(e.modifier as u8);
                for (hasher_kind, key) in e.hashers.iter().zip(&e.keys) {
                    buf.0.extend(hasher_kind.encode());
                    buf.ty(hasher, key)?;
                }
                buf.ty(hasher, &e.value)?;
            }
            ItemKind::Constant => {
                let Some(c) = p.constant(name) else {
                    return Ok(None);
                };
                buf.ty(hasher, &c.ty)?;
            }
            ItemKind::ViewFunction => {
                let Some(f) = p.view_functions.iter().find(|f| f.name == name) else {
                    return Ok(None);
                };
                // The query id is what the runtime dispatches on.
                buf.0.extend(f.id);
                buf.signature(hasher, &f.inputs, f.output)?;
            }
            ItemKind::Extrinsic | ItemKind::RuntimeApi => unreachable!("handled above"),
        }
        Ok(Some(buf.digest()))
    }
}

/// The extrinsic parts a fingerprint hashes.
const EXTRINSIC_PARTS: [&str; 4] = ["Address", "Call", "Extra", "Signature"];

/// The whole runtime's hash from every kind's items, each sorted by
/// `(pallet, name)`, kinds in [`ItemKind::ALL`] order. Public so that the
/// generator writes exactly the hash [`Metadata::check`] computes.
pub fn runtime_hash<'a, K, I>(kinds: K) -> u128
where
    K: IntoIterator<Item = I>,
    I: IntoIterator<Item = (&'a str, &'a str, u128)>,
{
    let mut buf = Buf(b"ferroscale-runtime-1".to_vec());
    for (k, items) in kinds.into_iter().enumerate() {
        buf.0.push(k as u8);
        for (p, n, h) in items {
            buf.str(p);
            buf.str(n);
            buf.0.extend(h.to_le_bytes());
        }
    }
    buf.digest()
}

/// Appends to `out` how two sorted item lists of one kind differ.
fn diff_kind<A: AsRef<str>>(
    kind: ItemKind,
    expected: &[(&'static str, &'static str, u128)],
    found: &[(A, A, u128)],
    out: &mut Vec<ItemDiff>,
) {
    let (mut i, mut j) = (0, 0);
    let diff = |p: &str, n: &str, change| ItemDiff {
        kind,
        pallet: p.to_owned(),
        name: n.to_owned(),
        change,
    };
    while i < expected.len() || j < found.len() {
        let a = expected.get(i).map(|&(p, n, _)| (p, n));
        let b = found.get(j).map(|(p, n, _)| (p.as_ref(), n.as_ref()));
        match (a, b) {
            (Some(a), Some(b)) if a == b => {
                if expected[i].2 != found[j].2 {
                    out.push(diff(a.0, a.1, Change::Changed));
                }
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                out.push(diff(a.0, a.1, Change::MissingFromMetadata));
                i += 1;
            }
            (Some(a), None) => {
                out.push(diff(a.0, a.1, Change::MissingFromMetadata));
                i += 1;
            }
            (_, Some(b)) => {
                out.push(diff(b.0, b.1, Change::MissingFromTypes));
                j += 1;
            }
            (None, None) => break,
        }
    }
}

fn types_spec(f: &RuntimeFingerprint) -> (String, u32) {
    (f.spec_name.to_owned(), f.spec_version)
}

/// The bytes an item's hash is taken over.
struct Buf(Vec<u8>);

impl Buf {
    fn str(&mut self, s: &str) {
        self.0.extend((s.len() as u32).to_le_bytes());
        self.0.extend(s.as_bytes());
    }

    fn ty(&mut self, hasher: &mut TypeHasher<'_>, ty: &TypeRef) -> Result<(), Error> {
        match ty.id() {
            Some(id) => self.0.extend(hasher.hash(id)?.to_le_bytes()),
            // Unreachable for V14+ (every reference is an id); a name still hashes.
            None => self.str(ty.name().unwrap_or("")),
        }
        Ok(())
    }

    /// Hashes an optional type id; `false` when absent.
    fn ty_opt(&mut self, hasher: &mut TypeHasher<'_>, id: Option<u32>) -> Result<bool, Error> {
        match id {
            Some(id) => {
                self.0.extend(hasher.hash(id)?.to_le_bytes());
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Parameter names and types in order, then the output type: what
    /// encoding a runtime API call or view function query and decoding its
    /// answer depend on.
    fn signature(
        &mut self,
        hasher: &mut TypeHasher<'_>,
        inputs: &[Param],
        output: u32,
    ) -> Result<(), Error> {
        self.0.extend((inputs.len() as u32).to_le_bytes());
        for p in inputs {
            self.str(&p.name);
            self.0.extend(hasher.hash(p.ty)?.to_le_bytes());
        }
        self.0.extend(hasher.hash(output)?.to_le_bytes());
        Ok(())
    }

    fn variant(&mut self, hasher: &mut TypeHasher<'_>, v: &Variant) -> Result<(), Error> {
        self.0.push(v.index);
        self.str(&v.name);
        for field in &v.fields {
            match &field.name {
                Some(n) => {
                    self.0.push(1);
                    self.str(n);
                }
                None => self.0.push(0),
            }
            self.ty(hasher, &field.ty)?;
        }
        Ok(())
    }

    fn digest(&self) -> u128 {
        u128::from_le_bytes(blake2_128(&self.0))
    }
}
