//! The JSON columns' text, byte for byte: every rendering the index makes
//! (`ValueRef::write_json` over a `Document`, `to_json` over a `Value`, the
//! rows of `decode_block` and the record batches of `decode_blocks`) must
//! equal a plain reference rendering of the dynamic layer's value, written
//! here one byte at a time with the standard formatter. The fast paths
//! (escape detection a chunk or a word at a time, integers from a digit
//! table, rows written back to back into one column) change how the text is
//! made, never what it is: parsing it back would hide a changed escape or
//! number spelling, so these tests compare the text itself.

mod common;

use arrow_array::{Array, StringArray};
use common::*;
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{decode_value, Document, ValueRef};
use ferroscale_index::{decode_block, Block, Table, Tables};
use ferroscale_test_support::Xorshift;
use ferroscale_value::Value;

/// The reference text of `v`: objects in field order, arrays for lists and
/// tuples, exact decimal integers of any width, strings with `"`, `\`,
/// `\n`, `\r`, `\t` escaped by name and other control characters as
/// `\u00xx` (lower-case hex); everything else, DEL and non-ASCII included,
/// as is.
fn reference(v: &Value) -> String {
    fn string(s: &str, out: &mut String) {
        out.push('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
    }
    fn walk(v: &Value, out: &mut String) {
        match v {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(&b.to_string()),
            Value::UInt(n) => out.push_str(&n.to_string()),
            Value::Int(n) => out.push_str(&n.to_string()),
            // `Value`'s Display writes 256-bit integers as exact decimals.
            Value::U256(_) | Value::I256(_) => out.push_str(&v.to_string()),
            Value::Str(s) => string(s, out),
            Value::List(items) | Value::Tuple(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    walk(item, out);
                }
                out.push(']');
            }
            Value::Dict(entries) => {
                out.push('{');
                for (i, (k, item)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    string(k, out);
                    out.push(':');
                    walk(item, out);
                }
                out.push('}');
            }
        }
    }
    let mut out = String::new();
    walk(v, &mut out);
    out
}

/// The JSON text of a document's value.
fn doc_json(v: ValueRef<'_, '_>) -> String {
    let mut out = String::new();
    v.write_json(&mut out);
    out
}

/// Checks one decoded item both ways and returns its value.
fn check_item(
    ctx: &ferroscale_dynamic::Context<'_>,
    ty: ferroscale_dynamic::graph::TypeIdx,
    bytes: &[u8],
    what: &str,
) -> Value {
    let value = decode_value(ctx, ty, bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    let doc = Document::decode(ctx, ty, bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    let expected = reference(&value);
    assert_eq!(doc_json(doc.root()), expected, "{what}: Document text");
    assert_eq!(
        ferroscale_value::json::to_json(&value),
        expected,
        "{what}: Value text"
    );
    value
}

fn get<'a>(v: &'a Value, key: &str) -> &'a Value {
    v.get(key).unwrap_or_else(|| panic!("no {key} in {v:?}"))
}

#[test]
fn real_blocks_render_byte_for_byte() {
    let decoders = decoders();
    for block in [block_18468942(), block_10000000()] {
        let spec = decoders.get(block.spec_version).expect("spec");
        let ctx = spec.context();
        let rows = decode_block(&block, Some(spec));
        assert!(rows.errors.is_empty(), "{:?}", rows.errors);
        assert_eq!(rows.extrinsics.len(), block.extrinsics.len());
        for (i, bytes) in block.extrinsics.iter().enumerate() {
            let what = format!("block {} extrinsic {i}", block.number);
            let v = check_item(&ctx, spec.extrinsic_type(), bytes, &what);
            let row = rows
                .extrinsics
                .iter()
                .find(|r| r.index == i as u32)
                .expect("row");
            let call = get(&v, "call");
            assert_eq!(row.args, reference(get(call, "call_args")), "{what}: args");
            let text = |k: &str| v.get(k).map(reference);
            assert_eq!(
                row.signature,
                text("signature").as_deref(),
                "{what}: signature"
            );
            assert_eq!(row.tip, text("tip").as_deref(), "{what}: tip");
            assert_eq!(row.era, text("era").as_deref(), "{what}: era");
            assert_eq!(row.mode, text("mode").as_deref(), "{what}: mode");
        }
        let Some(events) = &block.events else {
            continue;
        };
        let what = format!("block {} events", block.number);
        let v = check_item(
            &ctx,
            spec.events_type().expect("events type"),
            events,
            &what,
        );
        let Value::List(records) = &v else {
            panic!("{what}: not a list");
        };
        assert_eq!(rows.events.len(), records.len());
        for (row, record) in rows.events.iter().zip(records) {
            assert_eq!(
                row.args,
                reference(get(record, "attributes")),
                "{what}: {}",
                row.index
            );
        }
    }
}

/// SCALE compact length prefix.
fn compact(n: usize, out: &mut Vec<u8>) {
    match n {
        0..=63 => out.push((n as u8) << 2),
        64..=16_383 => out.extend_from_slice(&(((n as u16) << 2) | 1).to_le_bytes()),
        _ => out.extend_from_slice(&(((n as u32) << 2) | 2).to_le_bytes()),
    }
}

#[test]
fn text_with_escapes_at_every_position_renders_byte_for_byte() {
    // Characters that take each path: escaped by name, as \u00xx, DEL and
    // non-ASCII (never escaped), and plain bytes.
    const ALPHABET: [char; 16] = [
        'a', '0', ' ', '"', '\\', '\n', '\r', '\t', '\u{0}', '\u{8}', '\u{c}', '\u{1f}', '\u{7f}',
        'é', '€', '😀',
    ];
    let mut rng = Xorshift::new(0x5eed_1d05);
    let mut texts: Vec<String> = Vec::new();
    // Lengths around the 8-byte words and 32-byte chunks of the escape scan,
    // each with one special character at every position, and mixed texts.
    for len in [
        0, 1, 7, 8, 9, 15, 16, 31, 32, 33, 39, 40, 63, 64, 65, 95, 96, 97, 130,
    ] {
        for &special in &ALPHABET[3..] {
            for at in 0..len {
                let mut s: Vec<char> = vec!['x'; len];
                s[at] = special;
                texts.push(s.into_iter().collect());
            }
        }
        for _ in 0..20 {
            texts.push((0..len).map(|_| *rng.pick(&ALPHABET)).collect());
        }
        texts.push("f".repeat(len));
    }
    let mut bytes = Vec::new();
    compact(texts.len(), &mut bytes);
    for t in &texts {
        compact(t.len(), &mut bytes);
        bytes.extend_from_slice(t.as_bytes());
    }
    let mut registry = Registry::new();
    let ty = registry.resolve("Vec<String>").expect("type");
    let v = check_item(&registry.context(), ty, &bytes, "texts");
    let Value::List(items) = &v else {
        panic!("not a list")
    };
    assert_eq!(items.len(), texts.len());
}

#[test]
fn integers_of_every_width_render_byte_for_byte() {
    let mut unsigned: Vec<u128> = vec![0, u64::MAX as u128, u64::MAX as u128 + 1, u128::MAX];
    let mut signed: Vec<i128> = vec![
        0,
        -1,
        i64::MIN as i128,
        i64::MIN as i128 - 1,
        i128::MIN,
        i128::MAX,
    ];
    let mut p: u128 = 1;
    while let Some(next) = p.checked_mul(10) {
        unsigned.extend([p - 1, p, p + 1]);
        signed.extend([p as i128 - 1, -(p as i128), -(p as i128) - 1]);
        p = next;
    }
    let mut rng = Xorshift::new(77);
    for _ in 0..200 {
        unsigned.push(rng.next_u64() as u128 >> (rng.below(64)));
        signed.push(rng.next_u64() as i64 as i128 >> (rng.below(64)));
    }
    let mut bytes = Vec::new();
    let mut registry = Registry::new();
    // u64 and i64 lists, the 128-bit ones, and 256-bit values (the slow path).
    let small_u: Vec<u64> = unsigned
        .iter()
        .filter_map(|&n| u64::try_from(n).ok())
        .collect();
    let small_i: Vec<i64> = signed
        .iter()
        .filter_map(|&n| i64::try_from(n).ok())
        .collect();
    compact(small_u.len(), &mut bytes);
    small_u
        .iter()
        .for_each(|n| bytes.extend_from_slice(&n.to_le_bytes()));
    compact(small_i.len(), &mut bytes);
    small_i
        .iter()
        .for_each(|n| bytes.extend_from_slice(&n.to_le_bytes()));
    compact(unsigned.len(), &mut bytes);
    unsigned
        .iter()
        .for_each(|n| bytes.extend_from_slice(&n.to_le_bytes()));
    compact(signed.len(), &mut bytes);
    signed
        .iter()
        .for_each(|n| bytes.extend_from_slice(&n.to_le_bytes()));
    let wide: [[u8; 32]; 3] = [[0; 32], [0xff; 32], {
        let mut w = [0x5a; 32];
        w[31] = 0x7f;
        w
    }];
    for list in [&wide, &wide] {
        compact(list.len(), &mut bytes);
        list.iter().for_each(|w| bytes.extend_from_slice(w));
    }
    let ty = registry
        .resolve("(Vec<u64>, Vec<i64>, Vec<u128>, Vec<i128>, Vec<u256>, Vec<i256>)")
        .expect("type");
    check_item(&registry.context(), ty, &bytes, "integers");
}

#[test]
fn rows_written_back_to_back_into_one_column_stay_apart() {
    // A batch's rows write their JSON into one buffer per column, which
    // becomes the Arrow array's values: every row of a record batch must
    // read back as its own item's text, a short one after a long one too.
    let decoders = decoders();
    let (large, small) = (block_18468942(), block_10000000());
    let blocks: Vec<Block> = [&large, &small, &large, &small]
        .iter()
        .enumerate()
        .map(|(i, b)| Block {
            number: i as u64,
            ..(*b).clone()
        })
        .collect();
    let tables = decode_on_threads(1, &blocks, &decoders);
    let batches = tables.batches(Table::Extrinsics);
    assert_eq!(batches.len(), 1, "one run of blocks on one thread");
    let column = |name: &str| {
        batches[0]
            .column_by_name(name)
            .and_then(|c| c.as_any().downcast_ref::<StringArray>().cloned())
            .expect(name)
    };
    let (args, numbers) = (column("args"), batches[0].column(0).clone());
    let numbers = numbers
        .as_any()
        .downcast_ref::<arrow_array::UInt64Array>()
        .expect("block_number");
    // The batch's extrinsics are hashed up front, many at a time: each row's
    // hash must still be its own extrinsic's.
    let hashes = column("hash");
    let expected: Vec<(String, String)> = blocks
        .iter()
        .flat_map(|b| {
            let spec = decoders.get(b.spec_version).expect("spec");
            let ctx = spec.context();
            b.extrinsics.iter().map(move |x| {
                let v = decode_value(&ctx, spec.extrinsic_type(), x).expect("decode");
                let hash = get(&v, "extrinsic_hash").as_str().expect("hash").to_owned();
                (reference(get(get(&v, "call"), "call_args")), hash)
            })
        })
        .collect();
    assert_eq!(args.len(), expected.len());
    for (row, (want, hash)) in expected.iter().enumerate() {
        let block = numbers.value(row);
        assert_eq!(args.value(row), want, "row {row} (block {block})");
        assert_eq!(hashes.value(row), hash, "row {row} (block {block})");
    }
}

#[test]
fn tables_are_in_block_order_whatever_thread_took_a_run() {
    // Each thread decodes runs of consecutive blocks into batches of its
    // own (one run per thread, cut further at 8 MB of SCALE): the tables
    // must still list every block once, in order, every row of a block
    // together. 150 blocks are 9 MB: two runs even on one thread.
    let decoders = decoders();
    let (large, small) = (block_18468942(), block_10000000());
    let blocks: Vec<Block> = (0..150u64)
        .map(|i| Block {
            number: 1_000 + i,
            ..if i % 3 == 0 {
                small.clone()
            } else {
                large.clone()
            }
        })
        .collect();
    for threads in [3, 1] {
        let tables = decode_on_threads(threads, &blocks, &decoders);
        let runs = tables.batches(Table::Blocks).len();
        assert!(runs >= threads.max(2), "{runs} runs on {threads} threads");
        assert_block_order(&tables, &blocks);
    }
}

fn assert_block_order(tables: &Tables, blocks: &[Block]) {
    let numbers = |table: Table, column: &str| -> Vec<u64> {
        tables
            .batches(table)
            .iter()
            .flat_map(|b| {
                let c = b.column_by_name(column).expect(column);
                let c = c
                    .as_any()
                    .downcast_ref::<arrow_array::UInt64Array>()
                    .expect(column);
                c.values().to_vec()
            })
            .collect()
    };
    let expected: Vec<u64> = blocks.iter().map(|b| b.number).collect();
    assert_eq!(numbers(Table::Blocks, "number"), expected);
    let per_extrinsic: Vec<u64> = blocks
        .iter()
        .flat_map(|b| std::iter::repeat_n(b.number, b.extrinsics.len()))
        .collect();
    assert_eq!(numbers(Table::Extrinsics, "block_number"), per_extrinsic);
    let events = numbers(Table::Events, "block_number");
    assert!(
        events.windows(2).all(|w| w[0] <= w[1]),
        "events in block order"
    );
    assert_eq!(
        events.len(),
        58 * blocks.iter().filter(|b| b.events.is_some()).count()
    );
    assert_eq!(tables.num_rows(Table::Errors), 0);
}
