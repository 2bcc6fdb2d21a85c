//! ferroscale: a SCALE codec for Substrate chains.
//!
//! This facade re-exports the layers so that a service needs one dependency:
//! [`core`] (metadata model, dynamic values, SS58, storage hashing),
//! [`dynamic`] (py-scale-codec type strings, registries, dynamic decode/encode)
//! and [`runtime_types`] (types generated from chain metadata, one feature per chain).

pub use ferroscale_core as core;
pub use ferroscale_dynamic as dynamic;
pub use ferroscale_runtime_types as runtime_types;
