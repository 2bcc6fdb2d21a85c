//! The tables' Arrow schemas, and rows → [`RecordBatch`]es ([`Tables`]).
//!
//! Record batches keep the rows in block order. The Parquet files sort the
//! rows of the tables that have a pallet and a name by (pallet, name,
//! block, index) ([`Tables::sorted_rows`]), so a row group's pages of those
//! columns hold runs of one value (small after dictionary encoding) and
//! readers can skip by pallet.

use std::sync::{Arc, LazyLock};

use arrow_array::{
    Array, ArrayRef, BooleanArray, RecordBatch, StringArray, UInt32Array, UInt64Array, UInt8Array,
};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};

use crate::columns::TextColumn;
use crate::store::Rows;
use crate::typed::TypedTable;

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
            field("parent_hash", Utf8, true),
            field("state_root", Utf8, true),
            field("extrinsics_root", Utf8, true),
            field("digest", Utf8, true),
            field("slot", UInt64, true),
            field("author_index", UInt32, true),
            field("timestamp", UInt64, true),
            field("finalized", Boolean, true),
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
            field("topics", DataType::List(topic_item()), false),
        ],
        Table::Errors => vec![
            field("block_number", UInt64, false),
            field("spec_version", UInt32, false),
            field("item", Utf8, false),
            field("error", Utf8, false),
            field("bytes", Utf8, false),
        ],
    };
    Arc::new(Schema::new(fields))
}

/// Decoded tables: each table's record batches, one per run of blocks
/// decoded together (see [`crate::pipeline::decode_blocks`]), in block
/// order. A table's rows are spread over its batches, never copied into one:
/// an Arrow consumer reads a table of several batches as one (pyarrow's
/// chunked arrays), and [`Tables::concat`] joins them for one that cannot.
#[derive(Clone, Debug)]
pub struct Tables {
    batches: [Vec<RecordBatch>; 5],
    /// The typed tables, when they were decoded (`--typed`), in (kind, name) order.
    typed: Vec<TypedTable>,
    /// Events and calls that did not become typed rows (`errors` rows).
    typed_errors: u64,
}

impl Tables {
    /// The tables of `chunks` (rows of consecutive runs of blocks, in
    /// order): each chunk's columns become one record batch of each table,
    /// their buffers handed over, not copied (a chunk without rows of a
    /// table adds no batch to it).
    pub fn from_rows(chunks: Vec<Rows>) -> Result<Tables, ArrowError> {
        chunks
            .into_iter()
            .map(Rows::into_record_batches)
            .collect::<Result<Vec<_>, _>>()
            .map(Tables::from_runs)
    }

    /// The tables of runs already made record batches
    /// ([`Rows::into_record_batches`], which workers call on their own runs
    /// in parallel), in order; a run without rows of a table adds no batch
    /// to it.
    pub fn from_runs(runs: Vec<[RecordBatch; 5]>) -> Tables {
        let mut batches: [Vec<RecordBatch>; 5] = Default::default();
        for run in runs {
            for (table, batch) in Table::ALL.into_iter().zip(run) {
                if batch.num_rows() > 0 {
                    batches[table as usize].push(batch);
                }
            }
        }
        for table in Table::ALL {
            if batches[table as usize].is_empty() {
                batches[table as usize].push(RecordBatch::new_empty(table.schema()));
            }
        }
        Tables {
            batches,
            typed: Vec::new(),
            typed_errors: 0,
        }
    }

    /// The typed tables (empty unless they were decoded,
    /// [`crate::pipeline::decode_blocks_typed`]); only tables with rows.
    pub fn typed(&self) -> &[TypedTable] {
        &self.typed
    }

    /// Sets the typed tables.
    pub fn set_typed(&mut self, typed: Vec<TypedTable>) {
        self.typed = typed;
    }

    /// How many events and calls did not become typed rows: each is a row
    /// of the `errors` table (its item, spec version, bytes and the typed
    /// table and column it did not fit), counted there too.
    pub fn typed_errors(&self) -> u64 {
        self.typed_errors
    }

    /// Sets [`Tables::typed_errors`].
    pub fn set_typed_errors(&mut self, count: u64) {
        self.typed_errors = count;
    }

    /// `table`'s record batches, in block order (at least one, maybe empty).
    pub fn batches(&self, table: Table) -> &[RecordBatch] {
        &self.batches[table as usize]
    }

    /// How many rows `table` has.
    pub fn num_rows(&self, table: Table) -> usize {
        self.batches(table).iter().map(RecordBatch::num_rows).sum()
    }

    /// `table` as one record batch (its batches' rows copied into one when
    /// there are several).
    pub fn concat(&self, table: Table) -> Result<RecordBatch, ArrowError> {
        match self.batches(table) {
            [one] => Ok(one.clone()),
            several => concat_batches(&table.schema(), several),
        }
    }

    /// The rows of `table` in the order of its Parquet files, as (batch,
    /// row) pairs: rows of the tables that have a pallet and a name sorted
    /// by (pallet, name, then block order), the others in block order.
    pub fn sorted_rows(&self, table: Table) -> Vec<(usize, usize)> {
        let batches = self.batches(table);
        let mut order: Vec<(usize, usize)> = batches
            .iter()
            .enumerate()
            .flat_map(|(b, batch)| (0..batch.num_rows()).map(move |r| (b, r)))
            .collect();
        let [pallet, name, ..] = table.sort_columns() else {
            return order;
        };
        let text = |name: &str| -> Vec<&StringArray> {
            batches
                .iter()
                .map(|b| {
                    b.column_by_name(name)
                        .and_then(|c| c.as_any().downcast_ref::<StringArray>())
                        .expect("the table's schema has this text column")
                })
                .collect()
        };
        let (pallets, names) = (text(pallet), text(name));
        // Stable: rows of one pallet and name stay in block order, which is
        // the rest of the sort key (block, then position).
        order.sort_by(|&(ab, ar), &(bb, br)| {
            (pallets[ab].value(ar), names[ab].value(ar))
                .cmp(&(pallets[bb].value(br), names[bb].value(br)))
        });
        order
    }
}

/// Batches of one schema joined into one record batch (their rows copied
/// once): for a consumer that takes one array, a typed table too.
pub fn concat_batches(
    schema: &SchemaRef,
    batches: &[RecordBatch],
) -> Result<RecordBatch, ArrowError> {
    arrow_select::concat::concat_batches(schema, batches)
}

impl Rows {
    /// The five tables' record batches of these rows ([`Table::ALL`]
    /// order), the columns' buffers handed over, not copied. The error is a
    /// column past Arrow's 2 GiB of 32-bit offsets.
    pub fn into_record_batches(self) -> Result<[RecordBatch; 5], ArrowError> {
        let Rows {
            blocks: b,
            extrinsics: x,
            calls: c,
            events: e,
            errors: r,
            typed: _,
        } = self;
        let batch =
            |table: Table, columns: Vec<ArrayRef>| RecordBatch::try_new(table.schema(), columns);
        Ok([
            batch(
                Table::Blocks,
                vec![
                    u64s(b.number),
                    text(b.hash)?,
                    u32s(b.spec_version),
                    u32s(b.extrinsic_count),
                    optional(b.event_count),
                    text(b.parent_hash)?,
                    text(b.state_root)?,
                    text(b.extrinsics_root)?,
                    text(b.digest)?,
                    Arc::new(UInt64Array::from(b.slot)),
                    optional(b.author_index),
                    Arc::new(UInt64Array::from(b.timestamp)),
                    Arc::new(BooleanArray::from(b.finalized)),
                ],
            )?,
            batch(
                Table::Extrinsics,
                vec![
                    u64s(x.block_number),
                    u32s(x.index),
                    Arc::new(UInt8Array::from(x.version)),
                    Arc::new(BooleanArray::from(x.signed)),
                    text(x.address)?,
                    text(x.signature)?,
                    Arc::new(UInt64Array::from(x.nonce)),
                    text(x.tip)?,
                    text(x.era)?,
                    text(x.mode)?,
                    Arc::new(UInt8Array::from(x.extension_version)),
                    text(x.extensions)?,
                    text(x.pallet)?,
                    text(x.call)?,
                    text(x.args)?,
                    u32s(x.length),
                    text(x.hash)?,
                    Arc::new(BooleanArray::from(x.success)),
                ],
            )?,
            batch(
                Table::Calls,
                vec![
                    u64s(c.block_number),
                    u32s(c.extrinsic_index),
                    u32s(c.index),
                    u32s(c.parent_index),
                    u32s(c.depth),
                    text(c.pallet)?,
                    text(c.name)?,
                    text(c.args)?,
                    text(c.call_hash)?,
                ],
            )?,
            batch(
                Table::Events,
                vec![
                    u64s(e.block_number),
                    u32s(e.index),
                    text(e.phase)?,
                    optional(e.extrinsic_index),
                    text(e.pallet)?,
                    text(e.name)?,
                    text(e.args)?,
                    e.topics.into_array(topic_item())?,
                ],
            )?,
            batch(
                Table::Errors,
                vec![
                    u64s(r.block_number),
                    u32s(r.spec_version),
                    text(r.item)?,
                    text(r.error)?,
                    text(r.bytes)?,
                ],
            )?,
        ])
    }
}

/// The item field of the `events` table's `topics` lists.
fn topic_item() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::Utf8, true))
}

fn u64s(values: Vec<u64>) -> ArrayRef {
    Arc::new(UInt64Array::from(values))
}

fn u32s(values: Vec<u32>) -> ArrayRef {
    Arc::new(UInt32Array::from(values))
}

fn optional(values: Vec<Option<u32>>) -> ArrayRef {
    Arc::new(UInt32Array::from(values))
}

fn text(column: TextColumn) -> Result<ArrayRef, ArrowError> {
    Ok(Arc::new(column.into_array()?))
}
