//! Byte-level SCALE primitives the Python class model calls on its hot paths:
//! runs of fixed-width integers (`Vec<u32>`, `Vec<u64>` …), turned into a list
//! of Python ints in one call instead of one scale object per element.
//!
//! The caller passes exactly the bytes of the run (it knows the count from the
//! length prefix and has checked they are there); the count is checked against
//! the bytes again here before anything is allocated, so a hostile length
//! prefix costs nothing.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// Reads one little-endian integer of `width` bytes (1–16) from `bytes`.
fn read_int(bytes: &[u8], signed: bool) -> i128 {
    let mut le = [0u8; 16];
    le[..bytes.len()].copy_from_slice(bytes);
    if signed && bytes.last().is_some_and(|b| b & 0x80 != 0) {
        le[bytes.len()..].fill(0xff);
    }
    i128::from_le_bytes(le)
}

/// Decodes `data` as `count` little-endian integers of `width` bytes (1, 2,
/// 4, 8 or 16), signed or not, into a list.
#[pyfunction]
fn decode_int_run<'py>(
    py: Python<'py>,
    data: &[u8],
    width: usize,
    count: usize,
    signed: bool,
) -> PyResult<Bound<'py, PyList>> {
    if !matches!(width, 1 | 2 | 4 | 8 | 16) {
        return Err(PyValueError::new_err(format!(
            "integer width {width} is not one of 1, 2, 4, 8, 16"
        )));
    }
    let total = data.len();
    let needed = count
        .checked_mul(width)
        .filter(|n| *n <= total)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{count} elements of {width} bytes exceed the {total} bytes available"
            ))
        })?;
    let chunks = &data[..needed];
    let list = if width == 16 && !signed {
        PyList::new(
            py,
            chunks.chunks_exact(16).map(|c| {
                let mut le = [0u8; 16];
                le.copy_from_slice(c);
                u128::from_le_bytes(le)
            }),
        )?
    } else {
        PyList::new(py, chunks.chunks_exact(width).map(|c| read_int(c, signed)))?
    };
    Ok(list)
}

/// Adds this module's functions to `scalecodec._native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode_int_run, m)?)?;
    Ok(())
}
