//! Decoding with the interpreter lock released: the type walk runs on Rust
//! data only ([`Built`], through [`BuiltSink`]) inside `Python::detach`, and
//! the Python objects are made from it afterwards ([`to_python`]), so that
//! threads decoding large values (events, metadata, batches) run their walks
//! side by side.
//!
//! Inputs below [`DETACH_MIN`] bytes keep the one-pass
//! [`crate::convert::sink::PySink`]: the intermediate tree costs about one Rust
//! allocation per Python object made, as much again as making the objects
//! (measured on the 23.7 KB events of Polkadot block 18468942: 100 µs of CPU
//! one-pass, 250 µs through the tree), so it only pays where the walk is a
//! large share (metadata, large runtime-API answers) and threads use it.

use ferroscale_dynamic::{Name, Sink};
use ferroscale_value::Value;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};

use crate::convert::sink::{NameCache, PySink};

/// Inputs of at least this many bytes are decoded with the lock released
/// (see the module documentation for why not smaller ones).
pub const DETACH_MIN: usize = 64 * 1024;

/// A dict key: a graph name (interned once per registry) or other text.
#[derive(Clone, Debug)]
pub enum Key {
    /// A field or variant name of the type graph.
    Name(Name),
    /// Text that is not a graph name (keys of values built by hooks).
    Text(Box<str>),
}

impl Key {
    /// The key's text.
    pub fn text(&self) -> &str {
        match self {
            Key::Name(n) => n,
            Key::Text(t) => t,
        }
    }
}

/// A decoded value as plain Rust data, one variant per kind of Python
/// object [`PySink`] makes.
#[derive(Clone, Debug)]
pub enum Built {
    /// `None`.
    Null,
    /// `bool`.
    Bool(bool),
    /// `int` (unsigned).
    UInt(u128),
    /// `int` (signed).
    Int(i128),
    /// `int` from 32 little-endian bytes; `true` when signed.
    Wide(Box<[u8; 32]>, bool),
    /// `str` made from decoded text.
    Text(Box<str>),
    /// `str` of a graph name (interned).
    Name(Name),
    /// `"0x…"` of the bytes (written straight into the `str`).
    Hex(Box<[u8]>),
    /// An account id's SS58 text in a format, made when the Python object
    /// is ([`PySink`]'s rule: from the registry's account table, which it
    /// also fills), so that a batch of pages repeating accounts renders each
    /// once.
    Account(Box<[u8; 32]>, u16),
    /// `list`.
    List(Vec<Built>),
    /// `tuple`.
    Tuple(Vec<Built>),
    /// `dict`.
    Dict(Vec<(Key, Built)>),
}

/// A [`Sink`] building [`Built`] trees (no Python involved, so it runs
/// without the interpreter lock).
#[derive(Default)]
pub struct BuiltSink;

impl Sink<'_> for BuiltSink {
    type Out = Built;
    type Seq = Vec<Built>;
    type Dict = Vec<(Key, Built)>;

    fn null(&mut self) -> Built {
        Built::Null
    }
    fn bool(&mut self, v: bool) -> Built {
        Built::Bool(v)
    }
    fn uint(&mut self, v: u128) -> Built {
        Built::UInt(v)
    }
    fn int(&mut self, v: i128) -> Built {
        Built::Int(v)
    }
    fn u256(&mut self, le: &[u8; 32]) -> Built {
        Built::Wide(Box::new(*le), false)
    }
    fn i256(&mut self, le: &[u8; 32]) -> Built {
        Built::Wide(Box::new(*le), true)
    }
    fn text(&mut self, s: &str) -> Built {
        Built::Text(s.into())
    }
    fn name(&mut self, n: &Name) -> Built {
        Built::Name(n.clone())
    }
    fn hex(&mut self, bytes: &[u8]) -> Built {
        Built::Hex(bytes.into())
    }
    fn ss58_account(&mut self, key: &[u8; 32], format: u16) -> Built {
        Built::Account(Box::new(*key), format)
    }
    fn seq_begin(&mut self, len: usize) -> Vec<Built> {
        // `len` was checked against the remaining input by the decoder.
        Vec::with_capacity(len)
    }
    fn seq_push(&mut self, seq: &mut Vec<Built>, item: Built) {
        seq.push(item);
    }
    fn list_end(&mut self, seq: Vec<Built>) -> Built {
        Built::List(seq)
    }
    fn tuple_end(&mut self, seq: Vec<Built>) -> Built {
        Built::Tuple(seq)
    }
    fn dict_begin(&mut self, len: usize) -> Vec<(Key, Built)> {
        Vec::with_capacity(len)
    }
    fn dict_insert(&mut self, dict: &mut Vec<(Key, Built)>, key: &Name, value: Built) {
        dict.push((Key::Name(key.clone()), value));
    }
    fn dict_insert_text(&mut self, dict: &mut Vec<(Key, Built)>, key: &str, value: Built) {
        dict.push((Key::Text(key.into()), value));
    }
    fn dict_end(&mut self, dict: Vec<(Key, Built)>) -> Built {
        Built::Dict(dict)
    }
    fn dup(&mut self, v: &Built) -> Built {
        // PySink copies a dict shallowly and shares other objects; here each
        // copy becomes its own object (equal values).
        v.clone()
    }
    fn value(&mut self, v: Value) -> Built {
        match v {
            Value::Null => Built::Null,
            Value::Bool(b) => Built::Bool(b),
            Value::UInt(n) => Built::UInt(n),
            Value::Int(n) => Built::Int(n),
            Value::U256(le) => Built::Wide(le, false),
            Value::I256(le) => Built::Wide(le, true),
            Value::Str(s) => Built::Text((*s).into()),
            Value::List(items) => Built::List(items.into_iter().map(|i| self.value(i)).collect()),
            Value::Tuple(items) => Built::Tuple(items.into_iter().map(|i| self.value(i)).collect()),
            Value::Dict(entries) => Built::Dict(
                entries
                    .into_iter()
                    .map(|(k, i)| (Key::Text((*k).into()), self.value(i)))
                    .collect(),
            ),
        }
    }
}

/// The Python object of `built`, made as [`PySink`] makes it (names
/// interned through `names`).
pub fn to_python<'py>(py: Python<'py>, names: &mut NameCache, built: &Built) -> Bound<'py, PyAny> {
    let mut sink = PySink { py, names };
    build(&mut sink, built)
}

fn build<'py>(sink: &mut PySink<'py, '_>, built: &Built) -> Bound<'py, PyAny> {
    build_with(sink, built, &mut |sink, item, _| build(sink, item))
}

/// The Python object of `built`, made as [`PySink`] makes it, the items of
/// a list or tuple and the values of a dict made by `part` (given the
/// sink, the part and its position), so that a caller can put in objects
/// made before ([`crate::convert::tree`]).
pub(crate) fn build_with<'py, 'c, F>(
    sink: &mut PySink<'py, 'c>,
    built: &Built,
    part: &mut F,
) -> Bound<'py, PyAny>
where
    F: FnMut(&mut PySink<'py, 'c>, &Built, usize) -> Bound<'py, PyAny>,
{
    let py = sink.py;
    match built {
        Built::Null => py.None().into_bound(py),
        Built::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Built::UInt(n) => sink.uint(*n),
        Built::Int(n) => sink.int(*n),
        Built::Wide(le, false) => sink.u256(le),
        Built::Wide(le, true) => sink.i256(le),
        Built::Text(s) => PyString::new(py, s).into_any(),
        Built::Name(n) => sink.names.get(py, n).into_any(),
        Built::Hex(bytes) => sink.hex(bytes),
        Built::Account(id, format) => sink.ss58_account(id, *format),
        Built::List(items) => {
            let items: Vec<_> = items
                .iter()
                .enumerate()
                .map(|(i, item)| part(sink, item, i))
                .collect();
            match PyList::new(py, items) {
                Ok(l) => l.into_any(),
                Err(_) => py.None().into_bound(py),
            }
        }
        Built::Tuple(items) => {
            let items: Vec<_> = items
                .iter()
                .enumerate()
                .map(|(i, item)| part(sink, item, i))
                .collect();
            match PyTuple::new(py, items) {
                Ok(t) => t.into_any(),
                Err(_) => py.None().into_bound(py),
            }
        }
        Built::Dict(entries) => {
            let d = PyDict::new(py);
            for (i, (k, v)) in entries.iter().enumerate() {
                let v = part(sink, v, i);
                // Setting a str key on a fresh dict cannot fail short of
                // memory exhaustion (as in PySink).
                let _ = match k {
                    Key::Name(n) => d.set_item(sink.names.get(py, n), v),
                    Key::Text(t) => d.set_item(PyString::new(py, t), v),
                };
            }
            d.into_any()
        }
    }
}

/// Runs `f` with the interpreter lock released, turning a panic in it into
/// an error message naming `what` (as [`crate::errors::guard`] does).
pub fn detached<T: Send>(
    py: Python<'_>,
    what: &str,
    f: impl FnOnce() -> T + Send,
) -> Result<T, String> {
    py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)))
        .map_err(|payload| {
            let detail = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            format!("internal error while {what}: {detail}")
        })
}

/// Why a batch decoded with the lock released stopped.
#[derive(Debug)]
pub enum BatchError {
    /// The first item that did not decode.
    Decode(ferroscale_dynamic::Error),
    /// A group of account ids could not be rendered.
    Accounts(ferroscale_core::error::Error),
}

/// One decoded batch item.
enum BatchValue {
    /// A value.
    Built(Built),
    /// An account id's SS58 text: its range in [`BatchDecoded::accounts`].
    Account(std::ops::Range<usize>),
    /// Not yet given its account text (only while decoding).
    Pending,
}

/// The items of a batch decoded with the lock released.
pub struct BatchDecoded {
    values: Vec<BatchValue>,
    /// The SS58 texts of the items that are bare account ids, one after the
    /// other (one allocation for all of them).
    accounts: String,
}

/// Decodes every `(node, bytes)` item in order (each must use all its
/// bytes), stopping at the first that fails; bare account ids rendered as
/// SS58 are rendered in groups (`PendingAccounts`), as the held path does.
pub fn decode_batch(
    ctx: &ferroscale_dynamic::Context<'_>,
    items: &[(ferroscale_dynamic::TypeIdx, &[u8])],
) -> Result<BatchDecoded, BatchError> {
    let mut values = Vec::with_capacity(items.len());
    let mut accounts = String::new();
    let mut placed: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let mut pending = ferroscale_dynamic::PendingAccounts::for_context(ctx);
    let mut put = |slot: usize, _: &[u8; 32], text: &str| {
        let start = accounts.len();
        accounts.push_str(text);
        placed.push((slot, start..accounts.len()));
    };
    for (i, (ty, bytes)) in items.iter().enumerate() {
        if let Some(p) = pending.as_mut() {
            if p.offer(ctx, *ty, i, bytes, &mut put)
                .map_err(BatchError::Accounts)?
            {
                values.push(BatchValue::Pending);
                continue;
            }
        }
        let v = ferroscale_dynamic::decode(ctx, *ty, bytes, &mut BuiltSink)
            .map_err(BatchError::Decode)?;
        values.push(BatchValue::Built(v));
    }
    if let Some(p) = pending.as_mut() {
        p.flush(&mut put).map_err(BatchError::Accounts)?;
    }
    for (slot, range) in placed {
        if let Some(v) = values.get_mut(slot) {
            *v = BatchValue::Account(range);
        }
    }
    Ok(BatchDecoded { values, accounts })
}

impl BatchDecoded {
    /// Makes each item's Python object, handing it to `set` with its index.
    pub fn into_python<'py>(
        self,
        py: Python<'py>,
        names: &mut NameCache,
        mut set: impl FnMut(usize, Bound<'py, PyAny>),
    ) {
        let mut sink = PySink { py, names };
        for (i, v) in self.values.into_iter().enumerate() {
            let obj = match v {
                BatchValue::Built(b) => build(&mut sink, &b),
                BatchValue::Account(r) => {
                    PyString::new(py, self.accounts.get(r).unwrap_or_default()).into_any()
                }
                // a flush that failed returned an error above
                BatchValue::Pending => py.None().into_bound(py),
            };
            set(i, obj);
        }
    }
}
