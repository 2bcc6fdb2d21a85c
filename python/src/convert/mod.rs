//! Python objects → the dynamic [`Value`] the encoder takes.
//!
//! Accepts what py-scale-codec's `encode` accepts: ints, bools, str (text,
//! `"0x…"` hex, SS58), bytes (as hex), None, lists, tuples, dicts with str
//! keys, and scale objects (anything with a `value` attribute, which is used
//! in their place; see [`stand_in_value`]). Nesting is capped so a self-referencing list cannot
//! recurse without bound.
//!
//! Children: the Python → `Value` conversion is here; [`sink`] decodes straight into Python objects, [`detached`] with the interpreter lock released, [`tree`] keeps a decoded value as Rust data to make its parts one by one, [`text`] writes hex into Python strings, [`scale_bytes`] is `ScaleBytes`.

pub mod detached;
pub mod scale_bytes;
pub mod sink;
pub mod text;
pub mod tree;

use ferroscale_value::Value;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};

/// Deepest nesting of containers accepted.
const MAX_DEPTH: u32 = 256;

/// Converts `obj` into a [`Value`].
pub fn to_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    convert(obj, 0)
}

fn convert(obj: &Bound<'_, PyAny>, depth: u32) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "value nests deeper than {MAX_DEPTH} levels"
        )));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        return int_value(i);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::Str(s.to_cow()?.into()));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Value::hex(b.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Value::hex(&b.to_vec()));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        let items = l
            .iter()
            .map(|x| convert(&x, depth + 1))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Value::List(items));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let items = t
            .iter()
            .map(|x| convert(&x, depth + 1))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Value::Tuple(items));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut entries = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            // The key's text straight into its shared name (one allocation).
            let key: ferroscale_value::Name = if let Ok(s) = k.cast::<PyString>() {
                s.to_cow()?.into()
            } else {
                k.str()?.to_cow()?.into()
            };
            entries.push((key, convert(&v, depth + 1)?));
        }
        return Ok(Value::Dict(entries));
    }
    if obj.cast::<PyFloat>().is_ok() {
        return Err(PyTypeError::new_err(
            "floats cannot be SCALE-encoded by this type",
        ));
    }
    if obj.hasattr("value")? {
        let inner = stand_in_value(obj)?;
        if !inner.is(obj) {
            return convert(&inner, depth + 1);
        }
    }
    Err(PyTypeError::new_err(format!(
        "cannot encode a value of Python type {}",
        obj.get_type().name()?
    )))
}

/// The value a scale object given to `encode` stands for: its `value`; one
/// made from bytes and not decoded yet (`decoded` false, `data` set) is
/// decoded first, so it encodes as its bytes, as in py-scale-codec
/// (btcli fills a `Vec` with `U16(ScaleBytes(...))` objects it never
/// decodes). Bytes that do not decode as the object's type are that error.
pub(crate) fn stand_in_value<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let value = obj.getattr("value")?;
    let undecoded = value.is_none()
        && obj
            .getattr("decoded")
            .is_ok_and(|d| !d.is_truthy().unwrap_or(true))
        && obj.getattr("data").is_ok_and(|d| !d.is_none());
    if undecoded {
        return obj.call_method0("decode");
    }
    Ok(value)
}

fn int_value(i: &Bound<'_, PyInt>) -> PyResult<Value> {
    // Most ints fit 64 bits: read those without the 128-bit conversion's
    // byte copy (and without raising on overflow).
    let mut overflow: std::os::raw::c_int = 0;
    // SAFETY: `i` is a live `int`; the call sets `overflow` instead of an
    // exception when the value does not fit, and returns -1 with an
    // exception set only on an error, which is taken below.
    let small = unsafe { pyo3::ffi::PyLong_AsLongLongAndOverflow(i.as_ptr(), &mut overflow) };
    if overflow == 0 {
        if small == -1 {
            if let Some(err) = PyErr::take(i.py()) {
                return Err(err);
            }
        }
        return Ok(if small >= 0 {
            Value::UInt(small as u128)
        } else {
            Value::Int(i128::from(small))
        });
    }
    if let Ok(v) = i.extract::<u128>() {
        return Ok(Value::UInt(v));
    }
    if let Ok(v) = i.extract::<i128>() {
        return Ok(Value::Int(v));
    }
    // Wider than 128 bits: 256-bit little-endian two's complement.
    let negative = i.lt(0)?;
    let bytes = i
        .call_method1("to_bytes", (32, "little"))
        .or_else(|_| {
            let kw = PyDict::new(i.py());
            kw.set_item("signed", true)?;
            i.call_method("to_bytes", (32, "little"), Some(&kw))
        })
        .map_err(|_| PyValueError::new_err(format!("{i} does not fit in 256 bits")))?;
    let bytes: Vec<u8> = bytes.extract()?;
    let mut le = [0u8; 32];
    le.copy_from_slice(&bytes);
    Ok(if negative {
        Value::I256(Box::new(le))
    } else {
        Value::U256(Box::new(le))
    })
}

/// The name of `obj`'s type, for an error message (`"?"` when the type
/// has no readable name).
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}
