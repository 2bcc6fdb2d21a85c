//! Where a dataset's partitions are: the grid of block numbers they are
//! cut on, and their files' names (`OUT/<table>/blocks_<first>_<last>.parquet`,
//! and the hidden name each is written under first). The writer
//! ([`crate::partition`]), the manifest and the check all name files here.

use std::path::{Path, PathBuf};

use crate::tables::Table;

/// The last block of the partition that starts at `first`: partitions are
/// `width` block numbers wide (blocks `k·w ..= k·w + w − 1`), cut at `to`.
/// `width` must be at least 1.
pub fn partition_end(first: u64, width: u64, to: u64) -> u64 {
    (first - first % width).saturating_add(width - 1).min(to)
}

/// The partitions of blocks `first..=last`, `width` block numbers wide:
/// `(first, last)` pairs, in order (none for an empty range or a zero width).
pub fn block_ranges(first: u64, last: u64, width: u64) -> Vec<(u64, u64)> {
    let mut ranges = Vec::new();
    let mut start = first;
    while width > 0 && start <= last {
        let end = partition_end(start, width, last);
        ranges.push((start, end));
        match end.checked_add(1) {
            Some(next) => start = next,
            None => break,
        }
    }
    ranges
}

/// The file of `table` for blocks `first..=last` under `out`.
pub fn partition_path(out: &Path, table: Table, first: u64, last: u64) -> PathBuf {
    file_path(out, table.name(), first, last)
}

/// The file for blocks `first..=last` of the table in `folder` (a table's
/// name, or a typed table's `typed/events/<Pallet>.<Event>`) under `out`.
pub fn file_path(out: &Path, folder: &str, first: u64, last: u64) -> PathBuf {
    out.join(folder)
        .join(format!("blocks_{first}_{last}.parquet"))
}

/// The hidden name the file of the table in `folder` for blocks
/// `first..=last` is written under before it is renamed into place.
pub(crate) fn temp_file_path(out: &Path, folder: &str, first: u64, last: u64) -> PathBuf {
    out.join(folder)
        .join(format!(".blocks_{first}_{last}.parquet.tmp"))
}

pub use crate::typed::TYPED_DIR;

/// The typed tables' folders under `out`, as `typed/<kind>/<table>`
/// (sorted), read from the disk.
pub(crate) fn typed_folders(out: &Path) -> std::io::Result<Vec<String>> {
    let mut folders = Vec::new();
    for kind in ["events", "calls"] {
        let dir = out.join(TYPED_DIR).join(kind);
        let listing = match std::fs::read_dir(&dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for item in listing {
            let item = item?;
            if item.file_type()?.is_dir() {
                if let Some(name) = item.file_name().to_str() {
                    folders.push(format!("{TYPED_DIR}/{kind}/{name}"));
                }
            }
        }
    }
    folders.sort();
    Ok(folders)
}
