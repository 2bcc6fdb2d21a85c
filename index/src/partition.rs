//! Parquet partitions: one zstd file per table per block range,
//! `DIR/<table>/blocks_<first>_<last>.parquet` (and, with the typed tables,
//! `DIR/typed/<kind>/<table>/blocks_<first>_<last>.parquet` for each typed
//! table with rows), holding every block
//! `first..=last` (a partition with a gap is refused, naming the block).
//!
//! A partition is committed in three steps: its files are written under
//! hidden temporary names (`.blocks_…parquet.tmp`, which `*.parquet` globs
//! do not match) and synced, its manifest entry is written
//! ([`crate::manifest`]), then the files are renamed into place. Resuming
//! asks the manifest which blocks are done; an interrupted run leaves no
//! half-written `.parquet` file. Each file's key-value metadata says what
//! wrote it, from what, and which blocks and runtimes it holds
//! ([`PROVENANCE_KEYS`]).

use std::fmt;
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use arrow_array::{Array, ListArray, RecordBatch, StringArray, UInt32Array, UInt64Array};
use arrow_schema::SchemaRef;
use arrow_select::interleave::interleave_record_batch;
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::format::SortingColumn;
use parquet::schema::types::ColumnPath;
use rayon::prelude::*;

pub use crate::layout::{block_ranges, partition_end, partition_path};
use crate::layout::{file_path, temp_file_path};
use crate::manifest::{self, Entry, FileEntry};
use crate::tables::{Table, Tables};
use crate::typed::TypedTable;

/// A partition that could not be written.
#[derive(Debug)]
pub struct WriteError {
    /// The file being written.
    pub path: PathBuf,
    /// What went wrong.
    pub reason: String,
    /// The partition was refused for what it holds (a block missing, blocks
    /// another partition has), not lost to an I/O failure.
    pub refused: bool,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "writing {}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for WriteError {}

/// A partition's files written under their temporary names
/// ([`write_partition`]), not yet synced, listed or in place.
pub struct Staged {
    out: PathBuf,
    entry: Entry,
    files: Vec<TempFile>,
    folders: Vec<String>,
}

/// One of a partition's files, written under its temporary name.
struct TempFile {
    tmp: PathBuf,
    /// Where it goes once the partition is committed.
    path: PathBuf,
    /// Open, to be synced.
    file: fs::File,
    bytes: u64,
}

/// Writes the tables of blocks `first..=last` as one partition, under
/// temporary names: [`Staged::commit`] then syncs it, records it in the
/// manifest and puts it in place (the work here, the waiting on the disk
/// there, which the pipeline's writer does off the pool so that the next
/// partition's decoding does not wait with it). The rows of the tables that
/// have a pallet and a name are sorted by them ([`Tables::sorted_rows`]).
/// `source` says where the blocks came from (the manifest entry and the
/// files' metadata keep it). The blocks must be exactly `first..=last`, each
/// once: a block missing from the source is an error here, never a
/// partition marked done without it, unless `gaps` allows them (a sample
/// of a chain), when the entry lists the blocks absent. The tables are
/// encoded in parallel on the rayon pool (zstd over the JSON columns is
/// most of a partition's writing time).
pub fn write_partition(
    out: &Path,
    first: u64,
    last: u64,
    tables: &Tables,
    source: &str,
    gaps: Gaps,
) -> Result<Staged, WriteError> {
    let (spec_versions, absent) = check_blocks(out, first, last, tables, gaps)?;
    let (first_parent_hash, last_hash) = chain_ends(tables);
    check_not_done(out, first, last)?;
    let provenance = Provenance {
        source,
        first,
        last,
        spec_versions: &spec_versions,
    };
    let temps = Table::ALL
        .par_iter()
        .map(|table| write_table(out, *table, first, last, tables, &provenance))
        .collect::<Result<Vec<_>, _>>()?;
    // The typed tables with rows (`--typed`), after the generic ones.
    let typed = tables
        .typed()
        .par_iter()
        .map(|t| write_typed(out, t, first, last, &provenance))
        .collect::<Result<Vec<_>, _>>()?;
    let entry = Entry {
        first,
        last,
        absent,
        spec_versions,
        source: source.to_string(),
        decoder: manifest::DECODER.to_string(),
        last_hash,
        first_parent_hash,
        files: Table::ALL
            .iter()
            .zip(&temps)
            .map(|(table, written)| FileEntry {
                table: table.name().to_string(),
                rows: tables.num_rows(*table) as u64,
                bytes: written.bytes,
            })
            .chain(
                tables
                    .typed()
                    .iter()
                    .zip(&typed)
                    .map(|(t, written)| FileEntry {
                        table: t.folder(),
                        rows: t.num_rows() as u64,
                        bytes: written.bytes,
                    }),
            )
            .collect(),
    };
    let folders = Table::ALL
        .iter()
        .map(|t| t.name().to_string())
        .chain(tables.typed().iter().map(TypedTable::folder))
        .collect();
    Ok(Staged {
        out: out.to_path_buf(),
        entry,
        files: temps.into_iter().chain(typed).collect(),
        folders,
    })
}

impl Staged {
    /// Syncs the files, records the partition in the manifest and renames
    /// the files into place; the bytes written.
    pub fn commit(self) -> Result<u64, WriteError> {
        let Staged {
            out,
            entry,
            files,
            folders,
        } = self;
        for TempFile { tmp, file, .. } in &files {
            file.sync_all().map_err(|e| WriteError {
                path: tmp.clone(),
                reason: e.to_string(),
                refused: false,
            })?;
        }
        // The entry first, then the renames: a file in place is always listed,
        // and a run killed in between leaves temporary files the manifest's
        // next opening renames (`Manifest::open`).
        manifest::write_entry(&out, &entry).map_err(|e| WriteError {
            path: out.join(manifest::DIR),
            reason: e.0,
            refused: false,
        })?;
        let mut written = 0;
        for TempFile {
            tmp, path, bytes, ..
        } in files
        {
            fs::rename(&tmp, &path).map_err(|e| WriteError {
                path: path.clone(),
                reason: format!("renaming {} into place: {e}", tmp.display()),
                refused: false,
            })?;
            written += bytes;
        }
        for folder in folders {
            let dir = out.join(folder);
            manifest::sync_dir(&dir).map_err(|e| WriteError {
                path: dir,
                reason: format!("syncing the folder: {e}"),
                refused: false,
            })?;
        }
        Ok(written)
    }
}

/// Refuses a partition over blocks another finished partition holds (the
/// same range is a rewrite of that partition, which its renames replace).
fn check_not_done(out: &Path, first: u64, last: u64) -> Result<(), WriteError> {
    let refuse = |reason: String, refused: bool| WriteError {
        path: out.join(manifest::DIR),
        reason,
        refused,
    };
    let done = manifest::Manifest::scan(out).map_err(|e| refuse(e.0, false))?;
    let overlap = done
        .partitions()
        .find(|&(a, b)| b >= first && a <= last && (a, b) != (first, last));
    match overlap {
        Some((a, b)) => Err(refuse(
            format!(
                "blocks {a}..={b} are done already (partition blocks_{a}_{b}): a partition of \
                 blocks {first}..={last} would hold some twice; write only the blocks the \
                 manifest lacks (`Manifest::missing`)"
            ),
            true,
        )),
        None => Ok(()),
    }
}

/// The parent hash of the first block (when the source gave headers) and
/// the hash of the last, from the `blocks` table.
fn chain_ends(tables: &Tables) -> (Option<String>, Option<String>) {
    let text = |batch: &RecordBatch, name: &str, row: usize| {
        let column = column::<StringArray>(batch, name);
        column.is_valid(row).then(|| column.value(row).to_string())
    };
    let batches = tables.batches(Table::Blocks);
    let first = batches.iter().find(|b| b.num_rows() > 0);
    let last = batches.iter().rev().find(|b| b.num_rows() > 0);
    (
        first.and_then(|b| text(b, "parent_hash", 0)),
        last.and_then(|b| text(b, "hash", b.num_rows() - 1)),
    )
}

/// Whether a partition may lack blocks of its range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Gaps {
    /// Every block of the range must be there (a missing one is an error).
    #[default]
    Refused,
    /// The source is a sample: blocks it lacks are recorded as absent. The
    /// first and last block must still be there.
    Allowed,
}

/// Checks that the `blocks` table holds blocks `first..=last` in order,
/// each once, all of them unless `gaps` allows; returns their spec versions
/// (sorted, each once) and the runs of blocks absent.
#[allow(clippy::type_complexity)]
fn check_blocks(
    out: &Path,
    first: u64,
    last: u64,
    tables: &Tables,
    gaps: Gaps,
) -> Result<(Vec<u32>, Vec<(u64, u64)>), WriteError> {
    let fail = |reason: String| WriteError {
        path: out
            .join(Table::Blocks.name())
            .join(format!("blocks_{first}_{last}.parquet")),
        reason,
        refused: true,
    };
    if last < first {
        return Err(fail(format!(
            "the range ends ({last}) before it starts ({first})"
        )));
    }
    let mut specs = Vec::new();
    let mut absent = Vec::new();
    // The block expected next (`None`: past u64::MAX).
    let mut expected = Some(first);
    for batch in tables.batches(Table::Blocks) {
        let numbers = column::<UInt64Array>(batch, "number");
        let versions = column::<UInt32Array>(batch, "spec_version");
        for (&number, &spec) in numbers.values().iter().zip(versions.values()) {
            let Some(want) = expected.filter(|w| number >= *w && number <= last) else {
                return Err(fail(format!(
                    "block {number} is not one of blocks {first}..={last} in order, each once"
                )));
            };
            if number > want {
                if gaps == Gaps::Refused || want == first {
                    return Err(fail(format!(
                        "block {want} is missing (the blocks go on with {number}); a partition \
                         holds every block of its range"
                    )));
                }
                absent.push((want, number - 1));
            }
            specs.push(spec);
            expected = number.checked_add(1);
        }
    }
    if let Some(want) = expected.filter(|w| *w <= last) {
        return Err(fail(if want == first {
            format!("no blocks: the source gave none of blocks {first}..={last}")
        } else {
            format!(
                "blocks {want}..={last} are missing (the source ended at block {})",
                want - 1
            )
        }));
    }
    specs.sort_unstable();
    specs.dedup();
    Ok((specs, absent))
}

fn column<'a, T: 'static>(batch: &'a RecordBatch, name: &str) -> &'a T {
    batch
        .column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<T>())
        .expect("the blocks table's schema has this column, of this type")
}

/// What the files of a partition say of themselves.
struct Provenance<'a> {
    source: &'a str,
    first: u64,
    last: u64,
    spec_versions: &'a [u32],
}

/// The key-value metadata keys of every Parquet file: what decoded it
/// ([`manifest::DECODER`]), where the blocks came from, its first and last
/// block, and the spec versions of its blocks (comma-separated).
pub const PROVENANCE_KEYS: [&str; 5] = [
    "ferroscale.decoder",
    "ferroscale.source",
    "ferroscale.first_block",
    "ferroscale.last_block",
    "ferroscale.spec_versions",
];

impl Provenance<'_> {
    fn key_values(&self) -> Vec<KeyValue> {
        let specs: Vec<String> = self.spec_versions.iter().map(u32::to_string).collect();
        let values = [
            manifest::DECODER.to_string(),
            self.source.to_string(),
            self.first.to_string(),
            self.last.to_string(),
            specs.join(","),
        ];
        PROVENANCE_KEYS
            .iter()
            .zip(values)
            .map(|(key, value)| KeyValue::new(key.to_string(), value))
            .collect()
    }
}

/// One table of a partition under its temporary name, synced to disk:
/// (temporary path, final path, bytes).
fn write_table(
    out: &Path,
    table: Table,
    first: u64,
    last: u64,
    tables: &Tables,
    provenance: &Provenance<'_>,
) -> Result<TempFile, WriteError> {
    let file = File {
        folder: table.name(),
        schema: table.schema(),
        batches: tables.batches(table).iter().collect(),
        order: tables.sorted_rows(table),
        props: properties(table, provenance),
    };
    write_file(out, file, first, last)
}

/// One typed table of a partition, as [`write_table`]: its rows in block order.
fn write_typed(
    out: &Path,
    table: &TypedTable,
    first: u64,
    last: u64,
    provenance: &Provenance<'_>,
) -> Result<TempFile, WriteError> {
    let folder = table.folder();
    let order = table
        .batches
        .iter()
        .enumerate()
        .flat_map(|(b, batch)| (0..batch.num_rows()).map(move |r| (b, r)))
        .collect();
    // The table's description (its schema's metadata) as a key of the
    // file too: the file's key-value pairs are what Parquet readers show.
    let mut key_values = provenance.key_values();
    let mut described: Vec<_> = table.schema.metadata().iter().collect();
    described.sort();
    key_values.extend(
        described
            .into_iter()
            .map(|(k, v)| KeyValue::new(k.clone(), v.clone())),
    );
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_key_value_metadata(Some(key_values))
        .build();
    let file = File {
        folder: &folder,
        schema: table.schema.clone(),
        batches: table.batches.iter().collect(),
        order,
        props,
    };
    write_file(out, file, first, last)
}

/// What one Parquet file of a partition holds.
struct File<'a> {
    /// The table's folder under the output.
    folder: &'a str,
    schema: SchemaRef,
    batches: Vec<&'a RecordBatch>,
    /// The rows in file order, as (batch, row).
    order: Vec<(usize, usize)>,
    props: WriterProperties,
}

fn write_file(out: &Path, file: File<'_>, first: u64, last: u64) -> Result<TempFile, WriteError> {
    let File {
        folder,
        schema,
        batches,
        order,
        props,
    } = file;
    let tmp = temp_file_path(out, folder, first, last);
    let fail = |reason: String| WriteError {
        path: tmp.clone(),
        reason,
        refused: false,
    };
    if let Some(dir) = tmp.parent() {
        fs::create_dir_all(dir).map_err(|e| fail(format!("creating the folder: {e}")))?;
    }
    let file = fs::File::create(&tmp).map_err(|e| fail(e.to_string()))?;
    let sizes = {
        let by_batch: Vec<Vec<usize>> = batches.iter().copied().map(row_sizes).collect();
        order
            .iter()
            .map(|&(b, r)| by_batch[b][r])
            .collect::<Vec<_>>()
    };
    let groups = row_groups(&sizes, props.max_row_group_size());
    let writer =
        ArrowWriter::try_new(file, schema, Some(props)).map_err(|e| fail(e.to_string()))?;
    let (mut file_writer, columns) = writer
        .into_serialized_writer()
        .map_err(|e| fail(e.to_string()))?;
    // Each row group is built into Arrow, encoded and compressed on its own,
    // side by side with the others, then written in order.
    let encoded = groups
        .into_par_iter()
        .enumerate()
        .map(|(i, range)| {
            let group = match runs_of_rows(&batches, &order[range.clone()]) {
                Some(slices) => slices,
                None => vec![interleave_record_batch(&batches, &order[range])
                    .map_err(|e| format!("building the batch: {e}"))?],
            };
            encode_row_group(&columns, i, &group).map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(fail)?;
    for chunks in encoded {
        let mut row_group = file_writer
            .next_row_group()
            .map_err(|e| fail(e.to_string()))?;
        for chunk in chunks {
            chunk
                .append_to_row_group(&mut row_group)
                .map_err(|e| fail(e.to_string()))?;
        }
        row_group.close().map_err(|e| fail(e.to_string()))?;
    }
    let file = file_writer.into_inner().map_err(|e| fail(e.to_string()))?;
    let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let path = file_path(out, folder, first, last);
    Ok(TempFile {
        tmp,
        path,
        file,
        bytes,
    })
}

/// About how many bytes each row of `batch` takes: its text, plus a fixed
/// part for the numbers and offsets.
fn row_sizes(batch: &RecordBatch) -> Vec<usize> {
    const FIXED: usize = 32;
    let mut sizes = vec![FIXED; batch.num_rows()];
    for column in batch.columns() {
        let any = column.as_any();
        if let Some(text) = any.downcast_ref::<StringArray>() {
            for (row, size) in sizes.iter_mut().enumerate() {
                *size += text.value_length(row) as usize;
            }
        } else if let Some(list) = any.downcast_ref::<ListArray>() {
            let Some(text) = list.values().as_any().downcast_ref::<StringArray>() else {
                continue;
            };
            let (ends, offsets) = (list.value_offsets(), text.value_offsets());
            for (row, size) in sizes.iter_mut().enumerate() {
                let items = ends[row] as usize..ends[row + 1] as usize;
                *size += (offsets[items.end] - offsets[items.start]) as usize;
            }
        }
    }
    sizes
}

/// A table's rows cut into row groups, given each row's size
/// ([`row_sizes`]): consecutive runs of at most `max_rows` rows and about
/// [`ROW_GROUP_BYTES`] each; a large table (the JSON arguments of
/// `extrinsics` and `events`) in about one run per thread of the pool (more
/// when a run would pass [`ROW_GROUP_BYTES`]), so that they are compressed
/// side by side. The rows are sorted before the cut, so every row group is
/// sorted too. No rows, no row group.
///
/// A row group is built into Arrow only when it is encoded, so a
/// partition's columns are never in memory whole: memory stays bounded by
/// the row group size, and a partition's buffers are ones malloc has
/// already handed out for the one before (a hundred-megabyte column is a
/// fresh mapping from the kernel every time, and its page faults, taken on
/// both cores at once, were a third of the pipeline's time).
fn row_groups(sizes: &[usize], max_rows: usize) -> Vec<Range<usize>> {
    let total: usize = sizes.iter().sum();
    let target = if total >= PARALLEL_ROW_GROUPS {
        total
            .div_ceil(rayon::current_num_threads())
            .min(ROW_GROUP_BYTES)
    } else {
        usize::MAX
    };
    let max_rows = max_rows.max(1);
    let mut groups = Vec::new();
    let (mut start, mut bytes) = (0, 0usize);
    for (i, size) in sizes.iter().enumerate() {
        bytes = bytes.saturating_add(*size);
        if bytes >= target || i + 1 - start >= max_rows {
            groups.push(start..i + 1);
            (start, bytes) = (i + 1, 0);
        }
    }
    if start < sizes.len() {
        groups.push(start..sizes.len());
    }
    groups
}

/// From this size a table is cut into about one row group per thread (or
/// more); below it, one row group (small files stay one group).
const PARALLEL_ROW_GROUPS: usize = 4 << 20;

/// The most a row group holds (about): its Arrow columns and their encoded
/// pages stay under glibc's largest threshold for fresh mappings (32 MiB), so
/// they are served from memory malloc already holds.
const ROW_GROUP_BYTES: usize = 16 << 20;

/// Encodes and compresses one row group's columns (`index`: its position
/// in the file).
fn encode_row_group(
    columns: &ArrowRowGroupWriterFactory,
    index: usize,
    group: &[RecordBatch],
) -> Result<Vec<ArrowColumnChunk>, ParquetError> {
    let mut writers = columns.create_column_writers(index)?;
    for batch in group {
        let mut next = writers.iter_mut();
        for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
            for leaf in compute_leaves(field, column)? {
                let writer = next.next().ok_or_else(|| {
                    ParquetError::General(format!("no column writer left for {}", field.name()))
                })?;
                writer.write(&leaf)?;
            }
        }
    }
    writers.into_iter().map(|w| w.close()).collect()
}

/// The rows `order` names as slices of `batches` (no copy), when they are
/// a few long runs of consecutive rows (tables kept in block order); `None`
/// when they are scattered (tables sorted by pallet and name), which are
/// gathered into one batch instead. Gathering the block-ordered tables
/// copied every extrinsic's text once more for nothing.
fn runs_of_rows(batches: &[&RecordBatch], order: &[(usize, usize)]) -> Option<Vec<RecordBatch>> {
    // Shorter runs are cheaper gathered than written slice by slice.
    const SHORTEST_MEAN_RUN: usize = 256;
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for &(b, r) in order {
        match runs.last_mut() {
            Some((rb, start, len)) if *rb == b && *start + *len == r => *len += 1,
            _ => {
                runs.push((b, r, 1));
                if runs.len() * SHORTEST_MEAN_RUN > order.len().max(SHORTEST_MEAN_RUN) {
                    return None;
                }
            }
        }
    }
    Some(
        runs.into_iter()
            .map(|(b, start, len)| batches[b].slice(start, len))
            .collect(),
    )
}

/// zstd, and the sort order and provenance recorded in the file's metadata.
fn properties(table: Table, provenance: &Provenance<'_>) -> WriterProperties {
    let schema = table.schema();
    let sorting: Vec<SortingColumn> = table
        .sort_columns()
        .iter()
        .filter_map(|name| schema.index_of(name).ok())
        .map(|i| SortingColumn {
            column_idx: i as i32,
            descending: false,
            nulls_first: false,
        })
        .collect();
    let mut builder = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_sorting_columns((!sorting.is_empty()).then_some(sorting))
        .set_key_value_metadata(Some(provenance.key_values()));
    // Columns of long, mostly distinct text (JSON, hashes, signatures): a
    // dictionary would hash every value for nothing; zstd compresses them.
    for name in [
        "args",
        "signature",
        "extensions",
        "hash",
        "call_hash",
        "error",
        "bytes",
    ] {
        if schema.index_of(name).is_ok() {
            builder = builder.set_column_dictionary_enabled(ColumnPath::from(name), false);
        }
    }
    // Min/max of JSON text says nothing a reader can skip by, and comparing
    // values of tens of kilobytes costs.
    for name in ["args", "signature", "extensions", "bytes"] {
        if schema.index_of(name).is_ok() {
            builder = builder
                .set_column_statistics_enabled(ColumnPath::from(name), EnabledStatistics::None);
        }
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    use super::{block_ranges, row_groups, ROW_GROUP_BYTES};

    #[test]
    fn row_groups_are_one_per_thread_and_at_most_16_mib() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mib = 1 << 20;
        let groups = |sizes: &[usize], max_rows| pool.install(|| row_groups(sizes, max_rows));
        // Large: cut at 16 MiB, the last group what is left.
        let large = groups(&[mib; 100], usize::MAX);
        assert_eq!(large.len(), 7);
        assert!(large[..6].iter().all(|g| g.len() * mib == ROW_GROUP_BYTES));
        assert_eq!(large[6], 96..100);
        // Between 4 MiB and 2 × 16 MiB: one per thread.
        assert_eq!(groups(&[mib / 2; 10], usize::MAX), [0..5, 5..10]);
        // Small: one group, unless it has more rows than a group may.
        assert_eq!(groups(&[1000; 10], usize::MAX), vec![(0..10)]);
        assert_eq!(groups(&[1000; 10], 3), [0..3, 3..6, 6..9, 9..10]);
        // No rows, no group; one huge row, one group.
        assert!(groups(&[], usize::MAX).is_empty());
        assert_eq!(groups(&[100 * mib], usize::MAX), vec![(0..1)]);
    }

    #[test]
    fn ranges_are_cut_at_multiples_of_the_width() {
        assert_eq!(
            block_ranges(995, 2003, 1000),
            [(995, 999), (1000, 1999), (2000, 2003)]
        );
        assert_eq!(block_ranges(7, 7, 1000), [(7, 7)]);
        assert!(block_ranges(8, 7, 1000).is_empty());
        assert!(block_ranges(0, 7, 0).is_empty());
        assert_eq!(
            block_ranges(u64::MAX - 1, u64::MAX, 10),
            [(u64::MAX - 1, u64::MAX)]
        );
    }
}
