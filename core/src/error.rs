//! The error type of the byte-level primitives. Every variant says what failed and,
//! where there is one, the byte offset at which it failed.

use std::fmt;

/// Errors of SS58, hashing and hex handling.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Malformed hex text.
    Hex(String),
    /// An SS58 address or payload that is not valid.
    Ss58(String),
    /// A storage key or hasher input that is not valid.
    Storage(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Hex(m) => write!(f, "invalid hex: {m}"),
            Error::Ss58(m) => write!(f, "invalid SS58: {m}"),
            Error::Storage(m) => write!(f, "storage: {m}"),
        }
    }
}

impl std::error::Error for Error {}
