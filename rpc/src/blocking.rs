//! [`BlockingClient`]: the [`Client`] for synchronous code (the CLI, the
//! indexer's pipeline), owning a small tokio runtime.

use std::ops::Range;

use futures_util::StreamExt;
use tokio::runtime::Runtime;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::answer::Hash;
use crate::blocks::{Block, FetchedBlock, RangeOptions, RuntimeVersion};
use crate::client::Client;
use crate::config::ClientConfig;
use crate::error::Error;
use crate::metadata::FetchedMetadata;
use crate::retry::RetryPolicy;

/// A [`Client`] with its own runtime: every method blocks until the answer
/// is in. Do not use it from inside an async runtime (use [`Client`]
/// there).
pub struct BlockingClient {
    // Declared before `runtime`: the client (and its connection) is
    // dropped while the runtime still runs.
    client: Client,
    runtime: Runtime,
}

impl BlockingClient {
    /// Connects to `url` with the default [`ClientConfig`].
    pub fn connect(url: &str) -> Result<BlockingClient, Error> {
        BlockingClient::connect_with(url, ClientConfig::default())
    }

    /// Connects to `url` (see [`Client::connect_with`]).
    pub fn connect_with(url: &str, config: ClientConfig) -> Result<BlockingClient, Error> {
        let runtime = runtime()?;
        let client = runtime.block_on(Client::connect_with(url, config))?;
        Ok(BlockingClient { client, runtime })
    }

    /// Connects to `url`, tried again by `retry` while the failure is
    /// transient (see [`Client::connect_retrying`]).
    pub fn connect_retrying(
        url: &str,
        config: ClientConfig,
        retry: &RetryPolicy,
    ) -> Result<BlockingClient, Error> {
        let runtime = runtime()?;
        let client = runtime.block_on(Client::connect_retrying(url, config, retry))?;
        Ok(BlockingClient { client, runtime })
    }

    /// The async client inside (for a call this type does not wrap, with
    /// [`BlockingClient::block_on`]).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Runs a future on this client's runtime.
    pub fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }

    /// See [`Client::request`].
    pub fn request(
        &self,
        method: &str,
        params: Vec<serde_json::Value>,
    ) -> Result<serde_json::Value, Error> {
        self.block_on(self.client.request(method, params))
    }

    /// See [`Client::metadata`].
    pub fn metadata(&self, at: Option<&Hash>) -> Result<FetchedMetadata, Error> {
        self.block_on(self.client.metadata(at))
    }

    /// See [`Client::finalized_number`].
    pub fn finalized_number(&self) -> Result<u64, Error> {
        self.block_on(self.client.finalized_number())
    }

    /// See [`Client::block_hash`].
    pub fn block_hash(&self, number: u64) -> Result<Option<Hash>, Error> {
        self.block_on(self.client.block_hash(number))
    }

    /// See [`Client::block`].
    pub fn block(&self, hash: &Hash) -> Result<Option<Block>, Error> {
        self.block_on(self.client.block(hash))
    }

    /// See [`Client::storage`].
    pub fn storage(&self, key: &[u8], at: Option<&Hash>) -> Result<Option<Vec<u8>>, Error> {
        self.block_on(self.client.storage(key, at))
    }

    /// See [`Client::events`].
    pub fn events(&self, at: Option<&Hash>) -> Result<Option<Vec<u8>>, Error> {
        self.block_on(self.client.events(at))
    }

    /// See [`Client::runtime_version`].
    pub fn runtime_version(&self, at: Option<&Hash>) -> Result<RuntimeVersion, Error> {
        self.block_on(self.client.runtime_version(at))
    }

    /// See [`Client::fetch_block`].
    pub fn fetch_block(&self, number: u64, options: &RangeOptions) -> Result<FetchedBlock, Error> {
        self.block_on(self.client.fetch_block(number, options))
    }

    /// The blocks of `range` in order (see [`Client::blocks`]). Fetching
    /// runs ahead on the client's runtime while the caller works, holding
    /// at most `2 × options.concurrency` blocks not yet taken; dropping the
    /// iterator stops it.
    pub fn blocks(&self, range: Range<u64>, options: RangeOptions) -> BlockIter<'_> {
        let ahead = options.concurrency.max(1);
        let (tx, rx) = mpsc::channel(ahead);
        let stream = self.client.blocks(range, options);
        let task = self.runtime.spawn(async move {
            let mut stream = std::pin::pin!(stream);
            while let Some(item) = stream.next().await {
                if tx.send(item).await.is_err() {
                    break;
                }
            }
        });
        BlockIter {
            rx,
            task,
            _client: self,
        }
    }
}

/// The client's own runtime. One worker: enough to drive the connection
/// and keep a range fetch going while the caller decodes what it already
/// has.
fn runtime() -> Result<Runtime, Error> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("ferroscale-rpc")
        .enable_all()
        .build()
        .map_err(|e| Error::Runtime(e.to_string()))
}

/// The blocks of a range, in order, as [`BlockingClient::blocks`] fetches
/// them.
pub struct BlockIter<'a> {
    rx: mpsc::Receiver<Result<FetchedBlock, Error>>,
    task: JoinHandle<()>,
    // The runtime the task runs on must outlive the iterator.
    _client: &'a BlockingClient,
}

impl Iterator for BlockIter<'_> {
    type Item = Result<FetchedBlock, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.rx.blocking_recv()
    }
}

impl Drop for BlockIter<'_> {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl std::fmt::Debug for BlockingClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockingClient")
            .field("client", &self.client)
            .finish()
    }
}
