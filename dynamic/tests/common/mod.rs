//! Shared helpers of the dynamic-layer tests: metadata fixtures, their
//! constants and storage defaults.
#![allow(dead_code)]

pub(crate) mod subtensor;

use ferroscale_dynamic::portable::{import_metadata, ImportedMetadata};
use ferroscale_dynamic::{Node, Special, TypeGraph, TypeIdx};
use ferroscale_metadata::{Metadata, StorageModifier, TypeRef};

/// One constant value or storage default of a metadata fixture.
pub(crate) struct Item {
    pub what: String,
    pub ty: TypeIdx,
    pub bytes: Vec<u8>,
}

/// A metadata fixture imported into its own graph.
pub(crate) struct Loaded {
    pub name: String,
    pub graph: TypeGraph,
    pub imported: ImportedMetadata,
    pub items: Vec<Item>,
}

impl Loaded {
    /// The value type of storage item `name` (`"System.Events"`), found by
    /// its storage default.
    pub(crate) fn storage_type(&self, name: &str) -> TypeIdx {
        let what = format!("{name} (storage default)");
        self.items
            .iter()
            .find(|i| i.what == what)
            .unwrap_or_else(|| panic!("{}: no storage item {name}", self.name))
            .ty
    }

    /// A node for a whole extrinsic (`"Extrinsic"`) in this metadata's graph.
    pub(crate) fn extrinsic_node(&mut self) -> TypeIdx {
        self.graph
            .add(Node::Special(Special::Extrinsic), Some("Extrinsic".into()))
    }
}

/// Every V14+ metadata fixture (names from the manifest).
pub(crate) fn portable_fixtures() -> Vec<String> {
    ferroscale_fixtures::entries_under("metadata")
        .iter()
        .map(|e| e.name.to_string())
        .filter(|n| {
            [
                "-v14",
                "-v15",
                "-v16",
                "custom-values-v15",
                "frontier-template-v15",
            ]
            .iter()
            .any(|v| n.contains(v))
        })
        .collect()
}

/// Imports `name` and lists its constants and storage defaults (an
/// `Optional` storage default decodes as `Option<value>`).
pub(crate) fn load(name: &str) -> Loaded {
    let bytes = ferroscale_fixtures::read(name);
    let md = Metadata::load(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut graph = TypeGraph::new();
    let imported = import_metadata(&mut graph, &md).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut items = Vec::new();
    let mut push =
        |graph: &mut TypeGraph, what: String, ty: &TypeRef, optional: bool, bytes: &[u8]| {
            let id = ty.id().expect("V14+ types are registry ids");
            let mut ty = imported.types.idx(id).expect("type id in range");
            if optional {
                ty = graph.add(Node::Option(ty), None);
            }
            items.push(Item {
                what,
                ty,
                bytes: bytes.to_vec(),
            });
        };
    for p in &md.pallets {
        for c in &p.constants {
            let what = format!("{}.{} (constant)", p.name, c.name);
            push(&mut graph, what, &c.ty, false, &c.value);
        }
        for e in p.storage_entries() {
            let what = format!("{}.{} (storage default)", p.name, e.name);
            let optional = e.modifier == StorageModifier::Optional;
            push(&mut graph, what, &e.value, optional, &e.default);
        }
    }
    Loaded {
        name: name.to_string(),
        graph,
        imported,
        items,
    }
}

/// A valid example value of `ty` (for building encoded inputs from real
/// metadata types): integers from `seed`, the `seed`-th enum variant, one
/// element per sequence. `None` when the type is too deep or needs runtime
/// context this generator does not model.
pub(crate) fn example(
    graph: &TypeGraph,
    ty: TypeIdx,
    seed: u64,
    depth: u32,
) -> Option<ferroscale_value::Value> {
    use ferroscale_dynamic::{Fields, Prim, Special};
    use ferroscale_value::Value;
    if depth > 12 {
        return None;
    }
    let d = depth + 1;
    let fields = |f: &Fields, seed: u64| -> Option<Option<Value>> {
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
        // Within the range of the compacted integer: a typed decoder
        // refuses a `Compact<u16>` holding more than 16 bits.
        Node::Compact(inner) => Value::UInt(match compacted_prim(graph, *inner) {
            Some(Prim::U8) => (seed % 256) as u128,
            Some(Prim::U16) => (seed * 7 % 65536) as u128,
            _ => seed as u128 * 100_000 + 3,
        }),
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
        Node::Enum(vs) => {
            if vs.is_empty() {
                return None;
            }
            // Try variants starting at seed until one can be built.
            (0..vs.len()).find_map(|k| {
                let v = &vs[(seed as usize + k) % vs.len()];
                let inner = fields(&v.fields, seed)?;
                Some(Value::variant(v.name.clone(), inner))
            })?
        }
        Node::Option(t) => {
            if seed.is_multiple_of(3) {
                Value::Null
            } else {
                example(graph, *t, seed, d)?
            }
        }
        Node::Result(ok, _) => Value::Dict(vec![("Ok".into(), example(graph, *ok, seed, d)?)]),
        Node::Set { .. } => Value::List(vec![]),
        Node::BitSeq { .. } => Value::str("0b101"),
        Node::Map(k, v) => Value::List(vec![Value::Tuple(vec![
            example(graph, *k, seed, d)?,
            example(graph, *v, seed, d)?,
        ])]),
        Node::Special(s) => match s {
            Special::AccountId => Value::hex(&[(seed % 250) as u8 + 1; 32]),
            Special::EthereumAccountId => Value::hex(&[(seed % 250) as u8 + 1; 20]),
            Special::AccountIndex => Value::UInt(seed as u128),
            Special::MultiAddress(_) => Value::hex(&[(seed % 250) as u8 + 1; 32]),
            Special::Era => Value::Tuple(vec![Value::UInt(64), Value::UInt(seed as u128 % 64)]),
            Special::IdentityData => Value::Dict(vec![("Raw".into(), Value::str("name"))]),
            Special::Vote => Value::Dict(vec![
                ("aye".into(), Value::Bool(true)),
                ("conviction".into(), Value::str("Locked2x")),
            ]),
            Special::WrapperKeepOpaque(t) => example(graph, *t, seed, d)?,
            Special::HexBytes => Value::str("0x0102"),
            // Every runtime the fixtures hold has System.remark(remark: Vec<u8>).
            Special::Call => Value::Dict(vec![
                ("call_module".into(), Value::str("System")),
                ("call_function".into(), Value::str("remark")),
                (
                    "call_args".into(),
                    Value::Dict(vec![(
                        "remark".into(),
                        Value::str(format!("remark {seed}")),
                    )]),
                ),
            ]),
            _ => return None,
        },
        Node::Unresolved(_) => return None,
    })
}

/// The integer a compact holds: the type itself, or the one field of a
/// wrapper such as `PerU16` (`CompactAs`).
fn compacted_prim(graph: &TypeGraph, ty: TypeIdx) -> Option<ferroscale_dynamic::Prim> {
    match graph.node(ty) {
        Node::Prim(p) => Some(*p),
        Node::Struct(fs) if fs.len() == 1 => compacted_prim(graph, fs[0].ty),
        Node::Tuple(ts) if ts.len() == 1 => compacted_prim(graph, ts[0]),
        _ => None,
    }
}

/// The start of every py-scale-codec reference script of these tests: the
/// imports, and `norm`, the Python side of [`normalise`] (the same normal
/// form computed from py-scale-codec's values).
pub(crate) const PY_PRELUDE: &str = r#"import json, sys
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset
def norm(v):
    if isinstance(v, bool) or v is None: return v
    if isinstance(v, int): return v if -2**63 <= v < 2**63 else 'int:%d' % v
    if isinstance(v, (list, tuple)): return [norm(x) for x in v]
    if isinstance(v, dict): return {'dict': [[k, norm(x)] for k, x in v.items()]}
    return v
"#;

/// A reference script: [`PY_PRELUDE`] followed by `body`.
pub(crate) fn reference_script(body: &str) -> String {
    format!("{PY_PRELUDE}{body}")
}

/// A decoded value in the normal form the py-scale-codec differential tests
/// compare in: dicts keep their order as pairs, tuples are lists, integers
/// beyond 64 bits are `"int:N"` text.
pub(crate) fn normalise(v: &ferroscale_value::Value) -> serde_json::Value {
    use ferroscale_value::Value;
    use serde_json::{json, Value as Json};
    let int = |n: String, small: Option<i64>| {
        small.map_or_else(|| json!(format!("int:{n}")), |i| json!(i))
    };
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::UInt(n) => int(n.to_string(), i64::try_from(*n).ok()),
        Value::Int(n) => int(n.to_string(), i64::try_from(*n).ok()),
        Value::U256(_) | Value::I256(_) => json!(format!("int:{v}")),
        Value::Str(s) => json!(s.to_string()),
        Value::List(items) | Value::Tuple(items) => {
            Json::Array(items.iter().map(normalise).collect())
        }
        Value::Dict(entries) => json!({
            "dict": entries.iter().map(|(k, v)| json!([k.to_string(), normalise(v)])).collect::<Vec<_>>()
        }),
    }
}

/// A signed extrinsic of `pallet.call` built from example values (address
/// `[7; 32]`, the runtime's signature type, every signed extension) and
/// encoded by the dynamic encoder as extrinsic type `xt`; `None` when an
/// argument has no example value or the encoder refuses it. Used by the
/// py-scale-codec differential test and by the typed tests of signed
/// extrinsics.
pub(crate) fn signed_extrinsic(
    l: &Loaded,
    ctx: &ferroscale_dynamic::Context<'_>,
    xt: TypeIdx,
    pallet: &ferroscale_dynamic::runtime::Pallet,
    call: &ferroscale_dynamic::runtime::Item,
    seed: u64,
) -> Option<Vec<u8>> {
    use ferroscale_value::Value;
    let rt = &l.imported.runtime;
    let args = call
        .args
        .iter()
        .map(|a| Some((a.name.clone()?, example(&l.graph, a.ty, seed, 0)?)))
        .collect::<Option<Vec<_>>>()?;
    let signature = example(&l.graph, rt.extrinsic.signature?, seed, 0)?;
    let mut fields = vec![
        ("address".into(), Value::hex(&[7u8; 32])),
        ("signature".into(), signature),
    ];
    for e in &rt.extrinsic.extensions {
        fields.push((e.key.clone(), example(&l.graph, e.ty, seed, 0)?));
    }
    fields.push((
        "call".into(),
        Value::Dict(vec![
            ("call_module".into(), Value::Str(pallet.name.clone())),
            ("call_function".into(), Value::Str(call.name.clone())),
            ("call_args".into(), Value::Dict(args)),
        ]),
    ));
    ferroscale_dynamic::encode_value(ctx, xt, &Value::Dict(fields)).ok()
}

/// An `EventRecord` value (py-scale-codec's input shape) for `event` of
/// `pallet`, with example attributes (`None` when the example generator
/// cannot fill an argument): applied in an extrinsic, one topic.
pub(crate) fn event_record_example(
    l: &Loaded,
    pallet: &ferroscale_dynamic::runtime::Pallet,
    event: &ferroscale_dynamic::runtime::Item,
    seed: u64,
) -> Option<ferroscale_value::Value> {
    use ferroscale_value::Value;
    let values = event
        .args
        .iter()
        .map(|a| example(&l.graph, a.ty, seed, 0))
        .collect::<Option<Vec<Value>>>()?;
    let named = !event.args.is_empty() && event.args.iter().all(|a| a.name.is_some());
    let attributes = match (named, values.len()) {
        (_, 0) => Value::Null,
        (true, _) => Value::Dict(
            event
                .args
                .iter()
                .filter_map(|a| a.name.clone())
                .zip(values)
                .collect(),
        ),
        (false, 1) => values.into_iter().next().unwrap_or(Value::Null),
        (false, _) => Value::Tuple(values),
    };
    Some(Value::Dict(vec![
        ("phase".into(), Value::str("ApplyExtrinsic")),
        ("extrinsic_idx".into(), Value::UInt(u128::from(seed % 50))),
        (
            "event".into(),
            Value::Dict(vec![
                ("module_id".into(), Value::Str(pallet.name.clone())),
                ("event_id".into(), Value::Str(event.name.clone())),
                ("attributes".into(), attributes),
            ]),
        ),
        ("topics".into(), Value::List(vec![Value::hex(&[9u8; 32])])),
    ]))
}
