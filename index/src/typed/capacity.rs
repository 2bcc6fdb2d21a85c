//! Room made up front in a typed table's builders, from the sizes the same
//! table's builders reached in the thread's previous run, scaled by the
//! runs' input bytes.
//!
//! Why: a run's columns are built from nothing, and a column grown by
//! doubling copies itself at every step into memory faulted in afresh. In
//! a profile of the typed tables alone on block 18,468,942 (a 50 KB
//! `ParaInherent.enter` a block: bit fields, signatures, candidates),
//! `realloc` and its page faults were a quarter of the time. The hint only
//! sizes buffers: what is appended is the same with or without it.

use std::cell::RefCell;
use std::collections::HashMap;

use super::column::Builder;

/// How much one builder held: its rows, its bytes (text, binary,
/// fixed-size binary), and the sizes of its parts (a list's items, a
/// struct's fields).
#[derive(Clone, Debug, Default)]
pub(crate) struct Sizes {
    rows: usize,
    bytes: usize,
    parts: Vec<Sizes>,
}

/// The sizes `b` reached.
pub(crate) fn sizes(b: &Builder) -> Sizes {
    let (rows, bytes, parts) = match b {
        Builder::Bool(v) => (v.len(), 0, Vec::new()),
        Builder::UInt(_, v) => (v.len(), 0, Vec::new()),
        Builder::Int(_, v) => (v.len(), 0, Vec::new()),
        Builder::Wide(d, t) => (d.len(), t.byte_len(), Vec::new()),
        Builder::Text(t) | Builder::Label(t) => (t.len(), t.byte_len(), Vec::new()),
        Builder::Bytes(t) => (t.len(), t.byte_len(), Vec::new()),
        Builder::Hex(_, data, valid) => (valid.len(), data.len(), Vec::new()),
        Builder::List(_, _, valid, items) => (valid.len(), 0, vec![sizes(items)]),
        Builder::Struct(_, valid, children) => {
            (valid.len(), 0, children.iter().map(sizes).collect())
        }
    };
    Sizes { rows, bytes, parts }
}

/// A size scaled by `num / den` (at most four times the size).
fn scaled(n: usize, (num, den): (usize, usize)) -> usize {
    let s = (n as u128 * num as u128) / den.max(1) as u128;
    s.min(4 * n as u128) as usize
}

/// Makes room in `b` for `s` scaled by `scale`.
pub(crate) fn reserve(b: &mut Builder, s: &Sizes, scale: (usize, usize)) {
    let rows = scaled(s.rows, scale);
    let bytes = scaled(s.bytes, scale);
    match b {
        Builder::Bool(v) => v.reserve(rows),
        Builder::UInt(_, v) => v.reserve(rows),
        Builder::Int(_, v) => v.reserve(rows),
        Builder::Wide(d, t) => {
            d.reserve(rows);
            t.reserve_rows(rows, bytes);
        }
        Builder::Text(t) | Builder::Label(t) => t.reserve_rows(rows, bytes),
        Builder::Bytes(t) => t.reserve_rows(rows, bytes),
        Builder::Hex(_, data, valid) => {
            data.reserve(bytes);
            valid.reserve(rows);
        }
        Builder::List(_, offsets, valid, items) => {
            offsets.reserve(rows);
            valid.reserve(rows);
            if let Some(p) = s.parts.first() {
                reserve(items, p, scale);
            }
        }
        Builder::Struct(_, valid, children) => {
            valid.reserve(rows);
            for (c, p) in children.iter_mut().zip(&s.parts) {
                reserve(c, p, scale);
            }
        }
    }
}

/// A table of a runtime: (spec version, index in its catalog).
pub(crate) type Key = (u32, usize);

/// What a table's columns held at the end of a run, with the run's bytes.
struct Hint {
    run_bytes: usize,
    rows: usize,
    columns: Vec<Sizes>,
}

thread_local! {
    /// This thread's last run's sizes of each table it had rows in.
    static HINTS: RefCell<HashMap<Key, Hint>> = RefCell::new(HashMap::new());
}

/// Notes the sizes a table's `columns` (of `rows` rows) reached in a run
/// of `run_bytes` input bytes.
pub(crate) fn remember(key: Key, run_bytes: usize, rows: usize, columns: &[Builder]) {
    if run_bytes == 0 || rows == 0 {
        return;
    }
    let hint = Hint {
        run_bytes,
        rows,
        columns: columns.iter().map(sizes).collect(),
    };
    HINTS.with(|h| h.borrow_mut().insert(key, hint));
}

/// Makes room in a new table's `columns` for a run of `run_bytes` input
/// bytes, as the thread's last run of the table says; the rows to make
/// room for in its place columns.
pub(crate) fn prepare(key: Key, run_bytes: usize, columns: &mut [Builder]) -> usize {
    HINTS.with(|h| {
        let h = h.borrow();
        let Some(hint) = h.get(&key) else {
            return 0;
        };
        let scale = (run_bytes, hint.run_bytes);
        for (b, s) in columns.iter_mut().zip(&hint.columns) {
            reserve(b, s, scale);
        }
        scaled(hint.rows, scale)
    })
}
