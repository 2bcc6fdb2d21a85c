//! The RPC source: a block range fetched from a node (`ferroscale-rpc`),
//! with each block's runtime found cheaply and each runtime's metadata
//! fetched once into the metadata folder ([`crate::metadata_dir`]).
//!
//! The range is walked in windows that are exactly the pipeline's
//! partitions (`partition_blocks` wide, cut by `from`/`to` and around the
//! blocks the output's manifest has: [`Manifest::plan`]), so a block done
//! before is never fetched again (counted in [`Skipped`]). For each window:
//!
//! 1. **Runtimes, by bisection.** A block executes with the runtime of its
//!    parent's state (the block that sets new code still runs the old one),
//!    so block `n`'s spec is `state_getRuntimeVersion` at block `n − 1`.
//!    Spec versions only grow along a chain (`set_code` refuses a runtime
//!    whose spec version is not higher), so when the versions at both ends
//!    of a stretch are equal, every block between has that version; when
//!    they differ the stretch is halved until each upgrade is pinned to one
//!    block. A window without an upgrade costs one version request (its
//!    start is the previous window's end, remembered) and a block-hash
//!    request; `k` upgrades cost about `2k·log₂(width)` more, instead of one
//!    request per block. (A chain that went back to a lower spec version
//!    and up again within one window would be missed; `set_code` forbids it.)
//! 2. **Metadata once.** A runtime whose `DIR/<spec_name>/<spec_version>.scale`
//!    is missing is fetched (`ferroscale_rpc::Client::metadata` at a block
//!    of that runtime), checked to be that spec version, and stored; later
//!    windows and later runs read the file.
//! 3. **Blocks, streamed.** `ferroscale_rpc::BlockingClient::blocks` fetches
//!    the window with bounded concurrency and retries while the pipeline
//!    decodes; at most `2 × concurrency` fetched blocks wait, so memory is
//!    bounded by the partition width whatever the range.
//!
//! A node error that outlives its retries ends the source with an error
//! naming the block; finished partitions stay, so a rerun resumes.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ferroscale_rpc::{BlockIter, BlockingClient, FetchedBlock, Hash, RangeOptions, RuntimeVersion};

use crate::block::{Block, Header};
use crate::manifest::Manifest;
use crate::metadata_dir;
use crate::pipeline::{run_observed, Decoders, IndexError, Options, Progress, Summary};
use crate::source::SourceError;

/// What the RPC source fetches and where it keeps what it learns.
#[derive(Clone, Debug)]
pub struct RpcOptions {
    /// First block (inclusive).
    pub from: u64,
    /// Last block (inclusive).
    pub to: u64,
    /// The pipeline's partition width (windows are its partitions).
    pub partition_blocks: u64,
    /// The pipeline's output folder (blocks its manifest has are not fetched).
    pub out: PathBuf,
    /// The metadata folder runtimes are cached in.
    pub metadata_dir: PathBuf,
    /// Concurrency and retries of the block requests.
    pub range: RangeOptions,
    /// Whether blocks past the node's finalized head may be indexed (they
    /// may still change: a fork choice can replace them). By default a
    /// range reaching past it stops there with an error naming the head.
    pub unfinalized: bool,
}

/// The finished partitions and the blocks of the range the manifest has,
/// not fetched (shared with the caller, who adds them to the pipeline's
/// summary).
#[derive(Debug, Default)]
pub struct Skipped {
    /// Finished partitions not fetched.
    pub partitions: AtomicU64,
    /// Their blocks.
    pub blocks: AtomicU64,
}

impl Skipped {
    /// (partitions, blocks) skipped.
    pub fn get(&self) -> (u64, u64) {
        (
            self.partitions.load(Ordering::Relaxed),
            self.blocks.load(Ordering::Relaxed),
        )
    }
}

/// The window being fetched: its blocks' stream and runtimes.
struct Window<'c> {
    blocks: BlockIter<'c>,
    /// `(first block, spec version)`, by first block.
    specs: Vec<(u64, u32)>,
}

/// Blocks `from..=to` of a node, in order (an [`Iterator`] the pipeline reads).
pub struct RpcBlocks<'c> {
    client: &'c BlockingClient,
    options: RpcOptions,
    /// The windows not opened yet, in order.
    windows: std::collections::VecDeque<(u64, u64)>,
    window: Option<Window<'c>>,
    /// Runtime versions at block hashes already asked for, by block number
    /// (pruned to the current window).
    versions: HashMap<u64, RuntimeVersion>,
    skipped: Arc<Skipped>,
    done: bool,
    /// An error to give before anything else (the manifest unreadable).
    failed: Option<SourceError>,
    /// The newest finalized block, once asked.
    finalized: Option<u64>,
}

impl<'c> RpcBlocks<'c> {
    /// The source over `client`; an empty range (`to < from`) or a zero
    /// partition width gives no blocks (the pipeline refuses the latter).
    pub fn new(client: &'c BlockingClient, options: RpcOptions) -> Self {
        let skipped = Arc::<Skipped>::default();
        let (windows, failed) = match Manifest::scan(&options.out) {
            Ok(done) if options.from <= options.to => {
                let windows = done.plan(options.from, options.to, options.partition_blocks);
                let planned: u64 = windows.iter().map(|(a, b)| b - a + 1).sum();
                let partitions = done
                    .partitions()
                    .filter(|(a, b)| *b >= options.from && *a <= options.to)
                    .count();
                skipped
                    .partitions
                    .store(partitions as u64, Ordering::Relaxed);
                let total = options.to - options.from + 1;
                skipped.blocks.store(total - planned, Ordering::Relaxed);
                (windows.into(), None)
            }
            Ok(_) => (Default::default(), None),
            Err(e) => (
                Default::default(),
                Some(SourceError::Node {
                    block: None,
                    reason: format!("manifest: {e}"),
                }),
            ),
        };
        RpcBlocks {
            client,
            windows,
            done: false,
            failed,
            finalized: None,
            options,
            window: None,
            versions: HashMap::new(),
            skipped,
        }
    }

    /// The counts of partitions skipped as finished (readable while the
    /// source runs on another thread, and after).
    pub fn skipped(&self) -> Arc<Skipped> {
        Arc::clone(&self.skipped)
    }

    /// The hash of block `number` (retried).
    fn hash(&self, number: u64) -> Result<Hash, SourceError> {
        let retry = self.options.range.retry;
        let client = self.client.client();
        self.client
            .block_on(retry.run(|| client.block_hash(number)))
            .map_err(|e| node(number, e.to_string()))?
            .ok_or_else(|| node(number, "the node has no such block".into()))
    }

    /// The runtime version in the state after block `number` (remembered).
    fn version(&mut self, number: u64) -> Result<RuntimeVersion, SourceError> {
        if let Some(v) = self.versions.get(&number) {
            return Ok(v.clone());
        }
        let hash = self.hash(number)?;
        let retry = self.options.range.retry;
        let client = self.client.client();
        let v = self
            .client
            .block_on(retry.run(|| client.runtime_version(Some(&hash))))
            .map_err(|e| node(number, e.to_string()))?;
        self.versions.insert(number, v.clone());
        Ok(v)
    }

    /// The runtimes of the states after blocks `lo..=hi`: `(first block,
    /// version)` for each stretch of one version, found by bisection.
    fn stretches(&mut self, lo: u64, hi: u64) -> Result<Vec<(u64, RuntimeVersion)>, SourceError> {
        let a = self.version(lo)?;
        let b = self.version(hi)?;
        if same(&a, &b) {
            return Ok(vec![(lo, a)]);
        }
        if hi == lo + 1 {
            return Ok(vec![(lo, a), (hi, b)]);
        }
        let mid = lo + (hi - lo) / 2;
        let mut left = self.stretches(lo, mid)?;
        let right = self.stretches(mid, hi)?;
        for (first, v) in right {
            if !left.last().is_some_and(|(_, last)| same(last, &v)) {
                left.push((first, v));
            }
        }
        Ok(left)
    }

    /// Stores the metadata of runtime `v` (in the state after block `at`)
    /// unless the folder has it.
    fn ensure_metadata(&self, at: u64, v: &RuntimeVersion) -> Result<(), SourceError> {
        let dir = &self.options.metadata_dir;
        let path = metadata_dir::metadata_path(dir, &v.spec_name, v.spec_version)
            .map_err(|e| node(at, e.0))?;
        if path.is_file() {
            return Ok(());
        }
        let hash = self.hash(at)?;
        let retry = self.options.range.retry;
        let client = self.client.client();
        let fetched = self
            .client
            .block_on(retry.run(|| client.metadata(Some(&hash))))
            .map_err(|e| node(at, format!("metadata: {e}")))?;
        // The node's word that this is the runtime asked for, checked
        // before it is cached for every later run.
        let md = ferroscale_metadata::Metadata::load(&fetched.bytes)
            .map_err(|e| node(at, format!("metadata: {e}")))?;
        if md.spec_version() != Some(v.spec_version) {
            return Err(node(
                at,
                format!(
                    "metadata: the runtime version says spec {} but the metadata's System.Version says {:?}",
                    v.spec_version,
                    md.spec_version()
                ),
            ));
        }
        metadata_dir::store(dir, &v.spec_name, v.spec_version, &fetched.bytes)
            .map_err(|e| node(at, e.0))?;
        Ok(())
    }

    /// The last block of `first..=last` that may be indexed: `last`, or the
    /// node's finalized head when the window reaches past it (unless the
    /// options allow unfinalized blocks, which are then marked); an error
    /// when `first` is past it. The head is asked again only when a window
    /// reaches past the one known.
    fn final_part(&mut self, first: u64, last: u64) -> Result<u64, SourceError> {
        if self.finalized.is_some_and(|f| last <= f) {
            return Ok(last);
        }
        let retry = self.options.range.retry;
        let client = self.client.client();
        let head = self
            .client
            .block_on(retry.run(|| client.finalized_number()))
            .map_err(|e| node(first, format!("the finalized head: {e}")))?;
        self.finalized = Some(head);
        if self.options.unfinalized || last <= head {
            return Ok(last);
        }
        if first <= head {
            return Ok(head);
        }
        Err(node(
            first,
            format!(
                "past the node's finalized head (block {head}): blocks after it may still \
                 change; index up to {head}, or allow unfinalized blocks (`--unfinalized`)"
            ),
        ))
    }

    /// Opens the window `first..=last`: runtimes, metadata, then the fetch.
    fn open(&mut self, first: u64, last: u64) -> Result<Window<'c>, SourceError> {
        // Block n runs with the runtime of the state after block n − 1
        // (block 0, the genesis, with its own). The state after `last` is
        // the next window's start: asked now, it is remembered for it.
        let (lo, hi) = (first.saturating_sub(1), last);
        let stretches = self.stretches(lo, hi)?;
        self.versions.retain(|n, _| *n == hi);
        let mut specs = Vec::with_capacity(stretches.len());
        for (at, v) in &stretches {
            // The stretch starting at state `at` is the runtime of the blocks from `at + 1`.
            let from_block = if *at == lo { first } else { at + 1 };
            if from_block > last {
                break;
            }
            self.ensure_metadata(*at, v)?;
            specs.push((from_block, v.spec_version));
        }
        let options = RangeOptions {
            events: true,
            // Known from the bisection.
            runtime_version: false,
            ..self.options.range
        };
        Ok(Window {
            blocks: self.client.blocks(first..last + 1, options),
            specs,
        })
    }

    fn next_block(&mut self) -> Option<Result<Block, SourceError>> {
        loop {
            if let Some(w) = &mut self.window {
                match w.blocks.next() {
                    Some(Ok(fetched)) => {
                        let number = fetched.block.number;
                        let spec = spec_of(&w.specs, number);
                        // The head was asked before the window opened.
                        let finalized = self.finalized.is_none_or(|head| number <= head);
                        return Some(Ok(to_block(fetched, spec, finalized)));
                    }
                    Some(Err(e)) => {
                        self.done = true;
                        self.window = None;
                        return Some(Err(SourceError::Node {
                            block: None,
                            reason: e.to_string(),
                        }));
                    }
                    None => self.window = None,
                }
            }
            if let Some(e) = self.failed.take() {
                self.done = true;
                return Some(Err(e));
            }
            if self.done {
                return None;
            }
            let Some((first, last)) = self.windows.pop_front() else {
                self.done = true;
                return None;
            };
            let last = match self.final_part(first, last) {
                Ok(end) if end < last => {
                    // The final part now; the rest fails as the next window.
                    self.windows.push_front((end + 1, last));
                    end
                }
                Ok(_) => last,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            match self.open(first, last) {
                Ok(w) => self.window = Some(w),
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// Runs the pipeline over blocks `rpc.from..=rpc.to` of the node behind
/// `client`: the blocks the manifest had were never fetched, and count as
/// skipped in the progress `observer` sees and in the summary.
pub fn index_range(
    client: &BlockingClient,
    rpc: RpcOptions,
    decoders: &mut Decoders,
    options: &Options,
    observer: &mut dyn FnMut(&Progress<'_>),
) -> Result<Summary, IndexError> {
    let source = RpcBlocks::new(client, rpc);
    let skipped = source.skipped();
    let with_skipped = |s: &Summary| {
        let (partitions, blocks) = skipped.get();
        Summary {
            skipped_partitions: s.skipped_partitions + partitions,
            skipped_blocks: s.skipped_blocks + blocks,
            ..s.clone()
        }
    };
    run_observed(source, decoders, options, &mut |p| {
        observer(&Progress {
            summary: &with_skipped(p.summary),
            ..*p
        })
    })
    .map(|s| with_skipped(&s))
}

impl Iterator for RpcBlocks<'_> {
    type Item = Result<Block, SourceError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_block()
    }
}

fn same(a: &RuntimeVersion, b: &RuntimeVersion) -> bool {
    a.spec_version == b.spec_version && a.spec_name == b.spec_name
}

fn node(block: u64, reason: String) -> SourceError {
    SourceError::Node {
        block: Some(block),
        reason,
    }
}

/// The spec of block `number` from the window's `(first block, spec)` list.
fn spec_of(specs: &[(u64, u32)], number: u64) -> u32 {
    specs
        .iter()
        .rev()
        .find(|(first, _)| *first <= number)
        .or(specs.first())
        .map_or(0, |(_, s)| *s)
}

fn to_block(fetched: FetchedBlock, spec_version: u32, finalized: bool) -> Block {
    let b = fetched.block;
    Block {
        number: b.number,
        hash: ferroscale_core::hex::encode_prefixed(&b.hash),
        spec_version,
        extrinsics: b.extrinsics,
        events: fetched.events,
        header: Some(Header {
            parent_hash: b.parent_hash,
            state_root: b.state_root,
            extrinsics_root: b.extrinsics_root,
            digest: b.digest,
        }),
        finalized: Some(finalized),
    }
}

#[cfg(test)]
mod tests {
    use super::spec_of;

    #[test]
    fn blocks_take_the_spec_of_the_stretch_they_are_in() {
        let specs = [(10, 1), (15, 2), (16, 3)];
        let got: Vec<u32> = (10..=18).map(|n| spec_of(&specs, n)).collect();
        assert_eq!(got, [1, 1, 1, 1, 1, 2, 3, 3, 3]);
    }
}
