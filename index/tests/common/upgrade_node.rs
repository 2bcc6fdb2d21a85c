//! The loopback node across a runtime upgrade. One file for the tests of
//! `ferroscale-index` and of `ferroscale index` (the CLI's `tests/common`
//! includes it by path): both index the same blocks from the same node.

use ferroscale_rpc::test_server::{TestBlock, TestNode, TestRuntime};

use super::polkadot::{extrinsic_bytes, BLOCK_10M, BLOCK_18M, EVENTS_18M, META_1000001, META_9180};

/// The loopback node over blocks 100–115: 100–110 built with spec 9180
/// (block 10,000,000's extrinsics, no events; 110 sets the new code, so the
/// node reports spec 1,000,001 in its state but it ran on 9180), 111–115
/// with spec 1,000,001 (block 18,468,942's extrinsics and its 58 events),
/// each block changed by `change` (given its number) before it is served.
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
