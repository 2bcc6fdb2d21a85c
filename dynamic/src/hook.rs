//! The walker's bail-out hook: something that may decode a type instead of
//! the structural walk, and hand back the value.
//!
//! The decoder asks the hook of its [`Context`](crate::Context) before it
//! walks any node that is not a leaf; whatever the hook returns must be the
//! value the walk would give for the same bytes (same [`Value`], same bytes
//! consumed). The one hook shipped is `ferroscale-typed-fallback`, which
//! decodes a runtime's types through generated Rust types where their
//! structural hash matches: it lives in a crate of its own, so this crate
//! stays independent of the generated chains.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use ferroscale_value::Value;
use scale_info::PortableRegistry;

use crate::graph::{TypeGraph, TypeIdx};
use crate::portable::PortableTypes;

/// Decodes some types in place of the walker.
pub trait DecodeHook: Send + Sync + fmt::Debug {
    /// Decodes a value of `ty` from the front of `input` (advancing it past
    /// the bytes used), or gives `None` to let the walker decode it; also
    /// `None` when the hook's own decode fails, so errors stay the walker's.
    /// `depth_room` is the nesting the walker has left here: a hook must not
    /// decode what the walker would have refused for depth.
    /// `ss58_format` is the format account ids render in.
    fn decode(
        &self,
        ty: TypeIdx,
        depth_room: u32,
        ss58_format: Option<u16>,
        input: &mut &[u8],
    ) -> Option<Value>;

    /// The hook as `Any`, so its owner can reach its concrete type
    /// (statistics, status per type).
    fn as_any(&self) -> &dyn Any;
}

/// Builds a [`DecodeHook`] for each V14+ portable registry a
/// [`Registry`](crate::registry::Registry) imports
/// ([`Registry::attach_hook_factory`](crate::registry::Registry::attach_hook_factory)).
pub trait HookFactory: Send + Sync + fmt::Debug {
    /// The hook for `registry`, just imported into `graph` as `types`;
    /// `None` when it has nothing to offer for this registry.
    fn build(
        &self,
        graph: &TypeGraph,
        types: &PortableTypes,
        registry: &PortableRegistry,
    ) -> Option<Arc<dyn DecodeHook>>;

    /// The factory as `Any` (to extend an attached factory in place).
    fn as_any(&self) -> &dyn Any;
}
