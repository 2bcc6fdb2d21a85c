//! A dataset verified against its manifest (`ferroscale index --check`):
//! every block once, no gap in the range, every file readable and as the
//! manifest describes it (rows, bytes, the blocks it holds), no partition
//! file the manifest does not list, and every typed file's columns named
//! and typed as the folder's saved naming says ([`crate::saved_naming`]).

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::{Array, UInt64Array};
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;

use crate::layout::{file_path, partition_path};
use crate::manifest::{is_typed, requests, unlisted_files, Entry, FileEntry, Manifest, Request};
use crate::partition::Gaps;
use crate::saved_naming;
use crate::tables::Table;
use crate::typed::schema::place_fields;
use crate::typed::Naming;

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
    /// The ranges runs were asked for, as the manifest records them
    /// ([`crate::manifest::Request`]): without a range given, the dataset
    /// must hold each of them whole.
    pub requested: Vec<Request>,
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
        if !self.requested.is_empty() {
            let ranges: Vec<String> = self
                .requested
                .iter()
                .map(|r| match r.to {
                    Some(to) => format!("{}..={to}", r.from),
                    None => format!("{}.. (followed)", r.from),
                })
                .collect();
            write!(f, "; runs asked for blocks {}", ranges.join(", "))?;
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
    // The typed columns' names and types the folder's runs gave: every
    // typed file must hold them so (a run reads them to name its columns).
    let naming = match saved_naming::is_saved(out) {
        true => saved_naming::load(out)
            .map_err(|e| report.problems.push(e.0))
            .ok(),
        false => None,
    };
    for &(first, last) in &partitions {
        report.partitions += 1;
        report.blocks += last - first + 1;
        match Manifest::read_entry(out, first, last) {
            Ok(entry) => check_partition(out, &entry, naming.as_ref(), &mut report),
            Err(e) => report.problems.push(e.0),
        }
    }
    report.span = partitions
        .first()
        .zip(partitions.last())
        .map(|(a, b)| (a.0, b.1));
    match requests(out) {
        Ok(requested) => report.requested = requested,
        Err(e) => report.problems.push(e.0),
    }
    // Gaps: in the range given; else in each range runs were asked for,
    // and over the span of the partitions no request covers (all of them
    // in a manifest written before requests were recorded).
    let ranges = match range {
        Some(r) => vec![r],
        None => declared_ranges(&report.requested, &partitions, report.span),
    };
    for (from, to) in ranges {
        for (a, b) in manifest.missing(from, to) {
            match gaps {
                Gaps::Allowed => report.absent_blocks += b - a + 1,
                Gaps::Refused => {
                    let asked: Vec<String> = report
                        .requested
                        .iter()
                        .filter(|r| r.from <= b && r.to.is_none_or(|to| a <= to))
                        .map(|r| {
                            format!(
                                "{}..{}",
                                r.from,
                                r.to.map_or(String::new(), |t| format!("={t}"))
                            )
                        })
                        .collect();
                    report
                        .problems
                        .push(if range.is_none() && !asked.is_empty() {
                            format!(
                                "blocks {a}..={b} are in no partition, though a run was asked for \
                             blocks {}",
                                asked.join(" and ")
                            )
                        } else {
                            format!("blocks {a}..={b} are in no partition")
                        });
                }
            }
        }
    }
    if let Some((from, to)) = range {
        if let Some(outside) = partitions.iter().find(|(a, b)| *a < from || *b > to) {
            report.problems.push(format!(
                "partition blocks_{}_{} is outside blocks {from}..={to}",
                outside.0, outside.1
            ));
        }
    }
    with_unlisted(out, &manifest, report)
}

/// The ranges a dataset without a range given must hold whole, disjoint
/// and in order: each request's (one without an end up to the last
/// partition; none when nothing from its start on is written yet), also
/// when no partition is written at all (a run that failed before its
/// first partition left nothing of what it was asked for), and, when some
/// partition is outside every request, the span of the partitions `span`
/// (the rule for manifests written before requests were recorded).
fn declared_ranges(
    requested: &[Request],
    partitions: &[(u64, u64)],
    span: Option<(u64, u64)>,
) -> Vec<(u64, u64)> {
    let mut ranges: Vec<(u64, u64)> = requested
        .iter()
        .filter_map(|r| {
            let to = r.to.or(span.map(|s| s.1))?;
            (to >= r.from).then_some((r.from, to))
        })
        .collect();
    let covered = |(a, b): (u64, u64)| {
        requested
            .iter()
            .any(|r| r.from <= a && r.to.is_none_or(|to| b <= to))
    };
    if let Some(span) = span.filter(|_| partitions.iter().any(|p| !covered(*p))) {
        ranges.push(span);
    }
    // Overlapping ranges merged, so that a gap is named once.
    ranges.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
    for (a, b) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    merged
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

/// Checks each file of one partition against its entry, and each typed
/// file's columns against the folder's saved `naming` when it has one.
fn check_partition(out: &Path, entry: &Entry, naming: Option<&Naming>, report: &mut Report) {
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
            Ok((rows, bytes, numbers, schema)) => {
                report.files += 1;
                report.typed_files += 1;
                report.typed_rows += rows;
                let mut wrong = unlike_its_entry(listed, rows, bytes, &numbers, first, last);
                if let Some(naming) = naming {
                    wrong.extend(unlike_the_naming(naming, &listed.table, &schema));
                }
                for w in wrong {
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
            Ok((rows, bytes, numbers, _)) => {
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

/// How the data columns of the typed file of `folder` (`typed/<kind>/<name>`),
/// whose schema is `schema`, differ from the saved `naming`: a column it
/// does not name, or names with another type.
fn unlike_the_naming(naming: &Naming, folder: &str, schema: &SchemaRef) -> Vec<String> {
    let Some((kind, name)) = saved_naming::typed_table(folder) else {
        return vec![format!("{folder} is no typed table's folder")];
    };
    let Some(saved) = naming.schema(kind, name) else {
        return vec![format!(
            "table {name} is not in the saved naming ({})",
            saved_naming::FILE
        )];
    };
    let place: Vec<String> = place_fields(kind)
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let mut wrong = Vec::new();
    for field in schema.fields() {
        if place.contains(field.name()) {
            continue;
        }
        match saved.field_with_name(field.name()) {
            Err(_) => wrong.push(format!(
                "column {} is not in the saved naming ({})",
                field.name(),
                saved_naming::FILE
            )),
            Ok(given) if given.data_type() != field.data_type() => wrong.push(format!(
                "column {} is {}, the saved naming gives it as {}",
                field.name(),
                field.data_type(),
                given.data_type()
            )),
            Ok(_) => {}
        }
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

/// A file's rows, its size, the block numbers of its rows (`column`:
/// `number` of the blocks table, `block_number` of the others, read alone)
/// and its schema.
fn read_block_numbers(
    path: &Path,
    column: &str,
) -> Result<(u64, u64, Vec<u64>, SchemaRef), String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let bytes = file.metadata().map_err(|e| e.to_string())?.len();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| e.to_string())?;
    let rows = builder.metadata().file_metadata().num_rows() as u64;
    let schema = builder.schema().clone();
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
    Ok((rows, bytes, numbers, schema))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(from: u64, to: Option<u64>) -> Request {
        Request { from, to }
    }

    #[test]
    fn a_dataset_is_held_to_the_ranges_runs_were_asked_for() {
        // Two disjoint requests, both written whole: the blocks between
        // them are no gap.
        let parts = [(100, 109), (200, 209)];
        let asked = [r(100, Some(109)), r(200, Some(209))];
        assert_eq!(
            declared_ranges(&asked, &parts, Some((100, 209))),
            [(100, 109), (200, 209)]
        );
        // Overlapping requests merge; one without an end reaches the last
        // partition, or nothing when nothing from its start is written.
        let asked = [r(100, Some(150)), r(120, Some(180)), r(300, None)];
        assert_eq!(
            declared_ranges(&asked, &[(100, 180)], Some((100, 180))),
            [(100, 180)]
        );
        assert_eq!(
            declared_ranges(&[r(100, None)], &[(100, 109), (110, 119)], Some((100, 119))),
            [(100, 119)]
        );
        // A partition no request covers (an older run's): the span too.
        assert_eq!(
            declared_ranges(&[r(200, Some(209))], &parts, Some((100, 209))),
            [(100, 209)]
        );
        // No request at all (a manifest from before they were recorded):
        // the span, as before.
        assert_eq!(declared_ranges(&[], &parts, Some((100, 209))), [(100, 209)]);
    }
}
