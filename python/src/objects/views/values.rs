//! What py-scale-codec's value classes answer beyond their value: enum
//! indexes, set bits, sequences, maps, Era periods, storage hashers,
//! contract results.
//!
//! Each class here is a base `scalecodec.types` mixes into the class of
//! that name (`class GenericAccountId(_core.AccountIdView, ScaleType)`, see
//! [`crate::objects::views`]).

use crate::objects::object::ScaleObject;
use crate::objects::views::shared::{enum_index, set_own, untouched, used_bytes};
use crate::objects::views::{base, view};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

view!(
    EnumView,
    "EnumView",
    extends = ScaleObject,
    init = base(),
    {
        //! An enum: its variant index and value.

        /// The variant index (the discriminant byte) of the decoded or
        /// encoded value, when known.
        #[getter]
        fn index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            enum_index(slf.as_any())
        }

        #[setter]
        fn set_index(slf: &Bound<'_, Self>, value: Bound<'_, PyAny>) -> PyResult<()> {
            set_own(slf.as_any(), "_index", value)
        }

        /// The variant's value (its name for a unit variant), `None` before decoding.
        fn get_enum_value<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let value = slf.getattr(intern!(py, "value"))?;
            if !value.is_truthy()? {
                return Ok(py.None().into_bound(py));
            }
            match value.cast::<PyDict>() {
                Ok(d) if d.len() == 1 => Ok(d.values().get_item(0)?),
                _ => Ok(value),
            }
        }
    }
);

view!(
    SetView,
    "SetView",
    extends = ScaleObject,
    init = base(),
    {
        //! A bit-flag set: the flags as the integer they are encoded as.

        /// The flags as the integer they are encoded as (`None` before decoding).
        #[getter]
        fn set_value<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            if untouched(slf.as_any())? {
                return Ok(py.None().into_bound(py));
            }
            let used = PyBytes::new(py, &used_bytes(slf.as_any())?);
            py.get_type::<pyo3::types::PyInt>()
                .call_method1(intern!(py, "from_bytes"), (used, "little"))
        }
    }
);

view!(
    SeqView,
    "SeqView",
    extends = ScaleObject,
    init = base(),
    {
        //! A sequence: its length, truth and elements.

        fn __len__(slf: &Bound<'_, Self>) -> PyResult<usize> {
            slf.getattr(intern!(slf.py(), "value_object"))?.len()
        }

        // py-scale-codec's Vec is falsy when empty (through __len__)
        fn __bool__(slf: &Bound<'_, Self>) -> PyResult<bool> {
            let value_object = slf.getattr(intern!(slf.py(), "value_object"))?;
            Ok(value_object.is_none() || value_object.len()? > 0)
        }

        /// The element objects (`[]` before decoding).
        #[getter]
        fn elements<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let value_object = slf.getattr(intern!(slf.py(), "value_object"))?;
            if value_object.is_instance_of::<PyList>() {
                Ok(value_object)
            } else {
                Ok(PyList::empty(slf.py()).into_any())
            }
        }
    }
);

/// `(key, value)` types of a map object's `sub_type` (`None` each when missing).
fn map_types(obj: &Bound<'_, PyAny>) -> PyResult<(Option<String>, Option<String>)> {
    let sub_type = obj.getattr(intern!(obj.py(), "sub_type"))?;
    let text: Option<String> = sub_type.extract().ok().filter(|s: &String| !s.is_empty());
    let mut parts = text
        .map(|s| crate::registry::kinds::tuple_elements(&format!("({s})")))
        .unwrap_or_default()
        .into_iter();
    Ok((parts.next(), parts.next()))
}

view!(
    MapView,
    "MapView",
    extends = ScaleObject,
    init = base(),
    {
        //! A map: its key and value types.

        /// The key type (from `sub_type`).
        #[getter]
        fn map_key(slf: &Bound<'_, Self>) -> PyResult<Option<String>> {
            Ok(map_types(slf.as_any())?.0)
        }

        /// The value type (from `sub_type`).
        #[getter]
        fn map_value(slf: &Bound<'_, Self>) -> PyResult<Option<String>> {
            Ok(map_types(slf.as_any())?.1)
        }
    }
);

/// A mortal era's `(period, phase)`, `None` when immortal.
fn mortal(obj: &Bound<'_, PyAny>) -> PyResult<Option<(u64, u64)>> {
    let value = obj.getattr(intern!(obj.py(), "value"))?;
    Ok(value.cast::<PyTuple>().ok().and_then(|t| t.extract().ok()))
}

view!(
    EraView,
    "EraView",
    extends = ScaleObject,
    init = base(),
    {
        //! `Era`: `"00"` (immortal) or `(period, phase)`.

        /// The mortal era's period, `None` when immortal.
        #[getter]
        fn period(slf: &Bound<'_, Self>) -> PyResult<Option<u64>> {
            Ok(mortal(slf.as_any())?.map(|(period, _)| period))
        }

        /// The mortal era's phase, `None` when immortal.
        #[getter]
        fn phase(slf: &Bound<'_, Self>) -> PyResult<Option<u64>> {
            Ok(mortal(slf.as_any())?.map(|(_, phase)| phase))
        }

        /// Whether the era is immortal.
        fn is_immortal(slf: &Bound<'_, Self>) -> PyResult<bool> {
            Ok(mortal(slf.as_any())?.is_none())
        }

        /// The first block of the era that contains `current`.
        fn birth(slf: &Bound<'_, Self>, current: u64) -> PyResult<u64> {
            Ok(mortal(slf.as_any())?.map_or(0, |(period, phase)| {
                ferroscale_dynamic::ops::era::birth(period, phase, current)
            }))
        }

        /// The block after the last one of the era that contains `current`.
        fn death(slf: &Bound<'_, Self>, current: u64) -> PyResult<u64> {
            Ok(mortal(slf.as_any())?.map_or(
                ferroscale_dynamic::ops::era::IMMORTAL_DEATH,
                |(period, phase)| ferroscale_dynamic::ops::era::death(period, phase, current),
            ))
        }

        // the value of an encoded Era is what decoding its bytes gives
        fn _encoded_value<'py>(
            slf: &Bound<'py, Self>,
            _value: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let registry = slf
                .getattr(intern!(py, "runtime_config"))?
                .getattr(intern!(py, "_registry"))?;
            let type_string = slf.getattr(intern!(py, "type_string"))?;
            let data = PyBytes::new(py, &used_bytes(slf.as_any())?);
            registry
                .call_method1(intern!(py, "decode"), (type_string, data))?
                .get_item(0)
        }
    }
);

view!(
    StorageHasherView,
    "StorageHasherView",
    extends = ScaleObject,
    init = base(),
    {
        //! A storage hasher: py-scale-codec's tests of which one it is.

        /// Whether the hasher is `Blake2_128`.
        fn is_blake2_128(slf: &Bound<'_, Self>) -> PyResult<bool> {
            is_hasher(slf.as_any(), "Blake2_128")
        }

        /// Whether the hasher is `Blake2_256`.
        fn is_blake2_256(slf: &Bound<'_, Self>) -> PyResult<bool> {
            is_hasher(slf.as_any(), "Blake2_256")
        }

        /// Whether the hasher is `Blake2_128Concat`.
        fn is_twoblake2_128_concat(slf: &Bound<'_, Self>) -> PyResult<bool> {
            is_hasher(slf.as_any(), "Blake2_128Concat")
        }

        /// Whether the hasher is `Twox128`.
        fn is_twox128(slf: &Bound<'_, Self>) -> PyResult<bool> {
            is_hasher(slf.as_any(), "Twox128")
        }

        /// Whether the hasher is `Twox256`.
        fn is_twox256(slf: &Bound<'_, Self>) -> PyResult<bool> {
            is_hasher(slf.as_any(), "Twox256")
        }

        /// Whether the hasher is `Twox64Concat`.
        fn is_twox64_concat(slf: &Bound<'_, Self>) -> PyResult<bool> {
            is_hasher(slf.as_any(), "Twox64Concat")
        }

        /// Whether the hasher is `Identity`.
        fn is_identity(slf: &Bound<'_, Self>) -> PyResult<bool> {
            is_hasher(slf.as_any(), "Identity")
        }
    }
);

/// Whether the object's value is the hasher `name`.
fn is_hasher(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    obj.getattr(intern!(obj.py(), "value"))?.eq(name)
}

/// `found[path[0]][path[1]]…`, `None` where a step is missing (a failed
/// contract call has no `Ok` result).
fn walk<'py>(found: Bound<'py, PyAny>, path: &[PathStep]) -> PyResult<Bound<'py, PyAny>> {
    let py = found.py();
    let mut found = found;
    for step in path {
        let next = match step {
            PathStep::Key(key) => found.get_item(*key),
            PathStep::At(at) => found.get_item(*at),
        };
        match next {
            Ok(next) => found = next,
            Err(e)
                if e.is_instance_of::<pyo3::exceptions::PyKeyError>(py)
                    || e.is_instance_of::<pyo3::exceptions::PyTypeError>(py)
                    || e.is_instance_of::<pyo3::exceptions::PyIndexError>(py) =>
            {
                return Ok(py.None().into_bound(py))
            }
            Err(e) => return Err(e),
        }
    }
    Ok(found)
}

/// A step of a path into a value: a key or a position.
enum PathStep {
    Key(&'static str),
    At(usize),
}

view!(
    ContractResultView,
    "ContractResultView",
    extends = ScaleObject,
    init = base(),
    {
        //! A contract call's result (contracts pallet, runtimes after spec 267).

        /// The gas consumed.
        #[getter]
        fn gas_consumed<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            slf.getattr(intern!(slf.py(), "value"))?
                .get_item("gas_consumed")
        }

        /// The gas required.
        #[getter]
        fn gas_required<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            slf.getattr(intern!(slf.py(), "value"))?
                .get_item("gas_required")
        }

        /// The flags of a successful result, else `None`.
        #[getter]
        fn flags<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let value = slf.getattr(intern!(slf.py(), "value"))?;
            walk(
                value,
                &[
                    PathStep::Key("result"),
                    PathStep::Key("Ok"),
                    PathStep::Key("flags"),
                ],
            )
        }

        /// The returned data object of a successful result, else `None`.
        #[getter]
        fn contract_result_data<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let parts = slf.getattr(intern!(slf.py(), "value_object"))?;
            walk(
                parts,
                &[
                    PathStep::Key("result"),
                    PathStep::At(1),
                    PathStep::Key("data"),
                ],
            )
        }
    }
);
