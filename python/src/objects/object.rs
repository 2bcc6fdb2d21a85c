//! The hot path of py-scale-codec's object API, in Rust: the base class of
//! every scale object (that of `RuntimeConfigurationObject` is in
//! `crate::config`).
//!
//! `config.create_scale_object("u32", ScaleBytes(b)).decode()` is the call
//! py-scale-codec users make for every value. Through Python methods it took
//! about 1.5 µs, most of it attribute sets and frames around a 0.15 µs Rust
//! decode. Here the three steps are Rust (`scalecodec.base` subclasses
//! these classes):
//!
//! * [`PyScaleBytes`] (`crate::convert::scale_bytes`) is py-scale-codec's `ScaleBytes`
//!   (buffer, offset and its helper methods);
//! * `ConfigBase::create_scale_object` finds the class in the
//!   configuration's class cache and creates the object without running
//!   `__init__`, as the Python version did;
//! * `ScaleObject::decode` and `ScaleObject::encode` go straight to the
//!   registry when the object's class was made for a graph node and changes
//!   nothing about decoding or encoding (`crate::config::classes` marks such classes
//!   with a [`FastNode`]); otherwise they follow py-scale-codec's steps and
//!   call the class's hooks (`_before_decode`, `_decode_value`,
//!   `_after_decode`, `_encode_value`, `_encoded_value`: the defaults are
//!   here, subclasses override them in Python);
//! * the rest of a scale object's protocol (`value`, `value_object`,
//!   comparisons, hashing, iteration, pickling) is here too, so that the
//!   Python classes only declare what differs.
//!
//! `create_scale_object` with options, or on the first use of a type string,
//! takes the general path (`ConfigBase::create_slow`): the class from
//! `get_decoder_class`, which makes it (`crate::config::classes`).

use pyo3::exceptions::{PyNotImplementedError, PyTypeError, PyValueError};
use pyo3::gc::PyVisit;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyFloat, PyString, PyTuple, PyType};
use pyo3::PyTraverseError;

mod codec;
mod deferred;
mod fast_path;
mod make;
mod pickle;
mod values;

pub(crate) use deferred::DeferredValue;
pub use fast_path::FastNode;
pub(crate) use fast_path::FastPath;
use values::ValueCell;

pub(crate) use make::{new_instance, own_class_attr};

pub use pickle::restore_object;

use crate::convert::scale_bytes::PyScaleBytes;
use crate::convert::tree::TreeNode;
use crate::errors::guard;
use crate::objects::parts_origin::PartsOrigin;
use crate::registry::{PyRegistry, RegistryState};
use ferroscale_dynamic::TypeIdx;

/// The "not built yet" marker of `_value_object` (`scalecodec.base._UNSET`).
static UNSET: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The shared `_UNSET` sentinel object.
pub fn unset(py: Python<'_>) -> &Bound<'_, PyAny> {
    UNSET
        .get_or_init(py, || {
            py.eval(c"object()", None, None)
                .map(Bound::unbind)
                .unwrap_or_else(|_| py.None())
        })
        .bind(py)
}

/// The start of the `__dict__` names a view (`crate::objects::views`) keeps derived data under (an
/// index over its parts): recomputed on demand, so pickling leaves them out.
pub(crate) const CACHE_PREFIX: &str = "_ferroscale_cache_";

/// A pallet's storage entries by name (`metadata_objects::storage_index`).
pub(crate) const STORAGE_INDEX_ATTR: &str = "_ferroscale_cache_storage_by_name";

/// The state of a scale object (`scalecodec.base.ScaleDecoder` subclasses
/// this; attributes a class may redefine, like `type_string`, live in the
/// instance or class `__dict__`).
///
/// No `dict` here: the Python subclasses every object is made from carry
/// the instance `__dict__`, and CPython's garbage collector traverses it.
/// A `#[pyclass(dict)]` with a `__traverse__` of its own (PyO3 0.27) leaves
/// the dict out of the traversal, so every cycle through an instance's
/// attributes leaked (see `python/tests/test_memory.py`).
#[pyclass(subclass, weakref, module = "scalecodec._core", name = "ScaleObject")]
pub struct ScaleObject {
    runtime_config: Option<Py<PyAny>>,
    data: Option<Py<PyAny>>,
    data_start_offset: Option<usize>,
    data_end_offset: Option<usize>,
    /// The value, or the decoded value it is built from on first read
    /// (see [`deferred`]), and the `value_object` built from it.
    values: ValueCell,
    decoded: bool,
    /// The value was encoded by this object (`encode`), not decoded: its
    /// `data` is the encoding, which attributes such as hashes are read from.
    encoded: bool,
    metadata: Option<Py<PyAny>>,
    fast: Option<FastPath>,
    /// Set on a typed part (`crate::objects::typed_parts`): where it and its own
    /// parts come from; its `value_object` is built from that.
    origin: Option<Py<PartsOrigin>>,
}

#[pymethods]
impl ScaleObject {
    /// An empty object; the Python `__init__` fills it in.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> Self {
        Self::empty()
    }

    /// The `RuntimeConfigurationObject` the object decodes with.
    #[getter]
    fn get_runtime_config(&self, py: Python<'_>) -> Py<PyAny> {
        opt(py, &self.runtime_config)
    }

    #[setter]
    fn set_runtime_config(&mut self, value: Option<Py<PyAny>>) {
        // Another configuration: the kept graph index no longer applies.
        self.fast = None;
        self.runtime_config = value;
    }

    /// The `ScaleBytes` being decoded (or the encoded result).
    #[getter]
    fn get_data(&self, py: Python<'_>) -> Py<PyAny> {
        opt(py, &self.data)
    }

    #[setter]
    fn set_data(&mut self, value: Option<Py<PyAny>>) {
        self.data = value;
    }

    /// Offset in `data` where the value starts.
    #[getter]
    fn get_data_start_offset(&self) -> Option<usize> {
        self.data_start_offset
    }

    #[setter]
    fn set_data_start_offset(&mut self, value: Option<usize>) {
        self.data_start_offset = value;
    }

    /// Offset in `data` after the value (once decoded).
    #[getter]
    fn get_data_end_offset(&self) -> Option<usize> {
        self.data_end_offset
    }

    #[setter]
    fn set_data_end_offset(&mut self, value: Option<usize>) {
        self.data_end_offset = value;
    }

    /// The decoded value (storage behind the `value` property).
    #[getter(_value)]
    fn get_value_slot<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Self::value_now(slf)
    }

    #[setter(_value)]
    fn set_value_slot(&self, value: Option<Py<PyAny>>) {
        self.values.set_value_only(value);
    }

    /// Whether the value is decoded but not built as Python data yet (it
    /// is built on its first read).
    #[getter(_value_deferred)]
    fn get_value_deferred(&self) -> bool {
        self.values.is_deferred()
    }

    /// The built `value_object`, or `_UNSET`.
    #[getter(_value_object)]
    fn get_value_object_slot(&self, py: Python<'_>) -> Py<PyAny> {
        match self.values.value_object(py) {
            Some(v) => v,
            None => unset(py).clone().unbind(),
        }
    }

    #[setter(_value_object)]
    fn set_value_object_slot(&self, py: Python<'_>, value: Option<Py<PyAny>>) {
        self.values.set_value_object(match value {
            Some(v) if v.bind(py).is(unset(py)) => None,
            other => Some(other.unwrap_or_else(|| py.None())),
        });
    }

    /// Whether the object holds a value, decoded or encoded (py-scale-codec's flag).
    #[getter]
    fn get_decoded(&self) -> bool {
        self.decoded
    }

    #[setter]
    fn set_decoded(&mut self, value: bool) {
        self.decoded = value;
    }

    /// Runtime metadata the object decodes calls and events with.
    #[getter]
    fn get_metadata(&self, py: Python<'_>) -> Py<PyAny> {
        opt(py, &self.metadata)
    }

    #[setter]
    fn set_metadata(&mut self, value: Option<Py<PyAny>>) {
        self.metadata = value;
    }

    /// The decoded (or encoded) value in py-scale-codec's shapes.
    #[getter]
    fn get_value<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Self::value_now(slf)
    }

    #[setter]
    fn set_value(&self, value: Option<Py<PyAny>>) {
        self.values.set(value, None);
    }

    /// The value as plain Python data (the same as `value` here).
    #[getter]
    fn get_value_serialized<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Self::value_now(slf)
    }

    #[setter]
    fn set_value_serialized(&self, value: Option<Py<PyAny>>) {
        self.set_value(value);
    }

    /// The value with its parts as scale objects (the class's
    /// `_build_value_object`), built on first read.
    #[getter]
    pub(crate) fn get_value_object<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        if let Some(v) = slf.try_borrow()?.values.value_object(py) {
            return Ok(v.into_bound(py));
        }
        // a deferred value's parts are made from its tree, each building
        // its own value when read (see [`deferred`])
        let value = match Self::deferred_node(slf)? {
            Some(node) => Bound::new(py, TreeNode(node))?.into_any().unbind(),
            None => Self::value_now(slf)?.unbind(),
        };
        let origin = slf.try_borrow()?.origin.as_ref().map(|o| o.clone_ref(py));
        let built = match origin {
            Some(origin) => {
                PartsOrigin::build_value_object(origin.bind(py), slf.as_any(), value.bind(py))?
            }
            None => slf.call_method1(intern!(py, "_build_value_object"), (value,))?,
        };
        // two threads reading it first may both build it; the first kept
        // is the one every reader gets
        let kept = slf
            .try_borrow()?
            .values
            .keep_value_object(py, built.unbind());
        Ok(kept.into_bound(py))
    }

    #[setter]
    fn set_value_object(&mut self, py: Python<'_>, value: Option<Py<PyAny>>) {
        self.set_value_object_slot(py, value);
    }

    /// The object a typed part belongs to (the metadata), else `None`.
    #[getter(_parts_root)]
    fn get_parts_root(&self, py: Python<'_>) -> Py<PyAny> {
        match &self.origin {
            Some(origin) => origin.get().root(py).clone().unbind(),
            None => py.None(),
        }
    }

    /// Decoding hook (`decode` calls it unless the class decodes as its
    /// graph node): `(value, bytes used)` of `data[offset:]`, decoded as the
    /// class's node while the object still decodes as its class does (same
    /// configuration, no `type_string` of its own, and the registry still in
    /// the state the node was resolved in), else by type string.
    ///
    /// The registry may have changed since the class was made: the object's
    /// metadata loaded by `_before_decode` (an object made with
    /// `metadata=` of another runtime than the configuration's), or a
    /// runtime switch between `create_scale_object` and `decode`. The node
    /// of the earlier state would decode that state's type (the graph keeps
    /// it), so the type string is resolved again in the current one. The
    /// check and the decode hold one lock of the registry; for an object
    /// bound by `metadata=`, so does loading that metadata (another thread
    /// switching the configuration's runtime cannot come between them).
    fn _decode_value<'py>(
        slf: &Bound<'py, Self>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let config = slf.getattr(intern!(py, "runtime_config"))?;
        let registry = config.getattr(intern!(py, "_registry"))?;
        let Ok(registry) = registry.cast::<PyRegistry>() else {
            // a registry of the caller's own: its `decode`
            let type_string = Self::type_string_for(slf, "decode")?;
            return registry.call_method1(
                intern!(py, "decode"),
                (type_string, data, offset, check_remaining),
            );
        };
        let node = Self::class_node(slf, &config)?;
        let metadata = opt(py, &slf.try_borrow()?.metadata).into_bound(py);
        let decoded = if metadata.is_none() {
            let unchanged = |reg: &mut RegistryState| {
                Ok(node.and_then(|(idx, generation)| {
                    (reg.current_generation() == generation).then_some(TypeIdx(idx))
                }))
            };
            match PyRegistry::decode_picked(
                registry,
                unchanged,
                None,
                data,
                offset,
                check_remaining,
            )? {
                Some(decoded) => decoded,
                None => {
                    let type_string: String = Self::type_string_for(slf, "decode")?.extract()?;
                    let resolve = |reg: &mut RegistryState| {
                        guard("resolving a type", || reg.resolve_idx(py, &type_string))
                    };
                    PyRegistry::decode_node_of(
                        registry,
                        resolve,
                        Some(&type_string),
                        data,
                        offset,
                        check_remaining,
                    )?
                }
            }
        } else {
            // the configuration loads the metadata and decodes, one lock
            let type_string = Self::type_string_for(slf, "decode")?;
            return config.call_method1(
                intern!(py, "_decode_bound"),
                (metadata, type_string, node, data, offset, check_remaining),
            );
        };
        decoded.into_pyobject(py).map(Bound::into_any)
    }

    /// Hook run before decoding: loads the object's metadata, if any, into
    /// its configuration.
    fn _before_decode(slf: &Bound<'_, Self>) -> PyResult<()> {
        let py = slf.py();
        let (metadata, config) = {
            let this = slf.try_borrow()?;
            (opt(py, &this.metadata), opt(py, &this.runtime_config))
        };
        if !metadata.is_none(py) {
            config.call_method1(py, intern!(py, "_sync_metadata"), (metadata,))?;
        }
        Ok(())
    }

    /// Hook run after decoding (nothing by default).
    fn _after_decode(&self) {}

    /// Encoding hook (`encode` calls it unless the class encodes as its
    /// graph node): the bytes of `value` as the object's type string.
    fn _encode_value<'py>(
        slf: &Bound<'py, Self>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let type_string = Self::type_string_for(slf, "encode")?;
        let config = slf.getattr(intern!(py, "runtime_config"))?;
        let registry = config.getattr(intern!(py, "_registry"))?;
        let Ok(registry) = registry.cast::<PyRegistry>() else {
            // a registry of the caller's own: its `encode`
            return registry.call_method1(intern!(py, "encode"), (type_string, value));
        };
        let type_string: String = type_string.extract()?;
        let bytes = Self::encode_in(slf, registry, Some(&type_string), None, value)?;
        Ok(PyBytes::new(py, &bytes).into_any())
    }

    /// Hook giving the object's value after `encode(value)`: the value (a
    /// scale object stands for its value, see [`crate::convert::stand_in_value`]).
    fn _encoded_value<'py>(&self, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        match value.cast::<ScaleObject>() {
            Ok(object) => crate::convert::stand_in_value(object.as_any()),
            Err(_) => Ok(value.clone()),
        }
    }

    /// The value as plain Python data.
    fn serialize<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Self::value_now(slf)
    }

    /// py-scale-codec's subclasses decode in `process`; here Rust does.
    /// (Static, so that the abstract method can be called on anything, as
    /// py-scale-codec's suite does.)
    #[staticmethod]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn process(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        Err(PyNotImplementedError::new_err(
            "decoding runs in Rust (decode)",
        ))
    }

    /// py-scale-codec's subclasses encode in `process_encode`; here Rust does.
    #[staticmethod]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn process_encode(
        _args: &Bound<'_, PyTuple>,
        _kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        Err(PyNotImplementedError::new_err(
            "encoding runs in Rust (encode)",
        ))
    }

    /// Reads `length` bytes from the data.
    fn get_next_bytes<'py>(&self, py: Python<'py>, length: isize) -> PyResult<Bound<'py, PyAny>> {
        self.data_object(py)?
            .call_method1(intern!(py, "get_next_bytes"), (length,))
    }

    /// The data after its offset.
    fn get_remaining_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.data_object(py)?
            .call_method0(intern!(py, "get_remaining_bytes"))
    }

    // py-scale-codec's helper methods of `ScaleDecoder` (for decoders
    // written in Python, and class look-ups).

    /// The type's shape down to primitive names (py-scale-codec's);
    /// callable on the class, as py-scale-codec's classmethod is, and on objects.
    #[classmethod]
    #[pyo3(signature = (_recursion_level=0, max_recursion=9))]
    fn generate_type_decomposition<'py>(
        cls: &Bound<'py, PyType>,
        _recursion_level: i64,
        max_recursion: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let config = match own_class_attr(cls, intern!(py, "_runtime_config"))? {
            Some(config) if config.is_truthy()? => config,
            _ => default_config(py)?,
        };
        let registry = config.getattr(intern!(py, "_registry"))?;
        let type_string = cls.getattr(intern!(py, "type_string"))?;
        let portable_id = if type_string.is_instance_of::<PyString>() {
            registry.call_method1(intern!(py, "portable_type_id"), (&type_string,))?
        } else {
            py.None().into_bound(py)
        };
        if !portable_id.is_none() {
            // a portable type (by `scale_info::N` or by path) decomposes as
            // py-scale-codec's class for it does
            let depth = max_recursion.clamp(0, i64::from(u32::MAX));
            let shape = registry
                .call_method1(intern!(py, "portable_decomposition"), (portable_id, depth))?;
            if !shape.is_none() {
                return Ok(shape);
            }
        }
        let node = match own_class_attr(cls, intern!(py, "_node"))? {
            Some(node) => node,
            None => registry.call_method1(intern!(py, "resolve"), (type_string,))?,
        };
        registry.call_method1(intern!(py, "decomposition"), (node,))
    }

    /// py-scale-codec's normalisation of a legacy type name.
    #[classmethod]
    fn convert_type(_cls: &Bound<'_, PyType>, name: &str) -> String {
        ferroscale_dynamic::runtime::convert_type_string(name)
    }

    /// A scale object of `type_string` (py-scale-codec's classmethod form).
    #[classmethod]
    #[pyo3(signature = (type_string, data=None, runtime_config=None, **kwargs))]
    fn get_decoder_class<'py>(
        cls: &Bound<'py, PyType>,
        type_string: &Bound<'py, PyAny>,
        data: Option<Bound<'py, PyAny>>,
        runtime_config: Option<Bound<'py, PyAny>>,
        kwargs: Option<Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let config = match runtime_config {
            Some(config) if config.is_truthy()? => config,
            _ => default_config(py)?,
        };
        let kwargs = kwargs.unwrap_or_else(|| PyDict::new(py));
        kwargs.set_item(intern!(py, "data"), data)?;
        config.call_method(
            intern!(py, "create_scale_object"),
            (type_string,),
            Some(&kwargs),
        )
    }

    /// The next byte of `data` as an int.
    fn get_next_u8(slf: &Bound<'_, Self>) -> PyResult<u8> {
        Ok(next_bytes(slf.as_any(), 1)?.first().copied().unwrap_or(0))
    }

    /// The next byte of `data` as a bool (an error unless it is 0 or 1).
    fn get_next_bool(slf: &Bound<'_, Self>) -> PyResult<bool> {
        match next_bytes(slf.as_any(), 1)?.as_slice() {
            [0] => Ok(false),
            [1] => Ok(true),
            _ => Err(crate::errors::raise(
                slf.py(),
                "InvalidScaleTypeValueException",
                "Invalid value for datatype \"bool\"".into(),
            )),
        }
    }

    /// Whether `type_string` is one of py-scale-codec's primitive names.
    #[staticmethod]
    fn is_primitive(type_string: &Bound<'_, PyAny>) -> bool {
        type_string
            .cast::<PyString>()
            .ok()
            .and_then(|s| s.to_str().ok())
            .is_some_and(|s| PRIMITIVES.contains(&s))
    }

    /// Sets `type_mapping` of a tuple class (`type_string` `"(A, B)"`) to its element types.
    #[classmethod]
    fn build_type_mapping(cls: &Bound<'_, PyType>) -> PyResult<()> {
        let py = cls.py();
        let type_string: Option<String> = cls.getattr(intern!(py, "type_string"))?.extract().ok();
        if let Some(text) = type_string.filter(|t| t.starts_with('(') && t.ends_with(')')) {
            let elements = PyTuple::new(py, crate::registry::kinds::tuple_elements(&text))?;
            cls.setattr(intern!(py, "type_mapping"), elements)?;
        }
        Ok(())
    }

    /// Decodes a `type_string` object from this object's data at its offset.
    #[pyo3(signature = (type_string, **kwargs))]
    fn process_type<'py>(
        slf: &Bound<'py, Self>,
        type_string: &Bound<'py, PyAny>,
        kwargs: Option<Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let config = slf.getattr(intern!(py, "runtime_config"))?;
        let data = slf.getattr(intern!(py, "data"))?;
        let obj = config.call_method(
            intern!(py, "create_scale_object"),
            (type_string, data),
            kwargs.as_ref(),
        )?;
        let options = PyDict::new(py);
        options.set_item(intern!(py, "check_remaining"), false)?;
        obj.call_method(intern!(py, "decode"), (), Some(&options))?;
        Ok(obj)
    }

    /// The bytes the last decode consumed (or the encoded bytes).
    fn get_used_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (Some(data), Some(start)) = (&self.data, self.data_start_offset) else {
            return Ok(PyByteArray::new(py, &[]).into_any());
        };
        let data = data.bind(py);
        let end = match self.data_end_offset {
            Some(end) => end,
            None => data.getattr(intern!(py, "offset"))?.extract()?,
        };
        let slice = pyo3::types::PySlice::new(py, start as isize, end.max(start) as isize, 1);
        data.getattr(intern!(py, "data"))?.get_item(slice)
    }

    fn __str__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyString>> {
        slf.getattr(intern!(slf.py(), "value"))?.str()
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let value = slf.getattr(intern!(slf.py(), "value"))?.repr()?;
        Ok(format!("<{}(value={value})>", slf.get_type().name()?))
    }

    /// Compares the values (a scale object on the other side by its value).
    fn __richcmp__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
        op: pyo3::basic::CompareOp,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let other = if other.is_instance_of::<ScaleObject>() {
            other.getattr(intern!(py, "value"))?
        } else {
            other.clone()
        };
        slf.getattr(intern!(py, "value"))?.rich_compare(other, op)
    }

    /// The value's hash, or the object's identity for unhashable values.
    fn __hash__(slf: &Bound<'_, Self>) -> PyResult<isize> {
        match slf.getattr(intern!(slf.py(), "value"))?.hash() {
            Ok(h) => Ok(h),
            Err(e) if e.is_instance_of::<PyTypeError>(slf.py()) => Ok(slf.as_ptr() as isize),
            Err(e) => Err(e),
        }
    }

    fn __getitem__<'py>(
        slf: &Bound<'py, Self>,
        item: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        slf.getattr(intern!(slf.py(), "value_object"))?
            .get_item(item)
    }

    fn __iter__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Ok(slf
            .getattr(intern!(slf.py(), "value_object"))?
            .try_iter()?
            .into_any())
    }

    fn __int__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .get_type::<pyo3::types::PyInt>()
            .call1((slf.getattr(intern!(slf.py(), "value"))?,))
    }

    fn __float__(slf: &Bound<'_, Self>) -> PyResult<f64> {
        slf.py()
            .get_type::<PyFloat>()
            .call1((slf.getattr(intern!(slf.py(), "value"))?,))?
            .extract()
    }

    fn __bool__(&self) -> bool {
        true
    }

    /// Pickles as `(type string, the bytes behind the value, configuration)`:
    /// the value is rebuilt by decoding those bytes in the unpickled configuration.
    ///
    /// A typed part has no bytes of its own: it pickles as the
    /// `typed_part` call that makes it again, with its attributes.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        Self::reduce(slf)
    }

    /// Decodes `data` (or the data given at creation) and returns the value;
    /// with `check_remaining`, bytes left after the value are an error.
    ///
    /// The steps are py-scale-codec's; a class's Python hooks
    /// (`_before_decode`, `_decode_value`, `_after_decode`) run unless its
    /// `_fast_node` says it decodes as its graph node does.
    #[pyo3(signature = (data=None, check_remaining=true))]
    fn decode<'py>(
        slf: &Bound<'py, Self>,
        data: Option<&Bound<'py, PyAny>>,
        check_remaining: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::decode_with(slf, data, check_remaining)
    }

    /// Encodes `value` (default: the current value) and returns the bytes
    /// as a `ScaleBytes`, which becomes this object's data; the value becomes
    /// the object's value. `value` may be given by keyword, as py-scale-codec
    /// names it.
    #[pyo3(signature = (*args, **kwargs))]
    fn encode<'py>(
        slf: &Bound<'py, Self>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyScaleBytes>> {
        Self::encode_with(slf, args, kwargs)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.runtime_config)?;
        visit.call(&self.data)?;
        self.values.visit(&visit)?;
        visit.call(&self.metadata)?;
        if let Some(f) = &self.fast {
            visit.call(&f.registry)?;
        }
        visit.call(&self.origin)?;
        Ok(())
    }

    fn __clear__(&mut self) {
        self.runtime_config = None;
        self.data = None;
        self.values.set(None, None);
        self.metadata = None;
        self.fast = None;
        self.origin = None;
    }
}

impl ScaleObject {
    /// The object's type string, or a `NotImplementedError` saying it cannot `what`.
    fn type_string_for<'py>(slf: &Bound<'py, Self>, what: &str) -> PyResult<Bound<'py, PyAny>> {
        let type_string = slf.getattr(intern!(slf.py(), "type_string"))?;
        if type_string.is_none() {
            return Err(PyNotImplementedError::new_err(format!(
                "{} has no type string to {what} with",
                slf.get_type().name()?
            )));
        }
        Ok(type_string)
    }

    /// The `ScaleBytes` the object reads from (a `ValueError` without one).
    fn data_object<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.data {
            Some(d) => Ok(d.bind(py).clone()),
            None => Err(PyValueError::new_err("the object has no data")),
        }
    }
}

/// `None` as Python `None`.
fn opt(py: Python<'_>, v: &Option<Py<PyAny>>) -> Py<PyAny> {
    match v {
        Some(v) => v.clone_ref(py),
        None => py.None(),
    }
}

/// py-scale-codec's primitive type names (`ScaleDecoder.is_primitive`).
const PRIMITIVES: [&str; 21] = [
    "bool", "u8", "u16", "u32", "u64", "u128", "u256", "i8", "i16", "i32", "i64", "i128", "i256",
    "h160", "h256", "h512", "[u8; 4]", "[u8; 8]", "[u8; 16]", "[u8; 32]", "&[u8]",
];

/// `RuntimeConfiguration()`: the shared default configuration.
fn default_config(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    crate::package::name::import(py, "base")?
        .getattr(intern!(py, "RuntimeConfiguration"))?
        .call0()
}

/// The next `length` bytes of the object's data.
fn next_bytes(slf: &Bound<'_, PyAny>, length: usize) -> PyResult<Vec<u8>> {
    slf.call_method1(intern!(slf.py(), "get_next_bytes"), (length,))?
        .extract()
}
