//! `wss://`: a WebSocket handshake refused with 429 and `Retry-After` over
//! TLS keeps the node's wait, as over `ws://` (`node.rs`), for the retries
//! to take; one accepted carries requests. The server is a TLS listener on
//! the loopback with a self-signed certificate for `localhost`, which the
//! platform's verifier trusts through `SSL_CERT_FILE` (read on Linux and
//! the BSDs; this test binary is a process of its own, so setting it
//! touches no other test).

#![cfg(all(feature = "tls", any(target_os = "linux", target_os = "freebsd")))]

use std::sync::Arc;
use std::time::Duration;

use ferroscale_rpc::test_server::{TestNode, TestRuntime};
use ferroscale_rpc::{BlockingClient, ClientConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{crypto, ServerConfig};
use tokio_rustls::TlsAcceptor;

mod common;

/// A certificate for `localhost` and 127.0.0.1, not a CA, valid until
/// 2126, made for this test alone (`openssl req -x509`, P-256): it and
/// its key secure nothing else.
const CERT: &str = "\
-----BEGIN CERTIFICATE-----\n\
MIIBnDCCAUKgAwIBAgIUdLZ2eGBAo4AhFynvK/0BRzhbG34wCgYIKoZIzj0EAwIw\n\
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwNzAwNDczOFoYDzIxMjYxMTEz\n\
MDA0NzM4WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO\n\
PQMBBwNCAATVEsPbDHPdp/MYNxuMZqc9qPmLrbfHzWJxKFSUpzfxzNLaiIqC5V/K\n\
Tdw7gUFlfMvfWm8AQPmIFWH0QfhrpBdYo3AwbjAMBgNVHRMBAf8EAjAAMA4GA1Ud\n\
DwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDATAaBgNVHREEEzARgglsb2Nh\n\
bGhvc3SHBH8AAAEwHQYDVR0OBBYEFAPBxjlqvyN8qytaxnwmPxzoIthoMAoGCCqG\n\
SM49BAMCA0gAMEUCIQCAU4JGSdSSMshEYcrMlCKOeTf0B0Fj/HJNuCBRAcoyHQIg\n\
aGh9YIwolPhyXPAJg8OpAs3k36IIVyPEMsV6S9sNvh0=\n\
-----END CERTIFICATE-----\n\
";

/// The key of [`CERT`].
const KEY: &str = "\
-----BEGIN PRIVATE KEY-----\n\
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgu49nDpmlHaPvDI0Z\n\
iyRjxUxEO/UMPqqrx0SlFMJlGz2hRANCAATVEsPbDHPdp/MYNxuMZqc9qPmLrbfH\n\
zWJxKFSUpzfxzNLaiIqC5V/KTdw7gUFlfMvfWm8AQPmIFWH0QfhrpBdY\n\
-----END PRIVATE KEY-----\n\
";

/// What the TLS server does with a connection.
#[derive(Clone, Copy)]
enum Behind {
    /// Reads the request's head and answers this.
    Answer(&'static str),
    /// Passes the bytes on to the node at this address, and back.
    Node(std::net::SocketAddr),
}

/// A TLS server on the loopback, `behind` it what answers; its port.
fn tls_server(behind: Behind) -> u16 {
    let _ = crypto::ring::default_provider().install_default();
    let certs = vec![CertificateDer::from_pem_slice(CERT.as_bytes()).expect("certificate")];
    let key = PrivateKeyDer::from_pem_slice(KEY.as_bytes()).expect("key");
    let config = ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("server configuration");
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("non-blocking");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    continue;
                };
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let answer = match behind {
                        Behind::Answer(answer) => answer,
                        Behind::Node(address) => {
                            if let Ok(mut node) = tokio::net::TcpStream::connect(address).await {
                                let _ = tokio::io::copy_bidirectional(&mut tls, &mut node).await;
                            }
                            return;
                        }
                    };
                    let (mut head, mut buf) = (Vec::new(), [0u8; 1024]);
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                        match tls.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let _ = tls.write_all(answer.as_bytes()).await;
                    let _ = tls.shutdown().await;
                });
            }
        });
    });
    port
}

#[test]
fn wss_handshakes_refused_keep_their_retry_after_and_one_accepted_carries_requests() {
    let trusted = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("wss-test-cert-{}.pem", std::process::id()));
    std::fs::write(&trusted, CERT).expect("certificate file");
    std::env::set_var("SSL_CERT_FILE", &trusted);
    let config = || ClientConfig {
        connect_timeout: Duration::from_secs(5),
        ..ClientConfig::default()
    };

    let port = tls_server(Behind::Answer(
        "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n",
    ));
    let url = format!("wss://localhost:{port}");
    let error = common::refusal(BlockingClient::connect_with(&url, config()));
    common::assert_keeps_retry_after_7_s(&error);

    // Without the header, the retries' own backoff applies.
    let port = tls_server(Behind::Answer(
        "HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\n\r\n",
    ));
    let url = format!("wss://localhost:{port}");
    let error = common::refusal(BlockingClient::connect_with(&url, config()));
    common::assert_has_no_retry_after(&error);

    // An accepted handshake over our TLS session carries requests.
    let metadata = ferroscale_fixtures::read("metadata/polkadot-v14-spec1000001.scale");
    let node = TestNode::new(TestRuntime::new("polkadot", 1_000_001, vec![metadata]))
        .start()
        .expect("test node");
    let address = node.ws_url()["ws://".len()..]
        .parse()
        .expect("node address");
    let url = format!("wss://localhost:{}", tls_server(Behind::Node(address)));
    let client = BlockingClient::connect_with(&url, config()).expect("connected");
    let version = client
        .request("state_getRuntimeVersion", vec![])
        .expect("runtime version");
    assert_eq!(version["specVersion"], 1_000_001, "{version}");
    let _ = std::fs::remove_file(&trusted);
}
