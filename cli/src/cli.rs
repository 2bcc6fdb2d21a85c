//! The command line: commands, their arguments and options.

use std::path::PathBuf;

use clap::{Args as ClapArgs, Parser, Subcommand};

/// SCALE codec for Substrate chains: metadata, dynamic decoding and
/// encoding in py-scale-codec's value shapes, SS58, and Rust codegen.
#[derive(Parser, Debug)]
#[command(name = "ferroscale", version, about)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Indent JSON output.
    #[arg(long, global = true)]
    pub(crate) pretty: bool,
}

/// What to do.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Summary of a runtime's metadata (a file, binary or 0x hex, or a
    /// node's with `--url`): version, spec, pallets.
    Metadata {
        /// The metadata file.
        #[arg(required_unless_present = "url", conflicts_with = "url")]
        file: Option<PathBuf>,
        #[command(flatten)]
        node: NodeArgs,
        /// One pallet in detail: its calls, events, errors, constants and storage.
        #[arg(long)]
        pallet: Option<String>,
        /// A type of the registry, by id (`42`) or path (`sp_runtime::DispatchError`).
        #[arg(long = "type")]
        type_: Option<String>,
        /// JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Also write the metadata, as SCALE bytes, to this file (what
        /// `cargo xtask generate --metadata FILE` and `--metadata` of the
        /// other commands read).
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
        /// Print the RFC-0078 metadata hash (what the `CheckMetadataHash`
        /// extension signs) as 0x hex; needs `--decimals` and `--token`.
        #[arg(long, conflicts_with_all = ["pallet", "type_", "json"])]
        digest: bool,
        #[command(flatten)]
        chain: DigestArgs,
    },
    /// Decode HEX as TYPE (a py-scale-codec type string: `u32`,
    /// `Vec<AccountId>`, `scale_info::42` …).
    Decode {
        /// The type string.
        #[arg(value_name = "TYPE")]
        type_string: String,
        /// The bytes: `0x…` hex, `@FILE` (binary or hex text) or `-` (stdin).
        hex: String,
        #[command(flatten)]
        registry: RegistryArgs,
    },
    /// Encode a JSON value as TYPE; prints `0x…` hex.
    Encode {
        /// The type string.
        #[arg(value_name = "TYPE")]
        type_string: String,
        /// The value as JSON (`@FILE` or `-` read it from a file or stdin); a
        /// bare word of letters and digits (`5Grw…`, `0x…`) is text.
        json: String,
        #[command(flatten)]
        registry: RegistryArgs,
    },
    /// Decode an extrinsic (with its length prefix) against a runtime's metadata.
    Extrinsic {
        /// The bytes: `0x…` hex, `@FILE` or `-`.
        hex: String,
        #[command(flatten)]
        registry: RegistryArgs,
    },
    /// Decode a block's `System.Events` storage value against a runtime's metadata.
    Events {
        /// The bytes: `0x…` hex, `@FILE` or `-`.
        hex: String,
        #[command(flatten)]
        registry: RegistryArgs,
    },
    /// The storage key of PALLET.ENTRY for its map keys (JSON values, one per
    /// hasher; fewer give the prefix to iterate under).
    StorageKey {
        /// The pallet, e.g. `System`.
        pallet: String,
        /// The storage entry, e.g. `Account`.
        entry: String,
        /// The map keys as JSON (`'[1, 2]'`); a bare word of letters and
        /// digits (`5Grw…`, `0x…`) is text.
        keys: Vec<String>,
        #[command(flatten)]
        registry: RegistryArgs,
    },
    /// A runtime API call (V15+ metadata): the `state_call` method and data
    /// for ARGS (JSON values), or with `--answer HEX` the decoded answer.
    RuntimeApi {
        /// The API trait, e.g. `Metadata`.
        #[arg(value_name = "TRAIT")]
        trait_name: String,
        /// The method, e.g. `metadata_versions`.
        method: String,
        /// The arguments as JSON, in order.
        args: Vec<String>,
        /// Decode this answer of the node (`0x…`, `@FILE` or `-`) instead.
        #[arg(long)]
        answer: Option<String>,
        #[command(flatten)]
        registry: RegistryArgs,
    },
    /// SS58 addresses.
    Ss58 {
        #[command(subcommand)]
        action: Ss58Action,
    },
    /// Decode a block range into zstd Parquet partitions (tables blocks,
    /// extrinsics, calls, events, errors), resuming where a previous run stopped.
    #[cfg(feature = "index")]
    Index(IndexArgs),
    /// Decode a block range into Parquet: not in this build (it needs the
    /// `index` feature: `cargo install --path cli --features index`).
    #[cfg(not(feature = "index"))]
    #[command(disable_help_flag = true)]
    Index {
        /// Whatever was given; the command is not built in.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
    /// Rust types (`parity_scale_codec` derives) for every type of a V14+
    /// runtime (a metadata file, or a node's with `--url`).
    Generate {
        /// The metadata file.
        #[arg(required_unless_present = "url", conflicts_with = "url")]
        file: Option<PathBuf>,
        #[command(flatten)]
        node: NodeArgs,
        /// Write the module here instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// SS58 conversions.
#[derive(Subcommand, Debug)]
pub(crate) enum Ss58Action {
    /// Public key or account id (`0x…`) to an address.
    Encode {
        /// The payload bytes, `0x…` hex.
        hex: String,
        /// The network format (0 Polkadot, 2 Kusama, 42 generic substrate).
        #[arg(long, default_value_t = 42)]
        format: u16,
    },
    /// Address to its network format and payload.
    Decode {
        /// The address.
        address: String,
        /// Refuse addresses of any other network format.
        #[arg(long)]
        format: Option<u16>,
    },
}

/// A node to fetch metadata from, instead of a file.
#[derive(ClapArgs, Debug, Default)]
pub(crate) struct NodeArgs {
    /// Fetch the runtime's metadata from this node's JSON-RPC endpoint
    /// (`http://` or `ws://`): the newest of V14–V16 it offers, else
    /// `state_getMetadata`.
    #[arg(long, value_name = "URL")]
    pub(crate) url: Option<String>,
    /// The block (0x hash) whose runtime `--url` asks for; default the best block.
    #[arg(long, value_name = "HASH", requires = "url")]
    pub(crate) at: Option<String>,
    /// Seconds `--url` waits for each answer of the node.
    #[arg(long, value_name = "SECS", default_value_t = 60, requires = "url")]
    pub(crate) rpc_timeout: u64,
}

/// The chain facts of `metadata --digest`: decimals and token symbol are
/// the node's `system_properties` (never in the metadata); the others
/// default to the metadata's `System.Version` and `System.SS58Prefix`.
#[derive(ClapArgs, Debug, Default)]
pub(crate) struct DigestArgs {
    /// Decimals of the chain's main token (`tokenDecimals`).
    #[arg(long, value_name = "N", requires = "digest")]
    pub(crate) decimals: Option<u8>,
    /// Symbol of the chain's main token (`tokenSymbol`), e.g. `DOT`.
    #[arg(long, value_name = "SYMBOL", requires = "digest")]
    pub(crate) token: Option<String>,
    /// The SS58 prefix (default: the metadata's `System.SS58Prefix`).
    #[arg(long, value_name = "N", requires = "digest")]
    pub(crate) base58_prefix: Option<u16>,
    /// The spec name (default: the metadata's `System.Version`).
    #[arg(long, value_name = "S", requires = "digest")]
    pub(crate) spec_name: Option<String>,
    /// The spec version (default: the metadata's `System.Version`).
    #[arg(long, value_name = "N", requires = "digest")]
    pub(crate) spec_version: Option<u32>,
}

/// What the dynamic registry is built from.
#[derive(ClapArgs, Debug, Default)]
pub(crate) struct RegistryArgs {
    /// Runtime metadata (binary or 0x hex; V9–V16). V14+ needs no presets.
    #[arg(long, conflicts_with = "url")]
    pub(crate) metadata: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) node: NodeArgs,
    /// py-scale-codec type-registry presets to load first, in order
    /// (`core,legacy,polkadot`); needed for legacy (V9–V13) metadata and
    /// for preset type names.
    #[arg(long, value_delimiter = ',')]
    pub(crate) presets: Vec<String>,
    /// Where the presets are (else `$FERROSCALE_PRESETS_DIR`).
    #[arg(long)]
    pub(crate) presets_dir: Option<PathBuf>,
    /// The runtime's spec version, for presets with versioned types.
    #[arg(long)]
    pub(crate) spec: Option<u64>,
    /// Render account ids as SS58 addresses of this network format.
    #[arg(long)]
    pub(crate) ss58: Option<u16>,
}

/// `ferroscale index`: where blocks come from, which ones, and where they go.
#[cfg(feature = "index")]
#[derive(ClapArgs, Debug)]
#[command(group(clap::ArgGroup::new("blocks").required(true).args(["source", "url", "check"])))]
pub(crate) struct IndexArgs {
    /// Blocks dumped as JSON lines, one block a line:
    /// `{"number": N, "hash": "0x…", "spec_version": S, "extrinsics": ["0x…"], "events": "0x…"}`.
    #[arg(long, value_name = "FILE")]
    pub(crate) source: Option<PathBuf>,
    /// A node (`ws://…` or `http://…`) to fetch the range from (needs
    /// `--from`, and `--to` or `--follow`); each runtime's metadata is
    /// fetched once into the metadata folder.
    #[arg(long, value_name = "URL", requires = "from")]
    pub(crate) url: Option<String>,
    /// Requests in flight to the node at the same time (blocks, or
    /// batches of blocks with `--batch`).
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub(crate) concurrency: usize,
    /// Blocks asked for in one JSON-RPC batch (1: a request per call). A
    /// node may limit or refuse batches (`--rpc-max-batch-request-len`).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) batch: usize,
    /// Tries after the first for a request that failed transiently (no
    /// answer, a dropped connection, HTTP 429 or 5xx, a node error), each
    /// after a growing wait with jitter, or the `Retry-After` the node gave;
    /// a WebSocket is reopened, and its handshake tried as often.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub(crate) retries: u32,
    /// Index blocks past the node's finalized head too (they may still
    /// change); by default a range stops at the head with an error.
    #[arg(long)]
    pub(crate) unfinalized: bool,
    /// Follow the chain from `--from` on: each partition is written once
    /// the finalized head has passed it, until Ctrl-C or SIGTERM, which
    /// stop it between partitions (a restart resumes).
    #[arg(long, requires_all = ["url", "from"], conflicts_with_all = ["to", "unfinalized"])]
    pub(crate) follow: bool,
    /// With `--follow`: seconds between two looks at the finalized head.
    #[arg(long, value_name = "SECONDS", default_value_t = 6.0)]
    pub(crate) poll: f64,
    /// Seconds one request may wait for its answer (opening a connection:
    /// at most 10).
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub(crate) timeout: u64,
    /// The output folder: `OUT/<table>/blocks_<first>_<last>.parquet`, and
    /// `OUT/_manifest/`, which says which blocks are done (a rerun skips
    /// them, whatever the range and partition width).
    #[arg(long, value_name = "DIR", required_unless_present = "check")]
    pub(crate) out: Option<PathBuf>,
    /// Verify a dataset instead of indexing: every block once, no gap (in
    /// `--from`..`--to` when given), every file readable and as the
    /// manifest lists it. Exits 1 when anything is wrong.
    #[arg(long, value_name = "OUT", conflicts_with_all = ["source", "url", "out"])]
    pub(crate) check: Option<PathBuf>,
    /// First block (inclusive).
    #[arg(long, value_name = "A")]
    pub(crate) from: Option<u64>,
    /// Last block (inclusive).
    #[arg(long, value_name = "B", requires = "from")]
    pub(crate) to: Option<u64>,
    /// A runtime's metadata (binary or 0x hex; V9–V13 need `--presets`);
    /// once per runtime the blocks use (its spec version is read from the
    /// file).
    #[arg(long, value_name = "FILE")]
    pub(crate) metadata: Vec<PathBuf>,
    /// py-scale-codec type-registry presets the runtimes' type strings
    /// resolve through, in order (`core,legacy,polkadot`): needed for
    /// legacy (V9–V13) metadata.
    #[arg(long, value_delimiter = ',')]
    pub(crate) presets: Vec<String>,
    /// Where the presets are (else `$FERROSCALE_PRESETS_DIR`).
    #[arg(long, value_name = "DIR")]
    pub(crate) presets_dir: Option<PathBuf>,
    /// A folder of runtimes' metadata, `DIR/<spec_name>/<spec_version>.scale`,
    /// each loaded when a block first needs it; with `--url` the cache the
    /// node's metadata is kept in (default `OUT/metadata`).
    #[arg(long, value_name = "DIR")]
    pub(crate) metadata_dir: Option<PathBuf>,
    /// Width of a partition in block numbers.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub(crate) partition_blocks: u64,
    /// Threads for decoding and writing (default: every core).
    #[arg(long, value_name = "N")]
    pub(crate) threads: Option<usize>,
    /// Render account ids as SS58 addresses of this network format (default:
    /// the chain's own `System.SS58Prefix`).
    #[arg(long)]
    pub(crate) ss58: Option<u16>,
    /// The final summary as JSON instead of a line of text.
    #[arg(long)]
    pub(crate) json: bool,
    /// The source is a sample of the chain: blocks it lacks between the
    /// ones it has are recorded in the manifest as absent, not an error.
    #[arg(long)]
    pub(crate) allow_gaps: bool,
    /// Also write the typed tables: one per event variant and per call, a
    /// column per field in Arrow's own types (`OUT/typed/events/<Pallet>.<Event>/`,
    /// `OUT/typed/calls/<Pallet>.<call>/`), under the same manifest.
    #[arg(long)]
    pub(crate) typed: bool,
}
