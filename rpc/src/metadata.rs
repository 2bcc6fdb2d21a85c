//! Runtime metadata from a node: the newest version among V14–V16 through
//! the `Metadata` runtime API, else `state_getMetadata`.

use parity_scale_codec::Encode;
use serde_json::Value;

use crate::answer::{self, Hash};
use crate::client::Client;
use crate::error::Error;

/// The metadata versions this crate asks for, newest first wins.
pub const SUPPORTED_VERSIONS: std::ops::RangeInclusive<u32> = 14..=16;

/// How the metadata was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetadataSource {
    /// `state_call("Metadata_metadata_at_version", version)`.
    AtVersion(u32),
    /// `state_getMetadata` (a runtime without the versioned API, or none of
    /// V14–V16 offered).
    StateGetMetadata,
}

impl std::fmt::Display for MetadataSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MetadataSource::AtVersion(v) => write!(f, "Metadata_metadata_at_version({v})"),
            MetadataSource::StateGetMetadata => f.write_str("state_getMetadata"),
        }
    }
}

/// Metadata as fetched: the `RuntimeMetadataPrefixed` bytes
/// (`ferroscale_metadata::Metadata::from_bytes` loads them) and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedMetadata {
    /// The blob: magic `meta`, version byte, the metadata.
    pub bytes: Vec<u8>,
    /// Which call gave it.
    pub source: MetadataSource,
    /// The metadata version (the blob's fifth byte).
    pub version: u8,
}

impl FetchedMetadata {
    /// Parses the blob into ferroscale's metadata model.
    pub fn parse(&self) -> Result<ferroscale_metadata::Metadata, ferroscale_metadata::Error> {
        ferroscale_metadata::Metadata::from_bytes(&self.bytes)
    }
}

const VERSIONS: &str = "Metadata_metadata_versions";
const AT_VERSION: &str = "Metadata_metadata_at_version";
const GET_METADATA: &str = "state_getMetadata";

fn at_param(at: Option<&Hash>) -> Vec<Value> {
    at.map(|h| vec![Value::from(ferroscale_core::hex::encode_prefixed(h))])
        .unwrap_or_default()
}

impl Client {
    /// `state_call(method, data, at)`: the runtime API answer's bytes.
    pub async fn state_call(
        &self,
        method: &str,
        data: &[u8],
        at: Option<&Hash>,
    ) -> Result<Vec<u8>, Error> {
        let mut params = vec![
            Value::from(method),
            Value::from(ferroscale_core::hex::encode_prefixed(data)),
        ];
        params.extend(at_param(at));
        let answer = self.request("state_call", params).await?;
        answer::hex_bytes(method, "the state_call answer", &answer)
    }

    /// The metadata versions the runtime offers
    /// (`Metadata_metadata_versions`).
    pub async fn metadata_versions(&self, at: Option<&Hash>) -> Result<Vec<u32>, Error> {
        let bytes = self.state_call(VERSIONS, &[], at).await?;
        answer::metadata_versions(VERSIONS, &bytes)
    }

    /// The metadata of one version (`Metadata_metadata_at_version`); `None`
    /// when the runtime does not offer it.
    pub async fn metadata_at_version(
        &self,
        version: u32,
        at: Option<&Hash>,
    ) -> Result<Option<Vec<u8>>, Error> {
        let bytes = self.state_call(AT_VERSION, &version.encode(), at).await?;
        let Some(blob) = answer::option_opaque_metadata(AT_VERSION, &bytes)? else {
            return Ok(None);
        };
        let got = answer::metadata_blob_version(AT_VERSION, blob)?;
        if u32::from(got) != version {
            return Err(Error::Malformed {
                method: AT_VERSION.into(),
                reason: format!("asked for V{version}, the blob is V{got}"),
            });
        }
        Ok(Some(blob.to_vec()))
    }

    /// `state_getMetadata`: the runtime's default metadata (V14 on current
    /// runtimes; older versions on old ones).
    pub async fn state_get_metadata(&self, at: Option<&Hash>) -> Result<Vec<u8>, Error> {
        let answer = self.request(GET_METADATA, at_param(at)).await?;
        let blob = answer::hex_bytes(GET_METADATA, "the metadata", &answer)?;
        answer::metadata_blob_version(GET_METADATA, &blob)?;
        Ok(blob)
    }

    /// The newest metadata the node offers among V14–V16, at block `at`
    /// (the best block when `None`).
    ///
    /// Asks `Metadata_metadata_versions`, then
    /// `Metadata_metadata_at_version` for the newest supported one. Falls
    /// back to `state_getMetadata` when the runtime has no such API (the
    /// node answers the `state_call` with an error), offers none of V14–V16,
    /// or answers `None`. Unreachable nodes, timeouts, endpoints without
    /// `state_call` and malformed answers are errors, never a fallback.
    pub async fn metadata(&self, at: Option<&Hash>) -> Result<FetchedMetadata, Error> {
        let versions = match self.metadata_versions(at).await {
            Ok(v) => v,
            // The runtime predates the API: `state_call` fails inside the
            // runtime.
            Err(Error::Rpc { .. }) => Vec::new(),
            Err(e) => return Err(e),
        };
        let newest = versions
            .iter()
            .copied()
            .filter(|v| SUPPORTED_VERSIONS.contains(v))
            .max();
        if let Some(version) = newest {
            if let Some(bytes) = self.metadata_at_version(version, at).await? {
                return Ok(FetchedMetadata {
                    version: bytes[4],
                    bytes,
                    source: MetadataSource::AtVersion(version),
                });
            }
        }
        let bytes = self.state_get_metadata(at).await?;
        Ok(FetchedMetadata {
            version: bytes[4],
            bytes,
            source: MetadataSource::StateGetMetadata,
        })
    }
}
