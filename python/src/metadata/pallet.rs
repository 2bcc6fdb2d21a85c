//! Pallets (V9–V13 modules and V14+ pallets): their calls, events,
//! errors, constants and storage entries (the storage-version entry first,
//! as py-scale-codec lists it, and a by-name index of the rest).
//!
//! Each class here is a base `scalecodec.types` mixes into the scale class
//! of its name (`class GenericPalletMetadata(_core.PalletView, Struct)`), so
//! that the objects stay what py-scale-codec's are (a pallet is a `Struct`
//! whose `value_object` holds typed parts, see [`crate::objects::typed_parts`])
//! while what they answer is Rust. The classes hold nothing of their own:
//! they read `value` and `value_object` of the object.

use crate::metadata::read::find_by;
use crate::objects::object::ScaleObject;
use crate::objects::object::STORAGE_INDEX_ATTR;
use crate::objects::views::{base, inner_part, item, part, view};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

view!(
    PalletView,
    "PalletView",
    extends = ScaleObject,
    init = base(),
    getters = {
        /// The pallet name.
        name: item("name"),
        /// The calls (a `Vec` object), `None` when there are none.
        calls: inner_part("calls"),
        /// The constants (`GenericModuleConstantMetadata` objects).
        constants: inner_part("constants"),
        /// The errors.
        errors: inner_part("errors"),
    },
    {
        //! A V9–V13 module.

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
            let value = crate::metadata::model::storage_version_value(py)?;
            let config = slf.getattr(intern!(py, "runtime_config"))?;
            let version = crate::objects::typed_parts::typed_part(
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
            let version = crate::metadata::model::STORAGE_VERSION.0;
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
