//! [`ClientConfig`]: what a connection may take (timeouts, answer size);
//! shared by the client and its transport.

use std::time::Duration;

/// Timeouts and limits of a [`Client`](crate::Client).
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// How long one request may take (sending, waiting, reading the answer).
    pub request_timeout: Duration,
    /// How long opening a connection may take (TCP and, for WebSocket, the
    /// handshake).
    pub connect_timeout: Duration,
    /// The largest answer accepted, in bytes of JSON. Metadata is the
    /// largest answer a node gives (about 1.4 MB of hex for Polkadot
    /// today); the default leaves room for growth and for large blocks.
    pub max_response_bytes: usize,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            request_timeout: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(10),
            max_response_bytes: 64 << 20,
        }
    }
}
