//! Calls and extrinsics as py-scale-codec shows them: a call's pallet and
//! call the metadata's objects, an extrinsic's hash, signedness, format
//! version and parts (call, length, signer, signature, era) as objects.

use crate::objects::object::ScaleObject;
use crate::objects::views::{base, part, value_get, view};
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

/// A call's `value_object`, as py-scale-codec's: its pallet
/// (`call_module`) and call (`call_function`) the metadata's own objects,
/// `call_args` its arguments holding their values (see
/// [`args_holding_values`]), the other
/// fields as they are. Without metadata to find them in, the pallet and
/// call are objects with `.name` (`_MetaRef`) and `call_args` the
/// arguments with their values as parts.
fn call_value_object<'py>(
    obj: &Bound<'py, PyAny>,
    value: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let config = obj.getattr(intern!(py, "runtime_config"))?;
    let Ok(fields) = value.cast::<PyDict>() else {
        return crate::objects::typed_parts::wrap_parts(value, &config);
    };
    let (pallet, call) = call_lookup(obj, fields)?.unzip();
    let (plain, named) = (
        crate::package::catalogue::scale_class(py, "_Part")?,
        crate::package::catalogue::scale_class(py, "_MetaRef")?,
    );
    let view = PyDict::new(py);
    for (key, field) in fields.iter() {
        let part = match key.extract::<&str>()? {
            "call_module" => match &pallet {
                Some(pallet) => pallet.clone(),
                None => named.call1((field, &config))?,
            },
            "call_function" => match &call {
                Some(call) => call.clone(),
                None => named.call1((field, &config))?,
            },
            "call_args" => match &call {
                Some(call) => args_holding_values(call, &field, &config)?,
                None => args_with_value_parts(&field, &plain, &config)?,
            },
            _ if pallet.is_some() => field,
            _ => plain.call1((field, &config))?,
        };
        view.set_item(&key, part)?;
    }
    Ok(view.into_any())
}

/// The pallet and call metadata objects of a call value (`None` when the
/// object has no metadata or the metadata does not name both).
fn call_lookup<'py>(
    obj: &Bound<'py, PyAny>,
    fields: &Bound<'py, PyDict>,
) -> PyResult<Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
    let (Some(module), Some(function)) = (
        fields.get_item("call_module")?,
        fields.get_item("call_function")?,
    ) else {
        return Ok(None);
    };
    if !module.is_instance_of::<PyString>() {
        return Ok(None);
    }
    let (pallet, call) = crate::objects::views::pallet_and_entry(obj, &module, "calls", &function)?;
    Ok(call.map(|call| (pallet, call)))
}

/// A call's `call_args` as py-scale-codec's `value_object` holds them,
/// from the call's metadata object `call` and its decoded arguments
/// `values` (`[{"name", "type", "value"}…]`), each value an object of its
/// argument's type:
///
/// - V14+: the call variant's fields (`Vec<Field>`), each field's
///   `value_object` with a `"value"` entry, the argument's object. These
///   are copies: py-scale-codec writes the entry into the metadata's own
///   field objects, so that a call decoded later overwrites the arguments
///   of one decoded before; here the metadata is left as it is.
/// - V9–V13: `{argument name: argument's object}`.
fn args_holding_values<'py>(
    call: &Bound<'py, PyAny>,
    values: &Bound<'py, PyAny>,
    config: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = call.py();
    let args = call.getattr(intern!(py, "args"))?;
    let values: Vec<Bound<'py, PyAny>> = match values.cast::<PyList>() {
        Ok(list) => list.iter().collect(),
        Err(_) => return Ok(args),
    };
    let value_of = |i: usize| -> PyResult<Bound<'py, PyAny>> {
        match values.get(i) {
            Some(arg) => arg.get_item("value"),
            None => Ok(py.None().into_bound(py)),
        }
    };
    let arg_object = |value: Bound<'py, PyAny>, type_string: Bound<'py, PyAny>| {
        crate::objects::typed_parts::typed_part(
            value,
            type_string,
            config.clone(),
            Some(config.clone()),
            None,
        )
    };
    // a V14+ call is a variant of the pallet's call enum, with `fields`
    let is_v14 = call
        .getattr(intern!(py, "value"))?
        .cast::<PyDict>()
        .is_ok_and(|v| v.contains("fields").unwrap_or(false));
    if !is_v14 {
        let by_name = PyDict::new(py);
        for (i, arg) in args.try_iter()?.enumerate() {
            let arg = arg?;
            let object = arg_object(value_of(i)?, arg.getattr(intern!(py, "type"))?)?;
            by_name.set_item(arg.getattr(intern!(py, "name"))?, object)?;
        }
        return Ok(by_name.into_any());
    }
    let Ok(vec) = args.cast::<ScaleObject>() else {
        return Ok(args);
    };
    let fields = PyList::empty(py);
    for (i, field) in args
        .getattr(intern!(py, "value_object"))?
        .try_iter()?
        .enumerate()
    {
        let field = field?;
        let Ok(field_part) = field.cast::<ScaleObject>() else {
            return Ok(args);
        };
        // a field built otherwise (by a user's class) keeps the arguments as they are
        let Ok(field_object) = field
            .getattr(intern!(py, "value_object"))?
            .cast_into::<PyDict>()
        else {
            return Ok(args);
        };
        let holding = field_object.copy()?;
        holding.set_item(
            "value",
            arg_object(value_of(i)?, field.getattr(intern!(py, "type"))?)?,
        )?;
        match ScaleObject::part_with_value_object(field_part, holding.into_any())? {
            Some(copy) => fields.append(copy)?,
            None => return Ok(args),
        }
    }
    Ok(ScaleObject::part_with_value_object(vec, fields.into_any())?.unwrap_or(args))
}

/// A call's arguments (`[{"name", "type", "value"}…]`) with each value as
/// a plain part.
fn args_with_value_parts<'py>(
    args: &Bound<'py, PyAny>,
    plain: &Bound<'py, PyAny>,
    config: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = args.py();
    let Ok(args) = args.cast::<PyList>() else {
        return plain.call1((args, config));
    };
    let wrapped = PyList::empty(py);
    for arg in args.iter() {
        match arg.cast::<PyDict>() {
            Ok(a) if a.contains("value")? => {
                let copy = a.copy()?;
                copy.set_item("value", plain.call1((a.get_item("value")?, config))?)?;
                wrapped.append(copy)?;
            }
            _ => wrapped.append(plain.call1((arg, config))?)?,
        }
    }
    Ok(wrapped.into_any())
}

view!(
    CallView,
    "CallView",
    extends = ScaleObject,
    init = base(),
    getters = {
        /// The pallet: the metadata's pallet object (`.name`, `.calls` …).
        call_module: part("call_module"),
        /// The call: the metadata's call object (`.name`, `.args`, `.docs` …).
        call_function: part("call_function"),
    },
    {
        //! The call of a decoded value: `call_module` and `call_function` the
        //! metadata's pallet and call objects, `call_args` the call's argument
        //! definitions (see `call_value_object`).

        /// The call's BLAKE2b-256 hash as `bytes` once encoded (as in
        /// py-scale-codec) or decoded (there `None`; the value holds it as
        /// `"0x…"` in both), else `None`.
        #[getter]
        fn call_hash<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyBytes>>> {
            crate::objects::views::hash_bytes(slf.as_any(), "call_hash")
        }

        /// The pallet and call index in hex, without `0x` (as py-scale-codec
        /// keeps it), once decoded or encoded.
        #[getter]
        fn call_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            if let Some(bytes) = crate::objects::views::encoded_bytes(slf.as_any())? {
                if let [pallet, call, ..] = bytes[..] {
                    let index = format!("{pallet:02x}{call:02x}");
                    return Ok(PyString::new(slf.py(), &index).into_any());
                }
            }
            let index = value_get(slf.as_any(), "call_index")?;
            if let Ok(text) = index.extract::<&str>() {
                if let Some(hex) = text.strip_prefix("0x") {
                    return Ok(PyString::new(slf.py(), hex).into_any());
                }
            }
            Ok(index)
        }

        /// The call's argument definitions (the call object's `args`), as
        /// py-scale-codec gives them; the values are in `value["call_args"]`.
        #[getter]
        fn call_args<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            if !slf
                .getattr(intern!(py, "value"))?
                .is_instance_of::<PyDict>()
            {
                return Ok(PyDict::new(py).into_any());
            }
            part(slf.as_any(), "call_args")
        }

        /// See [`call_value_object`].
        fn _build_value_object<'py>(
            slf: &Bound<'py, Self>,
            value: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            call_value_object(slf.as_any(), value)
        }
    }
);

view!(
    ExtrinsicView,
    "ExtrinsicView",
    extends = ScaleObject,
    init = base(),
    {
        //! An extrinsic as py-scale-codec shows it: hash, signedness, format
        //! version, and a `value_object` whose call, length and era are objects.

        /// The extrinsic's BLAKE2b-256 hash as `bytes` (py-scale-codec's
        /// shape) once decoded or encoded, else `None`.
        #[getter]
        fn extrinsic_hash<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyBytes>>> {
            crate::objects::views::hash_bytes(slf.as_any(), "extrinsic_hash")
        }

        /// Whether the extrinsic carries a signature, once decoded or
        /// encoded (`None` before).
        #[getter]
        fn signed(slf: &Bound<'_, Self>) -> PyResult<Option<bool>> {
            let py = slf.py();
            if let Some(bytes) = crate::objects::views::encoded_bytes(slf.as_any())? {
                // After the compact length prefix, the version byte's top bit.
                let Some(&first) = bytes.first() else {
                    return Ok(None);
                };
                let prefix = ferroscale_dynamic::ops::compact::encoded_len(first);
                return Ok(bytes.get(prefix).map(|version| version & 0x80 != 0));
            }
            let value = slf.getattr(intern!(py, "value"))?;
            if !slf.getattr(intern!(py, "decoded"))?.is_truthy()?
                || !value.is_instance_of::<PyDict>()
            {
                return Ok(None);
            }
            value.contains("signature").map(Some)
        }

        /// The extrinsic format: 4, or 5 for a bare or general (`0x45`)
        /// transaction, whose value also names its `extension_version`
        /// (`None` before decoding).
        #[getter]
        fn version<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
            let py = slf.py();
            let value = slf.getattr(intern!(py, "value"))?;
            let Ok(fields) = value.cast::<PyDict>() else {
                return Ok(None);
            };
            if !slf.getattr(intern!(py, "decoded"))?.is_truthy()?
                || crate::objects::object::ScaleObject::was_encoded(slf.as_any())
            {
                return Ok(None);
            }
            let version = match fields.get_item("version")? {
                Some(version) => version,
                None => 4u8.into_pyobject(py)?.into_any(),
            };
            Ok(Some(version))
        }

        /// The value's parts, as py-scale-codec keeps them: the call a call
        /// object, the length prefix (also after encoding) a part whose used
        /// bytes are its compact encoding, the signer and signature objects
        /// of their types, the era an `Era`; the hash only in the value.
        fn _build_value_object<'py>(
            slf: &Bound<'py, Self>,
            value: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let config = slf.getattr(intern!(py, "runtime_config"))?;
            let view = crate::objects::typed_parts::wrap_parts(value, &config)?;
            let (Ok(fields), Ok(view_dict)) = (value.cast::<PyDict>(), view.cast::<PyDict>())
            else {
                return Ok(view);
            };
            if view_dict.contains("extrinsic_hash")? {
                view_dict.del_item("extrinsic_hash")?;
            }
            // The length: the value's, or (an extrinsic encoded from a value
            // without one) the encoded bytes' prefix.
            let length: Option<u128> = match fields.get_item("extrinsic_length")? {
                Some(length) => Some(length.extract()?),
                None => crate::objects::views::encoded_bytes(slf.as_any())?
                    .and_then(|bytes| ferroscale_dynamic::ops::compact::decode(&bytes))
                    .map(|(length, _)| length),
            };
            if let Some(length) = length {
                let prefix = crate::ops::encode_compact(py, length);
                let part = crate::package::catalogue::scale_class(py, "_LengthPart")?
                    .call1((length, &config, prefix))?;
                view_dict.set_item("extrinsic_length", part)?;
            }
            if let Some(call) = fields.get_item("call")? {
                let part = crate::package::catalogue::scale_class(py, "_CallPart")?
                    .call1((call, &config))?;
                // the call finds its pallet and call objects in the extrinsic's metadata
                part.setattr(
                    intern!(py, "metadata"),
                    slf.getattr(intern!(py, "metadata"))?,
                )?;
                view_dict.set_item("call", part)?;
            }
            // The signer and signature as objects of the runtime's types
            // (`GenericMultiAddress`: `account_id`, `index`).
            for (key, type_string) in [("address", "Address"), ("signature", "ExtrinsicSignature")]
            {
                if let Some(part) = fields.get_item(key)? {
                    let typed = crate::objects::typed_parts::typed_part(
                        part,
                        PyString::new(py, type_string).into_any(),
                        config.clone(),
                        Some(config.clone()),
                        None,
                    )?;
                    view_dict.set_item(key, typed)?;
                }
            }
            if let Some(era_value) = fields.get_item("era")? {
                let kwargs = PyDict::new(py);
                kwargs.set_item("runtime_config", &config)?;
                let era =
                    crate::package::catalogue::scale_class(py, "Era")?.call((), Some(&kwargs))?;
                if let Err(e) = era.call_method1(intern!(py, "encode"), (&era_value,)) {
                    if !(e.is_instance_of::<PyValueError>(py)
                        || e.is_instance_of::<pyo3::exceptions::PyTypeError>(py))
                    {
                        return Err(e);
                    }
                    era.setattr(intern!(py, "value"), &era_value)?;
                }
                view_dict.set_item("era", era)?;
            }
            Ok(view)
        }
    }
);
