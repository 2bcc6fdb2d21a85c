//! The pipeline: source → decode → write, streamed in partitions.
//!
//! Three stages run at once: a reader thread groups the source's blocks into
//! partitions (windows of `partition_blocks` block numbers), the calling
//! thread decodes each partition's blocks in parallel on the run's rayon
//! pool, and a writer thread writes the previous partition's Parquet files
//! on that same pool (so a run uses the threads it was given, and decoding
//! and writing share them).
//! Stages hand over through channels of capacity one, so at most a few
//! partitions are in memory whatever the length of the range. Blocks the
//! output's manifest lists as done ([`crate::manifest`]) are not decoded
//! again; every other block of the range must come from the source, in
//! order: a block missing is an error naming it, after the blocks read
//! before it are written.

mod chain_check;
mod reader;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::PathBuf;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use arrow_schema::ArrowError;
use ferroscale_dynamic::Document;
use rayon::prelude::*;

use self::reader::{read_partitions, Read};
use crate::block::Block;
use crate::manifest::{Manifest, ManifestError};
use crate::metadata_dir;
use crate::partition::{write_partition, Gaps, WriteError};
use crate::rows::{decode_block_into, decode_block_typed_only_into};
use crate::saved_naming;
use crate::source::SourceError;
use crate::spec::{Presets, SpecDecoder, SpecError};
use crate::store::Rows;
use crate::tables::{Table, Tables};
use crate::typed::naming::Naming;
use crate::typed::rows::{TableRows, TypedRows};
use crate::typed::union::RunBatch;
use crate::typed::union::{unify_batches, UnionError};

/// The decoders of every runtime the blocks may use, by spec version:
/// given up front ([`Decoders::insert`], [`Decoders::insert_shared`]) or
/// loaded when first needed from a metadata folder
/// ([`Decoders::with_metadata_dir`]). Held by `Arc`: an embedder (the Python
/// module) shares one decoder per spec between its own objects and any
/// number of runs.
#[derive(Debug, Default)]
pub struct Decoders {
    by_spec: HashMap<u32, Arc<SpecDecoder>>,
    /// Where missing runtimes are looked up ([`crate::metadata_dir`]).
    dir: Option<PathBuf>,
    ss58_format: Option<u16>,
    /// The type-registry presets runtimes loaded from `dir` resolve their
    /// type strings with (legacy metadata needs them), and their folder.
    presets: Presets,
    /// Spec versions loaded from `dir`: dropped again once a partition no
    /// longer uses them, so a range over many upgrades holds few registries.
    from_dir: HashSet<u32>,
    /// The typed tables' column names over every runtime held so far
    /// ([`Decoders::naming`]); kept when a runtime is dropped.
    naming: Mutex<Naming>,
}

impl Decoders {
    /// No decoders yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decoders loaded on demand from `dir` (`DIR/<spec_name>/<spec_version>.scale`),
    /// accounts rendered with `ss58_format` (else each chain's own prefix).
    pub fn with_metadata_dir(dir: impl Into<PathBuf>, ss58_format: Option<u16>) -> Self {
        Decoders {
            dir: Some(dir.into()),
            ss58_format,
            ..Self::default()
        }
    }

    /// Runtimes loaded from the metadata folder resolve their type strings
    /// through `presets` (legacy V9–V13 metadata needs them:
    /// `core`, `legacy`, `polkadot` for Polkadot).
    pub fn with_presets(mut self, presets: Presets) -> Self {
        self.presets = presets;
        self
    }

    /// Adds a runtime's decoder (replacing one of the same spec version).
    pub fn insert(&mut self, decoder: SpecDecoder) {
        self.insert_shared(Arc::new(decoder));
    }

    /// Adds a shared runtime's decoder (replacing one of the same spec version).
    pub fn insert_shared(&mut self, decoder: Arc<SpecDecoder>) {
        self.from_dir.remove(&decoder.spec_version());
        self.by_spec.insert(decoder.spec_version(), decoder);
    }

    /// The typed tables' column names ([`crate::typed::naming`]) with every
    /// runtime held folded in: those not folded in yet are, in ascending
    /// spec version. Runtimes given up front are all folded in before the
    /// first typed decode; one loaded later from the metadata folder when a
    /// partition first uses it. A name, once given, stays for the life of
    /// these decoders.
    pub fn naming(&self) -> Result<std::sync::MutexGuard<'_, Naming>, UnionError> {
        // A panic while folding left the naming as it was or one runtime
        // further, both usable.
        let mut naming = self.naming.lock().unwrap_or_else(|e| e.into_inner());
        self.fold_into(&mut naming)?;
        Ok(naming)
    }

    /// Folds every runtime held that `naming` lacks into it, in ascending
    /// spec version ([`Decoders::naming`] for a naming of the caller's: a
    /// run's, which starts from its output folder's).
    pub fn fold_into(&self, naming: &mut Naming) -> Result<(), UnionError> {
        let mut specs: Vec<u32> = self.by_spec.keys().copied().collect();
        specs.sort_unstable();
        for spec in specs {
            if !naming.has_runtime(spec) {
                naming.add_runtime(spec, self.by_spec[&spec].typed_tables())?;
            }
        }
        Ok(())
    }

    /// The decoder for `spec_version`.
    pub fn get(&self, spec_version: u32) -> Option<&SpecDecoder> {
        self.by_spec.get(&spec_version).map(|d| &**d)
    }

    /// Makes the decoders of `specs` available: each one missing is loaded
    /// from the metadata folder when it has the file (a spec without one
    /// stays missing, and its blocks become error rows); decoders loaded
    /// from the folder earlier and not in `specs` are dropped. A file that
    /// is there but unusable is an error (a broken cache, not a bad block).
    pub fn prepare(&mut self, specs: &[u32]) -> Result<(), SpecError> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        self.from_dir.retain(|s| {
            let keep = specs.contains(s);
            if !keep {
                self.by_spec.remove(s);
            }
            keep
        });
        for &spec in specs {
            if self.by_spec.contains_key(&spec) {
                continue;
            }
            let Some(path) = metadata_dir::find(dir, spec).map_err(|e| SpecError(e.0))? else {
                continue;
            };
            let bytes =
                std::fs::read(&path).map_err(|e| SpecError(format!("{}: {e}", path.display())))?;
            let decoder = self
                .presets
                .decoder(&bytes, self.ss58_format)
                .map_err(|e| SpecError(format!("{}: {e}", path.display())))?;
            if decoder.spec_version() != spec {
                return Err(SpecError(format!(
                    "{}: the metadata is of spec version {}, not {spec}",
                    path.display(),
                    decoder.spec_version()
                )));
            }
            self.by_spec.insert(spec, Arc::new(decoder));
            self.from_dir.insert(spec);
        }
        Ok(())
    }
}

/// Decodes `blocks` in parallel on the current rayon pool into the tables,
/// in block order.
///
/// The blocks are cut into runs of consecutive blocks, as many for each
/// thread and of even bytes, each within 8 MB of SCALE (a bound on its
/// columns' memory). Each run is decoded by one worker into rows of its
/// own, with one document decoded into again and again. The worker makes
/// its run a record batch of each table, the buffers handed over
/// ([`Rows::into_record_batches`]): no row is copied after it was written,
/// and nothing is left for one thread to do after the runs.
pub fn decode_blocks<B: AsRef<[u8]> + Sync>(
    blocks: &[Block<B>],
    decoders: &Decoders,
) -> Result<Tables, ArrowError> {
    decode_runs(blocks, decoders, Mode::Generic).map(|(tables, _, _)| tables)
}

/// The typed tables of `blocks` alone ([`Tables::typed`], and the `errors`
/// rows of events and calls that do not fit their tables; the generic
/// tables are empty): [`decode_blocks_typed`]'s typed tables, read from the
/// bytes by the runtimes' plans (`typed::direct`), which do not
/// need the generic tables' values.
pub fn decode_blocks_typed_only<B: AsRef<[u8]> + Sync>(
    blocks: &[Block<B>],
    decoders: &Decoders,
) -> Result<Tables, DecodeError> {
    let mut naming = decoders.naming().map_err(DecodeError::Typed)?;
    let (mut tables, parts, misfits) =
        decode_runs(blocks, decoders, Mode::TypedOnly).map_err(DecodeError::Arrow)?;
    tables.set_typed(unify_batches(parts, &mut naming).map_err(DecodeError::Typed)?);
    tables.set_typed_errors(misfits);
    Ok(tables)
}

/// [`decode_blocks`], with the typed tables too ([`Tables::typed`]): each
/// table's rows of every runtime of the blocks under one union schema
/// ([`crate::typed::union`]), its columns named over every runtime of
/// `decoders` ([`Decoders::naming`]): any batch decoded with the same
/// decoders agrees on what each column name holds.
pub fn decode_blocks_typed<B: AsRef<[u8]> + Sync>(
    blocks: &[Block<B>],
    decoders: &Decoders,
) -> Result<Tables, DecodeError> {
    let mut naming = decoders.naming().map_err(DecodeError::Typed)?;
    decode_blocks_named(blocks, decoders, &mut naming)
}

/// [`decode_blocks_typed`] with the columns named by `naming` (a run's,
/// which starts from its output folder's saved naming,
/// [`crate::saved_naming`]), every runtime of `decoders` it lacks folded
/// in first ([`Decoders::fold_into`]).
pub fn decode_blocks_named<B: AsRef<[u8]> + Sync>(
    blocks: &[Block<B>],
    decoders: &Decoders,
    naming: &mut Naming,
) -> Result<Tables, DecodeError> {
    decoders.fold_into(naming).map_err(DecodeError::Typed)?;
    let (mut tables, parts, misfits) =
        decode_runs(blocks, decoders, Mode::Both).map_err(DecodeError::Arrow)?;
    tables.set_typed(unify_batches(parts, naming).map_err(DecodeError::Typed)?);
    tables.set_typed_errors(misfits);
    Ok(tables)
}

/// Why blocks did not become tables.
#[derive(Debug)]
pub enum DecodeError {
    /// A column past Arrow's limits.
    Arrow(ArrowError),
    /// A typed table's runtimes' schemas could not be joined.
    Typed(UnionError),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Arrow(e) => write!(f, "{e}"),
            DecodeError::Typed(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Which tables [`decode_runs`] makes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The generic tables.
    Generic,
    /// The generic and the typed tables.
    Both,
    /// The typed tables (and the `errors` rows of their misfits).
    TypedOnly,
}

/// The runs of [`decode_blocks`]; with the typed tables (`mode`), each
/// run's typed rows too, and how many events and calls did not fit their
/// typed tables.
fn decode_runs<B: AsRef<[u8]> + Sync>(
    blocks: &[Block<B>],
    decoders: &Decoders,
    mode: Mode,
) -> Result<(Tables, Vec<RunBatch>, u64), ArrowError> {
    // Each worker thread keeps its document's buffers from one run (and one
    // call) to the next: grown anew for every run, they were most of the
    // page faults on two threads (five times as many as on one).
    thread_local! {
        static DOCUMENT: std::cell::Cell<Option<Document<'static>>> = const { std::cell::Cell::new(None) };
    }
    let runs = runs_of(blocks, rayon::current_num_threads())
        .into_par_iter()
        .map(|run| {
            let mut doc = DOCUMENT.take().map(Document::recycle).unwrap_or_default();
            let run_bytes = run.iter().map(Block::scale_bytes).sum();
            if mode == Mode::TypedOnly {
                let mut rows = Rows {
                    typed: Some(TypedRows::for_run(run_bytes)),
                    ..Rows::default()
                };
                for b in run {
                    decode_block_typed_only_into(
                        b,
                        decoders.get(b.spec_version),
                        &mut doc,
                        &mut rows,
                    );
                }
                DOCUMENT.set(Some(doc.recycle()));
                let (misfits, parts) = typed_batches(rows.typed.take());
                return Ok((rows.into_record_batches()?, parts, misfits));
            }
            let mut rows = Rows::for_blocks(run);
            if mode == Mode::Both {
                rows.typed = Some(TypedRows::for_run(run_bytes));
            }
            // Every extrinsic of the run hashed up front, several at a time
            // in vector lanes: one by one, the hash of a block's 50 KB
            // `ParaInherent.enter` was a fifth of its decode.
            let extrinsics: Vec<&[u8]> = run
                .iter()
                .flat_map(|b| b.extrinsics.iter().map(AsRef::as_ref))
                .collect();
            let hashes = ferroscale_core::hashing::blake2_256_each(&extrinsics);
            let mut at = 0;
            for b in run {
                let block_hashes = hashes.get(at..at + b.extrinsics.len());
                at += b.extrinsics.len();
                let spec = decoders.get(b.spec_version);
                decode_block_into(b, spec, block_hashes, &mut doc, &mut rows);
            }
            DOCUMENT.set(Some(doc.recycle()));
            let (misfits, parts) = typed_batches(rows.typed.take());
            Ok((rows.into_record_batches()?, parts, misfits))
        })
        .collect::<Result<Vec<_>, ArrowError>>()?;
    let mut batches = Vec::with_capacity(runs.len());
    let (mut parts, mut misfits) = (Vec::new(), 0);
    for (b, p, m) in runs {
        batches.push(b);
        parts.extend(p);
        misfits += m;
    }
    Ok((Tables::from_runs(batches), parts, misfits))
}

/// A run's typed rows as record batches, made on the run's worker (made
/// after the runs, on one thread, they were a tenth of the typed tables'
/// time), and how many events and calls did not fit their tables.
fn typed_batches(typed: Option<TypedRows>) -> (u64, Vec<RunBatch>) {
    match typed {
        Some(t) => (
            t.misfits,
            t.into_tables()
                .into_iter()
                .map(TableRows::into_batch)
                .collect(),
        ),
        None => (0, Vec::new()),
    }
}

/// SCALE bytes of a run of blocks decoded together, at most (but one block
/// per run whatever its size). A run's `args` columns are reserved at three
/// times its bytes ([`Rows::for_blocks`]): 24 MB at most, under the 32 MB
/// above which glibc's malloc always maps memory afresh (and unmaps it when
/// freed), so that every page of every batch is faulted in and cleared
/// again. Block 18,468,942 in 1,000-block batches took 0.26 ms per block on
/// one thread and 0.13 ms on two in one run per thread (2 million page
/// faults in 40 batches); 0.16–0.18 and 0.09 in runs of 8 MB.
const RUN_BYTES: usize = 8 << 20;

/// `blocks` cut into runs for `threads` workers: a multiple of `threads`
/// runs of even bytes, the fewest that keep each to [`RUN_BYTES`]. Fewer
/// runs leave a thread idle; more, of small batches, cost page faults:
/// with four runs per thread glibc served the smaller columns from fresh
/// memory every time, and 100 blocks of 18,468,942 took three to six times
/// the faults and 1.4 times as long on two threads. Even counts keep the
/// threads even: 500 blocks of 18,468,942 cut at the budget alone made
/// five runs, three for one thread and two for the other, and two threads
/// scaled 1.76× for the generic tables, 1.97× in six even runs.
fn runs_of<B: AsRef<[u8]>>(blocks: &[Block<B>], threads: usize) -> Vec<&[Block<B>]> {
    // A block weighs one more than its bytes, so that empty blocks are cut
    // evenly too.
    let weight = |b: &Block<B>| b.scale_bytes() as u128 + 1;
    let budget = RUN_BYTES as u128;
    let threads = threads.max(1) as u128;
    let mut left_bytes: u128 = blocks.iter().map(weight).sum();
    let mut left_runs = threads * left_bytes.div_ceil(threads * budget).max(1);
    let mut share = left_bytes.div_ceil(left_runs);
    let mut runs = Vec::with_capacity(left_runs as usize);
    let (mut start, mut bytes) = (0, 0);
    for (i, block) in blocks.iter().enumerate() {
        let size = weight(block);
        if i > start && (bytes >= share || bytes + size > budget) {
            runs.push(&blocks[start..i]);
            // What is left shared anew: a block over its share does not
            // starve the runs after it.
            left_bytes -= bytes;
            left_runs = (left_runs - 1).max(1);
            share = left_bytes.div_ceil(left_runs);
            (start, bytes) = (i, 0);
        }
        bytes += size;
    }
    if start < blocks.len() {
        runs.push(&blocks[start..]);
    }
    runs
}

/// How to run the pipeline.
#[derive(Clone, Debug)]
pub struct Options {
    /// The output folder (one subfolder per table).
    pub out: PathBuf,
    /// Width of a partition in block numbers: blocks `k·w ..= k·w + w − 1`
    /// go to one partition (named by the first and last block present).
    pub partition_blocks: u64,
    /// Threads decoding and writing share (`None`: every core); the
    /// source is read on a thread of its own.
    pub threads: Option<usize>,
    /// The first block the source must give (unless the manifest has it):
    /// `None`, whichever comes first.
    pub from: Option<u64>,
    /// The last block the source must give (unless the manifest has it):
    /// `None`, wherever the source ends.
    pub to: Option<u64>,
    /// Where the blocks come from, in the manifest and the files' metadata
    /// (a path, a node's URL).
    pub source: String,
    /// Whether the source may lack blocks of the range (a sample of a
    /// chain: the manifest records them as absent); by default a block
    /// missing is an error.
    pub gaps: Gaps,
    /// Also write the typed tables (`OUT/typed/events/<Pallet>.<Event>/`,
    /// `OUT/typed/calls/<Pallet>.<call>/`, see [`crate::typed`]) in each
    /// partition, under the same manifest entry.
    pub typed: bool,
}

impl Options {
    /// Defaults: 1,000-block partitions on every core, the source's blocks
    /// wherever they start and end.
    pub fn new(out: impl Into<PathBuf>) -> Self {
        Options {
            out: out.into(),
            partition_blocks: 1000,
            threads: None,
            from: None,
            to: None,
            source: String::new(),
            gaps: Gaps::Refused,
            typed: false,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Blocks decoded.
    pub blocks: u64,
    /// Blocks the manifest lists as done, skipped.
    pub skipped_blocks: u64,
    /// Extrinsics decoded.
    pub extrinsics: u64,
    /// Nested calls.
    pub calls: u64,
    /// Events decoded.
    pub events: u64,
    /// Items that did not decode (rows of the `errors` table).
    pub errors: u64,
    /// Of `errors`: events and calls that decoded but did not fit their
    /// typed table (`--typed`).
    pub typed_errors: u64,
    /// Partitions written.
    pub partitions: u64,
    /// Finished partitions (of earlier runs) whose blocks were skipped.
    pub skipped_partitions: u64,
    /// SCALE bytes of the decoded blocks.
    pub scale_bytes: u64,
    /// Parquet bytes written.
    pub parquet_bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Summary {
    /// Blocks decoded per second of wall-clock time.
    pub fn blocks_per_second(&self) -> f64 {
        self.blocks as f64 / self.seconds.max(1e-9)
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.seconds.max(1e-9);
        write!(
            f,
            "{} blocks ({} skipped as done), {} extrinsics, {} calls, {} events, {} errors{}; \
             partitions: {} written, {} skipped; {:.2} s: {:.0} blocks/s, {:.1} MB/s of SCALE",
            self.blocks,
            self.skipped_blocks,
            self.extrinsics,
            self.calls,
            self.events,
            self.errors,
            match self.typed_errors {
                0 => String::new(),
                n => format!(" ({n} of them typed rows)"),
            },
            self.partitions,
            self.skipped_partitions,
            self.seconds,
            self.blocks_per_second(),
            self.scale_bytes as f64 / secs / 1e6,
        )
    }
}

/// How far a run is: given to the observer of [`run_observed`] after each
/// partition (decoded or skipped).
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// The counts so far (`seconds`: elapsed; `partitions`: handed to the
    /// writer, which may still be writing the last one).
    pub summary: &'a Summary,
    /// The last block of the partition just done.
    pub last_block: u64,
    /// Its spec version (`None`: blocks done before, skipped).
    pub spec_version: Option<u32>,
}

/// Why a run stopped.
#[derive(Debug)]
pub enum IndexError {
    /// A line of the source is not a block.
    Source(SourceError),
    /// Blocks must come in increasing number order (partitions are ranges).
    OutOfOrder {
        /// The block read.
        block: u64,
        /// The block before it.
        after: u64,
    },
    /// A block of the range is neither in the source nor done.
    Missing {
        /// The first block missing.
        block: u64,
        /// The block the source gave instead (`None`: it ended).
        next: Option<u64>,
    },
    /// The output's manifest cannot be trusted as it is.
    Manifest(ManifestError),
    /// A block does not continue the chain: its header does not hash to
    /// its hash, its extrinsics are not those its header's extrinsics root
    /// commits to, or its parent is not the block before (a reorg, a wrong
    /// node, blocks of two chains).
    Chain {
        /// The block.
        block: u64,
        /// What does not match.
        reason: String,
    },
    /// A partition could not be written.
    Write(WriteError),
    /// The thread pool could not be built.
    Threads(String),
    /// `partition_blocks` is zero.
    Options(String),
    /// A runtime's metadata could not be loaded.
    Spec(SpecError),
    /// A partition's rows do not fit Arrow's arrays (a text column past
    /// 2 GiB): partitions of fewer blocks do.
    Batch {
        /// The partition's first block.
        first: u64,
        /// Its last block.
        last: u64,
        /// Arrow's error.
        reason: String,
    },
    /// A typed table's schemas over the partition's runtimes could not be
    /// joined (nothing of the partition is written).
    Typed {
        /// The partition's first block.
        first: u64,
        /// Its last block.
        last: u64,
        /// The table, column and runtimes.
        reason: String,
    },
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Source(e) => write!(f, "source: {e}"),
            IndexError::OutOfOrder { block, after } => write!(
                f,
                "source: block {block} comes after block {after} (blocks must be in increasing order)"
            ),
            IndexError::Missing { block, next: Some(next) } => write!(
                f,
                "source: block {block} is missing (the source went on with block {next}); \
                 the blocks before it are written, a rerun resumes there"
            ),
            IndexError::Missing { block, next: None } => write!(
                f,
                "source: block {block} is missing (the source ended before it); \
                 the blocks before it are written, a rerun resumes there"
            ),
            IndexError::Manifest(e) => write!(f, "manifest: {e}"),
            IndexError::Chain { block, reason } => write!(f, "chain: block {block}: {reason}"),
            IndexError::Write(e) => write!(f, "{e}"),
            IndexError::Threads(e) => write!(f, "thread pool: {e}"),
            IndexError::Options(e) => write!(f, "options: {e}"),
            IndexError::Spec(e) => write!(f, "metadata: {e}"),
            IndexError::Batch { first, last, reason } => write!(
                f,
                "blocks {first}..={last}: {reason} (use partitions of fewer blocks)"
            ),
            IndexError::Typed {
                first,
                last,
                reason,
            } => write!(f, "blocks {first}..={last}: {reason}"),
        }
    }
}

impl std::error::Error for IndexError {}

/// Runs the pipeline over `source` (blocks in increasing number order),
/// writing partitions under `options.out`.
pub fn run<I>(source: I, decoders: &mut Decoders, options: &Options) -> Result<Summary, IndexError>
where
    I: Iterator<Item = Result<Block, SourceError>> + Send,
{
    run_observed(source, decoders, options, &mut |_| {})
}

/// [`run`], calling `observer` after each partition (for a progress display).
pub fn run_observed<I>(
    source: I,
    decoders: &mut Decoders,
    options: &Options,
    observer: &mut dyn FnMut(&Progress<'_>),
) -> Result<Summary, IndexError>
where
    I: Iterator<Item = Result<Block, SourceError>> + Send,
{
    if options.partition_blocks == 0 {
        return Err(IndexError::Options(
            "partition_blocks must be at least 1".into(),
        ));
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = options.threads {
        pool = pool.num_threads(n);
    }
    let pool = pool
        .build()
        .map_err(|e| IndexError::Threads(e.to_string()))?;
    let start = Instant::now();
    let mut summary = Summary::default();
    let out = options.out.as_path();
    let done = Manifest::open(out).map_err(IndexError::Manifest)?;
    // The range asked for, recorded before anything is written: a run that
    // stops short leaves a gap `check` names.
    if let (Some(from), Some(to)) = (options.from, options.to) {
        let request = crate::manifest::Request { from, to: Some(to) };
        crate::manifest::declare(out, request).map_err(IndexError::Manifest)?;
    }
    let source_name = options.source.as_str();
    // The typed columns' names as the folder's earlier runs gave them: this
    // run extends them and never renames one ([`crate::saved_naming`]).
    let mut naming = match options.typed {
        true => saved_naming::load(out).map_err(IndexError::Manifest)?,
        false => Naming::new(),
    };
    // A naming read from the files (a folder written before it was saved)
    // is saved with the first typed partition, whatever its columns.
    let mut saved_columns = match saved_naming::is_saved(out) {
        true => Some(naming.column_count()),
        false => None,
    };

    std::thread::scope(|scope| {
        let (read_tx, read_rx) = sync_channel::<Result<Read, IndexError>>(1);
        let (write_tx, write_rx) = sync_channel::<(u64, u64, Tables)>(1);

        // Reader: the source into partitions.
        let done = &done;
        scope.spawn(move || {
            read_partitions(source, done, options, &mut |item| {
                read_tx.send(item).is_ok()
            });
        });

        // Writer: each decoded partition to Parquet, on the run's pool too:
        // rayon's global pool would be threads the run was not given (a
        // one-thread run would use every core), and with every core the
        // writer's threads and the decoder's would fight over them.
        let pool = &pool;
        let writer = scope.spawn(move || -> Result<(u64, u64), WriteError> {
            let (mut partitions, mut bytes) = (0, 0);
            for (first, last, tables) in write_rx {
                // Encoded on the pool; synced and put in place here, off
                // it: the pool decodes the next partition meanwhile.
                let staged = pool.install(|| {
                    write_partition(out, first, last, &tables, source_name, options.gaps)
                })?;
                drop(tables);
                bytes += staged.commit()?;
                partitions += 1;
            }
            Ok((partitions, bytes))
        });

        // Decoder (this thread): each partition on the pool.
        let mut failed = None;
        for item in read_rx {
            let p = match item {
                Ok(Read::Partition(p)) => p,
                Ok(Read::Skipped {
                    blocks,
                    last,
                    partitions,
                }) => {
                    summary.skipped_blocks += blocks;
                    summary.skipped_partitions += partitions;
                    summary.seconds = start.elapsed().as_secs_f64();
                    observer(&Progress {
                        summary: &summary,
                        last_block: last,
                        spec_version: None,
                    });
                    continue;
                }
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            };
            let spec_version = p.blocks.last().map(|b| b.spec_version);
            let mut specs: Vec<u32> = p.blocks.iter().map(|b| b.spec_version).collect();
            specs.dedup();
            if let Err(e) = decoders.prepare(&specs) {
                failed = Some(IndexError::Spec(e));
                break;
            }
            let decoders = &*decoders;
            let naming = &mut naming;
            let decoded = pool.install(|| match options.typed {
                true => decode_blocks_named(&p.blocks, decoders, naming),
                false => decode_blocks(&p.blocks, decoders).map_err(DecodeError::Arrow),
            });
            let tables = match decoded {
                Ok(tables) => tables,
                Err(DecodeError::Arrow(e)) => {
                    failed = Some(IndexError::Batch {
                        first: p.first,
                        last: p.last,
                        reason: e.to_string(),
                    });
                    break;
                }
                Err(DecodeError::Typed(e)) => {
                    failed = Some(IndexError::Typed {
                        first: p.first,
                        last: p.last,
                        reason: e.0,
                    });
                    break;
                }
            };
            // New columns saved before the partition that uses them is
            // written: no file of the folder holds a name the manifest lacks.
            if options.typed && saved_columns != Some(naming.column_count()) {
                if let Err(e) = saved_naming::save(out, naming) {
                    failed = Some(IndexError::Manifest(e));
                    break;
                }
                saved_columns = Some(naming.column_count());
            }
            summary.blocks += p.blocks.len() as u64;
            summary.scale_bytes += p.blocks.iter().map(|b| b.scale_bytes() as u64).sum::<u64>();
            let count = |table| tables.num_rows(table) as u64;
            summary.extrinsics += count(Table::Extrinsics);
            summary.calls += count(Table::Calls);
            summary.events += count(Table::Events);
            summary.errors += count(Table::Errors);
            summary.typed_errors += tables.typed_errors();
            summary.partitions += 1;
            summary.seconds = start.elapsed().as_secs_f64();
            observer(&Progress {
                summary: &summary,
                last_block: p.last,
                spec_version,
            });
            drop(p.blocks);
            if write_tx.send((p.first, p.last, tables)).is_err() {
                // The writer stopped on an error, reported below.
                break;
            }
        }
        drop(write_tx);
        let written = writer.join().expect("writer thread panicked");
        match (failed, written) {
            (Some(e), _) => Err(e),
            (None, Err(e)) => Err(IndexError::Write(e)),
            (None, Ok((partitions, bytes))) => {
                summary.partitions = partitions;
                summary.parquet_bytes = bytes;
                Ok(())
            }
        }
    })?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(number: u64, bytes: usize) -> Block {
        Block {
            number,
            hash: String::new(),
            spec_version: 0,
            extrinsics: vec![vec![0; bytes]],
            events: None,
            header: None,
            finalized: None,
        }
    }

    fn numbers(runs: &[&[Block]]) -> Vec<Vec<u64>> {
        runs.iter()
            .map(|r| r.iter().map(|b| b.number).collect())
            .collect()
    }

    #[test]
    fn typed_misfits_are_counted_for_the_summary() {
        use crate::rows::tests::{block, narrowed_spec};
        let mut decoders = Decoders::new();
        decoders.insert(narrowed_spec());
        let tables = decode_blocks_typed(&[block()], &decoders).expect("tables");
        // Timestamp.set's `now` and every Balances.Withdraw's `amount`.
        assert!(tables.typed_errors() > 1);
        assert_eq!(
            tables.typed_errors() as usize,
            tables.num_rows(Table::Errors)
        );
    }

    #[test]
    fn the_summary_counts_typed_error_rows_among_the_errors() {
        let mut summary = Summary {
            blocks: 2,
            errors: 3,
            ..Summary::default()
        };
        assert!(summary.to_string().contains(", 3 errors; "), "{summary}");
        summary.typed_errors = 2;
        assert!(
            summary
                .to_string()
                .contains(", 3 errors (2 of them typed rows); "),
            "{summary}"
        );
    }

    #[test]
    fn runs_are_even_a_multiple_of_the_threads_and_within_the_byte_budget() {
        let small: Vec<Block> = (0..5).map(|n| block(n, 10)).collect();
        assert_eq!(numbers(&runs_of(&small, 2)), [vec![0, 1, 2], vec![3, 4]]);
        assert_eq!(numbers(&runs_of(&small, 8)).len(), 5);
        assert!(runs_of::<Vec<u8>>(&[], 2).is_empty());
        let empty: Vec<Block> = (0..10).map(|n| block(n, 0)).collect();
        assert_eq!(
            numbers(&runs_of(&empty, 2)),
            [(0..5).collect::<Vec<_>>(), (5..10).collect()]
        );
        // 500 blocks of 18,468,942's size: five runs on one thread, six
        // (not five, three for one thread) on two, even to a block.
        let size = 75_500;
        let like: Vec<Block> = (0..500).map(|n| block(n, size)).collect();
        for (threads, count) in [(1, 5), (2, 6), (4, 8)] {
            let runs = runs_of(&like, threads);
            let lens: Vec<usize> = runs.iter().map(|r| r.len()).collect();
            assert_eq!(lens.len(), count, "{threads} threads: {lens:?}");
            assert!(
                lens.iter().max().unwrap() - lens.iter().min().unwrap() <= 1,
                "{lens:?}"
            );
            assert!(lens.iter().all(|&n| n * size <= RUN_BYTES), "{lens:?}");
            let all: Vec<u64> = numbers(&runs).concat();
            assert_eq!(all, (0..500).collect::<Vec<_>>());
        }
        // A block over the budget is a run of its own, and the blocks
        // after it are still shared out within the budget.
        let big: Vec<Block> = (0..7)
            .map(|n| block(n, if n == 4 { 2 * RUN_BYTES } else { RUN_BYTES / 3 }))
            .collect();
        let runs = numbers(&runs_of(&big, 1));
        assert_eq!(runs.concat(), (0..7).collect::<Vec<_>>());
        assert!(runs.contains(&vec![4]), "{runs:?}");
        for run in &runs {
            let bytes: usize = run.iter().map(|&n| big[n as usize].scale_bytes()).sum();
            assert!(run.len() == 1 || bytes <= RUN_BYTES, "{runs:?}");
        }
    }
}
