//! A pallet's storage entries (V9–V13 and V14+): modifier, shape, and the
//! key, value and hasher types their shape gives.
//!
//! Each class here is a base `scalecodec.types` mixes into the scale class
//! of its name (`class GenericPalletMetadata(_core.PalletView, Struct)`), so
//! that the objects stay what py-scale-codec's are (a pallet is a `Struct`
//! whose `value_object` holds typed parts, see [`crate::objects::typed_parts`])
//! while what they answer is Rust. The classes hold nothing of their own:
//! they read `value` and `value_object` of the object.

use crate::metadata::read::{convert_type, decomposition, depth, type_id_string};
use crate::objects::object::ScaleObject;
use crate::objects::views::{base, item, view};
use pyo3::exceptions::PyNotImplementedError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::{PyDict, PyList, PyTuple};

impl StorageEntryView {
    /// `(shape, value type, key types, hashers)` of the entry's `type`.
    fn types<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let scale_info = slf.is_instance_of::<ScaleInfoStorageEntryView>();
        let ty = item(slf.as_any(), "type")?;
        crate::metadata::rules::storage_entry_types(&ty, scale_info)?.into_pyobject(slf.py())
    }
}

view!(
    StorageEntryView,
    "StorageEntryView",
    extends = ScaleObject,
    init = base(),
    docs = "documentation",
    getters = {
        /// `"Optional"` or `"Default"`.
        modifier: item("modifier"),
    },
    {
        //! A V9–V13 storage function (and the storage-version entry of every pallet).

        /// `{"Plain": …}`, `{"Map": …}`, `{"DoubleMap": …}` or `{"NMap": …}`.
        #[getter(r#type)]
        fn entry_type<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            item(slf.as_any(), "type")
        }

        /// The type string of a type named in the entry.
        fn get_type_string_for_type(&self, ty: &Bound<'_, PyAny>) -> PyResult<String> {
            convert_type(ty)
        }

        /// The value type.
        fn get_value_type_string<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::types(slf)?.get_item(1)
        }

        /// The key types, one per hasher.
        fn get_params_type_string<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::types(slf)?.get_item(2)
        }

        /// The hashers, one per key (`Twox64Concat` for a plain entry).
        fn get_param_hashers<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::types(slf)?.get_item(3)
        }

        /// Not available for V9–V13 entries (as in py-scale-codec).
        #[pyo3(signature = (max_recursion = None))]
        fn get_param_info(&self, max_recursion: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
            let _ = max_recursion;
            Err(PyNotImplementedError::new_err(()))
        }
    }
);

impl ScaleInfoStorageEntryView {
    /// The class of the map's key type (`None` for a plain entry).
    fn key_class<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let py = slf.py();
        match Self::get_key_type_string(slf)? {
            Some(key) => Ok(Some(
                slf.getattr(intern!(py, "runtime_config"))?
                    .call_method1(intern!(py, "get_decoder_class"), (key,))?,
            )),
            None => Ok(None),
        }
    }
}

view!(
    ScaleInfoStorageEntryView,
    "ScaleInfoStorageEntryView",
    extends = StorageEntryView,
    init = base().add_subclass(StorageEntryView),
    {
        //! A V14+ storage function.

        /// `scale_info::N`.
        fn get_type_string_for_type(&self, ty: &Bound<'_, PyAny>) -> PyResult<String> {
            type_id_string(ty)
        }

        /// `scale_info::N` of the (possibly tuple) key of a map.
        fn get_key_type_string(slf: &Bound<'_, Self>) -> PyResult<Option<String>> {
            let ty = item(slf.as_any(), "type")?;
            if !ty.contains("Map")? {
                return Ok(None);
            }
            type_id_string(&ty.get_item("Map")?.get_item("key")?).map(Some)
        }

        /// The key types: a tuple key with several hashers gives one type per hasher.
        fn get_params_type_string<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let types = StorageEntryView::types(slf.as_super())?;
            if types.get_item(0)?.eq("Plain")? {
                return Ok(PyList::empty(py).into_any());
            }
            if let Some(key_class) = Self::key_class(slf)? {
                let mapping = key_class.getattr(intern!(py, "type_mapping"))?;
                let is_tuple = key_class
                    .getattr(intern!(py, "scale_info_type"))?
                    .get_item("def")?
                    .get_item(0)?
                    .eq("tuple")?;
                if mapping.is_truthy()? && is_tuple && types.get_item(3)?.len()? > 1 {
                    return Ok(mapping);
                }
            }
            Ok(PyList::new(py, [Self::get_key_type_string(slf)?])?.into_any())
        }

        /// The definition kind of the map's key type (`"tuple"`, `"composite"` …).
        fn get_key_scale_info_definition<'py>(
            slf: &Bound<'py, Self>,
        ) -> PyResult<Option<Bound<'py, PyAny>>> {
            match Self::key_class(slf)? {
                Some(cls) => Ok(Some(
                    cls.getattr(intern!(slf.py(), "scale_info_type"))?
                        .get_item("def")?
                        .get_item(0)?,
                )),
                None => Ok(None),
            }
        }

        /// The type decomposition of each key.
        #[pyo3(signature = (max_recursion = None))]
        fn get_param_info<'py>(
            slf: &Bound<'py, Self>,
            max_recursion: Option<Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyList>> {
            let max_recursion = depth(slf.py(), max_recursion)?;
            let info = PyList::empty(slf.py());
            for ty in Self::get_params_type_string(slf)?.try_iter()? {
                info.append(decomposition(slf.as_any(), &ty?, &max_recursion)?)?;
            }
            Ok(info)
        }
    }
);
