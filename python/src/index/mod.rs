//! Columnar decoding from Python: `ferroscale-index` behind `_core`.
//!
//! [`PySpecDecoder`] (`SpecDecoder`) is one runtime's decoder. It pickles as
//! its metadata bytes and settings; an unpickled one builds its registry
//! lazily, on first use, through a process-wide cache (`shared_decoder`),
//! so a distributed engine that ships it to a worker process once builds the
//! registry once in that process. [`decode_blocks`] decodes a batch of
//! blocks with the GIL released (on the rayon pool) into an [`IndexBatch`],
//! whose tables ([`ArrowTable`]) reach pyarrow (or any Arrow consumer)
//! through the Arrow PyCapsule interface (`__arrow_c_stream__`,
//! `__arrow_c_array__`, `__arrow_c_schema__`): the consumer gets pointers to
//! the Rust buffers, never a copy. Rows are in block order (a table is one
//! record batch per run of blocks decoded together); `IndexBatch::write_parquet`
//! writes them with the index crate's partition writer, which sorts the
//! files' rows by pallet and name.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use ferroscale_index::line_index::LineIndex;
use ferroscale_index::pipeline::{self, Decoders, Options};
use ferroscale_index::source::JsonLines;
use ferroscale_index::{partition, Block, Gaps, Manifest};
use pyo3::exceptions::{PyKeyError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::convert::type_name;
use crate::errors::guard;

mod arrow;
mod decoder;

pub use arrow::{ArrowTable, IndexBatch};
pub use decoder::{index_decoder_stats, restore_spec_decoder, PySpecDecoder};

/// `decoders` (a `SpecDecoder` or an iterable of them) as the index's
/// table, built for the spec versions `wanted` accepts only (an unpickled
/// decoder no block uses stays unbuilt).
fn decoders_arg(decoders: &Bound<'_, PyAny>, wanted: impl Fn(u32) -> bool) -> PyResult<Decoders> {
    let py = decoders.py();
    let mut out = Decoders::new();
    let mut add = |one: &PySpecDecoder| -> PyResult<()> {
        if wanted(one.spec_version) {
            out.insert_shared(one.decoder(py)?);
        }
        Ok(())
    };
    if let Ok(one) = decoders.cast::<PySpecDecoder>() {
        add(one.get())?;
        return Ok(out);
    }
    let items = decoders.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "decoders: expected a SpecDecoder or an iterable of them, got {}",
            type_name(decoders)
        ))
    })?;
    for (i, item) in items.enumerate() {
        let item = item?;
        let one = item.cast::<PySpecDecoder>().map_err(|_| {
            PyTypeError::new_err(format!(
                "decoders[{i}]: expected a SpecDecoder, got {}",
                type_name(&item)
            ))
        })?;
        add(one.get())?;
    }
    Ok(out)
}

/// A block's bytes as decoding reads them: a Python `bytes` object read in
/// place (copying every block's bytes before the parallel decode was a
/// serial stretch of it), or bytes of our own (a `bytearray`'s copy, hex
/// decoded).
enum InputBytes {
    Python(PyBackedBytes),
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for InputBytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            InputBytes::Python(b) => b,
            InputBytes::Owned(b) => b,
        }
    }
}

/// Bytes from `bytes` (read in place), `bytearray` (copied), or `0x` hex text.
fn input_bytes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<InputBytes> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(InputBytes::Python(PyBackedBytes::from(b.clone())));
    }
    bytes_arg(obj, what).map(InputBytes::Owned)
}

/// Bytes from `bytes`, `bytearray`, `memoryview`-like buffers' `bytes()`, or `0x` hex text.
fn bytes_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_str()?;
        let digits = s.strip_prefix("0x").ok_or_else(|| {
            PyValueError::new_err(format!("{what}: text must be 0x-prefixed hex"))
        })?;
        return ferroscale_core::hex::decode(digits)
            .map_err(|e| PyValueError::new_err(format!("{what}: bad hex: {e}")));
    }
    Err(PyTypeError::new_err(format!(
        "{what}: expected bytes, bytearray or 0x-hex str, got {}",
        type_name(obj)
    )))
}

/// One block from a dict (`number`, `hash`, `spec_version`, `extrinsics`,
/// optional `events`) or a sequence in that order.
fn block_arg(i: usize, obj: &Bound<'_, PyAny>) -> PyResult<Block<InputBytes>> {
    let at = |what: &str| format!("blocks[{i}]: {what}");
    let fields: [Option<Bound<'_, PyAny>>; 5] = if let Ok(d) = obj.cast::<PyDict>() {
        let get = |k: &str| d.get_item(k);
        [
            get("number")?,
            get("hash")?,
            get("spec_version")?,
            get("extrinsics")?,
            get("events")?,
        ]
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        tuple_fields(i, t.iter().collect())?
    } else if let Ok(l) = obj.cast::<PyList>() {
        tuple_fields(i, l.iter().collect())?
    } else {
        return Err(PyTypeError::new_err(at(&format!(
            "expected a dict or a tuple (number, hash, spec_version, extrinsics, events), got {}",
            type_name(obj)
        ))));
    };
    let [number, hash, spec_version, extrinsics, events] = fields;
    let need = |v: Option<_>, k: &str| v.ok_or_else(|| PyKeyError::new_err(at(&format!("no {k}"))));
    let number: u64 = need(number, "number")?
        .extract()
        .map_err(|e| PyValueError::new_err(at(&format!("number: {e}"))))?;
    let at = |what: &str| format!("blocks[{i}] (number {number}): {what}");
    let hash = need(hash, "hash")?;
    let hash = if let Ok(s) = hash.cast::<PyString>() {
        s.to_str()?.to_owned()
    } else {
        ferroscale_core::hex::encode_prefixed(&bytes_arg(&hash, &at("hash"))?)
    };
    if hash
        .strip_prefix("0x")
        .and_then(|h| ferroscale_core::hex::decode(h).ok())
        .is_none_or(|h| h.len() != 32)
    {
        return Err(PyValueError::new_err(at(&format!(
            "hash {hash:?} is not 32 bytes (bytes or 0x-hex)"
        ))));
    }
    let spec_version: u32 = need(spec_version, "spec_version")?
        .extract()
        .map_err(|e| PyValueError::new_err(at(&format!("spec_version: {e}"))))?;
    let list = need(extrinsics, "extrinsics")?;
    let items = list.try_iter().map_err(|_| {
        PyTypeError::new_err(at(&format!(
            "extrinsics: expected a list of bytes, got {}",
            type_name(&list)
        )))
    })?;
    let mut extrinsics = Vec::new();
    for (k, x) in items.enumerate() {
        extrinsics.push(input_bytes(&x?, &at(&format!("extrinsics[{k}]")))?);
    }
    let events = match events {
        Some(e) if !e.is_none() => Some(input_bytes(&e, &at("events"))?),
        _ => None,
    };
    // Python's blocks carry no header: the chain checks and the header's
    // columns need a source that has them (a node, a JSON-lines file).
    Ok(Block {
        number,
        hash,
        spec_version,
        extrinsics,
        events,
        header: None,
        finalized: None,
    })
}

fn tuple_fields<'py>(
    i: usize,
    items: Vec<Bound<'py, PyAny>>,
) -> PyResult<[Option<Bound<'py, PyAny>>; 5]> {
    if !(4..=5).contains(&items.len()) {
        return Err(PyValueError::new_err(format!(
            "blocks[{i}]: expected (number, hash, spec_version, extrinsics[, events]), got {} items",
            items.len()
        )));
    }
    let mut it = items.into_iter();
    Ok([it.next(), it.next(), it.next(), it.next(), it.next()])
}

/// Decodes `blocks` (an iterable of dicts or tuples `(number, hash,
/// spec_version, extrinsics, events)`, bytes or `0x` hex) with the decoder
/// of each block's spec version, in parallel with the GIL released. A block
/// whose spec has no decoder, and any item that does not decode, is a row of
/// the `errors` table. `typed`: the typed tables too
/// ([`IndexBatch::typed_tables`]), their columns named over every decoder
/// given (each one's registry is built), so that batches decoded with the
/// same decoders write partitions that agree column for column. `names_of`
/// (typed): an output folder whose typed column names the batch keeps
/// and extends ([`ferroscale_index::saved_naming`], saved there before this
/// returns, as `ferroscale index` saves them before writing a partition),
/// so that its partitions agree with the folder's earlier ones.
#[pyfunction]
#[pyo3(signature = (blocks, decoders, typed=false, names_of=None))]
pub fn decode_blocks(
    py: Python<'_>,
    blocks: &Bound<'_, PyAny>,
    decoders: &Bound<'_, PyAny>,
    typed: bool,
    names_of: Option<PathBuf>,
) -> PyResult<IndexBatch> {
    let items = blocks.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "blocks: expected an iterable of blocks, got {}",
            type_name(blocks)
        ))
    })?;
    let mut list = Vec::new();
    for (i, b) in items.enumerate() {
        list.push(block_arg(i, &b?)?);
    }
    let specs: std::collections::BTreeSet<u32> = list.iter().map(|b| b.spec_version).collect();
    // Typed, every runtime given names the typed tables' columns
    // (`Decoders::naming`): batches decoded with the same decoders agree
    // on what each column holds, whichever runtimes their blocks use.
    let decoders = decoders_arg(decoders, |s| typed || specs.contains(&s))?;
    let numbers = (
        list.iter().map(|b| b.number).min(),
        list.iter().map(|b| b.number).max(),
    );
    let tables = py.detach(|| {
        guard("decoding blocks", || {
            let tables = match (typed, &names_of) {
                (true, Some(out)) => decode_named_in(out, &list, &decoders),
                (true, None) => {
                    pipeline::decode_blocks_typed(&list, &decoders).map_err(|e| e.to_string())
                }
                (false, _) => pipeline::decode_blocks(&list, &decoders).map_err(|e| e.to_string()),
            };
            tables.map_err(|e| PyValueError::new_err(format!("decode_blocks: {e}")))
        })
    })?;
    Ok(IndexBatch {
        tables,
        blocks: numbers,
    })
}

/// `blocks` decoded with the typed tables, their columns named as the
/// output folder `out` names them ([`ferroscale_index::saved_naming`]):
/// its saved naming loaded, every runtime of `decoders` folded in, and
/// saved again when that gave a column (or the folder had none saved).
/// Tasks of one run writing into `out` at once all fold the same runtimes
/// into it, so each saves the same naming.
fn decode_named_in<B: AsRef<[u8]> + Sync>(
    out: &std::path::Path,
    blocks: &[Block<B>],
    decoders: &Decoders,
) -> Result<ferroscale_index::Tables, String> {
    use ferroscale_index::saved_naming;
    let mut naming = saved_naming::load(out).map_err(|e| e.to_string())?;
    let saved = saved_naming::is_saved(out).then(|| naming.column_count());
    let tables =
        pipeline::decode_blocks_named(blocks, decoders, &mut naming).map_err(|e| e.to_string())?;
    if saved != Some(naming.column_count()) {
        saved_naming::save(out, &naming).map_err(|e| e.to_string())?;
    }
    Ok(tables)
}

/// The schema of typed table `name` (`events/Balances.Transfer`,
/// `calls/Timestamp.set`) over every runtime of `decoders` (each one's
/// registry is built), as a table of no rows: its place columns, then every
/// column `decode_blocks(..., typed=True)` with these decoders may give it,
/// so that any batch's table fits it by column name (what a Spark frame
/// declares before its tasks decode anything). A `KeyError` when no runtime
/// of `decoders` has the table.
#[pyfunction]
pub fn typed_table_schema(
    py: Python<'_>,
    decoders: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<ArrowTable> {
    let decoders = decoders_arg(decoders, |_| true)?;
    let (kind, table) = match name.split_once('/') {
        Some(("events", table)) => (ferroscale_index::typed::Kind::Event, table),
        Some(("calls", table)) => (ferroscale_index::typed::Kind::Call, table),
        _ => {
            return Err(PyKeyError::new_err(format!(
                "{name:?} is not a typed table's name (events/<Pallet>.<Event> or \
                 calls/<Pallet>.<call>)"
            )))
        }
    };
    let schema = py.detach(|| {
        guard("naming the typed tables", || {
            let naming = decoders
                .naming()
                .map_err(|e| PyValueError::new_err(format!("typed_table_schema: {e}")))?;
            Ok(naming.schema(kind, table))
        })
    })?;
    let schema = schema.ok_or_else(|| {
        PyKeyError::new_err(format!(
            "no runtime of the decoders has a typed table {name:?}"
        ))
    })?;
    Ok(ArrowTable::empty(name.to_string(), Arc::new(schema)))
}

/// The blocks of a JSON-lines file (the index's file source) whose numbers
/// are in `first..=last`, as tuples `(number, hash, spec_version,
/// extrinsics, events)` for [`decode_blocks`], in file order (GIL
/// released). With a range, only the range's lines are parsed, through the
/// file's line index (built once per process, see `line_index`);
/// without, the whole file is read one line at a time.
#[pyfunction]
#[pyo3(signature = (path, first=None, last=None))]
pub fn read_blocks<'py>(
    py: Python<'py>,
    path: PathBuf,
    first: Option<u64>,
    last: Option<u64>,
) -> PyResult<Bound<'py, PyList>> {
    let blocks = py.detach(|| -> Result<Vec<Block>, String> {
        if first.is_none() && last.is_none() {
            let file =
                std::fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            return JsonLines::new(std::io::BufReader::new(file))
                .map(|b| b.map_err(|e| format!("{}: {e}", path.display())))
                .collect();
        }
        line_index(&path)?.read_range(&path, first.unwrap_or(0), last.unwrap_or(u64::MAX))
    });
    let blocks = blocks.map_err(PyValueError::new_err)?;
    let list = PyList::empty(py);
    for b in blocks {
        let extrinsics = PyList::new(py, b.extrinsics.iter().map(|x| PyBytes::new(py, x)))?;
        let events = b.events.as_deref().map(|e| PyBytes::new(py, e));
        list.append((b.number, b.hash, b.spec_version, extrinsics, events))?;
    }
    Ok(list)
}

/// The files this process has indexed, by path (see [`LineIndex`]).
static LINE_INDEXES: Mutex<BTreeMap<PathBuf, Arc<LineIndex>>> = Mutex::new(BTreeMap::new());

/// `path`'s line index: the one built earlier in this process while the
/// file is unchanged, else a new one. Each task of a distributed run reads
/// one block range of the same file; a worker process indexes the file
/// once instead of parsing all of it for every task.
fn line_index(path: &std::path::Path) -> Result<Arc<LineIndex>, String> {
    let key = std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let cached = LINE_INDEXES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&key)
        .cloned();
    if let Some(index) = cached.filter(|i| i.is_current(&key)) {
        return Ok(index);
    }
    // built outside the lock: another thread may index the same file meanwhile
    let index = Arc::new(LineIndex::build(&key)?);
    LINE_INDEXES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .insert(key, Arc::clone(&index));
    Ok(index)
}

/// Runs the index pipeline (every core; source → decode → Parquet,
/// resumable) over a JSON-lines file, GIL released; returns the summary.
#[pyfunction]
#[pyo3(signature = (source, decoders, out, partition_blocks=1000, threads=None, allow_gaps=false, typed=false))]
#[allow(clippy::too_many_arguments)]
pub fn index_json_lines<'py>(
    py: Python<'py>,
    source: PathBuf,
    decoders: &Bound<'py, PyAny>,
    out: PathBuf,
    partition_blocks: u64,
    threads: Option<usize>,
    allow_gaps: bool,
    typed: bool,
) -> PyResult<Bound<'py, PyDict>> {
    // The file's spec versions are known only while it streams: every
    // decoder is built.
    let mut decoders = decoders_arg(decoders, |_| true)?;
    let mut options = Options::new(out);
    options.partition_blocks = partition_blocks;
    options.threads = threads;
    options.source = source.display().to_string();
    options.gaps = gaps_arg(allow_gaps);
    options.typed = typed;
    let summary = py.detach(|| {
        guard("running the index pipeline", || {
            let file = std::fs::File::open(&source)
                .map_err(|e| PyOSError::new_err(format!("{}: {e}", source.display())))?;
            let lines = JsonLines::new(std::io::BufReader::new(file));
            pipeline::run(lines, &mut decoders, &options)
                .map_err(|e| PyValueError::new_err(format!("{}: {e}", source.display())))
        })
    })?;
    let d = PyDict::new(py);
    d.set_item("blocks", summary.blocks)?;
    d.set_item("skipped_blocks", summary.skipped_blocks)?;
    d.set_item("extrinsics", summary.extrinsics)?;
    d.set_item("calls", summary.calls)?;
    d.set_item("events", summary.events)?;
    d.set_item("errors", summary.errors)?;
    d.set_item("typed_errors", summary.typed_errors)?;
    d.set_item("partitions", summary.partitions)?;
    d.set_item("skipped_partitions", summary.skipped_partitions)?;
    d.set_item("parquet_bytes", summary.parquet_bytes)?;
    d.set_item("seconds", summary.seconds)?;
    Ok(d)
}

/// `allow_gaps` as the index's [`Gaps`].
pub(crate) fn gaps_arg(allow_gaps: bool) -> Gaps {
    if allow_gaps {
        Gaps::Allowed
    } else {
        Gaps::Refused
    }
}

/// The blocks of `first..=last` that the manifest of `out` does not list
/// as done: `(first, last)` runs in order (empty: all done).
#[pyfunction]
pub fn missing_blocks(out: PathBuf, first: u64, last: u64) -> PyResult<Vec<(u64, u64)>> {
    let done = Manifest::scan(&out).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(done.missing(first, last))
}

/// The dataset under `out` checked against its manifest
/// ([`ferroscale_index::check::check`]): a dict with `ok`, `problems` (a
/// list of text), `partitions`, `blocks`, `files`, the report as `text`.
#[pyfunction]
#[pyo3(signature = (out, first=None, last=None, allow_gaps=false))]
pub fn check_index<'py>(
    py: Python<'py>,
    out: PathBuf,
    first: Option<u64>,
    last: Option<u64>,
    allow_gaps: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let gaps = gaps_arg(allow_gaps);
    let report = py.detach(|| {
        guard("checking an index", || {
            Ok(ferroscale_index::check::check(&out, first.zip(last), gaps))
        })
    })?;
    let d = PyDict::new(py);
    d.set_item("ok", report.is_ok())?;
    d.set_item("problems", &report.problems)?;
    d.set_item("partitions", report.partitions)?;
    d.set_item("blocks", report.blocks)?;
    d.set_item("files", report.files)?;
    d.set_item("text", report.to_string())?;
    Ok(d)
}

/// Asks glibc's malloc to keep the memory decoding frees for reuse
/// ([`ferroscale_index::allocator::keep_freed_memory`]); whether it took.
/// Process-wide, so only on request: the module never changes its host's
/// allocator by itself.
#[pyfunction]
pub fn keep_freed_memory() -> bool {
    ferroscale_index::allocator::keep_freed_memory()
}

/// `first..=last` cut at multiples of `width` (the index's partitions): a
/// list of `(first, last)` pairs.
#[pyfunction]
pub fn block_ranges(first: u64, last: u64, width: u64) -> PyResult<Vec<(u64, u64)>> {
    if width < 1 {
        return Err(PyValueError::new_err("width must be at least 1"));
    }
    Ok(partition::block_ranges(first, last, width))
}
