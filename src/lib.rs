//! ferroscale: a SCALE codec for Substrate chains.
//!
//! This facade re-exports the layers (bottom to top; see ARCHITECTURE.md):
//! [`core`] (hex, SS58, storage hashing), [`metadata`] (runtime metadata
//! V9–V16 in one model, structural type hashes), [`value`] (the dynamic
//! `Value` and `ToValue`), [`dynamic`] (py-scale-codec type strings,
//! registries, dynamic decode/encode), [`runtime_types`] (types generated
//! from chain metadata, one feature per chain) and [`typed_fallback`] (the
//! dynamic layer decoding through generated types), and [`runtime`] (the
//! proc-macro generating a runtime's types at compile time; feature `macros`,
//! on by default). Beside them: [`codec`], the `Encode`/`Decode` traits the
//! generated types implement (parity-scale-codec), and `rpc`, the JSON-RPC
//! client of a node (ferroscale-rpc; feature `rpc`, off by default).
//!
//! One dependency is enough: the shipped chains are features of this crate
//! (`ferroscale = { features = ["polkadot"] }` gives
//! `ferroscale::runtime_types::polkadot`; its `ToValue` impls and
//! `TYPED_DECODERS`, the dynamic layer's typed fallback, come with the
//! feature `values`), and the macro's expansion names everything it uses
//! through `::ferroscale` (`values = true` adds those parts there).
//!
//! ```
//! use ferroscale::codec::{Compact, Decode, Encode};
//!
//! let bytes = Compact(1_000_000u32).encode();
//! assert_eq!(Compact::<u32>::decode(&mut &bytes[..]).unwrap().0, 1_000_000);
//! ```

#![forbid(unsafe_code)]

pub use ferroscale_core as core;
pub use ferroscale_dynamic as dynamic;
pub use ferroscale_metadata as metadata;
pub use ferroscale_runtime_types as runtime_types;
pub use ferroscale_typed_fallback as typed_fallback;
pub use ferroscale_value as value;
/// parity-scale-codec: `Encode`, `Decode`, `Compact` and the rest of the
/// SCALE traits the generated types implement, so that
/// `use ferroscale::codec::{Decode, Encode}` needs no second dependency.
pub use parity_scale_codec as codec;

/// `#[ferroscale::runtime(metadata = "path/to/metadata.scale")] mod chain {}`:
/// a runtime's types generated at compile time (see `ferroscale_macros`).
#[cfg(feature = "macros")]
pub use ferroscale_macros::runtime;

/// The JSON-RPC client of a Substrate node (ferroscale-rpc, feature `rpc`):
/// `rpc::BlockingClient` for synchronous code, `rpc::Client` for async;
/// metadata (newest of V14–V16) and block ranges for indexers.
#[cfg(feature = "rpc")]
pub use ferroscale_rpc as rpc;
