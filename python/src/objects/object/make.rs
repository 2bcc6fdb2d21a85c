//! Making scale objects without `__init__` (what `create_scale_object` and
//! typed parts do), an empty one under a view class, and reading a class's
//! own attributes.

use crate::convert::scale_bytes::PyScaleBytes;
use crate::objects::parts_origin::PartsOrigin;
use pyo3::prelude::*;
#[cfg(not(feature = "abi3"))]
use pyo3::types::PyDict;
use pyo3::types::{PyString, PyTuple, PyType};

use super::{DeferredValue, FastPath, ScaleObject};

impl ScaleObject {
    /// Fills in an object `create_scale_object` made without `__init__`.
    pub(crate) fn init_created(
        &mut self,
        config: Py<PyAny>,
        buffer: Option<&Bound<'_, PyScaleBytes>>,
        fast: Option<FastPath>,
    ) {
        self.runtime_config = Some(config);
        self.data_start_offset = buffer.map(|b| b.get().offset());
        self.data = buffer.map(|b| b.clone().into_any().unbind());
        self.fast = fast;
    }

    /// Whether `obj` is a scale object whose value it encoded itself (its
    /// `data` is that encoding), not one it decoded.
    pub(crate) fn was_encoded(obj: &Bound<'_, PyAny>) -> bool {
        obj.cast::<ScaleObject>()
            .is_ok_and(|o| o.try_borrow().is_ok_and(|o| o.encoded))
    }

    /// An object with nothing set (what `__new__` makes).
    pub(crate) fn empty() -> Self {
        ScaleObject {
            runtime_config: None,
            data: None,
            data_start_offset: None,
            data_end_offset: None,
            values: Default::default(),
            decoded: false,
            encoded: false,
            metadata: None,
            fast: None,
            origin: None,
        }
    }

    /// Makes a new object the typed part holding `value` in `config` (a
    /// [`DeferredValue`]: the value is made from it when first read).
    pub fn set_part(
        &mut self,
        config: Py<PyAny>,
        value: Bound<'_, PyAny>,
        origin: Py<PartsOrigin>,
    ) {
        self.runtime_config = Some(config);
        match value.cast_into::<DeferredValue>() {
            Ok(deferred) => self.values.set(None, Some(deferred.unbind())),
            Err(e) => self.values.set_value_only(Some(e.into_inner().unbind())),
        }
        self.decoded = true;
        self.origin = Some(origin);
    }

    /// A new typed part of `part`'s class, configuration, value and origin
    /// whose `value_object` is `value_object` (its parts are not `part`'s,
    /// which stay as they are); `None` when `part` is not a typed part.
    pub(crate) fn part_with_value_object<'py>(
        part: &Bound<'py, Self>,
        value_object: Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let py = part.py();
        let (config, value, origin) = {
            let this = part.try_borrow()?;
            let (Some(config), Some(value), Some(origin)) = (
                &this.runtime_config,
                this.values.value_or_deferred(py),
                &this.origin,
            ) else {
                return Ok(None);
            };
            (config.clone_ref(py), value, origin.clone_ref(py))
        };
        let copy = new_instance(&part.get_type())?;
        {
            let mut made = copy.cast::<ScaleObject>()?.try_borrow_mut()?;
            made.set_part(config, value.into_bound(py), origin);
            made.values.set_value_object(Some(value_object.unbind()));
        }
        Ok(Some(copy))
    }
}

/// `cls.__dict__.get(name)`: the class's own attribute, not an inherited one
/// (a user subclass of a generated class does not inherit `_fast_node`).
#[cfg(not(feature = "abi3"))]
pub(crate) fn own_class_attr<'py>(
    cls: &Bound<'py, PyType>,
    name: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = cls.py();
    // SAFETY: `tp_dict` of a ready type object is its (borrowed) class
    // dict, alive as long as the class, which `cls` keeps alive; it is
    // only read here, through a new strong reference.
    let dict = unsafe {
        let d = (*cls.as_type_ptr()).tp_dict;
        if d.is_null() {
            return Ok(None);
        }
        Bound::from_borrowed_ptr(py, d).cast_into_unchecked::<PyDict>()
    };
    dict.get_item(name)
}

/// `cls.__dict__.get(name)`, as above. The stable ABI hides the type
/// object's fields: this goes through the `__dict__` mapping proxy.
#[cfg(feature = "abi3")]
pub(crate) fn own_class_attr<'py>(
    cls: &Bound<'py, PyType>,
    name: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = cls.py();
    let dict = cls.getattr(pyo3::intern!(py, "__dict__"))?;
    match dict.get_item(name) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyError>(py) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `cls.__new__(cls)` without `__init__`, as the Python code did.
pub(crate) fn new_instance<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyAny>> {
    let py = cls.py();
    let args = PyTuple::empty(py);
    // SAFETY: `tp_new` of a ready type (here a subclass of `ScaleObject`,
    // which defines it) takes the type, an argument tuple and optional
    // keywords, and returns a new reference or NULL with an exception set.
    unsafe {
        let ty = cls.as_type_ptr();
        #[cfg(not(feature = "abi3"))]
        let tp_new = (*ty).tp_new;
        // The stable ABI reads the slot through PyType_GetSlot (static
        // types too from 3.10); a NULL slot is `None`.
        #[cfg(feature = "abi3")]
        let tp_new = {
            let slot = pyo3::ffi::PyType_GetSlot(ty, pyo3::ffi::Py_tp_new);
            (!slot.is_null())
                .then(|| std::mem::transmute::<*mut std::ffi::c_void, pyo3::ffi::newfunc>(slot))
        };
        let Some(tp_new) = tp_new else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "scale class cannot be instantiated",
            ));
        };
        let raw = tp_new(ty, args.as_ptr(), std::ptr::null_mut());
        Bound::from_owned_ptr_or_err(py, raw)
    }
}
