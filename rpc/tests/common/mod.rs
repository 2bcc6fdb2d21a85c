//! What the suites share: the checks of a WebSocket handshake refused with
//! 429, over `ws://` (`node.rs`, through the fault proxy) and `wss://`
//! (`wss.rs`, through a TLS listener of its own).

use std::time::Duration;

use ferroscale_rpc::{BlockingClient, Error, RetryPolicy};

/// The error of a connection that must have been refused.
pub(crate) fn refusal(connected: Result<BlockingClient, Error>) -> Error {
    match connected {
        Ok(_) => panic!("the handshake was refused"),
        Err(error) => error,
    }
}

/// A refusal with `Retry-After: 7`: the error keeps the node's wait, says
/// it, and the retries take it.
pub(crate) fn assert_keeps_retry_after_7_s(error: &Error) {
    assert_eq!(error.retry_after(), Some(Duration::from_secs(7)), "{error}");
    assert!(
        error
            .to_string()
            .contains("HTTP status 429, retry after 7 s"),
        "{error}"
    );
    assert_eq!(
        RetryPolicy::default().wait(1, error),
        Duration::from_secs(7)
    );
}

/// A refusal without `Retry-After`: the status is named, and the retries'
/// own backoff applies.
pub(crate) fn assert_has_no_retry_after(error: &Error) {
    assert!(error.to_string().contains("HTTP status 429"), "{error}");
    assert_eq!(error.retry_after(), None, "{error}");
}
