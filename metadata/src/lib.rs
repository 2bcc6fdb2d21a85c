//! ferroscale-metadata: runtime metadata of every version from V9 to V16,
//! loaded through `frame-metadata` into one model ([`Metadata`]) that the
//! layers above use (codegen, the dynamic layer), and the utilities over its
//! type registry ([`type_graph`]: the types a type refers to, the registry
//! check, strongly connected components; [`type_hash`]: structural hashes,
//! does a generated type fit?).
//!
//! ```no_run
//! use ferroscale_metadata::Metadata;
//!
//! let bytes = std::fs::read("polkadot-v14-spec9180.scale").unwrap();
//! let metadata = Metadata::load(&bytes).unwrap();
//! println!("V{} {:?} {:?}", metadata.version, metadata.spec_name(), metadata.spec_version());
//! for pallet in &metadata.pallets {
//!     println!("{} {} calls", pallet.name, pallet.calls().len());
//! }
//! ```
//!
//! Accepted input (see [`Metadata::from_bytes`]): a `RuntimeMetadataPrefixed`
//! blob with or without the `meta` magic, the same wrapped the way the
//! `Metadata_metadata` (`OpaqueMetadata`) and `Metadata_metadata_at_version`
//! (`Option<OpaqueMetadata>`) runtime APIs return it, and any of these as
//! `0x` hex text ([`Metadata::from_hex`], [`Metadata::load`]).
//!
//! Types are [`TypeRef`]s: registry ids for V14+ (resolve them in
//! [`Metadata::types`]), py-scale-codec type strings for V9–V13. For V14+
//! every id in the model and in the registry is checked to resolve, so
//! `types.resolve(id)` on an id taken from the model does not fail.
//!
//! Bad input of any kind gives [`Error::Metadata`] (what failed and the byte
//! offset) or [`Error::MetadataContent`] (decoded, but does not hold
//! together), never a panic; no allocation is sized by an untrusted length.

#![forbid(unsafe_code)]

pub mod digest;
mod error;
pub mod fingerprint;
mod hasher;
mod legacy;
mod load;
mod model;
mod modern;
mod registry_check;
mod runtime_version;
pub mod type_graph;
pub mod type_hash;

pub use load::{MAGIC, SUPPORTED_VERSIONS};
pub use model::*;

pub use error::Error;

impl Metadata {
    /// Loads binary metadata: a `RuntimeMetadataPrefixed` (`meta` magic, then
    /// the version byte), a bare `RuntimeMetadata` (version byte first), or
    /// either of the RPC wrappings of a prefixed blob: `OpaqueMetadata`
    /// (compact length, blob) or `Option<OpaqueMetadata>` (0x01, compact
    /// length, blob). Trailing bytes are an error.
    ///
    /// # Errors
    ///
    /// [`Error::Metadata`] with the byte offset into `bytes` where it failed:
    /// empty or truncated input, no magic, an unsupported version (only 9–16
    /// load), a decode error (parity-scale-codec's chain of what was being
    /// decoded), trailing bytes. [`Error::MetadataContent`] when the blob
    /// decodes but its type ids do not resolve in its registry.
    pub fn from_bytes(bytes: &[u8]) -> Result<Metadata, Error> {
        load::from_bytes(bytes)
    }

    /// Loads metadata given as hex text (`0x` prefix optional, surrounding
    /// whitespace ignored), in any of the forms [`Metadata::from_bytes`] takes.
    ///
    /// # Errors
    ///
    /// [`Error::Hex`] for malformed hex; otherwise as [`Metadata::from_bytes`],
    /// with offsets counting bytes of the decoded binary.
    pub fn from_hex(text: &str) -> Result<Metadata, Error> {
        load::from_hex(text)
    }

    /// Loads metadata from file contents that are either hex text or binary:
    /// input that is entirely hex digits (after an optional `0x` and
    /// whitespace) is read as hex, anything else as binary.
    ///
    /// # Errors
    ///
    /// As [`Metadata::from_hex`] or [`Metadata::from_bytes`].
    pub fn load(input: &[u8]) -> Result<Metadata, Error> {
        load::load(input)
    }
}
