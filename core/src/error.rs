//! The error type of the core layer. Every variant says what failed and,
//! where there is one, the byte offset at which it failed.

use std::fmt;

/// Errors of metadata loading, SS58, hashing and hex handling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Malformed hex text.
    Hex(String),
    /// Metadata that could not be loaded: `what` failed at byte `offset` of the blob.
    Metadata {
        /// What was being read.
        what: String,
        /// Byte offset into the (binary) metadata where it failed.
        offset: usize,
    },
    /// Metadata that decoded but does not hold together, e.g. a type id
    /// outside the registry or a pallet's call type that is not an enum.
    MetadataContent(String),
    /// An SS58 address or payload that is not valid.
    Ss58(String),
    /// A storage key or hasher input that is not valid.
    Storage(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Hex(m) => write!(f, "invalid hex: {m}"),
            Error::Metadata { what, offset } => {
                write!(f, "invalid metadata at byte {offset}: {what}")
            }
            Error::MetadataContent(m) => write!(f, "inconsistent metadata: {m}"),
            Error::Ss58(m) => write!(f, "invalid SS58: {m}"),
            Error::Storage(m) => write!(f, "storage: {m}"),
        }
    }
}

impl std::error::Error for Error {}
