//! The chain facts a digest covers beside the metadata: spec version and
//! name and the SS58 prefix default to what the metadata itself holds
//! (`System.Version`, `System.SS58Prefix`); decimals and the token symbol
//! are the node's `system_properties`, never in the metadata, so the caller
//! always gives them.

use parity_scale_codec::Decode;

use super::types::ExtraInfo;
use crate::{Error, Metadata};

/// What the caller knows about the chain; [`ChainInfo::extra_info`] fills
/// the rest from the metadata. Every field the caller sets wins over the
/// metadata's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainInfo {
    /// Decimals of the chain's main token (`tokenDecimals`).
    pub decimals: u8,
    /// Symbol of the chain's main token (`tokenSymbol`), e.g. `DOT`.
    pub token_symbol: String,
    /// The spec version; `None`: the metadata's `System.Version`.
    pub spec_version: Option<u32>,
    /// The spec name; `None`: the metadata's `System.Version`.
    pub spec_name: Option<String>,
    /// The SS58 prefix; `None`: the metadata's `System.SS58Prefix`.
    pub base58_prefix: Option<u16>,
}

impl ChainInfo {
    /// The two facts the metadata never holds; the others from the metadata.
    pub fn new(decimals: u8, token_symbol: impl Into<String>) -> Self {
        ChainInfo {
            decimals,
            token_symbol: token_symbol.into(),
            spec_version: None,
            spec_name: None,
            base58_prefix: None,
        }
    }

    /// The RFC's extra information for this metadata: the fields given here,
    /// the others read from the metadata.
    ///
    /// # Errors
    ///
    /// [`Error::Digest`] naming the fact that is neither given nor in the
    /// metadata (no readable `System.Version` or `System.SS58Prefix`).
    pub fn extra_info(&self, metadata: &Metadata) -> Result<ExtraInfo, Error> {
        let missing = |what: &str, whence: &str| {
            Error::Digest(format!(
                "the {what} is not given and the metadata has no readable {whence} constant"
            ))
        };
        let spec_version = match self.spec_version {
            Some(v) => v,
            None => metadata
                .spec_version()
                .ok_or_else(|| missing("spec version", "System.Version"))?,
        };
        let spec_name = match &self.spec_name {
            Some(n) => n.clone(),
            None => metadata
                .spec_name()
                .ok_or_else(|| missing("spec name", "System.Version"))?
                .to_owned(),
        };
        let base58_prefix = match self.base58_prefix {
            Some(p) => p,
            None => {
                ss58_prefix(metadata).ok_or_else(|| missing("SS58 prefix", "System.SS58Prefix"))?
            }
        };
        Ok(ExtraInfo {
            spec_version,
            spec_name,
            base58_prefix,
            decimals: self.decimals,
            token_symbol: self.token_symbol.clone(),
        })
    }
}

/// The `System.SS58Prefix` constant: a `u16`, or a `u8` in older runtimes.
pub fn ss58_prefix(metadata: &Metadata) -> Option<u16> {
    let value = &metadata.pallet("System")?.constant("SS58Prefix")?.value;
    match value.len() {
        1 => Some(u16::from(value[0])),
        2 => u16::decode(&mut value.as_slice()).ok(),
        _ => None,
    }
}
