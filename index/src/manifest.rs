//! The dataset's manifest: which blocks are done, by block number.
//!
//! Each finished partition has an entry, `OUT/_manifest/blocks_<first>_<last>.json`
//! ([`Entry`]): every block `first..=last` is in its files, once, but those
//! the entry lists as absent from the source, which only a run that allows
//! gaps writes (a sample of a chain); otherwise [`crate::partition`]
//! refuses a partition with a gap, naming the block. Either way the
//! blocks of the range are done. Resuming asks the manifest which blocks are done
//! ([`Manifest::missing`]), never whether a file of some name exists, so a
//! rerun over another range, with another partition width or over a source
//! that grew neither doubles nor skips a block.
//!
//! A partition is committed in three steps ([`crate::partition::write_partition`],
//! then [`crate::partition::Staged::commit`]):
//! its files are written under hidden temporary names and synced, its entry
//! is written (atomically: a temporary file renamed), then the files are
//! renamed into place. A reader globbing `*.parquet` never sees a file the
//! manifest does not list; a run killed between the entry and the renames
//! leaves temporary files that the next [`Manifest::open`] renames into
//! place. The folder's name starts with `_`, which Spark, Dask and DuckDB
//! readers of `OUT/<table>/` never look at.
//!
//! The typed tables' column names are kept in the same folder
//! (`typed_columns.json`, [`crate::saved_naming`]), so that every run into
//! the output names them as the runs before it did.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::layout::{
    block_ranges, file_path, partition_path, temp_file_path, typed_folders, TYPED_DIR,
};
use crate::tables::Table;

/// The manifest's folder under the output folder.
pub const DIR: &str = "_manifest";

/// What wrote the files: this crate and its version (the Parquet files'
/// `ferroscale.decoder` and every manifest entry say it).
pub const DECODER: &str = concat!("ferroscale-index ", env!("CARGO_PKG_VERSION"));

/// One finished partition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Its first block.
    pub first: u64,
    /// Its last block.
    pub last: u64,
    /// Blocks of `first..=last` the source did not have, as `(first, last)`
    /// runs: empty unless the run allowed gaps (a sample of a chain). Every
    /// other block of the range is in the partition, once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<(u64, u64)>,
    /// The runtimes its blocks use.
    pub spec_versions: Vec<u32>,
    /// Where the blocks came from (a file, a node's URL, a caller's words).
    pub source: String,
    /// What decoded them ([`DECODER`]).
    pub decoder: String,
    /// Its files: one per table, in [`Table::ALL`]'s order, then one per
    /// typed table with rows (`typed/<kind>/<name>`, in that order) when
    /// the run wrote them.
    pub files: Vec<FileEntry>,
    /// The hash of its last block: the next partition's first block must
    /// name it as its parent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_hash: Option<String>,
    /// The parent hash of its first block, when the source gave headers:
    /// the block before must have it as its hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_parent_hash: Option<String>,
}

impl Manifest {
    /// The finished partition that starts at block `first`, if any.
    pub fn partition_starting(&self, first: u64) -> Option<(u64, u64)> {
        self.done.get(&first).map(|last| (first, *last))
    }
}

/// A range a run was asked to index (`OUT/_manifest/requested_<from>_<to>.json`,
/// `requested_<from>_on.json` for a run that follows the chain): what
/// [`crate::check::check`] holds the dataset to when no range is given.
/// Written before the run's first partition, so a run that stops short
/// leaves a gap the check names. Manifests written before these records
/// have none, and are checked over the span of their partitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The first block asked for.
    pub from: u64,
    /// The last block asked for; `None`: no end (`--follow`), the blocks
    /// from `from` up to the last one written.
    pub to: Option<u64>,
}

impl Request {
    /// Whether every block this request asks for, `other` asks for too.
    pub fn within(&self, other: &Request) -> bool {
        other.from <= self.from
            && match (self.to, other.to) {
                (_, None) => true,
                (Some(a), Some(b)) => a <= b,
                (None, Some(_)) => false,
            }
    }

    /// The file name of this request's record.
    pub fn file_name(&self) -> String {
        match self.to {
            Some(to) => format!("{REQUEST_PREFIX}{}_{to}.json", self.from),
            None => format!("{REQUEST_PREFIX}{}_on.json", self.from),
        }
    }
}

/// The file-name prefix of a [`Request`]'s record.
const REQUEST_PREFIX: &str = "requested_";

/// The requests recorded in the manifest of `out`, in order of their first
/// block (none for a manifest written before they were recorded, or no
/// manifest at all). A record that does not read is an error naming it.
pub fn requests(out: &Path) -> Result<Vec<Request>, ManifestError> {
    let dir = out.join(DIR);
    let listing = match fs::read_dir(&dir) {
        Ok(listing) => listing,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(ManifestError(format!("reading {}: {e}", dir.display()))),
    };
    let mut requests = Vec::new();
    for item in listing {
        let item = item.map_err(|e| ManifestError(format!("reading {}: {e}", dir.display())))?;
        let name = item.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.starts_with(REQUEST_PREFIX) || !name.ends_with(".json") {
            continue;
        }
        let path = dir.join(name);
        let fail = |reason: String| ManifestError(format!("{}: {reason}", path.display()));
        let text = fs::read(&path).map_err(|e| fail(e.to_string()))?;
        let request: Request = serde_json::from_slice(&text)
            .map_err(|e| fail(format!("not a request record: {e}")))?;
        if request.to.is_some_and(|to| to < request.from) || request.file_name() != name {
            return Err(fail(format!(
                "the record says blocks {}..{}",
                request.from,
                request.to.map_or(String::new(), |t| format!("={t}"))
            )));
        }
        requests.push(request);
    }
    requests.sort_by_key(|r| (r.from, r.to.is_none(), r.to));
    Ok(requests)
}

/// Records that a run was asked for `request` in the manifest of `out`
/// (atomically, as entries are), unless a recorded request already asks
/// for every block of it (a rerun, a step of a followed chain).
pub fn declare(out: &Path, request: Request) -> Result<(), ManifestError> {
    if request.to.is_some_and(|to| to < request.from) {
        return Ok(());
    }
    if requests(out)?.iter().any(|r| request.within(r)) {
        return Ok(());
    }
    let text = serde_json::to_vec_pretty(&request).map_err(|e| ManifestError(e.to_string()))?;
    write_atomically(&out.join(DIR), &request.file_name(), &text)
}

/// Writes `text` as `dir/name`: a temporary file, synced, renamed over the
/// name, the folder synced after.
pub(crate) fn write_atomically(dir: &Path, name: &str, text: &[u8]) -> Result<(), ManifestError> {
    let path = dir.join(name);
    // A temporary name of this process and call: two writers recording the
    // same thing (a task and its retry) never rename each other's file.
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}-{call}.tmp", std::process::id()));
    let fail = |e: std::io::Error| ManifestError(format!("writing {}: {e}", path.display()));
    fs::create_dir_all(dir).map_err(fail)?;
    let mut file = fs::File::create(&tmp).map_err(fail)?;
    file.write_all(text).map_err(fail)?;
    file.sync_all().map_err(fail)?;
    fs::rename(&tmp, &path).map_err(fail)?;
    sync_dir(dir).map_err(fail)
}

/// One table's file of a partition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// The table (its folder).
    pub table: String,
    /// Rows in the file.
    pub rows: u64,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// Why the manifest cannot be trusted as it is; each names the file.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestError(pub String);

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ManifestError {}

/// The file name of the entry of blocks `first..=last`.
pub fn entry_name(first: u64, last: u64) -> String {
    format!("blocks_{first}_{last}.json")
}

/// The block range a partition's file name (`blocks_<first>_<last>` with
/// `suffix`) names.
pub(crate) fn parse_name(name: &str, suffix: &str) -> Option<(u64, u64)> {
    let (first, last) = name
        .strip_prefix("blocks_")?
        .strip_suffix(suffix)?
        .split_once('_')?;
    let (first, last) = (first.parse().ok()?, last.parse().ok()?);
    (first <= last).then_some((first, last))
}

/// The finished partitions of an output folder, by first block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifest {
    /// `first → last` of every entry (no two overlap).
    done: BTreeMap<u64, u64>,
}

impl Manifest {
    /// The manifest of `out` as a run that writes there needs it: the
    /// folder created if absent, partitions whose entry was written but not
    /// all their files renamed completed, and refused (an error naming
    /// them) when entries overlap, an entry's file is gone, or a table
    /// folder holds partitions the manifest does not list (a dataset
    /// written before manifests, or files moved in by hand): either would
    /// double or lose blocks silently.
    pub fn open(out: &Path) -> Result<Manifest, ManifestError> {
        let dir = out.join(DIR);
        fs::create_dir_all(&dir)
            .map_err(|e| ManifestError(format!("creating {}: {e}", dir.display())))?;
        let manifest = Manifest::scan(out)?;
        for (&first, &last) in &manifest.done {
            complete(out, first, last)?;
        }
        if let Some(stray) = unlisted_files(out, &manifest)?.first() {
            return Err(ManifestError(format!(
                "{} is not in the manifest ({}): ferroscale-index before 0.2 wrote no \
                 manifest, and a file moved in by hand could double blocks; index into a \
                 new folder, or move the files the manifest does not list away",
                stray.display(),
                dir.display()
            )));
        }
        Ok(manifest)
    }

    /// The entries' ranges as the folder holds them, without checking their
    /// files (a missing folder: no entries). Overlapping entries are an error.
    pub fn scan(out: &Path) -> Result<Manifest, ManifestError> {
        let dir = out.join(DIR);
        let mut done = BTreeMap::new();
        let listing = match fs::read_dir(&dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Manifest { done }),
            Err(e) => return Err(ManifestError(format!("reading {}: {e}", dir.display()))),
        };
        for item in listing {
            let item =
                item.map_err(|e| ManifestError(format!("reading {}: {e}", dir.display())))?;
            let name = item.file_name();
            let Some((first, last)) = name.to_str().and_then(|n| parse_name(n, ".json")) else {
                continue;
            };
            done.insert(first, last);
        }
        let mut previous: Option<(u64, u64)> = None;
        for (&first, &last) in &done {
            if let Some((a, b)) = previous.filter(|(_, b)| first <= *b) {
                return Err(ManifestError(format!(
                    "{}: partitions blocks_{a}_{b} and blocks_{first}_{last} overlap (two runs \
                     wrote into one folder at once?); remove one entry and its files",
                    dir.display()
                )));
            }
            previous = Some((first, last));
        }
        Ok(Manifest { done })
    }

    /// The finished partitions, `(first, last)` in block order.
    pub fn partitions(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.done.iter().map(|(a, b)| (*a, *b))
    }

    /// The finished partition that holds block `number`, if any.
    pub fn partition_of(&self, number: u64) -> Option<(u64, u64)> {
        self.done
            .range(..=number)
            .next_back()
            .filter(|(_, last)| number <= **last)
            .map(|(a, b)| (*a, *b))
    }

    /// The blocks of `first..=last` not done yet, as `(first, last)` runs in
    /// order (empty when every one is done).
    pub fn missing(&self, first: u64, last: u64) -> Vec<(u64, u64)> {
        let mut runs = Vec::new();
        if first > last {
            return runs;
        }
        let mut next = Some(first);
        // The entry that holds `first`, if any, then every entry starting
        // inside the range.
        let before = self.done.range(..first).next_back();
        let inside = self.done.range(first..=last);
        for (&a, &b) in before.into_iter().chain(inside) {
            let Some(at) = next else { break };
            if b < at {
                continue;
            }
            if a > at {
                runs.push((at, a - 1));
            }
            next = b.checked_add(1).filter(|n| *n <= last);
        }
        if let Some(at) = next {
            runs.push((at, last));
        }
        runs
    }

    /// Whether any block of `first..=last` is done.
    pub fn any_done(&self, first: u64, last: u64) -> bool {
        first <= last && self.missing(first, last) != [(first, last)]
    }

    /// The partitions a run over `first..=last` writes: the partition grid
    /// (`width` block numbers, see [`block_ranges`]) cut further around
    /// the blocks already done.
    pub fn plan(&self, first: u64, last: u64, width: u64) -> Vec<(u64, u64)> {
        block_ranges(first, last, width)
            .into_iter()
            .flat_map(|(a, b)| self.missing(a, b))
            .collect()
    }

    /// The entry of partition `first..=last`, read from its file.
    pub fn read_entry(out: &Path, first: u64, last: u64) -> Result<Entry, ManifestError> {
        let path = out.join(DIR).join(entry_name(first, last));
        let text = fs::read(&path)
            .map_err(|e| ManifestError(format!("reading {}: {e}", path.display())))?;
        let entry: Entry = serde_json::from_slice(&text)
            .map_err(|e| ManifestError(format!("{}: not a manifest entry: {e}", path.display())))?;
        if (entry.first, entry.last) != (first, last) {
            return Err(ManifestError(format!(
                "{}: the entry is of blocks {}..={}",
                path.display(),
                entry.first,
                entry.last
            )));
        }
        Ok(entry)
    }
}

/// Writes `entry` into the manifest of `out`, atomically (a temporary file,
/// synced, renamed over the name; the folder synced after).
pub fn write_entry(out: &Path, entry: &Entry) -> Result<(), ManifestError> {
    let text = serde_json::to_vec_pretty(entry).map_err(|e| ManifestError(e.to_string()))?;
    write_atomically(&out.join(DIR), &entry_name(entry.first, entry.last), &text)
}

/// Syncs a folder, so that a rename in it outlives a crash.
pub(crate) fn sync_dir(dir: &Path) -> std::io::Result<()> {
    fs::File::open(dir)?.sync_all()
}

/// Makes sure every file of partition `first..=last` is in place: one whose
/// entry was written but which was not renamed yet (a run killed between
/// the two) is renamed now, once its size is the entry's; one that is gone
/// is an error.
fn complete(out: &Path, first: u64, last: u64) -> Result<(), ManifestError> {
    let mut entry = None;
    for table in Table::ALL {
        if partition_path(out, table, first, last).is_file() {
            continue;
        }
        let entry = match &entry {
            Some(entry) => entry,
            None => entry.insert(Manifest::read_entry(out, first, last)?),
        };
        complete_file(out, entry, table.name())?;
    }
    // The typed tables' files, when the output has any: which tables a
    // partition has, only its entry says.
    if out.join(TYPED_DIR).is_dir() {
        let entry = match entry {
            Some(entry) => entry,
            None => Manifest::read_entry(out, first, last)?,
        };
        for file in entry.files.iter().filter(|f| is_typed(&f.table)) {
            if !file_path(out, &file.table, first, last).is_file() {
                complete_file(out, &entry, &file.table)?;
            }
        }
    }
    Ok(())
}

/// Whether a file entry's table is a typed table (`typed/<kind>/<name>`).
pub(crate) fn is_typed(table: &str) -> bool {
    table
        .strip_prefix(TYPED_DIR)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// Renames the file of the table in `folder` into place, from its
/// temporary name, if that is the file the entry lists; else an error.
fn complete_file(out: &Path, entry: &Entry, folder: &str) -> Result<(), ManifestError> {
    let (first, last) = (entry.first, entry.last);
    let path = file_path(out, folder, first, last);
    let tmp = temp_file_path(out, folder, first, last);
    let listed = entry.files.iter().find(|f| f.table == folder);
    let written = fs::metadata(&tmp).map(|m| m.len()).ok();
    // The temporary file is the one the entry describes: written and
    // synced before the entry was. Another process finishing the same
    // partition may rename it first.
    let renamed = written.is_some() && written == listed.map(|f| f.bytes);
    if (renamed && fs::rename(&tmp, &path).is_ok()) || path.is_file() {
        return Ok(());
    }
    Err(ManifestError(format!(
        "{} is missing, though the manifest lists it ({}); remove that entry and the \
         partition's other files to index those blocks again",
        path.display(),
        out.join(DIR).join(entry_name(first, last)).display()
    )))
}

/// Partition files (`blocks_*.parquet`) under the table folders of `out`
/// that no entry of `manifest` lists.
pub fn unlisted_files(out: &Path, manifest: &Manifest) -> Result<Vec<PathBuf>, ManifestError> {
    let mut stray = Vec::new();
    let typed = typed_folders(out)
        .map_err(|e| ManifestError(format!("reading {}: {e}", out.join(TYPED_DIR).display())))?;
    let folders = Table::ALL.iter().map(|t| t.name().to_string()).chain(typed);
    for folder in folders {
        let dir = out.join(folder);
        let listing = match fs::read_dir(&dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(ManifestError(format!("reading {}: {e}", dir.display()))),
        };
        for item in listing {
            let item =
                item.map_err(|e| ManifestError(format!("reading {}: {e}", dir.display())))?;
            let name = item.file_name();
            let Some(name) = name.to_str() else { continue };
            if !name.ends_with(".parquet") {
                continue;
            }
            let listed = parse_name(name, ".parquet")
                .is_some_and(|(a, b)| manifest.done.get(&a) == Some(&b));
            if !listed {
                stray.push(dir.join(name));
            }
        }
    }
    stray.sort();
    Ok(stray)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(entries: &[(u64, u64)]) -> Manifest {
        Manifest {
            done: entries.iter().copied().collect(),
        }
    }

    #[test]
    fn missing_blocks_are_the_runs_between_entries() {
        let m = manifest(&[(110, 112), (115, 119)]);
        assert_eq!(m.missing(100, 130), [(100, 109), (113, 114), (120, 130)]);
        assert_eq!(m.missing(110, 112), []);
        assert_eq!(m.missing(111, 116), [(113, 114)]);
        assert_eq!(m.missing(113, 113), [(113, 113)]);
        assert_eq!(m.missing(131, 130), []);
        assert_eq!(m.missing(118, 125), [(120, 125)]);
        assert_eq!(m.partition_of(110), Some((110, 112)));
        assert_eq!(m.partition_of(119), Some((115, 119)));
        assert_eq!(m.partition_of(113).or(m.partition_of(120)), None);
        let end = manifest(&[(u64::MAX - 1, u64::MAX)]);
        assert_eq!(
            end.missing(u64::MAX - 3, u64::MAX),
            [(u64::MAX - 3, u64::MAX - 2)]
        );
    }

    #[test]
    fn a_plan_cuts_the_grid_around_what_is_done() {
        // Written with width 5, resumed with width 7 over a longer range.
        let m = manifest(&[(110, 114), (115, 119)]);
        assert_eq!(m.plan(110, 130, 7), [(120, 125), (126, 130)]);
        assert_eq!(m.plan(100, 112, 1000), [(100, 109)]);
    }

    #[test]
    fn requests_are_recorded_once_and_read_back() {
        let out = std::env::temp_dir().join(format!("ferroscale-requests-{}", std::process::id()));
        let _ = fs::remove_dir_all(&out);
        assert_eq!(requests(&out).unwrap(), []);
        let r = |from, to| Request { from, to };
        declare(&out, r(110, Some(120))).unwrap();
        declare(&out, r(112, Some(115))).unwrap(); // within 110..=120: not recorded
        declare(&out, r(200, None)).unwrap();
        declare(&out, r(300, Some(310))).unwrap(); // within 200..: not recorded
        declare(&out, r(100, Some(130))).unwrap();
        assert_eq!(
            requests(&out).unwrap(),
            [r(100, Some(130)), r(110, Some(120)), r(200, None)]
        );
        // A record that says another range than its name is refused.
        fs::write(
            out.join(DIR).join("requested_5_6.json"),
            r#"{"from": 5, "to": 9}"#,
        )
        .unwrap();
        let e = requests(&out).unwrap_err().0;
        assert!(
            e.contains("requested_5_6.json") && e.contains("5..=9"),
            "{e}"
        );
        fs::write(out.join(DIR).join("requested_5_6.json"), "[").unwrap();
        let e = requests(&out).unwrap_err().0;
        assert!(e.contains("not a request record"), "{e}");
        let _ = fs::remove_dir_all(&out);
    }

    #[test]
    fn names_parse_back() {
        assert_eq!(parse_name("blocks_3_9.json", ".json"), Some((3, 9)));
        assert_eq!(parse_name("blocks_9_3.json", ".json"), None);
        assert_eq!(parse_name(".blocks_3_9.json.tmp", ".json"), None);
        assert_eq!(parse_name("blocks_3_9.parquet", ".json"), None);
    }
}
