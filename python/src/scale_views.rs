//! What py-scale-codec's scale classes answer beyond their value: enum
//! indexes, set bits, Era periods, account ids and addresses, events and
//! event records (with the metadata objects of their pallet and event),
//! sequences, maps, storage hashers, contract results; and how the classes
//! that decode beside the type graph do it (users' structs and tuples,
//! raw bytes, floats, text and bytes' `value_object`). Each class here is a base `scalecodec.types` mixes into the
//! class of that name (`class GenericAccountId(_core.AccountIdView,
//! ScaleType)`, see `crate::views`).

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::object::ScaleObject;
use crate::views::{base, value_get, view};

/// `obj.value[key]` of a dict value, else an empty list (py-scale-codec's
/// default for argument and topic lists).
fn get_list<'py>(obj: &Bound<'py, PyAny>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let value = obj.getattr(intern!(py, "value"))?;
    if let Ok(d) = value.cast::<PyDict>() {
        if let Some(found) = d.get_item(key)? {
            return Ok(found);
        }
    }
    Ok(PyList::empty(py).into_any())
}

/// The bytes the object was decoded from or encoded to.
fn used_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let used = obj.call_method0(intern!(obj.py(), "get_used_bytes"))?;
    used.extract()
}

/// The bytes behind the object's value: those it was decoded from or
/// encoded to, or for a part of a decoded value (which has no bytes of its
/// own) its value encoded again by a fresh object of its class.
fn value_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = obj.py();
    if !untouched(obj)? {
        return used_bytes(obj);
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item(
        intern!(py, "runtime_config"),
        obj.getattr(intern!(py, "runtime_config"))?,
    )?;
    let fresh = obj.get_type().call((), Some(&kwargs))?;
    fresh.call_method1(intern!(py, "encode"), (obj.getattr(intern!(py, "value"))?,))?;
    used_bytes(&fresh)
}

/// Whether nothing was decoded or encoded yet (`data_end_offset` unset).
fn untouched(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(obj.getattr(intern!(obj.py(), "data_end_offset"))?.is_none())
}

/// An attribute set on the object (`__dict__[key]`), if any.
fn own<'py>(obj: &Bound<'py, PyAny>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    obj.getattr(intern!(obj.py(), "__dict__"))?
        .cast_into::<PyDict>()?
        .get_item(key)
}

/// Sets `__dict__[key]` (a value the user gave instead of the derived one).
fn set_own(obj: &Bound<'_, PyAny>, key: &str, value: Bound<'_, PyAny>) -> PyResult<()> {
    obj.getattr(intern!(obj.py(), "__dict__"))?
        .set_item(key, value)
}

/// `"0x…"` of `bytes`.
fn hex(bytes: &[u8]) -> String {
    ferroscale_core::hex::encode_prefixed(bytes)
}

/// An enum object's variant index: set by the user, else the first byte it
/// was decoded from or encoded to, else the position of its value's
/// variant in the class's `value_list`.
fn enum_index<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    if let Some(index) = own(obj, "_index")?.filter(|i| !i.is_none()) {
        return Ok(index);
    }
    if !untouched(obj)? {
        if let Some(first) = used_bytes(obj)?.first() {
            return Ok(first.into_pyobject(py)?.into_any());
        }
    }
    if obj.getattr(intern!(py, "decoded"))?.is_truthy()? {
        let names = obj.get_type().getattr(intern!(py, "value_list"))?;
        let value = obj.getattr(intern!(py, "value"))?;
        return Ok(crate::typed_parts::variant_index(&names, &value)?.into_pyobject(py)?);
    }
    Ok(py.None().into_bound(py))
}

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
        .map(|s| crate::kinds::tuple_elements(&format!("({s})")))
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

/// The SS58 address of `raw` in the object's configuration's format (`None` without one).
fn ss58_in_config<'py>(obj: &Bound<'py, PyAny>, raw: &[u8]) -> PyResult<Option<String>> {
    let py = obj.py();
    let format = obj
        .getattr(intern!(py, "runtime_config"))?
        .getattr(intern!(py, "ss58_format"))?;
    if format.is_none() {
        return Ok(None);
    }
    crate::ss58::ss58_encode(PyBytes::new(py, raw).as_any(), Some(&format)).map(Some)
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

/// The pallet and event metadata objects of the event value `event` of
/// `obj` (`None` each without metadata).
fn event_lookup<'py>(
    obj: &Bound<'py, PyAny>,
    event: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let py = obj.py();
    let none = || py.None().into_bound(py);
    let Ok(event) = event.cast::<PyDict>() else {
        return Ok((none(), none()));
    };
    let module_id = event.get_item("module_id")?.unwrap_or_else(none);
    let event_id = event.get_item("event_id")?.unwrap_or_else(none);
    let (pallet, entry) = crate::views::pallet_and_entry(obj, &module_id, "events", &event_id)?;
    Ok((pallet, entry.unwrap_or_else(none)))
}

view!(
    RuntimeEventView,
    "RuntimeEventView",
    extends = EnumView,
    init = base().add_subclass(EnumView),
    {
        //! A runtime event: `{"event_index", "module_id", "event_id", "attributes"}`.

        /// Never set, as in py-scale-codec.
        #[getter]
        fn event_idx(&self) -> Option<u32> {
            None
        }

        /// The pallet and event index in hex.
        #[getter]
        fn event_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            value_get(slf.as_any(), "event_index")
        }

        /// The event's arguments.
        #[getter]
        fn attributes<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            get_list(slf.as_any(), "attributes")
        }

        /// `None` for a V9–V13 event (py-scale-codec sets no index there); a
        /// scale-info event's pallet byte.
        #[getter]
        fn index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let scale_info = crate::catalogue::scale_class(slf.py(), "GenericScaleInfoEvent")?;
            if slf.is_instance(&scale_info)? {
                let index = enum_index(slf.as_any())?;
                if !index.is_none() {
                    return Ok(index);
                }
                // a part of a record (no bytes of its own): the pallet byte
                // of its `event_index`
                let hex = value_get(slf.as_any(), "event_index")?;
                let pallet = hex
                    .extract::<&str>()
                    .ok()
                    .and_then(|h| u8::from_str_radix(h.get(..2)?, 16).ok());
                Ok(pallet.into_pyobject(slf.py())?.into_any())
            } else {
                Ok(slf.py().None().into_bound(slf.py()))
            }
        }

        #[setter]
        fn set_index(slf: &Bound<'_, Self>, value: Bound<'_, PyAny>) -> PyResult<()> {
            set_own(slf.as_any(), "_index", value)
        }

        /// The pallet metadata object (`None` without metadata).
        #[getter]
        fn event_module<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let value = slf.getattr(intern!(slf.py(), "value"))?;
            Ok(event_lookup(slf.as_any(), &value)?.0)
        }

        /// The event metadata object (`None` without metadata).
        #[getter]
        fn event<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let value = slf.getattr(intern!(slf.py(), "value"))?;
            Ok(event_lookup(slf.as_any(), &value)?.1)
        }
    }
);

view!(
    EventRecordView,
    "EventRecordView",
    extends = ScaleObject,
    init = base(),
    {
        //! An event record (phase, event, topics).

        /// The event's index (hex).
        #[getter]
        fn event_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            value_get(slf.as_any(), "event_index")
        }

        /// The phase (`"ApplyExtrinsic"`, `"Finalization"`, `"Initialization"`).
        #[getter]
        fn phase<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            value_get(slf.as_any(), "phase")
        }

        /// The extrinsic's position for an `ApplyExtrinsic` phase.
        #[getter]
        fn extrinsic_idx<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            value_get(slf.as_any(), "extrinsic_idx")
        }

        /// The event's arguments.
        #[getter]
        fn params<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            get_list(slf.as_any(), "attributes")
        }

        /// The event's arguments.
        #[getter]
        fn arguments<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            get_list(slf.as_any(), "attributes")
        }

        /// The topics.
        #[getter]
        fn topics<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            get_list(slf.as_any(), "topics")
        }

        /// The pallet metadata object (`None` without metadata).
        #[getter]
        fn event_module<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let event = value_get(slf.as_any(), "event")?;
            Ok(event_lookup(slf.as_any(), &event)?.0)
        }

        /// The event metadata object (`None` without metadata).
        #[getter]
        fn event<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let event = value_get(slf.as_any(), "event")?;
            Ok(event_lookup(slf.as_any(), &event)?.1)
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

/// `bytes` of the `data` a hook receives (a `bytearray`, or `bytes`).
fn data_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(array) = data.cast::<pyo3::types::PyByteArray>() {
        return Ok(array.to_vec());
    }
    Ok(data.cast::<PyBytes>()?.as_bytes().to_vec())
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
            let buffer = crate::scale_bytes::PyScaleBytes::new(value)?;
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
        return Ok(crate::typed_parts::raw_bytes(value)?.into_any());
    }
    Ok(value.clone())
}

/// A `Bytes` value as py-scale-codec serializes it: `"0x…"` hex.
fn bytes_serialized<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let value = obj.getattr(intern!(obj.py(), "value"))?;
    if value.is_instance_of::<PyString>() {
        let raw = crate::typed_parts::raw_bytes(&value)?.to_vec();
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

/// Adds the view classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnumView>()?;
    m.add_class::<SetView>()?;
    m.add_class::<SeqView>()?;
    m.add_class::<MapView>()?;
    m.add_class::<EraView>()?;
    m.add_class::<AccountIdView>()?;
    m.add_class::<MultiAddressView>()?;
    m.add_class::<RuntimeEventView>()?;
    m.add_class::<EventRecordView>()?;
    m.add_class::<StorageHasherView>()?;
    m.add_class::<ContractResultView>()?;
    m.add_class::<CompositeView>()?;
    m.add_class::<RawBytesView>()?;
    m.add_class::<FloatView>()?;
    m.add_class::<TextView>()?;
    m.add_class::<BytesView>()?;
    Ok(())
}
