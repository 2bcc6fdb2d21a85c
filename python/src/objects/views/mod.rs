//! What the view classes share: a view class is a Rust base that a class
//! of the Python package mixes into the scale class of its name
//! (`class GenericAccountId(_core.AccountIdView, ScaleType)`), so that the
//! objects stay py-scale-codec's classes while what they answer is Rust.
//! A view holds nothing of its own: it reads the object's `value` and
//! `value_object`. The metadata object API's views are in
//! [`crate::metadata`]; the other classes' are here: [`values`] (enums,
//! sets, sequences, maps, Era, storage hashers, contract results),
//! [`accounts`], [`events`], [`extrinsic`] (calls and extrinsics),
//! [`codec`] (the classes that decode beside the type graph).

pub mod accounts;
pub mod codec;
pub mod events;
pub mod extrinsic;
pub mod shared;
pub mod values;

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::PyBytes;

use crate::objects::object::ScaleObject;

/// `obj.value[key]`.
pub(crate) fn item<'py>(obj: &Bound<'py, PyAny>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    obj.getattr(intern!(obj.py(), "value"))?.get_item(key)
}

/// `obj.value[key]` of a dict value, else `None`.
pub(crate) fn value_get<'py>(obj: &Bound<'py, PyAny>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let value = obj.getattr(intern!(py, "value"))?;
    match value.cast::<pyo3::types::PyDict>() {
        Ok(d) => Ok(d.get_item(key)?.unwrap_or_else(|| py.None().into_bound(py))),
        Err(_) => Ok(py.None().into_bound(py)),
    }
}

/// A hash py-scale-codec keeps on the object as raw `bytes`
/// (`GenericExtrinsic.extrinsic_hash`, `GenericCall.call_hash`): for a
/// decoded object, the value's `"0x…"` text of `key` as bytes; for an
/// encoded one, the BLAKE2b-256 of the encoded bytes (its `data`), as
/// py-scale-codec computes it; else `None`. Clients call `.hex()` on it
/// (async-substrate-interface's extrinsic receipts and inclusion answers).
pub(crate) fn hash_bytes<'py>(
    obj: &Bound<'py, PyAny>,
    key: &str,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let py = obj.py();
    if !ScaleObject::was_encoded(obj) && obj.getattr(intern!(py, "decoded"))?.is_truthy()? {
        let text = value_get(obj, key)?;
        let raw = text
            .extract::<&str>()
            .ok()
            .and_then(|t| ferroscale_core::hex::decode(t).ok());
        return Ok(raw.map(|raw| PyBytes::new(py, &raw)));
    }
    Ok(encoded_bytes(obj)?
        .map(|bytes| PyBytes::new(py, &ferroscale_core::hashing::blake2_256(&bytes))))
}

/// The bytes an object was encoded to (its `data` when it was encoded, not
/// decoded), else `None`: what py-scale-codec reads its attributes from
/// after `encode`.
pub(crate) fn encoded_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
    let py = obj.py();
    if !ScaleObject::was_encoded(obj) {
        return Ok(None);
    }
    let data = obj.getattr(intern!(py, "data"))?;
    if data.is_none() {
        return Ok(None);
    }
    data.getattr(intern!(py, "data"))?.extract().map(Some)
}

/// The pallet named `pallet_name` in the metadata `obj` reads (its own,
/// else its configuration's), and that pallet's entry called `name` in its
/// list `list` (`"calls"`, `"events"`): the pallet is `None` without
/// metadata, the entry `None` when either is not found.
pub(crate) fn pallet_and_entry<'py>(
    obj: &Bound<'py, PyAny>,
    pallet_name: &Bound<'py, PyAny>,
    list: &str,
    name: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> {
    let py = obj.py();
    let mut metadata = obj.getattr(intern!(py, "metadata"))?;
    if !metadata.is_truthy()? {
        metadata = obj
            .getattr(intern!(py, "runtime_config"))?
            .getattr(intern!(py, "metadata"))?;
    }
    if metadata.is_none() {
        return Ok((metadata, None));
    }
    let pallet = metadata.call_method1(intern!(py, "get_metadata_pallet"), (pallet_name,))?;
    if !pallet.is_truthy()? {
        return Ok((pallet, None));
    }
    let entries = pallet.getattr(list)?;
    if entries.is_truthy()? {
        for candidate in entries.try_iter()? {
            let candidate = candidate?;
            if candidate.getattr(intern!(py, "name"))?.eq(name)? {
                return Ok((pallet, Some(candidate)));
            }
        }
    }
    Ok((pallet, None))
}

/// `obj.value_object[key]`.
pub(crate) fn part<'py>(obj: &Bound<'py, PyAny>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    obj.getattr(intern!(obj.py(), "value_object"))?
        .get_item(key)
}

/// `obj.value_object[key].value_object`.
pub(crate) fn inner_part<'py>(obj: &Bound<'py, PyAny>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    part(obj, key)?.getattr(intern!(obj.py(), "value_object"))
}

/// The initializer of a view class over an empty scale object.
pub(crate) fn base() -> PyClassInitializer<ScaleObject> {
    PyClassInitializer::from(ScaleObject::empty())
}

/// Declares a view class (its Python name, its parent, how its scale
/// object is made) with its methods, the `#[new]` that makes the empty
/// scale object under it (the Python `__init__` fills it in), and its
/// plain getters, one line each: `getters = { /// doc  name: reader("key") }`
/// makes the getter `name` returning `reader(obj, "key")` ([`item`],
/// [`value_get`], [`part`], [`inner_part`]); `docs = KEY` adds the `name`
/// and `docs` getters of the value's `name` and `KEY`.
///
/// The class's documentation is the block's inner doc comment (`//!`), so
/// that the whole invocation is Rust that rustfmt formats.
macro_rules! view {
    (
        $name:ident, $py_name:literal, extends = $parent:ident,
        init = $init:expr, $(docs = $docs_key:literal,)?
        $(getters = { $($getters:tt)* },)? { $($body:tt)* }
    ) => {
        view!(@docs [] $name, $py_name, $parent, $init, [
            $(
                /// The name.
                name: item("name"),
                /// Documentation lines.
                docs: item($docs_key),
            )?
            $($($getters)*)?
        ] { $($body)* });
    };
    // Moves the block's leading inner doc lines onto the class, one at a time.
    (
        @docs [$($doc:tt)*] $name:ident, $py_name:literal, $parent:ident, $init:expr,
        [$($getters:tt)*] { #![$line:meta] $($body:tt)* }
    ) => {
        view!(@docs [$($doc)* #[$line]] $name, $py_name, $parent, $init, [$($getters)*] { $($body)* });
    };
    (
        @docs [$($doc:tt)*] $name:ident, $py_name:literal, $parent:ident, $init:expr,
        [$($(#[$attr:meta])* $getter:ident: $reader:ident($key:expr)),* $(,)?] { $($body:tt)* }
    ) => {
        $($doc)*
        #[pyclass(extends = $parent, subclass, module = "scalecodec._core", name = $py_name)]
        pub struct $name;

        #[pymethods]
        impl $name {
            #[new]
            #[pyo3(signature = (*_args, **_kwargs))]
            fn new(
                _args: &Bound<'_, PyTuple>,
                _kwargs: Option<&Bound<'_, PyDict>>,
            ) -> PyClassInitializer<Self> {
                $init.add_subclass($name)
            }

            $(
                $(#[$attr])*
                #[getter]
                fn $getter<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
                    $reader(slf.as_any(), $key)
                }
            )*

            $($body)*
        }
    };
}

pub(crate) use view;
