//! Typed tables: every row of every typed table read back equals the
//! dynamic layer's value of its event or call (real Polkadot blocks of two
//! runtimes), the edge values come back exactly through the Arrow arrays,
//! and the schemas are reproducible.

mod common;

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Decimal128Type, UInt32Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::Schema;
use common::*;
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{Document, Node, Prim, Special, TypeIdx};
use ferroscale_index::typed::arrow_type::fields_of;
use ferroscale_index::typed::column::Builder;
use ferroscale_index::typed::read::{as_stored, column_value, row_value, row_value_renamed};
use ferroscale_index::typed::schema::{renamed_columns, Layout};
use ferroscale_index::typed::shape::Shape;
use ferroscale_index::typed::union::unify;
use ferroscale_index::typed::{Kind, TableDef, TypedTable};
use ferroscale_index::{decode_block_typed, Block, SpecDecoder};
use ferroscale_value::Value;

fn spec(metadata: &str) -> SpecDecoder {
    SpecDecoder::from_metadata(&ferroscale_fixtures::read(metadata), None).expect(metadata)
}

/// The decoder of `metadata`, through `presets` when it names any (legacy
/// metadata).
fn spec_with(metadata: &str, presets: &[&str]) -> SpecDecoder {
    let bytes = ferroscale_fixtures::read(metadata);
    match presets {
        [] => SpecDecoder::from_metadata(&bytes, None),
        _ => SpecDecoder::with_presets(&bytes, presets, None),
    }
    .expect(metadata)
}

/// The dynamic layer's values of a block, decoded apart from the indexer
/// (a registry of its own, with `presets`; SS58 format 0, Polkadot's).
fn independent(
    block: &Block,
    metadata: &str,
    presets: &[&str],
    spec: &SpecDecoder,
) -> (Vec<Value>, Vec<Value>) {
    let mut registry = Registry::with_presets(presets).expect("presets");
    registry.set_active_spec_version_id(spec.spec_version().into());
    registry
        .load_metadata(&ferroscale_fixtures::read(metadata))
        .expect("metadata");
    registry.set_ss58_format(Some(0));
    let extrinsics = block
        .extrinsics
        .iter()
        .map(|x| registry.decode("Extrinsic", x).expect("extrinsic"))
        .collect();
    let events = match &block.events {
        Some(bytes) => {
            let ctx = spec.context();
            let ty = spec.events_type().expect("System.Events");
            let v = ferroscale_dynamic::decode_value(&ctx, ty, bytes).expect("events");
            v.as_items().expect("list").to_vec()
        }
        None => Vec::new(),
    };
    (extrinsics, events)
}

/// An extrinsic's calls in pre-order (its own first), as the typed call
/// tables number them.
fn calls_in(v: &Value, out: &mut Vec<Value>) {
    let is_call = |v: &Value| v.get("call_module").is_some() && v.get("call_args").is_some();
    if is_call(v) {
        out.push(v.clone());
        for a in v
            .get("call_args")
            .and_then(Value::as_items)
            .unwrap_or_default()
        {
            calls_in_args(a, out);
        }
    }
}

fn calls_in_args(v: &Value, out: &mut Vec<Value>) {
    if v.get("call_module").is_some() && v.get("call_args").is_some() {
        return calls_in(v, out);
    }
    match v {
        Value::List(items) | Value::Tuple(items) => {
            items.iter().for_each(|i| calls_in_args(i, out))
        }
        Value::Dict(entries) => entries.iter().for_each(|(_, i)| calls_in_args(i, out)),
        _ => {}
    }
}

/// What the typed row of an event or call with these fields reads back as.
fn expected(def: &TableDef, fields: &Value) -> Value {
    let cols = &def.columns;
    match def.layout {
        Layout::Dict => match fields {
            Value::Dict(entries) => Value::Dict(
                entries
                    .iter()
                    .zip(cols)
                    .map(|((_, v), c)| (c.name.as_str().into(), as_stored(&c.shape, v)))
                    .collect(),
            ),
            other => panic!("{}: attributes {other:?} are not a dict", def.name()),
        },
        Layout::Single => as_stored(&cols[0].shape, fields),
        Layout::Tuple => match fields {
            Value::Tuple(items) => Value::Tuple(
                items
                    .iter()
                    .zip(cols)
                    .map(|(v, c)| as_stored(&c.shape, v))
                    .collect(),
            ),
            other => panic!("{}: attributes {other:?} are not a tuple", def.name()),
        },
        Layout::Empty => Value::Null,
        Layout::Args => Value::List(
            fields
                .as_items()
                .expect("call_args")
                .iter()
                .zip(cols)
                .map(|(a, c)| as_stored(&c.shape, a.get("value").expect("value")))
                .collect(),
        ),
    }
}

fn def_of(spec: &SpecDecoder, table: &TypedTable) -> Arc<TableDef> {
    let (pallet, item) = table.name.split_once('.').expect("Pallet.item");
    spec.typed_tables()
        .get(table.kind, pallet, item)
        .expect("the table is the runtime's")
}

/// What a round trip checked: typed tables, event rows, call rows.
struct Checked {
    tables: usize,
    events: usize,
    calls: usize,
}

/// Round trip of one block: the tables and rows checked.
fn round_trip(block: &Block, metadata: &str, presets: &[&str]) -> Checked {
    let spec = spec_with(metadata, presets);
    let mut rows = decode_block_typed(block, Some(&spec));
    let typed_errors: Vec<_> = rows
        .errors
        .iter()
        .filter(|e| e.error.contains("typed table"))
        .map(|e| format!("{}: {}", e.item, e.error))
        .collect();
    assert!(typed_errors.is_empty(), "{typed_errors:#?}");
    assert_eq!(rows.errors.len(), 0, "the fixture blocks decode whole");
    let tables = unify(rows.typed.take().expect("typed rows").into_tables()).expect("union");
    let (extrinsics, events) = independent(block, metadata, presets, &spec);
    let mut calls: Vec<Vec<Value>> = Vec::new();
    for x in &extrinsics {
        let mut out = Vec::new();
        calls_in(x.get("call").expect("call"), &mut out);
        calls.push(out);
    }
    let (mut event_rows, mut call_rows) = (0, 0);
    for table in &tables {
        let def = def_of(&spec, table);
        for batch in &table.batches {
            let u32s = |name: &str| {
                batch
                    .column_by_name(name)
                    .expect(name)
                    .as_primitive::<UInt32Type>()
                    .clone()
            };
            for row in 0..batch.num_rows() {
                let got = row_value(&def, batch, row).expect("read back");
                let (want, item) = match table.kind {
                    Kind::Event => {
                        event_rows += 1;
                        let i = u32s("event_index").value(row) as usize;
                        let record = &events[i];
                        assert_eq!(
                            record.get("module_id").and_then(Value::as_str),
                            Some(def.pallet.as_str())
                        );
                        assert_eq!(
                            record.get("event_id").and_then(Value::as_str),
                            Some(def.item.as_str())
                        );
                        (
                            expected(&def, record.get("attributes").expect("attributes")),
                            format!("event {i}"),
                        )
                    }
                    Kind::Call => {
                        call_rows += 1;
                        let x = u32s("extrinsic_index").value(row) as usize;
                        let c = u32s("call_index").value(row) as usize;
                        let call = &calls[x][c];
                        assert_eq!(
                            call.get("call_module").and_then(Value::as_str),
                            Some(def.pallet.as_str())
                        );
                        assert_eq!(
                            call.get("call_function").and_then(Value::as_str),
                            Some(def.item.as_str())
                        );
                        (
                            expected(&def, call.get("call_args").expect("call_args")),
                            format!("extrinsic {x} call {c}"),
                        )
                    }
                };
                assert_eq!(got, want, "{}: {item}", table.name);
            }
        }
    }
    // Every event and every call has its row.
    assert_eq!(event_rows, events.len());
    assert_eq!(call_rows, calls.iter().map(Vec::len).sum::<usize>());
    Checked {
        tables: tables.len(),
        events: event_rows,
        calls: call_rows,
    }
}

/// `rows` as a Markdown table under `header` (printed whole, so that tests
/// running at once do not interleave its lines; `--nocapture` shows it).
fn print_table(header: &[&str], rows: &[Vec<String>]) {
    let line = |cells: &[String]| format!("| {} |", cells.join(" | "));
    let mut text = line(&header.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    text += &format!("\n|{}", "---|".repeat(header.len()));
    for r in rows {
        text += &format!("\n{}", line(r));
    }
    println!("{text}");
}

#[test]
fn every_typed_row_of_the_real_blocks_reads_back_as_the_dynamic_value() {
    let blocks = [
        ("5,000,000", block_5000000(), META_30, &POLKADOT_PRESETS[..]),
        ("10,000,000", block_10000000(), META_9180, &[][..]),
        ("18,468,942", block_18468942(), META_1000001, &[][..]),
    ];
    let mut table = Vec::new();
    for (number, block, metadata, presets) in &blocks {
        let c = round_trip(block, metadata, presets);
        // Every block has extrinsics, so calls; 18,468,942 has 58 events
        // in the fixture (10,000,000 none).
        assert!(
            c.tables >= 1 && c.calls >= block.extrinsics.len(),
            "{number}"
        );
        let events = block.events.is_some();
        assert_eq!(events, c.events > 0, "{number}: {} event rows", c.events);
        table.push(vec![
            number.to_string(),
            metadata.to_string(),
            c.tables.to_string(),
            (c.events + c.calls).to_string(),
            c.events.to_string(),
            c.calls.to_string(),
        ]);
    }
    let header = [
        "block",
        "runtime",
        "typed tables",
        "rows",
        "event rows",
        "call rows",
    ];
    print_table(&header, &table);
}

/// A legacy runtime's `Bytes` argument is the `0x…` hex py-scale-codec's
/// legacy value shows, whatever the bytes hold: its column is that text,
/// read back as given (not the text's own bytes in a binary column).
#[test]
fn a_legacy_bytes_argument_is_a_text_column_of_its_hex() {
    let spec = spec_with(META_30, &POLKADOT_PRESETS);
    let def = spec
        .typed_tables()
        .get(Kind::Call, "System", "remark")
        .expect("System.remark");
    assert_eq!(def.layout, Layout::Args);
    assert_eq!(def.columns.len(), 1);
    assert_eq!(def.columns[0].shape, Shape::Text, "{:?}", def.columns[0]);
    let call = find_node(&spec, "Call", |n| matches!(n, Node::Special(Special::Call)));
    let ctx = spec.context();
    let value = Value::Dict(vec![
        ("call_module".into(), Value::str("System")),
        ("call_function".into(), Value::str("remark")),
        (
            "call_args".into(),
            Value::Dict(vec![("_remark".into(), Value::str("0x68656c6c6f"))]),
        ),
    ]);
    let bytes = ferroscale_dynamic::encode_value(&ctx, call, &value).expect("encodes");
    let mut doc = Document::new();
    doc.decode_into(&ctx, call, &bytes).expect("decodes");
    let got = one_row(&def, doc.root().get("call_args"));
    assert_eq!(got, Value::List(vec![Value::str("0x68656c6c6f")]));
}

/// `values` of graph node `ty` encoded by the dynamic encoder, decoded by
/// the indexer's decoder, put in a typed column and read back from it.
fn through_column(spec: &SpecDecoder, ty: TypeIdx, values: &[Value]) -> Vec<Value> {
    let ctx = spec.context();
    let shape = Shape::of(spec.registry().graph(), ty);
    let mut builder = Builder::new(&shape);
    let mut doc = Document::new();
    for v in values {
        let bytes = ferroscale_dynamic::encode_value(&ctx, ty, v).expect("encode");
        doc.decode_into(&ctx, ty, &bytes).expect("decode");
        builder.append(&shape, doc.root()).expect("fits");
    }
    let arrays = builder.finish().expect("arrays");
    let schema = Arc::new(Schema::new(fields_of("x", &shape)));
    let batch = RecordBatch::try_new(schema, arrays).expect("batch");
    (0..values.len())
        .map(|row| column_value(&shape, &batch, "x", row).expect("read back"))
        .collect()
}

/// The first node of the runtime's graph that `pick` accepts.
fn find_node(spec: &SpecDecoder, what: &str, pick: impl Fn(&Node) -> bool) -> TypeIdx {
    let graph = spec.registry().graph();
    let at = graph.nodes().iter().position(pick);
    TypeIdx(at.unwrap_or_else(|| panic!("spec {} has no {what}", spec.spec_version())) as u32)
}

#[test]
fn edge_values_read_back_exactly() {
    let polkadot = spec(META_1000001);
    let transfer = polkadot
        .typed_tables()
        .get(Kind::Event, "Balances", "Transfer")
        .expect("Balances.Transfer");
    assert_eq!(transfer.columns[2].name, "amount");
    let runtime = polkadot.registry().runtime().expect("runtime");
    let amount_ty = runtime
        .pallet("Balances")
        .unwrap()
        .events
        .iter()
        .find(|e| &*e.name == "Transfer")
        .unwrap()
        .args[2]
        .ty;
    let limit = 10u128.pow(38);
    let amounts = [0, 1, limit - 1, limit, u128::MAX].map(Value::UInt);
    assert_eq!(through_column(&polkadot, amount_ty, &amounts), amounts);

    // The decimal holds what fits; the text the rest, exactly.
    let shape = Shape::of(polkadot.registry().graph(), amount_ty);
    let mut b = Builder::new(&shape);
    for v in [limit - 1, u128::MAX] {
        let mut doc = Document::new();
        let bytes =
            ferroscale_dynamic::encode_value(&polkadot.context(), amount_ty, &Value::UInt(v))
                .unwrap();
        doc.decode_into(&polkadot.context(), amount_ty, &bytes)
            .unwrap();
        b.append(&shape, doc.root()).unwrap();
    }
    let arrays = b.finish().unwrap();
    let decimal = arrays[0].as_primitive::<Decimal128Type>();
    let text = arrays[1].as_string::<i32>();
    assert_eq!(decimal.value(0), (limit - 1) as i128);
    assert!(text.is_null(0));
    assert!(decimal.is_null(1));
    assert_eq!(text.value(1), "340282366920938463463374607431768211455");

    // i128: Karura's (its `Amount`, the loans' signed adjustments).
    let karura = spec("metadata/karura-v14-spec2032.scale");
    let i128_ty = find_node(&karura, "i128", |n| matches!(n, Node::Prim(Prim::I128)));
    let signed = [i128::MIN, -(limit as i128) + 1, -1, 0, i128::MAX].map(Value::Int);
    assert_eq!(through_column(&karura, i128_ty, &signed), signed);

    // An empty and a full Vec<u32> (FastUnstake.BatchChecked's eras).
    let eras_ty = runtime
        .pallet("FastUnstake")
        .unwrap()
        .events
        .iter()
        .find(|e| &*e.name == "BatchChecked")
        .unwrap()
        .args[0]
        .ty;
    let lists = [
        Value::List(vec![]),
        Value::List(vec![Value::UInt(0), Value::UInt(u32::MAX as u128)]),
    ];
    assert_eq!(through_column(&polkadot, eras_ty, &lists), lists);

    // Nested options (an option of an option, Kusama's parameters): None,
    // Some(None) — which the dynamic value renders as None too — and Some(Some(x)).
    let kusama = spec("metadata/kusama-v16-spec2003000.scale");
    let graph = kusama.registry().graph();
    let nested = find_node(&kusama, "Option<Option<_>>", |n| match n {
        // The inner type is an option itself, or a 1-tuple of one.
        Node::Option(inner) => matches!(Shape::of(graph, *inner), Shape::Option(_)),
        _ => false,
    });
    let Some(Node::Option(inner)) = graph.get(nested) else {
        unreachable!()
    };
    let some = example(graph, *inner, 1, 0).expect("an example of the inner option");
    assert_ne!(some, Value::Null);
    let values = [Value::Null, some];
    let got = through_column(&kusama, nested, &values);
    assert_eq!(got, values.map(|v| decoded(&kusama, nested, &v)));
    assert_eq!(got[0], Value::Null);
    assert_ne!(got[1], Value::Null);
}

/// `v` encoded as `ty` and decoded again: the dynamic layer's value of it
/// (accounts come back as SS58, bytes as text where they are UTF-8).
fn decoded(spec: &SpecDecoder, ty: TypeIdx, v: &Value) -> Value {
    let bytes = ferroscale_dynamic::encode_value(&spec.context(), ty, v).expect("encode");
    ferroscale_dynamic::decode_value(&spec.context(), ty, &bytes).expect("decode")
}

/// A valid example value of `ty` for seed 0 (zeros, empty lists, `None`,
/// the first variant), 1 (maximums and minimums, one item, `Some`, the
/// second variant) or 2 (small values, the last variant). `None` where the
/// type needs runtime context (calls, addresses …) or nests too deep.
fn example(
    graph: &ferroscale_dynamic::TypeGraph,
    ty: TypeIdx,
    seed: u64,
    depth: u32,
) -> Option<Value> {
    use ferroscale_dynamic::Fields;
    if depth > 10 {
        return None;
    }
    let d = depth + 1;
    let fields = |f: &Fields| -> Option<Option<Value>> {
        Some(match f {
            Fields::Unit => None,
            Fields::Unnamed(ts) if ts.len() == 1 => Some(example(graph, ts[0], seed, d)?),
            Fields::Unnamed(ts) => Some(Value::Tuple(
                ts.iter()
                    .map(|t| example(graph, *t, seed, d))
                    .collect::<Option<_>>()?,
            )),
            Fields::Named(fs) => Some(Value::Dict(
                fs.iter()
                    .map(|f| Some((f.name.clone(), example(graph, f.ty, seed, d)?)))
                    .collect::<Option<_>>()?,
            )),
        })
    };
    let unsigned = |p: Prim| -> Option<Value> {
        let max: u128 = match p {
            Prim::U8 => u8::MAX.into(),
            Prim::U16 => u16::MAX.into(),
            Prim::U32 => u32::MAX.into(),
            Prim::U64 => u64::MAX.into(),
            Prim::U128 => u128::MAX,
            _ => return None,
        };
        Some(Value::UInt([0, max, 7][seed as usize % 3]))
    };
    Some(match graph.get(ty)? {
        Node::Prim(p) => match p {
            Prim::Bool => Value::Bool(seed == 1),
            Prim::I8 => Value::Int([0, i8::MIN.into(), -7][seed as usize % 3]),
            Prim::I16 => Value::Int([0, i16::MIN.into(), -7][seed as usize % 3]),
            Prim::I32 => Value::Int([0, i32::MIN.into(), -7][seed as usize % 3]),
            Prim::I64 => Value::Int([0, i64::MIN.into(), -7][seed as usize % 3]),
            Prim::I128 => Value::Int([0, i128::MIN, -7][seed as usize % 3]),
            Prim::U256 => match seed % 3 {
                1 => Value::U256(Box::new([0xff; 32])),
                s => Value::UInt(s as u128 * 7),
            },
            Prim::I256 => match seed % 3 {
                1 => {
                    let mut min = [0u8; 32];
                    min[31] = 0x80;
                    Value::I256(Box::new(min))
                }
                s => Value::Int(-(s as i128) * 7),
            },
            Prim::Str => Value::str(["", "ferroscale", "é"][seed as usize % 3]),
            Prim::Char => return None,
            p => unsigned(*p)?,
        },
        Node::Compact(inner) => {
            let mut t = *inner;
            for _ in 0..4 {
                match graph.get(t)? {
                    Node::Tuple(ts) if ts.len() == 1 => t = ts[0],
                    Node::Struct(fs) if fs.len() == 1 => t = fs[0].ty,
                    _ => break,
                }
            }
            match graph.get(t)? {
                Node::Prim(p) => unsigned(*p)?,
                _ => return None,
            }
        }
        Node::Seq(t) => match seed % 3 {
            0 => Value::List(vec![]),
            _ => Value::List(vec![example(graph, *t, seed, d)?]),
        },
        Node::Bytes => match seed % 3 {
            0 => Value::str(""),
            1 => Value::hex(&[0xff, 0x00, 0xfe]),
            _ => Value::str("text"),
        },
        Node::ByteArray(n) => Value::hex(&vec![seed as u8 * 0x11; *n as usize]),
        Node::Array(t, n) if *n <= 64 => Value::List(
            (0..*n)
                .map(|_| example(graph, *t, seed, d))
                .collect::<Option<_>>()?,
        ),
        Node::Tuple(ts) => match ts.as_slice() {
            [] => Value::Null,
            [one] => example(graph, *one, seed, depth)?,
            _ => Value::Tuple(
                ts.iter()
                    .map(|t| example(graph, *t, seed, d))
                    .collect::<Option<_>>()?,
            ),
        },
        Node::Struct(fs) => Value::Dict(
            fs.iter()
                .map(|f| Some((f.name.clone(), example(graph, f.ty, seed, d)?)))
                .collect::<Option<_>>()?,
        ),
        Node::Enum(vs) if !vs.is_empty() => {
            let v = &vs[match seed % 3 {
                0 => 0,
                1 => 1.min(vs.len() - 1),
                _ => vs.len() - 1,
            }];
            match fields(&v.fields)? {
                None => Value::Str(v.name.clone()),
                Some(p) => Value::Dict(vec![(v.name.clone(), p)]),
            }
        }
        Node::Option(t) => match seed % 3 {
            0 => Value::Null,
            _ => example(graph, *t, seed, d)?,
        },
        Node::Result(ok, err) => match seed % 2 {
            0 => Value::Dict(vec![("Ok".into(), example(graph, *ok, seed, d)?)]),
            _ => Value::Dict(vec![("Err".into(), example(graph, *err, seed, d)?)]),
        },
        Node::Map(k, v) => match seed % 3 {
            0 => Value::List(vec![]),
            _ => Value::List(vec![Value::Tuple(vec![
                example(graph, *k, seed, d)?,
                example(graph, *v, seed, d)?,
            ])]),
        },
        Node::Null => Value::Null,
        Node::Special(Special::AccountId) => Value::hex(&[seed as u8 + 1; 32]),
        _ => return None,
    })
}

#[test]
fn schemas_are_reproducible() {
    for metadata in [META_9180, META_1000001] {
        let a = spec(metadata);
        let b = spec(metadata);
        let (ta, tb) = (a.typed_tables().tables(), b.typed_tables().tables());
        assert_eq!(ta.len(), tb.len());
        for (x, y) in ta.iter().zip(tb) {
            assert_eq!(
                format!("{:?}", x.schema()),
                format!("{:?}", y.schema()),
                "{}",
                x.name()
            );
            assert_eq!(x.schema().metadata(), y.schema().metadata());
        }
    }
}

/// Both fixture blocks (two runtimes) as a JSON-lines file.
fn write_source(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("blocks.jsonl");
    let text: String = [block_10000000(), block_18468942()]
        .iter()
        .map(|b| ferroscale_index::source::block_to_json_line(b) + "\n")
        .collect();
    std::fs::write(&path, text).expect("write source");
    path
}

/// Indexes both blocks with `--typed` into `out`, in one partition (two
/// runtimes in it) or one per block.
fn index_typed(
    source: &std::path::Path,
    out: &std::path::Path,
    one_partition: bool,
) -> ferroscale_index::Summary {
    let file = std::io::BufReader::new(std::fs::File::open(source).expect("source"));
    let mut options = ferroscale_index::Options::new(out);
    options.partition_blocks = if one_partition {
        100_000_000
    } else {
        1_000_000
    };
    options.gaps = ferroscale_index::Gaps::Allowed;
    options.typed = true;
    ferroscale_index::run(
        ferroscale_index::source::JsonLines::new(file),
        &mut decoders(),
        &options,
    )
    .expect("pipeline")
}

/// The `ARROW:schema` entry of a Parquet file: its Arrow schema, serialized.
fn arrow_schema_bytes(path: &std::path::Path) -> String {
    file_key(path, "ARROW:schema")
}

/// A key-value entry of a Parquet file's metadata.
fn file_key(path: &std::path::Path, key: &str) -> String {
    let file = std::fs::File::open(path).expect("file");
    let builder = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("parquet");
    builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|k| k.key == key))
        .and_then(|k| k.value.clone())
        .unwrap_or_else(|| panic!("{}: no {key}", path.display()))
}

fn typed_files(out: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for kind in ["events", "calls"] {
        let Ok(dirs) = std::fs::read_dir(out.join("typed").join(kind)) else {
            continue;
        };
        for d in dirs {
            for f in std::fs::read_dir(d.unwrap().path()).unwrap() {
                files.push(f.unwrap().path());
            }
        }
    }
    files.sort();
    files
}

#[test]
fn typed_partitions_are_written_listed_checked_and_read_back() {
    let dir = temp_dir("typed-write");
    let source = write_source(&dir);
    let out = dir.join("out");
    index_typed(&source, &out, false);
    let files = typed_files(&out);
    assert!(
        files.iter().any(|f| f
            .ends_with("typed/events/Balances.Transfer/blocks_18468942_18468942.parquet")
            || f.to_string_lossy().contains("typed/events/")),
        "{files:?}"
    );
    assert!(
        files
            .iter()
            .all(|f| f.extension().is_some_and(|e| e == "parquet")),
        "{files:?}"
    );

    // The manifest lists them; the check reads them against it.
    let report = ferroscale_index::check::check(&out, None, ferroscale_index::Gaps::Allowed);
    assert!(report.is_ok(), "{report}");
    assert_eq!(report.typed_files, files.len() as u64);
    assert_eq!(report.typed_rows, 64, "{report}");

    // Every row read back from Parquet equals the dynamic value.
    let specs = [spec(META_9180), spec(META_1000001)];
    let mut rows = 0;
    for f in &files {
        let folder = f.parent().unwrap();
        let kind = match folder
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
        {
            "events" => Kind::Event,
            _ => Kind::Call,
        };
        let name = folder.file_name().unwrap().to_str().unwrap();
        let (pallet, item) = name.split_once('.').unwrap();
        // A field retyped by another runtime of the run is in the column
        // the file's metadata names for it.
        let meta = std::collections::HashMap::from([(
            "ferroscale.typed".to_string(),
            file_key(f, "ferroscale.typed"),
        )]);
        let renamed = renamed_columns(&meta).expect("renamed_columns");
        for batch in read_parquet(f) {
            let versions = batch
                .column_by_name("spec_version")
                .unwrap()
                .as_primitive::<UInt32Type>()
                .clone();
            for row in 0..batch.num_rows() {
                let spec = specs
                    .iter()
                    .find(|s| s.spec_version() == versions.value(row))
                    .unwrap();
                let def = spec.typed_tables().get(kind, pallet, item).unwrap();
                let got = row_value_renamed(&renamed, &def, &batch, row).expect("read back");
                assert_ne!(got, Value::Str("".into()));
                rows += 1;
            }
        }
    }
    assert_eq!(rows, 64);

    // A rerun skips the partitions, typed files and all; a file removed by
    // hand is a problem the check names.
    let again = index_typed(&source, &out, false);
    assert_eq!(again.blocks, 0);
    assert_eq!(again.skipped_blocks, 2);
    std::fs::remove_file(&files[0]).unwrap();
    let report = ferroscale_index::check::check(&out, None, ferroscale_index::Gaps::Allowed);
    assert!(!report.is_ok());
    assert!(
        report.to_string().contains(&files[0].display().to_string()),
        "{report}"
    );
}

#[test]
fn one_partition_over_an_upgrade_has_one_union_schema_per_table_and_it_is_reproducible() {
    let dir = temp_dir("typed-union");
    let source = write_source(&dir);
    let (a, b) = (dir.join("a"), dir.join("b"));
    index_typed(&source, &a, true);
    index_typed(&source, &b, true);
    let (fa, fb) = (typed_files(&a), typed_files(&b));
    assert_eq!(fa.len(), fb.len());
    let mut both = 0;
    for (x, y) in fa.iter().zip(&fb) {
        assert_eq!(x.strip_prefix(&a).unwrap(), y.strip_prefix(&b).unwrap());
        // Byte-identical schemas, run to run.
        assert_eq!(
            arrow_schema_bytes(x),
            arrow_schema_bytes(y),
            "{}",
            x.display()
        );
        let batches = read_parquet(x);
        let versions: std::collections::BTreeSet<u32> = batches
            .iter()
            .flat_map(|b| {
                b.column_by_name("spec_version")
                    .unwrap()
                    .as_primitive::<UInt32Type>()
                    .values()
                    .to_vec()
            })
            .collect();
        if versions.len() == 2 {
            both += 1;
            let schema = batches[0].schema();
            let meta = file_key(x, "ferroscale.typed");
            assert!(meta.contains("\"spec_versions\":[9180,1000001]"), "{meta}");
            eprintln!(
                "{}: {} columns over specs 9180 and 1000001; {meta}",
                x.display(),
                schema.fields().len()
            );
        }
    }
    // Timestamp.set and ParaInherent.enter are in both blocks.
    assert!(both >= 2, "{both}");
}

/// The runtime's outer event enum (`RuntimeEvent`): the `event` field of
/// its `System.Events` records.
fn event_enum(spec: &SpecDecoder) -> Option<TypeIdx> {
    let graph = spec.registry().graph();
    let Some(Node::Seq(record)) = graph.get(spec.events_type()?) else {
        return None;
    };
    let Some(Node::Special(Special::EventRecord(st))) = graph.get(*record) else {
        return None;
    };
    let Some(Node::Struct(fields)) = graph.get(*st) else {
        return None;
    };
    let event = fields.iter().find(|f| &*f.name == "event")?;
    match graph.get(event.ty)? {
        Node::Special(Special::ScaleInfoEvent(e)) => Some(*e),
        _ => None,
    }
}

/// One typed row of `def` from `fields` (the decoded value where its
/// layout finds its fields), read back.
fn one_row(def: &TableDef, fields: Option<ferroscale_dynamic::ValueRef<'_, '_>>) -> Value {
    let mut builders: Vec<Builder> = def.columns.iter().map(|c| Builder::new(&c.shape)).collect();
    ferroscale_index::typed::rows::append_fields(def, &mut builders, fields)
        .expect("the value fits its columns");
    let mut schema = Vec::new();
    let mut arrays = Vec::new();
    for (c, b) in def.columns.iter().zip(builders) {
        arrays.extend(b.finish().expect("arrays"));
        schema.extend(fields_of(&c.name, &c.shape));
    }
    let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(1));
    let batch = RecordBatch::try_new_with_options(Arc::new(Schema::new(schema)), arrays, &options)
        .expect("batch");
    row_value(def, &batch, 0).expect("read back")
}

#[test]
fn example_values_of_every_event_and_call_of_every_runtime_read_back_exactly() {
    // Every V14–V16 runtime of the fixtures (but the synthetic custom-values
    // one), and the legacy ones (V9–V13) of chains with presets whose
    // metadata names its spec version (a `System.Version` constant).
    let kusama = ["core", "legacy", "kusama"];
    let runtimes: [(&str, &[&str]); 21] = [
        ("metadata/asset-hub-polkadot-v16-spec2003001.scale", &[]),
        ("metadata/bittensor-v14-spec329.scale", &[]),
        ("metadata/frontier-template-v15-small.scale", &[]),
        ("metadata/karura-v14-spec2032.scale", &[]),
        ("metadata/kusama-v14-spec9111.scale", &[]),
        ("metadata/kusama-v15-spec1001002.scale", &[]),
        ("metadata/kusama-v16-spec2003000.scale", &[]),
        ("metadata/polkadot-v14-spec1000001.scale", &[]),
        ("metadata/polkadot-v14-spec9110.scale", &[]),
        ("metadata/polkadot-v14-spec9180.scale", &[]),
        ("metadata/polkadot-v15-spec1001002.scale", &[]),
        ("metadata/polkadot-v16-spec2003000.scale", &[]),
        ("metadata/rococo-v15-spec1021002.scale", &[]),
        ("metadata/statemint-v16-spec2000003-small.scale", &[]),
        ("metadata/substrate-node-v14-spec267.scale", &[]),
        ("metadata/substrate-node-v15-spec268.scale", &[]),
        ("metadata/substrate-node-v16-spec268.scale", &[]),
        ("metadata/subtensor-v14-spec343.scale", &[]),
        ("metadata/subtensor-v15-spec343.scale", &[]),
        (META_30, &POLKADOT_PRESETS),
        ("metadata/kusama-v13-spec9030.scale", &kusama),
    ];
    let table: Vec<Vec<String>> = runtimes
        .iter()
        .map(|(metadata, presets)| examples_read_back(metadata, presets))
        .collect();
    let header = [
        "runtime",
        "typed tables",
        "with example values",
        "rows read back equal",
    ];
    print_table(&header, &table);
}

/// Example values of every event and call of the runtime of `metadata`
/// (its types through `presets` when it names any) encoded, decoded, put in
/// their typed table's columns and read back equal: the runtime's row of
/// the test's table.
fn examples_read_back(metadata: &str, presets: &[&str]) -> Vec<String> {
    let spec = spec_with(metadata, presets);
    let ctx = spec.context();
    let graph = spec.registry().graph();
    let runtime = spec.registry().runtime().expect("runtime");
    let legacy = !runtime.portable;
    let events = match legacy {
        true => find_node(&spec, "Event", |n| {
            matches!(n, Node::Special(Special::Event))
        }),
        false => event_enum(&spec).expect("RuntimeEvent"),
    };
    let call = find_node(&spec, "Call", |n| matches!(n, Node::Special(Special::Call)));
    let (mut tables, mut covered, mut rows) = (0usize, 0usize, 0usize);
    let mut doc = Document::new();
    for def in spec.typed_tables().tables() {
        tables += 1;
        let pallet = runtime.pallet(&def.pallet).expect("pallet");
        let items = match def.kind {
            Kind::Event => &pallet.events,
            Kind::Call => &pallet.calls,
        };
        let item = items.iter().find(|i| *i.name == def.item).expect("item");
        let mut any = false;
        for seed in 0..3 {
            let Some(args) = item
                .args
                .iter()
                .map(|a| example(graph, a.ty, seed, 0))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let (ty, value) = match def.kind {
                // a legacy event: its indexes by name, `[{value}]` attributes
                Kind::Event if legacy => (
                    events,
                    Value::Dict(vec![
                        ("module_id".into(), Value::str(def.pallet.as_str())),
                        ("event_id".into(), Value::str(def.item.as_str())),
                        (
                            "attributes".into(),
                            Value::List(
                                args.into_iter()
                                    .map(|v| Value::Dict(vec![("value".into(), v)]))
                                    .collect(),
                            ),
                        ),
                    ]),
                ),
                Kind::Event => {
                    let payload = match def.layout {
                        Layout::Empty => None,
                        Layout::Single => Some(args[0].clone()),
                        Layout::Tuple => Some(Value::Tuple(args.clone())),
                        _ => Some(Value::Dict(
                            item.args
                                .iter()
                                .zip(args)
                                .map(|(a, v)| (a.name.clone().expect("named"), v))
                                .collect(),
                        )),
                    };
                    let inner = match payload {
                        None => Value::str(def.item.as_str()),
                        Some(p) => Value::Dict(vec![(def.item.as_str().into(), p)]),
                    };
                    (
                        events,
                        Value::Dict(vec![(def.pallet.as_str().into(), inner)]),
                    )
                }
                Kind::Call => (
                    call,
                    Value::Dict(vec![
                        ("call_module".into(), Value::str(def.pallet.as_str())),
                        ("call_function".into(), Value::str(def.item.as_str())),
                        (
                            "call_args".into(),
                            Value::Dict(
                                item.args
                                    .iter()
                                    .zip(args)
                                    .map(|(a, v)| (a.name.clone().expect("named"), v))
                                    .collect(),
                            ),
                        ),
                    ]),
                ),
            };
            // Example values the encoder refuses (text where a type
            // wants more) leave the variant to the other seeds.
            let Ok(bytes) = ferroscale_dynamic::encode_value(&ctx, ty, &value) else {
                continue;
            };
            doc.decode_into(&ctx, ty, &bytes).expect("decodes");
            let root = doc.root();
            let fields = match def.kind {
                Kind::Event if legacy => root.get("attributes"),
                Kind::Event => root.get(&def.pallet).and_then(|p| p.get(&def.item)),
                Kind::Call => root.get("call_args"),
            };
            let got = one_row(def, fields);
            let want = match fields {
                Some(f) => expected(def, &f.to_value()),
                None => Value::Null,
            };
            assert_eq!(got, want, "{metadata}: {} seed {seed}", def.name());
            any = true;
            rows += 1;
        }
        covered += usize::from(any);
    }
    // Calls and events whose arguments need runtime context (nested
    // calls, addresses) have no example; every other one is covered.
    assert!(
        covered * 10 >= tables * 7,
        "{metadata}: {covered} of {tables}"
    );
    vec![
        metadata.to_string(),
        tables.to_string(),
        covered.to_string(),
        rows.to_string(),
    ]
}

/// The loopback node across its upgrade (spec 9180 up to block 110, spec
/// 1,000,001 after): one partition over blocks 101–114 holds one table per
/// call and event, the calls of both runtimes under one schema.
#[cfg(feature = "rpc")]
#[test]
fn the_loopback_chain_across_its_upgrade_gives_one_table_per_call() {
    use ferroscale_index::rpc_source::{RpcBlocks, RpcOptions};
    let dir = temp_dir("typed-rpc");
    let (out, metadata) = (dir.join("out"), dir.join("metadata"));
    let server = upgrade_node(|_, _| {})
        .lifetime(std::time::Duration::from_secs(60))
        .start()
        .expect("test node");
    let client = ferroscale_rpc::BlockingClient::connect(&server.ws_url()).expect("connect");
    let source = RpcBlocks::new(
        &client,
        RpcOptions {
            from: 101,
            to: 114,
            partition_blocks: 100,
            out: out.clone(),
            metadata_dir: metadata.clone(),
            range: ferroscale_rpc::RangeOptions::default(),
            unfinalized: false,
        },
    );
    let mut options = ferroscale_index::Options::new(&out);
    options.partition_blocks = 100;
    options.typed = true;
    let summary = ferroscale_index::run(
        source,
        &mut ferroscale_index::Decoders::with_metadata_dir(&metadata, None),
        &options,
    )
    .expect("run");
    assert_eq!(summary.blocks, 14);
    assert_eq!(summary.errors, 0);
    let report = ferroscale_index::check::check(&out, None, ferroscale_index::Gaps::Refused);
    assert!(report.is_ok(), "{report}");

    // Timestamp.set: a row per block, of both runtimes, in one file.
    let file = out.join("typed/calls/Timestamp.set/blocks_101_114.parquet");
    let batches = read_parquet(&file);
    let specs: Vec<u32> = batches
        .iter()
        .flat_map(|b| {
            b.column_by_name("spec_version")
                .unwrap()
                .as_primitive::<UInt32Type>()
                .values()
                .to_vec()
        })
        .collect();
    // Blocks 101–110 ran on 9180, 111–114 on 1,000,001.
    assert_eq!(specs, [vec![9180; 10], vec![1_000_001; 4]].concat());
    assert!(file_key(&file, "ferroscale.typed").contains("\"spec_versions\":[9180,1000001]"));
    // Events only from the blocks that have them (111–114, spec 1,000,001;
    // two transfers each).
    let transfers =
        read_parquet(&out.join("typed/events/Balances.Transfer/blocks_101_114.parquet"));
    assert_eq!(
        transfers.iter().map(RecordBatch::num_rows).sum::<usize>(),
        8
    );
}
