//! A [`Sink`] that builds Python objects straight from the decoder, without an
//! intermediate `Value` tree.
//!
//! Field and variant names repeat in every decoded value; they arrive as
//! `Name` (`Arc<str>`) owned by the registry's type graph, so the sink keeps a
//! per-registry cache from the `Arc`'s pointer to an interned Python string.
//! The cache also holds a clone of the `Arc`, so the pointer it is keyed by
//! can never be freed and reused for a different name. A decoded event list
//! looks a name up for every field of every record, so the key is hashed
//! with one multiplication ([`PointerHasher`]), not SipHash (which took a
//! fifth of a `System.Events` decode).
//!
//! [`GcPause`] keeps Python's cyclic collector out of the way while a large
//! value is built.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use ferroscale_dynamic::{Name, Sink};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyList, PyModule, PyString, PyTuple};

/// Hashes a pointer-sized key: the folded 128-bit product with an odd
/// constant, so that aligned pointers (low bits zero) still spread over the
/// buckets. The keys are addresses the process made, not outside input.
#[derive(Default)]
pub struct PointerHasher(u64);

impl Hasher for PointerHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, key: u64) {
        let product = u128::from(key ^ self.0).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }

    fn write_usize(&mut self, key: usize) {
        self.write_u64(key as u64);
    }
}

/// Interned Python strings for graph names, keyed by the `Name` pointer,
/// and (in a registry's own cache) the SS58 texts of recent account ids.
#[derive(Default)]
pub struct NameCache {
    names: HashMap<usize, (Name, Py<PyString>), BuildHasherDefault<PointerHasher>>,
    /// A direct-mapped table in front of `names`: an event list looks up a
    /// name for every field of every record (a sixth of a `System.Events`
    /// decode went to the map), and a slot hit is one load and compare.
    /// Empty until the first look-up.
    recent: Vec<Option<(usize, Py<PyString>)>>,
    accounts: Option<AccountTexts>,
}

/// Slots of [`NameCache::recent`] (a power of two).
const RECENT_SLOTS: usize = 256;

/// The SS58 texts of recently rendered account ids as Python strings.
///
/// A client meets the same accounts again and again (the hotkeys of a
/// subnet in every `query_map` page and every metagraph sync), and an
/// account's text costs a BLAKE2b checksum, a base58 conversion and a new
/// string: two fifths of a page of account-keyed entries. The table is
/// direct-mapped (the slot comes from the id's first bytes, which are a
/// public key's, so they spread) and of fixed size: a collision replaces
/// the slot, so hostile input can make it miss, never grow.
struct AccountTexts {
    slots: Box<[Option<AccountText>]>,
}

/// One cached account text: the format and id it renders.
struct AccountText {
    format: u16,
    id: [u8; 32],
    text: Py<PyString>,
}

impl AccountTexts {
    /// Slots in the table (a power of two).
    const SLOTS: usize = 2048;

    fn new() -> Self {
        AccountTexts {
            slots: (0..Self::SLOTS).map(|_| None).collect(),
        }
    }

    fn slot(&mut self, id: &[u8; 32], format: u16) -> &mut Option<AccountText> {
        let mut head = [0u8; 8];
        head.copy_from_slice(&id[..8]);
        let index = (u64::from_le_bytes(head) ^ u64::from(format)) as usize & (Self::SLOTS - 1);
        &mut self.slots[index]
    }
}

/// Input sizes from which a decoded value is built with the collector paused.
const GC_PAUSE_MIN: usize = 2048;

static GC_MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// Python's cyclic garbage collector paused while a large decoded value is
/// built, and resumed when this is dropped (only if it was running before).
///
/// Building a value makes thousands of containers; every 700 of them start
/// a collection that walks the new ones again and moves them up a
/// generation, where later collections walk them once more. A decoded
/// value has no reference cycles, so those walks find nothing: paused, the
/// new containers are walked once, by the first collection after the
/// build. A `System.Events` value of 180 records builds about 30 % faster.
pub struct GcPause<'py> {
    resume: Option<Bound<'py, PyModule>>,
}

impl<'py> GcPause<'py> {
    /// Pauses the collector when `input_len` bytes make a large value (a
    /// small one would pay more for the pause than it saves).
    pub fn for_input(py: Python<'py>, input_len: usize) -> Self {
        if input_len < GC_PAUSE_MIN {
            return GcPause { resume: None };
        }
        let pause = || -> PyResult<Option<Bound<'py, PyModule>>> {
            let gc = GC_MODULE
                .get_or_try_init(py, || py.import("gc").map(Bound::unbind))?
                .bind(py)
                .clone();
            if !gc.call_method0(intern!(py, "isenabled"))?.is_truthy()? {
                return Ok(None);
            }
            gc.call_method0(intern!(py, "disable"))?;
            Ok(Some(gc))
        };
        // A collector that cannot be paused is only slower.
        GcPause {
            resume: pause().unwrap_or(None),
        }
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = self.resume.take() {
            if let Err(e) = gc.call_method0(intern!(gc.py(), "enable")) {
                e.write_unraisable(gc.py(), None);
            }
        }
    }
}

impl NameCache {
    /// A cache that also keeps account texts (a registry's own; a cache made
    /// for one call would pay for the table and never reuse it).
    pub fn with_account_texts() -> Self {
        NameCache {
            accounts: Some(AccountTexts::new()),
            ..NameCache::default()
        }
    }

    /// The SS58 text of account `id` in `format` as a Python string, from
    /// the account table when this cache keeps one; `None` when `format` is
    /// not one SS58 allows (the caller renders the id as hex).
    pub fn account<'py>(
        &mut self,
        py: Python<'py>,
        id: &[u8; 32],
        format: u16,
    ) -> Option<Bound<'py, PyString>> {
        if let Some(hit) = self.cached_account(py, id, format) {
            return Some(hit);
        }
        let text = PyString::new(py, &ferroscale_dynamic::ss58_account(id, format)?);
        self.remember_account(id, format, &text);
        Some(text)
    }

    /// Whether this cache keeps account texts.
    pub fn keeps_accounts(&self) -> bool {
        self.accounts.is_some()
    }

    /// The text of account `id` in `format` if the account table has it.
    pub fn cached_account<'py>(
        &mut self,
        py: Python<'py>,
        id: &[u8; 32],
        format: u16,
    ) -> Option<Bound<'py, PyString>> {
        let hit = self.accounts.as_mut()?.slot(id, format).as_ref()?;
        (hit.format == format && hit.id == *id).then(|| hit.text.bind(py).clone())
    }

    /// Keeps `text` as the text of account `id` in `format` (when this cache
    /// keeps an account table).
    pub fn remember_account(&mut self, id: &[u8; 32], format: u16, text: &Bound<'_, PyString>) {
        if let Some(table) = self.accounts.as_mut() {
            *table.slot(id, format) = Some(AccountText {
                format,
                id: *id,
                text: text.clone().unbind(),
            });
        }
    }

    /// The Python string for `name`, created and interned on first use.
    pub fn get<'py>(&mut self, py: Python<'py>, name: &Name) -> Bound<'py, PyString> {
        let key = std::sync::Arc::as_ptr(name) as *const u8 as usize;
        if self.recent.is_empty() {
            self.recent = (0..RECENT_SLOTS).map(|_| None).collect();
        }
        // Names are separate allocations of at least 16 bytes.
        let slot = (key >> 4) & (RECENT_SLOTS - 1);
        if let Some((k, text)) = &self.recent[slot] {
            if *k == key {
                return text.bind(py).clone();
            }
        }
        let entry = self
            .names
            .entry(key)
            .or_insert_with(|| (name.clone(), PyString::intern(py, name).unbind()));
        let text = entry.1.bind(py).clone();
        // The slot's key stays valid: `names` holds the `Name` it points to
        // until `clear`, which empties both.
        self.recent[slot] = Some((key, text.clone().unbind()));
        text
    }

    /// Forgets every name (after the graph was replaced).
    pub fn clear(&mut self) {
        self.recent.clear();
        self.names.clear();
    }
}

// CPython's presized dict constructor: exported by every CPython the
// version-specific wheels are for (3.10–3.14), but private, so PyO3 0.29 no
// longer declares it.
#[cfg(not(feature = "abi3"))]
extern "C" {
    fn _PyDict_NewPresized(minused: pyo3::ffi::Py_ssize_t) -> *mut pyo3::ffi::PyObject;
}

/// An empty dict with room for `len` entries. A new dict has room for five
/// and grows on the sixth (a new key table, every entry moved again): an
/// event record's eight keys paid that for every event. The room asked for
/// is capped, so a graph's field count cannot size an allocation on its own.
fn presized_dict(py: Python<'_>, len: usize) -> Bound<'_, PyDict> {
    #[cfg(not(feature = "abi3"))]
    if len > 5 {
        let len = len.min(64) as pyo3::ffi::Py_ssize_t;
        // SAFETY: `_PyDict_NewPresized` returns a new reference to an empty
        // dict, or NULL with an exception set (then the plain dict below).
        let made = unsafe { Bound::from_owned_ptr_or_err(py, _PyDict_NewPresized(len)) };
        if let Ok(dict) = made {
            // SAFETY: the object was made by a dict constructor.
            return unsafe { dict.cast_into_unchecked::<PyDict>() };
        }
    }
    // (the stable ABI has no presized constructor)
    #[cfg(feature = "abi3")]
    let _ = len;
    PyDict::new(py)
}

/// Builds Python objects (int, bool, str, list, tuple, dict, None).
pub struct PySink<'py, 'c> {
    /// The interpreter.
    pub py: Python<'py>,
    /// Interned names of the registry being decoded against.
    pub names: &'c mut NameCache,
}

impl<'py> Sink<'_> for PySink<'py, '_> {
    type Out = Bound<'py, PyAny>;
    type Seq = Vec<Bound<'py, PyAny>>;
    type Dict = Bound<'py, PyDict>;

    fn null(&mut self) -> Self::Out {
        self.py.None().into_bound(self.py)
    }
    fn bool(&mut self, v: bool) -> Self::Out {
        PyBool::new(self.py, v).to_owned().into_any()
    }
    fn uint(&mut self, v: u128) -> Self::Out {
        // Most integers fit a u64, whose conversion is one C call
        // (a u128 goes through a byte array).
        let r = match u64::try_from(v) {
            Ok(small) => small.into_pyobject(self.py),
            Err(_) => v.into_pyobject(self.py),
        };
        match r {
            Ok(i) => i.into_any(),
            Err(never) => match never {},
        }
    }
    fn int(&mut self, v: i128) -> Self::Out {
        let r = match i64::try_from(v) {
            Ok(small) => small.into_pyobject(self.py),
            Err(_) => v.into_pyobject(self.py),
        };
        match r {
            Ok(i) => i.into_any(),
            Err(never) => match never {},
        }
    }
    fn u256(&mut self, le: &[u8; 32]) -> Self::Out {
        int_from_le(self.py, le, false)
    }
    fn i256(&mut self, le: &[u8; 32]) -> Self::Out {
        int_from_le(self.py, le, true)
    }
    fn text(&mut self, s: &str) -> Self::Out {
        PyString::new(self.py, s).into_any()
    }
    fn name(&mut self, n: &Name) -> Self::Out {
        self.names.get(self.py, n).into_any()
    }
    fn hex(&mut self, bytes: &[u8]) -> Self::Out {
        match crate::convert::text::hex_prefixed(self.py, bytes) {
            Ok(s) => s.into_any(),
            Err(_) => self.null(),
        }
    }
    fn ss58_account(&mut self, key: &[u8; 32], format: u16) -> Self::Out {
        match self.names.account(self.py, key, format) {
            Some(text) => text.into_any(),
            None => self.hex(key),
        }
    }
    fn seq_begin(&mut self, len: usize) -> Self::Seq {
        // `len` was checked against the remaining input by the decoder.
        Vec::with_capacity(len)
    }
    fn seq_push(&mut self, seq: &mut Self::Seq, item: Self::Out) {
        seq.push(item);
    }
    fn list_end(&mut self, seq: Self::Seq) -> Self::Out {
        match PyList::new(self.py, seq) {
            Ok(l) => l.into_any(),
            Err(_) => self.null(),
        }
    }
    fn tuple_end(&mut self, seq: Self::Seq) -> Self::Out {
        match PyTuple::new(self.py, seq) {
            Ok(t) => t.into_any(),
            Err(_) => self.null(),
        }
    }
    fn dict_begin(&mut self, len: usize) -> Self::Dict {
        presized_dict(self.py, len)
    }
    fn dict_insert(&mut self, dict: &mut Self::Dict, key: &Name, value: Self::Out) {
        let key = self.names.get(self.py, key);
        // Setting a str key on a fresh dict cannot fail short of memory exhaustion.
        let _ = dict.set_item(key, value);
    }
    fn dict_insert_text(&mut self, dict: &mut Self::Dict, key: &str, value: Self::Out) {
        let _ = dict.set_item(PyString::new(self.py, key), value);
    }
    fn dict_end(&mut self, dict: Self::Dict) -> Self::Out {
        dict.into_any()
    }
    fn dup(&mut self, v: &Self::Out) -> Self::Out {
        // Values are shared the way py-scale-codec shares them: dicts and lists
        // are copied shallowly so that mutating one copy does not change the other.
        if let Ok(d) = v.cast::<PyDict>() {
            if let Ok(c) = d.copy() {
                return c.into_any();
            }
        }
        v.clone()
    }
}

/// A Python int from 32 little-endian bytes (via `int.from_bytes`).
fn int_from_le<'py>(py: Python<'py>, le: &[u8; 32], signed: bool) -> Bound<'py, PyAny> {
    let int_type = py.get_type::<pyo3::types::PyInt>();
    let kwargs = PyDict::new(py);
    let _ = kwargs.set_item("signed", signed);
    int_type
        .call_method(
            "from_bytes",
            (pyo3::types::PyBytes::new(py, le), "little"),
            Some(&kwargs),
        )
        .unwrap_or_else(|_| py.None().into_bound(py))
}
