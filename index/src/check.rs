//! A dataset verified against its manifest (`ferroscale index --check`):
//! every block once, no gap in the range, every file readable and as the
//! manifest describes it (rows, bytes, the blocks it holds), no partition
//! file the manifest does not list.

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::{Array, UInt64Array};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;

use crate::layout::{file_path, partition_path};
use crate::manifest::{is_typed, unlisted_files, Entry, FileEntry, Manifest};
use crate::partition::Gaps;
use crate::tables::Table;

/// What [`check`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The folder checked.
    pub out: PathBuf,
    /// Finished partitions.
    pub partitions: u64,
    /// Blocks they hold.
    pub blocks: u64,
    /// The first and last block held.
    pub span: Option<(u64, u64)>,
    /// Files read.
    pub files: u64,
    /// Rows of each table ([`Table::ALL`] order).
    pub rows: [u64; 5],
    /// Typed tables' files read (`--typed`).
    pub typed_files: u64,
    /// Rows of the typed tables.
    pub typed_rows: u64,
    /// Blocks of the range in no partition, where gaps are allowed (a
    /// sample); where they are not, each run of them is a problem.
    pub absent_blocks: u64,
    /// What is wrong, each naming the file or the blocks (empty: nothing).
    pub problems: Vec<String>,
}

impl Report {
    /// Whether the dataset is whole and sound.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let span = match self.span {
            Some((a, b)) => format!("blocks {a}..={b}"),
            None => "no blocks".to_string(),
        };
        write!(
            f,
            "{}: {} partitions, {span} ({} blocks), {} files",
            self.out.display(),
            self.partitions,
            self.blocks,
            self.files
        )?;
        for (table, rows) in Table::ALL.iter().zip(self.rows) {
            write!(f, ", {rows} {}", table.name())?;
        }
        if self.typed_files > 0 {
            write!(
                f,
                ", {} typed rows in {} typed files",
                self.typed_rows, self.typed_files
            )?;
        }
        if self.absent_blocks > 0 {
            write!(f, ", {} blocks absent (gaps allowed)", self.absent_blocks)?;
        }
        if self.is_ok() {
            return write!(
                f,
                "\nok: every block once, {}, every file readable and as the manifest lists it",
                if self.absent_blocks > 0 {
                    "gaps only where allowed"
                } else {
                    "no gap"
                }
            );
        }
        write!(f, "\n{} problems:", self.problems.len())?;
        for problem in &self.problems {
            write!(f, "\n- {problem}")?;
        }
        Ok(())
    }
}

/// Checks the dataset under `out`; `range`: the blocks it must hold (else
/// the span of its partitions), without gaps unless `gaps` allows them
/// (then they are counted, [`Report::absent_blocks`]).
pub fn check(out: &Path, range: Option<(u64, u64)>, gaps: Gaps) -> Report {
    let mut report = Report {
        out: out.to_path_buf(),
        ..Report::default()
    };
    let manifest = match Manifest::scan(out) {
        Ok(m) => m,
        Err(e) => {
            report.problems.push(e.0);
            return report;
        }
    };
    let partitions: Vec<(u64, u64)> = manifest.partitions().collect();
    if partitions.is_empty() && !out.join(crate::manifest::DIR).is_dir() {
        report.problems.push(format!(
            "{} has no manifest: not an index output, or one written before manifests",
            out.display()
        ));
    }
    for &(first, last) in &partitions {
        report.partitions += 1;
        report.blocks += last - first + 1;
        match Manifest::read_entry(out, first, last) {
            Ok(entry) => check_partition(out, &entry, &mut report),
            Err(e) => report.problems.push(e.0),
        }
    }
    report.span = partitions
        .first()
        .zip(partitions.last())
        .map(|(a, b)| (a.0, b.1));
    // Gaps: between partitions, and at the ends of the range asked for.
    let (from, to) = match (range, report.span) {
        (Some(r), _) => r,
        (None, Some(span)) => span,
        (None, None) => return with_unlisted(out, &manifest, report),
    };
    for (a, b) in manifest.missing(from, to) {
        match gaps {
            Gaps::Allowed => report.absent_blocks += b - a + 1,
            Gaps::Refused => report
                .problems
                .push(format!("blocks {a}..={b} are in no partition")),
        }
    }
    if let Some(outside) = partitions.iter().find(|(a, b)| *a < from || *b > to) {
        report.problems.push(format!(
            "partition blocks_{}_{} is outside blocks {from}..={to}",
            outside.0, outside.1
        ));
    }
    with_unlisted(out, &manifest, report)
}

fn with_unlisted(out: &Path, manifest: &Manifest, mut report: Report) -> Report {
    match unlisted_files(out, manifest) {
        Ok(stray) => report.problems.extend(
            stray
                .iter()
                .map(|p| format!("{} is not in the manifest", p.display())),
        ),
        Err(e) => report.problems.push(e.0),
    }
    report
}

/// Checks each file of one partition against its entry.
fn check_partition(out: &Path, entry: &Entry, report: &mut Report) {
    let (first, last) = (entry.first, entry.last);
    // The generic tables' files, then the typed tables' (`--typed`).
    let typed = entry.files.get(Table::ALL.len()..).unwrap_or_default();
    if entry.files.len() < Table::ALL.len() || typed.iter().any(|f| !is_typed(&f.table)) {
        report.problems.push(format!(
            "the entry of blocks_{first}_{last} lists {} files, not {} and typed tables' \
             (typed/<kind>/<name>)",
            entry.files.len(),
            Table::ALL.len()
        ));
        return;
    }
    for listed in typed {
        let path = file_path(out, &listed.table, first, last);
        match read_block_numbers(&path, "block_number") {
            Ok((rows, bytes, numbers)) => {
                report.files += 1;
                report.typed_files += 1;
                report.typed_rows += rows;
                for w in unlike_its_entry(listed, rows, bytes, &numbers, first, last) {
                    report.problems.push(format!("{}: {w}", path.display()));
                }
            }
            Err(e) => report.problems.push(format!("{}: {e}", path.display())),
        }
    }
    for (i, (table, listed)) in Table::ALL.iter().zip(&entry.files).enumerate() {
        let path = partition_path(out, *table, first, last);
        let column = if *table == Table::Blocks {
            "number"
        } else {
            "block_number"
        };
        match read_block_numbers(&path, column) {
            Ok((rows, bytes, numbers)) => {
                report.files += 1;
                report.rows[i] += rows;
                let mut wrong = Vec::new();
                if listed.table != table.name() {
                    wrong.push(format!("the entry names table {}", listed.table));
                }
                wrong.extend(unlike_its_entry(listed, rows, bytes, &numbers, first, last));
                if *table == Table::Blocks && !holds_its_blocks(entry, &numbers) {
                    wrong.push(format!(
                        "its blocks are not those of {first}..={last} (less the {} runs the \
                         entry lists as absent), each once, in order",
                        entry.absent.len()
                    ));
                }
                for w in wrong {
                    report.problems.push(format!("{}: {w}", path.display()));
                }
            }
            Err(e) => report.problems.push(format!("{}: {e}", path.display())),
        }
    }
}

/// How a file read as `rows` rows of `bytes` bytes holding blocks `numbers`
/// differs from its entry `listed` of partition `first..=last`.
fn unlike_its_entry(
    listed: &FileEntry,
    rows: u64,
    bytes: u64,
    numbers: &[u64],
    first: u64,
    last: u64,
) -> Vec<String> {
    let mut wrong = Vec::new();
    if rows != listed.rows {
        wrong.push(format!("{rows} rows, the manifest says {}", listed.rows));
    }
    if bytes != listed.bytes {
        wrong.push(format!("{bytes} bytes, the manifest says {}", listed.bytes));
    }
    if let Some(n) = numbers.iter().find(|n| **n < first || **n > last) {
        wrong.push(format!("a row of block {n}, outside {first}..={last}"));
    }
    wrong
}

/// Whether `numbers` are exactly the blocks of the entry's range less those
/// it lists as absent, in order.
fn holds_its_blocks(entry: &Entry, numbers: &[u64]) -> bool {
    let absent = |n: u64| entry.absent.iter().any(|(a, b)| (*a..=*b).contains(&n));
    let mut expected = (entry.first..=entry.last).filter(|n| !absent(*n));
    numbers.iter().all(|n| expected.next() == Some(*n)) && expected.next().is_none()
}

/// A file's rows, its size, and the block numbers of its rows (`column`:
/// `number` of the blocks table, `block_number` of the others), read alone.
fn read_block_numbers(path: &Path, column: &str) -> Result<(u64, u64, Vec<u64>), String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let bytes = file.metadata().map_err(|e| e.to_string())?.len();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| e.to_string())?;
    let rows = builder.metadata().file_metadata().num_rows() as u64;
    let index = builder
        .schema()
        .index_of(column)
        .map_err(|_| format!("no column {column}"))?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), [index]);
    let reader = builder
        .with_projection(mask)
        .build()
        .map_err(|e| e.to_string())?;
    let mut numbers = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| e.to_string())?;
        let values = batch
            .column(0)
            .as_any()
            .downcast_ref::<UInt64Array>()
            .ok_or_else(|| format!("column {column} is not u64"))?;
        numbers.extend(values.iter().flatten());
    }
    Ok((rows, bytes, numbers))
}
