//! The pipeline's reader: the source's blocks into partitions (consecutive
//! blocks of one `partition_blocks` window), past the blocks the output's
//! manifest has, each block checked against the chain as it is read
//! ([`crate::chain_check`]), and no block of the range missing.

use super::chain_check::{first_root_mismatch, ChainCheck};
use super::{IndexError, Options};
use crate::block::Block;
use crate::manifest::Manifest;
use crate::partition::Gaps;
use crate::source::SourceError;

/// Blocks of one partition.
pub(crate) struct Partition {
    pub(crate) first: u64,
    pub(crate) last: u64,
    pub(crate) blocks: Vec<Block>,
}

/// What the reader hands the decoder.
pub(crate) enum Read {
    /// A partition to decode (consecutive blocks of one window).
    Partition(Partition),
    /// Blocks the manifest has, read past: how many, the last, and how many
    /// finished partitions they began.
    Skipped {
        blocks: u64,
        last: u64,
        partitions: u64,
    },
}

/// The reader: the source's blocks into partitions (consecutive blocks of
/// one `width` window), past the blocks `done` has, checking that no other
/// block is missing between `from` and `to`. On any error the partition
/// being filled is handed over first, so its blocks are written.
pub(crate) fn read_partitions<I>(
    source: I,
    done: &Manifest,
    options: &Options,
    send: &mut dyn FnMut(Result<Read, IndexError>) -> bool,
) where
    I: Iterator<Item = Result<Block, SourceError>>,
{
    let width = options.partition_blocks;
    let mut pending = Pending::default();
    // The next block the range needs, once known.
    let mut expected = options.from;
    let mut last_entry: Option<u64> = None;
    let mut chain = ChainCheck::default();
    for item in source {
        let block = match item {
            Ok(b) => b,
            Err(e) => return pending.fail(IndexError::Source(e), send),
        };
        let n = block.number;
        if options.to.is_some_and(|to| n > to) {
            break;
        }
        match expected {
            Some(e) if n < e => {
                let after = e.saturating_sub(1);
                let error = IndexError::OutOfOrder { block: n, after };
                return pending.fail(error, send);
            }
            Some(e) if n > e && options.gaps == Gaps::Refused => {
                if let Some(&(gap, _)) = done.missing(e, n - 1).first() {
                    let error = IndexError::Missing {
                        block: gap,
                        next: Some(n),
                    };
                    return pending.fail(error, send);
                }
            }
            _ => {}
        }
        expected = n.checked_add(1);
        if let Err(error) = chain.check(&block, done, &options.out) {
            return pending.fail(error, send);
        }
        if let Some((first, _)) = done.partition_of(n) {
            if pending.partition.is_some() && !pending.flush(send) {
                return;
            }
            let (blocks, last, partitions) = pending.skipped.get_or_insert((0, n, 0));
            *blocks += 1;
            *last = n;
            if last_entry != Some(first) {
                *partitions += 1;
                last_entry = Some(first);
            }
            continue;
        }
        // A partition is cut at its window's end and around blocks done
        // before (blocks the source lacks, where allowed, stay inside).
        let starts_anew = pending
            .partition
            .as_ref()
            .is_some_and(|p| n / width != p.first / width || done.any_done(p.last + 1, n - 1));
        if (starts_anew || pending.skipped.is_some()) && !pending.flush(send) {
            return;
        }
        let p = pending.partition.get_or_insert_with(|| Partition {
            first: n,
            last: n,
            blocks: Vec::new(),
        });
        p.last = n;
        p.blocks.push(block);
    }
    let refused = options.gaps == Gaps::Refused;
    if let (Some(e), Some(to), true) = (expected, options.to, refused) {
        if let Some(&(gap, _)) = done.missing(e, to).first() {
            let error = IndexError::Missing {
                block: gap,
                next: None,
            };
            return pending.fail(error, send);
        }
    }
    pending.flush(send);
}

/// What the reader has read and not handed over yet: a partition being
/// filled, or a run of skipped blocks (never both: each is handed over
/// before the other begins, so they reach the decoder in block order).
#[derive(Default)]
struct Pending {
    partition: Option<Partition>,
    /// (blocks, last block, finished partitions begun).
    skipped: Option<(u64, u64, u64)>,
}

impl Pending {
    /// Hands over what is pending; false when the decoder has stopped, or
    /// when a block of the partition does not have its header's extrinsics
    /// root (the blocks before it are handed over, then that error).
    fn flush(&mut self, send: &mut dyn FnMut(Result<Read, IndexError>) -> bool) -> bool {
        let mut partition = self.partition.take();
        let mismatch = partition.as_mut().and_then(|p| {
            let (at, error) = first_root_mismatch(&p.blocks)?;
            p.blocks.truncate(at);
            p.last = p.blocks.last().map_or(p.first, |b| b.number);
            Some(error)
        });
        let partition = partition
            .filter(|p| !p.blocks.is_empty())
            .map(Read::Partition);
        // Never both a partition and skipped blocks (see above).
        let skipped = self
            .skipped
            .take()
            .map(|(blocks, last, partitions)| Read::Skipped {
                blocks,
                last,
                partitions,
            });
        let sent = partition.into_iter().chain(skipped).all(|r| send(Ok(r)));
        match mismatch {
            // The blocks before the failed one were handed over; then the error.
            Some(error) => {
                if sent {
                    send(Err(error));
                }
                false
            }
            None => sent,
        }
    }

    /// Hands over what is pending, then `error`: the blocks read before a
    /// failure are written.
    fn fail(&mut self, error: IndexError, send: &mut dyn FnMut(Result<Read, IndexError>) -> bool) {
        if self.flush(send) {
            send(Err(error));
        }
    }
}
