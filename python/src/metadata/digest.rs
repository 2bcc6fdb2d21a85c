//! RFC-0078 metadata hashes and extrinsic proofs for Python: the arguments
//! converted and handed to `ferroscale_metadata::digest`, which holds every
//! rule; the work runs with the interpreter lock released and a panic
//! becomes a `ValueError`.

use ferroscale_metadata::{digest, Metadata};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The chain facts: decimals and token symbol given, the others given or
/// (when `None`) read from the metadata.
fn chain(
    decimals: u8,
    token_symbol: String,
    spec_version: Option<u32>,
    spec_name: Option<String>,
    base58_prefix: Option<u16>,
) -> digest::ChainInfo {
    digest::ChainInfo {
        spec_version,
        spec_name,
        base58_prefix,
        ..digest::ChainInfo::new(decimals, token_symbol)
    }
}

/// Runs `f` on the loaded metadata with the lock released; errors of any
/// kind (metadata, digest, a panic) are `ValueError`s.
fn with_metadata<T: Send>(
    py: Python<'_>,
    what: &str,
    metadata_bytes: &[u8],
    f: impl FnOnce(&Metadata) -> Result<T, ferroscale_metadata::Error> + Send,
) -> PyResult<T> {
    crate::convert::detached::detached(py, what, || {
        let metadata = Metadata::load(metadata_bytes)?;
        f(&metadata)
    })
    .map_err(PyValueError::new_err)?
    .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The RFC-0078 metadata hash (32 bytes) that the `CheckMetadataHash`
/// extension signs. `decimals` and `token_symbol` are the chain's
/// properties; spec version and name and the SS58 prefix default to the
/// metadata's `System.Version` and `System.SS58Prefix`.
#[pyfunction]
#[pyo3(signature = (metadata_bytes, *, decimals, token_symbol, spec_version=None, spec_name=None, base58_prefix=None))]
pub fn metadata_digest<'py>(
    py: Python<'py>,
    metadata_bytes: &[u8],
    decimals: u8,
    token_symbol: String,
    spec_version: Option<u32>,
    spec_name: Option<String>,
    base58_prefix: Option<u16>,
) -> PyResult<Bound<'py, PyBytes>> {
    let chain = chain(
        decimals,
        token_symbol,
        spec_version,
        spec_name,
        base58_prefix,
    );
    let hash = with_metadata(py, "computing a metadata digest", metadata_bytes, |m| {
        digest::metadata_hash(m, &chain)
    })?;
    Ok(PyBytes::new(py, &hash))
}

/// What an offline signer (the Ledger generic app) needs for one signed
/// extrinsic given in parts: the RFC-0078 proof, the extrinsic metadata and
/// the extra info, SCALE-encoded one after the other (bittensor-core's
/// `generate_extrinsic_proof`).
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (call_data, included_in_extrinsic, included_in_signed_data, metadata_bytes, *, decimals, token_symbol, spec_version=None, spec_name=None, base58_prefix=None))]
pub fn extrinsic_proof<'py>(
    py: Python<'py>,
    call_data: &[u8],
    included_in_extrinsic: &[u8],
    included_in_signed_data: &[u8],
    metadata_bytes: &[u8],
    decimals: u8,
    token_symbol: String,
    spec_version: Option<u32>,
    spec_name: Option<String>,
    base58_prefix: Option<u16>,
) -> PyResult<Bound<'py, PyBytes>> {
    let chain = chain(
        decimals,
        token_symbol,
        spec_version,
        spec_name,
        base58_prefix,
    );
    let proof = with_metadata(py, "building an extrinsic proof", metadata_bytes, |m| {
        digest::extrinsic_proof(
            m,
            &chain,
            call_data,
            included_in_extrinsic,
            included_in_signed_data,
        )
    })?;
    Ok(PyBytes::new(py, &proof))
}
