//! ferroscale-typed-fallback: the dynamic layer decoding a portable-registry
//! type through a generated Rust type (its generated `Decode`, then `ToValue`)
//! where one fits. It plugs into the walker's hook
//! ([`ferroscale_dynamic::hook`]), so neither the dynamic layer nor the
//! generated chains depend on each other.
//!
//! A service attaches the `TYPED_DECODERS` tables of the chains it compiled
//! in (`ferroscale-runtime-types` with the `values` feature) with
//! [`RegistryExt::attach_typed_decoders`]:
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use ferroscale_typed_fallback::RegistryExt;
//! let metadata_bytes = std::fs::read("polkadot-metadata.scale")?;
//! let mut registry = ferroscale_dynamic::registry::Registry::new();
//! registry.attach_typed_decoders(ferroscale_runtime_types::polkadot::TYPED_DECODERS);
//! registry.load_metadata(&metadata_bytes)?;
//! # Ok(())
//! # }
//! ```
//!
//! When V14+ metadata is loaded afterwards, every type of its portable
//! registry gets its structural hash ([`ferroscale_metadata::type_hash`]); a type
//! whose hash is in a table uses the typed decoder when it is also
//! *eligible*. Equal hashes mean the same wire format and the same names, so
//! the generated type decodes the same bytes; eligibility makes sure it also
//! gives the same value. A type is eligible when its node in the type graph,
//! and everything below it, is one of:
//!
//! - a primitive other than `u256`/`i256` (the dynamic import turns the
//!   `primitive_types::U256` struct into a number; the generated type keeps
//!   it a struct), `Null`, bytes, byte arrays, bit sequences;
//! - `Compact` of an integer (or of 1-tuples around one: a compact struct
//!   with a named field would be a dict on the typed side);
//! - sequences, non-empty arrays and maps of elements that take at least one
//!   byte (the dynamic decoder budgets elements that take no input; the
//!   typed one does not), tuples, structs, enums, `Option`, `Result`;
//! - `AccountId` (32 or 20 bytes) and `MultiAddress` — used only while no
//!   SS58 format is set, since they render as SS58 text otherwise;
//!
//! and the subtree has no cycle. Leaves themselves (a primitive, bytes, a
//! compact, an account id) are read directly: a generated decoder gains
//! nothing there and would build the value twice. Everything else is
//! decoded dynamically:
//! `Call`, `Event`, `EventRecord` and `Extrinsic` read the runtime's call and
//! event tables, `Era`, identity `Data`, conviction votes and
//! `WrapperKeepOpaque` have py-scale-codec renderings of their own, preset
//! `set`s and legacy addresses never come from a portable registry, and
//! recursive types could nest deeper than the depth limit allows.
//!
//! The semantics of a dynamic decode are kept: a type is decoded typed only
//! when its (static, acyclic) nesting depth fits under the decoder's depth
//! limit from where it starts, so the dynamic decoder could not have hit the
//! limit there; the typed decoder consumes what it needs and the caller
//! checks trailing bytes as before; and when the typed decoder fails (a
//! non-canonical compact, invalid UTF-8, truncated input …) the dynamic
//! decoder runs on the same bytes, so errors and lenient readings stay the
//! dynamic layer's own.

#![forbid(unsafe_code)]

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ferroscale_dynamic::graph::{
    min_size, Fields, Node, Prim, Special, TypeGraph, TypeIdx, Variant,
};
use ferroscale_dynamic::hook::{DecodeHook, HookFactory};
use ferroscale_dynamic::portable::PortableTypes;
use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::type_hash::TypeHasher;
use ferroscale_value::typed::{find_decoder, TypedDecoder, TypedDecoderTable};
use ferroscale_value::Value;
use scale_info::PortableRegistry;

/// Deepest walk the eligibility check follows (deeper types are decoded dynamically).
const MAX_WALK: u32 = ferroscale_dynamic::DEFAULT_MAX_DEPTH;

/// Why a leaf type (primitive, bytes, compact, account id …) decodes dynamically.
const LEAF: &str = "a leaf: reading it directly is as fast, and builds the value once";

/// A typed decoder usable for one portable type.
#[derive(Clone, Copy)]
pub struct TypedEntry {
    /// The generated type's decoder.
    pub decode: TypedDecoder,
    /// Nesting depth of the type's graph subtree, as the dynamic decoder
    /// counts it (the type's own node is 1).
    pub depth: u32,
    /// The subtree holds account ids, which render as SS58 text when a
    /// format is set: then the typed decoder (always `"0x…"`) is not used.
    pub has_accounts: bool,
}

impl fmt::Debug for TypedEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedEntry")
            .field("depth", &self.depth)
            .field("has_accounts", &self.has_accounts)
            .finish_non_exhaustive()
    }
}

/// Whether a portable type decodes through a generated type, and why not.
#[derive(Clone, Copy, Debug)]
pub enum TypedStatus {
    /// Eligible: decoded through this entry (subject to the SS58 format and
    /// the remaining depth at the point of use).
    Typed(TypedEntry),
    /// No attached table has a decoder for the type's structural hash.
    NoDecoder,
    /// A table has a decoder, but the type's dynamic rendering differs or
    /// depends on runtime settings (the reason; see the module docs).
    Ineligible(&'static str),
}

/// The typed decoders usable for one imported portable registry.
pub struct TypedFallback {
    /// Graph index of registry id 0.
    base: u32,
    /// Status of each registry id.
    status: Vec<TypedStatus>,
    /// Values decoded through the typed path (all clones of the registry share it).
    hits: AtomicU64,
}

impl fmt::Debug for TypedFallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedFallback")
            .field("base", &self.base)
            .field("types", &self.status.len())
            .field("typed", &self.typed_count())
            .field("hits", &self.hits())
            .finish()
    }
}

impl TypedFallback {
    /// Matches every type of `registry` (imported into `graph` as `types`)
    /// against `tables` by structural hash and checks eligibility.
    pub fn build(
        graph: &TypeGraph,
        types: &PortableTypes,
        registry: &PortableRegistry,
        tables: &[TypedDecoderTable],
    ) -> Self {
        let mut hasher = TypeHasher::new(registry);
        let mut walk = Walk {
            graph,
            memo: HashMap::new(),
        };
        let status = (0..types.count)
            .map(|id| {
                let Some(decode) = hasher
                    .hash(id)
                    .ok()
                    .and_then(|h| tables.iter().find_map(|t| find_decoder(t, h)))
                else {
                    return TypedStatus::NoDecoder;
                };
                let Some(idx) = types.idx(id) else {
                    return TypedStatus::NoDecoder;
                };
                match walk.shape(idx, 0) {
                    Ok(s) if s.depth == 1 => TypedStatus::Ineligible(LEAF),
                    Ok(s) => TypedStatus::Typed(TypedEntry {
                        decode,
                        depth: s.depth,
                        has_accounts: s.accounts,
                    }),
                    Err(why) => TypedStatus::Ineligible(why),
                }
            })
            .collect();
        TypedFallback {
            base: types.base,
            status,
            hits: AtomicU64::new(0),
        }
    }

    /// The typed entry for graph node `ty`, if it is an eligible portable type.
    #[inline]
    pub fn entry(&self, ty: TypeIdx) -> Option<&TypedEntry> {
        let i = ty.0.checked_sub(self.base)?;
        match self.status.get(i as usize)? {
            TypedStatus::Typed(e) => Some(e),
            _ => None,
        }
    }

    /// The status of registry type id `id`.
    pub fn status(&self, id: u32) -> Option<&TypedStatus> {
        self.status.get(id as usize)
    }

    /// How many registry types decode through a generated type.
    pub fn typed_count(&self) -> usize {
        self.status
            .iter()
            .filter(|s| matches!(s, TypedStatus::Typed(_)))
            .count()
    }

    /// How many values have been decoded through the typed path so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// The fallback a registry decodes through, if typed decoders are attached
    /// and V14+ types were loaded since.
    pub fn of(registry: &Registry) -> Option<&TypedFallback> {
        registry.decode_hook()?.as_any().downcast_ref()
    }
}

impl DecodeHook for TypedFallback {
    #[inline]
    fn decode(
        &self,
        ty: TypeIdx,
        depth_room: u32,
        ss58_format: Option<u16>,
        input: &mut &[u8],
    ) -> Option<Value> {
        let entry = self.entry(ty)?;
        if entry.has_accounts && ss58_format.is_some() {
            return None;
        }
        // The dynamic decoder could not hit its depth limit inside.
        if entry.depth > depth_room {
            return None;
        }
        let mut rest = *input;
        let v = (entry.decode)(depth_room, &mut rest).ok()?;
        *input = rest;
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(v)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The typed decoder tables attached to a registry: builds a
/// [`TypedFallback`] for each portable registry it loads.
#[derive(Clone, Debug, Default)]
pub struct TypedDecoders {
    tables: Vec<TypedDecoderTable>,
}

impl TypedDecoders {
    /// Tables of generated chains (`ferroscale_runtime_types::<chain>::TYPED_DECODERS`).
    pub fn new(tables: impl IntoIterator<Item = TypedDecoderTable>) -> Self {
        TypedDecoders {
            tables: tables.into_iter().collect(),
        }
    }

    /// The attached tables.
    pub fn tables(&self) -> &[TypedDecoderTable] {
        &self.tables
    }
}

impl HookFactory for TypedDecoders {
    fn build(
        &self,
        graph: &TypeGraph,
        types: &PortableTypes,
        registry: &PortableRegistry,
    ) -> Option<Arc<dyn DecodeHook>> {
        if self.tables.is_empty() {
            return None;
        }
        Some(Arc::new(TypedFallback::build(
            graph,
            types,
            registry,
            &self.tables,
        )))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The typed fallback as methods of [`Registry`].
pub trait RegistryExt {
    /// Attaches a generated chain's `TYPED_DECODERS` table
    /// (`ferroscale_runtime_types::<chain>::TYPED_DECODERS`, `values`
    /// feature), beside tables attached before: V14+ metadata (or a bare
    /// portable registry) loaded from now on decodes the portable types
    /// whose structural hash is in an attached table through the generated
    /// type, where that gives the dynamic value (see the crate docs); all
    /// other types, and every type of a runtime whose types changed, decode
    /// dynamically. Attach before `Registry::load_metadata`.
    fn attach_typed_decoders(&mut self, table: TypedDecoderTable);

    /// The typed decoders matched to the loaded portable registry, if tables
    /// were attached: which types use them, and how often they were used.
    fn typed_fallback(&self) -> Option<&TypedFallback>;
}

impl RegistryExt for Registry {
    fn attach_typed_decoders(&mut self, table: TypedDecoderTable) {
        let mut tables: Vec<TypedDecoderTable> = self
            .hook_factory()
            .and_then(|f| f.as_any().downcast_ref::<TypedDecoders>())
            .map(|f| f.tables.clone())
            .unwrap_or_default();
        tables.push(table);
        self.attach_hook_factory(Arc::new(TypedDecoders { tables }));
    }

    fn typed_fallback(&self) -> Option<&TypedFallback> {
        TypedFallback::of(self)
    }
}

/// What the eligibility walk learns about an eligible subtree.
#[derive(Clone, Copy)]
struct Shape {
    depth: u32,
    accounts: bool,
}

enum Memo {
    /// On the walk right now: meeting it again is a cycle.
    Open,
    Done(Result<Shape, &'static str>),
}

struct Walk<'g> {
    graph: &'g TypeGraph,
    memo: HashMap<TypeIdx, Memo>,
}

impl Walk<'_> {
    /// The subtree's shape, or why it cannot be decoded through a generated type.
    fn shape(&mut self, ty: TypeIdx, level: u32) -> Result<Shape, &'static str> {
        match self.memo.get(&ty) {
            Some(Memo::Open) => return Err("recursive type"),
            Some(Memo::Done(r)) => return *r,
            None => {}
        }
        if level >= MAX_WALK {
            // Not remembered: from a shallower start the type may fit.
            return Err("nested too deeply");
        }
        self.memo.insert(ty, Memo::Open);
        let r = self.node(ty, level);
        self.memo.insert(ty, Memo::Done(r));
        r
    }

    /// The shape below a node: one level more than its deepest child.
    fn children(
        &mut self,
        kids: impl IntoIterator<Item = TypeIdx>,
        level: u32,
    ) -> Result<Shape, &'static str> {
        let mut out = Shape {
            depth: 1,
            accounts: false,
        };
        for k in kids {
            let s = self.shape(k, level + 1)?;
            out.depth = out.depth.max(s.depth + 1);
            out.accounts |= s.accounts;
        }
        Ok(out)
    }

    /// Elements of a sequence, array or map must take input bytes.
    fn element(&self, parts: &[TypeIdx]) -> Result<(), &'static str> {
        if parts.iter().all(|&t| min_size(self.graph, t, 0) == 0) {
            Err("elements that may take no input bytes")
        } else {
            Ok(())
        }
    }

    fn node(&mut self, ty: TypeIdx, level: u32) -> Result<Shape, &'static str> {
        let leaf = Ok(Shape {
            depth: 1,
            accounts: false,
        });
        let Some(node) = self.graph.get(ty) else {
            return Err("type index out of range");
        };
        match node {
            Node::Prim(Prim::U256 | Prim::I256) => Err("256-bit integer"),
            Node::Prim(_) | Node::Null | Node::Bytes | Node::ByteArray(_) => leaf,
            Node::BitSeq { .. } => leaf,
            Node::Compact(inner) => {
                let mut t = *inner;
                for _ in 0..8 {
                    match self.graph.get(t) {
                        Some(Node::Prim(Prim::U256 | Prim::I256)) => break,
                        Some(Node::Prim(_)) => return leaf,
                        Some(Node::Tuple(items)) if items.len() == 1 => t = items[0],
                        _ => break,
                    }
                }
                Err("compact of a non-integer")
            }
            Node::Seq(t) => {
                self.element(&[*t])?;
                self.children([*t], level)
            }
            Node::Array(t, n) => {
                if *n == 0 {
                    return Err("empty array");
                }
                self.element(&[*t])?;
                self.children([*t], level)
            }
            Node::Map(k, v) => {
                self.element(&[*k, *v])?;
                self.children([*k, *v], level)
            }
            Node::Tuple(items) => self.children(items.iter().copied(), level),
            Node::Struct(fields) => self.children(fields.iter().map(|f| f.ty), level),
            Node::Enum(variants) => self.children(variant_types(variants), level),
            Node::Option(t) => self.children([*t], level),
            Node::Result(a, b) => self.children([*a, *b], level),
            Node::Special(Special::AccountId | Special::EthereumAccountId) => Ok(Shape {
                depth: 1,
                accounts: true,
            }),
            Node::Special(Special::MultiAddress(e)) => {
                // The decoder reads the inner enum's variants without a node of its own.
                let Some(Node::Enum(variants)) = self.graph.get(*e) else {
                    return Err("MultiAddress is not an enum");
                };
                let mut s = self.children(variant_types(variants), level)?;
                s.accounts = true;
                Ok(s)
            }
            Node::Special(s) => Err(match s {
                Special::Call => "Call reads the runtime's call table",
                Special::Extrinsic => "Extrinsic reads the runtime's extrinsic format",
                Special::Event | Special::ScaleInfoEvent(_) => {
                    "Event reads the runtime's event table"
                }
                Special::EventRecord(_) => "EventRecord has py-scale-codec's flattened shape",
                Special::Era => "Era renders as \"00\" or (period, phase)",
                Special::IdentityData => "identity Data has py-scale-codec's rendering",
                Special::Vote => "conviction votes render as {aye, conviction}",
                Special::WrapperKeepOpaque(_) => "WrapperKeepOpaque renders its decoded content",
                _ => "special type from presets",
            }),
            Node::Set { .. } => Err("preset set"),
            Node::Unresolved(_) => Err("unresolved type"),
        }
    }
}

fn variant_types(variants: &[Variant]) -> impl Iterator<Item = TypeIdx> + '_ {
    variants.iter().flat_map(|v| match &v.fields {
        Fields::Unit => Vec::new(),
        Fields::Unnamed(ts) => ts.clone(),
        Fields::Named(fs) => fs.iter().map(|f| f.ty).collect(),
    })
}
