//! Resource limits of the dynamic decoder and the type-string parser on
//! hostile input, each checked twice: the error it gives, and (through a
//! counting global allocator) that the peak memory stays small whatever the
//! input's length prefixes claim.

#[path = "../../core/tests/hardening_support/mod.rs"]
mod hardening_support;

use ferroscale_dynamic::portable::import_metadata_bytes;
use ferroscale_dynamic::typestr::{parse, MAX_DEPTH};
use ferroscale_dynamic::DEFAULT_MAX_DEPTH;
use ferroscale_dynamic::{decode_value, Context, Document, Error, Node, Prim, TypeGraph, TypeIdx};
use hardening_support::{measure, PeakAlloc, MIB};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// Peak allocation allowed while refusing a hostile input: the input is tiny,
/// and nothing it claims may be allocated up front.
const SMALL: usize = 64 * 1024;

/// SCALE compact encoding of `v` (the big-integer mode above 2^30).
fn compact(v: u128) -> Vec<u8> {
    if v < 1 << 6 {
        vec![(v as u8) << 2]
    } else if v < 1 << 14 {
        (((v as u16) << 2) | 1).to_le_bytes().to_vec()
    } else if v < 1 << 30 {
        (((v as u32) << 2) | 2).to_le_bytes().to_vec()
    } else {
        let le = v.to_le_bytes();
        let n = 16 - le.iter().rev().take_while(|&&b| b == 0).count();
        let mut out = vec![(((n - 4) as u8) << 2) | 3];
        out.extend_from_slice(&le[..n.max(4)]);
        out
    }
}

/// A graph with `u8`, `Vec<u8>` and `Vec<Vec<u8>>`.
fn vec_vec_u8() -> (TypeGraph, TypeIdx) {
    let mut g = TypeGraph::new();
    g.add(Node::Prim(Prim::U8), Some("u8".into()));
    let bytes = g.add(Node::Bytes, Some("Vec<u8>".into()));
    let outer = g.add(Node::Seq(bytes), Some("Vec<Vec<u8>>".into()));
    (g, outer)
}

fn not_enough_bytes(r: Result<ferroscale_value::Value, Error>, at: usize) {
    match r {
        Err(Error::NotEnoughBytes { offset, .. }) => assert_eq!(offset, at),
        other => panic!("expected NotEnoughBytes at {at}, got {other:?}"),
    }
}

#[test]
fn vec_vec_u8_claiming_2_pow_30_elements_in_16_bytes() {
    let (g, ty) = vec_vec_u8();
    let mut input = compact(1 << 30);
    input.resize(16, 0x04);
    assert_eq!(input.len(), 16);
    let ctx = Context::new(&g);
    let (r, peak) = measure(|| decode_value(&ctx, ty, &input));
    println!("Vec<Vec<u8>> claiming 2^30 elements: {r:?}, peak {peak} bytes");
    not_enough_bytes(r, 0);
    assert!(peak < SMALL, "peak {peak} bytes");
}

/// The same claim against a real `Vec<Vec<u8>>` of the Polkadot registry.
#[test]
fn vec_vec_u8_of_the_polkadot_registry_claiming_2_pow_30_elements() {
    let bytes = ferroscale_fixtures::read("metadata/polkadot-v14-spec9180.scale");
    let mut g = TypeGraph::new();
    let imported = import_metadata_bytes(&mut g, &bytes).expect("imports");
    let ty = (0..imported.types.count)
        .filter_map(|id| imported.types.idx(id))
        .find(|&t| matches!(g.node(t), Node::Seq(inner) if matches!(g.node(*inner), Node::Bytes)))
        .expect("the Polkadot registry has a Vec<Vec<u8>>");
    let mut input = compact(1 << 30);
    input.resize(16, 0x04);
    let ctx = Context::new(&g);
    let (r, peak) = measure(|| decode_value(&ctx, ty, &input));
    println!("{}: {r:?}, peak {peak} bytes", g.describe(ty));
    not_enough_bytes(r, 0);
    assert!(peak < SMALL, "peak {peak} bytes");
}

/// A length prefix larger than what is left fails before anything is
/// allocated, for every length-prefixed node kind.
#[test]
fn length_prefix_past_the_input_fails_before_allocating() {
    let mut g = TypeGraph::new();
    let u8_ = g.add(Node::Prim(Prim::U8), None);
    let u64_ = g.add(Node::Prim(Prim::U64), None);
    let kinds = [
        ("Bytes", g.add(Node::Bytes, None)),
        ("Str", g.add(Node::Prim(Prim::Str), None)),
        ("Vec<u64>", g.add(Node::Seq(u64_), None)),
        ("BTreeMap<u8, u64>", g.add(Node::Map(u8_, u64_), None)),
        (
            "BitVec<u64, Lsb0>",
            g.add(
                Node::BitSeq {
                    store: ferroscale_dynamic::BitStore::U64,
                    lsb0: true,
                },
                None,
            ),
        ),
    ];
    let ctx = Context::new(&g);
    for claim in [
        65u128,
        1 << 30,
        u32::MAX as u128,
        u64::MAX as u128,
        u128::MAX,
    ] {
        let mut input = compact(claim);
        input.extend_from_slice(&[7; 8]);
        for (what, ty) in kinds {
            let (r, peak) = measure(|| decode_value(&ctx, ty, &input));
            if !matches!(r, Err(Error::NotEnoughBytes { offset: 0, .. })) {
                panic!("{what} claiming {claim} with 8 bytes: {r:?}");
            }
            assert!(peak < SMALL, "{what} claiming {claim}: peak {peak} bytes");
            // The flat output reserves by what the input holds, not by what
            // it claims.
            let (r, peak) = measure(|| Document::decode(&ctx, ty, &input).map(|_| ()));
            if !matches!(r, Err(Error::NotEnoughBytes { offset: 0, .. })) {
                panic!("{what} claiming {claim} with 8 bytes into a Document: {r:?}");
            }
            assert!(
                peak < SMALL,
                "{what} claiming {claim} into a Document: peak {peak} bytes"
            );
        }
    }
}

/// Nesting is capped: a self-referential `Option` (the shape of a recursive
/// type such as a boxed call inside a call) fed 100,000 `Some` bytes stops at
/// the depth limit with an error instead of overflowing the stack.
#[test]
fn nesting_depth_is_capped() {
    let mut g = TypeGraph::new();
    let me = g.reserve("Nested".into());
    g.set(me, Node::Option(me));
    let input = vec![1u8; 100_000];
    let ctx = Context::new(&g);
    let (r, peak) = measure(|| decode_value(&ctx, me, &input));
    match r {
        Err(Error::DepthLimit { limit, offset, .. }) => {
            assert_eq!(limit, DEFAULT_MAX_DEPTH);
            assert_eq!(offset, DEFAULT_MAX_DEPTH as usize);
        }
        other => panic!("expected DepthLimit, got {other:?}"),
    }
    assert!(peak < SMALL, "peak {peak} bytes");

    // A chain of 10,000 distinct nested Option nodes, the same way.
    let mut g = TypeGraph::new();
    let mut ty = g.add(Node::Prim(Prim::U8), None);
    for _ in 0..10_000 {
        ty = g.add(Node::Option(ty), None);
    }
    let ctx = Context::new(&g);
    let r = decode_value(&ctx, ty, &vec![1u8; 10_001]);
    assert!(matches!(r, Err(Error::DepthLimit { .. })), "{r:?}");

    // Raised past the chain's depth (on a thread with a stack to match), the
    // same shape decodes: the error above is the limit, not the input.
    let deep = std::thread::Builder::new()
        .stack_size(512 * MIB)
        .spawn(move || {
            let mut g = TypeGraph::new();
            let mut ty = g.add(Node::Prim(Prim::U8), None);
            for _ in 0..10_000 {
                ty = g.add(Node::Option(ty), None);
            }
            let ctx = Context {
                max_depth: 20_000,
                stack_budget: 500 * MIB,
                ..Context::new(&g)
            };
            decode_value(&ctx, ty, &vec![1u8; 10_001]).map(|_| ())
        })
        .expect("thread")
        .join()
        .expect("no panic");
    assert_eq!(deep, Ok(()));
}

/// Deeply nested `Option<Box<…>>` type strings fail with a parse error
/// naming the limit, not a stack overflow, and without a large allocation.
#[test]
fn deeply_nested_type_strings_are_refused() {
    for depth in [MAX_DEPTH + 1, 1_000, 100_000] {
        let text = format!("{}u8{}", "Option<Box<".repeat(depth), ">>".repeat(depth));
        let (r, peak) = measure(|| parse(&text));
        let e = r.expect_err("too deep");
        assert!(e.to_string().contains("nested deeper"), "{e}");
        // Linear in the input (the parser keeps a byte-offset map and the
        // error quotes the input), nothing more.
        assert!(
            peak < text.len() * 32 + SMALL,
            "depth {depth}: peak {peak} bytes"
        );
    }
    for text in [
        "Vec<".repeat(100_000),
        "(".repeat(100_000),
        "[".repeat(100_000),
        "<".repeat(100_000),
    ] {
        assert!(parse(&text).is_err());
    }
    // Just inside the limit it still parses (the leaf counts as a level).
    let n = MAX_DEPTH - 1;
    let ok = format!("{}u8{}", "Option<".repeat(n), ">".repeat(n));
    assert!(parse(&ok).is_ok(), "{n} nested Options");
}

/// Compact integers wider than 128 bits where the target is a `u128`: an
/// error naming the width; the widest that fits still decodes.
#[test]
fn compact_past_2_pow_128_is_refused_for_u128() {
    let mut g = TypeGraph::new();
    let u128_ = g.add(Node::Prim(Prim::U128), Some("u128".into()));
    let ty = g.add(Node::Compact(u128_), Some("Compact<u128>".into()));
    let ctx = Context::new(&g);

    // 2^128 exactly: 17 bytes, the top one 1.
    let mut input = vec![((17 - 4) << 2) | 3];
    input.extend_from_slice(&[0; 16]);
    input.push(1);
    let r = decode_value(&ctx, ty, &input);
    match &r {
        Err(Error::Invalid {
            offset: 0, reason, ..
        }) => {
            assert!(reason.contains("exceeds 128 bits"), "{reason}")
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
    // The widest compact SCALE allows (67 bytes, all ones).
    let mut input = vec![0xff];
    input.extend_from_slice(&[0xff; 67]);
    let (r, peak) = measure(|| decode_value(&ctx, ty, &input));
    assert!(matches!(r, Err(Error::Invalid { offset: 0, .. })), "{r:?}");
    assert!(peak < SMALL);
    // A 67-byte claim with 3 bytes behind it: not enough bytes for the 67
    // that follow the mode byte (offset 1).
    not_enough_bytes(decode_value(&ctx, ty, &[0xff, 1, 2, 3]), 1);
    // u128::MAX itself decodes.
    let mut input = vec![((16 - 4) << 2) | 3];
    input.extend_from_slice(&[0xff; 16]);
    assert_eq!(
        decode_value(&ctx, ty, &input),
        Ok(ferroscale_value::Value::UInt(u128::MAX))
    );
}

/// Metadata claiming 2^30 registry types (the count right after the magic
/// and version byte), and framings claiming 2^30 bytes: both loaders (core's
/// `Metadata` and the dynamic layer's registry import) refuse them with an
/// error and without allocating what they claim.
#[test]
fn metadata_with_a_2_pow_30_type_count() {
    use ferroscale_metadata::Metadata;

    let real = ferroscale_fixtures::read("metadata/polkadot-v14-spec9180.scale");
    // Magic, version 14, then the type count: a compact that is 2 bytes long
    // in the real blob (~700 types). Replace it by 2^30.
    let mut hostile = real[..5].to_vec();
    hostile.extend_from_slice(&compact(1 << 30));
    hostile.extend_from_slice(&real[7..]);
    let (r, peak) = measure(|| Metadata::from_bytes(&hostile));
    match r {
        Err(ferroscale_metadata::Error::Metadata { .. }) => {}
        other => panic!(
            "expected a metadata error, got {:?}",
            other.map(|m| m.version)
        ),
    }
    assert!(peak < 64 * MIB, "core: peak {} MiB", peak / MIB);
    let (r, peak_import) = measure(|| {
        let mut g = TypeGraph::new();
        import_metadata_bytes(&mut g, &hostile).map(|_| g.len())
    });
    assert!(matches!(r, Err(Error::Metadata(_))), "{r:?}");
    assert!(
        peak_import < 64 * MIB,
        "dynamic: peak {} MiB",
        peak_import / MIB
    );
    println!("2^30 type count: peak {peak} bytes (core), {peak_import} bytes (dynamic import)");

    // Only the claim, 16 bytes in all.
    let mut tiny = b"meta\x0e".to_vec();
    tiny.extend_from_slice(&compact(1 << 30));
    tiny.resize(16, 0);
    let (r, peak) = measure(|| Metadata::from_bytes(&tiny).map(|m| m.version));
    assert!(r.is_err());
    assert!(peak < SMALL, "peak {peak}");
    let (r, peak) = measure(|| import_metadata_bytes(&mut TypeGraph::new(), &tiny).map(|_| ()));
    assert!(r.is_err());
    assert!(peak < SMALL, "peak {peak}");

    // OpaqueMetadata / Option<OpaqueMetadata> framings claiming 2^30 bytes,
    // in binary and as hex text.
    for prefix in [vec![], vec![1u8]] {
        let mut framed = prefix.clone();
        framed.extend_from_slice(&compact(1 << 30));
        framed.extend_from_slice(b"meta\x0e\x00");
        let (r, peak) = measure(|| Metadata::from_bytes(&framed).map(|m| m.version));
        assert!(r.is_err());
        assert!(peak < SMALL, "peak {peak}");
        let hex = ferroscale_core::hex::encode_prefixed(&framed);
        let (r, peak) = measure(|| Metadata::load(hex.as_bytes()).map(|m| m.version));
        assert!(r.is_err());
        assert!(peak < SMALL, "peak {peak}");
    }
}

/// A real runtime's calls nested 300 deep (`Utility.batch` of one
/// `Utility.batch` of one …), a few bytes per level, decoded on a thread
/// whose stack is a quarter larger than the decoder's stack budget: an
/// error naming the limit, never a stack overflow (which aborts the
/// process). Each call level costs several walker frames, more in a debug
/// build than in a release one, so the nesting limit alone does not bound
/// the stack (in a debug build these 256 levels need about 1.5 MiB); the
/// stack budget does, in both builds.
#[test]
fn nested_calls_of_a_real_runtime_stop_within_a_spawned_threads_stack() {
    use ferroscale_dynamic::registry::Registry;
    use ferroscale_metadata::Metadata;
    let md = Metadata::load(&ferroscale_fixtures::read(
        "metadata/polkadot-v14-spec1000001.scale",
    ))
    .unwrap();
    // The call's pallet and variant index.
    let index = |pallet: &str, call: &str| {
        let calls = md.pallet(pallet).unwrap().call_enum.as_ref().unwrap();
        let v = calls.variants.iter().find(|v| v.name == call).unwrap();
        [calls.pallet_index, v.index]
    };
    let nested = |levels: usize| {
        let (batch, remark) = (index("Utility", "batch"), index("System", "remark"));
        ferroscale_test_support::nesting::nested_batch_calls(batch, remark, levels)
    };
    let mut registry = Registry::from_metadata(&md).unwrap();
    registry
        .decode("Call", &nested(10))
        .expect("ten nested batches decode");

    let deep = nested(300);
    let result = std::thread::Builder::new()
        .stack_size(ferroscale_dynamic::DEFAULT_STACK_BUDGET / 4 * 5)
        .spawn(move || registry.decode("Call", &deep).map(|_| ()))
        .expect("thread")
        .join()
        .expect("no panic");
    let text = result
        .expect_err("300 levels are past the limits")
        .to_string();
    assert!(
        text.contains("nesting deeper than the limit") || text.contains("stack budget"),
        "{text}"
    );
}
