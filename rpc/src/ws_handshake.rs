//! The WebSocket handshake over a stream of our own, which keeps the head
//! of the server's answer: jsonrpsee's error for a refused handshake
//! carries only the status, so a 429's or 503's `Retry-After` would be
//! lost, and the retries would guess where the node said how long to wait.
//!
//! `ws://` goes over our TCP stream; `wss://` (with the `tls` feature) over
//! our TLS session on it, set up as jsonrpsee's own connect would
//! (`ws_tls`), the head read from the decrypted bytes. A redirect, or a
//! TCP connection or TLS session that fails, is handed to jsonrpsee's own
//! connect, which follows redirects and names the failure as it always
//! does.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use jsonrpsee_client_transport::ws::WsHandshakeError;
use jsonrpsee_core::client::Error as RpcError;
use jsonrpsee_ws_client::{WsClient, WsClientBuilder};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// The most of the answer's head kept: a refusal's head is a status line
/// and a few headers; a server sending more is not read for `Retry-After`
/// past this.
const HEAD_BYTES: usize = 8 << 10;

/// A refused or failed handshake: jsonrpsee's error and, when the server
/// answered with a head holding one in seconds, its `Retry-After`.
pub(crate) struct Refused {
    pub(crate) error: RpcError,
    pub(crate) retry_after: Option<Duration>,
}

/// Connects `builder` to `url` (see the module's documentation).
pub(crate) async fn connect(url: &str, builder: WsClientBuilder) -> Result<WsClient, Refused> {
    let Some(target) = Target::of(url) else {
        return fallback(url, builder).await;
    };
    let Ok(stream) = TcpStream::connect(target.address()).await else {
        return fallback(url, builder).await;
    };
    // As jsonrpsee's own connect does: requests are small and answered one
    // by one.
    let _ = stream.set_nodelay(true);
    if !target.tls {
        return handshake(url, builder, stream).await;
    }
    #[cfg(feature = "tls")]
    if let Ok(stream) = crate::ws_tls::secure(&target.host, stream).await {
        return handshake(url, builder, stream).await;
    }
    fallback(url, builder).await
}

/// jsonrpsee's own connect, its error kept as it is.
async fn fallback(url: &str, builder: WsClientBuilder) -> Result<WsClient, Refused> {
    builder.build(url).await.map_err(|error| Refused {
        error,
        retry_after: None,
    })
}

/// The handshake over `stream` (TCP, or TLS over it), the head of the
/// answer kept for a refusal's `Retry-After`.
async fn handshake<S>(url: &str, builder: WsClientBuilder, stream: S) -> Result<WsClient, Refused>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let head = Arc::new(Mutex::new(Vec::new()));
    let recorder = HeadRecorder {
        inner: stream,
        head: Arc::clone(&head),
        done: false,
    };
    match builder.clone().build_with_stream(url, recorder).await {
        Ok(client) => Ok(client),
        Err(RpcError::Transport(e))
            if matches!(
                e.downcast_ref::<WsHandshakeError>(),
                Some(WsHandshakeError::Redirected { .. })
            ) =>
        {
            fallback(url, builder).await
        }
        Err(error) => {
            let head = head.lock().unwrap_or_else(|e| e.into_inner());
            Err(Refused {
                error,
                retry_after: retry_after(&head),
            })
        }
    }
}

/// Where a WebSocket URL this module dials points.
#[derive(Debug, PartialEq)]
struct Target {
    /// The host as the URL names it (`[::1]` with its brackets).
    host: String,
    port: u16,
    /// `wss://`: a TLS session over the TCP stream.
    tls: bool,
}

impl Target {
    /// The target of a `ws://` URL, or of a `wss://` one with the `tls`
    /// feature (port 80 or 443 when it names none); `None` for any other
    /// URL, or a port that is not a number (jsonrpsee's to reject).
    fn of(url: &str) -> Option<Target> {
        let (scheme, rest) = url.split_once("://")?;
        let tls = match scheme.to_ascii_lowercase().as_str() {
            "ws" => false,
            "wss" if cfg!(feature = "tls") => true,
            _ => return None,
        };
        let authority = rest.split(['/', '?', '#']).next()?;
        // Credentials before the host are jsonrpsee's to send, not ours to dial.
        let host_port = authority.rsplit('@').next()?;
        // `[::1]:9944` or `host:9944` have a port; `[::1]` and `host` do not.
        let colon = match host_port.rfind(']') {
            Some(end) => host_port[end..].find(':').map(|i| end + i),
            None => host_port.find(':'),
        };
        let (host, port) = match colon {
            Some(i) => (&host_port[..i], host_port[i + 1..].parse().ok()?),
            None => (host_port, if tls { 443 } else { 80 }),
        };
        if host.is_empty() {
            return None;
        }
        Some(Target {
            host: host.to_owned(),
            port,
            tls,
        })
    }

    /// `host:port`, to dial.
    fn address(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// `Retry-After` in the answer's head, in seconds, if it has one.
fn retry_after(head: &[u8]) -> Option<Duration> {
    let text = String::from_utf8_lossy(head);
    let head = text.split("\r\n\r\n").next()?;
    head.lines().skip(1).find_map(|line| {
        let (name, value) = line.split_once(':')?;
        match name.trim().eq_ignore_ascii_case("retry-after") {
            true => crate::throttle::retry_after_seconds(value),
            false => None,
        }
    })
}

/// A stream that keeps what it reads until the end of the first head (or
/// [`HEAD_BYTES`]), then only passes bytes on.
struct HeadRecorder<S> {
    inner: S,
    head: Arc<Mutex<Vec<u8>>>,
    done: bool,
}

impl<S: AsyncRead + Unpin> AsyncRead for HeadRecorder<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if !self.done {
            let read = &buf.filled()[before..];
            let mut head = self.head.lock().unwrap_or_else(|e| e.into_inner());
            let room = HEAD_BYTES.saturating_sub(head.len());
            head.extend_from_slice(&read[..read.len().min(room)]);
            let ended = head.len() >= HEAD_BYTES || head.windows(4).any(|w| w == b"\r\n\r\n");
            drop(head);
            self.done = ended;
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for HeadRecorder<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_websocket_urls_are_dialled_here() {
        let address = |u: &str| Target::of(u).map(|t| t.address());
        assert_eq!(
            address("ws://127.0.0.1:9944").as_deref(),
            Some("127.0.0.1:9944")
        );
        assert_eq!(address("WS://node/rpc?x=1").as_deref(), Some("node:80"));
        assert_eq!(
            address("ws://u:p@[::1]:9944/").as_deref(),
            Some("[::1]:9944")
        );
        assert_eq!(address("ws://[::1]").as_deref(), Some("[::1]:80"));
        assert_eq!(address("http://node:9933"), None);
        assert_eq!(address("ws://"), None);
        assert_eq!(address("ws://node:x"), None);
        // Without TLS built in, jsonrpsee's connect says so.
        let secure = Target::of("wss://u@node/rpc");
        match cfg!(feature = "tls") {
            true => assert_eq!(
                secure,
                Some(Target {
                    host: "node".into(),
                    port: 443,
                    tls: true
                })
            ),
            false => assert_eq!(secure, None),
        }
    }

    #[test]
    fn retry_after_is_read_from_the_head_only() {
        let head = b"HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\nretry-after: 7\r\n\r\n";
        assert_eq!(retry_after(head), Some(Duration::from_secs(7)));
        let none = b"HTTP/1.1 503 Service Unavailable\r\n\r\nRetry-After: 7\r\n";
        assert_eq!(retry_after(none), None, "a body's line is not a header");
        assert_eq!(
            retry_after(b"HTTP/1.1 429 x\r\nRetry-After: soon\r\n\r\n"),
            None
        );
        assert_eq!(retry_after(b""), None);
    }
}
