//! Module functions over `ferroscale_dynamic::ops`: multisig accounts,
//! `MultiAddress` accounts, compact integers, IEEE floats, py-scale-codec's
//! integer helpers, portable-registry type checks; SS58 ([`ss58`]).

pub mod ss58;

use ferroscale_dynamic::ops;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFloat};

use crate::errors::{raise, to_py};

/// The multisig account (`"0x…"`) of `accounts` (SS58 addresses, hex keys or
/// bytes, 32 bytes each) with `threshold`.
#[pyfunction]
pub fn multi_account_id(accounts: Vec<Bound<'_, PyAny>>, threshold: i64) -> PyResult<String> {
    let threshold = u16::try_from(threshold)
        .map_err(|_| PyValueError::new_err("threshold must fit in a u16"))?;
    let keys = accounts
        .iter()
        .map(|a| {
            let hex = crate::ops::ss58::ss58_decode_any(a)?;
            <[u8; 32]>::try_from(hex.as_slice())
                .map_err(|_| PyValueError::new_err("a multisig signatory is a 32-byte account"))
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(ferroscale_core::hex::encode_prefixed(
        &ops::multisig::multi_account_id(&keys, threshold),
    ))
}

/// The 32-byte account (hex without `0x`) behind an encoded `MultiAddress`, if any.
pub fn multi_address_account_id(raw: &[u8]) -> Option<String> {
    ops::address::multi_address_account_id(raw).map(|a| {
        let mut text = String::with_capacity(64);
        ferroscale_core::hex::push_hex(&mut text, &a);
        text
    })
}

/// The compact encoding of `value`.
#[pyfunction]
pub fn encode_compact<'py>(py: Python<'py>, value: u128) -> Bound<'py, PyBytes> {
    PyBytes::new(py, &ops::compact::encode(value))
}

/// An IEEE float of `size` bytes (4 or 8) from `data[offset:]`: `(value, bytes used)`.
pub fn decode_float(
    py: Python<'_>,
    data: &[u8],
    offset: usize,
    size: usize,
    check_remaining: bool,
) -> PyResult<(f64, usize)> {
    let name = if size == 4 { "f32" } else { "f64" };
    let rest = data.get(offset..).unwrap_or(&[]);
    let Some(raw) = rest.get(..size) else {
        return Err(raise(
            py,
            "NotEnoughBytesError",
            format!(
                "decoding <{name}> at byte {offset}: needed {size} bytes, only {} left",
                rest.len()
            ),
        ));
    };
    if check_remaining && rest.len() != size {
        let e = ferroscale_dynamic::Error::RemainingScaleBytesNotEmpty {
            ty: name.into(),
            offset: offset + size,
            length: data.len(),
        };
        return Err(to_py(py, &e));
    }
    Ok(match raw.try_into() {
        Ok(b4) if size == 4 => (f64::from(f32::from_le_bytes(b4)), 4),
        _ => match <[u8; 8]>::try_from(raw) {
            Ok(b8) => (f64::from_le_bytes(b8), 8),
            Err(_) => return Err(PyValueError::new_err("a float is 4 or 8 bytes")),
        },
    })
}

/// `value` (a Python float) as an IEEE float of `size` bytes (4 or 8).
pub fn encode_float<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    size: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let Ok(f) = value.cast::<PyFloat>() else {
        return Err(PyValueError::new_err(format!("{value} is not a float")));
    };
    let v = f.value();
    Ok(match size {
        4 => PyBytes::new(py, &(v as f32).to_le_bytes()),
        _ => PyBytes::new(py, &v.to_le_bytes()),
    })
}

/// Number of trailing zero bits of `value` (0 for 0 and below).
#[pyfunction]
pub fn trailing_zeros(value: i128) -> u32 {
    if value <= 0 {
        0
    } else {
        value.trailing_zeros()
    }
}

/// The smallest power of two `>= value` (1 for values below 1).
#[pyfunction]
pub fn next_power_of_two(value: i128) -> PyResult<u128> {
    let v = u128::try_from(value.max(1)).unwrap_or(1);
    v.checked_next_power_of_two()
        .ok_or_else(|| PyValueError::new_err("no power of two that large"))
}

/// Checks that a portable-registry type (a `RegistryType` value or its
/// scale object) has a definition kind py-scale-codec knows
/// (`NotImplementedError` naming it otherwise).
#[pyfunction]
pub fn check_type_def(py: Python<'_>, registry_type: &Bound<'_, PyAny>) -> PyResult<()> {
    let value = crate::convert::to_value(registry_type)?;
    ops::portable_json::check_type_def(&value).map_err(|e| to_py(py, &e))
}
