//! Where each block's line starts in a JSON-lines file ([`crate::source`]'s
//! format), so that a block range is read without parsing the other
//! blocks' lines.
//!
//! A distributed run gives each task one block range of the same file. Read
//! through [`crate::source::JsonLines`], every task would parse (and
//! hex-decode) the whole file; with a [`LineIndex`], built once per process
//! by a pass that reads only each line's `number`, a task seeks to its own
//! lines. The file may be in any order: a range comes back in file order.
//! A line outside every range read is never fully checked, so its faults
//! show only to the task that reads it.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek};
use std::path::Path;
use std::time::SystemTime;

use serde::Deserialize;

use crate::block::Block;
use crate::source::{parse_line, SourceError, MAX_LINE_BYTES};

/// One non-blank line of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    /// The block number the line carries.
    number: u64,
    /// Byte offset of the line's start.
    offset: u64,
    /// 1-based line number, for error messages.
    line: u64,
}

/// The block numbers of a JSON-lines file and where their lines start,
/// with the file's size and modification time when it was read (a file
/// changed since is indexed again: [`LineIndex::is_current`]).
#[derive(Debug)]
pub struct LineIndex {
    /// Sorted by block number, then file position.
    entries: Vec<Entry>,
    len: u64,
    modified: Option<SystemTime>,
}

/// What the indexing pass reads of a line: its number, the rest skipped.
#[derive(Deserialize)]
struct Numbered {
    number: u64,
}

/// An I/O error on `path` as a message naming it.
fn io_error(path: &Path, line: u64, error: std::io::Error) -> String {
    format!("{}: {}", path.display(), SourceError::Io { line, error })
}

impl LineIndex {
    /// Reads `path` once, keeping each line's block number and offset.
    /// A line that is not a JSON object with a `number`, or is longer than
    /// [`MAX_LINE_BYTES`], is an error naming its line.
    pub fn build(path: &Path) -> Result<LineIndex, String> {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (len, modified) = stamp(&file);
        let mut reader = BufReader::new(file);
        let mut entries = Vec::new();
        let mut buf = Vec::new();
        let (mut offset, mut line) = (0u64, 0u64);
        loop {
            buf.clear();
            line += 1;
            let read = (&mut reader)
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut buf)
                .map_err(|e| io_error(path, line, e))?;
            if read == 0 {
                break;
            }
            if read as u64 > MAX_LINE_BYTES {
                return Err(format!(
                    "{}: line {line}: line longer than {MAX_LINE_BYTES} bytes",
                    path.display()
                ));
            }
            if !buf.iter().all(u8::is_ascii_whitespace) {
                let numbered: Numbered = serde_json::from_slice(&buf)
                    .map_err(|e| format!("{}: line {line}: not a block: {e}", path.display()))?;
                entries.push(Entry {
                    number: numbered.number,
                    offset,
                    line,
                });
            }
            offset += read as u64;
        }
        entries.sort_unstable();
        Ok(LineIndex {
            entries,
            len,
            modified,
        })
    }

    /// How many blocks the file holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the file holds no block.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether `path` still has the size and modification time it had
    /// when indexed (a file written since must be indexed again).
    pub fn is_current(&self, path: &Path) -> bool {
        File::open(path).is_ok_and(|f| stamp(&f) == (self.len, self.modified))
    }

    /// The blocks numbered `first..=last`, in file order, each line parsed
    /// and checked as [`crate::source::JsonLines`] does.
    pub fn read_range(&self, path: &Path, first: u64, last: u64) -> Result<Vec<Block>, String> {
        let start = self.entries.partition_point(|e| e.number < first);
        let mut wanted: Vec<Entry> = self.entries[start..]
            .iter()
            .take_while(|e| e.number <= last)
            .copied()
            .collect();
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        wanted.sort_unstable_by_key(|e| e.offset);
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut reader = BufReader::new(file);
        let mut position = 0u64;
        let mut buf = Vec::new();
        let mut blocks = Vec::with_capacity(wanted.len());
        for entry in wanted {
            // forward within the buffer when the lines are close together
            let ahead = entry
                .offset
                .checked_sub(position)
                .and_then(|d| i64::try_from(d).ok());
            match ahead {
                Some(d) => reader.seek_relative(d),
                None => reader
                    .seek(std::io::SeekFrom::Start(entry.offset))
                    .map(drop),
            }
            .map_err(|e| io_error(path, entry.line, e))?;
            buf.clear();
            let read = (&mut reader)
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut buf)
                .map_err(|e| io_error(path, entry.line, e))?;
            position = entry.offset + read as u64;
            let block = parse_line(&buf)
                .map_err(|reason| format!("{}: line {}: {reason}", path.display(), entry.line))?;
            if block.number != entry.number {
                return Err(format!(
                    "{}: line {}: the file changed while it was read",
                    path.display(),
                    entry.line
                ));
            }
            blocks.push(block);
        }
        Ok(blocks)
    }
}

/// A file's size and modification time.
fn stamp(file: &File) -> (u64, Option<SystemTime>) {
    match file.metadata() {
        Ok(m) => (m.len(), m.modified().ok()),
        Err(_) => (u64::MAX, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::block_to_json_line;

    fn block(number: u64) -> Block {
        Block {
            number,
            hash: format!("0x{}", "ab".repeat(32)),
            spec_version: 1,
            extrinsics: vec![vec![number as u8; 3]],
            events: number.is_multiple_of(2).then(|| vec![0]),
            header: None,
            finalized: None,
        }
    }

    /// A fresh folder of this process for one test.
    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ferroscale-lines-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn file_of(numbers: &[u64], dir: &Path) -> std::path::PathBuf {
        let path = dir.join("blocks.jsonl");
        let mut text = String::from("\n"); // a blank line first
        for &n in numbers {
            text += &block_to_json_line(&block(n));
            text += "\n";
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    fn numbers(blocks: &[Block]) -> Vec<u64> {
        blocks.iter().map(|b| b.number).collect()
    }

    #[test]
    fn a_range_is_read_in_file_order_whatever_the_order_of_the_file() {
        let dir = temp_dir("order");
        let path = file_of(&[5, 1, 3, 2, 9, 3, 4], &dir);
        let index = LineIndex::build(&path).unwrap();
        assert_eq!(index.len(), 7);
        let got = index.read_range(&path, 2, 4).unwrap();
        assert_eq!(numbers(&got), [3, 2, 3, 4]);
        assert_eq!(got[1], block(2));
        assert!(index.read_range(&path, 6, 8).unwrap().is_empty());
        assert_eq!(
            numbers(&index.read_range(&path, 0, u64::MAX).unwrap()),
            [5, 1, 3, 2, 9, 3, 4]
        );
    }

    #[test]
    fn a_changed_file_is_no_longer_current() {
        let dir = temp_dir("changed");
        let path = file_of(&[1, 2], &dir);
        let index = LineIndex::build(&path).unwrap();
        assert!(index.is_current(&path));
        file_of(&[1, 2, 3], &dir);
        assert!(!index.is_current(&path));
    }

    #[test]
    fn faults_name_their_line() {
        let dir = temp_dir("faults");
        let path = dir.join("bad.jsonl");
        std::fs::write(
            &path,
            format!("{}\n{{\"hash\": 1}}\n", block_to_json_line(&block(1))),
        )
        .unwrap();
        let err = LineIndex::build(&path).unwrap_err();
        assert!(err.contains("line 2: not a block"), "{err}");

        // a number that parses, the rest not a block: found when its range is read
        std::fs::write(
            &path,
            format!(
                "{}\n{{\"number\": 2, \"hash\": \"0x00\"}}\n",
                block_to_json_line(&block(1))
            ),
        )
        .unwrap();
        let index = LineIndex::build(&path).unwrap();
        assert_eq!(numbers(&index.read_range(&path, 1, 1).unwrap()), [1]);
        let err = index.read_range(&path, 2, 2).unwrap_err();
        assert!(err.contains("line 2:"), "{err}");
    }
}
