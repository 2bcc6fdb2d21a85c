//! Decoding and encoding through the registry: a node from bytes (the
//! stack-copy fast path for small inputs, the detached walk for large
//! ones), a value given to a scale object encoded with py-scale-codec's
//! input rules, the inner type of opaque wrappers.

use ferroscale_dynamic::decode_prefix;
use ferroscale_dynamic::graph::{Node, Special};
use ferroscale_dynamic::ops::opaque::Fallback;
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{Error, TypeIdx};
use ferroscale_value::Value;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyTuple};

use std::sync::Arc;

use crate::convert::detached::{detached, to_python, Built, BuiltSink, DETACH_MIN};
use crate::convert::sink::{GcPause, NameCache, PySink};
use crate::errors::{guard, to_py};

use super::{PyRegistry, RegistryState};

/// `(variant, signature text)` of a signature value `{"Sr25519": "0x…"}`.
pub(super) fn signature_parts(sig: &Value) -> Option<(&str, &str)> {
    match sig {
        Value::Dict(entries) if entries.len() == 1 => {
            Some((&*entries[0].0, entries[0].1.as_str()?))
        }
        _ => None,
    }
}

/// Where a decode of `bytes[offset..]` stopped.
pub(super) struct Left {
    offset: usize,
    used: usize,
    length: usize,
}

impl Left {
    /// py-scale-codec's `RemainingScaleBytesNotEmptyException` when
    /// `check` asks for every byte to be used and some are left.
    fn check(
        &self,
        py: Python<'_>,
        check: bool,
        registry: &Registry,
        ty: TypeIdx,
        type_name: Option<&str>,
    ) -> PyResult<()> {
        if !check || self.offset + self.used >= self.length {
            return Ok(());
        }
        let e = Error::RemainingScaleBytesNotEmpty {
            ty: type_name
                .map(str::to_owned)
                .unwrap_or_else(|| registry.graph().describe(ty)),
            offset: self.offset + self.used,
            length: self.length,
        };
        Err(to_py(py, &e))
    }
}

/// Inputs up to this size are copied to the stack before decoding, the rest
/// to the heap (see [`RegistryState::decode_at`]).
pub(super) const STACK_COPY: usize = 64;

impl RegistryState {
    /// Encodes `value` given to a scale object of node `ty` (type string
    /// `type_name`, when known), with py-scale-codec's input rules for such
    /// values ([`ferroscale_dynamic::ops::object`]); `converted` is
    /// `to_value(value)`, made by the caller before it borrowed the registry
    /// (a scale object in the value may decode through it). An extrinsic
    /// signature given as `signature_version` plus text is written back into
    /// the caller's dict as encoded, as py-scale-codec does.
    pub(crate) fn encode_node(
        &mut self,
        py: Python<'_>,
        ty: TypeIdx,
        type_name: Option<&str>,
        value: &Bound<'_, PyAny>,
        converted: Value,
    ) -> PyResult<Vec<u8>> {
        let is_call = matches!(
            self.inner.graph().get(ty),
            Some(Node::Special(Special::Call))
        );
        if is_call && !matches!(converted, Value::Dict(_)) {
            return Err(PyTypeError::new_err(format!(
                "a call is encoded from a dict, not {}",
                value.get_type().name()?
            )));
        }
        let encoded = guard("encoding", || {
            ferroscale_dynamic::ops::object::encode_object(
                &self.inner.context(),
                ty,
                type_name,
                &converted,
            )
            .map_err(|e| to_py(py, &e))
        })?;
        if let Some((variant, text)) = encoded.signature.as_ref().and_then(signature_parts) {
            if let Ok(dict) = value.cast::<PyDict>() {
                let d = PyDict::new(py);
                d.set_item(variant, text)?;
                dict.set_item("signature", d)?;
            }
        }
        Ok(encoded.bytes)
    }

    /// The wrapped type of an opaque wrapper class (see `decode_opaque`) and
    /// what its value is when the bytes do not decode as one.
    pub(super) fn opaque_inner(
        &mut self,
        py: Python<'_>,
        type_string: &str,
        type_mapping: &Bound<'_, PyAny>,
    ) -> PyResult<(Option<TypeIdx>, Fallback)> {
        if type_string.eq_ignore_ascii_case("OpaqueCall") {
            let call = guard("resolving a type", || self.resolve_idx(py, "Call"))?;
            return Ok((Some(call), Fallback::Fail));
        }
        let pair =
            type_mapping.is_instance_of::<PyList>() || type_mapping.is_instance_of::<PyTuple>();
        let from_mapping = match pair && type_mapping.len()? == 2 {
            true => type_mapping.get_item(1)?.extract::<String>().ok(),
            false => None,
        };
        let inner = from_mapping.or_else(|| crate::registry::kinds::sub_type_text(type_string));
        let idx = match inner {
            Some(t) => Some(guard("resolving a type", || self.resolve_idx(py, &t))?),
            None => None,
        };
        Ok((idx, Fallback::Hex))
    }

    /// Decodes node `ty` from `data[offset:]` (`bytes` or `bytearray`);
    /// `(value, bytes used)`.
    pub(crate) fn decode_at<'py>(
        &mut self,
        py: Python<'py>,
        ty: TypeIdx,
        type_name: Option<&str>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        // bytes are borrowed; a bytearray is copied (Python code run while
        // the sink builds objects, e.g. a finalizer, could resize it while
        // we read), small ones to the stack: most single values are a few
        // bytes, and a heap copy would be a malloc per decode.
        let mut stack = [0u8; STACK_COPY];
        let owned: Vec<u8>;
        let bytes: &[u8] = if let Ok(b) = data.cast::<PyBytes>() {
            b.as_bytes()
        } else if let Ok(b) = data.cast::<PyByteArray>() {
            if b.len() <= STACK_COPY {
                let n = b.len();
                // SAFETY: the slice is copied at once, with no Python code
                // running in between that could resize the bytearray.
                stack[..n].copy_from_slice(unsafe { b.as_bytes() });
                &stack[..n]
            } else {
                owned = b.to_vec();
                &owned
            }
        } else {
            return Err(PyTypeError::new_err(format!(
                "data must be bytes or bytearray, not {}",
                data.get_type().name()?
            )));
        };
        guard("decoding", || {
            let input = bytes.get(offset..).unwrap_or(&[]);
            let ctx = self.inner.context();
            let _gc = GcPause::for_input(py, input.len());
            let mut sink = PySink {
                py,
                names: &mut self.names,
            };
            let (value, used) =
                decode_prefix(&ctx, ty, input, &mut sink).map_err(|e| to_py(py, &e))?;
            let left = Left {
                offset,
                used,
                length: bytes.len(),
            };
            left.check(py, check_remaining, &self.inner, ty, type_name)?;
            Ok((value, used))
        })
    }
}

impl PyRegistry {
    /// [`RegistryState::decode_at`] of the registry `slf`: an input of
    /// [`DETACH_MIN`] bytes or more is decoded with the interpreter lock
    /// released, against a shared snapshot of the registry, into Rust data
    /// the Python objects are made from afterwards ([`crate::convert::detached`]).
    pub(crate) fn decode_in<'py>(
        slf: &Bound<'py, Self>,
        ty: TypeIdx,
        type_name: Option<&str>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        Self::decode_node_of(slf, |_| Ok(ty), type_name, data, offset, check_remaining)
    }

    /// Decodes `type_string` (or `node`, `(index, generation)` of a class,
    /// while the registry is in that generation) with the runtime of
    /// metadata `metadata` (whose reading is `read`, when the caller has
    /// it): an object bound by `metadata=`. The metadata is loaded, when
    /// another is, under the same lock as the decode, so a runtime switch by
    /// another thread cannot come between them. Returns the decode and
    /// whether the metadata was loaded (the configuration's classes are
    /// then stale).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn decode_bound<'py>(
        slf: &Bound<'py, Self>,
        metadata: &[u8],
        read: Option<Arc<ferroscale_metadata::Metadata>>,
        type_string: &str,
        node: Option<(u32, u64)>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<((Bound<'py, PyAny>, usize), bool)> {
        let py = slf.py();
        // the caller's reading answers whether it is loaded without
        // comparing the bytes (see `needs_load`)
        let read = match read {
            Some(read) => Some(read),
            None => Self::reading_to_load(slf, metadata, None)?,
        };
        let mut loaded = false;
        let pick = |reg: &mut RegistryState| {
            loaded = reg.ensure_metadata_held(py, metadata, read)?;
            match node {
                Some((idx, generation)) if reg.current_generation() == generation => {
                    Ok(TypeIdx(idx))
                }
                _ => guard("resolving a type", || reg.resolve_idx(py, type_string)),
            }
        };
        let decoded =
            Self::decode_node_of(slf, pick, Some(type_string), data, offset, check_remaining)?;
        Ok((decoded, loaded))
    }

    /// Encodes `value` (`converted` is `to_value(value)`, made before the
    /// lock, see [`RegistryState::encode_node`]) as `node`, `(index,
    /// generation)` of a class, while the registry is in that generation,
    /// else as `type_string`. With `bound`, an object's `metadata=` (its
    /// bytes and the engine's reading when it has one), that metadata is
    /// loaded first under the same lock (see [`Self::decode_bound`]).
    /// Returns the bytes and whether the metadata was loaded.
    pub(crate) fn encode_picked(
        slf: &Bound<'_, Self>,
        bound: Option<(&[u8], Option<Arc<ferroscale_metadata::Metadata>>)>,
        type_string: Option<&str>,
        node: Option<(u32, u64)>,
        value: &Bound<'_, PyAny>,
        converted: Value,
    ) -> PyResult<(Vec<u8>, bool)> {
        let py = slf.py();
        let bound = match bound {
            Some((metadata, None)) => Some((metadata, Self::reading_to_load(slf, metadata, None)?)),
            other => other,
        };
        let mut reg = slf.get().lock(py)?;
        let loaded = match bound {
            Some((metadata, read)) => reg.ensure_metadata_held(py, metadata, read)?,
            None => false,
        };
        let ty = match (node, type_string) {
            (Some((idx, generation)), _) if reg.current_generation() == generation => TypeIdx(idx),
            (_, Some(type_string)) => {
                guard("resolving a type", || reg.resolve_idx(py, type_string))?
            }
            (_, None) => {
                return Err(PyValueError::new_err(
                    "the registry changed since the class was made, and it has no type string",
                ))
            }
        };
        let bytes = reg.encode_node(py, ty, type_string, value, converted)?;
        Ok((bytes, loaded))
    }

    /// [`Self::decode_in`] of the node `node` gives, asked with the lock
    /// held: one lock for the caller's check and the decode (a value
    /// decoder's generation check, a type string's resolution), so that
    /// another thread's change to the registry cannot come between them.
    pub(crate) fn decode_node_of<'py>(
        slf: &Bound<'py, Self>,
        node: impl FnOnce(&mut RegistryState) -> PyResult<TypeIdx>,
        type_name: Option<&str>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let decoded = Self::decode_picked(
            slf,
            |reg| node(reg).map(Some),
            type_name,
            data,
            offset,
            check_remaining,
        )?;
        decoded.ok_or_else(|| PyValueError::new_err("no type node to decode with"))
    }

    /// [`Self::decode_node_of`] where `pick` may decline (`None`: the
    /// registry is not in the state the caller's node was made for); then
    /// nothing is decoded and the answer is `None`.
    pub(crate) fn decode_picked<'py>(
        slf: &Bound<'py, Self>,
        pick: impl FnOnce(&mut RegistryState) -> PyResult<Option<TypeIdx>>,
        type_name: Option<&str>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<Option<(Bound<'py, PyAny>, usize)>> {
        let py = slf.py();
        let owned: Vec<u8>;
        let bytes: &[u8] = match (data.cast::<PyBytes>(), data.cast::<PyByteArray>()) {
            (Ok(b), _) if b.as_bytes().len().saturating_sub(offset) >= DETACH_MIN => b.as_bytes(),
            (_, Ok(b)) if b.len().saturating_sub(offset) >= DETACH_MIN => {
                // copied: another thread could resize it while we read
                owned = b.to_vec();
                &owned
            }
            _ => {
                let mut reg = slf.get().lock(py)?;
                let Some(ty) = pick(&mut reg)? else {
                    return Ok(None);
                };
                return reg
                    .decode_at(py, ty, type_name, data, offset, check_remaining)
                    .map(Some);
            }
        };
        let (ty, snapshot) = {
            let mut reg = slf.get().lock(py)?;
            let Some(ty) = pick(&mut reg)? else {
                return Ok(None);
            };
            (ty, Arc::clone(&reg.inner))
        };
        let input = bytes.get(offset..).unwrap_or(&[]);
        let (built, used) = decode_detached(py, &snapshot, ty, input)?;
        let left = Left {
            offset,
            used,
            length: bytes.len(),
        };
        left.check(py, check_remaining, &snapshot, ty, type_name)?;
        let value = guard("decoding", || {
            let _gc = GcPause::for_input(py, bytes.len());
            Ok(match slf.get().lock(py) {
                Ok(mut reg) => to_python(py, &mut reg.names, &built),
                // in use further up this thread's stack (a finalizer): the
                // names are interned again for this value
                Err(_) => to_python(py, &mut NameCache::default(), &built),
            })
        })?;
        Ok(Some((value, used)))
    }

    /// Decodes `type_name` from the start of `data` into Rust data, with
    /// the interpreter lock released; its Python objects are made later,
    /// part by part ([`crate::convert::tree`]).
    pub(crate) fn decode_built(
        slf: &Bound<'_, Self>,
        type_name: &str,
        data: &[u8],
    ) -> PyResult<Built> {
        let py = slf.py();
        let (ty, snapshot) = {
            let mut reg = slf.get().lock(py)?;
            let ty = guard("resolving a type", || reg.resolve_idx(py, type_name))?;
            (ty, Arc::clone(&reg.inner))
        };
        Ok(decode_detached(py, &snapshot, ty, data)?.0)
    }
}

/// Decodes `ty` from the start of `input` against a registry snapshot with
/// the interpreter lock released: the value as Rust data and the bytes used.
fn decode_detached(
    py: Python<'_>,
    snapshot: &Registry,
    ty: TypeIdx,
    input: &[u8],
) -> PyResult<(Built, usize)> {
    detached(py, "decoding", || {
        decode_prefix(&snapshot.context(), ty, input, &mut BuiltSink)
    })
    .map_err(PyValueError::new_err)?
    .map_err(|e| to_py(py, &e))
}
