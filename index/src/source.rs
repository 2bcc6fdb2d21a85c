//! The file source: blocks dumped as JSON lines, read one line at a time.
//!
//! Each non-blank line is one block:
//! `{"number": N, "hash": "0x…", "spec_version": S, "extrinsics": ["0x…", …], "events": "0x…"}`
//! (`events` may be absent or `null`), and optionally its header,
//! `"parent_hash"`, `"state_root"`, `"extrinsics_root"` (`0x…`, together)
//! and `"digest"` (the logs, `["0x…", …]`), and `"finalized"` (true/false). Lines are streamed, never the whole
//! file held, and a line longer than [`MAX_LINE_BYTES`] is an error rather
//! than an allocation the file decides.

use std::fmt;
use std::io::{BufRead, Read};

use serde::Deserialize;

use crate::block::{Block, Header};

/// Longest line accepted (a Polkadot block with its events is well under
/// 10 MB; the cap stops a file without line breaks from filling memory).
pub const MAX_LINE_BYTES: u64 = 256 << 20;

/// Why the source could not give a block.
#[derive(Debug)]
pub enum SourceError {
    /// Reading the file failed.
    Io {
        /// 1-based line number being read.
        line: u64,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The line is not a block (bad JSON, a missing field, bad hex …).
    Malformed {
        /// 1-based line number.
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// The node could not give a block (after retries) or gave a malformed answer.
    Node {
        /// The block concerned, when known (the node's error names it otherwise).
        block: Option<u64>,
        /// What went wrong.
        reason: String,
    },
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::Io { line, error } => write!(f, "line {line}: read error: {error}"),
            SourceError::Malformed { line, reason } => write!(f, "line {line}: {reason}"),
            SourceError::Node {
                block: Some(block),
                reason,
            } => write!(f, "block {block}: {reason}"),
            SourceError::Node {
                block: None,
                reason,
            } => f.write_str(reason),
        }
    }
}

impl std::error::Error for SourceError {}

/// One line as written in the file. Hex text is borrowed from the line
/// (no copy before it is decoded); hex never needs JSON escapes, and a
/// string that has them is rejected as not hex.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line<'a> {
    number: u64,
    hash: String,
    spec_version: u32,
    #[serde(borrow)]
    extrinsics: Vec<&'a str>,
    #[serde(default, borrow)]
    events: Option<&'a str>,
    #[serde(default)]
    parent_hash: Option<&'a str>,
    #[serde(default)]
    state_root: Option<&'a str>,
    #[serde(default)]
    extrinsics_root: Option<&'a str>,
    #[serde(default, borrow)]
    digest: Option<Vec<&'a str>>,
    #[serde(default)]
    finalized: Option<bool>,
}

/// Blocks read from JSON lines, in file order.
pub struct JsonLines<R> {
    reader: R,
    line: u64,
    buf: Vec<u8>,
}

impl<R: BufRead> JsonLines<R> {
    /// A source over `reader`.
    pub fn new(reader: R) -> Self {
        JsonLines {
            reader,
            line: 0,
            buf: Vec::new(),
        }
    }

    /// The 1-based number of the line read last.
    pub fn line(&self) -> u64 {
        self.line
    }

    fn next_line(&mut self) -> Option<Result<Block, SourceError>> {
        loop {
            self.buf.clear();
            self.line += 1;
            let line = self.line;
            let read = (&mut self.reader)
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut self.buf);
            match read {
                Ok(0) => return None,
                Ok(n) if n as u64 > MAX_LINE_BYTES => {
                    return Some(Err(SourceError::Malformed {
                        line,
                        reason: format!("line longer than {MAX_LINE_BYTES} bytes"),
                    }))
                }
                Ok(_) => {}
                Err(error) => return Some(Err(SourceError::Io { line, error })),
            }
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Some(
                parse_line(&self.buf).map_err(|reason| SourceError::Malformed { line, reason }),
            );
        }
    }
}

impl<R: BufRead> Iterator for JsonLines<R> {
    type Item = Result<Block, SourceError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_line()
    }
}

/// One line's text into a block.
pub(crate) fn parse_line(text: &[u8]) -> Result<Block, String> {
    let line: Line = serde_json::from_slice(text).map_err(|e| format!("not a block: {e}"))?;
    if decode_hex(&line.hash).map_or(true, |h| h.len() != 32) {
        return Err(format!(
            "block {}: hash {:?} is not 32 bytes of 0x-hex",
            line.number, line.hash
        ));
    }
    let extrinsics = line
        .extrinsics
        .iter()
        .enumerate()
        .map(|(i, x)| {
            decode_hex(x).map_err(|e| format!("block {}: extrinsic {i}: {e}", line.number))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let events = line
        .events
        .map(|e| decode_hex(e).map_err(|e| format!("block {}: events: {e}", line.number)))
        .transpose()?;
    let header = header(&line).map_err(|e| format!("block {}: {e}", line.number))?;
    Ok(Block {
        number: line.number,
        hash: line.hash,
        spec_version: line.spec_version,
        extrinsics,
        events,
        header,
        finalized: line.finalized,
    })
}

/// The header of a line: its three hashes come together (with the digest's
/// logs, none when absent), or not at all.
fn header(line: &Line<'_>) -> Result<Option<Header>, String> {
    let hash = |name: &str, text: &str| -> Result<[u8; 32], String> {
        decode_hex(text)?
            .try_into()
            .map_err(|_| format!("{name} is not 32 bytes"))
    };
    let (parent, state, extrinsics) =
        match (line.parent_hash, line.state_root, line.extrinsics_root) {
            (Some(p), Some(s), Some(x)) => (p, s, x),
            (None, None, None) if line.digest.is_none() => return Ok(None),
            _ => {
                return Err(
                    "parent_hash, state_root and extrinsics_root come together (with digest)"
                        .into(),
                )
            }
        };
    let digest = line
        .digest
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, log)| decode_hex(log).map_err(|e| format!("digest log {i}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(Header {
        parent_hash: hash("parent_hash", parent)?,
        state_root: hash("state_root", state)?,
        extrinsics_root: hash("extrinsics_root", extrinsics)?,
        digest,
    }))
}

/// `0x`-prefixed hex into bytes.
fn decode_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits = text
        .strip_prefix("0x")
        .ok_or_else(|| "hex text does not start with 0x".to_string())?;
    ferroscale_core::hex::decode(digits).map_err(|e| format!("bad hex: {e}"))
}

/// A block as one JSON line (no trailing newline), the format [`JsonLines`] reads.
pub fn block_to_json_line(block: &Block) -> String {
    let hex = |b: &[u8]| ferroscale_core::hex::encode_prefixed(b);
    let mut value = serde_json::json!({
        "number": block.number,
        "hash": block.hash,
        "spec_version": block.spec_version,
        "extrinsics": block.extrinsics.iter().map(|x| hex(x)).collect::<Vec<_>>(),
        "events": block.events.as_deref().map(hex),
    });
    if let Some(h) = &block.header {
        value["parent_hash"] = hex(&h.parent_hash).into();
        value["state_root"] = hex(&h.state_root).into();
        value["extrinsics_root"] = hex(&h.extrinsics_root).into();
        value["digest"] = h.digest.iter().map(|l| hex(l)).collect::<Vec<_>>().into();
    }
    if let Some(finalized) = block.finalized {
        value["finalized"] = finalized.into();
    }
    value.to_string()
}

/// The blocks of `source` numbered `from..=to` (an end `None` is open):
/// earlier blocks are skipped, and reading stops at the first block past
/// `to` (sources give blocks in increasing order, so the rest of a long
/// file is never read). Errors pass through.
pub fn in_range<I>(
    source: I,
    from: Option<u64>,
    to: Option<u64>,
) -> impl Iterator<Item = Result<Block, SourceError>>
where
    I: Iterator<Item = Result<Block, SourceError>>,
{
    source
        .take_while(move |item| match (item, to) {
            (Ok(b), Some(to)) => b.number <= to,
            _ => true,
        })
        .filter(move |item| match (item, from) {
            (Ok(b), Some(from)) => b.number >= from,
            _ => true,
        })
}
