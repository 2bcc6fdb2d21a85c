//! Differential test against py-scale-codec 1.2.12 (the reference venv named
//! by `FERROSCALE_REF_PYTHON`): every constant and storage default of every
//! V14 fixture, every extrinsic of Polkadot block 10,000,000, extrinsics and
//! event records built from spec 9180 types, and every Bittensor runtime-API
//! payload of `payloads/subtensor/`, decoded by both, values compared (tuples
//! as lists, integers exactly).
//!
//! Deliberate differences (see `NESTED_CALL_HASH`) are recognised, counted
//! and printed with their reason; anything else fails the test.

mod common;

use ferroscale_dynamic::{decode_value, Context, Node};
use ferroscale_value::Value;
use serde_json::{json, Value as Json};

/// One Python process decodes every case; ints are tagged strings so that
/// big integers survive JSON.
const SCRIPT: &str = r##"
import json, sys
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

def canon(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, int):
        return "#int:%d" % v
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return [canon(x) for x in v]
    if isinstance(v, dict):
        return {str(k): canon(x) for k, x in v.items()}
    if isinstance(v, (bytes, bytearray)):
        return "#bytes:" + bytes(v).hex()
    return "#other:" + repr(v)

req = json.load(sys.stdin)
out = []
for group in req:
    rc = RuntimeConfigurationObject(ss58_format=group["ss58"])
    rc.update_type_registry(load_type_registry_preset("core"))
    md = None
    if "registry" in group:
        reg = rc.create_scale_object("PortableRegistry", data=ScaleBytes(bytes.fromhex(group["registry"])))
        reg.decode()
        rc.update_from_scale_info_types(reg.value_object["types"].value_object, prefix="scale_info")
    if "types" in group:
        rc.update_type_registry_types(group["types"])
    else:
        md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(bytes.fromhex(group["metadata"])))
        md.decode()
        rc.add_portable_registry(md)
    res = []
    for ty, data in group["cases"]:
        try:
            obj = rc.create_scale_object(ty, data=ScaleBytes(bytes.fromhex(data)), metadata=md)
            res.append({"ok": canon(obj.decode())})
        except Exception as e:
            res.append({"err": "%s: %s" % (type(e).__name__, e)})
    out.append(res)
json.dump(out, sys.stdout)
"##;

/// Deliberate difference: py-scale-codec hashes a call as the bytes from
/// the call's start to the end of the whole input (`get_used_bytes` runs
/// before the end offset is known), so a call nested in another call's
/// arguments gets the hash of itself plus every byte after it. We hash the
/// call's own encoding, as the chain does (multisig and proxy announcements
/// refer to calls by that hash). Top-level calls agree.
const NESTED_CALL_HASH: &str =
    "call_hash of a call nested in call_args: ours hashes the call's own bytes, \
     py-scale-codec hashes from the call to the end of the input";

/// `v` without the `call_hash` of calls nested inside `call_args`.
fn strip_nested_call_hashes(v: &Json, inside_args: bool) -> Json {
    match v {
        Json::Object(m) => Json::Object(
            m.iter()
                .filter(|(k, _)| !(inside_args && k.as_str() == "call_hash"))
                .map(|(k, x)| {
                    (
                        k.clone(),
                        strip_nested_call_hashes(x, inside_args || k == "call_args"),
                    )
                })
                .collect(),
        ),
        Json::Array(items) => Json::Array(
            items
                .iter()
                .map(|x| strip_nested_call_hashes(x, inside_args))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn to_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::UInt(n) => Json::String(format!("#int:{n}")),
        Value::Int(n) => Json::String(format!("#int:{n}")),
        Value::U256(_) | Value::I256(_) => Json::String(format!("#int:{v}")),
        Value::Str(s) => Json::String(s.to_string()),
        Value::List(items) | Value::Tuple(items) => {
            Json::Array(items.iter().map(to_json).collect())
        }
        Value::Dict(entries) => Json::Object(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), to_json(v)))
                .collect(),
        ),
    }
}

struct Case {
    label: String,
    ours: Result<Value, String>,
}

#[test]
fn values_agree_with_py_scale_codec() {
    let mut request = Vec::new();
    let mut groups: Vec<Vec<Case>> = Vec::new();

    // Constants and storage defaults of every V14 fixture (py-scale-codec 1.2.12 reads V14 only).
    for name in common::portable_fixtures()
        .iter()
        .filter(|n| n.contains("-v14"))
    {
        let l = common::load(name);
        let ctx = Context::new(&l.graph).with_runtime(&l.imported.runtime);
        let mut cases = Vec::new();
        let mut py_cases = Vec::new();
        for item in &l.items {
            let ty_string = match l.graph.node(item.ty) {
                Node::Option(inner) => {
                    format!("Option<scale_info::{}>", inner.0 - l.imported.types.base)
                }
                _ => format!("scale_info::{}", item.ty.0 - l.imported.types.base),
            };
            py_cases.push(json!([ty_string, hex(&item.bytes)]));
            cases.push(Case {
                label: format!("{name} {}", item.what),
                ours: decode_value(&ctx, item.ty, &item.bytes).map_err(|e| e.to_string()),
            });
        }
        request.push(json!({"metadata": hex(&ferroscale_fixtures::read(name)), "ss58": Json::Null, "cases": py_cases}));
        groups.push(cases);
    }

    // Every extrinsic of Polkadot block 10,000,000, with SS58 format 0.
    {
        let name = "metadata/polkadot-v14-spec9180.scale";
        let mut l = common::load(name);
        let xt = l.extrinsic_node();
        let ctx = Context::new(&l.graph)
            .with_runtime(&l.imported.runtime)
            .with_ss58(Some(0));
        let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
            "payloads/polkadot-block-10000000/extrinsics.json",
        ))
        .unwrap();
        let mut cases = Vec::new();
        let mut py_cases = Vec::new();
        for (i, h) in list.iter().enumerate() {
            let bytes = ferroscale_fixtures::decode_hex(h).unwrap();
            py_cases.push(json!(["Extrinsic", hex(&bytes)]));
            cases.push(Case {
                label: format!("block 10000000 extrinsic {i}"),
                ours: decode_value(&ctx, xt, &bytes).map_err(|e| e.to_string()),
            });
        }
        request.push(json!({"metadata": hex(&ferroscale_fixtures::read(name)), "ss58": 0, "cases": py_cases}));
        groups.push(cases);
    }

    // Built from the spec 9180 metadata: a signed extrinsic for every call and
    // an event record for every event whose argument types the example
    // generator can fill (encoded by us, then decoded by both).
    {
        let name = "metadata/polkadot-v14-spec9180.scale";
        let mut l = common::load(name);
        let xt = l.extrinsic_node();
        let events_ty = l.storage_type("System.Events");
        let events_id = events_ty.0 - l.imported.types.base;
        let ctx = Context::new(&l.graph)
            .with_runtime(&l.imported.runtime)
            .with_ss58(Some(0));
        let (calls, events) = built_inputs(&l, &ctx, xt, events_ty);
        println!(
            "built {} signed extrinsics and {} event records",
            calls.len(),
            events.len()
        );
        let mut cases = Vec::new();
        let mut py_cases = Vec::new();
        for (label, bytes) in calls {
            py_cases.push(json!(["Extrinsic", hex(&bytes)]));
            cases.push(Case {
                label,
                ours: decode_value(&ctx, xt, &bytes).map_err(|e| e.to_string()),
            });
        }
        for (label, bytes) in events {
            py_cases.push(json!([format!("scale_info::{events_id}"), hex(&bytes)]));
            cases.push(Case {
                label,
                ours: decode_value(&ctx, events_ty, &bytes).map_err(|e| e.to_string()),
            });
        }
        request.push(json!({"metadata": hex(&ferroscale_fixtures::read(name)), "ss58": 0, "cases": py_cases}));
        groups.push(cases);
    }

    // Bittensor runtime-API results: every file of `payloads/subtensor/`
    // against the subtensor registry of `test_types.json` (sent to
    // py-scale-codec SCALE-encoded) plus the layouts the registry lacks
    // (`common::subtensor`), given to both as the same preset definitions;
    // and the neuron files read with the registry's own (older) layout,
    // which both must refuse.
    {
        use parity_scale_codec::Encode;
        let reg = common::subtensor::registry();
        let definitions = common::subtensor::payload_definitions(&reg);
        let mut registry = common::subtensor::payload_registry(&reg);
        registry.set_ss58_format(Some(42));
        let mut inputs: Vec<(String, String)> = common::subtensor::payloads(&reg)
            .into_iter()
            .map(|p| (p.file.to_string(), p.type_string))
            .collect();
        for (file, name) in [
            ("neurons", "NeuronInfo"),
            ("neurons_lite", "NeuronInfoLite"),
        ] {
            let id = common::subtensor::id_by_name(&reg, name);
            inputs.push((
                format!("payloads/subtensor/{file}.hex"),
                format!("Vec<scale_info::{id}>"),
            ));
        }
        let mut cases = Vec::new();
        let mut py_cases = Vec::new();
        for (file, ty_string) in inputs {
            let bytes = ferroscale_fixtures::read_hex(&file);
            py_cases.push(json!([ty_string, hex(&bytes)]));
            cases.push(Case {
                label: format!("{file} as {ty_string}"),
                ours: registry
                    .decode(&ty_string, &bytes)
                    .map_err(|e| e.to_string()),
            });
        }
        request.push(json!({
            "registry": hex(&reg.encode()),
            "types": definitions,
            "ss58": 42,
            "cases": py_cases,
        }));
        groups.push(cases);
    }

    let out = ferroscale_test_support::reference::run_python(
        SCRIPT,
        serde_json::to_string(&request).unwrap().as_bytes(),
    );
    let answers: Vec<Vec<Json>> = serde_json::from_str(&out).expect("reference output is JSON");
    assert_eq!(answers.len(), groups.len());

    // Spot checks that the reference really answered with the shapes compared.
    let find = |label: &str| -> &Json {
        let (g, i) = groups
            .iter()
            .enumerate()
            .find_map(|(g, cases)| cases.iter().position(|c| c.label == label).map(|i| (g, i)))
            .unwrap_or_else(|| panic!("no case {label}"));
        &answers[g][i]["ok"]
    };
    let transfer = find("built event Balances.Transfer");
    assert_eq!(transfer[0]["event_id"], "Transfer", "{transfer}");
    assert_eq!(transfer[0]["module_id"], "Balances");
    assert!(
        transfer[0]["attributes"]["from"]
            .as_str()
            .is_some_and(|a| a.starts_with('1')),
        "{transfer}"
    );
    let subnets = find("payloads/subtensor/subnets_info.hex as Vec<Option<SubnetInfo>>");
    assert_eq!(subnets.as_array().map(Vec::len), Some(207), "{subnets}");
    let xt = find("built extrinsic Balances.transfer");
    assert_eq!(xt["call"]["call_function"], "transfer", "{xt}");
    assert!(xt["era"].is_array(), "{xt}");

    let (mut compared, mut equal, mut deliberate, mut py_failed, mut both_failed) = (0, 0, 0, 0, 0);
    let mut differences = Vec::new();
    for (cases, answers) in groups.iter().zip(&answers) {
        assert_eq!(cases.len(), answers.len());
        for (case, answer) in cases.iter().zip(answers) {
            match (&case.ours, answer.get("ok")) {
                (Ok(v), Some(py)) => {
                    compared += 1;
                    let ours = to_json(v);
                    if &ours == py {
                        equal += 1;
                    } else if strip_nested_call_hashes(&ours, false)
                        == strip_nested_call_hashes(py, false)
                    {
                        deliberate += 1;
                        println!("deliberate: {}: {NESTED_CALL_HASH}", case.label);
                    } else {
                        differences.push(format!("{}:\n  ours: {ours}\n  py:   {py}", case.label));
                    }
                }
                (Ok(_), None) => {
                    py_failed += 1;
                    println!(
                        "py-scale-codec cannot decode {}: {}",
                        case.label, answer["err"]
                    );
                }
                (Err(e), Some(py)) => {
                    differences.push(format!("{}: we fail ({e}), py gives {py}", case.label))
                }
                (Err(_), None) => both_failed += 1,
            }
        }
    }
    println!(
        "compared {compared}, equal {equal}, deliberate differences {deliberate}, \
         py-scale-codec failed {py_failed}, both failed {both_failed}, other differences {}",
        differences.len()
    );
    for d in differences.iter().take(25) {
        println!("DIFF {d}");
    }
    assert!(
        differences.is_empty(),
        "{} differences from py-scale-codec",
        differences.len()
    );
    assert!(compared > 2000, "too few cases compared: {compared}");
}

/// Encoded signed extrinsics (one per call) and single-record event vectors
/// (one per event), from example values of the metadata's own types.
#[allow(clippy::type_complexity)]
fn built_inputs(
    l: &common::Loaded,
    ctx: &Context<'_>,
    xt: ferroscale_dynamic::TypeIdx,
    events_ty: ferroscale_dynamic::TypeIdx,
) -> (Vec<(String, Vec<u8>)>, Vec<(String, Vec<u8>)>) {
    use ferroscale_dynamic::encode_value;
    let rt = &l.imported.runtime;
    let mut calls = Vec::new();
    let mut events = Vec::new();
    let mut seed = 1u64;
    for p in &rt.pallets {
        for c in &p.calls {
            seed += 1;
            if let Some(b) = common::signed_extrinsic(l, ctx, xt, p, c, seed) {
                calls.push((format!("built extrinsic {}.{}", p.name, c.name), b));
            }
        }
        for e in &p.events {
            seed += 1;
            let Some(record) = common::event_record_example(l, p, e, seed) else {
                continue;
            };
            if let Ok(b) = encode_value(ctx, events_ty, &Value::List(vec![record])) {
                events.push((format!("built event {}.{}", p.name, e.name), b));
            }
        }
    }
    (calls, events)
}

fn hex(b: &[u8]) -> String {
    ferroscale_core::hex::encode_prefixed(b)[2..].to_string()
}
