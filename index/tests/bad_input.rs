//! Hostile or broken input: a malformed line is an error naming its line, an
//! out-of-order block stops the run, and blocks that do not decode become
//! rows of the `errors` table instead of failing the batch.

mod common;

use std::io::Cursor;

use common::*;
use ferroscale_index::partition::partition_path;
use ferroscale_index::source::{block_to_json_line, JsonLines};
use ferroscale_index::{decode_block, run, Options, Table};

fn run_text(
    text: String,
    name: &str,
) -> Result<ferroscale_index::Summary, ferroscale_index::IndexError> {
    let out = temp_dir(name);
    let mut options = Options::new(&out);
    options.partition_blocks = 1;
    run(
        JsonLines::new(Cursor::new(text.into_bytes())),
        &mut decoders(),
        &options,
    )
}

#[test]
fn malformed_lines_name_the_line() {
    let good = block_to_json_line(&block_10000000());
    let cases = [
        ("{\"number\": 10000001, \"hash\": ", "line 3"),
        ("[1, 2, 3]", "line 3"),
        (
            "{\"number\": 10000001, \"hash\": \"0x00\", \"spec_version\": 9180, \"extrinsics\": []}",
            "hash",
        ),
        // Hex is read in place: a JSON escape inside it is refused, not misread.
        (
            "{\"number\": 10000001, \"hash\": \"0x00\", \"spec_version\": 9180, \"extrinsics\": [\"\\u0030x00\"]}",
            "expected a borrowed string",
        ),
    ];
    for (bad, expect) in cases {
        // A blank line between: line numbers count it.
        let text = format!("{good}\n\n{bad}\n");
        let err = run_text(text, "malformed").expect_err(bad).to_string();
        assert!(
            err.contains("line 3") && err.contains(expect),
            "{bad}: {err}"
        );
    }
    let mut block = block_18468942();
    block.number = 10_000_001;
    let line = block_to_json_line(&block).replace("\"extrinsics\":[\"0x", "\"extrinsics\":[\"0xzz");
    let err = run_text(format!("{good}\n{line}\n"), "badhex")
        .expect_err("bad hex")
        .to_string();
    assert!(
        err.contains("line 2") && err.contains("block 10000001: extrinsic 0"),
        "{err}"
    );

    let mut reader = JsonLines::new(Cursor::new(b"{\"number\": 1}\n".to_vec()));
    let e = reader
        .next()
        .expect("one item")
        .expect_err("missing fields")
        .to_string();
    assert!(
        e.starts_with("line 1:") && e.contains("missing field"),
        "{e}"
    );
}

#[test]
fn blocks_out_of_order_stop_the_run() {
    let a = block_to_json_line(&block_18468942());
    let b = block_to_json_line(&block_10000000());
    let err = run_text(format!("{a}\n{b}\n"), "order")
        .expect_err("out of order")
        .to_string();
    assert!(
        err.contains("block 10000000 comes after block 18468942"),
        "{err}"
    );
}

#[test]
fn undecodable_items_become_error_rows() {
    let mut decoders = decoders();
    // A truncated extrinsic, a corrupted event vector and an unknown runtime.
    let mut block = block_18468942();
    let cut = block.extrinsics[2].len() - 10;
    block.extrinsics[2].truncate(cut);
    block.events.as_mut().unwrap().truncate(1000);
    let rows = decode_block(&block, decoders.get(block.spec_version));
    let items: Vec<&str> = rows.errors.iter().map(|e| e.item).collect();
    assert_eq!(items, ["events", "extrinsic 2"], "{:?}", rows.errors);
    // Each keeps the bytes it failed on and the runtime it was read with,
    // so that it can be decoded again without the node.
    let kept: Vec<Vec<u8>> = rows
        .errors
        .iter()
        .map(|e| ferroscale_core::hex::decode(e.bytes).expect("hex"))
        .collect();
    assert_eq!(
        kept,
        [block.events.clone().unwrap(), block.extrinsics[2].clone()]
    );
    assert!(rows.errors.iter().all(|e| e.spec_version == 1_000_001));
    assert_eq!(
        rows.extrinsics.len(),
        3,
        "the other extrinsics still decode"
    );
    assert!(rows.extrinsics.iter().all(|x| x.success.is_none()));
    assert_eq!(rows.blocks.get(0).expect("block row").event_count, None);

    let mut unknown = block_10000000();
    unknown.spec_version = 1;
    let rows = decode_block(&unknown, decoders.get(unknown.spec_version));
    // A row per item, each with its bytes, to decode once the runtime is known.
    assert_eq!(rows.errors.len(), unknown.extrinsics.len());
    for (i, e) in rows.errors.iter().enumerate() {
        assert!(e.error.contains("no metadata for spec version 1"), "{e:?}");
        assert_eq!(e.item, format!("extrinsic {i}"));
        assert_eq!(
            ferroscale_core::hex::decode(e.bytes).unwrap(),
            unknown.extrinsics[i]
        );
    }

    // Through the pipeline they reach the errors table.
    let out = temp_dir("errors");
    let mut options = Options::new(&out);
    options.partition_blocks = 1;
    let text = format!("{}\n", block_to_json_line(&block));
    let summary = run(
        JsonLines::new(Cursor::new(text.into_bytes())),
        &mut decoders,
        &options,
    )
    .expect("run");
    assert_eq!(summary.errors, 2);
    let errors = read_parquet(&partition_path(
        &out,
        Table::Errors,
        block.number,
        block.number,
    ));
    assert_eq!(errors.iter().map(|b| b.num_rows()).sum::<usize>(), 2);
    let _ = std::fs::remove_dir_all(&out);
}
