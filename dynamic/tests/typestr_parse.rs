//! Type-string parsing: canonical forms, ASTs, py-scale-codec's rewrites,
//! errors with offsets, and the depth cap.

use ferroscale_dynamic::typestr::{parse, parse_key, TypeExpr, MAX_DEPTH};
use ferroscale_test_support::Xorshift;

fn p(name: &str) -> TypeExpr {
    TypeExpr::path(name)
}

fn g(base: &str, args: Vec<TypeExpr>) -> TypeExpr {
    TypeExpr::Generic(base.into(), args)
}

#[test]
fn canonical_forms() {
    let table: &[(&str, &str)] = &[
        ("u32", "u32"),
        ("  Vec< u32 >  ", "Vec<u32>"),
        ("Compact<Balance>", "Compact<Balance>"),
        (
            "Option<(AccountId,Balance)>",
            "Option<(AccountId, Balance)>",
        ),
        ("Result<u32,  DispatchError>", "Result<u32, DispatchError>"),
        ("Box<Call>", "Call"),
        ("Box<Box<Vec<Box<u8>>>>", "Bytes"),
        ("Vec<u8>", "Bytes"),
        ("vec<U8>", "Bytes"),
        ("VecDeque<u32>", "Vec<u32>"),
        ("&[u8]", "Bytes"),
        ("& 'static[u8]", "Bytes"),
        ("&'static [u8]", "Bytes"),
        ("()", "Null"),
        ("Vec<()>", "Vec<Null>"),
        ("(u32, (u64, bool), ())", "(u32, (u64, bool), Null)"),
        ("(AccountId)", "(AccountId)"),
        ("(A, B,)", "(A, B)"),
        ("[u8; 32]", "[u8; 32]"),
        ("[u8;32]", "[u8; 32]"),
        ("[(u32, u64); 3]", "[(u32, u64); 3]"),
        ("BTreeMap<AccountId, Vec<u8>>", "BTreeMap<AccountId, Bytes>"),
        (
            "BoundedVec<T::AccountId, T::MaxMembers>",
            "BoundedVec<AccountId, MaxMembers>",
        ),
        ("T::Balance", "Balance"),
        ("<T as Trait>::Balance", "Balance"),
        ("<T as Trait<I>>::Proposal", "Proposal"),
        ("<T as Config>::Hash", "Hash"),
        ("<T as Config<I>>::Balance", "Balance"),
        ("Vec<<T as Trait>::AccountId>", "Vec<AccountId>"),
        ("<Balance as HasCompact>::Type", "Compact<Balance>"),
        ("<BlockNumber as HasCompact>::Type", "Compact<BlockNumber>"),
        ("<T::Lookup as StaticLookup>::Source", "LookupSource"),
        (
            "<InherentOfflineReport as InherentOfflineReport>::Inherent",
            "InherentOfflineReport",
        ),
        (
            "<AuthorityId as RuntimeAppPublic>::Signature",
            "<AuthorityId as RuntimeAppPublic>::Signature",
        ),
        ("session::SessionIndex", "SessionIndex"),
        ("xcm::opaque::Xcm", "Xcm"),
        ("Vec<grandpa::AuthorityId>", "Vec<AuthorityId>"),
        ("sp_runtime::DispatchError", "sp_runtime::DispatchError"),
        (
            "frame_support :: weights :: Weight",
            "frame_support::weights::Weight",
        ),
        (
            "Vec<\n  (AccountId,\n   Balance)\n>",
            "Vec<(AccountId, Balance)>",
        ),
        ("scale_info::42", "scale_info::42"),
        ("Vec<scale_info::7>", "Vec<scale_info::7>"),
        ("*::Call", "*::Call"),
        ("Asset.Balance", "Asset.Balance"),
        ("RawEvent<T>", "RawEvent"),
        ("WeakBoundedVec<u8, S>", "WeakBoundedVec<u8, S>"),
        ("HashMap<Text, Text>", "HashMap<Text, Text>"),
        ("BTreeSet<AuthorityId>", "BTreeSet<AuthorityId>"),
    ];
    for (input, canonical) in table {
        let expr = parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(&expr.to_string(), canonical, "input {input:?}");
        // The canonical form is a fixed point.
        assert_eq!(parse(canonical).unwrap(), expr, "reparse of {canonical:?}");
    }
}

#[test]
fn asts() {
    assert_eq!(parse("scale_info::12").unwrap(), TypeExpr::ScaleInfo(12));
    assert_eq!(
        parse("BTreeMap<K, Vec<(u8, bool)>>").unwrap(),
        g(
            "BTreeMap",
            vec![
                p("K"),
                g("Vec", vec![TypeExpr::Tuple(vec![p("u8"), p("bool")])])
            ]
        )
    );
    assert_eq!(
        parse("[Option<H256>; 4]").unwrap(),
        TypeExpr::Array(Box::new(g("Option", vec![p("H256")])), 4)
    );
    assert_eq!(
        parse("<X as Foo<Y>>::Z").unwrap(),
        TypeExpr::Qualified {
            self_ty: Box::new(p("X")),
            trait_ty: Box::new(g("Foo", vec![p("Y")])),
            assoc: "Z".into()
        }
    );
    assert_eq!(parse("()").unwrap(), p("Null"));
    assert_eq!(parse("(u8)").unwrap(), TypeExpr::Tuple(vec![p("u8")]));
}

#[test]
fn keys_are_not_rewritten() {
    assert_eq!(parse_key("()").unwrap(), TypeExpr::Tuple(vec![]));
    assert_eq!(parse_key("&[u8]").unwrap(), TypeExpr::ByteSlice);
    assert_eq!(parse_key("&[u8]").unwrap().to_string(), "&[u8]");
    assert_eq!(
        parse_key("<T as Trait<I>>::Proposal").unwrap().to_string(),
        "<T as Trait<I>>::Proposal"
    );
    assert_eq!(parse_key("Vec<u8>").unwrap().to_string(), "Vec<u8>");
    assert_eq!(
        parse_key("slashing::SpanIndex").unwrap().to_string(),
        "slashing::SpanIndex"
    );
    assert_eq!(
        parse_key("ReferendumInfo<BlockNumber,  Hash>")
            .unwrap()
            .key(),
        "referenduminfo<blocknumber, hash>"
    );
}

#[test]
fn errors_point_at_the_failure() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "empty"),
        ("   ", 3, "empty"),
        ("Vec<u32", 7, "expected ',' or '>'"),
        ("Vec<u32>>", 8, "unexpected '>'"),
        ("Vec<>", 4, "needs a type argument"),
        ("(u32, )x", 7, "unexpected 'x'"),
        ("(u32 u64)", 5, "expected ',' or ')'"),
        ("[u8; ]", 5, "array length"),
        ("[u8 32]", 4, "expected ';'"),
        ("[u8; 99999999999999999999]", 5, "64 bits"),
        ("Option<,u8>", 7, "expected a type"),
        ("&[u16]", 2, "only &[u8]"),
        ("<A is B>::C", 3, "expected 'as'"),
        ("<A as B>C", 8, "expected '::'"),
        ("Vec<<T as Trait>::Balance", 25, "expected ',' or '>'"),
        ("Map<u8, #>", 8, "expected a type"),
    ];
    for (input, offset, needle) in cases {
        let err = parse(input).expect_err(input);
        assert_eq!(err.offset, *offset, "offset for {input:?}: {err}");
        assert!(err.message.contains(needle), "{input:?}: {err}");
        let shown = err.to_string();
        assert!(shown.contains(&format!("offset {offset}")), "{shown}");
    }
    // The caret sits under the failing byte.
    let err = parse("Vec<(u32, u64]>").unwrap_err();
    assert_eq!(err.offset, 13);
    assert_eq!(err.excerpt(), "Vec<(u32, u64]>\n             ^");
}

#[test]
fn offsets_survive_textual_rewrites() {
    // `<T as Trait>::` (14 bytes) is removed before parsing; the error still
    // points into the caller's string.
    let input = "Vec<<T as Trait>::Balance, %>";
    let err = parse(input).unwrap_err();
    assert_eq!(&input[err.offset..err.offset + 1], "%");
}

#[test]
fn hostile_nesting_fails_cleanly() {
    for depth in [MAX_DEPTH + 1, 10_000, 100_000] {
        let input = format!("{}u8{}", "Vec<".repeat(depth), ">".repeat(depth));
        let err = parse(&input).unwrap_err();
        assert!(err.message.contains("deeper than"), "{err}");
        assert_eq!(err.offset, 4 * MAX_DEPTH);
        let tuples = format!("{}u8{}", "(".repeat(depth), ")".repeat(depth));
        assert!(parse(&tuples).is_err());
        let arrays = format!("{}u8{}", "[".repeat(depth), "; 1]".repeat(depth));
        assert!(parse(&arrays).is_err());
    }
    // Exactly at the cap still parses.
    let ok = format!(
        "{}u8{}",
        "Option<".repeat(MAX_DEPTH - 1),
        ">".repeat(MAX_DEPTH - 1)
    );
    assert_eq!(parse(&ok).unwrap().depth(), MAX_DEPTH);
}

#[test]
fn random_strings_never_panic_and_canonical_forms_are_stable() {
    const PIECES: &[&str] = &[
        "Vec",
        "<",
        ">",
        "(",
        ")",
        "[",
        "]",
        ";",
        ",",
        " ",
        "\n",
        "u8",
        "32",
        "T::",
        "<T as Trait>::",
        "Box",
        "Option",
        "::",
        "&",
        "'static",
        "as",
        "scale_info::",
        "7",
        "é",
        "日本",
        "BTreeMap",
        "HasCompact",
        "Type",
        "*",
        ".",
        "()",
        "Compact",
        "<T>",
        "VecDeque<",
    ];
    // Seeded, so a failure reproduces.
    let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    let (mut parsed, mut refused) = (0, 0);
    for _ in 0..20_000 {
        let len = 1 + rng.below(12);
        let input: String = (0..len).map(|_| *rng.pick(PIECES)).collect();
        match parse(&input) {
            Ok(expr) => {
                parsed += 1;
                let canonical = expr.to_string();
                let again =
                    parse(&canonical).unwrap_or_else(|e| panic!("{input:?} → {canonical:?}: {e}"));
                assert_eq!(again.to_string(), canonical, "{input:?}");
            }
            Err(e) => {
                refused += 1;
                assert!(e.offset <= input.len(), "{input:?}: {e}");
                assert!(input.is_char_boundary(e.offset), "{input:?}: {e}");
                let _ = e.to_string();
            }
        }
    }
    println!("{parsed} random strings parsed, {refused} refused");
    assert!(parsed > 100 && refused > 100);
}
