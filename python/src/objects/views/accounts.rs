//! Account ids (public key, SS58 address in the configuration's format)
//! and `MultiAddress` (account id, index).
//!
//! Each class here is a base `scalecodec.types` mixes into the class of
//! that name (`class GenericAccountId(_core.AccountIdView, ScaleType)`, see
//! [`crate::objects::views`]).

use crate::objects::object::ScaleObject;
use crate::objects::views::shared::{
    enum_index, hex, own, set_own, untouched, used_bytes, value_bytes,
};
use crate::objects::views::values::EnumView;
use crate::objects::views::{base, value_get, view};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};

/// The SS58 address of `raw` in the object's configuration's format (`None` without one).
fn ss58_in_config<'py>(obj: &Bound<'py, PyAny>, raw: &[u8]) -> PyResult<Option<String>> {
    let py = obj.py();
    let format = obj
        .getattr(intern!(py, "runtime_config"))?
        .getattr(intern!(py, "ss58_format"))?;
    if format.is_none() {
        return Ok(None);
    }
    crate::ops::ss58::ss58_encode(PyBytes::new(py, raw).as_any(), Some(&format)).map(Some)
}

view!(
    AccountIdView,
    "AccountIdView",
    extends = ScaleObject,
    init = base(),
    {
        //! A 32-byte account id: its public key and SS58 address, worked out
        //! when read (so that decoding needs no Python hook) unless set.

        /// `"0x…"` hex of the 32 bytes (`None` before decode/encode).
        #[getter]
        fn public_key<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let obj = slf.as_any();
            match own(obj, "_public_key")? {
                Some(set) => Ok(set),
                None if untouched(obj)? => Ok(slf.py().None().into_bound(slf.py())),
                None => Ok(PyString::new(slf.py(), &hex(&used_bytes(obj)?)).into_any()),
            }
        }

        #[setter]
        fn set_public_key(slf: &Bound<'_, Self>, value: Bound<'_, PyAny>) -> PyResult<()> {
            set_own(slf.as_any(), "_public_key", value)
        }

        /// The SS58 address in the configuration's format (`None` without one).
        #[getter]
        fn ss58_address<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let (py, obj) = (slf.py(), slf.as_any());
            if let Some(set) = own(obj, "_ss58_address")? {
                return Ok(set);
            }
            if untouched(obj)? {
                return Ok(py.None().into_bound(py));
            }
            let value = obj.getattr(intern!(py, "value"))?;
            if let Ok(text) = value.cast::<PyString>() {
                if !text.to_cow()?.starts_with("0x") {
                    return Ok(value);
                }
            }
            Ok(ss58_in_config(obj, &used_bytes(obj)?)?
                .into_pyobject(py)?
                .into_any())
        }

        #[setter]
        fn set_ss58_address(slf: &Bound<'_, Self>, value: Bound<'_, PyAny>) -> PyResult<()> {
            set_own(slf.as_any(), "_ss58_address", value)
        }

        // an encoded account's value is its address in the configuration's format, else hex
        fn _encoded_value(slf: &Bound<'_, Self>, _value: &Bound<'_, PyAny>) -> PyResult<String> {
            let raw = used_bytes(slf.as_any())?;
            Ok(ss58_in_config(slf.as_any(), &raw)?.unwrap_or_else(|| hex(&raw)))
        }
    }
);

view!(
    MultiAddressView,
    "MultiAddressView",
    extends = EnumView,
    init = base().add_subclass(EnumView),
    {
        //! `MultiAddress`: the account behind it.

        /// The 32-byte account (hex without `0x`) behind `Id`, `Address32`,
        /// `Address20` and `Raw` addresses, else `None`; also on the address
        /// part of a decoded extrinsic.
        #[getter]
        fn account_id(slf: &Bound<'_, Self>) -> PyResult<Option<String>> {
            Ok(crate::ops::multi_address_account_id(&value_bytes(
                slf.as_any(),
            )?))
        }

        /// The variant index (the discriminant byte), also of a part, whose
        /// bare account or index names no variant: its value encoded again.
        #[getter]
        fn index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let index = enum_index(slf.as_any())?;
            if !index.is_none() || !slf.getattr(intern!(py, "decoded"))?.is_truthy()? {
                return Ok(index);
            }
            Ok(value_bytes(slf.as_any())?
                .first()
                .into_pyobject(py)?
                .into_any())
        }

        #[setter]
        fn set_index(slf: &Bound<'_, Self>, value: Bound<'_, PyAny>) -> PyResult<()> {
            set_own(slf.as_any(), "_index", value)
        }

        /// The account index when the address is an `Index`.
        #[getter]
        fn account_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let value = slf.getattr(intern!(py, "value"))?;
            if value.is_instance_of::<PyDict>() {
                return value_get(slf.as_any(), "Index");
            }
            if value.is_instance_of::<pyo3::types::PyInt>() {
                return Ok(value);
            }
            Ok(py.None().into_bound(py))
        }
    }
);
