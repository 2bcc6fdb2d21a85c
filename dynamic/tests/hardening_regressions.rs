//! Regression tests for defects the hardening work found in the dynamic
//! layer (by reading the code, the smoke fuzz or cargo-fuzz). Each names the
//! input that broke and checks the behaviour it must have now.

#[path = "../../core/tests/hardening_support/mod.rs"]
mod hardening_support;

use std::sync::mpsc;
use std::time::Duration;

use ferroscale_dynamic::typestr::{convert_type_string, parse, parse_key};
use ferroscale_dynamic::{decode_value, Context, Error, Node, TypeGraph, TypeIdx};
use hardening_support::{measure, PeakAlloc, MIB};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// Runs `f` on its own thread and fails the test if it has not returned
/// within `secs` seconds (a hang must be a failure, not a stuck CI job).
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("did not finish within {secs} s"))
}

/// `convert_type_string` sliced the type name at byte 4 to test for `Box<`,
/// which panics when byte 4 falls inside a multi-byte UTF-8 character. Type
/// names come from metadata (hostile input), so this was a panic reachable
/// from `import_metadata`.
#[test]
fn convert_type_string_with_multibyte_char_at_byte_4() {
    for name in [
        "abc\u{e9}xyz",
        "Box\u{e9}<u8>",
        "\u{1F600}\u{1F600}>",
        "Bo\u{e9}<T>",
    ] {
        let r = std::panic::catch_unwind(|| convert_type_string(name));
        assert!(r.is_ok(), "convert_type_string({name:?}) panicked");
    }
    assert_eq!(convert_type_string("Box<\u{e9}>"), "\u{e9}");
}

/// `Vec<Vec<()>>`: every inner length prefix may claim up to 65,536
/// zero-sized elements in 3–4 bytes, so a few hundred input bytes made the
/// decoder build millions of values (hundreds of MB). Work on zero-sized
/// elements must be bounded per decode, not per sequence.
#[test]
fn nested_sequences_of_zero_sized_elements_stay_small() {
    let mut g = TypeGraph::new();
    let unit = g.add(Node::Null, Some("()".into()));
    let inner = g.add(Node::Seq(unit), Some("Vec<()>".into()));
    let outer = g.add(Node::Seq(inner), Some("Vec<Vec<()>>".into()));
    // 100 inner sequences of 65,536 units each: 6,553,600 values from 401 bytes.
    let mut input = vec![100 << 2];
    for _ in 0..100 {
        input.extend_from_slice(&((65_536u32 << 2) | 2).to_le_bytes());
    }
    let ctx = Context::new(&g);
    let (r, peak) = measure(|| decode_value(&ctx, outer, &input));
    println!(
        "Vec<Vec<()>> from {} bytes: {:?}, peak {peak} bytes",
        input.len(),
        r.as_ref().map(|_| "Ok").map_err(|e| e.to_string())
    );
    assert!(
        r.is_err(),
        "6.5 million () from 401 bytes should be refused"
    );
    assert!(peak < 16 * MIB, "peak {} MiB", peak / MIB);
}

/// `[(); 4294967295]`: a fixed-size array of zero-sized elements passes the
/// "enough bytes left" check (0 bytes needed) and then loops four billion
/// times. It must be refused (or finish) quickly.
#[test]
fn huge_array_of_zero_sized_elements_does_not_hang() {
    let r = within(20, || {
        let mut g = TypeGraph::new();
        let unit = g.add(Node::Null, Some("()".into()));
        let arr = g.add(Node::Array(unit, u32::MAX), Some("[(); 4294967295]".into()));
        let ctx = Context::new(&g);
        decode_value(&ctx, arr, &[]).map(|_| ())
    });
    assert!(
        matches!(r, Err(Error::Invalid { .. } | Error::NotEnoughBytes { .. })),
        "{r:?}"
    );
    let _ = TypeIdx(0);
}

/// Found by the `typestr` fuzz target on its first seed run (a real Kusama
/// crowdloan type name with a line break): it was the harness's property that
/// was wrong, not the parser. py-scale-codec drops `<T>` before it removes
/// line breaks (`convert_type_string`), so `LeasePeriodOf<\nT>` keeps its
/// `<T>`, while `LeasePeriodOf<T>` written directly loses it: the textual
/// rewrites apply once, to the caller's string, and a canonical form is
/// read back without them (`parse_key`), giving itself.
#[test]
fn canonical_form_of_a_type_name_with_a_line_break() {
    let text = "FundInfo<T::AccountId, BalanceOf<T>, T::BlockNumber, LeasePeriodOf<\nT>>";
    let canonical = parse(text).expect("parses").to_string();
    assert_eq!(
        canonical,
        "FundInfo<AccountId, BalanceOf, BlockNumber, LeasePeriodOf<T>>"
    );
    assert_eq!(
        parse_key(&canonical).expect("reads back").to_string(),
        canonical
    );
    assert_eq!(
        parse(&canonical).expect("parses").to_string(),
        "FundInfo<AccountId, BalanceOf, BlockNumber, LeasePeriodOf>"
    );
}
