//! Operations beside the decode/encode walk that users of the engine need
//! around it: compact integers, Era arithmetic, multisig accounts, opaque
//! length-prefixed wrappers, `MultiAddress` accounts, the input rules
//! py-scale-codec applies to a value given to a scale object, a type's
//! decomposition, portable registries given as scale-info JSON, and the
//! FRAME rules read from a decoded metadata value (`metadata_value`).
//!
//! They live apart from `decode.rs` and `encode.rs` (the walk) so that the
//! walk stays structural; the Python module binds them one to one.

pub mod address;
pub mod compact;
pub mod decomposition;
pub mod era;
pub mod metadata_value;
pub mod multisig;
pub mod object;
pub mod opaque;
pub mod portable_decomposition;
pub mod portable_json;
