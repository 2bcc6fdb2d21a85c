//! A loopback Substrate node for tests (feature `test-server`): a
//! JSON-RPC server on `127.0.0.1` and an ephemeral port, speaking HTTP and
//! WebSocket on the same port, answering from data the test gives it
//! (fixture metadata and blocks), with faults a test can switch on: a
//! runtime without the metadata API, an endpoint that is not a Substrate
//! node, fixed (malformed) answers, slow methods, and methods that fail
//! their first calls.
//!
//! It stops when dropped, and by itself after its lifetime (two minutes by
//! default) so a leaked server never outlives a test run.
//!
//! ```no_run
//! use ferroscale_rpc::test_server::{TestBlock, TestNode, TestRuntime};
//!
//! let metadata = std::fs::read("../shared/fixtures/metadata/polkadot-v14-spec1000001.scale").unwrap();
//! let runtime = TestRuntime::new("polkadot", 1000001, vec![metadata]);
//! let server = TestNode::new(runtime)
//!     .first_number(18468942)
//!     .block(TestBlock { runtime: 0, extrinsics: vec![], events: None })
//!     .start()
//!     .unwrap();
//! let url = server.ws_url(); // ws://127.0.0.1:PORT
//! ```

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A JSON-RPC error answer (code, message, data), as [`NodeLogic`] gives one.
pub use jsonrpsee_server::types::ErrorObjectOwned;
use jsonrpsee_server::{RpcModule, Server, ServerHandle};
use parity_scale_codec::{Compact, Encode};
use serde_json::value::RawValue;
use serde_json::{json, Value};

use crate::answer::Hash;
use crate::blocks::system_events_key;

/// A runtime the test node runs: its version and metadata.
#[derive(Debug, Clone)]
pub struct TestRuntime {
    /// `specName`.
    pub spec_name: String,
    /// `specVersion`.
    pub spec_version: u32,
    /// Metadata blobs (`RuntimeMetadataPrefixed` bytes), one per version
    /// (the fifth byte says which).
    pub metadata: Vec<Vec<u8>>,
    /// What `Metadata_metadata_versions` answers; `None`: the versions of
    /// `metadata`.
    pub offered_versions: Option<Vec<u32>>,
    /// `transactionVersion` (default 1; a node signing transactions checks
    /// them against its runtime's own, the `System.Version` constant's).
    pub transaction_version: u32,
}

impl TestRuntime {
    /// A runtime offering exactly the versions of `metadata`.
    pub fn new(spec_name: &str, spec_version: u32, metadata: Vec<Vec<u8>>) -> TestRuntime {
        TestRuntime {
            spec_name: spec_name.to_owned(),
            spec_version,
            metadata,
            offered_versions: None,
            transaction_version: 1,
        }
    }

    fn blob(&self, version: u32) -> Option<&Vec<u8>> {
        self.metadata
            .iter()
            .find(|b| b.get(4).map(|&v| u32::from(v)) == Some(version))
    }
}

/// A block of the test chain.
#[derive(Debug, Clone)]
pub struct TestBlock {
    /// Index of its runtime in the node's runtimes.
    pub runtime: usize,
    /// Its extrinsics (SCALE, with length prefixes).
    pub extrinsics: Vec<Vec<u8>>,
    /// Its `System.Events` value.
    pub events: Option<Vec<u8>>,
}

impl TestBlock {
    /// A block from fixture texts: a JSON list of `0x` hex extrinsics (as in
    /// `payloads/*/extrinsics.json`) and optional `0x` hex events.
    pub fn from_fixture(
        runtime: usize,
        extrinsics_json: &str,
        events_hex: Option<&str>,
    ) -> Result<TestBlock, String> {
        let list: Vec<String> =
            serde_json::from_str(extrinsics_json).map_err(|e| format!("extrinsics: {e}"))?;
        let hex = |t: &str| {
            ferroscale_core::hex::decode(t.trim().trim_start_matches("0x"))
                .map_err(|e| e.to_string())
        };
        Ok(TestBlock {
            runtime,
            extrinsics: list.iter().map(|x| hex(x)).collect::<Result<_, _>>()?,
            events: events_hex.map(hex).transpose()?,
        })
    }
}

/// The block a call is answered at, as a [`NodeLogic`] sees it.
#[derive(Debug, Clone, Copy)]
pub struct BlockAt<'a> {
    /// Its number.
    pub number: u64,
    /// Its hash.
    pub hash: Hash,
    /// The runtime its state runs.
    pub runtime: &'a TestRuntime,
    /// The hash of every block the node has, first block first (the
    /// genesis hash, and a mortal era's checkpoint, are found here).
    pub chain: &'a [Hash],
    /// The number of the first of them.
    pub first_number: u64,
}

/// What a node does beyond serving blocks, metadata and storage: the
/// answers to transactions and runtime calls that need the runtime's logic
/// (decoding an extrinsic, checking its signature). The test node asks it
/// first for every method it lists, and for every `state_call` other than
/// the `Metadata` API's.
pub trait NodeLogic: Send + Sync + std::fmt::Debug {
    /// The methods it serves besides the node's own (`author_submitExtrinsic` …).
    fn methods(&self) -> &'static [&'static str];
    /// The answer to `method` with `params` at `at`; `None` leaves it to
    /// the node (which answers "method not found" for a method it lacks).
    fn answer(
        &self,
        method: &str,
        params: &[Value],
        at: BlockAt<'_>,
    ) -> Option<Result<Value, ErrorObjectOwned>>;
}

/// The test node's configuration; [`TestNode::start`] serves it.
#[derive(Debug, Clone)]
pub struct TestNode {
    runtimes: Vec<TestRuntime>,
    first_number: u64,
    blocks: Vec<TestBlock>,
    metadata_api: bool,
    substrate: bool,
    answers: HashMap<String, Value>,
    delays: HashMap<String, Duration>,
    flaky: HashMap<String, u32>,
    lifetime: Duration,
    /// Blocks behind the best one that are not final yet.
    unfinalized: u64,
    /// The first block of another fork (its state root differs, and so do
    /// its hash and every later one).
    fork: Option<u64>,
    /// A block whose header names a parent that is not its parent.
    broken_parent: Option<u64>,
    /// A block served with one byte of one extrinsic flipped, its header
    /// still committing to the extrinsics as they were: `(block, extrinsic)`.
    tampered: Option<(u64, usize)>,
    /// How often the finalized head moves one block on (`None`: it stays).
    finalize_every: Option<Duration>,
    /// Storage (the same at every block), by key.
    storage: std::collections::BTreeMap<Vec<u8>, Vec<u8>>,
    /// `system_chain` and `system_properties`.
    chain: String,
    properties: Value,
    /// Transactions and runtime calls.
    logic: Option<Arc<dyn NodeLogic>>,
}

/// A BABE pre-runtime digest log, as a relay chain's block carries: a
/// secondary-plain pre-digest of authority `number % 7` at slot `number + 1000`.
fn babe_log(number: u64) -> Vec<u8> {
    let mut predigest = vec![2u8];
    predigest.extend_from_slice(&((number % 7) as u32).to_le_bytes());
    predigest.extend_from_slice(&(number + 1000).to_le_bytes());
    let mut log = vec![6u8];
    log.extend_from_slice(b"BABE");
    Compact(predigest.len() as u32).encode_to(&mut log);
    log.extend_from_slice(&predigest);
    log
}

/// Every method the node serves (a list of `'static` names, as jsonrpsee
/// registers them).
const METHODS: &[&str] = &[
    "chain_getBlockHash",
    "chain_getBlock",
    "chain_getHeader",
    "chain_getFinalizedHead",
    "state_getStorage",
    "state_getRuntimeVersion",
    "state_getMetadata",
    "state_call",
    // What clients (substrate-interface, async-substrate-interface) ask on
    // connecting, and the storage reads of their `query`/`query_map`.
    "chain_getHead",
    "chain_getRuntimeVersion",
    "state_getStorageAt",
    "state_getKeysPaged",
    "state_queryStorageAt",
    "system_chain",
    "system_name",
    "system_version",
    "system_properties",
    "rpc_methods",
];

/// What a non-Substrate endpoint serves instead (an Ethereum-style node).
const OTHER_METHODS: &[&str] = &["eth_chainId", "net_version"];

impl TestNode {
    /// A node running `runtime` (index 0) with no blocks yet.
    pub fn new(runtime: TestRuntime) -> TestNode {
        TestNode {
            runtimes: vec![runtime],
            first_number: 0,
            blocks: Vec::new(),
            metadata_api: true,
            substrate: true,
            answers: HashMap::new(),
            delays: HashMap::new(),
            flaky: HashMap::new(),
            lifetime: Duration::from_secs(120),
            unfinalized: 0,
            fork: None,
            broken_parent: None,
            tampered: None,
            finalize_every: None,
            storage: std::collections::BTreeMap::new(),
            chain: "Development".to_owned(),
            properties: json!({}),
            logic: None,
        }
    }

    /// Sets storage item `key` to `value` (at every block).
    pub fn storage(mut self, key: Vec<u8>, value: Vec<u8>) -> TestNode {
        self.storage.insert(key, value);
        self
    }

    /// What `system_chain` answers (default `Development`).
    pub fn chain(mut self, name: &str) -> TestNode {
        self.chain = name.to_owned();
        self
    }

    /// What `system_properties` answers (default `{}`).
    pub fn properties(mut self, properties: Value) -> TestNode {
        self.properties = properties;
        self
    }

    /// Answers transactions and runtime calls with `logic`.
    pub fn logic(mut self, logic: Arc<dyn NodeLogic>) -> TestNode {
        self.logic = Some(logic);
        self
    }

    /// Adds a runtime (for upgrades); blocks name it by index.
    pub fn runtime(mut self, runtime: TestRuntime) -> TestNode {
        self.runtimes.push(runtime);
        self
    }

    /// The number of the first block (default 0).
    pub fn first_number(mut self, number: u64) -> TestNode {
        self.first_number = number;
        self
    }

    /// Appends a block.
    pub fn block(mut self, block: TestBlock) -> TestNode {
        self.blocks.push(block);
        self
    }

    /// Runtimes without the `Metadata` runtime API: `state_call` of its
    /// methods fails as on an old runtime.
    pub fn without_metadata_api(mut self) -> TestNode {
        self.metadata_api = false;
        self
    }

    /// Serves no Substrate method at all (every one is "method not found").
    pub fn not_substrate(mut self) -> TestNode {
        self.substrate = false;
        self
    }

    /// `method` always answers `answer` (for malformed answers).
    pub fn answer(mut self, method: &str, answer: Value) -> TestNode {
        self.answers.insert(method.to_owned(), answer);
        self
    }

    /// `method` waits `delay` before answering.
    pub fn delay(mut self, method: &str, delay: Duration) -> TestNode {
        self.delays.insert(method.to_owned(), delay);
        self
    }

    /// The first `failures` calls of `method` with each distinct parameter
    /// list fail with an internal error (-32603).
    pub fn flaky(mut self, method: &str, failures: u32) -> TestNode {
        self.flaky.insert(method.to_owned(), failures);
        self
    }

    /// Leaves the last `blocks` blocks unfinalized (`chain_getFinalizedHead`
    /// names the one before them; default: every block is final).
    pub fn unfinalized(mut self, blocks: u64) -> TestNode {
        self.unfinalized = blocks;
        self
    }

    /// Moves the finalized head one block on every `interval` (from where
    /// [`TestNode::unfinalized`] puts it at the start, up to the best
    /// block), as a live chain's does.
    pub fn finalize_every(mut self, interval: Duration) -> TestNode {
        self.finalize_every = Some(interval);
        self
    }

    /// Serves another fork from block `number` on: that block's state root
    /// differs, so its hash and every later block's differ from a node
    /// without the fork (a reorg, seen across two runs).
    pub fn fork(mut self, number: u64) -> TestNode {
        self.fork = Some(number);
        self
    }

    /// Gives block `number` a header whose parent hash is not its parent's
    /// (its header no longer hashes to the block's hash).
    pub fn broken_parent(mut self, number: u64) -> TestNode {
        self.broken_parent = Some(number);
        self
    }

    /// Serves extrinsic `index` of block `number` with its last byte
    /// flipped (bytes changed on the way), while the header's extrinsics
    /// root is still that of the block's own extrinsics.
    pub fn tampered_extrinsic(mut self, number: u64, index: usize) -> TestNode {
        self.tampered = Some((number, index));
        self
    }

    fn state_root(&self, number: u64) -> [u8; 32] {
        [u8::from(self.fork.is_some_and(|f| number >= f)); 32]
    }

    /// How long the server runs at most (default two minutes).
    pub fn lifetime(mut self, lifetime: Duration) -> TestNode {
        self.lifetime = lifetime;
        self
    }

    /// Starts serving on `127.0.0.1` and an ephemeral port.
    pub fn start(self) -> Result<TestServer, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ferroscale-test-node")
            .enable_all()
            .build()
            .map_err(|e| format!("test node runtime: {e}"))?;
        let lifetime = self.lifetime;
        let state = Arc::new(State::new(self));
        let (addr, handle) = runtime.block_on(serve(state.clone()))?;
        let stopper = handle.clone();
        runtime.spawn(async move {
            tokio::time::sleep(lifetime).await;
            let _ = stopper.stop();
        });
        Ok(TestServer {
            addr,
            handle,
            state,
            runtime: Some(runtime),
        })
    }
}

/// A running test node; stops when dropped.
pub struct TestServer {
    addr: SocketAddr,
    handle: ServerHandle,
    state: Arc<State>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl TestServer {
    /// `http://127.0.0.1:PORT`.
    pub fn http_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `ws://127.0.0.1:PORT`.
    pub fn ws_url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// How many calls of `method` the node received.
    pub fn requests(&self, method: &str) -> u64 {
        let counts = self.state.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.get(method).copied().unwrap_or(0)
    }

    /// The hash the node gives block `number`.
    pub fn block_hash(&self, number: u64) -> Option<Hash> {
        let i = number.checked_sub(self.state.node.first_number)?;
        self.state.hashes.get(usize::try_from(i).ok()?).copied()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = self.handle.stop();
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

struct State {
    node: TestNode,
    hashes: Vec<Hash>,
    /// Each block's extrinsics root, computed once: hashing a 50 KB body
    /// again for every `chain_getBlock` was a fifth of the node's work.
    roots: Vec<Hash>,
    parents: Vec<Hash>,
    by_hash: HashMap<Hash, usize>,
    counts: Mutex<HashMap<String, u64>>,
    failures: Mutex<HashMap<String, u32>>,
    /// When the node started (the finalized head moves from then).
    started: std::time::Instant,
}

/// A block's extrinsics root as a Polkadot runtime builds it (trie layout
/// V0), so that the indexer's check of the body against the header holds
/// for the node's blocks, and fails for bytes changed on the way.
fn extrinsics_root(block: &TestBlock) -> [u8; 32] {
    use ferroscale_core::hashing::{ordered_trie_root, TrieLayout};
    ordered_trie_root(&block.extrinsics, TrieLayout::V0)
}

impl State {
    fn new(node: TestNode) -> State {
        let mut hashes = Vec::with_capacity(node.blocks.len());
        let mut parents = Vec::with_capacity(node.blocks.len());
        let roots: Vec<Hash> = node.blocks.iter().map(extrinsics_root).collect();
        let mut parent = [0u8; 32];
        for (i, root) in roots.iter().enumerate() {
            // A real header's encoding, so hashes are a chain's: each block
            // names its parent, and a fork changes every hash after it.
            let number = node.first_number + i as u64;
            let hash = ferroscale_core::hashing::header_hash(
                &parent,
                number,
                &node.state_root(number),
                root,
                &[babe_log(number)],
            );
            parents.push(parent);
            hashes.push(hash);
            parent = hash;
        }
        let by_hash = hashes.iter().enumerate().map(|(i, h)| (*h, i)).collect();
        State {
            node,
            hashes,
            roots,
            parents,
            by_hash,
            counts: Mutex::new(HashMap::new()),
            failures: Mutex::new(HashMap::new()),
            started: std::time::Instant::now(),
        }
    }

    /// Block `i`'s header as `chain_getHeader` gives it.
    fn header(&self, i: usize) -> Value {
        let number = self.node.first_number + i as u64;
        let parent = match self.node.broken_parent {
            Some(n) if n == number => [0xee; 32],
            _ => self.parents[i],
        };
        json!({
            "parentHash": Self::hex(&parent),
            "number": format!("0x{number:x}"),
            "stateRoot": Self::hex(&self.node.state_root(number)),
            "extrinsicsRoot": Self::hex(&self.roots[i]),
            "digest": {"logs": [Self::hex(&babe_log(number))]},
        })
    }

    fn hex(bytes: &[u8]) -> Value {
        Value::from(ferroscale_core::hex::encode_prefixed(bytes))
    }

    /// The block `at` names (the best block when absent), or `None` for a
    /// node without blocks.
    fn at(&self, param: Option<&Value>) -> Result<Option<usize>, ErrorObjectOwned> {
        match param {
            None | Some(Value::Null) => Ok(self.hashes.len().checked_sub(1)),
            Some(v) => {
                let hash =
                    crate::answer::hash("at", "at", v).map_err(|e| invalid(e.to_string()))?;
                self.by_hash
                    .get(&hash)
                    .copied()
                    .map(Some)
                    .ok_or_else(|| ErrorObjectOwned::owned(4003, "Unknown block", None::<()>))
            }
        }
    }

    fn runtime_at(&self, at: Option<usize>) -> &TestRuntime {
        let index = at.map_or(0, |i| self.node.blocks[i].runtime);
        &self.node.runtimes[index.min(self.node.runtimes.len() - 1)]
    }

    /// Storage item `key` at block `at`: the block's own `System.Events`,
    /// else the node's storage.
    fn storage_at(&self, key: &[u8], at: Option<usize>) -> Option<&[u8]> {
        let i = at?;
        if key == system_events_key() {
            return self.node.blocks[i].events.as_deref();
        }
        self.node.storage.get(key).map(Vec::as_slice)
    }

    /// Block `at` (the best block when `None`) for a [`NodeLogic`].
    fn block_at(&self, at: Option<usize>) -> Option<BlockAt<'_>> {
        let i = at.or_else(|| self.hashes.len().checked_sub(1))?;
        Some(BlockAt {
            number: self.node.first_number + i as u64,
            hash: self.hashes[i],
            runtime: self.runtime_at(Some(i)),
            chain: &self.hashes,
            first_number: self.node.first_number,
        })
    }

    /// [`NodeLogic`]'s answer, where it gives one: for the methods it lists,
    /// and for runtime calls other than the `Metadata` API's.
    fn logic_answer(
        &self,
        method: &str,
        params: &[Value],
    ) -> Option<Result<Value, ErrorObjectOwned>> {
        let logic = self.node.logic.as_ref()?;
        let at = if method == "state_call" {
            let name = params.first().and_then(Value::as_str).unwrap_or_default();
            if name.starts_with("Metadata_") {
                return None;
            }
            match self.at(params.get(2)) {
                Ok(at) => at,
                Err(e) => return Some(Err(e)),
            }
        } else if logic.methods().contains(&method) {
            None
        } else {
            return None;
        };
        logic.answer(method, params, self.block_at(at)?)
    }

    fn answer(&self, method: &str, params: &[Value]) -> Result<Value, ErrorObjectOwned> {
        match method {
            "eth_chainId" => Ok(json!("0x1")),
            "net_version" => Ok(json!("1")),
            "chain_getBlockHash" | "chain_getHead" => {
                let i = match params.first() {
                    None | Some(Value::Null) => self.hashes.len().checked_sub(1),
                    Some(v) => {
                        let n = v.as_u64().ok_or_else(|| invalid("block number".into()))?;
                        n.checked_sub(self.node.first_number)
                            .and_then(|i| usize::try_from(i).ok())
                            .filter(|&i| i < self.hashes.len())
                    }
                };
                Ok(i.map_or(Value::Null, |i| Self::hex(&self.hashes[i])))
            }
            "chain_getHeader" => {
                let Some(i) = self.at(params.first()).ok().flatten() else {
                    return Ok(Value::Null);
                };
                Ok(self.header(i))
            }
            "chain_getFinalizedHead" => {
                let last = self.hashes.len().saturating_sub(1);
                let unfinalized = usize::try_from(self.node.unfinalized).unwrap_or(usize::MAX);
                let moved = self.node.finalize_every.map_or(0, |every| {
                    let steps = self.started.elapsed().as_nanos() / every.as_nanos().max(1);
                    usize::try_from(steps).unwrap_or(usize::MAX)
                });
                let i = last.saturating_sub(unfinalized.saturating_sub(moved));
                Ok(self.hashes.get(i).map_or(Value::Null, |h| Self::hex(h)))
            }
            "state_getKeysPaged" => {
                let prefix = hex_param(params.first(), "prefix")?;
                let count = params
                    .get(1)
                    .and_then(Value::as_u64)
                    .ok_or_else(|| invalid("count".into()))?;
                // A node's own cap on a page.
                if count > 1000 {
                    return Err(invalid(format!("count {count} is over 1000")));
                }
                let start = match params.get(2) {
                    None | Some(Value::Null) => None,
                    Some(v) => Some(hex_param(Some(v), "start key")?),
                };
                self.at(params.get(3))?;
                let keys = self
                    .node
                    .storage
                    .keys()
                    .filter(|k| k.starts_with(&prefix))
                    .filter(|k| start.as_ref().is_none_or(|s| *k > s))
                    .take(usize::try_from(count).unwrap_or(usize::MAX))
                    .map(|k| Self::hex(k))
                    .collect::<Vec<_>>();
                Ok(Value::from(keys))
            }
            "state_queryStorageAt" => {
                let keys = params
                    .first()
                    .and_then(Value::as_array)
                    .ok_or_else(|| invalid("keys: not a list".into()))?;
                let at = self.at(params.get(1))?;
                let changes = keys
                    .iter()
                    .map(|k| {
                        let key = hex_param(Some(k), "key")?;
                        let value = self.storage_at(&key, at).map_or(Value::Null, Self::hex);
                        Ok(json!([Self::hex(&key), value]))
                    })
                    .collect::<Result<Vec<_>, ErrorObjectOwned>>()?;
                let block = at.map_or(Value::Null, |i| Self::hex(&self.hashes[i]));
                Ok(json!([{"block": block, "changes": changes}]))
            }
            "system_chain" => Ok(Value::from(self.node.chain.clone())),
            "system_name" => Ok(json!("ferroscale-test-node")),
            "system_version" => Ok(Value::from(env!("CARGO_PKG_VERSION"))),
            "system_properties" => Ok(self.node.properties.clone()),
            "rpc_methods" => {
                let logic = self.node.logic.as_ref().map_or(&[][..], |l| l.methods());
                let mut methods: Vec<&str> = METHODS.iter().chain(logic).copied().collect();
                methods.sort_unstable();
                Ok(json!({"version": 1, "methods": methods}))
            }
            "state_getRuntimeVersion" | "chain_getRuntimeVersion" => {
                let rt = self.runtime_at(self.at(params.first())?);
                Ok(json!({
                    "specName": rt.spec_name,
                    "implName": rt.spec_name,
                    "authoringVersion": 0,
                    "specVersion": rt.spec_version,
                    "implVersion": 0,
                    "apis": [],
                    "transactionVersion": rt.transaction_version,
                    "stateVersion": 1,
                }))
            }
            "state_getMetadata" => {
                let rt = self.runtime_at(self.at(params.first())?);
                // Nodes answer V14 here when they have it (the default
                // version of the API).
                let blob = rt.blob(14).or(rt.metadata.first());
                blob.map(|b| Self::hex(b))
                    .ok_or_else(|| invalid("no metadata".into()))
            }
            "state_call" => {
                let name = params.first().and_then(Value::as_str).unwrap_or_default();
                let data = params
                    .get(1)
                    .and_then(Value::as_str)
                    .and_then(|t| ferroscale_core::hex::decode(t.trim_start_matches("0x")).ok())
                    .ok_or_else(|| invalid("call data".into()))?;
                let rt = self.runtime_at(self.at(params.get(2))?);
                let missing = || {
                    ErrorObjectOwned::owned(
                        4003,
                        format!(
                            "Client error: Execution failed: Exported method {name} is not found"
                        ),
                        None::<()>,
                    )
                };
                if !self.node.metadata_api {
                    return Err(missing());
                }
                match name {
                    "Metadata_metadata_versions" => {
                        let versions = rt.offered_versions.clone().unwrap_or_else(|| {
                            rt.metadata
                                .iter()
                                .filter_map(|b| b.get(4).map(|&v| u32::from(v)))
                                .collect()
                        });
                        Ok(Self::hex(&versions.encode()))
                    }
                    "Metadata_metadata_at_version" => {
                        let version = <[u8; 4]>::try_from(data.as_slice())
                            .map(u32::from_le_bytes)
                            .map_err(|_| invalid("version".into()))?;
                        Ok(Self::hex(&rt.blob(version).cloned().encode()))
                    }
                    _ => Err(missing()),
                }
            }
            _ => Err(ErrorObjectOwned::owned(
                -32601,
                "Method not found",
                None::<()>,
            )),
        }
    }

    /// `chain_getBlock`'s answer, its JSON text written directly: the
    /// extrinsics' hex is most of a block's answer, and serde_json's
    /// serializer checks every character of a string for escapes, one at a
    /// time (a third of the node's work, when a `Value` was serialized);
    /// `RawValue` checks the text in one pass that skips ahead by words.
    fn block_answer(&self, params: &[Value]) -> Result<Box<RawValue>, ErrorObjectOwned> {
        let Some(i) = self.at(params.first()).ok().flatten() else {
            return raw("null".to_owned());
        };
        let block = &self.node.blocks[i];
        let number = self.node.first_number + i as u64;
        let tampered = self.node.tampered.filter(|(n, _)| *n == number);
        let hex_len: usize = block.extrinsics.iter().map(|x| 2 * x.len() + 5).sum();
        let mut text = String::with_capacity(hex_len + 512);
        text.push_str(r#"{"block":{"header":"#);
        text.push_str(&self.header(i).to_string());
        text.push_str(r#","extrinsics":["#);
        for (k, x) in block.extrinsics.iter().enumerate() {
            if k > 0 {
                text.push(',');
            }
            match tampered {
                Some((_, t)) if t == k => {
                    let mut x = x.clone();
                    if let Some(byte) = x.last_mut() {
                        *byte ^= 0xff;
                    }
                    push_hex_string(&mut text, &x);
                }
                _ => push_hex_string(&mut text, x),
            }
        }
        text.push_str(r#"]},"justifications":null}"#);
        raw(text)
    }

    /// `state_getStorage`'s answer, written directly (see [`State::block_answer`]).
    fn storage_answer(&self, params: &[Value]) -> Result<Box<RawValue>, ErrorObjectOwned> {
        let key = hex_param(params.first(), "key")?;
        let at = self.at(params.get(1))?;
        match self.storage_at(&key, at) {
            None => raw("null".to_owned()),
            Some(value) => {
                let mut text = String::with_capacity(2 * value.len() + 4);
                push_hex_string(&mut text, value);
                raw(text)
            }
        }
    }

    /// The faults and bookkeeping around [`State::answer`].
    async fn handle(&self, method: &str, params: Vec<Value>) -> Result<Answer, ErrorObjectOwned> {
        {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            *counts.entry(method.to_owned()).or_default() += 1;
        }
        if let Some(delay) = self.node.delays.get(method) {
            tokio::time::sleep(*delay).await;
        }
        if let Some(&n) = self.node.flaky.get(method) {
            let key = format!("{method}{}", Value::from(params.clone()));
            let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
            let seen = failures.entry(key).or_default();
            if *seen < n {
                *seen += 1;
                return Err(ErrorObjectOwned::owned(
                    -32603,
                    "Internal error (the test node's injected failure)",
                    None::<()>,
                ));
            }
        }
        if let Some(answer) = self.node.answers.get(method) {
            return Ok(Answer::Json(answer.clone()));
        }
        if let Some(answer) = self.logic_answer(method, &params) {
            return answer.map(Answer::Json);
        }
        match method {
            "chain_getBlock" => self.block_answer(&params).map(Answer::Raw),
            "state_getStorage" | "state_getStorageAt" => {
                self.storage_answer(&params).map(Answer::Raw)
            }
            _ => self.answer(method, &params).map(Answer::Json),
        }
    }
}

/// An answer: a JSON value, or JSON text written directly (a block's).
#[derive(Clone)]
enum Answer {
    Json(Value),
    Raw(Box<RawValue>),
}

impl serde::Serialize for Answer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Answer::Json(value) => value.serialize(serializer),
            Answer::Raw(text) => text.serialize(serializer),
        }
    }
}

/// JSON text as an answer (checked by serde_json, in one pass that does
/// not stop at each character).
fn raw(text: String) -> Result<Box<RawValue>, ErrorObjectOwned> {
    RawValue::from_string(text).map_err(|e| {
        ErrorObjectOwned::owned(-32603, format!("the test node's answer: {e}"), None::<()>)
    })
}

/// Appends `bytes` as a JSON string of `0x` hex.
fn push_hex_string(text: &mut String, bytes: &[u8]) {
    text.push_str("\"0x");
    ferroscale_core::hex::push_hex(text, bytes);
    text.push('"');
}

/// A `0x` hex parameter's bytes.
fn hex_param(param: Option<&Value>, what: &str) -> Result<Vec<u8>, ErrorObjectOwned> {
    let text = param
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(format!("{what}: not a hex string")))?;
    ferroscale_core::hex::decode(text.trim_start_matches("0x"))
        .map_err(|e| invalid(format!("{what}: {e}")))
}

fn invalid(what: String) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(-32602, format!("Invalid params: {what}"), None::<()>)
}

async fn serve(state: Arc<State>) -> Result<(SocketAddr, ServerHandle), String> {
    let server = Server::builder()
        .build("127.0.0.1:0")
        .await
        .map_err(|e| format!("test node: cannot bind 127.0.0.1: {e}"))?;
    let addr = server.local_addr().map_err(|e| format!("test node: {e}"))?;
    let mut module = RpcModule::from_arc(state.clone());
    let methods: Vec<&'static str> = if state.node.substrate {
        let logic = state.node.logic.as_ref().map_or(&[][..], |l| l.methods());
        METHODS.iter().chain(logic).copied().collect()
    } else {
        OTHER_METHODS.to_vec()
    };
    for name in methods {
        module
            .register_async_method(name, move |params, state, _| async move {
                let list: Vec<Value> = match params.as_str() {
                    None => Vec::new(),
                    Some(text) => serde_json::from_str(text)
                        .map_err(|e| invalid(format!("not a list: {e}")))?,
                };
                state.handle(name, list).await
            })
            .map_err(|e| format!("test node: {e}"))?;
    }
    Ok((addr, server.start(module)))
}
