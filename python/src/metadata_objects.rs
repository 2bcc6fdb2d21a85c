//! py-scale-codec's metadata object API: what a pallet, call, event,
//! error, storage entry, constant and the metadata itself answer, read from
//! the decoded metadata value.
//!
//! Each class here is a base `scalecodec.types` mixes into the scale class
//! of its name (`class GenericPalletMetadata(_core.PalletView, Struct)`), so
//! that the objects stay what py-scale-codec's are (a pallet is a `Struct`
//! whose `value_object` holds typed parts, see [`crate::typed_parts`]) while
//! the FRAME rules they answer with live here. The classes hold nothing of
//! their own: they read `value` and `value_object` of the object.

use pyo3::exceptions::{PyNotImplementedError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::object::ScaleObject;
use crate::object::STORAGE_INDEX_ATTR;
use crate::views::{base, inner_part, item, part, value_get, view};

/// py-scale-codec's default depth of `generate_type_decomposition`.
const TYPE_DECOMP_MAX_RECURSIVE: u32 = 9;

/// A `max_recursion` argument: what the caller gave (passed on as it is,
/// `generate_type_decomposition` checks it), else py-scale-codec's default.
fn depth<'py>(py: Python<'py>, given: Option<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
    match given {
        Some(depth) => Ok(depth),
        None => Ok(TYPE_DECOMP_MAX_RECURSIVE.into_pyobject(py)?.into_any()),
    }
}

/// `scale_info::N` of a portable type id.
fn type_id_string(id: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(format!("scale_info::{}", id.str()?))
}

/// The type decomposition of `type_string` in `obj`'s configuration.
fn decomposition<'py>(
    obj: &Bound<'py, PyAny>,
    type_string: &Bound<'py, PyAny>,
    max_recursion: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("max_recursion", max_recursion)?;
    obj.getattr(intern!(py, "runtime_config"))?
        .call_method1(intern!(py, "create_scale_object"), (type_string,))?
        .call_method(
            intern!(py, "generate_type_decomposition"),
            (),
            Some(&kwargs),
        )
}

/// py-scale-codec's normalisation of a legacy type name.
fn convert_type(name: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(ferroscale_dynamic::runtime::convert_type_string(
        &name.extract::<String>()?,
    ))
}

/// The first element of `items` whose `read` equals `wanted`.
fn find_by<'py>(
    items: &Bound<'py, PyAny>,
    wanted: &Bound<'py, PyAny>,
    read: impl Fn(&Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    for element in items.try_iter()? {
        let element = element?;
        if read(&element)?.eq(wanted)? {
            return Ok(Some(element));
        }
    }
    Ok(None)
}

view!(
    FieldView,
    "FieldView",
    extends = ScaleObject,
    init = base(),
    docs = "docs",
    {
        //! A field of a composite or variant (portable registry).

        /// `scale_info::N` of the field's type.
        #[getter(r#type)]
        fn field_type(slf: &Bound<'_, Self>) -> PyResult<String> {
            type_id_string(&item(slf.as_any(), "type")?)
        }

        /// `scale_info::N` of the field's type.
        fn get_type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            Self::field_type(slf)
        }
    }
);

view!(
    VariantView,
    "VariantView",
    extends = ScaleObject,
    init = base(),
    docs = "docs",
    {
        //! A variant (a call, event or error of a V14+ pallet).

        /// The fields (`GenericField` objects).
        #[getter]
        fn args<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            part(slf.as_any(), "fields")
        }

        /// `{field name: type decomposition}` of the fields.
        #[pyo3(signature = (max_recursion = None))]
        fn get_param_info<'py>(
            slf: &Bound<'py, Self>,
            max_recursion: Option<Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyDict>> {
            let py = slf.py();
            let max_recursion = depth(py, max_recursion)?;
            let info = PyDict::new(py);
            for arg in Self::args(slf)?.try_iter()? {
                let arg = arg?;
                let ty = arg.getattr(intern!(py, "type"))?;
                info.set_item(
                    arg.getattr(intern!(py, "name"))?,
                    decomposition(slf.as_any(), &ty, &max_recursion)?,
                )?;
            }
            Ok(info)
        }
    }
);

view!(
    TypeDefVariantView,
    "TypeDefVariantView",
    extends = ScaleObject,
    init = base(),
    {
        //! A variant type definition.

        /// The variant called `name`.
        fn get_variant_by_name<'py>(
            slf: &Bound<'py, Self>,
            name: &Bound<'py, PyAny>,
        ) -> PyResult<Option<Bound<'py, PyAny>>> {
            let variants = part(slf.as_any(), "variants")?;
            find_by(&variants, name, |v| {
                v.get_item("name")?.getattr(intern!(slf.py(), "value"))
            })
        }

        /// The variant with index `index`.
        fn get_variant_by_index<'py>(
            slf: &Bound<'py, Self>,
            index: &Bound<'py, PyAny>,
        ) -> PyResult<Option<Bound<'py, PyAny>>> {
            let variants = part(slf.as_any(), "variants")?;
            find_by(&variants, index, |v| {
                v.get_item("index")?.getattr(intern!(slf.py(), "value"))
            })
        }
    }
);

view!(
    ArgumentView,
    "ArgumentView",
    extends = ScaleObject,
    init = base(),
    {
        //! An argument of a V9–V13 call.

        /// The argument name.
        #[getter]
        fn name<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            item(slf.as_any(), "name")
        }

        /// The argument type, normalised.
        #[getter(r#type)]
        fn type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            convert_type(&item(slf.as_any(), "type")?)
        }
    }
);

view!(
    ScaleInfoArgumentView,
    "ScaleInfoArgumentView",
    extends = ArgumentView,
    init = base().add_subclass(ArgumentView),
    {
        //! An argument of a V14+ call.

        /// The type name when the metadata gives one, else `scale_info::N`.
        #[getter(r#type)]
        fn type_string<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let value = slf.getattr(intern!(py, "value"))?;
            let name = value.call_method1(intern!(py, "get"), ("typeName",))?;
            if name.is_truthy()? {
                return Ok(name);
            }
            Ok(type_id_string(&value.get_item("type")?)?
                .into_pyobject(py)?
                .into_any())
        }
    }
);

view!(
    FunctionView,
    "FunctionView",
    extends = ScaleObject,
    init = base(),
    docs = "documentation",
    {
        //! A V9–V13 call.

        /// The arguments (`GenericFunctionArgumentMetadata` objects).
        #[getter]
        fn args<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            inner_part(slf.as_any(), "args")
        }

        /// The call name.
        fn get_identifier<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            item(slf.as_any(), "name")
        }
    }
);

view!(
    PalletEnumView,
    "PalletEnumView",
    extends = ScaleObject,
    init = base(),
    {
        //! A V14+ pallet's call, event or error enum.

        /// `scale_info::N` of the enum.
        fn get_type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            type_id_string(&item(slf.as_any(), "ty")?)
        }

        /// The enum's variants (`GenericVariant` objects), from the registry
        /// of the metadata this is part of (or of the configuration, once the
        /// metadata is added to it).
        fn _variants<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            if !slf.getattr(intern!(py, "value_object"))?.is_truthy()? {
                return Ok(PyList::empty(py).into_any());
            }
            let root = slf.getattr(intern!(py, "_parts_root"))?;
            let ty = item(slf.as_any(), "ty")?;
            let mut registry_type = py.None().into_bound(py);
            if !root.is_none() {
                registry_type = root.call_method1(intern!(py, "_registry_type"), (&ty,))?;
            }
            if registry_type.is_none() {
                registry_type = slf
                    .getattr(intern!(py, "runtime_config"))?
                    .call_method1(
                        intern!(py, "get_decoder_class"),
                        (Self::get_type_string(slf)?,),
                    )?
                    .getattr(intern!(py, "scale_info_type"))?;
            }
            registry_type
                .get_item("def")?
                .get_item(1)?
                .get_item("variants")
        }
    }
);

impl StorageEntryView {
    /// `(shape, value type, key types, hashers)` of the entry's `type`.
    fn types<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let scale_info = slf.is_instance_of::<ScaleInfoStorageEntryView>();
        let ty = item(slf.as_any(), "type")?;
        crate::metadata_views::storage_entry_types(&ty, scale_info)?.into_pyobject(slf.py())
    }
}

view!(
    StorageEntryView,
    "StorageEntryView",
    extends = ScaleObject,
    init = base(),
    docs = "documentation",
    {
        //! A V9–V13 storage function (and the storage-version entry of every pallet).

        /// `"Optional"` or `"Default"`.
        #[getter]
        fn modifier<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            item(slf.as_any(), "modifier")
        }

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

view!(
    RuntimeCallDefinitionView,
    "RuntimeCallDefinitionView",
    extends = ScaleObject,
    init = base(),
    {
        //! A runtime-API call definition of a preset's `runtime_api`.

        /// The type decomposition of each parameter.
        #[pyo3(signature = (max_recursion = None))]
        fn get_param_info<'py>(
            slf: &Bound<'py, Self>,
            max_recursion: Option<Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyList>> {
            let max_recursion = depth(slf.py(), max_recursion)?;
            let info = PyList::empty(slf.py());
            for param in item(slf.as_any(), "params")?.try_iter()? {
                let ty = param?.get_item("type")?;
                info.append(decomposition(slf.as_any(), &ty, &max_recursion)?)?;
            }
            Ok(info)
        }
    }
);

view!(
    ConstantView,
    "ConstantView",
    extends = ScaleObject,
    init = base(),
    docs = "documentation",
    {
        //! A V9–V13 pallet constant.

        /// The constant's type, normalised.
        #[getter(r#type)]
        fn type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            convert_type(&item(slf.as_any(), "type")?)
        }

        /// The constant's SCALE bytes.
        #[getter]
        fn constant_value<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
            let py = slf.py();
            let value = slf
                .getattr(intern!(py, "value_object"))?
                .call_method1(intern!(py, "get"), ("value",))?;
            if !value.is_truthy()? {
                return Ok(None);
            }
            value.getattr(intern!(py, "value_object")).map(Some)
        }
    }
);

view!(
    ScaleInfoConstantView,
    "ScaleInfoConstantView",
    extends = ConstantView,
    init = base().add_subclass(ConstantView),
    {
        //! A V14+ pallet constant.

        /// `scale_info::N` of the constant's type.
        #[getter(r#type)]
        fn type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            type_id_string(&item(slf.as_any(), "type")?)
        }
    }
);

view!(
    PalletView,
    "PalletView",
    extends = ScaleObject,
    init = base(),
    {
        //! A V9–V13 module.

        /// The pallet name.
        #[getter]
        fn name<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            item(slf.as_any(), "name")
        }

        /// The calls (a `Vec` object), `None` when there are none.
        #[getter]
        fn calls<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            inner_part(slf.as_any(), "calls")
        }

        /// The constants (`GenericModuleConstantMetadata` objects).
        #[getter]
        fn constants<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            inner_part(slf.as_any(), "constants")
        }

        /// The errors.
        #[getter]
        fn errors<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            inner_part(slf.as_any(), "errors")
        }

        /// The events, `None` when there are none.
        #[getter]
        fn events<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
            let events = inner_part(slf.as_any(), "events")?;
            if !events.is_truthy()? {
                return Ok(None);
            }
            events.getattr(intern!(slf.py(), "value_object")).map(Some)
        }

        /// The pallet name.
        fn get_identifier<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            item(slf.as_any(), "name")
        }

        /// The storage functions, the storage-version entry first (as
        /// py-scale-codec lists it); `None` without storage.
        #[getter]
        fn storage<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyList>>> {
            let py = slf.py();
            let Some(entries) = storage_entries(slf.as_any())? else {
                return Ok(None);
            };
            let value = crate::metadata::storage_version_value(py)?;
            let config = slf.getattr(intern!(py, "runtime_config"))?;
            let version = crate::typed_parts::typed_part(
                value.into_any(),
                intern!(py, "StorageEntryMetadataV13").clone().into_any(),
                config,
                None,
                None,
            )?;
            // py-scale-codec encodes this entry, which leaves the default's text in place of its bytes
            let default = version.getattr(intern!(py, "value"))?.get_item("default")?;
            part(&version, "default")?.setattr(intern!(py, "value_object"), default)?;
            let all = PyList::new(py, [version])?;
            for entry in entries.try_iter()? {
                all.append(entry?)?;
            }
            Ok(Some(all))
        }

        /// The storage function called `name` (`PalletVersion`: the storage version).
        fn get_storage_function<'py>(
            slf: &Bound<'py, Self>,
            name: &Bound<'py, PyAny>,
        ) -> PyResult<Option<Bound<'py, PyAny>>> {
            let py = slf.py();
            let version = crate::metadata::STORAGE_VERSION.0;
            let wanted_version = name.eq("PalletVersion")? || name.eq(version)?;
            if wanted_version || !name.is_instance_of::<PyString>() {
                let name = if wanted_version {
                    version.into_pyobject(py)?.into_any()
                } else {
                    name.clone()
                };
                return match Self::storage(slf)? {
                    Some(entries) => find_by(entries.as_any(), &name, |e| item(e, "name")),
                    None => Ok(None),
                };
            }
            match storage_entries(slf.as_any())? {
                Some(entries) => storage_index(slf.as_any(), &entries)?.get_item(name),
                None => Ok(None),
            }
        }
    }
);

/// The pallet's storage entry objects (without the storage-version entry
/// py-scale-codec lists first), `None` when it has no storage.
fn storage_entries<'py>(pallet: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let storage = inner_part(pallet, "storage")?;
    if !storage.is_truthy()? {
        return Ok(None);
    }
    let entries = storage.get_item("entries")?;
    entries
        .getattr(intern!(pallet.py(), "value_object"))
        .map(Some)
}

/// The pallet's storage entries by name (the first of each name, as a scan
/// finds it): clients look one up before every query, and a scan of a
/// large pallet (Bittensor's 176 entries) read every entry's name. Kept in
/// the pallet object's `__dict__` while its entry list is the same object
/// of the same length (under [`STORAGE_INDEX_ATTR`]: not pickled).
fn storage_index<'py>(
    pallet: &Bound<'py, PyAny>,
    entries: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let py = pallet.py();
    let key = PyString::intern(py, STORAGE_INDEX_ATTR);
    let attrs = pallet
        .getattr(intern!(py, "__dict__"))?
        .cast_into::<PyDict>()?;
    let len = entries.len()?;
    if let Some(kept) = attrs.get_item(&key)? {
        let (list, kept_len, index) =
            kept.extract::<(Bound<'py, PyAny>, usize, Bound<'py, PyDict>)>()?;
        if list.is(entries) && kept_len == len {
            return Ok(index);
        }
    }
    let index = PyDict::new(py);
    for entry in entries.try_iter()? {
        let entry = entry?;
        let name = item(&entry, "name")?;
        if !index.contains(&name)? {
            index.set_item(name, entry)?;
        }
    }
    attrs.set_item(&key, (entries, len, &index))?;
    Ok(index)
}

/// A V14+ pallet's calls, events or errors from its `field` (V16 has one
/// enum-metadata type for all three): `[]` when it has none.
fn pallet_enum<'py>(slf: &Bound<'py, PyAny>, field: &str) -> PyResult<Bound<'py, PyAny>> {
    let inner = inner_part(slf, field)?;
    if !inner.is_truthy()? {
        return Ok(PyList::empty(slf.py()).into_any());
    }
    inner.call_method0(intern!(slf.py(), "_variants"))
}

view!(
    ScaleInfoPalletView,
    "ScaleInfoPalletView",
    extends = PalletView,
    init = base().add_subclass(PalletView),
    {
        //! A V14+ pallet.

        /// The calls (`GenericVariant` objects; `[]` without calls).
        #[getter]
        fn calls<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            pallet_enum(slf.as_any(), "calls")
        }

        /// The events (`GenericVariant` objects; `[]` without events).
        #[getter]
        fn events<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            pallet_enum(slf.as_any(), "event")
        }

        /// The errors (`GenericVariant` objects; `[]` without errors).
        #[getter]
        fn errors<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            pallet_enum(slf.as_any(), "error")
        }
    }
);

impl MetadataAllView {
    /// The version's metadata object (`value_object[1]`).
    fn inner<'py>(slf: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        slf.getattr(intern!(slf.py(), "value_object"))?.get_item(1)
    }

    /// The metadata version (the enum's index).
    fn version(slf: &Bound<'_, PyAny>) -> PyResult<u32> {
        slf.getattr(intern!(slf.py(), "index"))?.extract()
    }

    /// The V9–V13 `(call_index, event_index, error_index)` tables, built on
    /// first use and kept on the object.
    fn indexes<'py>(slf: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let attrs = slf.getattr(intern!(py, "__dict__"))?;
        if let Ok(built) = attrs
            .call_method1(intern!(py, "get"), ("_built_indexes",))?
            .cast_into::<PyTuple>()
        {
            return Ok(built);
        }
        let tables = [PyDict::new(py), PyDict::new(py), PyDict::new(py)];
        let version = Self::version(slf)?;
        if version < 14 {
            let inner = Self::inner(slf)?;
            let modules = inner.get_item("modules")?;
            let values = inner.getattr(intern!(py, "value"))?.get_item("modules")?;
            let found = crate::metadata_views::legacy_metadata_index(version, &values)?;
            for (table, m, i, key) in found {
                let module = modules.get_item(m)?;
                let field = ["calls", "events", "errors"][table];
                let entry = module
                    .get_item(field)?
                    .getattr(intern!(py, "value_object"))?
                    .get_item(i)?;
                if table < 2 {
                    entry.setattr(intern!(py, "lookup"), &key)?;
                    tables[table].set_item(&key, (module, entry))?;
                } else {
                    tables[table].set_item(&key, entry)?;
                }
            }
        }
        let built = PyTuple::new(py, tables)?;
        attrs.set_item("_built_indexes", &built)?;
        Ok(built)
    }
}

view!(
    MetadataAllView,
    "MetadataAllView",
    extends = ScaleObject,
    init = base(),
    {
        //! The versioned metadata enum (`{"V14": MetadataV14}`): pallets and, for V9–V13, the call / event / error indexes.

        /// The pallets (modules) as objects.
        #[getter]
        fn pallets<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let field = if Self::version(slf.as_any())? >= 14 {
                "pallets"
            } else {
                "modules"
            };
            inner_part(&Self::inner(slf.as_any())?, field)
        }

        /// `{"PPCC": (module, call)}` (V9–V13; empty for V14+, as in py-scale-codec).
        #[getter]
        fn call_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::indexes(slf.as_any())?.get_item(0)
        }

        /// `{"PPEE": (module, event)}` (V9–V13; empty for V14+).
        #[getter]
        fn event_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::indexes(slf.as_any())?.get_item(1)
        }

        /// `{"module-error": error}` (V9–V13; empty for V14+).
        #[getter]
        fn error_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::indexes(slf.as_any())?.get_item(2)
        }

        /// The portable registry object (V14+), else `None`.
        #[getter]
        fn portable_registry<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
            if Self::version(slf.as_any())? < 14 {
                return Ok(None);
            }
            part(&Self::inner(slf.as_any())?, "types").map(Some)
        }

        /// `call_index["{pallet_index}-{call_index}"]` (py-scale-codec's key form).
        fn get_call_function<'py>(
            slf: &Bound<'py, Self>,
            pallet_index: &Bound<'py, PyAny>,
            call_index: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let key = format!("{}-{}", pallet_index.str()?, call_index.str()?);
            Self::call_index(slf)?.call_method1(intern!(slf.py(), "get"), (key,))
        }

        /// Always `None` (as in py-scale-codec).
        fn get_event(&self, pallet_index: &Bound<'_, PyAny>, event_index: &Bound<'_, PyAny>) {
            let _ = (pallet_index, event_index);
        }

        /// The pallet called `name`, else `None`.
        fn get_metadata_pallet<'py>(
            slf: &Bound<'py, Self>,
            name: &Bound<'py, PyAny>,
        ) -> PyResult<Option<Bound<'py, PyAny>>> {
            find_by(&Self::pallets(slf)?, name, |p| item(p, "name"))
        }
    }
);

view!(
    EntryView,
    "EntryView",
    extends = ScaleObject,
    init = base(),
    docs = "documentation",
    {
        //! A V9–V13 error: name and documentation.
    }
);

view!(
    EventView,
    "EventView",
    extends = EntryView,
    init = base().add_subclass(EntryView),
    {
        //! A V9–V13 event: name, documentation and argument types.

        /// The argument types (a `Vec<Type>` object).
        #[getter]
        fn args<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            part(slf.as_any(), "args")
        }
    }
);

view!(
    MetadataVersionedView,
    "MetadataVersionedView",
    extends = ScaleObject,
    init = base(),
    {
        //! `MetadataVersioned`: runtime metadata V9–V16, decoded by Rust with
        //! py-scale-codec's definitions (`_core.decode_metadata`), which also
        //! reads the model behind `get_signed_extensions` (`_info`).

        /// Decodes the metadata at `offset` of `data`: `(value, bytes used)`;
        /// keeps the model (`_info`) and the metadata's bytes.
        fn _decode_value<'py>(
            slf: &Bound<'py, Self>,
            data: &Bound<'py, PyAny>,
            offset: usize,
            check_remaining: bool,
        ) -> PyResult<(Bound<'py, PyAny>, usize)> {
            let _ = check_remaining;
            let py = slf.py();
            let rest = match data.cast::<PyByteArray>() {
                Ok(array) => PyBytes::new(py, array.to_vec().get(offset..).unwrap_or(&[])),
                Err(_) => PyBytes::new(
                    py,
                    data.cast::<PyBytes>()?
                        .as_bytes()
                        .get(offset..)
                        .unwrap_or(&[]),
                ),
            };
            let (value, used, info) = crate::ops::decode_metadata(py, &rest)?;
            slf.setattr(intern!(py, "_info"), info)?;
            let used_bytes = PyBytes::new(py, &rest.as_bytes()[..used.min(rest.as_bytes().len())]);
            slf.setattr(intern!(py, "_metadata_bytes"), used_bytes)?;
            Ok((value, used))
        }

        /// Nothing to do before decoding: the metadata needs no runtime.
        fn _before_decode(&self) {}

        /// Builds the parts clients read right after loading a runtime
        /// (async-substrate-interface reads `get_metadata().value_object[1]`
        /// and the `value` of every portable-registry type, once per
        /// runtime) while the decoded value is still in the CPU's caches:
        /// on a cold cache the same first reads cost 3–7 times as much
        /// (about 75 µs here for Bittensor's 727 types, against 13 ms of
        /// decoding). The rest of the tree stays lazy. A failure is left
        /// for the first read of `value_object` to report.
        fn _after_decode(slf: &Bound<'_, Self>) {
            let py = slf.py();
            let _ = (|| -> PyResult<()> {
                let all = Self::get_metadata(slf)?;
                all.getattr(intern!(py, "value_object"))?;
                let registry = all.getattr(intern!(py, "portable_registry"))?;
                if !registry.is_none() {
                    registry
                        .getattr(intern!(py, "value_object"))?
                        .get_item("types")?
                        .getattr(intern!(py, "value_object"))?;
                }
                Ok(())
            })();
        }

        /// Metadata is decoded, never encoded here.
        fn _encode_value(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
            let _ = value;
            Err(PyNotImplementedError::new_err(
                "encoding MetadataVersioned is not supported",
            ))
        }

        /// The model `_core.decode_metadata` read (a `ValueError` before decoding).
        fn _require<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let info = slf.getattr(intern!(slf.py(), "_info"))?;
            if info.is_none() {
                return Err(PyValueError::new_err("metadata is not decoded"));
            }
            Ok(info)
        }

        /// The magic number and the version enum as typed parts of this metadata.
        fn _build_value_object<'py>(
            slf: &Bound<'py, Self>,
            value: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyTuple>> {
            let py = slf.py();
            Self::_require(slf)?;
            let config = slf.getattr(intern!(py, "runtime_config"))?;
            let root = Some(slf.clone().into_any());
            let part = |i: usize, ty: &str| {
                crate::typed_parts::typed_part(
                    value.get_item(i)?,
                    PyString::new(py, ty).into_any(),
                    config.clone(),
                    None,
                    root.clone(),
                )
            };
            PyTuple::new(py, [part(0, "[u8; 4]")?, part(1, "MetadataAll")?])
        }

        /// The portable registry's entry `type_id` as a `RegistryType`
        /// object (V14+; `None` when there is none), kept once made.
        fn _registry_type<'py>(
            slf: &Bound<'py, Self>,
            type_id: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let cache = slf.getattr(intern!(py, "__dict__"))?.call_method1(
                intern!(py, "setdefault"),
                ("_registry_types", PyDict::new(py)),
            )?;
            if let Some(found) = cache.cast::<PyDict>()?.get_item(type_id)? {
                return Ok(found);
            }
            let version: u32 = Self::_require(slf)?.get_item("version")?.extract()?;
            let mut entry = py.None().into_bound(py);
            if version >= 14 {
                let types = slf
                    .getattr(intern!(py, "value"))?
                    .get_item(1)?
                    .get_item(format!("V{version}"))?
                    .get_item("types")?
                    .get_item("types")?;
                let config = slf.getattr(intern!(py, "runtime_config"))?;
                entry = crate::typed_parts::portable_entry(
                    &types,
                    type_id,
                    config,
                    Some(slf.clone().into_any()),
                )?;
            }
            cache.set_item(type_id, &entry)?;
            Ok(entry)
        }

        /// The error `error_index` of the pallet with index `module_index`.
        fn get_module_error<'py>(
            slf: &Bound<'py, Self>,
            module_index: &Bound<'py, PyAny>,
            error_index: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let all = Self::get_metadata(slf)?;
            if all.getattr(intern!(py, "portable_registry"))?.is_truthy()? {
                for pallet in all.getattr(intern!(py, "pallets"))?.try_iter()? {
                    let pallet = pallet?;
                    let errors = pallet.getattr(intern!(py, "errors"))?;
                    if pallet.get_item("index")?.eq(module_index)? && errors.is_truthy()? {
                        return errors.get_item(error_index);
                    }
                }
                return Ok(py.None().into_bound(py));
            }
            let key = format!("{}-{}", module_index.str()?, error_index.str()?);
            all.getattr(intern!(py, "error_index"))?
                .call_method1(intern!(py, "get"), (key,))
        }

        /// The version enum (`value_object[1]`): `.index` is the version,
        /// `.value_object[1].value` the version's metadata dict (py-scale-codec's).
        fn get_metadata<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            // The base class's getter, called directly: a client reads this
            // once per runtime, right after loading it, when the attribute
            // look-up through the class hierarchy is most of the cost.
            ScaleObject::get_value_object(slf.as_super())?.get_item(1)
        }

        /// The pallet called `name`, else `None`.
        fn get_metadata_pallet<'py>(
            slf: &Bound<'py, Self>,
            name: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.call_method1(intern!(slf.py(), "get_metadata_pallet"), (name,))
        }

        /// The pallet with index `index` (a `ValueError` when there is none).
        fn get_pallet_by_index<'py>(
            slf: &Bound<'py, Self>,
            index: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let pallets = Self::get_metadata(slf)?.getattr(intern!(slf.py(), "pallets"))?;
            find_by(&pallets, index, |p| item(p, "index"))?.ok_or_else(|| {
                PyValueError::new_err(format!(
                    "Pallet for index \"{}\" not found",
                    index.str().map(|s| s.to_string()).unwrap_or_default()
                ))
            })
        }

        /// Signed extensions `{identifier: {"extrinsic", "additional_signed"}}`.
        fn get_signed_extensions<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
            let py = slf.py();
            let found =
                Self::_require(slf)?.call_method1(intern!(py, "get"), ("signed_extensions",))?;
            let out = PyDict::new(py);
            if found.is_truthy()? {
                out.update(found.cast::<pyo3::types::PyMapping>()?)?;
            }
            Ok(out)
        }

        /// `MetadataAll`'s `call_index`.
        #[getter]
        fn call_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.getattr(intern!(slf.py(), "call_index"))
        }

        /// `MetadataAll`'s `event_index`.
        #[getter]
        fn event_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.getattr(intern!(slf.py(), "event_index"))
        }

        /// `MetadataAll`'s `portable_registry` (V14+), else `None`.
        #[getter]
        fn portable_registry<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.getattr(intern!(slf.py(), "portable_registry"))
        }

        /// `MetadataAll`'s `pallets`.
        #[getter]
        fn pallets<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.getattr(intern!(slf.py(), "pallets"))
        }
    }
);

/// A call's `value_object`, as py-scale-codec's: its pallet
/// (`call_module`) and call (`call_function`) the metadata's own objects,
/// `call_args` the call's argument definitions (its `args`), the other
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
        return crate::typed_parts::wrap_parts(value, &config);
    };
    let (pallet, call) = call_lookup(obj, fields)?.unzip();
    let (plain, named) = (
        crate::catalogue::scale_class(py, "_Part")?,
        crate::catalogue::scale_class(py, "_MetaRef")?,
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
                Some(call) => call.getattr(intern!(py, "args"))?,
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
    let (pallet, call) = crate::views::pallet_and_entry(obj, &module, "calls", &function)?;
    Ok(call.map(|call| (pallet, call)))
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
    {
        //! The call of a decoded value: `call_module` and `call_function` the
        //! metadata's pallet and call objects, `call_args` the call's argument
        //! definitions (see `call_value_object`).

        /// The pallet: the metadata's pallet object (`.name`, `.calls` …).
        #[getter]
        fn call_module<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            part(slf.as_any(), "call_module")
        }

        /// The call: the metadata's call object (`.name`, `.args`, `.docs` …).
        #[getter]
        fn call_function<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            part(slf.as_any(), "call_function")
        }

        /// The call's BLAKE2b-256 hash as `bytes` once encoded (as in
        /// py-scale-codec) or decoded (there `None`; the value holds it as
        /// `"0x…"` in both), else `None`.
        #[getter]
        fn call_hash<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyBytes>>> {
            crate::views::hash_bytes(slf.as_any(), "call_hash")
        }

        /// The pallet and call index in hex, without `0x` (as py-scale-codec
        /// keeps it), once decoded or encoded.
        #[getter]
        fn call_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            if let Some(bytes) = crate::views::encoded_bytes(slf.as_any())? {
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
            crate::views::hash_bytes(slf.as_any(), "extrinsic_hash")
        }

        /// Whether the extrinsic carries a signature, once decoded or
        /// encoded (`None` before).
        #[getter]
        fn signed(slf: &Bound<'_, Self>) -> PyResult<Option<bool>> {
            let py = slf.py();
            if let Some(bytes) = crate::views::encoded_bytes(slf.as_any())? {
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
                || crate::object::ScaleObject::was_encoded(slf.as_any())
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
            let view = crate::typed_parts::wrap_parts(value, &config)?;
            let (Ok(fields), Ok(view_dict)) = (value.cast::<PyDict>(), view.cast::<PyDict>())
            else {
                return Ok(view);
            };
            if view_dict.contains("extrinsic_hash")? {
                view_dict.del_item("extrinsic_hash")?;
            }
            let encoded_length = match fields.contains("extrinsic_length")? {
                true => None,
                false => crate::views::encoded_bytes(slf.as_any())?
                    .and_then(|bytes| ferroscale_dynamic::ops::compact::decode(&bytes)),
            };
            if let Some((length, _)) = encoded_length {
                let prefix = crate::ops::encode_compact(py, length);
                let part = crate::catalogue::scale_class(py, "_UsedBytesPart")?
                    .call1((length, &config, prefix))?;
                view_dict.set_item("extrinsic_length", part)?;
            }
            if let Some(call) = fields.get_item("call")? {
                let part =
                    crate::catalogue::scale_class(py, "_CallPart")?.call1((call, &config))?;
                // the call finds its pallet and call objects in the extrinsic's metadata
                part.setattr(
                    intern!(py, "metadata"),
                    slf.getattr(intern!(py, "metadata"))?,
                )?;
                view_dict.set_item("call", part)?;
            }
            if let Some(length) = fields.get_item("extrinsic_length")? {
                let prefix = crate::ops::encode_compact(py, length.extract()?);
                let part = crate::catalogue::scale_class(py, "_UsedBytesPart")?
                    .call1((length, &config, prefix))?;
                view_dict.set_item("extrinsic_length", part)?;
            }
            // The signer and signature as objects of the runtime's types
            // (`GenericMultiAddress`: `account_id`, `index`).
            for (key, type_string) in [("address", "Address"), ("signature", "ExtrinsicSignature")]
            {
                if let Some(part) = fields.get_item(key)? {
                    let typed = crate::typed_parts::typed_part(
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
                let era = crate::catalogue::scale_class(py, "Era")?.call((), Some(&kwargs))?;
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

/// Registers the view classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FieldView>()?;
    m.add_class::<VariantView>()?;
    m.add_class::<TypeDefVariantView>()?;
    m.add_class::<ArgumentView>()?;
    m.add_class::<ScaleInfoArgumentView>()?;
    m.add_class::<FunctionView>()?;
    m.add_class::<PalletEnumView>()?;
    m.add_class::<StorageEntryView>()?;
    m.add_class::<ScaleInfoStorageEntryView>()?;
    m.add_class::<RuntimeCallDefinitionView>()?;
    m.add_class::<EntryView>()?;
    m.add_class::<EventView>()?;
    m.add_class::<ConstantView>()?;
    m.add_class::<ScaleInfoConstantView>()?;
    m.add_class::<PalletView>()?;
    m.add_class::<ScaleInfoPalletView>()?;
    m.add_class::<MetadataAllView>()?;
    m.add_class::<MetadataVersionedView>()?;
    m.add_class::<CallView>()?;
    m.add_class::<ExtrinsicView>()?;
    Ok(())
}
