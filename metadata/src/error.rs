//! The error type of metadata loading: what failed and, for undecodable
//! blobs, the byte offset at which it failed.

use std::fmt;

/// Errors of loading metadata and of walking its type registry.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Malformed hex text (metadata given as `0x…`).
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
    /// An RFC-0078 digest or proof that cannot be made: metadata before
    /// V14, metadata the RFC's type model cannot express, chain facts
    /// neither given nor in the metadata, or extrinsic bytes that do not
    /// read as the metadata's types.
    Digest(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Hex(m) => write!(f, "invalid hex: {m}"),
            Error::Metadata { what, offset } => {
                write!(f, "invalid metadata at byte {offset}: {what}")
            }
            Error::MetadataContent(m) => write!(f, "inconsistent metadata: {m}"),
            Error::Digest(m) => write!(f, "metadata digest: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<ferroscale_core::Error> for Error {
    /// Only hex decoding reaches here (metadata given as text); any other
    /// primitive error is kept as content, with its own message.
    fn from(e: ferroscale_core::Error) -> Self {
        match e {
            ferroscale_core::Error::Hex(m) => Error::Hex(m),
            other => Error::MetadataContent(other.to_string()),
        }
    }
}
