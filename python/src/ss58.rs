//! SS58 for Python: thin bindings over `ferroscale_core::ss58`, which does
//! the checking; the py-scale-codec conveniences (hex strings, `0x`
//! pass-through) live in `scalecodec/utils/ss58.py`.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::{guard, value_error};
use ferroscale_core::ss58;

/// Encodes `payload` (1, 2, 4, 8, 32 or 33 bytes) as an address of network `format`.
#[pyfunction]
fn ss58_encode_bytes(payload: &[u8], format: u16) -> PyResult<String> {
    guard("ss58_encode", || {
        ss58::encode(payload, format).map_err(value_error)
    })
}

/// Decodes an address into `(format, payload)`, checking base58, length and
/// checksum, and with `expected_format` the network.
#[pyfunction]
#[pyo3(signature = (address, expected_format=None))]
fn ss58_decode_bytes<'py>(
    py: Python<'py>,
    address: &str,
    expected_format: Option<u16>,
) -> PyResult<(u16, Bound<'py, PyBytes>)> {
    let decoded = guard("ss58_decode", || {
        ss58::decode(address, expected_format).map_err(value_error)
    })?;
    Ok((decoded.format, PyBytes::new(py, &decoded.payload)))
}

/// Adds this module's functions to `scalecodec._native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ss58_encode_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(ss58_decode_bytes, m)?)?;
    Ok(())
}
