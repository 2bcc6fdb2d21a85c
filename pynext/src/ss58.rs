//! SS58 address functions over `ferroscale_core::ss58`.

use ferroscale_core::ss58;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn err(e: ferroscale_core::error::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Encodes a public key / account index payload as an SS58 address.
#[pyfunction]
pub fn ss58_encode(payload: &[u8], format: u16) -> PyResult<String> {
    ss58::encode(payload, format).map_err(err)
}

/// Decodes an SS58 address into `(format, payload)`; with `valid_format` the
/// address must carry that format.
#[pyfunction]
#[pyo3(signature = (address, valid_format=None))]
pub fn ss58_decode(address: &str, valid_format: Option<u16>) -> PyResult<(u16, Vec<u8>)> {
    let d = ss58::decode(address, valid_format).map_err(err)?;
    Ok((d.format, d.payload))
}

/// Whether `address` is a valid SS58 address (of `format`, when given).
#[pyfunction]
#[pyo3(signature = (address, format=None))]
pub fn ss58_is_valid(address: &str, format: Option<u16>) -> bool {
    ss58::is_valid(address, format)
}

/// Encodes an account index as an SS58 address.
#[pyfunction]
pub fn ss58_encode_account_index(index: u64, format: u16) -> PyResult<String> {
    ss58::encode_account_index(index, format).map_err(err)
}

/// Decodes an SS58 account-index address.
#[pyfunction]
#[pyo3(signature = (address, valid_format=None))]
pub fn ss58_decode_account_index(address: &str, valid_format: Option<u16>) -> PyResult<u64> {
    ss58::decode_account_index(address, valid_format).map_err(err)
}
