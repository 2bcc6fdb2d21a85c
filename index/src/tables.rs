//! The tables' Arrow schemas and rows → [`RecordBatch`].
//!
//! Rows of the tables that have a pallet and a name are sorted by
//! (pallet, name, block, index) before they become a batch, so a Parquet
//! row group's pages of those columns hold runs of one value (small after
//! dictionary encoding) and readers can skip by pallet.

use std::mem::MaybeUninit;
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use arrow_array::builder::{
    BooleanBuilder, ListBuilder, StringBuilder, UInt32Builder, UInt64Builder, UInt8Builder,
};
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};

use crate::rows::{BlockRow, CallRow, ErrorRow, EventRow, ExtrinsicRow, Rows};

/// The tables, in the order they are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Table {
    /// One row per block.
    Blocks,
    /// One row per decoded extrinsic.
    Extrinsics,
    /// One row per nested call (the extrinsic's own call is its `extrinsics` row).
    Calls,
    /// One row per event record.
    Events,
    /// One row per item that did not decode.
    Errors,
}

impl Table {
    /// Every table.
    pub const ALL: [Table; 5] = [
        Table::Blocks,
        Table::Extrinsics,
        Table::Calls,
        Table::Events,
        Table::Errors,
    ];

    /// The table's name (its folder in the output).
    pub fn name(self) -> &'static str {
        match self {
            Table::Blocks => "blocks",
            Table::Extrinsics => "extrinsics",
            Table::Calls => "calls",
            Table::Events => "events",
            Table::Errors => "errors",
        }
    }

    /// The table's Arrow schema.
    pub fn schema(self) -> SchemaRef {
        static SCHEMAS: LazyLock<[SchemaRef; 5]> = LazyLock::new(|| Table::ALL.map(build_schema));
        SCHEMAS[self as usize].clone()
    }

    /// Names of the columns rows are sorted by (empty: block order).
    pub fn sort_columns(self) -> &'static [&'static str] {
        match self {
            Table::Extrinsics => &["pallet", "call", "block_number", "index"],
            Table::Calls => &["pallet", "name", "block_number", "extrinsic_index", "index"],
            Table::Events => &["pallet", "name", "block_number", "index"],
            Table::Blocks | Table::Errors => &[],
        }
    }
}

fn field(name: &str, ty: DataType, nullable: bool) -> Field {
    Field::new(name, ty, nullable)
}

fn build_schema(table: Table) -> SchemaRef {
    use DataType::{Boolean, UInt32, UInt64, UInt8, Utf8};
    let fields = match table {
        Table::Blocks => vec![
            field("number", UInt64, false),
            field("hash", Utf8, false),
            field("spec_version", UInt32, false),
            field("extrinsic_count", UInt32, false),
            field("event_count", UInt32, true),
        ],
        Table::Extrinsics => vec![
            field("block_number", UInt64, false),
            field("index", UInt32, false),
            field("version", UInt8, false),
            field("signed", Boolean, false),
            field("address", Utf8, true),
            field("signature", Utf8, true),
            field("nonce", UInt64, true),
            field("tip", Utf8, true),
            field("era", Utf8, true),
            field("mode", Utf8, true),
            field("extension_version", UInt8, true),
            field("extensions", Utf8, true),
            field("pallet", Utf8, false),
            field("call", Utf8, false),
            field("args", Utf8, false),
            field("length", UInt32, false),
            field("hash", Utf8, false),
            field("success", Boolean, true),
        ],
        Table::Calls => vec![
            field("block_number", UInt64, false),
            field("extrinsic_index", UInt32, false),
            field("index", UInt32, false),
            field("parent_index", UInt32, false),
            field("depth", UInt32, false),
            field("pallet", Utf8, false),
            field("name", Utf8, false),
            field("args", Utf8, false),
            field("call_hash", Utf8, false),
        ],
        Table::Events => vec![
            field("block_number", UInt64, false),
            field("index", UInt32, false),
            field("phase", Utf8, false),
            field("extrinsic_index", UInt32, true),
            field("pallet", Utf8, false),
            field("name", Utf8, false),
            field("args", Utf8, false),
            field(
                "topics",
                DataType::List(Arc::new(Field::new("item", Utf8, true))),
                false,
            ),
        ],
        Table::Errors => vec![
            field("block_number", UInt64, false),
            field("item", Utf8, false),
            field("error", Utf8, false),
        ],
    };
    Arc::new(Schema::new(fields))
}

/// Sorts the rows of the tables that have a pallet and a name (see the module doc),
/// each with a parallel sort on the current rayon pool (stable, like the
/// sequential one; on one thread, the sort of a batch's events was a serial
/// stretch between the parallel decode and the parallel table build).
pub fn sort_rows(rows: &mut Rows) {
    use rayon::slice::ParallelSliceMut;
    rows.extrinsics.par_sort_by(|a, b| {
        (&a.pallet, &a.call, a.block_number, a.index).cmp(&(
            &b.pallet,
            &b.call,
            b.block_number,
            b.index,
        ))
    });
    rows.calls.par_sort_by(|a, b| {
        (
            &a.pallet,
            &a.name,
            a.block_number,
            a.extrinsic_index,
            a.index,
        )
            .cmp(&(
                &b.pallet,
                &b.name,
                b.block_number,
                b.extrinsic_index,
                b.index,
            ))
    });
    rows.events.par_sort_by(|a, b| {
        (&a.pallet, &a.name, a.block_number, a.index).cmp(&(
            &b.pallet,
            &b.name,
            b.block_number,
            b.index,
        ))
    });
    rows.blocks.par_sort_by_key(|b| b.number);
    rows.errors.par_sort_by_key(|e| e.block_number);
}

/// The record batch of `table` from `rows` (in the rows' order).
pub fn record_batch(table: Table, rows: &Rows) -> Result<RecordBatch, ArrowError> {
    record_batch_of_rows(table, rows, 0..row_count(table, rows))
}

/// The record batch of rows `range` of `table` (in the rows' order).
///
/// # Panics
///
/// When `range` is not within the table's rows.
pub fn record_batch_of_rows(
    table: Table,
    rows: &Rows,
    range: Range<usize>,
) -> Result<RecordBatch, ArrowError> {
    let columns = match table {
        Table::Blocks => blocks(&rows.blocks[range]),
        Table::Extrinsics => extrinsics(&rows.extrinsics[range]),
        Table::Calls => calls(&rows.calls[range]),
        Table::Events => events(&rows.events[range]),
        Table::Errors => errors(&rows.errors[range]),
    }?;
    RecordBatch::try_new(table.schema(), columns)
}

/// How many rows `table` has in `rows`.
pub fn row_count(table: Table, rows: &Rows) -> usize {
    match table {
        Table::Blocks => rows.blocks.len(),
        Table::Extrinsics => rows.extrinsics.len(),
        Table::Calls => rows.calls.len(),
        Table::Events => rows.events.len(),
        Table::Errors => rows.errors.len(),
    }
}

/// About how many bytes each row of `table` takes in a record batch: its
/// text, plus a fixed part for the numbers and offsets.
pub fn row_sizes(table: Table, rows: &Rows) -> Vec<usize> {
    const FIXED: usize = 32;
    let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
    match table {
        Table::Blocks => rows.blocks.iter().map(|r| FIXED + r.hash.len()).collect(),
        Table::Extrinsics => rows
            .extrinsics
            .iter()
            .map(|r| {
                FIXED
                    + r.args.len()
                    + r.hash.len()
                    + r.pallet.len()
                    + r.call.len()
                    + text(&r.address)
                    + text(&r.signature)
                    + text(&r.extensions)
                    + text(&r.era)
                    + text(&r.tip)
                    + text(&r.mode)
            })
            .collect(),
        Table::Calls => rows
            .calls
            .iter()
            .map(|r| FIXED + r.args.len() + r.call_hash.len() + r.pallet.len() + r.name.len())
            .collect(),
        Table::Events => rows
            .events
            .iter()
            .map(|r| {
                FIXED
                    + r.args.len()
                    + r.phase.len()
                    + r.pallet.len()
                    + r.name.len()
                    + r.topics.iter().map(String::len).sum::<usize>()
            })
            .collect(),
        Table::Errors => rows
            .errors
            .iter()
            .map(|r| FIXED + r.item.len() + r.error.len())
            .collect(),
    }
}

/// The record batches of every table ([`Table::ALL`] order), built in
/// parallel on the current rayon pool. A batch is built by one thread, and
/// building copies every row's JSON text into the columns: one table after
/// another, that copy is a serial stretch after a parallel decode (for
/// block 18468942, a fifth of the single-thread time), which capped the
/// speed-up on two cores; the big JSON columns are in two tables
/// (`extrinsics` and `events`), so building the tables side by side
/// splits it.
pub fn record_batches(rows: &Rows) -> Result<Vec<RecordBatch>, ArrowError> {
    record_batches_of(&Table::ALL, rows)
}

/// The record batches of `tables` (in that order), built side by side as
/// [`record_batches`] builds them all.
pub fn record_batches_of(tables: &[Table], rows: &Rows) -> Result<Vec<RecordBatch>, ArrowError> {
    use rayon::prelude::*;
    tables.par_iter().map(|&t| record_batch(t, rows)).collect()
}

// Every builder is sized up front (the row iterators know their length):
// a builder that starts small grows by doubling, copying its buffers each
// time, and the JSON columns run to a hundred megabytes per partition.

fn u64s(it: impl ExactSizeIterator<Item = Option<u64>>) -> ArrayRef {
    let mut b = UInt64Builder::with_capacity(it.len());
    it.for_each(|v| b.append_option(v));
    Arc::new(b.finish())
}

fn u32s(it: impl ExactSizeIterator<Item = Option<u32>>) -> ArrayRef {
    let mut b = UInt32Builder::with_capacity(it.len());
    it.for_each(|v| b.append_option(v));
    Arc::new(b.finish())
}

fn u8s(it: impl ExactSizeIterator<Item = Option<u8>>) -> ArrayRef {
    let mut b = UInt8Builder::with_capacity(it.len());
    it.for_each(|v| b.append_option(v));
    Arc::new(b.finish())
}

fn bools(it: impl ExactSizeIterator<Item = Option<bool>>) -> ArrayRef {
    let mut b = BooleanBuilder::with_capacity(it.len());
    it.for_each(|v| b.append_option(v));
    Arc::new(b.finish())
}

/// A string column: offsets first, then every value copied into one buffer
/// of the total length. Large columns (the JSON arguments: megabytes per
/// batch, most of the bytes a batch holds) are copied by every thread of the
/// pool at once, each into its own run of the buffer: copied by one thread,
/// the `extrinsics` table's arguments were a serial stretch after the
/// parallel decode. A column past Arrow's 2 GiB of text is an error, not a
/// panic.
fn strs<'a>(it: impl ExactSizeIterator<Item = Option<&'a str>>) -> Result<ArrayRef, ArrowError> {
    let values: Vec<Option<&str>> = it.collect();
    let mut offsets = Vec::with_capacity(values.len() + 1);
    offsets.push(0i32);
    let mut total = 0usize;
    for v in &values {
        total += v.map_or(0, str::len);
        let end = i32::try_from(total).map_err(|_| {
            ArrowError::InvalidArgumentError(format!(
                "a string column of {} rows holds more than Arrow's 2 GiB of text; decode fewer blocks per batch",
                values.len()
            ))
        })?;
        offsets.push(end);
    }
    // Every byte is written by `fill`, so the buffer is not zeroed first:
    // zeroing a column's megabytes cost as much as a tenth of the copy.
    let mut bytes = Vec::with_capacity(total);
    fill(&values, &offsets, &mut bytes.spare_capacity_mut()[..total]);
    // SAFETY: `fill` wrote all `total` bytes (the offsets sum every value's
    // length, and each value is copied between its two offsets).
    unsafe { bytes.set_len(total) };
    let nulls = values
        .iter()
        .any(Option::is_none)
        .then(|| NullBuffer::from_iter(values.iter().map(Option::is_some)));
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    // SAFETY: what `try_new` would check, true by construction: the last
    // offset is the buffer's length, every value is a whole `&str` copied
    // between its two offsets (so each is UTF-8 and starts and ends on a
    // character boundary), and the null buffer, when there is one, has a
    // bit per value. Skipping the check saves a UTF-8 pass over every
    // byte of the column (1.2 % of the index's profile).
    let array = unsafe { StringArray::new_unchecked(offsets, Buffer::from_vec(bytes), nulls) };
    Ok(Arc::new(array))
}

/// Below this many bytes a column is copied by one thread.
const PARALLEL_COPY: usize = 1 << 20;

/// Copies `values` into `bytes` at `offsets` (`values[i]` at
/// `offsets[i]..offsets[i + 1]`), splitting the rows in two halves of about
/// equal bytes, recursively, while a half is large.
fn fill(values: &[Option<&str>], offsets: &[i32], bytes: &mut [MaybeUninit<u8>]) {
    if bytes.len() < PARALLEL_COPY || values.len() < 2 {
        let mut at = 0;
        for v in values.iter().flatten() {
            let to = &mut bytes[at..at + v.len()];
            // SAFETY: `to` and the value have the same length and cannot
            // overlap (one is borrowed mutably, the other shared);
            // `MaybeUninit<u8>` has `u8`'s layout.
            unsafe {
                std::ptr::copy_nonoverlapping(v.as_ptr(), to.as_mut_ptr().cast::<u8>(), v.len())
            };
            at += v.len();
        }
        return;
    }
    // The first row that starts in the second half of the bytes (offsets
    // are relative to this run's start).
    let base = offsets[0];
    let half = base + (bytes.len() / 2) as i32;
    let mid = offsets[..values.len()]
        .partition_point(|&o| o < half)
        .clamp(1, values.len() - 1);
    let split = (offsets[mid] - base) as usize;
    let (low, high) = bytes.split_at_mut(split);
    rayon::join(
        || fill(&values[..mid], &offsets[..=mid], low),
        || fill(&values[mid..], &offsets[mid..], high),
    );
}

fn blocks(rows: &[BlockRow]) -> Result<Vec<ArrayRef>, ArrowError> {
    Ok(vec![
        u64s(rows.iter().map(|r| Some(r.number))),
        strs(rows.iter().map(|r| Some(r.hash.as_str())))?,
        u32s(rows.iter().map(|r| Some(r.spec_version))),
        u32s(rows.iter().map(|r| Some(r.extrinsic_count))),
        u32s(rows.iter().map(|r| r.event_count)),
    ])
}

fn extrinsics(rows: &[ExtrinsicRow]) -> Result<Vec<ArrayRef>, ArrowError> {
    Ok(vec![
        u64s(rows.iter().map(|r| Some(r.block_number))),
        u32s(rows.iter().map(|r| Some(r.index))),
        u8s(rows.iter().map(|r| Some(r.version))),
        bools(rows.iter().map(|r| Some(r.signed))),
        strs(rows.iter().map(|r| r.address.as_deref()))?,
        strs(rows.iter().map(|r| r.signature.as_deref()))?,
        u64s(rows.iter().map(|r| r.nonce)),
        strs(rows.iter().map(|r| r.tip.as_deref()))?,
        strs(rows.iter().map(|r| r.era.as_deref()))?,
        strs(rows.iter().map(|r| r.mode.as_deref()))?,
        u8s(rows.iter().map(|r| r.extension_version)),
        strs(rows.iter().map(|r| r.extensions.as_deref()))?,
        strs(rows.iter().map(|r| Some(r.pallet.as_str())))?,
        strs(rows.iter().map(|r| Some(r.call.as_str())))?,
        strs(rows.iter().map(|r| Some(r.args.as_str())))?,
        u32s(rows.iter().map(|r| Some(r.length))),
        strs(rows.iter().map(|r| Some(r.hash.as_str())))?,
        bools(rows.iter().map(|r| r.success)),
    ])
}

fn calls(rows: &[CallRow]) -> Result<Vec<ArrayRef>, ArrowError> {
    Ok(vec![
        u64s(rows.iter().map(|r| Some(r.block_number))),
        u32s(rows.iter().map(|r| Some(r.extrinsic_index))),
        u32s(rows.iter().map(|r| Some(r.index))),
        u32s(rows.iter().map(|r| Some(r.parent_index))),
        u32s(rows.iter().map(|r| Some(r.depth))),
        strs(rows.iter().map(|r| Some(r.pallet.as_str())))?,
        strs(rows.iter().map(|r| Some(r.name.as_str())))?,
        strs(rows.iter().map(|r| Some(r.args.as_str())))?,
        strs(rows.iter().map(|r| Some(r.call_hash.as_str())))?,
    ])
}

fn events(rows: &[EventRow]) -> Result<Vec<ArrayRef>, ArrowError> {
    let topic_count = rows.iter().map(|r| r.topics.len()).sum();
    let topic_bytes = rows.iter().flat_map(|r| &r.topics).map(String::len).sum();
    let mut topics = ListBuilder::with_capacity(
        StringBuilder::with_capacity(topic_count, topic_bytes),
        rows.len(),
    );
    for r in rows {
        for t in &r.topics {
            topics.values().append_value(t);
        }
        topics.append(true);
    }
    Ok(vec![
        u64s(rows.iter().map(|r| Some(r.block_number))),
        u32s(rows.iter().map(|r| Some(r.index))),
        strs(rows.iter().map(|r| Some(r.phase.as_str())))?,
        u32s(rows.iter().map(|r| r.extrinsic_index)),
        strs(rows.iter().map(|r| Some(r.pallet.as_str())))?,
        strs(rows.iter().map(|r| Some(r.name.as_str())))?,
        strs(rows.iter().map(|r| Some(r.args.as_str())))?,
        Arc::new(topics.finish()),
    ])
}

fn errors(rows: &[ErrorRow]) -> Result<Vec<ArrayRef>, ArrowError> {
    Ok(vec![
        u64s(rows.iter().map(|r| Some(r.block_number))),
        strs(rows.iter().map(|r| Some(r.item.as_str())))?,
        strs(rows.iter().map(|r| Some(r.error.as_str())))?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;

    /// Columns past the parallel threshold (so split and copied by several
    /// threads, at several depths) equal the builder's column: the same
    /// strings, the same nulls, the same offsets.
    #[test]
    fn a_large_column_copied_in_parallel_equals_the_builders() {
        let texts: Vec<String> = (0..3000u32)
            .map(|i| {
                let len = (i as usize * 7919) % 4000;
                // Multi-byte characters too, so a wrong split shows as bad UTF-8.
                format!("{i}é{}", "x".repeat(len))
            })
            .collect();
        let values: Vec<Option<&str>> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| (i % 11 != 3).then_some(t.as_str()))
            .collect();
        assert!(texts.iter().map(String::len).sum::<usize>() > 4 * PARALLEL_COPY);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let ours = pool.install(|| strs(values.iter().copied())).unwrap();
        let mut builder = StringBuilder::new();
        values.iter().for_each(|v| builder.append_option(*v));
        let expected = builder.finish();
        let ours = ours.as_any().downcast_ref::<StringArray>().unwrap();
        assert_eq!(ours, &expected);
        assert_eq!(
            ours.null_count(),
            values.iter().filter(|v| v.is_none()).count()
        );
    }

    #[test]
    fn a_column_without_nulls_has_no_null_buffer() {
        let column = strs(["a", "", "bc"].into_iter().map(Some)).unwrap();
        assert!(column.nulls().is_none());
        assert_eq!(column.len(), 3);
    }
}
