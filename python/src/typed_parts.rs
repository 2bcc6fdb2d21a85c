//! The `value_object` of a typed part (a part of a value Rust decoded, as
//! the scale object py-scale-codec's decoder would have made for it: a
//! pallet as a `PalletMetadataV14` object whose `value_object['calls']` is
//! an `Option` object …), and the bytes py-scale-codec keeps in the
//! `value_object` of text and byte values. `scalecodec.base` makes the
//! parts themselves (`_typed_part`); this decides what each holds.

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

/// `bytearray.fromhex(text)`: pairs of hex digits, ASCII whitespace
/// allowed between pairs; `None` when the text is not that.
fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    let mut out = Vec::with_capacity(digits.len() / 2);
    let mut i = 0;
    while i < digits.len() {
        let c = digits[i];
        if c.is_ascii_whitespace() || c == 0x0b {
            i += 1;
            continue;
        }
        let hi = (c as char).to_digit(16)?;
        let lo = (*digits.get(i + 1)? as char).to_digit(16)?;
        // two hex digits: at most 0xff
        out.push(u8::try_from(hi << 4 | lo).ok()?);
        i += 2;
    }
    Some(out)
}

/// The bytes behind a `Bytes` or text value, as py-scale-codec keeps them
/// in `value_object`: bytes as they are, `"0x…"` hex as its bytes, other
/// text as its UTF-8; anything else gives an empty `bytearray`.
#[pyfunction]
pub fn raw_bytes<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyByteArray>> {
    let py = value.py();
    if let Ok(b) = value.cast::<PyBytes>() {
        return Ok(PyByteArray::new(py, b.as_bytes()));
    }
    if let Ok(b) = value.cast::<PyByteArray>() {
        return Ok(PyByteArray::new(py, &b.to_vec()));
    }
    if let Ok(s) = value.cast::<PyString>() {
        let text = s.to_str()?;
        if let Some(raw) = text.strip_prefix("0x").and_then(from_hex) {
            return Ok(PyByteArray::new(py, &raw));
        }
        return Ok(PyByteArray::new(py, text.as_bytes()));
    }
    Ok(PyByteArray::new(py, &[]))
}

/// The two items of a `(name, type)` pair of a `type_mapping` (a tuple or
/// a list), as Python's unpacking takes them.
fn pair<'py>(item: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let mut items = item.try_iter()?;
    match (items.next(), items.next(), items.next()) {
        (Some(a), Some(b), None) => Ok((a?, b?)),
        _ => Err(PyValueError::new_err(
            "a type_mapping entry must be a (name, type) pair",
        )),
    }
}

/// Whether `ty` names no type (`None` or `"Null"`): such an enum variant has no value.
fn is_null(ty: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    match ty {
        None => Ok(true),
        Some(t) => Ok(t.is_none() || t.eq("Null")?),
    }
}

/// py-scale-codec's `value_object` of the typed part `obj` holding `value`:
/// per class kind (`kinds`: the scale classes by name, `obj` tested with
/// `isinstance`), what its decoder would have left there, each inner part
/// made by `part(value, type_string)`: a struct's dict of parts, a tuple's
/// parts (a 1-tuple's its element's `value_object`), bytes and text as
/// their bytes, an option's part or `None`, a vector's list of parts, an
/// enum's `(variant, part or None)`; else the value itself.
#[pyfunction]
pub fn typed_value_object<'py>(
    obj: &Bound<'py, PyAny>,
    value: &Bound<'py, PyAny>,
    kinds: &Bound<'py, PyDict>,
    part: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let is = |name: &str| -> PyResult<bool> {
        match kinds.get_item(name)? {
            Some(cls) => obj.is_instance(&cls),
            None => Ok(false),
        }
    };
    let mapping = obj.getattr(intern!(py, "type_mapping"))?;
    let sub = obj.getattr(intern!(py, "sub_type"))?;
    let has_mapping = mapping.is_truthy()?;
    if is("Struct")? && has_mapping {
        if let Ok(fields) = value.cast::<PyDict>() {
            let out = PyDict::new(py);
            for item in mapping.try_iter()? {
                let (name, ty) = pair(&item?)?;
                out.set_item(&name, part.call1((fields.get_item(&name)?, ty))?)?;
            }
            return Ok(out.into_any());
        }
    }
    if is("Tuple")? && has_mapping {
        if mapping.len()? == 1 {
            return part
                .call1((value, mapping.get_item(0)?))?
                .getattr(intern!(py, "value_object"));
        }
        let parts = value
            .try_iter()?
            .zip(mapping.try_iter()?)
            .map(|(v, t)| part.call1((v?, t?)))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(PyTuple::new(py, parts)?.into_any());
    }
    if is("Bytes")? || is("String")? {
        return Ok(raw_bytes(value)?.into_any());
    }
    if is("Option")? {
        if value.is_none() || sub.is_none() {
            return Ok(py.None().into_bound(py));
        }
        return part.call1((value, sub));
    }
    if is("Vec")? && !sub.is_none() {
        if value.is_instance_of::<PyString>() {
            // Vec<u8>: the bytes themselves
            return Ok(raw_bytes(value)?.into_any());
        }
        let parts = PyList::empty(py);
        if value.is_truthy()? {
            for v in value.try_iter()? {
                parts.append(part.call1((v?, &sub))?)?;
            }
        }
        return Ok(parts.into_any());
    }
    if is("FixedLengthArray")? && value.is_instance_of::<PyString>() {
        return Ok(raw_bytes(value)?.into_any());
    }
    let is_sequence = mapping.is_instance_of::<PyList>() || mapping.is_instance_of::<PyTuple>();
    if is("Enum")? && is_sequence && has_mapping {
        let types = PyDict::new(py);
        for item in mapping.try_iter()? {
            let (name, ty) = pair(&item?)?;
            types.set_item(name, ty)?;
        }
        if let Ok(variant) = value.cast::<PyDict>() {
            if let (1, Some((name, inner))) = (variant.len(), variant.iter().next()) {
                let ty = types.get_item(&name)?;
                if is_null(ty.as_ref())? {
                    return Ok(PyTuple::new(py, [name, py.None().into_bound(py)])?.into_any());
                }
                let inner = part.call1((inner, ty))?;
                return Ok(PyTuple::new(py, [name, inner])?.into_any());
            }
        }
        if value.is_instance_of::<PyString>() {
            for ty in types.values() {
                if !is_null(Some(&ty))? {
                    return Ok(
                        PyTuple::new(py, [value.clone(), py.None().into_bound(py)])?.into_any()
                    );
                }
            }
        }
    }
    Ok(value.clone())
}
