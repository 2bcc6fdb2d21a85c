//! The classes that decode and encode beside the type graph: users'
//! structs and tuples (`CompositeView`), raw bytes, floats, and the
//! `value_object` of text and bytes.
//!
//! Each class here is a base `scalecodec.types` mixes into the class of
//! that name (`class GenericAccountId(_core.AccountIdView, ScaleType)`, see
//! [`crate::objects::views`]).

use crate::objects::object::ScaleObject;
use crate::objects::views::shared::{data_bytes, hex};
use crate::objects::views::{base, view};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};

/// The fields of a struct or tuple class defined the py-scale-codec way
/// (`type_mapping`: `(name, type)` pairs, or a tuple's types).
fn declared_fields(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(Option<String>, String)>> {
    let mapping = obj.getattr(intern!(obj.py(), "type_mapping"))?;
    if !mapping.is_truthy()? {
        return Ok(Vec::new());
    }
    let mut fields = Vec::new();
    for item in mapping.try_iter()? {
        let item = item?;
        if let Ok(ty) = item.extract::<String>() {
            fields.push((None, ty));
        } else {
            // a `(name, type)` pair: a tuple or a list
            let pair: Vec<String> = item.extract()?;
            let [name, ty] = <[String; 2]>::try_from(pair).map_err(|_| {
                pyo3::exceptions::PyValueError::new_err(
                    "a type_mapping entry must be a (name, type) pair",
                )
            })?;
            fields.push((Some(name), ty));
        }
    }
    Ok(fields)
}

/// The object's class has a type string of its own (not defined by its fields).
fn has_type_string(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(!obj.getattr(intern!(obj.py(), "type_string"))?.is_none())
}

view!(
    CompositeView,
    "CompositeView",
    extends = ScaleObject,
    init = base(),
    {
        //! A struct or tuple: a class users define without a type string
        //! (`type("X", (Struct,), {"type_mapping": …})`) is decoded and encoded
        //! field by field by the registry.

        fn _decode_value<'py>(
            slf: &Bound<'py, Self>,
            data: &Bound<'py, PyAny>,
            offset: usize,
            check_remaining: bool,
        ) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            if has_type_string(slf.as_any())? {
                let by_type = py
                    .get_type::<ScaleObject>()
                    .getattr(intern!(py, "_decode_value"))?;
                return by_type.call1((slf, data, offset, check_remaining));
            }
            let registry = slf
                .getattr(intern!(py, "runtime_config"))?
                .getattr(intern!(py, "_registry"))?;
            let bytes = PyBytes::new(py, &data_bytes(data)?);
            registry.call_method1(
                intern!(py, "decode_fields"),
                (
                    declared_fields(slf.as_any())?,
                    bytes,
                    offset,
                    check_remaining,
                ),
            )
        }

        fn _encode_value<'py>(
            slf: &Bound<'py, Self>,
            value: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            if has_type_string(slf.as_any())? {
                let by_type = py
                    .get_type::<ScaleObject>()
                    .getattr(intern!(py, "_encode_value"))?;
                return by_type.call1((slf, value));
            }
            let registry = slf
                .getattr(intern!(py, "runtime_config"))?
                .getattr(intern!(py, "_registry"))?;
            registry.call_method1(
                intern!(py, "encode_fields"),
                (declared_fields(slf.as_any())?, value),
            )
        }
    }
);

view!(
    RawBytesView,
    "RawBytesView",
    extends = ScaleObject,
    init = base(),
    {
        //! Uninterpreted bytes: all of the remaining input, `"0x…"`.

        fn _decode_value(
            &self,
            data: &Bound<'_, PyAny>,
            offset: usize,
            check_remaining: bool,
        ) -> PyResult<(String, usize)> {
            let _ = check_remaining; // the rest of the input is the value
            let bytes = data_bytes(data)?;
            let rest = bytes.get(offset..).unwrap_or(&[]);
            Ok((hex(rest), rest.len()))
        }

        fn _encode_value<'py>(&self, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
            let py = value.py();
            let buffer = crate::convert::scale_bytes::PyScaleBytes::new(value)?;
            let data = buffer.data(py);
            Ok(PyBytes::new(py, &data_bytes(data.bind(py))?))
        }
    }
);

/// The byte size of a float class (`_size`: 4 or 8).
fn float_size(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    obj.getattr(intern!(obj.py(), "_size"))?.extract()
}

view!(
    FloatView,
    "FloatView",
    extends = ScaleObject,
    init = base(),
    {
        //! IEEE floats (not SCALE types), `_size` bytes.

        fn _decode_value(
            slf: &Bound<'_, Self>,
            data: &Bound<'_, PyAny>,
            offset: usize,
            check_remaining: bool,
        ) -> PyResult<(f64, usize)> {
            crate::ops::decode_float(
                slf.py(),
                &data_bytes(data)?,
                offset,
                float_size(slf.as_any())?,
                check_remaining,
            )
        }

        fn _encode_value<'py>(
            slf: &Bound<'py, Self>,
            value: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyBytes>> {
            crate::ops::encode_float(slf.py(), value, float_size(slf.as_any())?)
        }
    }
);

view!(
    TextView,
    "TextView",
    extends = ScaleObject,
    init = base(),
    {
        //! Text: its `value_object` is its UTF-8 bytes (a `bytearray`), as py-scale-codec keeps it.

        fn _build_value_object<'py>(
            &self,
            value: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            text_value_object(value)
        }
    }
);

/// py-scale-codec keeps text and bytes as their bytes in `value_object`.
fn text_value_object<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if value.is_instance_of::<PyString>() {
        return Ok(crate::objects::typed_parts::raw_bytes(value)?.into_any());
    }
    Ok(value.clone())
}

/// A `Bytes` value as py-scale-codec serializes it: `"0x…"` hex.
fn bytes_serialized<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let value = obj.getattr(intern!(obj.py(), "value"))?;
    if value.is_instance_of::<PyString>() {
        let raw = crate::objects::typed_parts::raw_bytes(&value)?.to_vec();
        return Ok(PyString::new(obj.py(), &hex(&raw)).into_any());
    }
    Ok(value)
}

view!(
    BytesView,
    "BytesView",
    extends = ScaleObject,
    init = base(),
    {
        //! `Vec<u8>`/`Bytes`: text when valid UTF-8, else `"0x…"`; shown and
        //! serialized as hex, `value_object` the bytes.

        /// The bytes as `"0x…"` hex (py-scale-codec's rendering of `Bytes`).
        fn serialize<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            bytes_serialized(slf.as_any())
        }

        fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
            Ok(bytes_serialized(slf.as_any())?.str()?.to_string())
        }

        fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
            let name = slf.get_type().name()?;
            Ok(format!(
                "<{name}(value={})>",
                bytes_serialized(slf.as_any())?.str()?
            ))
        }

        fn _build_value_object<'py>(
            &self,
            value: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            text_value_object(value)
        }
    }
);
