//! `_core.Registry`: one `ferroscale_dynamic` registry per
//! `RuntimeConfigurationObject`, plus what the Python layer needs around it
//! (interned names, the metadata it was loaded with, and the log of inputs
//! that rebuilds it when unpickled).

use ferroscale_dynamic::decode_prefix;
use ferroscale_dynamic::graph::{Node, Special};
use ferroscale_dynamic::ops::opaque::Fallback;
use ferroscale_dynamic::preset::Preset;
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{account_layout, AccountLayout, PendingAccounts};
use ferroscale_dynamic::{Error, TypeIdx};
use ferroscale_value::Value;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use std::sync::Arc;

use crate::convert::to_value;
use crate::detached::{detached, to_python, BuiltSink, DETACH_MIN};
use crate::errors::{guard, to_py};
use crate::sink::{GcPause, NameCache, PySink};

/// The bytes of a `batch_decode` item that is not `bytes`: what py-scale-codec's
/// `ScaleBytes` accepts — `bytearray` (copied: Python code run while the sink
/// builds objects, e.g. a finalizer, could resize it), `"0x…"` hex text, or a
/// `ScaleBytes` (its whole buffer).
fn batch_input_bytes(item: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = item.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = item.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    if let Ok(sb) = item.cast::<crate::scale_bytes::PyScaleBytes>() {
        let data = sb.get().buffer().clone_ref(item.py());
        return batch_input_bytes(data.bind(item.py()));
    }
    if let Ok(s) = item.cast::<PyString>() {
        let text = s.to_str()?;
        if let Some(hex) = text.strip_prefix("0x") {
            return ferroscale_core::hex::decode(hex)
                .map_err(|e| PyValueError::new_err(format!("batch_decode: {e}")));
        }
        return Err(PyValueError::new_err(
            "Provided data is not in supported format: provided 'str'",
        ));
    }
    Err(PyTypeError::new_err(format!(
        "expected bytes, hex str or ScaleBytes, not {}",
        item.get_type().name()?
    )))
}

/// `(variant, signature text)` of a signature value `{"Sr25519": "0x…"}`.
fn signature_parts(sig: &Value) -> Option<(&str, &str)> {
    match sig {
        Value::Dict(entries) if entries.len() == 1 => {
            Some((&*entries[0].0, entries[0].1.as_str()?))
        }
        _ => None,
    }
}

/// The error of a group of accounts that could not be rendered.
fn unrendered(e: ferroscale_core::error::Error) -> PyErr {
    PyValueError::new_err(format!("batch_decode: {e}"))
}

/// A list as is; any other iterable collected into one.
fn as_list<'py>(py: Python<'py>, items: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    match items.cast::<PyList>() {
        Ok(list) => Ok(list.clone()),
        Err(_) => PyList::new(py, items.try_iter()?.collect::<PyResult<Vec<_>>>()?),
    }
}

/// The text of a `batch_decode` type string, or a `TypeError` naming what it was.
fn type_string_text<'a>(t: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    let text = t.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "type string must be a str, not {}",
            crate::convert::type_name(t)
        ))
    })?;
    text.to_str()
}

/// The type strings of one batch already resolved. Batches repeat a handful
/// of type strings, usually the very same `str` objects, so a short list
/// compared by identity (then by text) beats hashing every item's text.
#[derive(Default)]
struct TypeStringCache<'py> {
    /// Held (not just their pointers), so an entry's object cannot be freed
    /// and its address reused by another string during the batch.
    seen: Vec<(Bound<'py, PyAny>, TypeIdx)>,
}

impl<'py> TypeStringCache<'py> {
    /// Entries kept; past this, further strings are resolved by the
    /// registry's own cache.
    const CAPACITY: usize = 16;

    fn find(&self, t: &Bound<'py, PyAny>) -> Option<TypeIdx> {
        if let Some((_, ty)) = self.seen.iter().find(|(s, _)| s.is(t)) {
            return Some(*ty);
        }
        let text = t.cast::<PyString>().ok()?.to_str().ok()?;
        self.seen
            .iter()
            .find(|(s, _)| s.cast::<PyString>().ok().and_then(|s| s.to_str().ok()) == Some(text))
            .map(|(_, ty)| *ty)
    }

    fn remember(&mut self, t: Bound<'py, PyAny>, ty: TypeIdx) {
        if self.seen.len() < Self::CAPACITY {
            self.seen.push((t, ty));
        }
    }
}

/// A list of known length filled in place (no intermediate `Vec`).
struct ListBuilder<'py> {
    list: Bound<'py, PyList>,
}

impl<'py> ListBuilder<'py> {
    fn new(py: Python<'py>, len: usize) -> PyResult<Self> {
        let len = pyo3::ffi::Py_ssize_t::try_from(len)
            .map_err(|_| PyValueError::new_err("batch_decode: too many items"))?;
        // SAFETY: PyList_New returns a new reference (or NULL with an
        // exception set, which `from_owned_ptr_or_err` turns into an error).
        // Its slots start NULL, which the list's deallocator accepts, so an
        // early return leaves nothing dangling.
        let list = unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyList_New(len))? };
        Ok(Self {
            list: list.cast_into::<PyList>()?,
        })
    }

    /// Stores `value` in slot `i` (each slot is set once, `i` < the length;
    /// slots may be filled in any order).
    fn set(&self, i: usize, value: Bound<'py, PyAny>) {
        debug_assert!(i < self.list.len());
        // SAFETY: the list is fresh and not yet shared with Python code, `i`
        // is below its length, and the slot is still NULL; SET_ITEM steals
        // the reference `into_ptr` hands over.
        #[cfg(not(feature = "abi3"))]
        unsafe {
            pyo3::ffi::PyList_SET_ITEM(
                self.list.as_ptr(),
                i as pyo3::ffi::Py_ssize_t,
                value.into_ptr(),
            );
        }
        // The stable ABI has no SET_ITEM macro; SetItem (bounds-checked,
        // steals the reference also on failure) cannot fail here: `i` is
        // below the length and the list is a list.
        // SAFETY: as above.
        #[cfg(feature = "abi3")]
        unsafe {
            pyo3::ffi::PyList_SetItem(
                self.list.as_ptr(),
                i as pyo3::ffi::Py_ssize_t,
                value.into_ptr(),
            );
        }
    }

    fn finish(self) -> Bound<'py, PyList> {
        self.list
    }
}

/// The bytes of one `batch_decode` item: a `bytes` object's own (kept
/// alive, and immutable, while they are read), or a copy.
enum BatchBytes<'py> {
    Borrowed(Bound<'py, PyBytes>),
    Owned(Vec<u8>),
}

impl BatchBytes<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            BatchBytes::Borrowed(b) => b.as_bytes(),
            BatchBytes::Owned(v) => v,
        }
    }
}

/// Renders, in groups, the account ids inside the batch's fixed-size items
/// (a query_map page's key tuples) that the account table lacks, and keeps
/// them there, so the decode that follows finds every text made: one by
/// one, the SS58 text of an account never seen was two fifths of such a
/// key's decode. Bare account ids are left to the batch loop (which renders
/// them in groups into their slots), items of a varying-size type to the
/// decode.
fn prefetch_accounts(
    py: Python<'_>,
    ctx: &ferroscale_dynamic::Context<'_>,
    names: &mut NameCache,
    pending: &mut PendingAccounts,
    items: &[(TypeIdx, BatchBytes<'_>)],
) -> PyResult<()> {
    // A batch has a few types (a page: the key's and the value's).
    const TYPES: usize = 8;
    if !names.keeps_accounts() {
        // Texts made here would have nowhere to wait for the decode.
        return Ok(());
    }
    let format = pending.format();
    let remember = |names: &mut NameCache, id: &[u8; 32], text: &str| {
        names.remember_account(id, format, &PyString::new(py, text));
    };
    // An id the table lacks waits in `pending` (rendered 64 at a time).
    let mut set_aside = |names: &mut NameCache, id: [u8; 32]| -> PyResult<()> {
        if names.cached_account(py, &id, format).is_some() {
            return Ok(());
        }
        pending
            .push(0, id, |_, id, text| remember(names, id, text))
            .map_err(unrendered)
    };
    let mut layouts: Vec<(TypeIdx, Option<AccountLayout>)> = Vec::new();
    for (ty, bytes) in items {
        let bytes = bytes.bytes();
        if PendingAccounts::bare_account(ctx, *ty, bytes).is_some() {
            // Rendered in groups by the batch loop itself, into their slots.
            continue;
        }
        let at = match layouts.iter().position(|(t, _)| t == ty) {
            Some(at) => at,
            None if layouts.len() < TYPES => {
                layouts.push((*ty, account_layout(ctx.graph, *ty)));
                layouts.len() - 1
            }
            None => continue,
        };
        let Some(layout) = layouts[at].1.as_ref().filter(|l| l.size == bytes.len()) else {
            continue;
        };
        for &offset in &layout.offsets {
            if let Some(Ok(id)) = bytes.get(offset..offset + 32).map(<[u8; 32]>::try_from) {
                set_aside(names, id)?;
            }
        }
    }
    pending
        .flush(|_, id, text| remember(names, id, text))
        .map_err(unrendered)
}

/// Where a decode of `bytes[offset..]` stopped.
struct Left {
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

/// One input that changed the registry; replayed in order on unpickling.
#[derive(Clone)]
enum Input {
    Preset(String),
    Types(String),
    /// A spec version switched to, or `None`: the active one forgotten.
    Spec(Option<u64>),
    Ss58(Option<u16>),
    Metadata(Vec<u8>),
}

/// Metadata currently loaded into the registry's runtime.
struct LoadedMetadata {
    bytes: Vec<u8>,
    /// The metadata model, read from `bytes` when first needed (the
    /// portable registry's paths and definitions, for decompositions).
    model: Option<Arc<ferroscale_metadata::Metadata>>,
    /// Definitions generation the runtime was built against (legacy
    /// metadata resolves its argument types through the presets).
    generation: u64,
    legacy: bool,
}

/// A type registry: presets, portable registry, runtime, SS58 format.
#[pyclass(module = "scalecodec._core", name = "Registry")]
pub struct PyRegistry {
    /// Shared with decodes running with the interpreter lock released
    /// ([`crate::detached`]): they hold a clone of the `Arc`, so a change
    /// made meanwhile copies the registry ([`Self::inner_mut`]) instead of
    /// changing it under them.
    inner: Arc<Registry>,
    names: NameCache,
    metadata: Option<LoadedMetadata>,
    log: Vec<Input>,
    /// Changes whenever the registry does (a fresh value from
    /// [`next_generation`], unique across registries): scale objects that
    /// kept a graph index take their fast decoding path only while it is
    /// unchanged.
    generation: u64,
}

/// A process-wide counter, so that no two registry states share a generation.
fn next_generation() -> u64 {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Inputs up to this size are copied to the stack before decoding, the rest
/// to the heap (see [`PyRegistry::decode_at`]).
const STACK_COPY: usize = 64;

impl PyRegistry {
    /// The registry of py-scale-codec's metadata definitions
    /// ([`ferroscale_dynamic::ops::portable_json::metadata_definitions`]),
    /// built on first use and kept with its interned names for the process.
    /// A Python object, so that a re-entrant use (a finalizer run while it
    /// decodes) is an error, not a deadlock.
    pub(crate) fn metadata_definitions(py: Python<'_>) -> PyResult<&Bound<'_, PyRegistry>> {
        static DEFINITIONS: PyOnceLock<Py<PyRegistry>> = PyOnceLock::new();
        let registry = DEFINITIONS.get_or_try_init(py, || {
            let inner = ferroscale_dynamic::ops::portable_json::metadata_definitions()
                .map_err(|e| to_py(py, &e))?;
            Py::new(py, PyRegistry::with_inner(inner))
        })?;
        Ok(registry.bind(py))
    }

    /// A Python registry around `inner` (built in Rust).
    pub(crate) fn with_inner(inner: Registry) -> Self {
        let mut registry = PyRegistry::new();
        registry.inner = Arc::new(inner);
        registry
    }

    /// The dynamic-layer registry.
    pub(crate) fn inner(&self) -> &Registry {
        &self.inner
    }

    /// The registry to change: copied first when a decode running with the
    /// lock released still reads it.
    pub(crate) fn inner_mut(&mut self) -> &mut Registry {
        Arc::make_mut(&mut self.inner)
    }

    pub(crate) fn resolve_idx(&mut self, py: Python<'_>, type_string: &str) -> PyResult<TypeIdx> {
        // A type string seen before needs no change to the registry (and so
        // no copy of it while a released decode shares it).
        if let Some(idx) = self.inner.resolve_cached(type_string) {
            return Ok(idx);
        }
        self.inner_mut()
            .resolve(type_string)
            .map_err(|e| to_py(py, &e))
    }

    /// The current generation (see the field).
    pub(crate) fn current_generation(&self) -> u64 {
        self.generation
    }

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

    /// `batch_decode`: see the Python method (and `ConfigBase.batch_decode`).
    ///
    /// Each item's type is looked up and its bytes taken (with the lock
    /// held), then the items are decoded in order, so the first failing item
    /// raises, as decoding one by one would. A batch of [`DETACH_MIN`] bytes
    /// or more decodes with the interpreter lock released
    /// ([`crate::detached::decode_batch`]); a smaller one straight into
    /// Python objects.
    pub(crate) fn batch<'py>(
        slf: &Bound<'py, Self>,
        type_strings: &Bound<'py, PyAny>,
        data_list: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = slf.py();
        let type_strings = as_list(py, type_strings)?;
        let data_list = as_list(py, data_list)?;
        let n = type_strings.len();
        if n != data_list.len() {
            return Err(PyValueError::new_err(format!(
                "batch_decode: {n} type strings but {} byte strings",
                data_list.len()
            )));
        }
        let mut reg = slf.try_borrow_mut()?;
        let (items, stopped) = guard("batch decoding", || {
            Ok(reg.batch_items(py, &type_strings, &data_list))
        })?;
        let total: usize = items.iter().map(|(_, b)| b.bytes().len()).sum();
        if total < DETACH_MIN {
            let _gc = GcPause::for_input(py, total);
            let out = guard("batch decoding", || reg.batch_held(py, &items))?;
            return match stopped {
                Some(e) => Err(e),
                None => Ok(out),
            };
        }
        let snapshot = Arc::clone(&reg.inner);
        drop(reg);
        let slices: Vec<(TypeIdx, &[u8])> = items.iter().map(|(t, b)| (*t, b.bytes())).collect();
        let decoded = detached(py, "batch decoding", || {
            crate::detached::decode_batch(&snapshot.context(), &slices)
        })
        .map_err(PyValueError::new_err)?;
        guard("batch decoding", || {
            let built = decoded.map_err(|e| match e {
                crate::detached::BatchError::Decode(e) => to_py(py, &e),
                crate::detached::BatchError::Accounts(e) => unrendered(e),
            })?;
            if let Some(e) = stopped {
                return Err(e);
            }
            let _gc = GcPause::for_input(py, total);
            let out = ListBuilder::new(py, n)?;
            let mut fresh = NameCache::default();
            let mut reg = slf.try_borrow_mut().ok();
            let names = match reg.as_mut() {
                Some(reg) => &mut reg.names,
                // in use further up this thread's stack (a finalizer)
                None => &mut fresh,
            };
            built.into_python(py, names, |i, v| out.set(i, v));
            Ok(out.finish())
        })
    }

    /// The node and bytes of each `batch_decode` item, up to the first one
    /// that fails (its error is the second part).
    fn batch_items<'py>(
        &mut self,
        py: Python<'py>,
        type_strings: &Bound<'py, PyList>,
        data_list: &Bound<'py, PyList>,
    ) -> (Vec<(TypeIdx, BatchBytes<'py>)>, Option<PyErr>) {
        let n = type_strings.len();
        let mut items = Vec::with_capacity(n);
        let mut types = TypeStringCache::default();
        for i in 0..n {
            let item = (|| -> PyResult<(TypeIdx, BatchBytes<'py>)> {
                // Checked access: a finalizer run by an allocation could
                // shrink either list while we are in the loop.
                let t = type_strings.get_item(i)?;
                let ty = match types.find(&t) {
                    Some(ty) => ty,
                    None => {
                        let ty = self.resolve_idx(py, type_string_text(&t)?)?;
                        types.remember(t, ty);
                        ty
                    }
                };
                let item = data_list.get_item(i)?;
                let bytes = match item.cast_into::<PyBytes>() {
                    Ok(b) => BatchBytes::Borrowed(b),
                    Err(e) => BatchBytes::Owned(batch_input_bytes(&e.into_inner())?),
                };
                Ok((ty, bytes))
            })();
            match item {
                Ok(item) => items.push(item),
                Err(e) => return (items, Some(e)),
            }
        }
        (items, None)
    }

    /// Decodes `items` straight into Python objects, the lock held.
    fn batch_held<'py>(
        &mut self,
        py: Python<'py>,
        items: &[(TypeIdx, BatchBytes<'py>)],
    ) -> PyResult<Bound<'py, PyList>> {
        let out = ListBuilder::new(py, items.len())?;
        // Account ids rendered as SS58 are set aside and rendered in
        // groups, several times faster per account (see `PendingAccounts`).
        let ctx = self.inner.context();
        let mut accounts = PendingAccounts::for_context(&ctx);
        let names = &mut self.names;
        // A text made here goes to its slot and into the account table.
        fn put(
            names: &mut NameCache,
            out: &ListBuilder<'_>,
            (slot, id, format, text): (usize, &[u8; 32], u16, &str),
        ) {
            let text = PyString::new(out.list.py(), text);
            names.remember_account(id, format, &text);
            out.set(slot, text.into_any());
        }
        if let Some(pending) = accounts.as_mut() {
            prefetch_accounts(py, &ctx, names, pending, items)?;
        }
        for (i, (ty, bytes)) in items.iter().enumerate() {
            let bytes = bytes.bytes();
            if let Some(pending) = accounts.as_mut() {
                if let Some(id) = PendingAccounts::bare_account(&ctx, *ty, bytes) {
                    let format = pending.format();
                    match names.cached_account(py, &id, format) {
                        Some(text) => out.set(i, text.into_any()),
                        None => pending
                            .push(i, id, |slot, id, text| {
                                put(names, &out, (slot, id, format, text))
                            })
                            .map_err(unrendered)?,
                    }
                    continue;
                }
            }
            let mut sink = PySink { py, names };
            let v = ferroscale_dynamic::decode(&ctx, *ty, bytes, &mut sink)
                .map_err(|e| to_py(py, &e))?;
            out.set(i, v);
        }
        if let Some(pending) = accounts.as_mut() {
            let format = pending.format();
            pending
                .flush(|slot, id, text| put(names, &out, (slot, id, format, text)))
                .map_err(unrendered)?;
        }
        Ok(out.finish())
    }

    /// The wrapped type of an opaque wrapper class (see `decode_opaque`) and
    /// what its value is when the bytes do not decode as one.
    fn opaque_inner(
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
        let inner = from_mapping.or_else(|| crate::kinds::sub_type_text(type_string));
        let idx = match inner {
            Some(t) => Some(guard("resolving a type", || self.resolve_idx(py, &t))?),
            None => None,
        };
        Ok((idx, Fallback::Hex))
    }

    /// Marks the registry as changed.
    fn touch(&mut self) {
        self.generation = next_generation();
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

    fn apply(&mut self, py: Python<'_>, input: &Input) -> PyResult<()> {
        self.touch();
        match input {
            Input::Preset(json) => {
                let preset = Preset::from_json_str(json).map_err(|e| to_py(py, &e.into()))?;
                self.inner_mut().update(&preset);
            }
            Input::Types(json) => self
                .inner_mut()
                .update_types_json(json)
                .map_err(|e| to_py(py, &e))?,
            Input::Spec(Some(spec)) => self.inner_mut().set_active_spec_version_id(*spec),
            Input::Spec(None) => self.inner_mut().clear_active_spec_version_id(),
            Input::Ss58(f) => self.inner_mut().set_ss58_format(*f),
            Input::Metadata(bytes) => self.load(py, bytes)?,
        }
        Ok(())
    }

    fn load(&mut self, py: Python<'_>, bytes: &[u8]) -> PyResult<()> {
        let model =
            ferroscale_metadata::Metadata::load(bytes).map_err(|e| to_py(py, &Error::from(e)))?;
        self.install(py, bytes, Arc::new(model))
    }

    /// Loads `model`, read from `bytes`, into the registry's runtime.
    fn install(
        &mut self,
        py: Python<'_>,
        bytes: &[u8],
        model: Arc<ferroscale_metadata::Metadata>,
    ) -> PyResult<()> {
        self.inner_mut()
            .load_metadata_shared(model.clone())
            .map_err(|e| to_py(py, &e))?;
        let legacy = self.inner.portable().is_none();
        self.metadata = Some(LoadedMetadata {
            bytes: bytes.to_vec(),
            model: Some(model),
            generation: self.inner.definitions().generation(),
            legacy,
        });
        Ok(())
    }

    /// Whether `data` is not the metadata loaded, or that one is stale (see
    /// [`Self::ensure_metadata`]).
    fn needs_load(&self, data: &[u8]) -> bool {
        match &self.metadata {
            Some(m) => {
                let stale = m.legacy && m.generation != self.inner.definitions().generation();
                m.bytes != data || stale
            }
            None => true,
        }
    }

    /// [`Self::ensure_metadata`] with the lock held throughout; `model` is
    /// `data` already read, when the caller read it.
    fn ensure_metadata_held(
        &mut self,
        py: Python<'_>,
        data: &[u8],
        model: Option<Arc<ferroscale_metadata::Metadata>>,
    ) -> PyResult<bool> {
        if !self.needs_load(data) {
            return Ok(false);
        }
        self.touch();
        guard("loading metadata", || match model {
            Some(model) => self.install(py, data, model),
            None => self.load(py, data),
        })?;
        self.log.retain(|i| !matches!(i, Input::Metadata(_)));
        self.log.push(Input::Metadata(data.to_vec()));
        Ok(true)
    }

    /// [`Self::ensure_metadata`] of the registry `slf`: the metadata is read
    /// with the interpreter lock released (no borrow of the registry held
    /// meanwhile, so other threads keep using it), then loaded.
    pub(crate) fn ensure_metadata_in(slf: &Bound<'_, Self>, data: &[u8]) -> PyResult<bool> {
        let py = slf.py();
        if !slf.try_borrow()?.needs_load(data) {
            return Ok(false);
        }
        let model = detached(py, "reading metadata", || {
            ferroscale_metadata::Metadata::load(data)
        })
        .map_err(PyValueError::new_err)?
        .map_err(|e| to_py(py, &Error::from(e)))?;
        slf.try_borrow_mut()?
            .ensure_metadata_held(py, data, Some(Arc::new(model)))
    }

    /// [`Self::decode_at`] of the registry `slf`: an input of
    /// [`DETACH_MIN`] bytes or more is decoded with the interpreter lock
    /// released, against a shared snapshot of the registry, into Rust data
    /// the Python objects are made from afterwards ([`crate::detached`]).
    pub(crate) fn decode_in<'py>(
        slf: &Bound<'py, Self>,
        ty: TypeIdx,
        type_name: Option<&str>,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
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
                return slf.try_borrow_mut()?.decode_at(
                    py,
                    ty,
                    type_name,
                    data,
                    offset,
                    check_remaining,
                )
            }
        };
        let snapshot = Arc::clone(&slf.try_borrow()?.inner);
        let input = bytes.get(offset..).unwrap_or(&[]);
        let (built, used) = detached(py, "decoding", || {
            decode_prefix(&snapshot.context(), ty, input, &mut BuiltSink)
        })
        .map_err(PyValueError::new_err)?
        .map_err(|e| to_py(py, &e))?;
        let left = Left {
            offset,
            used,
            length: bytes.len(),
        };
        left.check(py, check_remaining, &snapshot, ty, type_name)?;
        let value = guard("decoding", || {
            let _gc = GcPause::for_input(py, bytes.len());
            Ok(match slf.try_borrow_mut() {
                Ok(mut reg) => to_python(py, &mut reg.names, built),
                // in use further up this thread's stack (a finalizer): the
                // names are interned again for this value
                Err(_) => to_python(py, &mut NameCache::default(), built),
            })
        })?;
        Ok((value, used))
    }
}

#[pymethods]
impl PyRegistry {
    /// An empty registry (py-scale-codec's built-in classes only).
    #[new]
    fn new() -> Self {
        PyRegistry {
            inner: Arc::new(Registry::new()),
            names: NameCache::with_account_texts(),
            metadata: None,
            log: Vec::new(),
            generation: next_generation(),
        }
    }

    /// Applies a preset given as JSON text (`update_type_registry`).
    fn update_preset(&mut self, py: Python<'_>, json: &str) -> PyResult<()> {
        let input = Input::Preset(json.to_owned());
        guard("loading a preset", || self.apply(py, &input))?;
        self.log.push(input);
        Ok(())
    }

    /// Adds or overrides type definitions given as a JSON object (`update_type_registry_types`).
    fn update_types(&mut self, py: Python<'_>, json: &str) -> PyResult<()> {
        let input = Input::Types(json.to_owned());
        guard("adding types", || self.apply(py, &input))?;
        self.log.push(input);
        Ok(())
    }

    /// Forgets every definition, the portable registry and the runtime.
    fn clear(&mut self) {
        self.touch();
        self.inner_mut().clear();
        self.metadata = None;
        self.log.retain(|i| matches!(i, Input::Ss58(_)));
    }

    /// Switches the active spec version (applies the presets' versioning).
    pub(crate) fn set_active_spec_version_id(&mut self, spec: u64) {
        self.touch();
        self.inner_mut().set_active_spec_version_id(spec);
        self.log.push(Input::Spec(Some(spec)));
    }

    /// Forgets the active spec version (what its versioning applied stays).
    pub(crate) fn clear_active_spec_version_id(&mut self) {
        self.touch();
        self.inner_mut().clear_active_spec_version_id();
        self.log.push(Input::Spec(None));
    }

    /// The active spec version, if one was set.
    #[getter]
    pub(crate) fn active_spec_version_id(&self) -> Option<u64> {
        self.inner.active_spec_version_id()
    }

    /// The spec version at `block` from the presets' `runtime_upgrades`.
    pub(crate) fn get_runtime_id_from_upgrades(&self, block: u64) -> Option<u64> {
        self.inner.get_runtime_id_from_upgrades(block)
    }

    /// Sets the newest block the runtime-upgrade table is known to cover.
    pub(crate) fn set_runtime_upgrades_head(&mut self, block: u64) {
        self.touch();
        self.inner_mut()
            .definitions_mut()
            .set_runtime_upgrades_head(block);
    }

    /// The `runtime_upgrades` table of the presets as `[(block, spec)]`.
    fn runtime_upgrades(&self) -> Option<Vec<(u64, i64)>> {
        self.inner
            .definitions()
            .runtime_upgrades()
            .map(<[_]>::to_vec)
    }

    /// The SS58 format account ids render in (`None`: hex).
    #[getter]
    pub(crate) fn get_ss58_format(&self) -> Option<u16> {
        self.inner.ss58_format()
    }

    /// Sets the SS58 format account ids render in.
    #[setter]
    pub(crate) fn set_ss58_format(&mut self, format: Option<u16>) {
        self.touch();
        self.inner_mut().set_ss58_format(format);
        self.log.push(Input::Ss58(format));
    }

    /// Loads runtime metadata (V9–V16, any framing) unless the same bytes are
    /// already loaded and still valid; returns whether it (re)loaded.
    ///
    /// Legacy metadata (V9–V13) is reloaded after the definitions changed,
    /// because its argument types resolve through the presets.
    pub(crate) fn ensure_metadata(slf: &Bound<'_, Self>, data: &[u8]) -> PyResult<bool> {
        Self::ensure_metadata_in(slf, data)
    }

    /// The registry's generation: changes with every change to it.
    #[getter]
    fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether runtime metadata (calls, events) is loaded.
    #[getter]
    fn has_runtime(&self) -> bool {
        self.inner.runtime().is_some()
    }

    /// Whether a V14+ portable registry is loaded.
    #[getter]
    fn has_portable(&self) -> bool {
        self.inner.portable().is_some()
    }

    /// Decodes `type_string` from `data[offset:]` (`bytes` or `bytearray`);
    /// returns `(value, bytes used)`. With `check_remaining`, bytes left
    /// after the value are an error.
    #[pyo3(signature = (type_string, data, offset=0, check_remaining=true))]
    fn decode<'py>(
        slf: &Bound<'py, Self>,
        type_string: &str,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let py = slf.py();
        let ty = {
            let mut reg = slf.try_borrow_mut()?;
            guard("resolving a type", || reg.resolve_idx(py, type_string))?
        };
        Self::decode_in(slf, ty, Some(type_string), data, offset, check_remaining)
    }

    /// [`Self::decode`] by graph index (from [`Self::resolve`]), skipping the
    /// type-string lookup: the classes of the Python layer keep their index.
    #[pyo3(signature = (idx, data, offset=0, check_remaining=true))]
    fn decode_node<'py>(
        slf: &Bound<'py, Self>,
        idx: u32,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        if slf.try_borrow()?.inner.graph().get(TypeIdx(idx)).is_none() {
            return Err(PyValueError::new_err(format!("no type node #{idx}")));
        }
        Self::decode_in(slf, TypeIdx(idx), None, data, offset, check_remaining)
    }

    /// Encodes `value` as `type_string`.
    fn encode<'py>(
        slf: &Bound<'py, Self>,
        type_string: &str,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let py = slf.py();
        let converted = to_value(value)?;
        let mut this = slf.try_borrow_mut()?;
        let ty = guard("resolving a type", || this.resolve_idx(py, type_string))?;
        let bytes = this.encode_node(py, ty, Some(type_string), value, converted)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Decodes `data_list[i]` as `type_strings[i]` (each must consume all
    /// its bytes); the lists (any sequences) must have the same length. An
    /// item is `bytes`, `bytearray`, a `ScaleBytes` or `"0x…"` hex text.
    ///
    /// `bytes` are borrowed, not copied, and a type string that is the same
    /// object as the one before it (the usual `[t] * n`) or equal to it
    /// reuses that one's resolved node.
    fn batch_decode<'py>(
        slf: &Bound<'py, Self>,
        type_strings: &Bound<'py, PyAny>,
        data_list: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        Self::batch(slf, type_strings, data_list)
    }

    /// The graph index `type_string` resolves to (`NotImplementedError` when unknown).
    fn resolve(&mut self, py: Python<'_>, type_string: &str) -> PyResult<u32> {
        guard("resolving a type", || {
            Ok(self.resolve_idx(py, type_string)?.0)
        })
    }

    /// The display name of node `idx` (`scale_info::N`, `Vec<u32>` …).
    fn describe(&self, idx: u32) -> String {
        self.inner.graph().describe(TypeIdx(idx))
    }

    /// py-scale-codec's `generate_type_decomposition` of node `idx`.
    fn decomposition<'py>(&self, py: Python<'py>, idx: u32) -> PyResult<Bound<'py, PyAny>> {
        if self.inner.graph().get(TypeIdx(idx)).is_none() {
            return Err(PyValueError::new_err(format!("no type node #{idx}")));
        }
        let d = ferroscale_dynamic::ops::decomposition::decompose(self.inner.graph(), TypeIdx(idx));
        crate::kinds::decomposition_to_py(py, &d)
    }

    /// The id in the loaded portable registry of `scale_info::N` or of a
    /// path name (`frame_system::AccountInfo`, `Option`: py-scale-codec
    /// registers every path); `None` for other names.
    fn portable_type_id(&self, type_string: &str) -> Option<u32> {
        let portable = self.inner.portable()?;
        portable.id(portable.lookup(type_string)?)
    }

    /// py-scale-codec's `generate_type_decomposition` of `scale_info::<type_id>`
    /// of the loaded portable registry, with classes from this registry's
    /// presets (`None` without a portable registry or such a type).
    #[pyo3(signature = (type_id, max_recursion=9))]
    fn portable_decomposition<'py>(
        &mut self,
        py: Python<'py>,
        type_id: u32,
        max_recursion: u32,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(loaded) = self.metadata.as_mut() else {
            return Ok(None);
        };
        if loaded.model.is_none() {
            let model = guard("reading metadata", || {
                ferroscale_metadata::Metadata::load(&loaded.bytes)
                    .map_err(|e| PyValueError::new_err(e.to_string()))
            })?;
            loaded.model = Some(Arc::new(model));
        }
        let Some(types) = loaded.model.as_ref().and_then(|m| m.types.as_ref()) else {
            return Ok(None);
        };
        if types.resolve(type_id).is_none() {
            return Ok(None);
        }
        let definitions = self.inner.definitions();
        let shape = guard("decomposing a type", || {
            ferroscale_dynamic::ops::portable_decomposition::decompose(
                types,
                definitions,
                type_id,
                max_recursion,
            )
            .map_err(|e| to_py(py, &e))
        })?;
        crate::kinds::shape_to_py(py, &shape).map(Some)
    }

    /// Decodes an opaque wrapper (`WrapperKeepOpaque<T>`, `OpaqueCall`) of
    /// class `type_string` from `data[offset:]`: the wrapped type is
    /// `type_mapping[1]` when given, else the type string's argument;
    /// `OpaqueCall` holds a `Call` that must decode, the others fall back to
    /// `"0x…"`. Returns `(value, bytes used)`.
    #[pyo3(signature = (type_string, type_mapping, data, offset=0, check_remaining=true))]
    fn decode_opaque<'py>(
        &mut self,
        py: Python<'py>,
        type_string: &str,
        type_mapping: &Bound<'py, PyAny>,
        data: &[u8],
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let (inner, fallback) = self.opaque_inner(py, type_string, type_mapping)?;
        guard("decoding", || {
            let input = data.get(offset..).unwrap_or(&[]);
            let ctx = self.inner.context();
            let _gc = GcPause::for_input(py, input.len());
            let mut sink = PySink {
                py,
                names: &mut self.names,
            };
            let (value, used) = ferroscale_dynamic::ops::opaque::decode_opaque(
                &ctx,
                type_string,
                inner,
                fallback,
                input,
                &mut sink,
            )
            .map_err(|e| to_py(py, &e))?;
            if check_remaining && used != input.len() {
                let e = Error::RemainingScaleBytesNotEmpty {
                    ty: type_string.to_owned(),
                    offset: offset + used,
                    length: data.len(),
                };
                return Err(to_py(py, &e));
            }
            Ok((value, used))
        })
    }

    /// Encodes `value` as the opaque wrapper of class `type_string` (see
    /// [`Self::decode_opaque`]); `"0x…"` text is taken as the wrapped bytes.
    fn encode_opaque<'py>(
        slf: &Bound<'py, Self>,
        type_string: &str,
        type_mapping: &Bound<'py, PyAny>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let py = slf.py();
        // before the registry is borrowed: a scale object in it may decode
        let value = to_value(value)?;
        let mut this = slf.try_borrow_mut()?;
        let (inner, _) = this.opaque_inner(py, type_string, type_mapping)?;
        guard("encoding", || {
            let bytes = ferroscale_dynamic::ops::opaque::encode_opaque(
                &this.inner.context(),
                inner,
                &value,
            )
            .map_err(|e| to_py(py, &e))?;
            Ok(PyBytes::new(py, &bytes))
        })
    }

    /// Decodes the fields `[(name or None, type string)]` one after the
    /// other from `data[offset:]` (a class that defines its own
    /// `type_mapping`): a dict by name, a tuple without names (one unnamed
    /// field: its value). Returns `(value, bytes used)`.
    #[pyo3(signature = (fields, data, offset=0, check_remaining=true))]
    fn decode_fields<'py>(
        &mut self,
        py: Python<'py>,
        fields: Vec<(Option<String>, String)>,
        data: &[u8],
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let mut values = Vec::with_capacity(fields.len());
        let mut pos = offset;
        let buffer = PyBytes::new(py, data).into_any();
        for (_, ty) in &fields {
            let idx = guard("resolving a type", || self.resolve_idx(py, ty))?;
            let (v, used) = self.decode_at(py, idx, Some(ty), &buffer, pos, false)?;
            values.push(v);
            pos += used;
        }
        if check_remaining && pos != data.len() {
            let e = Error::RemainingScaleBytesNotEmpty {
                ty: "struct".into(),
                offset: pos,
                length: data.len(),
            };
            return Err(to_py(py, &e));
        }
        let named = fields.iter().all(|(n, _)| n.is_some()) && !fields.is_empty();
        let value = if named {
            let d = PyDict::new(py);
            for ((n, _), v) in fields.iter().zip(values) {
                d.set_item(n.as_deref().unwrap_or(""), v)?;
            }
            d.into_any()
        } else if values.len() == 1 {
            values.pop().expect("one value")
        } else {
            PyTuple::new(py, values)?.into_any()
        };
        Ok((value, pos - offset))
    }

    /// Encodes `value` as the fields `[(name or None, type string)]` one
    /// after the other: from a dict by name, a list or tuple by position, or
    /// (one field) the value itself.
    fn encode_fields<'py>(
        slf: &Bound<'py, Self>,
        fields: Vec<(Option<String>, String)>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let py = slf.py();
        let items: Vec<Bound<'py, PyAny>> = if let Ok(d) = value.cast::<PyDict>() {
            fields
                .iter()
                .map(|(n, _)| {
                    let key = n.as_deref().unwrap_or("");
                    d.get_item(key)?
                        .ok_or_else(|| PyValueError::new_err(format!("value has no field '{key}'")))
                })
                .collect::<PyResult<_>>()?
        } else if let Some(seq) = value
            .cast::<PyList>()
            .ok()
            .map(|l| l.iter().collect::<Vec<_>>())
            .or_else(|| value.cast::<PyTuple>().ok().map(|t| t.iter().collect()))
            .filter(|s: &Vec<_>| s.len() == fields.len())
        {
            seq
        } else if fields.len() == 1 {
            vec![value.clone()]
        } else {
            return Err(PyValueError::new_err(format!(
                "expected {} values, got {value}",
                fields.len()
            )));
        };
        let converted = items.iter().map(to_value).collect::<PyResult<Vec<_>>>()?;
        let mut this = slf.try_borrow_mut()?;
        let mut out = Vec::new();
        for (((_, ty), item), converted) in fields.iter().zip(&items).zip(converted) {
            let idx = guard("resolving a type", || this.resolve_idx(py, ty))?;
            out.extend(this.encode_node(py, idx, Some(ty), item, converted)?);
        }
        Ok(PyBytes::new(py, &out))
    }

    /// Imports a bare portable registry (a list of `{"id", "type"}` values,
    /// or scale objects holding them) as `scale_info::N`, replacing the
    /// portable registry and runtime loaded before; returns whether it
    /// (re)loaded.
    fn load_portable_types(
        &mut self,
        py: Python<'_>,
        types: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let values = types.iter().map(to_value).collect::<PyResult<Vec<_>>>()?;
        let definitions = PyRegistry::metadata_definitions(py)?;
        let mut definitions = definitions.try_borrow_mut()?;
        let raw = guard("encoding a portable registry", || {
            ferroscale_dynamic::ops::portable_json::v14_metadata_from_types(
                definitions.inner_mut(),
                values,
            )
            .map_err(|e| to_py(py, &e))
        })?;
        drop(definitions);
        self.ensure_metadata_held(py, &raw, None)
    }

    /// The inputs that rebuild this registry, for pickling.
    fn __getstate__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Bound<'py, PyTuple>> = self
            .log
            .iter()
            .map(|i| {
                let (tag, payload): (&str, Bound<'py, PyAny>) = match i {
                    Input::Preset(j) => ("preset", j.into_pyobject(py)?.into_any()),
                    Input::Types(j) => ("types", j.into_pyobject(py)?.into_any()),
                    Input::Spec(s) => ("spec", s.into_pyobject(py)?.into_any()),
                    Input::Ss58(f) => ("ss58", f.into_pyobject(py)?.into_any()),
                    Input::Metadata(b) => ("metadata", PyBytes::new(py, b).into_any()),
                };
                PyTuple::new(py, [tag.into_pyobject(py)?.into_any(), payload])
            })
            .collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// Rebuilds the registry by replaying the pickled inputs.
    fn __setstate__(
        &mut self,
        py: Python<'_>,
        state: Vec<(String, Bound<'_, PyAny>)>,
    ) -> PyResult<()> {
        *self = PyRegistry::new();
        for (tag, payload) in state {
            match tag.as_str() {
                "preset" => self.update_preset(py, &payload.extract::<String>()?)?,
                "types" => self.update_types(py, &payload.extract::<String>()?)?,
                "spec" => match payload.extract::<Option<u64>>()? {
                    Some(spec) => self.set_active_spec_version_id(spec),
                    None => self.clear_active_spec_version_id(),
                },
                "ss58" => self.set_ss58_format(payload.extract()?),
                "metadata" => {
                    self.ensure_metadata_held(py, &payload.extract::<Vec<u8>>()?, None)?;
                }
                other => {
                    return Err(PyValueError::new_err(format!(
                        "unknown registry state entry {other:?}"
                    )))
                }
            }
        }
        Ok(())
    }
}
