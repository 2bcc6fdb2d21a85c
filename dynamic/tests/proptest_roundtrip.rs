//! Property tests of the dynamic decoder over random type shapes built from
//! the graph grammar (every data-carrying [`Node`] kind: primitives, Compact,
//! bytes, byte arrays, sequences, arrays, tuples, structs, enums with unit,
//! positional and named variants, Option, Result, maps, bit sequences,
//! account ids) and random values of those shapes.
//!
//! Each case generates a value together with its SCALE encoding (written
//! here with parity-scale-codec's own `Encode` for the primitives and
//! compact lengths, independently of the decoder) and the value py-scale-codec
//! 1.2.12 shows for it (the contract in DESIGN.md). Then:
//!
//! - decoding the encoding gives that value back;
//! - `decode_prefix` on the encoding followed by junk stops exactly at the
//!   end of the encoding;
//! - every strict prefix of the encoding fails to decode (SCALE reads
//!   deterministically, so a shorter complete encoding cannot exist).
//!
//! proptest (a dev-dependency of ferroscale-dynamic) generates the cases and
//! shrinks a failure to a minimal shape and value.

use std::sync::Arc;

use ferroscale_dynamic::{
    decode_prefix, decode_value, BitStore, Context, Field, Fields, Node, Prim, TypeGraph, TypeIdx,
    ValueSink, Variant,
};
use ferroscale_fixtures::Xorshift;
use ferroscale_value::Value;
use parity_scale_codec::{Compact, Encode};
use proptest::prelude::*;

/// A type shape: the test's own description, turned into graph nodes by
/// [`build`].
#[derive(Clone, Debug)]
enum Shape {
    Prim(Prim),
    Null,
    Compact(Prim),
    Bytes,
    ByteArray(u32),
    AccountId,
    Seq(Box<Shape>),
    Array(Box<Shape>, u32),
    Tuple(Vec<Shape>),
    Struct(Vec<(String, Shape)>),
    Enum(Vec<(u8, String, VariantShape)>),
    Option(Box<Shape>),
    Result(Box<Shape>, Box<Shape>),
    Map(Box<Shape>, Box<Shape>),
    BitSeq(BitStore, bool),
}

#[derive(Clone, Debug)]
enum VariantShape {
    Unit,
    Unnamed(Vec<Shape>),
    Named(Vec<(String, Shape)>),
}

const INTS: [Prim; 12] = [
    Prim::U8,
    Prim::U16,
    Prim::U32,
    Prim::U64,
    Prim::U128,
    Prim::U256,
    Prim::I8,
    Prim::I16,
    Prim::I32,
    Prim::I64,
    Prim::I128,
    Prim::I256,
];

fn leaf() -> impl Strategy<Value = Shape> {
    prop_oneof![
        4 => proptest::sample::select(INTS.to_vec()).prop_map(Shape::Prim),
        1 => Just(Shape::Prim(Prim::Bool)),
        1 => Just(Shape::Prim(Prim::Str)),
        1 => Just(Shape::Prim(Prim::Char)),
        1 => Just(Shape::Null),
        2 => proptest::sample::select(vec![Prim::U8, Prim::U16, Prim::U32, Prim::U64, Prim::U128])
            .prop_map(Shape::Compact),
        1 => Just(Shape::Bytes),
        1 => (1u32..40).prop_map(Shape::ByteArray),
        1 => Just(Shape::AccountId),
        1 => (
            proptest::sample::select(vec![BitStore::U8, BitStore::U16, BitStore::U32, BitStore::U64]),
            any::<bool>()
        )
            .prop_map(|(s, l)| Shape::BitSeq(s, l)),
    ]
}

fn names(n: usize) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::btree_set("[a-z][a-z0-9_]{0,6}", n).prop_map(|s| s.into_iter().collect())
}

fn shape() -> impl Strategy<Value = Shape> {
    leaf().prop_recursive(4, 48, 4, |inner| {
        let fields = (1usize..4).prop_flat_map({
            let inner = inner.clone();
            move |n| (names(n), proptest::collection::vec(inner.clone(), n))
        });
        let named = fields
            .clone()
            .prop_map(|(ns, ts)| ns.into_iter().zip(ts).collect::<Vec<_>>());
        let variant = prop_oneof![
            Just(VariantShape::Unit),
            proptest::collection::vec(inner.clone(), 1..3).prop_map(VariantShape::Unnamed),
            named.clone().prop_map(VariantShape::Named),
        ];
        let variants = (1usize..5).prop_flat_map(move |n| {
            (
                proptest::collection::btree_set(any::<u8>(), n),
                names(n),
                proptest::collection::vec(variant.clone(), n),
            )
        });
        prop_oneof![
            inner.clone().prop_map(|t| Shape::Seq(Box::new(t))),
            (inner.clone(), 0u32..4).prop_map(|(t, n)| Shape::Array(Box::new(t), n)),
            proptest::collection::vec(inner.clone(), 2..4).prop_map(Shape::Tuple),
            named.prop_map(Shape::Struct),
            variants.prop_map(|(idx, ns, vs)| {
                let mut out: Vec<_> = idx
                    .into_iter()
                    .zip(ns)
                    .zip(vs)
                    .map(|((i, n), v)| (i, n, v))
                    .collect();
                out.sort_by_key(|v| v.0);
                Shape::Enum(out)
            }),
            inner.clone().prop_map(|t| Shape::Option(Box::new(t))),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| Shape::Result(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(k, v)| Shape::Map(Box::new(k), Box::new(v))),
        ]
    })
}

/// Adds the nodes of `shape` to `g`; returns the root.
fn build(g: &mut TypeGraph, shape: &Shape) -> TypeIdx {
    let node = match shape {
        Shape::Prim(p) => Node::Prim(*p),
        Shape::Null => Node::Null,
        Shape::Compact(p) => Node::Compact(g.add(Node::Prim(*p), None)),
        Shape::Bytes => Node::Bytes,
        Shape::ByteArray(n) => Node::ByteArray(*n),
        Shape::AccountId => Node::Special(ferroscale_dynamic::Special::AccountId),
        Shape::Seq(t) => Node::Seq(build(g, t)),
        Shape::Array(t, n) => Node::Array(build(g, t), *n),
        Shape::Tuple(ts) => Node::Tuple(ts.iter().map(|t| build(g, t)).collect()),
        Shape::Struct(fs) => Node::Struct(fields(g, fs)),
        Shape::Enum(vs) => Node::Enum(
            vs.iter()
                .map(|(i, n, v)| Variant {
                    index: *i,
                    name: Arc::from(n.as_str()),
                    fields: match v {
                        VariantShape::Unit => Fields::Unit,
                        VariantShape::Unnamed(ts) => {
                            Fields::Unnamed(ts.iter().map(|t| build(g, t)).collect())
                        }
                        VariantShape::Named(fs) => Fields::Named(fields(g, fs)),
                    },
                })
                .collect(),
        ),
        Shape::Option(t) => Node::Option(build(g, t)),
        Shape::Result(a, b) => Node::Result(build(g, a), build(g, b)),
        Shape::Map(k, v) => Node::Map(build(g, k), build(g, v)),
        Shape::BitSeq(store, lsb0) => Node::BitSeq {
            store: *store,
            lsb0: *lsb0,
        },
    };
    g.add(node, None)
}

fn fields(g: &mut TypeGraph, fs: &[(String, Shape)]) -> Vec<Field> {
    fs.iter()
        .map(|(n, t)| Field {
            name: Arc::from(n.as_str()),
            ty: build(g, t),
        })
        .collect()
}

/// An encoding and the value it decodes to.
type Case = (Vec<u8>, Value);

fn hex(b: &[u8]) -> Value {
    let mut s = String::from("0x");
    for x in b {
        s.push_str(&format!("{x:02x}"));
    }
    Value::Str(s.into())
}

fn text(s: &str) -> Value {
    Value::Str(s.into())
}

/// py-scale-codec's bytes rendering: text when UTF-8, else hex.
fn bytes_value(b: &[u8]) -> Value {
    match std::str::from_utf8(b) {
        Ok(s) => text(s),
        Err(_) => hex(b),
    }
}

fn prim_case(p: Prim) -> BoxedStrategy<Case> {
    match p {
        Prim::Bool => any::<bool>()
            .prop_map(|v| (v.encode(), Value::Bool(v)))
            .boxed(),
        Prim::U8 => any::<u8>()
            .prop_map(|v| (v.encode(), Value::UInt(v.into())))
            .boxed(),
        Prim::U16 => any::<u16>()
            .prop_map(|v| (v.encode(), Value::UInt(v.into())))
            .boxed(),
        Prim::U32 => any::<u32>()
            .prop_map(|v| (v.encode(), Value::UInt(v.into())))
            .boxed(),
        Prim::U64 => any::<u64>()
            .prop_map(|v| (v.encode(), Value::UInt(v.into())))
            .boxed(),
        Prim::U128 => any::<u128>()
            .prop_map(|v| (v.encode(), Value::UInt(v)))
            .boxed(),
        Prim::I8 => any::<i8>()
            .prop_map(|v| (v.encode(), Value::Int(v.into())))
            .boxed(),
        Prim::I16 => any::<i16>()
            .prop_map(|v| (v.encode(), Value::Int(v.into())))
            .boxed(),
        Prim::I32 => any::<i32>()
            .prop_map(|v| (v.encode(), Value::Int(v.into())))
            .boxed(),
        Prim::I64 => any::<i64>()
            .prop_map(|v| (v.encode(), Value::Int(v.into())))
            .boxed(),
        Prim::I128 => any::<i128>()
            .prop_map(|v| (v.encode(), Value::Int(v)))
            .boxed(),
        // 256-bit: the ordinary integer when it fits 128 bits, else the raw
        // little-endian words.
        Prim::U256 => (any::<u128>(), prop_oneof![Just(0u128), any::<u128>()])
            .prop_map(|(lo, hi)| {
                let mut le = [0u8; 32];
                le[..16].copy_from_slice(&lo.to_le_bytes());
                le[16..].copy_from_slice(&hi.to_le_bytes());
                let v = if hi == 0 {
                    Value::UInt(lo)
                } else {
                    Value::U256(Box::new(le))
                };
                (le.to_vec(), v)
            })
            .boxed(),
        Prim::I256 => (any::<i128>(), any::<bool>(), any::<u128>())
            .prop_map(|(small, fits, hi)| {
                let mut le = [0u8; 32];
                le[..16].copy_from_slice(&small.to_le_bytes());
                let ext = if small < 0 { 0xff } else { 0 };
                le[16..].fill(ext);
                if fits || hi == 0 || hi == u128::MAX {
                    return (le.to_vec(), Value::Int(small));
                }
                le[16..].copy_from_slice(&hi.to_le_bytes());
                (le.to_vec(), Value::I256(Box::new(le)))
            })
            .boxed(),
        Prim::Char => any::<char>()
            .prop_map(|c| ((c as u32).encode(), text(&c.to_string())))
            .boxed(),
        Prim::Str => prop_oneof![
            any::<String>().prop_map(|s| (s.encode(), text(&s))),
            proptest::collection::vec(any::<u8>(), 0..40)
                .prop_map(|b| (b.encode(), bytes_value(&b))),
        ]
        .boxed(),
    }
}

/// The largest value of an unsigned integer type.
fn max_of(p: Prim) -> u128 {
    match p {
        Prim::U8 => u8::MAX.into(),
        Prim::U16 => u16::MAX.into(),
        Prim::U32 => u32::MAX.into(),
        Prim::U64 => u64::MAX.into(),
        _ => u128::MAX,
    }
}

/// Random values of `shape`, each with its encoding and decoded value.
fn case(shape: &Shape) -> BoxedStrategy<Case> {
    match shape.clone() {
        Shape::Prim(p) => prim_case(p),
        Shape::Null => Just((vec![], Value::Null)).boxed(),
        Shape::Compact(p) => {
            let max = max_of(p);
            prop_oneof![
                0u128..64,
                64u128..1 << 14,
                1u128 << 14..1 << 30,
                any::<u128>()
            ]
            .prop_map(move |v| {
                let v = v % max.saturating_add(1).max(1);
                let v = if max == u128::MAX { v } else { v.min(max) };
                (Compact(v).encode(), Value::UInt(v))
            })
            .boxed()
        }
        Shape::Bytes => prop_oneof![
            "[ -~]{0,40}".prop_map(|s| s.into_bytes()),
            proptest::collection::vec(any::<u8>(), 0..80),
        ]
        .prop_map(|b| (b.encode(), bytes_value(&b)))
        .boxed(),
        Shape::ByteArray(n) => proptest::collection::vec(any::<u8>(), n as usize)
            .prop_map(|b| (b.clone(), hex(&b)))
            .boxed(),
        Shape::AccountId => proptest::collection::vec(any::<u8>(), 32)
            .prop_map(|b| (b.clone(), hex(&b)))
            .boxed(),
        Shape::Seq(t) => proptest::collection::vec(case(&t), 0..5)
            .prop_map(|items| {
                let mut out = Compact(items.len() as u32).encode();
                let mut vals = Vec::new();
                for (b, v) in items {
                    out.extend(b);
                    vals.push(v);
                }
                (out, Value::List(vals))
            })
            .boxed(),
        Shape::Array(t, n) => proptest::collection::vec(case(&t), n as usize)
            .prop_map(|items| {
                let (bs, vs): (Vec<_>, Vec<_>) = items.into_iter().unzip();
                (bs.concat(), Value::List(vs))
            })
            .boxed(),
        Shape::Tuple(ts) => tuple_case(&ts),
        Shape::Struct(fs) => dict_case(&fs),
        Shape::Enum(vs) => {
            let arms: Vec<BoxedStrategy<Case>> = vs
                .iter()
                .map(|(index, name, v)| {
                    let index = *index;
                    let name: Arc<str> = Arc::from(name.as_str());
                    let payload = match v {
                        VariantShape::Unit => Just((vec![], None)).boxed(),
                        VariantShape::Unnamed(ts) => {
                            tuple_case(ts).prop_map(|(b, v)| (b, Some(v))).boxed()
                        }
                        VariantShape::Named(fs) => {
                            dict_case(fs).prop_map(|(b, v)| (b, Some(v))).boxed()
                        }
                    };
                    payload
                        .prop_map(move |(b, v)| {
                            let mut out = vec![index];
                            out.extend(b);
                            let value = match v {
                                None => Value::Str(name.clone()),
                                Some(v) => Value::Dict(vec![(name.clone(), v)]),
                            };
                            (out, value)
                        })
                        .boxed()
                })
                .collect();
            proptest::strategy::Union::new(arms).boxed()
        }
        Shape::Option(t) => prop_oneof![
            Just((vec![0u8], Value::Null)),
            case(&t).prop_map(|(b, v)| ([vec![1u8], b].concat(), v)),
        ]
        .boxed(),
        Shape::Result(a, b) => prop_oneof![
            case(&a)
                .prop_map(|(b, v)| ([vec![0u8], b].concat(), Value::Dict(vec![("Ok".into(), v)]))),
            case(&b).prop_map(|(b, v)| (
                [vec![1u8], b].concat(),
                Value::Dict(vec![("Err".into(), v)])
            )),
        ]
        .boxed(),
        Shape::Map(k, v) => proptest::collection::vec((case(&k), case(&v)), 0..4)
            .prop_map(|pairs| {
                let mut out = Compact(pairs.len() as u32).encode();
                let mut vals = Vec::new();
                for ((kb, kv), (vb, vv)) in pairs {
                    out.extend(kb);
                    out.extend(vb);
                    vals.push(Value::Tuple(vec![kv, vv]));
                }
                (out, Value::List(vals))
            })
            .boxed(),
        Shape::BitSeq(store, _lsb0) => {
            let word = store.bytes();
            (1usize..130, any::<u64>())
                .prop_map(move |(bits, seed)| bit_case(bits, word, seed))
                .boxed()
        }
    }
}

/// A bit sequence of `bits` bits in `word`-byte words (unused high bits
/// zero): its SCALE encoding and py-scale-codec's `"0b…"` text, the bits of
/// the little-endian integer, most significant first, zero-padded to `bits`.
fn bit_case(bits: usize, word: usize, seed: u64) -> Case {
    let nbytes = bits.div_ceil(word * 8) * word;
    // `| 1`: zero is the one seed the generator refuses.
    let mut rng = Xorshift::new(seed | 1);
    let mut bytes: Vec<u8> = (0..nbytes).map(|_| rng.next_u8()).collect();
    // Clear every bit at or above `bits`.
    for i in bits..nbytes * 8 {
        bytes[i / 8] &= !(1 << (i % 8));
    }
    let mut digits = String::new();
    for i in (0..bits).rev() {
        digits.push(if bytes[i / 8] & (1 << (i % 8)) != 0 {
            '1'
        } else {
            '0'
        });
    }
    let trimmed = digits.trim_start_matches('0');
    let shown = format!(
        "{:0>width$}",
        if trimmed.is_empty() { "0" } else { trimmed },
        width = bits
    );
    let mut out = Compact(bits as u32).encode();
    out.extend(bytes);
    (out, text(&format!("0b{shown}")))
}

/// A positional payload: a 1-tuple is its element, otherwise a tuple.
fn tuple_case(ts: &[Shape]) -> BoxedStrategy<Case> {
    let parts: Vec<BoxedStrategy<Case>> = ts.iter().map(case).collect();
    let single = ts.len() == 1;
    parts
        .prop_map(move |items| {
            let (bs, mut vs): (Vec<_>, Vec<_>) = items.into_iter().unzip();
            let v = if single {
                vs.remove(0)
            } else {
                Value::Tuple(vs)
            };
            (bs.concat(), v)
        })
        .boxed()
}

/// Named fields: a dict in field order.
fn dict_case(fs: &[(String, Shape)]) -> BoxedStrategy<Case> {
    let names: Vec<Arc<str>> = fs.iter().map(|(n, _)| Arc::from(n.as_str())).collect();
    let parts: Vec<BoxedStrategy<Case>> = fs.iter().map(|(_, t)| case(t)).collect();
    parts
        .prop_map(move |items| {
            let (bs, vs): (Vec<_>, Vec<_>) = items.into_iter().unzip();
            (
                bs.concat(),
                Value::Dict(names.iter().cloned().zip(vs).collect()),
            )
        })
        .boxed()
}

fn shape_and_case() -> impl Strategy<Value = (Shape, Case)> {
    shape().prop_flat_map(|s| {
        let c = case(&s);
        (Just(s), c)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Decoding the encoding of a random value of a random shape gives the value.
    #[test]
    fn decode_gives_the_encoded_value_back((shape, (bytes, want)) in shape_and_case()) {
        let mut g = TypeGraph::new();
        let root = build(&mut g, &shape);
        let ctx = Context::new(&g);
        let got = decode_value(&ctx, root, &bytes);
        prop_assert_eq!(got, Ok(want));
    }

    /// A decode stops exactly at the end of the value, whatever follows, and
    /// no strict prefix of an encoding decodes.
    #[test]
    fn decode_consumes_exactly_the_encoding(
        (shape, (bytes, _)) in shape_and_case(),
        junk in proptest::collection::vec(any::<u8>(), 1..16),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut g = TypeGraph::new();
        let root = build(&mut g, &shape);
        let ctx = Context::new(&g);
        let mut longer = bytes.clone();
        longer.extend_from_slice(&junk);
        let (_, used) = decode_prefix(&ctx, root, &longer, &mut ValueSink)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(used, bytes.len());
        prop_assert!(decode_value(&ctx, root, &longer).is_err());
        if !bytes.is_empty() {
            let short = &bytes[..cut.index(bytes.len())];
            prop_assert!(decode_value(&ctx, root, short).is_err(), "prefix of {} bytes decoded", short.len());
        }
    }
}
