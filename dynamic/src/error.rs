//! Errors of the dynamic layer. Decoding errors name the type (its display
//! name, e.g. `Vec<u32>`, or for a runtime's type its shape and registry id,
//! `Compact<u64>` and 116), where in the value it was (`Timestamp.set.now`),
//! the byte offset and what failed, in one line.

use std::fmt;

/// An error of decoding, encoding, importing or resolving types.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Input ended: `ty` needed `needed` bytes at `offset`, only `available` were left.
    NotEnoughBytes {
        /// Display name of the type being decoded.
        ty: String,
        /// Its id in the runtime's type registry, when it is a registry type.
        type_id: Option<u32>,
        /// Where in the value: field, variant and call names joined by `.`,
        /// sequence positions as `[i]` (`Timestamp.set.now`); empty at the top.
        path: String,
        /// Byte offset where the read started.
        offset: usize,
        /// Bytes the read needed.
        needed: u64,
        /// Bytes that were left.
        available: usize,
    },
    /// Bytes were left after the value (py-scale-codec's `RemainingScaleBytesNotEmptyException`).
    RemainingScaleBytesNotEmpty {
        /// Display name of the decoded type.
        ty: String,
        /// Bytes consumed by the value.
        offset: usize,
        /// Total input length.
        length: usize,
    },
    /// The bytes are not a valid encoding of `ty` at `offset`.
    Invalid {
        /// Display name of the type being decoded.
        ty: String,
        /// Its id in the runtime's type registry, when it is a registry type.
        type_id: Option<u32>,
        /// Where in the value (see [`Error::NotEnoughBytes`]).
        path: String,
        /// Byte offset of the offending data.
        offset: usize,
        /// What was wrong.
        reason: String,
    },
    /// Nesting deeper than the decoder's limit.
    DepthLimit {
        /// Display name of the type at which the limit was hit.
        ty: String,
        /// Its id in the runtime's type registry, when it is a registry type.
        type_id: Option<u32>,
        /// Where in the value (see [`Error::NotEnoughBytes`]).
        path: String,
        /// Byte offset at that point.
        offset: usize,
        /// The limit.
        limit: u32,
    },
    /// A node that was never filled in ([`crate::graph::Node::Unresolved`]).
    Unresolved {
        /// The name the placeholder carries.
        name: String,
    },
    /// A special type (Call, Event, Extrinsic) that needs runtime metadata was decoded without it.
    NoRuntime {
        /// The special type.
        ty: String,
    },
    /// A value that cannot be encoded as `ty`.
    Encode {
        /// Display name of the type being encoded.
        ty: String,
        /// What was wrong with the value.
        reason: String,
    },
    /// Metadata that cannot be loaded (the metadata layer's error, kept whole).
    Metadata(ferroscale_metadata::Error),
    /// Metadata or a portable registry that loads but cannot be imported.
    Import(String),
    /// A type string or name that could not be found or compiled.
    UnknownType {
        /// The name at fault: the unknown name, or the definition that
        /// cannot be compiled.
        name: String,
        /// What failed and where (the type string and offset, the chain of
        /// definitions that led there).
        message: String,
    },
    /// Misuse of an API, e.g. batches of different lengths.
    Usage(String),
    /// A storage entry, constant, call or event the loaded metadata does not have.
    NotFound {
        /// What was looked up.
        kind: ItemKind,
        /// Its pallet.
        pallet: String,
        /// Its name.
        name: String,
    },
    /// Items the loaded metadata's version cannot list: runtime APIs
    /// before V15, view functions before V16.
    NotInMetadata {
        /// What was asked for.
        kind: ItemKind,
        /// The loaded metadata's version.
        version: u32,
    },
    /// A storage key that is not a key of the entry it was read as (wrong
    /// prefix, short digest, a digest that does not match its key).
    StorageKey {
        /// The pallet's storage prefix.
        pallet: String,
        /// The storage entry.
        item: String,
        /// The map key being read (0-based), `None` for the entry prefix
        /// and for bytes after the last key.
        key: Option<usize>,
        /// Byte offset in the storage key.
        offset: usize,
        /// What was wrong.
        reason: String,
    },
    /// A type string that does not parse (offset and caret excerpt inside).
    TypeString(crate::typestr::ParseError),
    /// A type-registry preset that cannot be loaded or resolved.
    Preset(crate::preset::PresetError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotEnoughBytes {
                ty,
                type_id,
                path,
                offset,
                needed,
                available,
            } => {
                decoding(f, ty, *type_id, path, *offset)?;
                write!(f, "needed {needed} bytes, only {available} left")
            }
            Error::RemainingScaleBytesNotEmpty { ty, offset, length } => write!(
                f,
                "decoding {ty}: bytes remaining after the value - current offset: {offset} / length: {length}"
            ),
            Error::Invalid {
                ty,
                type_id,
                path,
                offset,
                reason,
            } => {
                decoding(f, ty, *type_id, path, *offset)?;
                f.write_str(reason)
            }
            Error::DepthLimit {
                ty,
                type_id,
                path,
                offset,
                limit,
            } => {
                decoding(f, ty, *type_id, path, *offset)?;
                write!(f, "nesting deeper than the limit of {limit}")
            }
            Error::Unresolved { name } => write!(f, "type '{name}' was never resolved"),
            Error::NoRuntime { ty } => {
                write!(f, "<{ty}> needs runtime metadata, but none is active")
            }
            Error::Encode { ty, reason } => write!(f, "encoding <{ty}>: {reason}"),
            Error::Metadata(e) => write!(f, "importing types: {e}"),
            Error::Import(m) => write!(f, "importing types: {m}"),
            Error::UnknownType { message, .. } => write!(f, "unknown type: {message}"),
            Error::Usage(m) => write!(f, "{m}"),
            Error::NotFound { kind, pallet, name } => {
                write!(f, "the metadata has no {kind} {pallet}.{name}")
            }
            Error::NotInMetadata { kind, version } => {
                let since = match kind {
                    ItemKind::ViewFunction => 16,
                    ItemKind::SignedExtension => 14,
                    _ => 15,
                };
                write!(
                    f,
                    "metadata V{version} has no {kind} metadata (listed from V{since} on; \
                     fetch the metadata with Metadata_metadata_at_version({since}))"
                )
            }
            Error::StorageKey {
                pallet,
                item,
                key,
                offset,
                reason,
            } => {
                write!(f, "storage key of {pallet}.{item}")?;
                if let Some(key) = key {
                    write!(f, ", map key {key}")?;
                }
                write!(f, " at byte {offset}: {reason}")
            }
            Error::TypeString(e) => write!(f, "{e}"),
            Error::Preset(e) => write!(f, "{e}"),
        }
    }
}

/// `decoding Compact<u64> (type 116) at Timestamp.set.now, byte 5: `.
fn decoding(
    f: &mut fmt::Formatter<'_>,
    ty: &str,
    type_id: Option<u32>,
    path: &str,
    offset: usize,
) -> fmt::Result {
    write!(f, "decoding {ty}")?;
    if let Some(id) = type_id {
        write!(f, " (type {id})")?;
    }
    if path.is_empty() {
        write!(f, " at byte {offset}: ")
    } else {
        write!(f, " at {path}, byte {offset}: ")
    }
}

/// What kind of metadata item an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// A storage entry.
    Storage,
    /// A constant.
    Constant,
    /// A call.
    Call,
    /// An event.
    Event,
    /// A runtime API method (the "pallet" is its trait).
    RuntimeApi,
    /// A pallet view function.
    ViewFunction,
    /// A signed extension's types.
    SignedExtension,
}

impl fmt::Display for ItemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ItemKind::Storage => "storage entry",
            ItemKind::Constant => "constant",
            ItemKind::Call => "call",
            ItemKind::Event => "event",
            ItemKind::RuntimeApi => "runtime API",
            ItemKind::ViewFunction => "view function",
            ItemKind::SignedExtension => "signed extension",
        })
    }
}

impl Error {
    /// The error with `segment` put in front of its position: a field,
    /// variant or call name (joined with `.`), or a sequence position `[i]`.
    /// Errors without a position are returned as they are.
    #[cold]
    pub(crate) fn within(mut self: Box<Self>, segment: &str) -> Box<Self> {
        if let Error::NotEnoughBytes { path, .. }
        | Error::Invalid { path, .. }
        | Error::DepthLimit { path, .. } = &mut *self
        {
            let joined = if path.is_empty() || path.starts_with('[') {
                format!("{segment}{path}")
            } else {
                format!("{segment}.{path}")
            };
            *path = joined;
        }
        self
    }

    /// An encoding error with `what` was being encoded added to its reason
    /// (`argument 'dest' of Balances.transfer`; other errors are returned
    /// as they are).
    #[cold]
    pub(crate) fn in_part(self, what: &str) -> Self {
        match self {
            Error::Encode { ty, reason } => Error::Encode {
                ty,
                reason: format!("{reason} ({what})"),
            },
            other => other,
        }
    }

    /// [`Error::UnknownType`].
    pub(crate) fn unknown_type(name: impl Into<String>, message: String) -> Self {
        Error::UnknownType {
            name: name.into(),
            message,
        }
    }

    /// [`Error::NotFound`].
    pub(crate) fn not_found(kind: ItemKind, pallet: &str, name: &str) -> Self {
        Error::NotFound {
            kind,
            pallet: pallet.to_owned(),
            name: name.to_owned(),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Metadata(e) => Some(e),
            Error::TypeString(e) => Some(e),
            Error::Preset(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ferroscale_metadata::Error> for Error {
    fn from(e: ferroscale_metadata::Error) -> Self {
        Error::Metadata(e)
    }
}

impl From<crate::typestr::ParseError> for Error {
    fn from(e: crate::typestr::ParseError) -> Self {
        Error::TypeString(e)
    }
}

impl From<crate::preset::PresetError> for Error {
    fn from(e: crate::preset::PresetError) -> Self {
        Error::Preset(e)
    }
}
