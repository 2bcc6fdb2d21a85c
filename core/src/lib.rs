//! ferroscale-core: the ground the other layers stand on.
//!
//! - [`metadata`]: runtime metadata of every version (V9–V16), loaded through
//!   `frame-metadata` into one model.
//! - [`value`]: the dynamic [`Value`] in the shapes py-scale-codec 1.2.12 gives.
//! - [`ss58`]: SS58 addresses, every network prefix.
//! - [`hashing`]: storage hashers and storage-key building.
//! - [`type_hash`]: structural hashes of registry types (does a generated type fit?).
//! - [`hex`]: `0x` hex text.
//! - [`error`]: the error type shared by these modules.

pub mod error;
pub mod hashing;
pub mod hex;
pub mod metadata;
pub mod ss58;
pub mod type_hash;
pub mod value;

pub use error::Error;
pub use value::Value;
