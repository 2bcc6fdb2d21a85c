//! Python `str` objects written in place.
//!
//! `PyString::new` copies (and re-validates) a Rust string; for the hex of a
//! large byte string (py-scale-codec renders non-UTF-8 `Bytes` as `"0x…"`,
//! two characters per byte) the text is written straight into a new compact
//! ASCII string instead. The stable ABI (the `abi3` feature) has no
//! `PyUnicode_New`: there the hex is rendered in Rust (on the stack when
//! short) and copied once.

#[cfg(not(feature = "abi3"))]
use std::mem::MaybeUninit;

use pyo3::prelude::*;
use pyo3::types::PyString;

/// `"0x"` followed by the lower-case hex of `bytes`, as a new Python `str`.
#[cfg(feature = "abi3")]
pub fn hex_prefixed<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyString>> {
    Ok(ferroscale_core::hex::with_prefixed(bytes, |text| {
        PyString::new(py, text)
    }))
}

/// `"0x"` followed by the lower-case hex of `bytes`, as a new Python `str`.
#[cfg(not(feature = "abi3"))]
pub fn hex_prefixed<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyString>> {
    let len = bytes
        .len()
        .checked_mul(2)
        .and_then(|n| n.checked_add(2))
        .and_then(|n| pyo3::ffi::Py_ssize_t::try_from(n).ok())
        .ok_or_else(|| pyo3::exceptions::PyMemoryError::new_err("hex text too long"))?;
    // SAFETY: `PyUnicode_New(len, 127)` returns a new reference to a compact
    // ASCII string (one byte per character) of `len` characters, or NULL
    // with an exception set, which `from_owned_ptr_or_err` turns into `Err`.
    // Its character buffer (`PyUnicode_DATA`) is `len` bytes the string owns
    // exclusively until it is returned; it is uninitialised, so it is only
    // seen as `MaybeUninit<u8>` and every byte is written (the "0x" and
    // `2 · bytes.len()` digits), with ASCII only, as maxchar 127 requires.
    unsafe {
        let raw = pyo3::ffi::PyUnicode_New(len, 127);
        let s = Bound::from_owned_ptr_or_err(py, raw)?.cast_into_unchecked::<PyString>();
        let data = pyo3::ffi::PyUnicode_DATA(raw).cast::<MaybeUninit<u8>>();
        let out = std::slice::from_raw_parts_mut(data, len as usize);
        out[0].write(b'0');
        out[1].write(b'x');
        ferroscale_core::hex::write_lower_uninit(bytes, &mut out[2..]);
        Ok(s)
    }
}
