//! Decoding and encoding a scale object: the fast path through its class's
//! graph node, else py-scale-codec's steps with the class's Python hooks.

use crate::convert::scale_bytes::{unsupported, PyScaleBytes};
use crate::registry::{PyRegistry, RegistryState};
use ferroscale_dynamic::TypeIdx;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyTuple};
use std::sync::Arc;

use super::{own_class_attr, unset, DeferredValue, ScaleObject};

impl ScaleObject {
    /// `decode`: the fast path when the class allows it, else py-scale-codec's steps.
    /// Returns the value; `None` instead when the class deferred building
    /// it and the caller throws the result away (see [`super::deferred`]).
    pub(super) fn decode_with<'py>(
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
            let mut this = slf.try_borrow_mut()?;
            this.data = Some(data.clone().unbind());
            this.data_start_offset = Some(offset);
            this.decoded = false;
            this.encoded = false;
        } else if slf.try_borrow()?.decoded {
            // py-scale-codec decodes once: again without new data, the value stays
            return Self::result(slf);
        }
        if let Some(value) = Self::decode_fast(slf, check_remaining)? {
            return Ok(value);
        }
        let (buffer, start) = {
            let mut this = slf.try_borrow_mut()?;
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
            let mut this = slf.try_borrow_mut()?;
            this.data_end_offset = Some(end);
            match value.cast_into::<DeferredValue>() {
                Ok(deferred) => this.values.set(None, Some(deferred.unbind())),
                Err(e) => this.values.set(Some(e.into_inner().unbind()), None),
            }
            this.decoded = true;
        }
        slf.call_method0(intern!(py, "_after_decode"))?;
        Self::result(slf)
    }

    /// What `decode` returns: the value, built now if it was deferred,
    /// unless nobody takes it. The caller's frame is only looked at for a
    /// deferred value: every other decode is a hot path. (The class's hooks
    /// have returned by now, so the running frame is `decode`'s caller.)
    fn result<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let deferred = slf.try_borrow()?.values.is_deferred();
        if deferred && super::deferred::result_discarded(slf.py()) {
            return Ok(slf.py().None().into_bound(slf.py()));
        }
        Self::value_now(slf)
    }

    /// `encode`: the value given (or kept), through the graph node when the class allows it.
    pub(super) fn encode_with<'py>(
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
            0 => Self::value_now(slf)?,
            1 => {
                let v = args.get_item(0)?;
                if v.is(unset(py)) {
                    Self::value_now(slf)?
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
        if fast.is_none() || slf.try_borrow()?.metadata.is_some() {
            slf.call_method0(intern!(py, "_before_decode"))?;
        }
        let raw: Vec<u8> = match &fast {
            Some((node, generation, registry, name)) => Self::encode_in(
                slf,
                registry.bind(py),
                name.as_deref(),
                Some((*node, *generation)),
                &value,
            )?,
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
            let mut this = slf.try_borrow_mut()?;
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
            let this = slf.try_borrow()?;
            this.values.set(Some(plain.unbind()), None);
        } else {
            let plain = slf.call_method1(intern!(py, "_encoded_value"), (&value,))?;
            slf.setattr(intern!(py, "value"), plain)?;
        }
        Ok(buffer)
    }

    /// The node and registry to encode with, when the object's class encodes
    /// exactly as its graph node does and the registry has not changed.
    /// (The generation is checked again under the lock the encode holds.)
    #[allow(clippy::type_complexity)]
    fn fast_encoder(slf: &Bound<'_, Self>) -> Option<(u32, u64, Py<PyRegistry>, Option<Arc<str>>)> {
        let py = slf.py();
        let this = slf.try_borrow().ok()?;
        let fast = this.fast.as_ref().filter(|f| f.encode)?;
        let current = fast
            .registry
            .bind(py)
            .get()
            .lock(py)
            .ok()?
            .current_generation();
        (current == fast.generation).then(|| {
            (
                fast.node,
                fast.generation,
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
        let (node, generation, registry, data) = {
            let this = slf.try_borrow()?;
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
            (fast.node, fast.generation, registry, buffer.clone())
        };
        let buffer = data.get();
        let start = buffer.offset();
        // the node only while the registry is in the state it was made in,
        // checked under the lock the decode holds
        let unchanged = |reg: &mut RegistryState| {
            Ok((reg.current_generation() == generation).then_some(TypeIdx(node)))
        };
        let Some((value, used)) = PyRegistry::decode_picked(
            &registry,
            unchanged,
            None,
            buffer.buffer().bind(py),
            start,
            check_remaining,
        )?
        else {
            return Ok(None);
        };
        let end = start + used;
        buffer.set_offset_to(end);
        let mut this = slf.try_borrow_mut()?;
        this.data_start_offset = Some(start);
        this.data_end_offset = Some(end);
        this.values.set(Some(value.clone().unbind()), None);
        this.decoded = true;
        Ok(Some(value))
    }

    /// `value` encoded through `registry` as `node` (while the registry is
    /// in the generation given with it) or `type_string`. An object with
    /// metadata is encoded by its configuration's `_encode_bound`, which
    /// loads the metadata under the same lock of the registry.
    pub(super) fn encode_in(
        slf: &Bound<'_, Self>,
        registry: &Bound<'_, PyRegistry>,
        type_string: Option<&str>,
        node: Option<(u32, u64)>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<u8>> {
        let py = slf.py();
        let metadata = slf.try_borrow()?.metadata.as_ref().map(|m| m.clone_ref(py));
        if let Some(metadata) = metadata {
            return slf
                .getattr(intern!(py, "runtime_config"))?
                .call_method1(
                    intern!(py, "_encode_bound"),
                    (metadata, type_string, node, value),
                )?
                .extract();
        }
        let converted = crate::convert::to_value(value)?;
        let (bytes, _) =
            PyRegistry::encode_picked(registry, None, type_string, node, value, converted)?;
        Ok(bytes)
    }

    /// The graph node of the object's class and the registry generation it
    /// was resolved in, when the class was made by `config` for the
    /// object's type string (the object has no `type_string` of its own).
    pub(super) fn class_node(
        slf: &Bound<'_, Self>,
        config: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(u32, u64)>> {
        let py = slf.py();
        let cls = slf.get_type();
        let node = own_class_attr(&cls, intern!(py, "_node"))?;
        let node_generation = own_class_attr(&cls, intern!(py, "_node_generation"))?;
        let own_config = own_class_attr(&cls, intern!(py, "_runtime_config"))?;
        let (Some(node), Some(node_generation), Some(own_config)) =
            (node, node_generation, own_config)
        else {
            return Ok(None);
        };
        let own_type_string = slf
            .getattr(intern!(py, "__dict__"))?
            .contains(intern!(py, "type_string"))?;
        if !own_config.is(config) || own_type_string {
            return Ok(None);
        }
        Ok(Some((node.extract()?, node_generation.extract()?)))
    }
}
