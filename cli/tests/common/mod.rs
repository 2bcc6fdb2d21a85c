//! What the `ferroscale index` tests share: the real Polkadot fixtures they
//! serve, a fresh folder per test, the JSON summary of a successful run,
//! a dataset's rows as comparable text, and the fault plans of the
//! WebSocket scenarios.

#![allow(dead_code)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicU64, Ordering};

use ferroscale_index::Table;
use ferroscale_rpc::fault_proxy::Fault;
use ferroscale_rpc::test_server::{TestBlock, TestNode, TestRuntime};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

pub(crate) const META_9180: &str = "metadata/polkadot-v14-spec9180.scale";
pub(crate) const META_1000001: &str = "metadata/polkadot-v14-spec1000001.scale";
pub(crate) const BLOCK_10M: &str = "payloads/polkadot-block-10000000/extrinsics.json";
pub(crate) const BLOCK_18M: &str = "payloads/polkadot-block-18468942/extrinsics.json";
pub(crate) const EVENTS_18M: &str = "payloads/polkadot-block-18468942/events.hex";

/// A fresh, empty folder for one test.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-index-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A fixture's extrinsics, `0x` hex as the file has them.
pub(crate) fn extrinsics(name: &str) -> Vec<String> {
    serde_json::from_str(&ferroscale_fixtures::read_string(name)).expect("extrinsics JSON")
}

/// A fixture's extrinsics as bytes.
pub(crate) fn extrinsic_bytes(name: &str) -> Vec<Vec<u8>> {
    extrinsics(name)
        .iter()
        .map(|x| ferroscale_fixtures::decode_hex(x).expect("hex"))
        .collect()
}

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

/// The loopback node over blocks 100–115: spec 9180 up to block 110
/// (which enacts the upgrade: block 10,000,000's extrinsics), spec
/// 1,000,001 after (block 18,468,942's, with its 58 events), each block
/// changed by `change` (given its number) before it is served.
pub(crate) fn upgrade_node(change: impl Fn(u64, &mut TestBlock)) -> TestNode {
    let read = ferroscale_fixtures::read;
    let (x10, x18) = (extrinsic_bytes(BLOCK_10M), extrinsic_bytes(BLOCK_18M));
    let events = ferroscale_fixtures::read_hex(EVENTS_18M);
    let mut node = TestNode::new(TestRuntime::new("polkadot", 9180, vec![read(META_9180)]))
        .runtime(TestRuntime::new(
            "polkadot",
            1_000_001,
            vec![read(META_1000001)],
        ))
        .first_number(100);
    for n in 100..=115u64 {
        let mut block = match n {
            ..=110 => TestBlock {
                runtime: usize::from(n == 110),
                extrinsics: x10.clone(),
                events: None,
            },
            _ => TestBlock {
                runtime: 1,
                extrinsics: x18.clone(),
                events: Some(events.clone()),
            },
        };
        change(n, &mut block);
        node = node.block(block);
    }
    node
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

/// Every Parquet file of `table` in `out`.
pub(crate) fn files(out: &Path, table: &str) -> Vec<PathBuf> {
    let Ok(listing) = std::fs::read_dir(out.join(table)) else {
        return Vec::new();
    };
    listing
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect()
}

/// Every record batch of a Parquet file.
pub(crate) fn batches(path: &Path) -> Vec<arrow_array::RecordBatch> {
    let file = File::open(path).expect("parquet file");
    ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("parquet")
        .build()
        .expect("reader")
        .collect::<Result<Vec<_>, _>>()
        .expect("batches")
}

/// Every table's rows, sorted, as text: two datasets equal in this are
/// the same data.
pub(crate) fn rows(out: &Path) -> Vec<String> {
    let mut all = Vec::new();
    for table in Table::ALL {
        let name = table.name();
        for path in files(out, name) {
            for batch in batches(&path) {
                for i in 0..batch.num_rows() {
                    let row: Vec<String> = batch
                        .columns()
                        .iter()
                        .map(|c| {
                            // The array's Debug text without its type line.
                            format!("{:?}", c.slice(i, 1))
                                .lines()
                                .skip(1)
                                .collect::<Vec<_>>()
                                .join(" ")
                        })
                        .collect();
                    all.push(format!("{name}: {}", row.join(" | ")));
                }
            }
        }
    }
    all.sort();
    all
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
