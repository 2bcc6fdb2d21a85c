//! `_core.Registry`: one `ferroscale_dynamic` registry per
//! `RuntimeConfigurationObject`, plus what the Python layer needs around it
//! (interned names, the metadata it was loaded with, and the log of inputs
//! that rebuilds it when unpickled).

use ferroscale_dynamic::account::PendingAccounts;
use ferroscale_dynamic::decode::decode_prefix;
use ferroscale_dynamic::graph::{Fields, Node};
use ferroscale_dynamic::preset::{Definition, EnumVariants, Preset, TypeRef};
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{Error, TypeIdx};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::convert::to_value;
use crate::errors::{guard, to_py};
use crate::sink::{NameCache, PySink};

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
    if let Ok(sb) = item.cast::<crate::object::PyScaleBytes>() {
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
            t.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
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
        unsafe {
            pyo3::ffi::PyList_SET_ITEM(
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

/// One input that changed the registry; replayed in order on unpickling.
#[derive(Clone)]
enum Input {
    Preset(String),
    Types(String),
    Spec(u64),
    Ss58(Option<u16>),
    Metadata(Vec<u8>),
}

/// Metadata currently loaded into the registry's runtime.
struct LoadedMetadata {
    bytes: Vec<u8>,
    /// Definitions generation the runtime was built against (legacy
    /// metadata resolves its argument types through the presets).
    generation: u64,
    legacy: bool,
}

/// A type registry: presets, portable registry, runtime, SS58 format.
#[pyclass(module = "scalecodec._core", name = "Registry")]
pub struct PyRegistry {
    inner: Registry,
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
    fn resolve_idx(&mut self, py: Python<'_>, type_string: &str) -> PyResult<TypeIdx> {
        self.inner.resolve(type_string).map_err(|e| to_py(py, &e))
    }

    /// The current generation (see the field).
    pub(crate) fn current_generation(&self) -> u64 {
        self.generation
    }

    /// Encodes `value` as node `ty`.
    pub(crate) fn encode_node(
        &mut self,
        py: Python<'_>,
        ty: TypeIdx,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<u8>> {
        let value = to_value(value)?;
        guard("encoding", || {
            ferroscale_dynamic::encode::encode_value(&self.inner.context(), ty, &value)
                .map_err(|e| to_py(py, &e))
        })
    }

    /// `batch_decode`: see the Python method (and `ConfigBase.batch_decode`).
    ///
    /// One pass over both lists: each item's type is looked up, decoded and
    /// stored in the result before the next is read, so the first failing
    /// item raises, as decoding one by one would.
    pub(crate) fn batch<'py>(
        &mut self,
        py: Python<'py>,
        type_strings: &Bound<'py, PyAny>,
        data_list: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let type_strings = as_list(py, type_strings)?;
        let data_list = as_list(py, data_list)?;
        let n = type_strings.len();
        if n != data_list.len() {
            return Err(PyValueError::new_err(format!(
                "batch_decode: {n} type strings but {} byte strings",
                data_list.len()
            )));
        }
        guard("batch decoding", || {
            let out = ListBuilder::new(py, n)?;
            let mut types = TypeStringCache::default();
            // Account ids rendered as SS58 are set aside and rendered in
            // groups, several times faster per account (see `PendingAccounts`).
            let mut accounts = PendingAccounts::for_context(&self.inner.context());
            let put = |slot: usize, text: &str| out.set(slot, PyString::new(py, text).into_any());
            for i in 0..n {
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
                let owned;
                let bytes: &[u8] = match item.cast::<PyBytes>() {
                    Ok(b) => b.as_bytes(),
                    Err(_) => {
                        owned = batch_input_bytes(&item)?;
                        &owned
                    }
                };
                let ctx = self.inner.context();
                if let Some(pending) = accounts.as_mut() {
                    if pending.offer(&ctx, ty, i, bytes, put).map_err(unrendered)? {
                        continue;
                    }
                }
                let mut sink = PySink {
                    py,
                    names: &mut self.names,
                };
                let v = ferroscale_dynamic::decode::decode(&ctx, ty, bytes, &mut sink)
                    .map_err(|e| to_py(py, &e))?;
                out.set(i, v);
            }
            if let Some(pending) = accounts.as_mut() {
                pending.flush(put).map_err(unrendered)?;
            }
            Ok(out.finish())
        })
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
            let mut sink = PySink {
                py,
                names: &mut self.names,
            };
            let (value, used) =
                decode_prefix(&ctx, ty, input, &mut sink).map_err(|e| to_py(py, &e))?;
            if check_remaining && used != input.len() {
                let e = Error::RemainingScaleBytesNotEmpty {
                    ty: type_name
                        .map(str::to_owned)
                        .unwrap_or_else(|| self.inner.graph().describe(ty)),
                    offset: offset + used,
                    length: bytes.len(),
                };
                return Err(to_py(py, &e));
            }
            Ok((value, used))
        })
    }

    fn apply(&mut self, py: Python<'_>, input: &Input) -> PyResult<()> {
        self.touch();
        match input {
            Input::Preset(json) => {
                let preset = Preset::from_json_str(json).map_err(|e| to_py(py, &e.into()))?;
                self.inner.update(&preset);
            }
            Input::Types(json) => self
                .inner
                .update_types_json(json)
                .map_err(|e| to_py(py, &e))?,
            Input::Spec(spec) => self.inner.set_active_spec_version_id(*spec),
            Input::Ss58(f) => self.inner.set_ss58_format(*f),
            Input::Metadata(bytes) => self.load(py, bytes)?,
        }
        Ok(())
    }

    fn load(&mut self, py: Python<'_>, bytes: &[u8]) -> PyResult<()> {
        self.inner.load_metadata(bytes).map_err(|e| to_py(py, &e))?;
        let legacy = self.inner.portable().is_none();
        self.metadata = Some(LoadedMetadata {
            bytes: bytes.to_vec(),
            generation: self.inner.definitions().generation(),
            legacy,
        });
        Ok(())
    }
}

#[pymethods]
impl PyRegistry {
    /// An empty registry (py-scale-codec's built-in classes only).
    #[new]
    fn new() -> Self {
        PyRegistry {
            inner: Registry::new(),
            names: NameCache::default(),
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
        self.inner.clear();
        self.metadata = None;
        self.log.retain(|i| matches!(i, Input::Ss58(_)));
    }

    /// Switches the active spec version (applies the presets' versioning).
    fn set_active_spec_version_id(&mut self, spec: u64) {
        self.touch();
        self.inner.set_active_spec_version_id(spec);
        self.log.push(Input::Spec(spec));
    }

    /// The active spec version, if one was set.
    #[getter]
    fn active_spec_version_id(&self) -> Option<u64> {
        self.inner.active_spec_version_id()
    }

    /// The spec version at `block` from the presets' `runtime_upgrades`.
    fn get_runtime_id_from_upgrades(&self, block: u64) -> Option<u64> {
        self.inner.get_runtime_id_from_upgrades(block)
    }

    /// Sets the newest block the runtime-upgrade table is known to cover.
    fn set_runtime_upgrades_head(&mut self, block: u64) {
        self.touch();
        self.inner
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
    fn get_ss58_format(&self) -> Option<u16> {
        self.inner.ss58_format()
    }

    /// Sets the SS58 format account ids render in.
    #[setter]
    fn set_ss58_format(&mut self, format: Option<u16>) {
        self.touch();
        self.inner.set_ss58_format(format);
        self.log.push(Input::Ss58(format));
    }

    /// Loads runtime metadata (V9–V16, any framing) unless the same bytes are
    /// already loaded and still valid; returns whether it (re)loaded.
    ///
    /// Legacy metadata (V9–V13) is reloaded after the definitions changed,
    /// because its argument types resolve through the presets.
    fn ensure_metadata(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<bool> {
        if let Some(m) = &self.metadata {
            let stale = m.legacy && m.generation != self.inner.definitions().generation();
            if m.bytes == data && !stale {
                return Ok(false);
            }
        }
        self.touch();
        guard("loading metadata", || self.load(py, data))?;
        self.log.retain(|i| !matches!(i, Input::Metadata(_)));
        self.log.push(Input::Metadata(data.to_vec()));
        Ok(true)
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
        &mut self,
        py: Python<'py>,
        type_string: &str,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let ty = guard("resolving a type", || self.resolve_idx(py, type_string))?;
        self.decode_at(py, ty, Some(type_string), data, offset, check_remaining)
    }

    /// [`Self::decode`] by graph index (from [`Self::resolve`]), skipping the
    /// type-string lookup: the classes of the Python layer keep their index.
    #[pyo3(signature = (idx, data, offset=0, check_remaining=true))]
    fn decode_node<'py>(
        &mut self,
        py: Python<'py>,
        idx: u32,
        data: &Bound<'py, PyAny>,
        offset: usize,
        check_remaining: bool,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        if self.inner.graph().get(TypeIdx(idx)).is_none() {
            return Err(PyValueError::new_err(format!("no type node #{idx}")));
        }
        self.decode_at(py, TypeIdx(idx), None, data, offset, check_remaining)
    }

    /// Encodes `value` as `type_string`.
    fn encode<'py>(
        &mut self,
        py: Python<'py>,
        type_string: &str,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let value = to_value(value)?;
        guard("encoding", || {
            let bytes = self
                .inner
                .encode(type_string, &value)
                .map_err(|e| to_py(py, &e))?;
            Ok(PyBytes::new(py, &bytes))
        })
    }

    /// Decodes `data_list[i]` as `type_strings[i]` (each must consume all
    /// its bytes); the lists (any sequences) must have the same length. An
    /// item is `bytes`, `bytearray`, a `ScaleBytes` or `"0x…"` hex text.
    ///
    /// `bytes` are borrowed, not copied, and a type string that is the same
    /// object as the one before it (the usual `[t] * n`) or equal to it
    /// reuses that one's resolved node.
    fn batch_decode<'py>(
        &mut self,
        py: Python<'py>,
        type_strings: &Bound<'py, PyAny>,
        data_list: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        self.batch(py, type_strings, data_list)
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

    /// `(kind, children, names)` of node `idx`: the node kind (`"Seq"`,
    /// `"Struct"`, `"Enum"`, `"Special:Era"` …), child node indices and the
    /// field/variant/flag names, for the Python classes' `sub_type`,
    /// `type_mapping` and `value_list`.
    fn node_info<'py>(&self, py: Python<'py>, idx: u32) -> PyResult<Bound<'py, PyTuple>> {
        let Some(node) = self.inner.graph().get(TypeIdx(idx)) else {
            return Err(PyValueError::new_err(format!("no type node #{idx}")));
        };
        let mut children: Vec<Option<u32>> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        let kind: String = match node {
            Node::Prim(p) => format!("Prim:{p:?}"),
            Node::Null => "Null".into(),
            Node::Compact(t) => {
                children.push(Some(t.0));
                "Compact".into()
            }
            Node::Seq(t) => {
                children.push(Some(t.0));
                "Seq".into()
            }
            Node::Bytes => "Bytes".into(),
            Node::ByteArray(n) => format!("ByteArray:{n}"),
            Node::Array(t, n) => {
                children.push(Some(t.0));
                format!("Array:{n}")
            }
            Node::Tuple(ts) => {
                children.extend(ts.iter().map(|t| Some(t.0)));
                "Tuple".into()
            }
            Node::Struct(fs) => {
                for f in fs {
                    children.push(Some(f.ty.0));
                    names.push(f.name.to_string());
                }
                "Struct".into()
            }
            Node::Enum(vs) => {
                for v in vs {
                    names.push(v.name.to_string());
                    children.push(match &v.fields {
                        Fields::Unit => None,
                        Fields::Unnamed(ts) if ts.len() == 1 => Some(ts[0].0),
                        _ => None,
                    });
                }
                "Enum".into()
            }
            Node::Option(t) => {
                children.push(Some(t.0));
                "Option".into()
            }
            Node::Result(a, b) => {
                children.push(Some(a.0));
                children.push(Some(b.0));
                "Result".into()
            }
            Node::Set { byte_len, flags } => {
                names.extend(flags.iter().map(|(n, _)| n.to_string()));
                format!("Set:{byte_len}")
            }
            Node::BitSeq { .. } => "BitSeq".into(),
            Node::Map(k, v) => {
                children.push(Some(k.0));
                children.push(Some(v.0));
                "Map".into()
            }
            Node::Special(s) => {
                let name = format!("{s:?}");
                let short = name.split('(').next().unwrap_or("").to_owned();
                format!("Special:{short}")
            }
            Node::Unresolved(n) => format!("Unresolved:{n}"),
        };
        let dict = PyDict::new(py);
        dict.set_item("kind", kind)?;
        PyTuple::new(
            py,
            [
                dict.get_item("kind")?
                    .unwrap_or_else(|| py.None().into_bound(py)),
                children.into_pyobject(py)?.into_any(),
                names.into_pyobject(py)?.into_any(),
            ],
        )
    }

    /// The preset definition behind `type_string` as written (aliases
    /// followed; `Name<A, B>` falls back to `Name`): `(kind, mapping,
    /// base_class)` with kind `"struct"` (mapping `[[field, type]]`),
    /// `"tuple"` (`[type]`), `"enum"` (`[[name, type or None]]`) or `"set"`
    /// (`[name]`); `None` when no preset defines it.
    fn definition_info<'py>(
        &self,
        py: Python<'py>,
        type_string: &str,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let defs = self.inner.definitions();
        let mut name = type_string.trim().to_owned();
        // Alias chains in presets are short; the cap only stops cycles.
        for _ in 0..32 {
            let found = defs
                .lookup(&name)
                .or_else(|| name.find('<').and_then(|i| defs.lookup(name[..i].trim())));
            let Some(named) = found else {
                return Ok(None);
            };
            let text = |t: &TypeRef| -> Option<String> {
                match t {
                    TypeRef::Named(s) => Some(s.clone()),
                    TypeRef::Null => None,
                    TypeRef::Inline(fields) => Some(format!(
                        "{{{}}}",
                        fields
                            .iter()
                            .map(|(n, _)| n.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                    TypeRef::Invalid(s) => Some(s.clone()),
                }
            };
            let (kind, mapping): (&str, Bound<'py, PyAny>) = match &named.def {
                Definition::Alias(target) => {
                    if target.eq_ignore_ascii_case(&name) {
                        return Ok(None);
                    }
                    name = target.clone();
                    continue;
                }
                Definition::Struct { fields, .. } => {
                    let m: Vec<(String, Option<String>)> =
                        fields.iter().map(|(n, t)| (n.clone(), text(t))).collect();
                    ("struct", m.into_pyobject(py)?.into_any())
                }
                Definition::Tuple { items, .. } => {
                    let m: Vec<Option<String>> = items.iter().map(text).collect();
                    ("tuple", m.into_pyobject(py)?.into_any())
                }
                Definition::Enum { variants, .. } => match variants {
                    EnumVariants::Mapped(vs) => {
                        let m: Vec<(String, Option<String>)> =
                            vs.iter().map(|(n, t)| (n.clone(), text(t))).collect();
                        ("enum", m.into_pyobject(py)?.into_any())
                    }
                    EnumVariants::Values(vs) => {
                        let m: Vec<(String, Option<String>)> =
                            vs.iter().map(|(n, _)| (n.clone(), None)).collect();
                        ("enum", m.into_pyobject(py)?.into_any())
                    }
                },
                Definition::Set { flags, .. } => {
                    let m: Vec<String> = flags.iter().map(|(n, _)| n.clone()).collect();
                    ("set", m.into_pyobject(py)?.into_any())
                }
            };
            let base = named.def.base_class().map(str::to_owned);
            return Ok(Some(PyTuple::new(
                py,
                [
                    kind.into_pyobject(py)?.into_any(),
                    mapping,
                    base.into_pyobject(py)?.into_any(),
                ],
            )?));
        }
        Ok(None)
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
                "spec" => self.set_active_spec_version_id(payload.extract()?),
                "ss58" => self.set_ss58_format(payload.extract()?),
                "metadata" => {
                    self.ensure_metadata(py, &payload.extract::<Vec<u8>>()?)?;
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
