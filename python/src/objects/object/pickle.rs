//! Pickling a scale object: as the bytes behind its value and its
//! configuration, or (a typed part) as the call that makes it again.

use crate::convert::scale_bytes::PyScaleBytes;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyTuple};

use super::{opt, ScaleObject, CACHE_PREFIX};

impl ScaleObject {
    /// `__reduce__`.
    pub(super) fn reduce<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        if slf.try_borrow()?.origin.is_some() {
            // a part made from a tree is pickled with its value made
            Self::value_now(slf)?;
        }
        let this = slf.try_borrow()?;
        if let Some(origin) = &this.origin {
            let value = opt(py, &this.values.value(py)).into_bound(py);
            let config = opt(py, &this.runtime_config).into_bound(py);
            let origin = origin.clone_ref(py);
            drop(this);
            let type_string = slf.getattr(intern!(py, "type_string"))?;
            let args = origin.get().remake_args(py, value, type_string, config)?;
            let remake = crate::package::name::import(py, "_core")?.getattr("typed_part")?;
            let attrs = slf
                .getattr(intern!(py, "__dict__"))?
                .cast_into::<PyDict>()?
                .copy()?;
            for key in attrs.keys() {
                if key
                    .extract::<&str>()
                    .is_ok_and(|k| k.starts_with(CACHE_PREFIX))
                {
                    attrs.del_item(key)?;
                }
            }
            return (remake, args, attrs).into_pyobject(py);
        }
        let data = match (&this.data, this.data_end_offset) {
            (Some(_), Some(_)) => {
                let used = this.get_used_bytes(py)?;
                PyBytes::new(py, &used.extract::<Vec<u8>>()?).into_any()
            }
            _ => py.None().into_bound(py),
        };
        let config = opt(py, &this.runtime_config);
        drop(this);
        let restore = crate::package::name::import(py, "_core")?.getattr("restore_object")?;
        let type_string = slf.getattr(intern!(py, "type_string"))?;
        (restore, (type_string, data, config)).into_pyobject(py)
    }
}

/// Unpickles a scale object: `type_string`'s object in `config`, decoded
/// from `data` when there is data.
#[pyfunction]
pub fn restore_object<'py>(
    type_string: &Bound<'py, PyAny>,
    data: Option<&[u8]>,
    config: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = config.py();
    let buffer = match data {
        Some(d) => {
            Bound::new(py, PyScaleBytes::new(&PyByteArray::new(py, d).into_any())?)?.into_any()
        }
        None => py.None().into_bound(py),
    };
    let obj = config.call_method1(intern!(py, "create_scale_object"), (type_string, buffer))?;
    if data.is_some() {
        obj.call_method0(intern!(py, "decode"))?;
    }
    Ok(obj)
}

#[cfg(test)]
mod cache_name_tests {
    #[test]
    fn cache_names_are_left_out_of_pickles() {
        assert!(super::super::STORAGE_INDEX_ATTR.starts_with(super::super::CACHE_PREFIX));
    }
}
