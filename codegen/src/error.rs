//! The one error type of code generation.

use std::fmt;

/// Why runtime types could not be generated from a metadata blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodegenError {
    /// The bytes are not a `RuntimeMetadataPrefixed` blob (bad magic, truncated, garbage).
    Decode(String),
    /// Metadata older than V14 has no type registry, so there is nothing to generate from.
    PreV14(u32),
    /// A metadata version this generator does not know.
    UnsupportedVersion(u32),
    /// The type registry is inconsistent (a dangling id, a missing variant field …).
    Registry(String),
}

impl fmt::Display for CodegenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodegenError::Decode(e) => write!(f, "metadata does not decode: {e}"),
            CodegenError::PreV14(v) => write!(
                f,
                "metadata V{v} predates V14 and carries no type registry, so no Rust types can be \
                 generated from it; decode this chain's data with the dynamic layer \
                 (ferroscale-dynamic) and legacy type definitions instead"
            ),
            CodegenError::UnsupportedVersion(v) => {
                write!(f, "metadata V{v} is not supported (V14, V15 and V16 are)")
            }
            CodegenError::Registry(e) => write!(f, "inconsistent type registry: {e}"),
        }
    }
}

impl std::error::Error for CodegenError {}
