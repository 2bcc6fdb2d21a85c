//! py-scale-codec's helper methods of `ScaleDecoder` (the base of every
//! scale class, `class ScaleDecoder(_core.DecoderBase)`): reading bytes for
//! decoders written in Python, the type decomposition, class look-ups, and
//! the primitive names.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

use crate::object::{own_class_attr, ScaleObject};
use crate::views::base;

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

/// The helper methods of py-scale-codec's `ScaleDecoder`.
#[pyclass(extends = ScaleObject, subclass, module = "scalecodec._core", name = "DecoderBase")]
pub struct DecoderBase;

#[pymethods]
impl DecoderBase {
    /// An empty object; the Python `__init__` fills it in.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(
        _args: &Bound<'_, PyTuple>,
        _kwargs: Option<&Bound<'_, PyDict>>,
    ) -> pyo3::PyClassInitializer<Self> {
        base().add_subclass(DecoderBase)
    }

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
        let text: Option<String> = type_string.extract().ok();
        let portable_id = text
            .as_deref()
            .and_then(|t| t.strip_prefix("scale_info::"))
            .and_then(|id| id.parse::<u32>().ok());
        if let Some(id) = portable_id {
            // portable types decompose as py-scale-codec's classes for them do
            let depth = max_recursion.clamp(0, i64::from(u32::MAX));
            let shape =
                registry.call_method1(intern!(py, "portable_decomposition"), (id, depth))?;
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
}
