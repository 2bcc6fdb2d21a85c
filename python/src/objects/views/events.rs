//! Runtime events and event records, with the metadata objects of their
//! pallet and event.
//!
//! Each class here is a base `scalecodec.types` mixes into the class of
//! that name (`class GenericAccountId(_core.AccountIdView, ScaleType)`, see
//! [`crate::objects::views`]).

use crate::objects::object::ScaleObject;
use crate::objects::views::shared::{enum_index, get_list, set_own};
use crate::objects::views::values::EnumView;
use crate::objects::views::{base, value_get, view};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

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
    let (pallet, entry) =
        crate::objects::views::pallet_and_entry(obj, &module_id, "events", &event_id)?;
    Ok((pallet, entry.unwrap_or_else(none)))
}

view!(
    RuntimeEventView,
    "RuntimeEventView",
    extends = EnumView,
    init = base().add_subclass(EnumView),
    getters = {
        /// The pallet and event index in hex.
        event_index: value_get("event_index"),
    },
    {
        //! A runtime event: `{"event_index", "module_id", "event_id", "attributes"}`.

        /// Never set, as in py-scale-codec.
        #[getter]
        fn event_idx(&self) -> Option<u32> {
            None
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
            let scale_info =
                crate::package::catalogue::scale_class(slf.py(), "GenericScaleInfoEvent")?;
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
    getters = {
        /// The event's index (hex).
        event_index: value_get("event_index"),
        /// The phase (`"ApplyExtrinsic"`, `"Finalization"`, `"Initialization"`).
        phase: value_get("phase"),
        /// The extrinsic's position for an `ApplyExtrinsic` phase.
        extrinsic_idx: value_get("extrinsic_idx"),
    },
    {
        //! An event record (phase, event, topics).

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
