//! What the `ferroscale index` tests share: the real Polkadot fixtures they
//! serve, a fresh folder per test, the JSON summary of a successful run,
//! a dataset's rows as comparable text, and the fault plans of the
//! WebSocket scenarios.
//!
//! The fixtures, the loopback node across the upgrade and the dataset read
//! back are the library's test files (`index/tests/common`), included by
//! path: one copy serves both crates' tests.

#![allow(dead_code)]

#[path = "../../../index/tests/common/dataset.rs"]
mod dataset;
#[path = "../../../index/tests/common/polkadot.rs"]
mod polkadot;
#[path = "../../../index/tests/common/upgrade_node.rs"]
mod upgrade_node;

// Each test file is a crate of its own and uses only some of these.
#[allow(unused_imports)]
pub(crate) use dataset::*;
#[allow(unused_imports)]
pub(crate) use polkadot::*;
#[allow(unused_imports)]
pub(crate) use upgrade_node::*;

use std::process::Output;
use std::sync::atomic::{AtomicU64, Ordering};

use ferroscale_rpc::fault_proxy::Fault;

/// One JSON line of the file source (a made-up hash: the fixtures have no
/// header).
pub(crate) fn line(number: u64, spec: u32, xts: &[String], events: Option<&str>) -> String {
    serde_json::json!({
        "number": number,
        "hash": format!("0x{number:064x}"),
        "spec_version": spec,
        "extrinsics": xts,
        "events": events,
    })
    .to_string()
        + "\n"
}

/// The JSON summary of a run that succeeded.
pub(crate) fn ok_json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON summary")
}

/// For a plan's WebSocket handshakes: [`Fault::BUSY`] to those whose count (from
/// 0, over handshakes only) is `at` modulo `every`, the others passed.
pub(crate) fn handshakes_refused(every: u64, at: u64) -> impl Fn() -> Fault + Send + Sync {
    let count = AtomicU64::new(0);
    move || match count.fetch_add(1, Ordering::Relaxed) % every == at {
        true => Fault::BUSY,
        false => Fault::Pass,
    }
}
