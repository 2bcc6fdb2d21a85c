//! A proxy that injects faults between a client and a node (feature
//! `test-server`), over HTTP and over WebSocket on one port, as the node
//! itself serves both.
//!
//! - **HTTP**: it answers a share of the requests as an overloaded node or
//!   gateway would — 429 with `Retry-After`, 503, an HTML page instead of
//!   JSON, a JSON-RPC error, a connection dropped without an answer, an
//!   answer later than the client waits — and passes the rest through.
//!   Each request is handled on a connection of its own
//!   (`Connection: close`), so a fault never leaks into the next request.
//! - **WebSocket**: the handshake is asked of the plan as method
//!   [`UPGRADE`] (a `Status` answers it with that HTTP status instead of
//!   101, `Drop` closes the connection), then every JSON-RPC message the
//!   client sends is: passed to the node, held back (`Delay`, the other
//!   messages going on meanwhile), answered with a JSON-RPC error
//!   (`RpcError`), or the connection is dropped with everything in flight
//!   on it (`Drop`, and `Status`, which a WebSocket cannot carry). `NotJson`
//!   answers a text frame that is not JSON. The node's frames come back
//!   unchanged; compression is not offered to the node, so the proxy reads
//!   the client's messages as text.
//!
//! ```no_run
//! use ferroscale_rpc::fault_proxy::{Fault, FaultProxy, UPGRADE};
//! # let node_http_url = "http://127.0.0.1:9933";
//! // Every third request is answered 429, retry after 1 s; every second
//! // WebSocket handshake gets 503.
//! let proxy = FaultProxy::start(node_http_url, |n, method| {
//!     if method == UPGRADE {
//!         if n % 2 == 1 { Fault::Status { status: 503, retry_after: None } } else { Fault::Pass }
//!     } else if n % 3 == 2 {
//!         Fault::Status { status: 429, retry_after: Some(1) }
//!     } else {
//!         Fault::Pass
//!     }
//! })
//! .unwrap();
//! let (http, ws) = (proxy.http_url(), proxy.ws_url());
//! ```

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

/// The method name a WebSocket handshake is asked of the plan as.
pub const UPGRADE: &str = "(websocket upgrade)";

/// What the proxy does with one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Forward it to the node and its answer back.
    Pass,
    /// Answer with this HTTP status (and `Retry-After` seconds) instead
    /// (on a WebSocket message: drop the connection).
    Status {
        /// The HTTP status.
        status: u16,
        /// `Retry-After`, in seconds.
        retry_after: Option<u64>,
    },
    /// Answer 200 with an HTML page, as a misconfigured gateway does (on a
    /// WebSocket message: a text frame of HTML).
    NotJson,
    /// Answer with a JSON-RPC error of this code (the request's id, the
    /// message "injected by the fault proxy").
    RpcError(i32),
    /// Close the connection without answering.
    Drop,
    /// Wait this long, then forward.
    Delay(Duration),
}

impl Fault {
    /// A busy node's answer: 503 without `Retry-After`.
    pub const BUSY: Fault = Fault::Status {
        status: 503,
        retry_after: None,
    };
}

/// A plan that gives `fault` to every request of `method` ([`UPGRADE`]
/// for WebSocket handshakes) and passes every other one.
pub fn only(method: &'static str, fault: Fault) -> impl Fn(u64, &str) -> Fault + Send + Sync {
    move |_, m| match m == method {
        true => fault,
        false => Fault::Pass,
    }
}

/// Picks the fault of request `n` (0-based, in arrival order over HTTP
/// requests, WebSocket handshakes and WebSocket messages together) of
/// JSON-RPC `method` ([`UPGRADE`] for a handshake).
pub type Plan = dyn Fn(u64, &str) -> Fault + Send + Sync;

/// What the proxy has seen, shared with its tasks.
#[derive(Default)]
struct Counts {
    requests: AtomicU64,
    faults: AtomicU64,
    upgrades: AtomicU64,
}

/// A running proxy; stops when dropped.
pub struct FaultProxy {
    addr: SocketAddr,
    counts: Arc<Counts>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl FaultProxy {
    /// Starts a proxy on `127.0.0.1` and an ephemeral port in front of the
    /// node at `upstream` (`http://HOST:PORT` or `ws://HOST:PORT`: the
    /// proxy speaks both to it, as it does to its clients), faults picked
    /// by `plan`.
    pub fn start(
        upstream: &str,
        plan: impl Fn(u64, &str) -> Fault + Send + Sync + 'static,
    ) -> Result<FaultProxy, String> {
        let upstream = upstream
            .strip_prefix("http://")
            .or_else(|| upstream.strip_prefix("ws://"))
            .ok_or_else(|| format!("{upstream}: the proxy speaks http:// and ws:// only"))?
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
        let counts = Arc::new(Counts::default());
        let plan: Arc<Plan> = Arc::new(plan);
        let shared = counts.clone();
        runtime.spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (plan, upstream, counts) = (plan.clone(), upstream.clone(), shared.clone());
                tokio::spawn(async move {
                    let _ = serve(client, &upstream, &*plan, &counts).await;
                });
            }
        });
        Ok(FaultProxy {
            addr,
            counts,
            runtime: Some(runtime),
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn http_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `ws://127.0.0.1:PORT`.
    pub fn ws_url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// Requests received so far: HTTP requests, WebSocket handshakes and
    /// WebSocket messages.
    pub fn requests(&self) -> u64 {
        self.counts.requests.load(Ordering::Relaxed)
    }

    /// Requests given a fault so far.
    pub fn faults(&self) -> u64 {
        self.counts.faults.load(Ordering::Relaxed)
    }

    /// WebSocket handshakes received so far (the first connection and
    /// every reconnection).
    pub fn upgrades(&self) -> u64 {
        self.counts.upgrades.load(Ordering::Relaxed)
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The largest request head or body the proxy reads (a JSON-RPC call is a
/// few hundred bytes).
const MAX_REQUEST: usize = 1 << 20;

/// The largest WebSocket frame relayed (the client takes answers of up
/// to 64 MiB by default).
const MAX_FRAME: u64 = 128 << 20;

impl Counts {
    /// Numbers a request and asks the plan about it.
    fn next(&self, plan: &Plan, method: &str) -> Fault {
        let n = self.requests.fetch_add(1, Ordering::Relaxed);
        let fault = plan(n, method);
        if fault != Fault::Pass {
            self.faults.fetch_add(1, Ordering::Relaxed);
        }
        fault
    }
}

/// One connection: an HTTP request, or a WebSocket for as long as it lasts.
async fn serve(
    client: TcpStream,
    upstream: &str,
    plan: &Plan,
    counts: &Counts,
) -> std::io::Result<()> {
    let (reader, mut writer) = client.into_split();
    let mut reader = BufReader::new(reader);
    let head = read_head(&mut reader).await?;
    let upgrade = header(&head, "upgrade").is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    if upgrade {
        counts.upgrades.fetch_add(1, Ordering::Relaxed);
        return websocket(reader, writer, &head, upstream, plan, counts).await;
    }
    let body = read_body(&mut reader, &head).await?;
    let request = serde_json::from_slice::<serde_json::Value>(&body).ok();
    match counts.next(plan, &method_of(request.as_ref())) {
        Fault::Pass => forward(&mut writer, upstream, &head, &body).await?,
        Fault::Delay(d) => {
            tokio::time::sleep(d).await;
            forward(&mut writer, upstream, &head, &body).await?;
        }
        Fault::Drop => {}
        fault => {
            if let Some(text) = http_answer(fault, request.as_ref()) {
                writer.write_all(text.as_bytes()).await?;
            }
        }
    }
    writer.shutdown().await
}

/// The method of a JSON-RPC request (of a batch's first request; empty
/// when it is not JSON-RPC).
fn method_of(request: Option<&serde_json::Value>) -> String {
    let first = match request {
        Some(serde_json::Value::Array(batch)) => batch.first(),
        other => other,
    };
    first
        .and_then(|v| v.get("method")?.as_str())
        .unwrap_or_default()
        .to_owned()
}

/// The HTTP answer that stands for `fault` (`None` for a fault that is
/// not an answer).
fn http_answer(fault: Fault, request: Option<&serde_json::Value>) -> Option<String> {
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
            Some(answer(status, "Injected", &extra, ""))
        }
        Fault::NotJson => Some(answer(
            200,
            "OK",
            "Content-Type: text/html\r\n",
            NOT_JSON_PAGE,
        )),
        Fault::RpcError(code) => Some(answer(
            200,
            "OK",
            "Content-Type: application/json\r\n",
            &rpc_error(request, code),
        )),
        Fault::Pass | Fault::Drop | Fault::Delay(_) => None,
    }
}

/// What a misconfigured gateway answers.
const NOT_JSON_PAGE: &str = "<html><body>502 Bad Gateway</body></html>";

/// A JSON-RPC error answer of `code` to `request` (one per request of a
/// batch), as JSON text.
fn rpc_error(request: Option<&serde_json::Value>, code: i32) -> String {
    let one = |request: Option<&serde_json::Value>| {
        serde_json::json!({
            "jsonrpc": "2.0",
            "id": request.and_then(|r| r.get("id")).cloned().unwrap_or_default(),
            "error": {"code": code, "message": "injected by the fault proxy"},
        })
    };
    match request {
        Some(serde_json::Value::Array(batch)) => {
            serde_json::Value::Array(batch.iter().map(|r| one(Some(r))).collect()).to_string()
        }
        other => one(other).to_string(),
    }
}

/// The value of header `name` in `head`.
fn header<'h>(head: &'h str, name: &str) -> Option<&'h str> {
    head.lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
}

/// Reads a request's or answer's head (request or status line and
/// headers, without the blank line that ends them), at most
/// [`MAX_REQUEST`] bytes.
async fn read_head<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> std::io::Result<String> {
    let mut head = Vec::new();
    loop {
        let before = head.len();
        let limit = (MAX_REQUEST - before.min(MAX_REQUEST)) as u64;
        let n = (&mut *reader)
            .take(limit)
            .read_until(b'\n', &mut head)
            .await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        if matches!(&head[before..], b"\r\n" | b"\n") {
            head.truncate(before);
            break;
        }
        if head.len() >= MAX_REQUEST {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
    }
    let text = String::from_utf8_lossy(&head);
    Ok(text.trim_end().to_owned())
}

/// Reads an HTTP request's body (by `Content-Length`, at most
/// [`MAX_REQUEST`] bytes).
async fn read_body<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    head: &str,
) -> std::io::Result<Vec<u8>> {
    let length = header(head, "content-length")
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0);
    if length > MAX_REQUEST {
        return Err(std::io::ErrorKind::InvalidData.into());
    }
    let mut body = Vec::new();
    (&mut *reader)
        .take(length as u64)
        .read_to_end(&mut body)
        .await?;
    if body.len() < length {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(body)
}

/// Sends an HTTP request to the node on a fresh connection and relays its
/// whole answer.
async fn forward<W: tokio::io::AsyncWrite + Unpin>(
    client: &mut W,
    upstream: &str,
    head: &str,
    body: &[u8],
) -> std::io::Result<()> {
    let head = head
        .lines()
        .filter(|l| !l.to_ascii_lowercase().starts_with("connection:"))
        .collect::<Vec<_>>()
        .join("\r\n");
    let mut node = TcpStream::connect(upstream).await?;
    node.write_all(head.as_bytes()).await?;
    node.write_all(b"\r\nConnection: close\r\n\r\n").await?;
    node.write_all(body).await?;
    let mut answer = Vec::new();
    node.read_to_end(&mut answer).await?;
    client.write_all(&answer).await
}

/// One WebSocket frame as read: its bytes as they came (to relay them
/// unchanged) and what the proxy needs to know of it.
struct Frame {
    raw: Vec<u8>,
    fin: bool,
    opcode: u8,
    /// Where the payload starts in `raw`.
    payload_at: usize,
    mask: Option<[u8; 4]>,
}

impl Frame {
    /// The payload, unmasked.
    fn payload(&self) -> Vec<u8> {
        let mut data = self.raw[self.payload_at..].to_vec();
        if let Some(mask) = self.mask {
            for (i, b) in data.iter_mut().enumerate() {
                *b ^= mask[i % 4];
            }
        }
        data
    }
}

/// Reads one frame (RFC 6455 §5.2); a frame longer than [`MAX_FRAME`] is
/// an error, and the payload is read as it comes, never allocated by the
/// length the frame claims.
async fn read_frame<R: AsyncRead + Unpin>(reader: &mut R) -> std::io::Result<Frame> {
    let mut raw = vec![0u8; 2];
    reader.read_exact(&mut raw).await?;
    let (fin, opcode) = (raw[0] & 0x80 != 0, raw[0] & 0x0f);
    let masked = raw[1] & 0x80 != 0;
    let length = match raw[1] & 0x7f {
        126 => {
            let mut b = [0u8; 2];
            reader.read_exact(&mut b).await?;
            raw.extend_from_slice(&b);
            u64::from(u16::from_be_bytes(b))
        }
        127 => {
            let mut b = [0u8; 8];
            reader.read_exact(&mut b).await?;
            raw.extend_from_slice(&b);
            u64::from_be_bytes(b)
        }
        n => u64::from(n),
    };
    if length > MAX_FRAME {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a WebSocket frame of {length} bytes"),
        ));
    }
    let mask = if masked {
        let mut m = [0u8; 4];
        reader.read_exact(&mut m).await?;
        raw.extend_from_slice(&m);
        Some(m)
    } else {
        None
    };
    let payload_at = raw.len();
    let read = reader.take(length).read_to_end(&mut raw).await?;
    if (read as u64) < length {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(Frame {
        raw,
        fin,
        opcode,
        payload_at,
        mask,
    })
}

/// An unmasked frame (server to client) of `opcode` carrying `payload`.
fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0x80 | opcode];
    match payload.len() {
        n @ 0..=125 => out.push(n as u8),
        n @ 126..=0xffff => {
            out.push(126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(payload);
    out
}

/// A WebSocket connection: the handshake relayed to the node (or answered
/// with a fault), then the client's messages one by one through the plan
/// while the node's frames flow back.
async fn websocket(
    mut reader: BufReader<OwnedReadHalf>,
    mut writer: OwnedWriteHalf,
    head: &str,
    upstream: &str,
    plan: &Plan,
    counts: &Counts,
) -> std::io::Result<()> {
    match counts.next(plan, UPGRADE) {
        Fault::Pass => {}
        Fault::Delay(d) => tokio::time::sleep(d).await,
        Fault::Drop => return Ok(()),
        fault => {
            if let Some(text) = http_answer(fault, None) {
                writer.write_all(text.as_bytes()).await?;
            }
            return writer.shutdown().await;
        }
    }
    // The handshake as the client sent it, without the extensions it
    // offers (compressed messages could not be read).
    let head = head
        .lines()
        .filter(|l| {
            !l.to_ascii_lowercase()
                .starts_with("sec-websocket-extensions:")
        })
        .collect::<Vec<_>>()
        .join("\r\n");
    let (node_read, mut node_write) = TcpStream::connect(upstream).await?.into_split();
    node_write.write_all(head.as_bytes()).await?;
    node_write.write_all(b"\r\n\r\n").await?;
    let mut node_read = BufReader::new(node_read);
    let answer = read_head(&mut node_read).await?;
    writer.write_all(answer.as_bytes()).await?;
    writer.write_all(b"\r\n\r\n").await?;
    if answer.split_whitespace().nth(1) != Some("101") {
        return writer.shutdown().await;
    }

    // Writers own the two write halves; every frame to a side goes through
    // its channel, so an injected answer never cuts into a relayed one.
    let (to_client, mut client_queue) = mpsc::unbounded_channel::<Vec<u8>>();
    let (to_node, mut node_queue) = mpsc::unbounded_channel::<Vec<u8>>();
    let mut tasks = JoinSet::new();
    tasks.spawn(async move {
        while let Some(bytes) = client_queue.recv().await {
            if writer.write_all(&bytes).await.is_err() {
                break;
            }
        }
    });
    tasks.spawn(async move {
        while let Some(bytes) = node_queue.recv().await {
            if node_write.write_all(&bytes).await.is_err() {
                break;
            }
        }
    });
    let relay = to_client.clone();
    tasks.spawn(async move {
        // The node's frames, a whole message at a time (with the control
        // frames inside it).
        let mut message = Vec::new();
        let mut fragmented = false;
        while let Ok(f) = read_frame(&mut node_read).await {
            message.extend_from_slice(&f.raw);
            if f.opcode < 8 {
                fragmented = !f.fin;
            }
            if !fragmented && relay.send(std::mem::take(&mut message)).is_err() {
                break;
            }
        }
    });

    // The client's messages, each through the plan. Any side ending (the
    // node or the client closing) ends the connection; leaving drops the
    // tasks and both sockets.
    let (mut raw, mut text) = (Vec::new(), Vec::new());
    loop {
        let f = tokio::select! {
            f = read_frame(&mut reader) => f,
            _ = tasks.join_next() => break,
        };
        let Ok(f) = f else { break };
        if f.opcode >= 8 {
            // Close, ping, pong: to the node as they are.
            if to_node.send(f.raw).is_err() {
                break;
            }
            continue;
        }
        text.extend_from_slice(&f.payload());
        raw.extend_from_slice(&f.raw);
        if !f.fin {
            continue;
        }
        let (raw, text) = (std::mem::take(&mut raw), std::mem::take(&mut text));
        let request = serde_json::from_slice::<serde_json::Value>(&text).ok();
        let sent = match counts.next(plan, &method_of(request.as_ref())) {
            Fault::Pass => to_node.send(raw).is_ok(),
            Fault::Delay(d) => {
                // Held back on its own; the messages after it go on.
                let to_node = to_node.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(d).await;
                    let _ = to_node.send(raw);
                });
                true
            }
            Fault::RpcError(code) => {
                let answer = rpc_error(request.as_ref(), code);
                to_client.send(frame(1, answer.as_bytes())).is_ok()
            }
            Fault::NotJson => to_client.send(frame(1, NOT_JSON_PAGE.as_bytes())).is_ok(),
            Fault::Drop | Fault::Status { .. } => false,
        };
        if !sent {
            break;
        }
    }
    Ok(())
}
