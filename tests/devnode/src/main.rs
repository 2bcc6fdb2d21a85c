//! `ferroscale-devnode`: a development node on `127.0.0.1` for the
//! end-to-end tests that drive real clients (substrate-interface,
//! async-substrate-interface) against it, with our module and with theirs.
//!
//! It is the loopback test node of `ferroscale-rpc` (blocks, metadata and
//! storage from the fixtures, over HTTP and WebSocket on one port) with a
//! runtime's logic added ([`logic::DevLogic`]): accounts in storage,
//! `system_accountNextIndex`, the `AccountNonceApi` runtime call, and
//! `author_submitExtrinsic`, which decodes the transaction and checks its
//! ed25519 signature against the payload the node builds itself.
//!
//! ```text
//! ferroscale-devnode [--chain polkadot|polkadot-v15|polkadot-v16] [--minutes N]
//! ```
//!
//! It prints one JSON line, `{"url": "ws://127.0.0.1:PORT", …}` with the
//! chain's facts a test needs (the dev account, the head), then serves
//! until killed or for `--minutes` (10 by default).

mod chain;
mod logic;
#[cfg(test)]
mod tests;

use std::time::Duration;

fn main() {
    if let Err(e) = run() {
        eprintln!("ferroscale-devnode: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let mut chain = "polkadot".to_owned();
    let mut minutes: u64 = 10;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--chain" => chain = value("--chain")?,
            "--minutes" => {
                let text = value("--minutes")?;
                minutes = text
                    .parse()
                    .map_err(|e| format!("--minutes {text:?}: {e}"))?;
            }
            "-h" | "--help" => {
                println!(
                    "ferroscale-devnode [--chain polkadot|polkadot-v15|polkadot-v16] [--minutes N]"
                );
                return Ok(());
            }
            other => return Err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    let serving = minutes
        .checked_mul(60)
        .map(Duration::from_secs)
        .ok_or_else(|| format!("--minutes {minutes} is too long"))?;
    let spec = chain::ChainSpec::named(&chain)?;
    let (node, facts) = chain::build(spec)?;
    let server = node.lifetime(serving).start()?;
    let mut line = facts;
    line["url"] = serde_json::Value::from(server.ws_url());
    println!("{line}");
    std::thread::sleep(serving);
    Ok(())
}
