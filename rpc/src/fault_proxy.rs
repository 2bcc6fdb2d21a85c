//! An HTTP proxy that injects faults between a client and a node (feature
//! `test-server`): in front of the loopback node it answers a share of the
//! requests as an overloaded node or gateway would — 429 with
//! `Retry-After`, 503, an HTML page instead of JSON, a connection dropped
//! without an answer, an answer later than the client waits — and passes
//! the rest through. Each request is handled on a connection of its own
//! (`Connection: close`), so a fault never leaks into the next request.
//!
//! ```no_run
//! use ferroscale_rpc::fault_proxy::{Fault, FaultProxy};
//! # let node_http_url = "http://127.0.0.1:9933";
//! // Every third request is answered 429, retry after 1 s.
//! let proxy = FaultProxy::start(node_http_url, |n, _method| {
//!     if n % 3 == 2 { Fault::Status { status: 429, retry_after: Some(1) } } else { Fault::Pass }
//! })
//! .unwrap();
//! let url = proxy.http_url();
//! ```

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the proxy does with one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Forward it to the node and its answer back.
    Pass,
    /// Answer with this HTTP status (and `Retry-After` seconds) instead.
    Status {
        /// The HTTP status.
        status: u16,
        /// `Retry-After`, in seconds.
        retry_after: Option<u64>,
    },
    /// Answer 200 with an HTML page, as a misconfigured gateway does.
    NotJson,
    /// Close the connection without answering.
    Drop,
    /// Wait this long, then forward.
    Delay(Duration),
}

/// Picks the fault of request `n` (0-based, in arrival order) of JSON-RPC
/// `method`.
pub type Plan = dyn Fn(u64, &str) -> Fault + Send + Sync;

/// A running proxy; stops when dropped.
pub struct FaultProxy {
    addr: SocketAddr,
    requests: Arc<AtomicU64>,
    faults: Arc<AtomicU64>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl FaultProxy {
    /// Starts a proxy on `127.0.0.1` and an ephemeral port in front of the
    /// node at `upstream` (`http://HOST:PORT`), faults picked by `plan`.
    pub fn start(
        upstream: &str,
        plan: impl Fn(u64, &str) -> Fault + Send + Sync + 'static,
    ) -> Result<FaultProxy, String> {
        let upstream = upstream
            .strip_prefix("http://")
            .ok_or_else(|| format!("{upstream}: the proxy speaks http:// only"))?
            .trim_end_matches('/')
            .to_owned();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ferroscale-fault-proxy")
            .enable_all()
            .build()
            .map_err(|e| format!("fault proxy runtime: {e}"))?;
        let listener = runtime
            .block_on(TcpListener::bind("127.0.0.1:0"))
            .map_err(|e| format!("fault proxy: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let requests = Arc::new(AtomicU64::new(0));
        let faults = Arc::new(AtomicU64::new(0));
        let plan: Arc<Plan> = Arc::new(plan);
        let (count, faulted) = (requests.clone(), faults.clone());
        runtime.spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (plan, upstream) = (plan.clone(), upstream.clone());
                let (count, faulted) = (count.clone(), faulted.clone());
                tokio::spawn(async move {
                    let _ = serve(client, &upstream, &*plan, &count, &faulted).await;
                });
            }
        });
        Ok(FaultProxy {
            addr,
            requests,
            faults,
            runtime: Some(runtime),
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn http_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Requests received so far.
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    /// Requests given a fault so far.
    pub fn faults(&self) -> u64 {
        self.faults.load(Ordering::Relaxed)
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The largest request the proxy reads (a JSON-RPC call is a few hundred
/// bytes).
const MAX_REQUEST: usize = 1 << 20;

/// One request on one connection.
async fn serve(
    mut client: TcpStream,
    upstream: &str,
    plan: &Plan,
    count: &AtomicU64,
    faulted: &AtomicU64,
) -> std::io::Result<()> {
    let (head, body) = read_request(&mut client).await?;
    let method = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("method")?.as_str().map(str::to_owned))
        .unwrap_or_default();
    let n = count.fetch_add(1, Ordering::Relaxed);
    let fault = plan(n, &method);
    if fault != Fault::Pass {
        faulted.fetch_add(1, Ordering::Relaxed);
    }
    let answer = |status: u16, reason: &str, extra: &str, body: &str| {
        format!(
            "HTTP/1.1 {status} {reason}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    match fault {
        Fault::Status {
            status,
            retry_after,
        } => {
            let extra = retry_after.map_or(String::new(), |s| format!("Retry-After: {s}\r\n"));
            let text = answer(status, "Injected", &extra, "");
            client.write_all(text.as_bytes()).await?;
        }
        Fault::NotJson => {
            let page = "<html><body>502 Bad Gateway</body></html>";
            let text = answer(200, "OK", "Content-Type: text/html\r\n", page);
            client.write_all(text.as_bytes()).await?;
        }
        Fault::Drop => {}
        Fault::Delay(d) => {
            tokio::time::sleep(d).await;
            forward(&mut client, upstream, &head, &body).await?;
        }
        Fault::Pass => forward(&mut client, upstream, &head, &body).await?,
    }
    client.shutdown().await
}

/// Reads one HTTP request: its head (request line and headers, without
/// `Connection`) and its body (by `Content-Length`).
async fn read_request(client: &mut TcpStream) -> std::io::Result<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = client.read(&mut chunk).await?;
        if n == 0 || buf.len() > MAX_REQUEST {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
    let length = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        .unwrap_or(0)
        .min(MAX_REQUEST);
    let mut body = buf[end + 4..].to_vec();
    while body.len() < length {
        let n = client.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let head = head
        .lines()
        .filter(|l| !l.to_ascii_lowercase().starts_with("connection:"))
        .collect::<Vec<_>>()
        .join("\r\n");
    Ok((head, body))
}

/// Sends the request to the node on a fresh connection and relays its
/// whole answer.
async fn forward(
    client: &mut TcpStream,
    upstream: &str,
    head: &str,
    body: &[u8],
) -> std::io::Result<()> {
    let mut node = TcpStream::connect(upstream).await?;
    node.write_all(head.as_bytes()).await?;
    node.write_all(b"\r\nConnection: close\r\n\r\n").await?;
    node.write_all(body).await?;
    let mut answer = Vec::new();
    node.read_to_end(&mut answer).await?;
    client.write_all(&answer).await
}
