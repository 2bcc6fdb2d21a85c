//! ferroscale-core: the byte-level primitives every other layer stands on.
//!
//! - [`ss58`]: SS58 addresses, every network prefix.
//! - [`hashing`]: storage hashers, storage-key building and splitting, BLAKE2b in batches.
//! - [`hex`]: `0x` hex text.
//! - [`error`]: the error type shared by these modules.
//!
//! Nothing here knows about metadata or types: that is `ferroscale-metadata`,
//! one layer up.

pub mod error;
pub mod fingerprint;
pub mod hashing;
pub mod hex;
pub mod ss58;
pub mod stack;

pub use error::Error;
