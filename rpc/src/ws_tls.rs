//! The TLS session of a `wss://` handshake (`ws_handshake`), set up as
//! jsonrpsee's own connect sets it up when given no certificate store: the
//! platform's verifier, with `ring` as the provider.

use std::io;
use std::sync::{Arc, OnceLock};

use rustls_platform_verifier::ConfigVerifierExt;
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{crypto, ClientConfig};
use tokio_rustls::TlsConnector;

/// A TLS session with `host` over `stream`, the server's certificate checked
/// by the platform's verifier.
pub(crate) async fn secure(host: &str, stream: TcpStream) -> io::Result<TlsStream<TcpStream>> {
    // An IPv6 address is named in brackets in a URL, bare in a certificate.
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let name = ServerName::try_from(bare.to_owned())
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    TlsConnector::from(config()).connect(name, stream).await
}

/// The client configuration, built once: building it reads the platform's
/// certificates, which jsonrpsee notes is slow.
fn config() -> Arc<ClientConfig> {
    static CONFIG: OnceLock<Arc<ClientConfig>> = OnceLock::new();
    Arc::clone(CONFIG.get_or_init(|| {
        // As jsonrpsee does: without a process-wide provider, building a
        // configuration panics when rustls has more than one built in; one
        // installed already (by jsonrpsee, or the program) is kept.
        let _ = crypto::ring::default_provider().install_default();
        Arc::new(ClientConfig::with_platform_verifier())
    }))
}
