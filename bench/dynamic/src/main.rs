//! `cargo xtask bench-dynamic`: the dynamic decoder side by side with
//! scale-value on the same bytes and the same registry, in one run. Ours
//! decodes into the owned `Value` tree and into a flat `Document`; the
//! ratios against scale-value are printed for both.
//!
//! Workloads: `delegates_info` (Bittensor, 946 KB, `Vec<DelegateInfo>`), a
//! 100-record `Vec<EventRecord>` encoded from example values of the Polkadot
//! spec 9180 event types, and building the type graph from 322 KB of V14
//! metadata.

use std::time::{Duration, Instant};

use ferroscale_metadata::Metadata;
use ferroscale_value::Value;
use ferroscale_dynamic::encode_value;
use ferroscale_dynamic::portable::{import_metadata, import_metadata_bytes, import_registry};
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{
    decode_value, Context, Document, Fields, Node, Prim, Special, TypeGraph, TypeIdx,
};

/// Runs `f` `iters` times (after one warm-up); returns (min, median).
fn time<T>(iters: usize, mut f: impl FnMut() -> T) -> (Duration, Duration) {
    std::hint::black_box(f());
    let mut samples: Vec<Duration> = (0..iters)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .collect();
    samples.sort();
    (samples[0], samples[samples.len() / 2])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

const DELEGATES: &str = "delegates_info (Vec<DelegateInfo>)";
const EVENTS: &str = "Vec<EventRecord>, 100 records";
const METADATA: &str = "polkadot-v14-spec9180 metadata (322 KB)";

/// Times `f` (see [`time`]) and adds its row.
fn measure<T>(
    rows: &mut Vec<Row>,
    workload: &'static str,
    engine: &'static str,
    bytes: usize,
    iters: usize,
    f: impl FnMut() -> T,
) {
    let (min, median) = time(iters, f);
    rows.push(Row {
        workload,
        engine,
        bytes,
        min,
        median,
    });
}

struct Row {
    workload: &'static str,
    engine: &'static str,
    bytes: usize,
    min: Duration,
    median: Duration,
}

fn main() {
    let iters: usize = std::env::args()
        .skip_while(|a| a != "--iterations")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(30);
    // `--only delegates|events|metadata` runs one workload (for profiling).
    let only = std::env::args().skip_while(|a| a != "--only").nth(1);
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut rows = Vec::new();

    // delegates_info: Vec<DelegateInfo> against the subtensor registry.
    if wanted("delegates") {
        let json = ferroscale_test_support::read_string("payloads/subtensor/test_types.json");
        let reg: scale_info::PortableRegistry = serde_json::from_str(&json).expect("registry json");
        let mut graph = TypeGraph::new();
        let types = import_registry(&mut graph, &reg, "scale_info").expect("import");
        let di = *types
            .by_path
            .iter()
            .find(|(p, _)| p.ends_with("::delegateinfo"))
            .expect("DelegateInfo")
            .1;
        let vec_di = graph.add(Node::Seq(di), None);
        // scale-value needs a registry id for Vec<DelegateInfo>: find one.
        let di_id = di.0 - types.base;
        let vec_id = reg
            .types
            .iter()
            .find(|t| matches!(&t.ty.type_def, scale_info::TypeDef::Sequence(s) if s.type_param.id == di_id))
            .map(|t| t.id)
            .expect("Vec<DelegateInfo> in registry");
        let bytes = ferroscale_test_support::read_hex("payloads/subtensor/delegates_info.hex");
        let plain = Context::new(&graph);
        let ss58 = Context::new(&graph).with_ss58(Some(42));
        assert_eq!(
            decode_value(&plain, vec_di, &bytes)
                .unwrap()
                .as_items()
                .unwrap()
                .len(),
            360
        );
        let mut input = &bytes[..];
        scale_value::scale::decode_as_type(&mut input, vec_id, &reg).expect("scale-value decodes");
        assert!(input.is_empty());
        measure(
            &mut rows,
            DELEGATES,
            "ferroscale-dynamic → Value",
            bytes.len(),
            iters,
            || decode_value(&plain, vec_di, &bytes).unwrap(),
        );
        assert_eq!(
            Document::decode(&plain, vec_di, &bytes).unwrap().to_value(),
            decode_value(&plain, vec_di, &bytes).unwrap()
        );
        measure(
            &mut rows,
            DELEGATES,
            "ferroscale-dynamic → Document",
            bytes.len(),
            iters,
            || Document::decode(&plain, vec_di, &bytes).unwrap(),
        );
        measure(
            &mut rows,
            DELEGATES,
            "ferroscale-dynamic → Value, SS58 accounts",
            bytes.len(),
            iters,
            || decode_value(&ss58, vec_di, &bytes).unwrap(),
        );
        measure(
            &mut rows,
            DELEGATES,
            "ferroscale-dynamic → Document, SS58 accounts",
            bytes.len(),
            iters,
            || Document::decode(&ss58, vec_di, &bytes).unwrap(),
        );
        measure(
            &mut rows,
            DELEGATES,
            "scale-value 0.18",
            bytes.len(),
            iters.min(10),
            || {
                let mut input = &bytes[..];
                scale_value::scale::decode_as_type(&mut input, vec_id, &reg).unwrap()
            },
        );
    }

    // 100 event records, Polkadot spec 9180.
    let md_bytes = ferroscale_test_support::read("metadata/polkadot-v14-spec9180.scale");
    if wanted("events") {
        let md = Metadata::from_bytes(&md_bytes).unwrap();
        let types = md.types.as_ref().expect("V14 registry");
        let mut graph = TypeGraph::new();
        let imported = import_metadata_bytes(&mut graph, &md_bytes).unwrap();
        let events_id = md
            .storage_entry("System", "Events")
            .and_then(|(_, e)| e.value.id())
            .expect("System.Events");
        let events_ty = imported.types.idx(events_id).unwrap();
        let ctx = Context::new(&graph).with_runtime(&imported.runtime);
        let mut records = Vec::new();
        let mut seed = 1u64;
        'outer: loop {
            for p in &imported.runtime.pallets {
                for e in &p.events {
                    seed += 1;
                    if records.len() == 100 {
                        break 'outer;
                    }
                    if let Some(r) = record(&graph, p.name.clone(), e, seed) {
                        // Keep only records that encode.
                        if encode_value(&ctx, events_ty, &Value::List(vec![r.clone()])).is_ok() {
                            records.push(r);
                        }
                    }
                }
            }
        }
        let bytes = encode_value(&ctx, events_ty, &Value::List(records)).unwrap();
        assert_eq!(
            decode_value(&ctx, events_ty, &bytes)
                .unwrap()
                .as_items()
                .unwrap()
                .len(),
            100
        );
        let mut input = &bytes[..];
        scale_value::scale::decode_as_type(&mut input, events_id, types)
            .expect("scale-value decodes");
        assert!(input.is_empty());
        measure(
            &mut rows,
            EVENTS,
            "ferroscale-dynamic → Value",
            bytes.len(),
            iters * 20,
            || decode_value(&ctx, events_ty, &bytes).unwrap(),
        );
        assert_eq!(
            Document::decode(&ctx, events_ty, &bytes)
                .unwrap()
                .to_value(),
            decode_value(&ctx, events_ty, &bytes).unwrap()
        );
        measure(
            &mut rows,
            EVENTS,
            "ferroscale-dynamic → Document",
            bytes.len(),
            iters * 20,
            || Document::decode(&ctx, events_ty, &bytes).unwrap(),
        );
        measure(
            &mut rows,
            EVENTS,
            "scale-value 0.18",
            bytes.len(),
            iters * 20,
            || {
                let mut input = &bytes[..];
                scale_value::scale::decode_as_type(&mut input, events_id, types).unwrap()
            },
        );
    }

    // Registry build from 322 KB of V14 metadata.
    if wanted("metadata") {
        measure(
            &mut rows,
            METADATA,
            "frame-metadata decode (what scale-value needs)",
            md_bytes.len(),
            iters,
            || {
                // scale-value's own input: frame-metadata's decoding, with
                // the nesting limit a decoder of untrusted blobs needs.
                use parity_scale_codec::DecodeLimit;
                frame_metadata::RuntimeMetadataPrefixed::decode_all_with_depth_limit(
                    256,
                    &mut &md_bytes[..],
                )
                .unwrap()
            },
        );
        measure(
            &mut rows,
            METADATA,
            "ferroscale-core metadata model from bytes",
            md_bytes.len(),
            iters,
            || Metadata::from_bytes(&md_bytes).unwrap(),
        );
        let md = Metadata::from_bytes(&md_bytes).unwrap();
        measure(
            &mut rows,
            METADATA,
            "ferroscale graph + runtime from the core model",
            md_bytes.len(),
            iters,
            || {
                let mut g = TypeGraph::new();
                import_metadata(&mut g, &md).unwrap()
            },
        );
        measure(
            &mut rows,
            METADATA,
            "ferroscale total: bytes → graph + runtime",
            md_bytes.len(),
            iters,
            || {
                let mut g = TypeGraph::new();
                import_metadata_bytes(&mut g, &md_bytes).unwrap()
            },
        );
        measure(
            &mut rows,
            METADATA,
            "ferroscale Registry::load_metadata (bytes → registry)",
            md_bytes.len(),
            iters,
            || {
                let mut r = Registry::new();
                r.load_metadata(&md_bytes).unwrap();
                r
            },
        );
    }

    println!("| workload | engine | KB | min ms | median ms | MB/s (median) |");
    println!("|---|---|---|---|---|---|");
    for r in &rows {
        println!(
            "| {} | {} | {:.1} | {:.4} | {:.4} | {:.0} |",
            r.workload,
            r.engine,
            r.bytes as f64 / 1000.0,
            ms(r.min),
            ms(r.median),
            r.bytes as f64 / r.median.as_secs_f64() / 1e6
        );
    }
    let ratio = |w: &str, a: &str, b: &str| {
        let f = |e: &str| rows.iter().find(|r| r.workload == w && r.engine == e);
        if let (Some(x), Some(y)) = (f(a), f(b)) {
            println!(
                "{w}: scale-value / {a} = {:.1}× (minimums), {:.1}× (medians)",
                y.min.as_secs_f64() / x.min.as_secs_f64(),
                y.median.as_secs_f64() / x.median.as_secs_f64()
            );
        }
    };
    for workload in [DELEGATES, EVENTS] {
        for ours in [
            "ferroscale-dynamic → Value",
            "ferroscale-dynamic → Document",
        ] {
            ratio(workload, ours, "scale-value 0.18");
        }
    }
}

/// An event record value for `event` of `pallet` with example attributes.
fn record(
    graph: &TypeGraph,
    pallet: ferroscale_dynamic::Name,
    event: &ferroscale_dynamic::runtime::Item,
    seed: u64,
) -> Option<Value> {
    let named = !event.args.is_empty() && event.args.iter().all(|a| a.name.is_some());
    let vals: Vec<Value> = event
        .args
        .iter()
        .map(|a| example(graph, a.ty, seed, 0))
        .collect::<Option<_>>()?;
    let attrs = match (named, vals.len()) {
        (_, 0) => Value::Null,
        (true, _) => Value::Dict(
            event
                .args
                .iter()
                .zip(vals)
                .map(|(a, v)| (a.name.clone().unwrap(), v))
                .collect(),
        ),
        (false, 1) => vals.into_iter().next().unwrap(),
        (false, _) => Value::Tuple(vals),
    };
    Some(Value::Dict(vec![
        ("phase".into(), Value::str("ApplyExtrinsic")),
        ("extrinsic_idx".into(), Value::UInt(seed as u128 % 50)),
        (
            "event".into(),
            Value::Dict(vec![
                ("module_id".into(), Value::Str(pallet)),
                ("event_id".into(), Value::Str(event.name.clone())),
                ("attributes".into(), attrs),
            ]),
        ),
        ("topics".into(), Value::List(vec![])),
    ]))
}

/// A valid example value of `ty` (see `dynamic/tests/common`).
fn example(graph: &TypeGraph, ty: TypeIdx, seed: u64, depth: u32) -> Option<Value> {
    if depth > 12 {
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
    Some(match graph.node(ty) {
        Node::Prim(p) => match p {
            Prim::Bool => Value::Bool(seed % 2 == 1),
            Prim::I8 | Prim::I16 | Prim::I32 | Prim::I64 | Prim::I128 | Prim::I256 => {
                Value::Int(-((seed % 100) as i128))
            }
            Prim::Char => Value::str("x"),
            Prim::Str => Value::str(format!("text {seed}")),
            Prim::U8 => Value::UInt((seed % 256) as u128),
            Prim::U16 => Value::UInt((seed * 7 % 65536) as u128),
            _ => Value::UInt(seed as u128 * 1000 + 7),
        },
        Node::Null => Value::Null,
        Node::Compact(_) => Value::UInt(seed as u128 * 100_000 + 3),
        Node::Bytes => Value::str(format!("bytes {seed}")),
        Node::ByteArray(n) => Value::hex(&vec![(seed % 200) as u8 + 1; *n as usize]),
        Node::Array(t, n) => Value::List(
            (0..*n)
                .map(|i| example(graph, *t, seed + i as u64, d))
                .collect::<Option<_>>()?,
        ),
        Node::Seq(t) => Value::List(vec![example(graph, *t, seed, d)?]),
        Node::Tuple(ts) if ts.len() == 1 => example(graph, ts[0], seed, d)?,
        Node::Tuple(ts) => Value::Tuple(
            ts.iter()
                .map(|t| example(graph, *t, seed, d))
                .collect::<Option<_>>()?,
        ),
        Node::Struct(fs) => Value::Dict(
            fs.iter()
                .map(|f| Some((f.name.clone(), example(graph, f.ty, seed, d)?)))
                .collect::<Option<_>>()?,
        ),
        Node::Enum(vs) if !vs.is_empty() => (0..vs.len()).find_map(|k| {
            let v = &vs[(seed as usize + k) % vs.len()];
            Some(Value::variant(v.name.clone(), fields(&v.fields)?))
        })?,
        Node::Option(t) => {
            if seed.is_multiple_of(3) {
                Value::Null
            } else {
                example(graph, *t, seed, d)?
            }
        }
        Node::Special(Special::AccountId) => Value::hex(&[(seed % 250) as u8 + 1; 32]),
        Node::Special(Special::MultiAddress(_)) => Value::hex(&[(seed % 250) as u8 + 1; 32]),
        _ => return None,
    })
}
