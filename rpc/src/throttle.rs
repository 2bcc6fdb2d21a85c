//! HTTP answers that say "not now": a node or its gateway that is
//! overloaded answers 429 Too Many Requests or a 5xx status, often with a
//! `Retry-After` header saying how long to wait. jsonrpsee's HTTP client
//! keeps only the status of an unsuccessful answer, so this layer, between
//! the client and its HTTP backend, reads the header first and hands the
//! client an error that carries both ([`Throttled`]), which
//! [`crate::transport`] makes an [`crate::Error::Http`] that the retries
//! wait on.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use jsonrpsee_core::http_helpers::HttpError;
use jsonrpsee_http_client::transport::Error as TransportError;
use jsonrpsee_http_client::{HttpRequest, HttpResponse};
use tower::{Layer, Service};

/// An unsuccessful HTTP answer: its status and, when the server gave one
/// in seconds, its `Retry-After`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Throttled {
    pub(crate) status: u16,
    pub(crate) retry_after: Option<Duration>,
}

impl fmt::Display for Throttled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HTTP status {}", self.status)
    }
}

impl std::error::Error for Throttled {}

/// The longest `Retry-After` taken as given: a server asking for more is
/// waited on for this long (the retry budget decides the rest).
const LONGEST_RETRY_AFTER: Duration = Duration::from_secs(300);

/// Reads `Retry-After` in seconds (the HTTP-date form is rare on JSON-RPC
/// gateways and is ignored: the retries' own backoff applies).
fn retry_after(headers: &jsonrpsee_http_client::HeaderMap) -> Option<Duration> {
    retry_after_seconds(headers.get("retry-after")?.to_str().ok()?)
}

/// A `Retry-After` value in seconds, capped at [`LONGEST_RETRY_AFTER`]
/// (also read from a refused WebSocket handshake's head, `ws_handshake`).
pub(crate) fn retry_after_seconds(value: &str) -> Option<Duration> {
    let seconds: u64 = value.trim().parse().ok()?;
    Some(Duration::from_secs(seconds).min(LONGEST_RETRY_AFTER))
}

/// The layer: every unsuccessful answer becomes a [`Throttled`] error.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ThrottleLayer;

impl<S> Layer<S> for ThrottleLayer {
    type Service = ThrottleService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        ThrottleService(inner)
    }
}

/// The service [`ThrottleLayer`] wraps around the HTTP backend.
#[derive(Debug, Clone)]
pub(crate) struct ThrottleService<S>(S);

impl<S, B> Service<HttpRequest> for ThrottleService<S>
where
    S: Service<HttpRequest, Response = HttpResponse<B>, Error = TransportError>,
    S::Future: Send + 'static,
    B: 'static,
{
    type Response = HttpResponse<B>;
    type Error = TransportError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: HttpRequest) -> Self::Future {
        let answer = self.0.call(request);
        Box::pin(async move {
            let response = answer.await?;
            let status = response.status();
            if status.is_success() {
                return Ok(response);
            }
            let throttled = Throttled {
                status: status.as_u16(),
                retry_after: retry_after(response.headers()),
            };
            Err(TransportError::Http(HttpError::Stream(Box::new(throttled))))
        })
    }
}

/// The [`Throttled`] inside a transport error, if it is one.
pub(crate) fn throttled(
    error: &(dyn std::error::Error + Send + Sync + 'static),
) -> Option<Throttled> {
    match error.downcast_ref::<TransportError>()? {
        TransportError::Http(HttpError::Stream(inner)) => {
            inner.downcast_ref::<Throttled>().copied()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_read_in_seconds_and_capped() {
        let mut headers = jsonrpsee_http_client::HeaderMap::new();
        assert_eq!(retry_after(&headers), None);
        headers.insert("retry-after", " 3 ".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(3)));
        headers.insert("retry-after", "86400".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(LONGEST_RETRY_AFTER));
        headers.insert(
            "retry-after",
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&headers), None);
    }
}
