//! The generated decoders on hostile nesting: Polkadot calls nested 300
//! deep (`Utility.batch` of one `Utility.batch` of one …, three bytes per
//! level) decoded with `decode_all` on a thread whose stack is only a
//! quarter larger than the decode's stack budget give an error, never a
//! stack overflow (which aborts the process). In a debug build 256 levels of
//! generated `Decode` frames need more than that, so the depth limit alone
//! would not hold; the stack budget does.

use ferroscale_core::stack::DEFAULT_STACK_BUDGET;
use ferroscale_metadata::Metadata;
use ferroscale_runtime_types::{decode_all, polkadot};

/// `batch(vec![inner])` per level around `System.remark(b"")`.
fn nested_batches(levels: usize) -> Vec<u8> {
    let md = Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v15-spec1001002.scale",
    ))
    .expect("metadata loads");
    let index = |pallet: &str, call: &str| {
        let calls = md.pallet(pallet).unwrap().call_enum.as_ref().unwrap();
        let v = calls.variants.iter().find(|v| v.name == call).unwrap();
        [calls.pallet_index, v.index]
    };
    let (batch, remark) = (index("Utility", "batch"), index("System", "remark"));
    ferroscale_test_support::nesting::nested_batch_calls(batch, remark, levels)
}

#[test]
fn nested_calls_stop_within_a_spawned_threads_stack() {
    let shallow = nested_batches(10);
    decode_all::<polkadot::RuntimeCall>(&shallow).expect("ten nested batches decode");

    let deep = nested_batches(300);
    let result = std::thread::Builder::new()
        .stack_size(DEFAULT_STACK_BUDGET / 4 * 5)
        .spawn(move || decode_all::<polkadot::RuntimeCall>(&deep).map(|_| ()))
        .expect("thread")
        .join()
        .expect("no panic");
    let err = result.expect_err("300 levels are past the limits");
    let text = err.to_string();
    assert!(
        text.contains("stack budget") || text.contains("depth"),
        "{text}"
    );
}
