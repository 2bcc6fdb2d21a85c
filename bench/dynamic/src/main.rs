//! `cargo xtask bench-dynamic`: the dynamic decoder side by side with
//! scale-value on the same bytes and the same registry, in one run. Ours
//! decodes into the owned `Value` tree and into a flat `Document`; the
//! ratios against scale-value are printed for both.
//!
//! Workloads: `delegates_info` (Bittensor, 946 KB, `Vec<DelegateInfo>`), a
//! 100-record `Vec<EventRecord>` encoded from example values of the Polkadot
//! spec 9180 event types, and building the type graph from 322 KB of V14
//! metadata; without a scale-value column: every call of Polkadot 2003000
//! as a format-4 signed extrinsic and as a format-5 general transaction
//! (cost per byte), and runtime API results decoded by name and by type id.

#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use ferroscale_dynamic::encode_value;
use ferroscale_dynamic::portable::{import_metadata, import_metadata_bytes, import_registry};
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{
    decode_value, Context, Document, Fields, Node, Prim, Special, TypeGraph, TypeIdx,
};
use ferroscale_metadata::Metadata;
use ferroscale_value::Value;

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
    // `--only delegates|events|metadata|extrinsics|runtime-api` runs one workload (for profiling).
    let only = std::env::args().skip_while(|a| a != "--only").nth(1);
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut rows = Vec::new();

    // delegates_info: Vec<DelegateInfo> against the subtensor registry.
    if wanted("delegates") {
        let json = ferroscale_fixtures::read_string("payloads/subtensor/test_types.json");
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
        let bytes = ferroscale_fixtures::read_hex("payloads/subtensor/delegates_info.hex");
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
    let md_bytes = ferroscale_fixtures::read("metadata/polkadot-v14-spec9180.scale");
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

    let extrinsic_count = wanted("extrinsics").then(|| extrinsic_formats(&mut rows, iters));
    if wanted("runtime-api") {
        runtime_api_results(&mut rows, iters);
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
    let per = |w: &str, a: &str, b: &str, what: &str| {
        let f = |e: &str| rows.iter().find(|r| r.workload == w && r.engine == e);
        if let (Some(x), Some(y)) = (f(a), f(b)) {
            let per_byte = |r: &Row, d: Duration| d.as_secs_f64() / r.bytes as f64;
            println!(
                "{w}: {what} = {:.2}× (minimums), {:.2}× (medians)",
                per_byte(x, x.min) / per_byte(y, y.min),
                per_byte(x, x.median) / per_byte(y, y.median)
            );
        }
    };
    per(
        EXTRINSICS,
        V5_GENERAL,
        V4_SIGNED,
        "time per byte, format 5 general / format 4 signed",
    );
    per(
        EXTRINSICS,
        V5_BARE,
        V4_UNSIGNED,
        "time per byte, format 5 bare / format 4 unsigned",
    );
    if let Some(n) = extrinsic_count {
        let f = |e: &str| {
            rows.iter()
                .find(|r| r.workload == EXTRINSICS && r.engine == e)
        };
        if let (Some(x), Some(y)) = (f(V5_GENERAL), f(V4_SIGNED)) {
            println!(
                "{EXTRINSICS}: time per extrinsic, format 5 general {:.2} µs / format 4 signed {:.2} µs (medians, {n} calls)",
                x.median.as_secs_f64() * 1e6 / n as f64,
                y.median.as_secs_f64() * 1e6 / n as f64
            );
        }
    }
    per(
        RUNTIME_API,
        BY_NAME,
        BY_TYPE_ID,
        "time, by name (looked up each time) / by type id",
    );
    per(
        RUNTIME_API_METADATA,
        BY_NAME,
        BY_TYPE_ID,
        "time, by name (looked up each time) / by type id",
    );
    for workload in [DELEGATES, EVENTS] {
        for ours in [
            "ferroscale-dynamic → Value",
            "ferroscale-dynamic → Document",
        ] {
            ratio(workload, ours, "scale-value 0.18");
        }
    }
}

const EXTRINSICS: &str = "every call of Polkadot 2003000 as one extrinsic";
const V4_SIGNED: &str = "ferroscale-dynamic → Value, format 4 signed";
const V5_GENERAL: &str = "ferroscale-dynamic → Value, format 5 general";
const V4_UNSIGNED: &str = "ferroscale-dynamic → Value, format 4 unsigned";
const V5_BARE: &str = "ferroscale-dynamic → Value, format 5 bare";
const RUNTIME_API: &str = "every runtime API result of Polkadot 2003000";
const RUNTIME_API_METADATA: &str = "Metadata_metadata_at_version(16) answer, Polkadot 2003000";
const BY_NAME: &str = "Registry::runtime_api + decode_runtime_api_result (by name)";
const BY_TYPE_ID: &str = "decode_value of the output type (by type id)";

/// The same calls as format-4 signed extrinsics and as format-5 general
/// transactions (extension version 0, the same extensions), every call of
/// Polkadot 2003000 the example generator can fill: decoding cost per byte.
/// Returns the number of calls built.
fn extrinsic_formats(rows: &mut Vec<Row>, iters: usize) -> usize {
    let bytes = ferroscale_fixtures::read("metadata/polkadot-v16-spec2003000.scale");
    let mut graph = TypeGraph::new();
    let imported = import_metadata_bytes(&mut graph, &bytes).unwrap();
    let xt = graph.add(Node::Special(Special::Extrinsic), None);
    let ctx = Context::new(&graph)
        .with_runtime(&imported.runtime)
        .with_ss58(Some(0));
    let x = &imported.runtime.extrinsic;
    let (mut v4, mut v5) = (Vec::new(), Vec::new());
    let (mut v4_unsigned, mut v5_bare) = (Vec::new(), Vec::new());
    let mut seed = 1;
    for p in &imported.runtime.pallets {
        for c in &p.calls {
            seed += 1;
            let built = (|| {
                let args = c
                    .args
                    .iter()
                    .map(|a| Some((a.name.clone()?, example(&graph, a.ty, seed, 0)?)))
                    .collect::<Option<Vec<_>>>()?;
                let call = Value::Dict(vec![
                    ("call_module".into(), Value::Str(p.name.clone())),
                    ("call_function".into(), Value::Str(c.name.clone())),
                    ("call_args".into(), Value::Dict(args)),
                ]);
                let extensions = x
                    .general_extensions
                    .get(&0)?
                    .iter()
                    .map(|e| Some((e.key.clone(), example_or_zeros(&graph, &ctx, e.ty, seed)?)))
                    .collect::<Option<Vec<_>>>()?;
                let mut signed = vec![
                    ("address".into(), Value::hex(&[7u8; 32])),
                    (
                        "signature".into(),
                        example_or_zeros(&graph, &ctx, x.signature?, seed)?,
                    ),
                ];
                signed.extend(extensions.iter().cloned());
                signed.push(("call".into(), call.clone()));
                let unsigned = Value::Dict(vec![("call".into(), call.clone())]);
                let bare = Value::Dict(vec![
                    ("version".into(), Value::UInt(5)),
                    ("call".into(), call.clone()),
                ]);
                let mut general = vec![
                    ("version".into(), Value::UInt(5)),
                    ("extension_version".into(), Value::UInt(0)),
                ];
                general.extend(extensions);
                general.push(("call".into(), call));
                Some([
                    encode_value(&ctx, xt, &Value::Dict(signed)).ok()?,
                    encode_value(&ctx, xt, &Value::Dict(general)).ok()?,
                    encode_value(&ctx, xt, &unsigned).ok()?,
                    encode_value(&ctx, xt, &bare).ok()?,
                ])
            })();
            if let Some([a, b, c, d]) = built {
                v4.push(a);
                v5.push(b);
                v4_unsigned.push(c);
                v5_bare.push(d);
            }
        }
    }
    assert!(v4.len() > 300, "only {} calls built", v4.len());
    for (engine, list) in [
        (V4_SIGNED, &v4),
        (V5_GENERAL, &v5),
        (V4_UNSIGNED, &v4_unsigned),
        (V5_BARE, &v5_bare),
    ] {
        let total = list.iter().map(Vec::len).sum();
        measure(rows, EXTRINSICS, engine, total, iters * 5, || {
            list.iter()
                .map(|b| decode_value(&ctx, xt, b).unwrap())
                .count()
        });
    }
    v4.len()
}

/// An example value of `ty`, else what the type decodes from zeros (an
/// immortal era, a zero nonce, the first variant …).
fn example_or_zeros(graph: &TypeGraph, ctx: &Context<'_>, ty: TypeIdx, seed: u64) -> Option<Value> {
    example(graph, ty, seed, 0).or_else(|| {
        ferroscale_dynamic::decode_prefix(ctx, ty, &[0u8; 256], &mut ferroscale_dynamic::ValueSink)
            .ok()
            .map(|(v, _)| v)
    })
}

/// Every runtime API method's result (an example value of its output type,
/// encoded) decoded by name through the registry, and by the output's type
/// id; and the one large real answer, the fixture's own metadata.
fn runtime_api_results(rows: &mut Vec<Row>, iters: usize) {
    let bytes = ferroscale_fixtures::read("metadata/polkadot-v16-spec2003000.scale");
    let mut registry = Registry::new();
    registry.load_metadata(&bytes).unwrap();
    let md = Metadata::from_bytes(&bytes).unwrap();
    let mut answers = Vec::new();
    for api in &md.apis {
        for m in &api.methods {
            let call = registry.runtime_api(&api.name, &m.name).unwrap();
            let output = call.signature.output;
            let answer = (1..20).find_map(|seed| {
                let v = example(registry.graph(), output, seed, 0)?;
                encode_value(&registry.context(), output, &v).ok()
            });
            if let Some(answer) = answer {
                answers.push((api.name.clone(), m.name.clone(), output, answer));
            }
        }
    }
    assert!(answers.len() > 80, "only {} results built", answers.len());
    let total = answers.iter().map(|a| a.3.len()).sum();
    measure(rows, RUNTIME_API, BY_NAME, total, iters * 20, || {
        for (api, method, _, answer) in &answers {
            let call = registry.runtime_api(api, method).unwrap();
            registry.decode_runtime_api_result(&call, answer).unwrap();
        }
    });
    let ctx = registry.context();
    measure(rows, RUNTIME_API, BY_TYPE_ID, total, iters * 20, || {
        for (_, _, output, answer) in &answers {
            decode_value(&ctx, *output, answer).unwrap();
        }
    });
    // `Option<OpaqueMetadata>` holding the fixture itself.
    let mut answer = vec![1u8];
    answer.extend(parity_scale_codec::Encode::encode(&bytes));
    let call = registry
        .runtime_api("Metadata", "metadata_at_version")
        .unwrap();
    let output = call.signature.output;
    measure(
        rows,
        RUNTIME_API_METADATA,
        BY_NAME,
        answer.len(),
        iters,
        || {
            let call = registry
                .runtime_api("Metadata", "metadata_at_version")
                .unwrap();
            registry.decode_runtime_api_result(&call, &answer).unwrap()
        },
    );
    let ctx = registry.context();
    measure(
        rows,
        RUNTIME_API_METADATA,
        BY_TYPE_ID,
        answer.len(),
        iters,
        || decode_value(&ctx, output, &answer).unwrap(),
    );
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
