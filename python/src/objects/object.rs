//! The hot path of py-scale-codec's object API, in Rust: the base class of
//! every scale object (that of `RuntimeConfigurationObject` is in
//! `crate::config_base`).
//!
//! `config.create_scale_object("u32", ScaleBytes(b)).decode()` is the call
//! py-scale-codec users make for every value. Through Python methods it took
//! about 1.5 µs, most of it attribute sets and frames around a 0.15 µs Rust
//! decode. Here the three steps are Rust (`scalecodec.base` subclasses
//! these classes):
//!
//! * [`PyScaleBytes`] (`crate::scale_bytes`) is py-scale-codec's `ScaleBytes`
//!   (buffer, offset and its helper methods);
//! * `ConfigBase::create_scale_object` finds the class in the
//!   configuration's class cache and creates the object without running
//!   `__init__`, as the Python version did;
//! * `ScaleObject::decode` and `ScaleObject::encode` go straight to the
//!   registry when the object's class was made for a graph node and changes
//!   nothing about decoding or encoding (`crate::classes` marks such classes
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
//! `get_decoder_class`, which makes it (`crate::classes`).

use ferroscale_dynamic::TypeIdx;
use pyo3::exceptions::{PyNotImplementedError, PyTypeError, PyValueError};
use pyo3::gc::PyVisit;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyFloat, PyString, PyTuple, PyType};
use pyo3::PyTraverseError;
use std::sync::Arc;

use crate::parts_origin::PartsOrigin;
use crate::registry::PyRegistry;
use crate::scale_bytes::{unsupported, PyScaleBytes};

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

/// `_fast_node` of a class made by `crate::classes`: its graph node, the
/// registry generation it was resolved in, and whether the class decodes
/// and encodes exactly as the node does (no Python hook overridden).
#[pyclass(frozen, module = "scalecodec._core", name = "FastNode")]
pub struct FastNode {
    node: u32,
    generation: u64,
    decode: bool,
    encode: bool,
    /// The type string, kept only when encoding depends on it (see
    /// `ferroscale_dynamic::ops::object`), so that other objects carry none.
    type_name: Option<Arc<str>>,
}

#[pymethods]
impl FastNode {
    /// The marker for `node` (of `type_string`) at registry `generation`.
    #[new]
    fn new(node: u32, generation: u64, decode: bool, encode: bool, type_string: &str) -> Self {
        let type_name = ferroscale_dynamic::ops::portable_json::has_defaults(type_string)
            .then(|| Arc::from(type_string));
        FastNode {
            node,
            generation,
            decode,
            encode,
            type_name,
        }
    }
}

/// What an object created by `ConfigBase::create_scale_object`
/// (`crate::config_base`) needs to decode and encode without going through Python.
pub(crate) struct FastPath {
    node: u32,
    registry: Py<PyRegistry>,
    /// The registry generation the node belongs to.
    generation: u64,
    decode: bool,
    encode: bool,
    type_name: Option<Arc<str>>,
}

impl FastPath {
    /// The fast path of a class marked `marker`, over `registry`.
    pub(crate) fn new(marker: &FastNode, registry: Py<PyRegistry>) -> Self {
        FastPath {
            node: marker.node,
            registry,
            generation: marker.generation,
            decode: marker.decode,
            encode: marker.encode,
            type_name: marker.type_name.clone(),
        }
    }
}

/// The start of the `__dict__` names a view (`crate::views`) keeps derived data under (an
/// index over its parts): recomputed on demand, so pickling leaves them out.
pub(crate) const CACHE_PREFIX: &str = "_ferroscale_cache_";

/// A pallet's storage entries by name (`metadata_objects::storage_index`).
pub(crate) const STORAGE_INDEX_ATTR: &str = "_ferroscale_cache_storage_by_name";

/// The state of a scale object (`scalecodec.base.ScaleDecoder` subclasses
/// this; attributes a class may redefine, like `type_string`, live in the
/// instance or class `__dict__`).
#[pyclass(
    subclass,
    dict,
    weakref,
    module = "scalecodec._core",
    name = "ScaleObject"
)]
pub struct ScaleObject {
    runtime_config: Option<Py<PyAny>>,
    data: Option<Py<PyAny>>,
    data_start_offset: Option<usize>,
    data_end_offset: Option<usize>,
    value: Option<Py<PyAny>>,
    /// `None`: not built yet (`_UNSET` in Python).
    value_object: Option<Py<PyAny>>,
    decoded: bool,
    /// The value was encoded by this object (`encode`), not decoded: its
    /// `data` is the encoding, which attributes such as hashes are read from.
    encoded: bool,
    metadata: Option<Py<PyAny>>,
    fast: Option<FastPath>,
    /// Set on a typed part (`crate::typed_parts`): where it and its own
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
    fn get_value_slot(&self, py: Python<'_>) -> Py<PyAny> {
        opt(py, &self.value)
    }

    #[setter(_value)]
    fn set_value_slot(&mut self, value: Option<Py<PyAny>>) {
        self.value = value;
    }

    /// The built `value_object`, or `_UNSET`.
    #[getter(_value_object)]
    fn get_value_object_slot(&self, py: Python<'_>) -> Py<PyAny> {
        match &self.value_object {
            Some(v) => v.clone_ref(py),
            None => unset(py).clone().unbind(),
        }
    }

    #[setter(_value_object)]
    fn set_value_object_slot(&mut self, py: Python<'_>, value: Option<Py<PyAny>>) {
        self.value_object = match value {
            Some(v) if v.bind(py).is(unset(py)) => None,
            other => Some(other.unwrap_or_else(|| py.None())),
        };
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
    fn get_value(&self, py: Python<'_>) -> Py<PyAny> {
        opt(py, &self.value)
    }

    #[setter]
    fn set_value(&mut self, value: Option<Py<PyAny>>) {
        self.value = value;
        self.value_object = None;
    }

    /// The value as plain Python data (the same as `value` here).
    #[getter]
    fn get_value_serialized(&self, py: Python<'_>) -> Py<PyAny> {
        opt(py, &self.value)
    }

    #[setter]
    fn set_value_serialized(&mut self, value: Option<Py<PyAny>>) {
        self.set_value(value);
    }

    /// The value with its parts as scale objects (the class's
    /// `_build_value_object`), built on first read.
    #[getter]
    pub(crate) fn get_value_object<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        if let Some(v) = &slf.borrow().value_object {
            return Ok(v.bind(py).clone());
        }
        let (value, origin) = {
            let this = slf.borrow();
            (
                opt(py, &this.value),
                this.origin.as_ref().map(|o| o.clone_ref(py)),
            )
        };
        let built = match origin {
            Some(origin) => {
                PartsOrigin::build_value_object(origin.bind(py), slf.as_any(), value.bind(py))?
            }
            None => slf.call_method1(intern!(py, "_build_value_object"), (value,))?,
        };
        slf.borrow_mut().value_object = Some(built.clone().unbind());
        Ok(built)
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
    /// configuration, no `type_string` of its own), else by type string.
    fn _decode_value<'py>(
        slf: &Bound<'py, Self>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let cls = slf.get_type();
        let config = slf.getattr(intern!(py, "runtime_config"))?;
        let registry = config.getattr(intern!(py, "_registry"))?;
        let node = own_class_attr(&cls, intern!(py, "_node"))?;
        let own_config = own_class_attr(&cls, intern!(py, "_runtime_config"))?;
        if let (Some(node), Some(own_config)) = (node, own_config) {
            let own_type_string = slf
                .getattr(intern!(py, "__dict__"))?
                .contains(intern!(py, "type_string"))?;
            if own_config.is(&config) && !own_type_string {
                return registry.call_method1(
                    intern!(py, "decode_node"),
                    (node, data, offset, check_remaining),
                );
            }
        }
        let type_string = Self::type_string_for(slf, "decode")?;
        registry.call_method1(
            intern!(py, "decode"),
            (type_string, data, offset, check_remaining),
        )
    }

    /// Hook run before decoding: loads the object's metadata, if any, into
    /// its configuration.
    fn _before_decode(slf: &Bound<'_, Self>) -> PyResult<()> {
        let py = slf.py();
        let (metadata, config) = {
            let this = slf.borrow();
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
        config
            .getattr(intern!(py, "_registry"))?
            .call_method1(intern!(py, "encode"), (type_string, value))
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
    fn serialize(&self, py: Python<'_>) -> Py<PyAny> {
        opt(py, &self.value)
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
            let elements = PyTuple::new(py, crate::kinds::tuple_elements(&text))?;
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
        let py = slf.py();
        let this = slf.borrow();
        if let Some(origin) = &this.origin {
            let value = opt(py, &this.value).into_bound(py);
            let config = opt(py, &this.runtime_config).into_bound(py);
            let origin = origin.clone_ref(py);
            drop(this);
            let type_string = slf.getattr(intern!(py, "type_string"))?;
            let args = origin.get().remake_args(py, value, type_string, config)?;
            let remake = py.import("scalecodec._core")?.getattr("typed_part")?;
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
        let restore = py.import("scalecodec._core")?.getattr("restore_object")?;
        let type_string = slf.getattr(intern!(py, "type_string"))?;
        (restore, (type_string, data, config)).into_pyobject(py)
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
        let py = slf.py();
        if let Some(data) = data {
            let Ok(buffer) = data.cast::<PyScaleBytes>() else {
                return Err(unsupported(data));
            };
            let offset = buffer.get().offset();
            let mut this = slf.borrow_mut();
            this.data = Some(data.clone().unbind());
            this.data_start_offset = Some(offset);
            this.decoded = false;
            this.encoded = false;
        } else if slf.borrow().decoded {
            // py-scale-codec decodes once: again without new data, the value stays
            return Ok(opt(py, &slf.borrow().value).into_bound(py));
        }
        if let Some(value) = Self::decode_fast(slf, check_remaining)? {
            return Ok(value);
        }
        let (buffer, start) = {
            let mut this = slf.borrow_mut();
            let Some(data) = &this.data else {
                return Err(PyValueError::new_err("No data to decode"));
            };
            let buffer = data.bind(py).clone();
            // where the data stands now, as py-scale-codec reads it (an object
            // made before other values were read from the same data starts after them)
            let start = buffer.getattr(intern!(py, "offset"))?.extract()?;
            this.data_start_offset = Some(start);
            (buffer, start)
        };
        slf.call_method0(intern!(py, "_before_decode"))?;
        let bytes = buffer.getattr(intern!(py, "data"))?;
        let (value, used): (Bound<'py, PyAny>, usize) = slf
            .call_method1(
                intern!(py, "_decode_value"),
                (bytes, start, check_remaining),
            )?
            .extract()?;
        let end = start + used;
        buffer.setattr(intern!(py, "offset"), end)?;
        {
            let mut this = slf.borrow_mut();
            this.data_end_offset = Some(end);
            this.value = Some(value.unbind());
            this.value_object = None;
            this.decoded = true;
        }
        slf.call_method0(intern!(py, "_after_decode"))?;
        Ok(opt(py, &slf.borrow().value).into_bound(py))
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
        let py = slf.py();
        let keyword = match kwargs {
            Some(kw) if !kw.is_empty() => {
                let value = kw.get_item(intern!(py, "value"))?;
                if value.is_none() || kw.len() > 1 || !args.is_empty() {
                    return Err(pyo3::exceptions::PyTypeError::new_err(
                        "encode() takes one argument, `value`",
                    ));
                }
                value
            }
            _ => None,
        };
        let args = match keyword {
            Some(v) => PyTuple::new(py, [v])?,
            None => args.clone(),
        };
        let value = match args.len() {
            0 => opt(py, &slf.borrow().value).into_bound(py),
            1 => {
                let v = args.get_item(0)?;
                if v.is(unset(py)) {
                    opt(py, &slf.borrow().value).into_bound(py)
                } else {
                    v
                }
            }
            n => {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "encode() takes at most 1 argument ({n} given)"
                )))
            }
        };
        let fast = Self::fast_encoder(slf);
        if fast.is_none() || slf.borrow().metadata.is_some() {
            slf.call_method0(intern!(py, "_before_decode"))?;
        }
        let raw: Vec<u8> = match &fast {
            Some((node, registry, name)) => {
                let converted = crate::convert::to_value(&value)?;
                let Ok(mut reg) = registry.bind(py).try_borrow_mut() else {
                    return Err(PyValueError::new_err("registry is busy"));
                };
                reg.encode_node(py, TypeIdx(*node), name.as_deref(), &value, converted)?
            }
            None => slf
                .call_method1(intern!(py, "_encode_value"), (&value,))?
                .extract()?,
        };
        let length = raw.len();
        let buffer = Bound::new(
            py,
            PyScaleBytes::with(PyByteArray::new(py, &raw).into_any().unbind(), length),
        )?;
        {
            let mut this = slf.borrow_mut();
            this.data = Some(buffer.clone().into_any().unbind());
            this.data_start_offset = Some(0);
            this.data_end_offset = Some(length);
            // as py-scale-codec's: the object holds its value now, and
            // `decode()` without new data gives it back
            this.decoded = true;
            this.encoded = true;
        }
        if fast.is_some() {
            // `_encoded_value` of the base class: a scale object stands for its value.
            let plain = match value.cast::<ScaleObject>() {
                Ok(object) => crate::convert::stand_in_value(object.as_any())?,
                Err(_) => value,
            };
            let mut this = slf.borrow_mut();
            this.value = Some(plain.unbind());
            this.value_object = None;
        } else {
            let plain = slf.call_method1(intern!(py, "_encoded_value"), (&value,))?;
            slf.setattr(intern!(py, "value"), plain)?;
        }
        Ok(buffer)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.runtime_config)?;
        visit.call(&self.data)?;
        visit.call(&self.value)?;
        visit.call(&self.value_object)?;
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
        self.value = None;
        self.value_object = None;
        self.metadata = None;
        self.fast = None;
        self.origin = None;
    }
}

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
            value: None,
            value_object: None,
            decoded: false,
            encoded: false,
            metadata: None,
            fast: None,
            origin: None,
        }
    }

    /// Makes a new object the typed part holding `value` in `config`.
    pub fn set_part(&mut self, config: Py<PyAny>, value: Py<PyAny>, origin: Py<PartsOrigin>) {
        self.runtime_config = Some(config);
        self.value = Some(value);
        self.decoded = true;
        self.origin = Some(origin);
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

    /// The node and registry to encode with, when the object's class encodes
    /// exactly as its graph node does and the registry has not changed.
    fn fast_encoder(slf: &Bound<'_, Self>) -> Option<(u32, Py<PyRegistry>, Option<Arc<str>>)> {
        let py = slf.py();
        let this = slf.borrow();
        let fast = this.fast.as_ref().filter(|f| f.encode)?;
        let current = fast
            .registry
            .bind(py)
            .try_borrow()
            .ok()?
            .current_generation();
        (current == fast.generation).then(|| {
            (
                fast.node,
                fast.registry.clone_ref(py),
                fast.type_name.clone(),
            )
        })
    }

    /// The decode of an object whose class decodes as its graph node does:
    /// `None` when the general (Python) path must run instead.
    fn decode_fast<'py>(
        slf: &Bound<'py, Self>,
        check_remaining: bool,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let py = slf.py();
        // The object is not borrowed while it decodes: a large input is
        // decoded with the interpreter lock released, and other threads may
        // read the object meanwhile.
        let (node, registry, data) = {
            let this = slf.borrow();
            let (Some(fast), None, Some(data)) = (&this.fast, &this.metadata, &this.data) else {
                return Ok(None);
            };
            if !fast.decode {
                return Ok(None);
            }
            let Ok(buffer) = data.bind(py).cast::<PyScaleBytes>() else {
                return Ok(None);
            };
            let registry = fast.registry.bind(py).clone();
            let Ok(reg) = registry.try_borrow() else {
                return Ok(None);
            };
            if reg.current_generation() != fast.generation {
                return Ok(None);
            }
            (fast.node, registry.clone(), buffer.clone())
        };
        let buffer = data.get();
        let start = buffer.offset();
        let (value, used) = PyRegistry::decode_in(
            &registry,
            TypeIdx(node),
            None,
            buffer.buffer().bind(py),
            start,
            check_remaining,
        )?;
        let end = start + used;
        buffer.set_offset_to(end);
        let mut this = slf.try_borrow_mut()?;
        this.data_start_offset = Some(start);
        this.data_end_offset = Some(end);
        this.value = Some(value.clone().unbind());
        this.value_object = None;
        this.decoded = true;
        Ok(Some(value))
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

/// `None` as Python `None`.
fn opt(py: Python<'_>, v: &Option<Py<PyAny>>) -> Py<PyAny> {
    match v {
        Some(v) => v.clone_ref(py),
        None => py.None(),
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

/// py-scale-codec's primitive type names (`ScaleDecoder.is_primitive`).
const PRIMITIVES: [&str; 21] = [
    "bool", "u8", "u16", "u32", "u64", "u128", "u256", "i8", "i16", "i32", "i64", "i128", "i256",
    "h160", "h256", "h512", "[u8; 4]", "[u8; 8]", "[u8; 16]", "[u8; 32]", "&[u8]",
];

/// `RuntimeConfiguration()`: the shared default configuration.
fn default_config(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import(intern!(py, "scalecodec.base"))?
        .getattr(intern!(py, "RuntimeConfiguration"))?
        .call0()
}

/// The next `length` bytes of the object's data.
fn next_bytes(slf: &Bound<'_, PyAny>, length: usize) -> PyResult<Vec<u8>> {
    slf.call_method1(intern!(slf.py(), "get_next_bytes"), (length,))?
        .extract()
}

#[cfg(test)]
mod cache_name_tests {
    #[test]
    fn cache_names_are_left_out_of_pickles() {
        assert!(super::STORAGE_INDEX_ATTR.starts_with(super::CACHE_PREFIX));
    }
}
