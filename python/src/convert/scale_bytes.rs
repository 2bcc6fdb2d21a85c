//! py-scale-codec's `ScaleBytes` in Rust: a byte buffer that decoding reads
//! directly (no lock taken: its data is fixed at construction).

use pyo3::exceptions::PyValueError;
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString, PyTuple};
use pyo3::PyTraverseError;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

/// py-scale-codec's `ScaleBytes`: a byte buffer (`data`, a `bytearray` as
/// py-scale-codec keeps it) with a read `offset` and its `length`.
///
/// Frozen (no borrow flag to take on every decode): `data` is fixed at
/// construction, as py-scale-codec never replaces it, and `offset` and
/// `length` are atomics the getters and setters read and write.
#[pyclass(
    frozen,
    subclass,
    weakref,
    module = "scalecodec.base",
    name = "ScaleBytes"
)]
pub struct PyScaleBytes {
    data: Py<PyAny>,
    offset: AtomicUsize,
    length: AtomicUsize,
}

#[pymethods]
impl PyScaleBytes {
    /// `ScaleBytes(data)`: `bytearray` (kept as is), `bytes` (copied into a
    /// `bytearray`) or `"0x…"` hex text; anything else is a `ValueError`.
    #[new]
    pub(crate) fn new(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let buffer = to_bytearray(data)?;
        let length = buffer.len()?;
        Ok(PyScaleBytes::with(buffer.unbind(), length))
    }

    /// The bytes (a `bytearray`).
    #[getter]
    pub(crate) fn data(&self, py: Python<'_>) -> Py<PyAny> {
        self.data.clone_ref(py)
    }

    /// Where the next read starts.
    #[getter]
    fn get_offset(&self) -> usize {
        self.offset()
    }

    #[setter]
    fn set_offset(&self, value: usize) {
        self.set_offset_to(value);
    }

    /// Length of `data` when it was given.
    #[getter]
    fn get_length(&self) -> usize {
        self.length.load(Relaxed)
    }

    #[setter]
    fn set_length(&self, value: usize) {
        self.length.store(value, Relaxed);
    }

    /// The next `length` bytes (a `bytearray`); advances the offset.
    fn get_next_bytes<'py>(&self, py: Python<'py>, length: isize) -> PyResult<Bound<'py, PyAny>> {
        let Ok(length) = usize::try_from(length) else {
            return Err(PyValueError::new_err("length must not be negative"));
        };
        let offset = self.offset();
        let end = offset.saturating_add(length);
        let total = self.get_length();
        if end > total {
            return Err(crate::errors::raise(
                py,
                "RemainingScaleBytesNotEmptyException",
                format!("No more bytes available (needed: {end} / total: {total})"),
            ));
        }
        let part = self.slice(py, offset, Some(end))?;
        self.set_offset_to(end);
        Ok(part)
    }

    /// cyscale's reader of one byte: the next byte as an int; advances the
    /// offset. Past the end it raises as `get_next_bytes(1)` does (cyscale
    /// 0.8 returns 0 there and moves on).
    fn get_next_u8(&self, py: Python<'_>) -> PyResult<u8> {
        let offset = self.offset();
        let total = self.get_length();
        if offset >= total {
            return Err(crate::errors::raise(
                py,
                "RemainingScaleBytesNotEmptyException",
                format!(
                    "No more bytes available (needed: {} / total: {total})",
                    offset + 1
                ),
            ));
        }
        let byte = self.data.bind(py).get_item(offset)?.extract()?;
        self.set_offset_to(offset + 1);
        Ok(byte)
    }

    /// Everything after the offset; moves the offset to the end.
    fn get_remaining_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let part = self.slice(py, self.offset(), None)?;
        self.set_offset_to(self.get_length());
        Ok(part)
    }

    /// Bytes after the offset.
    fn get_remaining_length(&self) -> isize {
        self.get_length() as isize - self.offset() as isize
    }

    /// Back to the start.
    fn reset(&self) {
        self.set_offset_to(0);
    }

    /// A copy of the buffer (offset at 0).
    fn copy(&self, py: Python<'_>) -> PyResult<Self> {
        let data = PyByteArray::from(self.data.bind(py))?;
        let length = data.len();
        Ok(PyScaleBytes::with(data.into_any().unbind(), length))
    }

    /// `ScaleBytes` of this buffer followed by `other` (a `ScaleBytes`,
    /// `bytes`, `bytearray` or `"0x…"` hex text).
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = other.py();
        let tail: Bound<'_, PyAny> = if let Ok(sb) = other.cast::<PyScaleBytes>() {
            sb.get().data.bind(py).clone()
        } else if other.is_instance_of::<PyBytes>() || other.is_instance_of::<PyByteArray>() {
            other.clone()
        } else if other
            .cast::<PyString>()
            .is_ok_and(|s| s.to_str().is_ok_and(|t| t.starts_with("0x")))
        {
            to_bytearray(other)?
        } else {
            return Err(PyValueError::new_err("Data type not supported"));
        };
        let joined = self.data.bind(py).add(tail)?;
        PyScaleBytes::new(&joined)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match other.cast::<PyScaleBytes>() {
            Ok(o) => {
                let equal = self.data.bind(py).eq(o.get().data.bind(py))?;
                Ok(pyo3::types::PyBool::new(py, equal)
                    .to_owned()
                    .into_any()
                    .unbind())
            }
            Err(_) => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyBytes::new(py, &self.to_vec(py)?).hash()
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.data.bind(py).len()
    }

    fn __str__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.to_hex(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<ScaleBytes(data={})>", self.to_hex(py)?))
    }

    /// `"0x…"` hex of the whole buffer.
    fn to_hex<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        crate::convert::text::hex_prefixed(py, &self.to_vec(py)?)
    }

    /// Pickles as `(class, (bytearray,), offset)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.get();
        let data = PyByteArray::from(this.data.bind(py))?;
        (slf.get_type(), (data,), this.offset()).into_pyobject(py)
    }

    fn __setstate__(&self, offset: usize) {
        self.set_offset_to(offset);
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.data)
    }
}

impl PyScaleBytes {
    pub(crate) fn with(data: Py<PyAny>, length: usize) -> Self {
        PyScaleBytes {
            data,
            offset: AtomicUsize::new(0),
            length: AtomicUsize::new(length),
        }
    }

    /// The bytes object.
    pub(crate) fn buffer(&self) -> &Py<PyAny> {
        &self.data
    }

    /// The read offset.
    pub(crate) fn offset(&self) -> usize {
        self.offset.load(Relaxed)
    }

    pub(crate) fn set_offset_to(&self, value: usize) {
        self.offset.store(value, Relaxed);
    }

    /// `data[start:end]`.
    fn slice<'py>(
        &self,
        py: Python<'py>,
        start: usize,
        end: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let data = self.data.bind(py);
        let end = match end {
            Some(e) => e,
            None => data.len()?.max(start),
        };
        data.get_item(pyo3::types::PySlice::new(
            py,
            start as isize,
            end as isize,
            1,
        ))
    }

    /// A copy of the bytes.
    fn to_vec(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        let data = self.data.bind(py);
        if let Ok(b) = data.cast::<PyByteArray>() {
            return Ok(b.to_vec());
        }
        data.extract::<Vec<u8>>()
    }
}

/// py-scale-codec's `ScaleBytes` input rules: a `bytearray` as is, `bytes`
/// copied into one, `"0x…"` hex text decoded by `bytearray.fromhex`.
fn to_bytearray<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = data.py();
    if data.is_instance_of::<PyByteArray>() {
        return Ok(data.clone());
    }
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(PyByteArray::new(py, b.as_bytes()).into_any());
    }
    if let Ok(s) = data.cast::<PyString>() {
        let text = s.to_str()?;
        let Some(hex) = text.strip_prefix("0x") else {
            return Err(unsupported(data));
        };
        return py
            .get_type::<PyByteArray>()
            .call_method1("fromhex", (hex,))
            .map_err(|_| {
                let shown: String = text.chars().take(40).collect();
                PyValueError::new_err(format!("Provided data is not valid hex: '{shown}'"))
            });
    }
    Err(unsupported(data))
}

/// py-scale-codec's error for data of an unsupported type.
pub(crate) fn unsupported(data: &Bound<'_, PyAny>) -> PyErr {
    PyValueError::new_err(format!(
        "Provided data is not in supported format: provided '{}'",
        crate::convert::type_name(data)
    ))
}
