//! The one error type of the client: what went wrong, with which endpoint or
//! method, in one line.

use std::fmt;
use std::time::Duration;

/// Why a request to a node failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The URL cannot be used (bad syntax, unsupported scheme, `https`/`wss`
    /// without the `tls` feature).
    InvalidUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Nothing answered: connection refused, unknown host, handshake failed,
    /// connection dropped.
    Unreachable {
        /// The endpoint.
        url: String,
        /// The transport's own description.
        reason: String,
    },
    /// The node did not answer within the request (or connect) timeout.
    Timeout {
        /// The endpoint.
        url: String,
        /// The JSON-RPC method (or `connect`).
        method: String,
        /// The timeout that ran out.
        after: Duration,
    },
    /// The node (or a gateway before it) answered with an HTTP status that
    /// says "later": 429 Too Many Requests, 500, 502, 503 or 504.
    Busy {
        /// The endpoint.
        url: String,
        /// The JSON-RPC method asked.
        method: String,
        /// The HTTP status.
        status: u16,
        /// How long the server asked to wait (`Retry-After`, in seconds).
        retry_after: Option<Duration>,
    },
    /// The endpoint answers, but not as a Substrate node: an HTTP status
    /// instead of JSON-RPC, no such method, or not JSON-RPC at all.
    NotSubstrate {
        /// The endpoint.
        url: String,
        /// The method that showed it.
        method: String,
        /// What the endpoint did.
        reason: String,
    },
    /// The node answered the call with a JSON-RPC error.
    Rpc {
        /// The method.
        method: String,
        /// The JSON-RPC error code.
        code: i32,
        /// The node's message.
        message: String,
    },
    /// The node's answer has the wrong shape or content.
    Malformed {
        /// The method answered.
        method: String,
        /// What is wrong with the answer.
        reason: String,
    },
    /// The node does not have what was asked (a block number beyond its
    /// head, an unknown hash).
    NotFound {
        /// What was asked for.
        what: String,
    },
    /// A failure while fetching one block of a range (after the retries).
    Block {
        /// The block number.
        number: u64,
        /// The failure.
        source: Box<Error>,
    },
    /// A transient failure that outlived its retries.
    GaveUp {
        /// Tries made, the first included.
        attempts: u32,
        /// Time from the first try to the last failure.
        elapsed: Duration,
        /// The last failure.
        source: Box<Error>,
    },
    /// The blocking client could not start its runtime.
    Runtime(String),
}

impl Error {
    /// Whether asking again may succeed: the node was unreachable, slow, or
    /// answered with a server-side error. Malformed answers, missing
    /// methods and missing blocks are not retried.
    pub fn is_transient(&self) -> bool {
        match self {
            Error::Unreachable { .. } | Error::Timeout { .. } | Error::Busy { .. } => true,
            // -32601 method not found and -32602 invalid params are answers
            // that do not change; every other error code (internal error,
            // overloaded, execution failure) may.
            Error::Rpc { code, .. } => !matches!(code, -32601 | -32602),
            Error::Block { source, .. } => source.is_transient(),
            // The retries are spent.
            _ => false,
        }
    }

    /// How long the node asked to wait before asking again (`Retry-After`).
    pub fn retry_after(&self) -> Option<Duration> {
        match self.root() {
            Error::Busy { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// The error inside the per-block context, if any.
    pub fn root(&self) -> &Error {
        match self {
            Error::Block { source, .. } | Error::GaveUp { source, .. } => source.root(),
            other => other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidUrl { url, reason } => write!(f, "invalid node URL {url:?}: {reason}"),
            Error::Unreachable { url, reason } => write!(f, "cannot reach {url}: {reason}"),
            Error::Timeout { url, method, after } => {
                write!(f, "{url}: {method} got no answer within {after:?}")
            }
            Error::Busy {
                url,
                method,
                status,
                retry_after,
            } => {
                write!(f, "{url}: {method}: the node is busy (HTTP status {status}")?;
                if let Some(after) = retry_after {
                    write!(f, ", retry after {} s", after.as_secs())?;
                }
                f.write_str(")")
            }
            Error::NotSubstrate {
                url,
                method,
                reason,
            } => write!(f, "{url} is not a Substrate node ({method}: {reason})"),
            Error::Rpc {
                method,
                code,
                message,
            } => write!(f, "{method}: the node answered error {code}: {message}"),
            Error::Malformed { method, reason } => {
                write!(f, "{method}: malformed answer: {reason}")
            }
            Error::NotFound { what } => write!(f, "{what}: not found on the node"),
            Error::Block { number, source } => write!(f, "block {number}: {source}"),
            Error::GaveUp {
                attempts,
                elapsed,
                source,
            } => write!(
                f,
                "{source} (gave up after {attempts} tries over {:.1} s)",
                elapsed.as_secs_f64()
            ),
            Error::Runtime(reason) => write!(f, "cannot start the RPC client's runtime: {reason}"),
        }
    }
}

impl std::error::Error for Error {}
