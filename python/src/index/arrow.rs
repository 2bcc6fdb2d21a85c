//! What a decode gives Python: an `IndexBatch` of tables, each an
//! `ArrowTable` that reaches pyarrow (or any Arrow consumer) through the
//! Arrow PyCapsule interface, without a copy.

use std::collections::BTreeMap;
use std::ffi::CStr;
use std::path::PathBuf;

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{Array, RecordBatch, RecordBatchIterator, StructArray};
use arrow_schema::{ArrowError, SchemaRef};
use ferroscale_index::{partition, Table, Tables};
use pyo3::exceptions::{PyKeyError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};

use crate::errors::guard;

pub(crate) fn table_named(name: &str) -> PyResult<Table> {
    Table::ALL
        .into_iter()
        .find(|t| t.name() == name)
        .ok_or_else(|| {
            PyKeyError::new_err(format!(
                "no table {name:?}; the tables are {}",
                Table::ALL.map(Table::name).join(", ")
            ))
        })
}

/// Decoded rows of a batch of blocks: five tables.
#[pyclass(name = "IndexBatch", module = "scalecodec._core", frozen)]
pub struct IndexBatch {
    pub(super) tables: Tables,
    /// The lowest and highest block number of the batch.
    pub(super) blocks: (Option<u64>, Option<u64>),
}

#[pymethods]
impl IndexBatch {
    /// The tables' names.
    #[getter]
    fn tables(&self) -> Vec<&'static str> {
        Table::ALL.map(Table::name).to_vec()
    }

    /// Rows of each table, by name.
    #[getter]
    fn num_rows(&self) -> BTreeMap<&'static str, usize> {
        Table::ALL
            .iter()
            .map(|t| (t.name(), self.tables.num_rows(*t)))
            .collect()
    }

    /// Events and calls that did not fit their typed table (decoded with
    /// `typed=True`): each is also a row of the `errors` table, with its
    /// item, spec version and bytes.
    #[getter]
    fn typed_errors(&self) -> u64 {
        self.tables.typed_errors()
    }

    /// Lowest block number (`None`: no blocks).
    #[getter]
    fn first_block(&self) -> Option<u64> {
        self.blocks.0
    }

    /// Highest block number (`None`: no blocks).
    #[getter]
    fn last_block(&self) -> Option<u64> {
        self.blocks.1
    }

    /// The table `name` (`blocks`, `extrinsics`, `calls`, `events`, `errors`)
    /// as an Arrow table: `pyarrow.table(batch.table("events"))`.
    fn table(&self, name: &str) -> PyResult<ArrowTable> {
        Ok(self.arrow_table(table_named(name)?))
    }

    fn __getitem__(&self, name: &str) -> PyResult<ArrowTable> {
        self.table(name)
    }

    /// Every table, by name in `TABLES` order, as [`IndexBatch::table`]
    /// gives each.
    fn all_tables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tables = PyDict::new(py);
        for table in Table::ALL {
            tables.set_item(table.name(), self.arrow_table(table))?;
        }
        Ok(tables)
    }

    /// The typed tables with rows (decoded with `typed=True`), by name
    /// (`events/Balances.Transfer`, `calls/Timestamp.set`): one per event
    /// variant and per call, a column per field in Arrow's own types.
    fn typed_tables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tables = PyDict::new(py);
        for t in self.tables.typed() {
            let name = format!("{}/{}", t.kind.folder(), t.name);
            let table = ArrowTable {
                name: name.clone(),
                schema: t.schema.clone(),
                batches: t.batches.clone(),
            };
            tables.set_item(name, table)?;
        }
        Ok(tables)
    }

    /// Writes the rows as the Parquet partition of blocks `first..=last`
    /// (default: the lowest and highest block) under `out`, with the index's
    /// writer (zstd, atomic rename, a manifest entry; GIL released); the
    /// batch must hold every block of the range (`allow_gaps`: all but
    /// the blocks of a sample's gaps, recorded as absent). `source` is
    /// recorded as where the blocks came from. Returns the bytes written.
    #[pyo3(signature = (out, first=None, last=None, source="", allow_gaps=false))]
    fn write_parquet(
        &self,
        py: Python<'_>,
        out: PathBuf,
        first: Option<u64>,
        last: Option<u64>,
        source: &str,
        allow_gaps: bool,
    ) -> PyResult<u64> {
        let gaps = super::gaps_arg(allow_gaps);
        let (Some(first), Some(last)) = (first.or(self.blocks.0), last.or(self.blocks.1)) else {
            return Err(PyValueError::new_err(
                "write_parquet: the batch has no blocks; give first and last",
            ));
        };
        if first > last {
            return Err(PyValueError::new_err(format!(
                "write_parquet: first ({first}) is after last ({last})"
            )));
        }
        py.detach(|| {
            guard("writing a Parquet partition", || {
                partition::write_partition(&out, first, last, &self.tables, source, gaps)
                    .and_then(partition::Staged::commit)
                    .map_err(|e| {
                        if !e.refused {
                            PyOSError::new_err(e.to_string())
                        } else {
                            PyValueError::new_err(e.to_string())
                        }
                    })
            })
        })
    }

    fn __repr__(&self) -> String {
        let counts = Table::ALL
            .iter()
            .map(|t| format!("{}={}", t.name(), self.tables.num_rows(*t)))
            .collect::<Vec<_>>()
            .join(", ");
        format!("IndexBatch({counts})")
    }
}

impl IndexBatch {
    fn arrow_table(&self, table: Table) -> ArrowTable {
        ArrowTable {
            name: table.name().to_string(),
            schema: table.schema(),
            batches: self.tables.batches(table).to_vec(),
        }
    }
}

/// One table of an [`IndexBatch`], exported through the Arrow PyCapsule
/// interface (each export hands out pointers to the same Rust buffers).
#[pyclass(name = "ArrowTable", module = "scalecodec._core", frozen)]
pub struct ArrowTable {
    /// `events`, or a typed table's `events/Balances.Transfer`.
    name: String,
    schema: SchemaRef,
    /// The table's record batches (they share their buffers with the
    /// batch's: a clone copies no rows).
    batches: Vec<RecordBatch>,
}

pub(crate) const STREAM: &CStr = c"arrow_array_stream";
pub(crate) const SCHEMA: &CStr = c"arrow_schema";
pub(crate) const ARRAY: &CStr = c"arrow_array";

impl ArrowTable {
    fn batches(&self) -> &[RecordBatch] {
        &self.batches
    }

    /// A table of no rows with `schema`.
    pub(super) fn empty(name: String, schema: SchemaRef) -> ArrowTable {
        ArrowTable {
            name,
            schema,
            batches: Vec::new(),
        }
    }
}

#[pymethods]
impl ArrowTable {
    /// The table's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Number of rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }

    /// The column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.schema
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }

    fn __len__(&self) -> usize {
        self.num_rows()
    }

    /// The schema as an `arrow_schema` capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(self.schema.as_ref())
            .map_err(|e| PyValueError::new_err(format!("{}: schema: {e}", self.name())))?;
        PyCapsule::new_with_value(py, schema, SCHEMA)
    }

    /// The table as an `arrow_array_stream` capsule: its record batches, one
    /// per run of blocks decoded together, in block order.
    /// `requested_schema` is accepted and ignored, as the protocol allows:
    /// the table has one schema.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let batches: Vec<_> = self.batches().iter().cloned().map(Ok).collect();
        let reader = RecordBatchIterator::new(batches, self.schema.clone());
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, STREAM)
    }

    /// The table as a struct array: `(arrow_schema, arrow_array)` capsules
    /// (a table of several record batches is joined into one for it, GIL
    /// released).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let batch = py.detach(|| {
            guard("joining a table's record batches", || {
                let joined = match self.batches.as_slice() {
                    [one] => Ok(one.clone()),
                    several => arrow_select_concat(&self.schema, several),
                };
                joined.map_err(|e| PyValueError::new_err(format!("{}: {e}", self.name())))
            })
        })?;
        let array = StructArray::from(batch);
        let schema = FFI_ArrowSchema::try_from(array.data_type())
            .map_err(|e| PyValueError::new_err(format!("{}: schema: {e}", self.name())))?;
        let array = FFI_ArrowArray::new(&array.to_data());
        Ok((
            PyCapsule::new_with_value(py, schema, SCHEMA)?,
            PyCapsule::new_with_value(py, array, ARRAY)?,
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "ArrowTable({}: {} rows × {} columns)",
            self.name(),
            self.num_rows(),
            self.schema.fields().len()
        )
    }
}

/// A table's record batches joined into one (the index's own join, which
/// copies the rows once).
fn arrow_select_concat(
    schema: &SchemaRef,
    batches: &[RecordBatch],
) -> Result<RecordBatch, ArrowError> {
    ferroscale_index::tables::concat_batches(schema, batches)
}
