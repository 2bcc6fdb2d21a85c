//! [`Client`]: one node endpoint, its timeouts, and raw calls.

use std::sync::Arc;

use jsonrpsee_core::params::ArrayParams;
use serde_json::Value;
use tokio::sync::Mutex;

use crate::config::ClientConfig;
use crate::error::Error;
use crate::retry::RetryPolicy;
use crate::transport::Transport;

/// A JSON-RPC client of one Substrate node, over HTTP (`http://`) or
/// WebSocket (`ws://`; `https://` and `wss://` with the `tls` feature).
///
/// Cheap to clone (the connection is shared). A WebSocket the node closes
/// is reopened before the next request (the requests in flight on it fail
/// as [`Error::Unreachable`], which the retries of [`RetryPolicy::run`]
/// and of block ranges try again, over the new connection). Async; [`BlockingClient`](crate::BlockingClient)
/// wraps it for synchronous code.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    url: String,
    config: ClientConfig,
    transport: Mutex<Arc<Transport>>,
}

impl Client {
    /// Connects to `url` with the default [`ClientConfig`].
    pub async fn connect(url: &str) -> Result<Client, Error> {
        Client::connect_with(url, ClientConfig::default()).await
    }

    /// Connects to `url`. For WebSocket this opens the connection (an
    /// unreachable node is an error here); for HTTP the first request does.
    pub async fn connect_with(url: &str, config: ClientConfig) -> Result<Client, Error> {
        let transport = Transport::connect(url, &config).await?;
        Ok(Client {
            inner: Arc::new(Inner {
                url: url.to_owned(),
                config,
                transport: Mutex::new(Arc::new(transport)),
            }),
        })
    }

    /// [`Client::connect_with`], tried again by `retry` while the failure
    /// is transient (the node unreachable, the handshake timed out or
    /// refused with 429 or a 5xx status); one that outlives its tries is an
    /// [`Error::GaveUp`].
    pub async fn connect_retrying(
        url: &str,
        config: ClientConfig,
        retry: &RetryPolicy,
    ) -> Result<Client, Error> {
        retry
            .run(|| Client::connect_with(url, config.clone()))
            .await
    }

    /// The endpoint's URL.
    pub fn url(&self) -> &str {
        &self.inner.url
    }

    /// The timeouts and limits in use.
    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// Calls `method` with positional `params`; the answer as JSON. The
    /// building block of every other call, for methods this crate does not
    /// wrap.
    pub async fn request(&self, method: &str, params: Vec<Value>) -> Result<Value, Error> {
        let mut array = ArrayParams::new();
        for p in params {
            array.insert(p).map_err(|e| Error::InvalidUrl {
                url: self.inner.url.clone(),
                reason: format!("cannot encode the parameters of {method}: {e}"),
            })?;
        }
        let transport = self.transport().await?;
        transport
            .call(
                &self.inner.url,
                self.inner.config.request_timeout,
                method,
                array,
            )
            .await
    }

    /// Calls each `(method, params)` of `calls` in one JSON-RPC batch (one
    /// message, one answer): each call's answer or error, in order. The
    /// outer error is the batch's: the connection, the timeout, a node
    /// that refuses batches or answers fewer calls than asked.
    pub async fn batch(
        &self,
        calls: &[(&str, Vec<Value>)],
    ) -> Result<Vec<Result<Value, Error>>, Error> {
        let mut batch = Vec::with_capacity(calls.len());
        for (method, params) in calls {
            let mut array = ArrayParams::new();
            for p in params {
                array.insert(p).map_err(|e| Error::InvalidUrl {
                    url: self.inner.url.clone(),
                    reason: format!("cannot encode the parameters of {method}: {e}"),
                })?;
            }
            batch.push((*method, array));
        }
        let transport = self.transport().await?;
        transport
            .batch(&self.inner.url, self.inner.config.request_timeout, batch)
            .await
    }

    /// The live connection, reopened if the node closed it.
    async fn transport(&self) -> Result<Arc<Transport>, Error> {
        let mut current = self.inner.transport.lock().await;
        if !current.is_connected() {
            *current = Arc::new(Transport::connect(&self.inner.url, &self.inner.config).await?);
        }
        Ok(current.clone())
    }
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("url", &self.inner.url)
            .field("config", &self.inner.config)
            .finish()
    }
}
