//! The jsonrpsee connection behind a [`Client`](crate::Client): HTTP or
//! WebSocket by the URL's scheme, one call as a JSON value, and jsonrpsee's
//! errors sorted into [`Error`]'s kinds.

use std::time::Duration;

use jsonrpsee_client_transport::ws::WsHandshakeError;
use jsonrpsee_core::client::{ClientT, Error as RpcError};
use jsonrpsee_core::params::{ArrayParams, BatchRequestBuilder};
use jsonrpsee_http_client::{HttpBackend, HttpClient, HttpClientBuilder, RpcLogger, RpcService};
use jsonrpsee_ws_client::{WsClient, WsClientBuilder};
use serde_json::Value;

use crate::config::ClientConfig;
use crate::error::Error;
use crate::throttle::{self, ThrottleLayer, ThrottleService};

/// The HTTP client with [`ThrottleLayer`] before its backend.
type Http = HttpClient<RpcLogger<RpcService<ThrottleService<HttpBackend>>>>;

/// JSON-RPC "method not found".
const METHOD_NOT_FOUND: i32 = -32601;

/// Which transport a URL asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scheme {
    Http,
    Ws,
}

/// The scheme of `url`, or why it cannot be used.
pub(crate) fn scheme(url: &str) -> Result<Scheme, Error> {
    let invalid = |reason: &str| Error::InvalidUrl {
        url: url.to_owned(),
        reason: reason.to_owned(),
    };
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| invalid("expected http://, https://, ws:// or wss://"))?;
    if rest.is_empty() {
        return Err(invalid("no host"));
    }
    let tls = cfg!(feature = "tls");
    match scheme.to_ascii_lowercase().as_str() {
        "http" => Ok(Scheme::Http),
        "ws" => Ok(Scheme::Ws),
        "https" if tls => Ok(Scheme::Http),
        "wss" if tls => Ok(Scheme::Ws),
        "https" | "wss" => Err(invalid(
            "TLS is not built in (build ferroscale-rpc with the `tls` feature)",
        )),
        _ => Err(invalid("expected http://, https://, ws:// or wss://")),
    }
}

/// One open connection.
pub(crate) enum Transport {
    Http(Http),
    Ws(WsClient),
}

impl Transport {
    /// Opens a connection (a WebSocket handshake; for HTTP only the client,
    /// the first request connects).
    pub(crate) async fn connect(url: &str, config: &ClientConfig) -> Result<Transport, Error> {
        let size = u32::try_from(config.max_response_bytes).unwrap_or(u32::MAX);
        match scheme(url)? {
            Scheme::Http => HttpClientBuilder::default()
                .set_http_middleware(tower::ServiceBuilder::new().layer(ThrottleLayer))
                .request_timeout(config.request_timeout)
                .connect_timeout(config.connect_timeout)
                .max_response_size(size)
                .build(url)
                .map(Transport::Http)
                .map_err(|e| Error::InvalidUrl {
                    url: url.to_owned(),
                    reason: chain(&e),
                }),
            Scheme::Ws => {
                let builder = WsClientBuilder::default()
                    .request_timeout(config.request_timeout)
                    .connection_timeout(config.connect_timeout)
                    .max_response_size(size);
                let build = crate::ws_handshake::connect(url, builder);
                // The builder's own timeout covers the handshake; this one
                // also bounds name resolution and TCP connect.
                match tokio::time::timeout(config.connect_timeout, build).await {
                    Ok(Ok(client)) => Ok(Transport::Ws(client)),
                    Ok(Err(refused)) => {
                        let mut error = sort(url, "connect", config.connect_timeout, refused.error);
                        // jsonrpsee's handshake error has no headers; the
                        // head our stream kept has the node's wait.
                        if let Error::Busy { retry_after, .. } = &mut error {
                            *retry_after = retry_after.or(refused.retry_after);
                        }
                        Err(error)
                    }
                    Err(_) => Err(Error::Timeout {
                        url: url.to_owned(),
                        method: "connect".into(),
                        after: config.connect_timeout,
                    }),
                }
            }
        }
    }

    /// Whether the connection can still carry requests (a WebSocket the
    /// node closed cannot).
    pub(crate) fn is_connected(&self) -> bool {
        match self {
            Transport::Http(_) => true,
            Transport::Ws(c) => c.is_connected(),
        }
    }

    /// One call; the answer as JSON, errors sorted.
    pub(crate) async fn call(
        &self,
        url: &str,
        timeout: Duration,
        method: &str,
        params: ArrayParams,
    ) -> Result<Value, Error> {
        let answer = match self {
            Transport::Http(c) => c.request::<Value, _>(method, params).await,
            Transport::Ws(c) => c.request::<Value, _>(method, params).await,
        };
        answer.map_err(|e| sort(url, method, timeout, e))
    }
}

impl Transport {
    /// Several calls in one JSON-RPC batch: each call's answer or error,
    /// in order; the outer error is the batch's (the connection, the
    /// timeout, a node that refuses batches).
    pub(crate) async fn batch(
        &self,
        url: &str,
        timeout: Duration,
        calls: Vec<(&str, ArrayParams)>,
    ) -> Result<Vec<Result<Value, Error>>, Error> {
        let methods: Vec<String> = calls.iter().map(|(m, _)| (*m).to_owned()).collect();
        let label = format!(
            "a batch of {} calls ({}…)",
            methods.len(),
            methods.first().map_or("", String::as_str)
        );
        let mut builder = BatchRequestBuilder::new();
        for (method, params) in calls {
            builder
                .insert(method, params)
                .map_err(|e| Error::Malformed {
                    method: method.to_owned(),
                    reason: format!("cannot encode the parameters: {e}"),
                })?;
        }
        let answer = match self {
            Transport::Http(c) => c.batch_request::<Value>(builder).await,
            Transport::Ws(c) => c.batch_request::<Value>(builder).await,
        };
        let answer = answer.map_err(|e| sort(url, &label, timeout, e))?;
        if answer.len() != methods.len() {
            return Err(Error::Malformed {
                method: label,
                reason: format!("{} answers to {} calls", answer.len(), methods.len()),
            });
        }
        Ok(answer
            .into_iter()
            .zip(&methods)
            .map(|(r, method)| {
                r.map_err(|e| sort(url, method, timeout, RpcError::Call(e.into_owned())))
            })
            .collect())
    }
}

/// An error and its sources in one line.
fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = s.source();
    }
    text
}

/// jsonrpsee's error as one of ours.
fn sort(url: &str, method: &str, timeout: Duration, error: RpcError) -> Error {
    let not_substrate = |reason: String| Error::NotSubstrate {
        url: url.to_owned(),
        method: method.to_owned(),
        reason,
    };
    match error {
        RpcError::Call(obj) if obj.code() == METHOD_NOT_FOUND => {
            not_substrate("the node has no such method".into())
        }
        RpcError::Call(obj) => Error::Rpc {
            method: method.to_owned(),
            code: obj.code(),
            message: obj.message().to_owned(),
        },
        RpcError::RequestTimeout => Error::Timeout {
            url: url.to_owned(),
            method: method.to_owned(),
            after: timeout,
        },
        RpcError::ParseError(e) => Error::Malformed {
            method: method.to_owned(),
            reason: format!("not a JSON-RPC answer: {e}"),
        },
        RpcError::Transport(e) => {
            // A busy node or gateway answers 429 or a 5xx status (asked
            // again later); an HTTP server that is not a JSON-RPC endpoint
            // answers with another status; anything else is the network.
            if let Some(t) = throttle::throttled(e.as_ref()) {
                return match t.status {
                    429 | 500 | 502 | 503 | 504 => Error::Busy {
                        url: url.to_owned(),
                        method: method.to_owned(),
                        status: t.status,
                        retry_after: t.retry_after,
                    },
                    status => not_substrate(format!("HTTP status {status}")),
                };
            }
            // An answer whose body is not JSON (jsonrpsee checks the
            // Content-Type): the endpoint was reached, and is not JSON-RPC
            // (a gateway's error page, a web server).
            if let Some(jsonrpsee_http_client::transport::Error::Http(
                jsonrpsee_core::http_helpers::HttpError::Malformed,
            )) = e.downcast_ref::<jsonrpsee_http_client::transport::Error>()
            {
                return Error::Malformed {
                    method: method.to_owned(),
                    reason: format!(
                        "{url} answered, but not with JSON: not a JSON-RPC endpoint, or a \
                         gateway's error page"
                    ),
                };
            }
            let text = chain(e.as_ref());
            if text.contains("Connection timeout") || text.contains("timed out") {
                return Error::Timeout {
                    url: url.to_owned(),
                    method: method.to_owned(),
                    after: timeout,
                };
            }
            // A WebSocket handshake refused with a status: busy, or not a
            // JSON-RPC endpoint, as for HTTP.
            if let Some(WsHandshakeError::Rejected { status_code }) =
                e.downcast_ref::<WsHandshakeError>()
            {
                return match status_code {
                    429 | 500 | 502 | 503 | 504 => Error::Busy {
                        url: url.to_owned(),
                        method: method.to_owned(),
                        status: *status_code,
                        retry_after: None,
                    },
                    status => not_substrate(format!(
                        "the WebSocket handshake was refused with HTTP status {status}"
                    )),
                };
            }
            if text.contains("status code") || text.contains("rejected") {
                return not_substrate(text);
            }
            Error::Unreachable {
                url: url.to_owned(),
                reason: text,
            }
        }
        RpcError::RestartNeeded(e) => Error::Unreachable {
            url: url.to_owned(),
            reason: format!("connection closed: {e}"),
        },
        other => Error::Unreachable {
            url: url.to_owned(),
            reason: chain(&other),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes() {
        assert_eq!(scheme("http://127.0.0.1:9933").unwrap(), Scheme::Http);
        assert_eq!(scheme("WS://127.0.0.1:9944").unwrap(), Scheme::Ws);
        assert!(scheme("127.0.0.1:9944").is_err());
        assert!(scheme("ftp://x").is_err());
        assert!(scheme("ws://").is_err());
        if !cfg!(feature = "tls") {
            let err = scheme("wss://rpc.example").unwrap_err().to_string();
            assert!(err.contains("`tls` feature"), "{err}");
        }
    }
}
