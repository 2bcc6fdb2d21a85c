//! What a decode or an encode reads besides the bytes: the type graph, the
//! active runtime, the SS58 format, the nesting limit, the decode hook and
//! where the `MetadataVersioned` definitions come from.

use crate::error::Error;
use crate::graph::TypeGraph;
use crate::hook::DecodeHook;
use crate::metadata_types::MetadataTypes;
use crate::runtime::Runtime;
pub use ferroscale_core::stack::DEFAULT_STACK_BUDGET;

/// Default nesting limit.
pub const DEFAULT_MAX_DEPTH: u32 = 256;

/// Where the definitions `MetadataVersioned` values decode and encode with
/// come from: the registry layer compiles them from py-scale-codec's `core`
/// preset once per process ([`crate::registry::metadata_types`]).
pub type MetadataTypesSource = fn() -> Result<&'static MetadataTypes, Error>;

/// Everything a decode reads besides the bytes.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The type graph.
    pub graph: &'a TypeGraph,
    /// The active runtime (needed by Call and Extrinsic).
    pub runtime: Option<&'a Runtime>,
    /// SS58 format for AccountId rendering; `None` renders `"0x…"`.
    pub ss58_format: Option<u16>,
    /// Nesting limit.
    pub max_depth: u32,
    /// Stack, in bytes, a decode or encode may use below its entry point
    /// before it stops with an error ([`DEFAULT_STACK_BUDGET`]): raise it
    /// with `max_depth` when running on a thread with a larger stack.
    pub stack_budget: usize,
    /// What may decode types in place of the walker ([`crate::hook`]).
    pub hook: Option<&'a dyn DecodeHook>,
    /// The `MetadataVersioned` definitions ([`MetadataTypesSource`]).
    pub metadata_types: MetadataTypesSource,
    /// Whether an extrinsic's call gets its `call_hash` (BLAKE2b-256 of the
    /// call's bytes, as py-scale-codec gives it). A consumer that never
    /// reads it turns it off and saves a hash over the call (50 KB for a
    /// relay chain's `ParaInherent.enter`); the key then holds `None`.
    /// Nested calls (utility, proxy, multisig arguments) always get theirs.
    pub extrinsic_call_hash: bool,
    /// An extrinsic's BLAKE2b-256 the caller already has ([`KnownHash`]).
    pub extrinsic_hash: Option<KnownHash>,
}

/// The BLAKE2b-256 of an extrinsic's bytes, computed by the caller: an
/// extrinsic decoded from exactly those bytes (the same slice in memory,
/// not equal bytes elsewhere) takes it instead of hashing them again. An
/// indexer hashes a batch's extrinsics several at a time in vector lanes
/// ([`ferroscale_core::hashing::blake2_256_each`]), about three times as
/// fast as one by one. The slice is identified by address and length, not
/// borrowed, so a context can carry it for bytes that live shorter than
/// its type graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownHash {
    at: usize,
    len: usize,
    hash: [u8; 32],
}

impl KnownHash {
    /// `hash`, the BLAKE2b-256 of `bytes` (the caller's word for it).
    pub fn of(bytes: &[u8], hash: [u8; 32]) -> Self {
        KnownHash {
            at: bytes.as_ptr() as usize,
            len: bytes.len(),
            hash,
        }
    }

    /// The hash, if it is of `bytes` (the same slice).
    pub fn for_bytes(&self, bytes: &[u8]) -> Option<[u8; 32]> {
        (bytes.as_ptr() as usize == self.at && bytes.len() == self.len).then_some(self.hash)
    }
}

impl<'a> Context<'a> {
    /// A context over `graph` without runtime or ss58 format.
    pub fn new(graph: &'a TypeGraph) -> Self {
        Context {
            graph,
            runtime: None,
            ss58_format: None,
            max_depth: DEFAULT_MAX_DEPTH,
            stack_budget: DEFAULT_STACK_BUDGET,
            hook: None,
            metadata_types: crate::metadata_types::installed,
            extrinsic_call_hash: true,
            extrinsic_hash: None,
        }
    }

    /// With a hook that decodes some types in place of the walker (built
    /// over this context's graph: [`crate::registry::Registry::context`]
    /// passes its own).
    pub fn with_hook(mut self, hook: Option<&'a dyn DecodeHook>) -> Self {
        self.hook = hook;
        self
    }

    /// With an active runtime.
    pub fn with_runtime(mut self, runtime: &'a Runtime) -> Self {
        self.runtime = Some(runtime);
        self
    }

    /// With a source of `MetadataVersioned` definitions.
    pub fn with_metadata_types(mut self, source: MetadataTypesSource) -> Self {
        self.metadata_types = source;
        self
    }

    /// With the known BLAKE2b-256 `hash` of extrinsic `bytes` ([`KnownHash`]).
    pub fn with_extrinsic_hash(mut self, bytes: &[u8], hash: [u8; 32]) -> Self {
        self.extrinsic_hash = Some(KnownHash::of(bytes, hash));
        self
    }

    /// With an ss58 format for account ids.
    pub fn with_ss58(mut self, format: Option<u16>) -> Self {
        self.ss58_format = format;
        self
    }
}
