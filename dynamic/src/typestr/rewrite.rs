//! py-scale-codec's textual rewrites (`convert_type_string`), applied before
//! parsing. Each output byte remembers its offset in the input, so parse
//! errors point into the string the caller wrote.

/// One textual rewrite: every occurrence of `pattern` becomes `replacement`.
struct Rule {
    pattern: &'static str,
    replacement: &'static str,
    /// Matches ASCII case-insensitively (py-scale-codec's `re.IGNORECASE`).
    ignore_case: bool,
    /// Matches only at the start of the string (`^` in py-scale-codec's regex).
    at_start: bool,
}

/// The rules in py-scale-codec 1.2.12's order. The `^(grandpa|session|…)::`
/// prefixes and `Box<…>` are structural and applied by the parser at every
/// level instead, as py-scale-codec applies them to every sub-type string.
const RULES: &[Rule] = &[
    rule("T::", "", false, false),
    rule("T::", "", true, true),
    rule("<T>", "", true, false),
    rule("<T as Trait>::", "", true, false),
    rule("<T as Trait<I>>::", "", true, false),
    rule("<T as Config>::", "", true, false),
    rule("<T as Config<I>>::", "", true, false),
    rule("\n", "", false, false),
    rule("VecDeque<", "Vec<", true, false),
];

const fn rule(
    pattern: &'static str,
    replacement: &'static str,
    ignore_case: bool,
    at_start: bool,
) -> Rule {
    Rule {
        pattern,
        replacement,
        ignore_case,
        at_start,
    }
}

fn matches_at(text: &[u8], at: usize, rule: &Rule) -> bool {
    let pat = rule.pattern.as_bytes();
    match text.get(at..at + pat.len()) {
        Some(window) if rule.ignore_case => window.eq_ignore_ascii_case(pat),
        Some(window) => window == pat,
        None => false,
    }
}

/// Where the first match of `rule` in `text` starts, if any.
fn first_match(text: &[u8], rule: &Rule) -> Option<usize> {
    if rule.at_start {
        return matches_at(text, 0, rule).then_some(0);
    }
    (0..text.len()).find(|&at| matches_at(text, at, rule))
}

/// Applies one rule from its first match `first` on; with `origin`
/// (`origin[i]` the input offset of byte `i`), carries the offsets along.
fn apply(text: &str, origin: Option<&[usize]>, rule: &Rule, first: usize) -> (String, Vec<usize>) {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut out_origin = Vec::with_capacity(if origin.is_some() { bytes.len() } else { 0 });
    out.extend_from_slice(&bytes[..first]);
    if let Some(o) = origin {
        out_origin.extend_from_slice(&o[..first]);
    }
    let mut i = first;
    while i < bytes.len() {
        let (taken, emitted) = if (!rule.at_start || i == 0) && matches_at(bytes, i, rule) {
            (rule.pattern.len(), rule.replacement.as_bytes())
        } else {
            (1, &bytes[i..i + 1])
        };
        out.extend_from_slice(emitted);
        if let Some(o) = origin {
            out_origin.extend(std::iter::repeat_n(o[i], emitted.len()));
        }
        i += taken;
    }
    // Patterns and replacements are ASCII, so cuts fall on char boundaries.
    let out = String::from_utf8(out).expect("ASCII rewrites keep UTF-8 intact");
    (out, out_origin)
}

/// Applies every rule of [`RULES`] in order, carrying input offsets along
/// when `origin` is given. A rule that does not match costs no copy.
fn apply_rules(input: &str, mut origin: Option<Vec<usize>>) -> (String, Option<Vec<usize>>) {
    let mut text = input.to_string();
    for rule in RULES {
        if text.len() < rule.pattern.len() {
            continue;
        }
        if let Some(first) = first_match(text.as_bytes(), rule) {
            let (t, o) = apply(&text, origin.as_deref(), rule, first);
            text = t;
            if origin.is_some() {
                origin = Some(o);
            }
        }
    }
    (text, origin)
}

/// Applies py-scale-codec's textual rewrites to `input`. Returns the rewritten
/// text and, for each of its bytes (plus one past the end), the offset in
/// `input` it came from.
pub fn rewrite_text(input: &str) -> (String, Vec<usize>) {
    let (text, origin) = apply_rules(input, Some((0..input.len()).collect()));
    let mut origin = origin.expect("offsets were asked for");
    origin.push(input.len());
    (text, origin)
}

/// Path prefixes py-scale-codec strips from the start of a type string
/// (`^(grandpa|session|…)::`). The parser strips them from every sub-type
/// string; [`convert_type_string`] from the whole name.
pub(super) const STRIPPED_PREFIXES: &[&str] = &[
    "grandpa::",
    "session::",
    "slashing::",
    "limits::",
    "beefy_primitives::",
    "xcm::opaque::",
];

/// `<Self as Trait>::Assoc` paths py-scale-codec replaces by a plain name
/// (compared ASCII case-insensitively): `(Self, Trait, Assoc, name)`.
pub(super) const QUALIFIED_NAMES: &[(&str, &str, &str, &str)] = &[
    ("Lookup", "StaticLookup", "Source", "LookupSource"),
    (
        "InherentOfflineReport",
        "InherentOfflineReport",
        "Inherent",
        "InherentOfflineReport",
    ),
];

/// The `X` of `<X as HasCompact>::Type` that py-scale-codec's
/// `convert_type_string` turns into `Compact<X>`. The parser reads the form
/// for any `X` (it is the same type); a type *name* shown to the user keeps
/// py-scale-codec's exact list.
const HAS_COMPACT_NAMED: &[&str] = &["Balance", "BlockNumber", "Moment"];

/// Whole names py-scale-codec reads as `Bytes` (lower-cased).
const BYTES_NAMES: &[&str] = &["vec<u8>", "&[u8]", "& 'static[u8]"];

/// py-scale-codec's `convert_type_string`, on a whole type name: the name
/// as py-scale-codec shows it (a call argument's `type`, a storage entry's
/// key and value type), with the same rules [`parse`](super::parse) applies
/// — the textual [`rewrite_text`] rewrites, then the prefix, `Box<…>`, `()`,
/// byte-slice and qualified-path rules — but only at the top level and
/// keeping the name's own spacing, as py-scale-codec does (`T::Balance` →
/// `Balance`, `Vec<u8>` → `Bytes`, `BoundedVec<u8, T::MaxLen>` →
/// `BoundedVec<u8, MaxLen>`).
pub fn convert_type_string(name: &str) -> String {
    let (mut s, _) = apply_rules(name, None);
    if let Some(prefix) = STRIPPED_PREFIXES.iter().find(|p| s.starts_with(**p)) {
        s.drain(..prefix.len());
    }
    // `^Box<(.+)>$`. `get`, not slicing: byte 4 of a hostile name may fall
    // inside a multi-byte character. After an ASCII `Box<` and before the
    // final `>` both cuts are on character boundaries.
    if s.len() > 5 && s.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("Box<")) && s.ends_with('>')
    {
        s = s[4..s.len() - 1].to_string();
    }
    if s == "()" {
        return "Null".into();
    }
    let lower = s.to_ascii_lowercase();
    if BYTES_NAMES.contains(&lower.as_str()) {
        return "Bytes".into();
    }
    if !lower.starts_with('<') {
        // Most names; the qualified forms below all start with `<`.
        return s;
    }
    for &(self_ty, trait_ty, assoc, plain) in QUALIFIED_NAMES {
        if lower == format!("<{self_ty} as {trait_ty}>::{assoc}").to_ascii_lowercase() {
            return plain.into();
        }
    }
    for &x in HAS_COMPACT_NAMED {
        if lower == format!("<{x} as hascompact>::type").to_ascii_lowercase() {
            return format!("Compact<{x}>");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_trait_paths_and_keeps_origins() {
        let (text, origin) = rewrite_text("Vec<<T as Trait>::Balance>");
        assert_eq!(text, "Vec<Balance>");
        assert_eq!(origin[4], 18); // 'B' of Balance in the input
        assert_eq!(*origin.last().unwrap(), 26);
        assert_eq!(rewrite_text("T::AccountId").0, "AccountId");
        assert_eq!(rewrite_text("t::AccountId").0, "AccountId");
        assert_eq!(rewrite_text("VecDeque<u8>").0, "Vec<u8>");
        assert_eq!(rewrite_text("Vec<\n  u8>").0, "Vec<  u8>");
    }

    #[test]
    fn converts_type_names_like_py_scale_codec() {
        assert_eq!(convert_type_string("T::AccountId"), "AccountId");
        assert_eq!(convert_type_string("t::AccountId"), "AccountId");
        assert_eq!(convert_type_string("BalanceOf<T>"), "BalanceOf");
        assert_eq!(convert_type_string("<T as Config>::Balance"), "Balance");
        assert_eq!(convert_type_string("<T as Config<I>>::Hash"), "Hash");
        assert_eq!(
            convert_type_string("Box<<T as Config>::RuntimeCall>"),
            "RuntimeCall"
        );
        assert_eq!(convert_type_string("Vec<u8>"), "Bytes");
        assert_eq!(convert_type_string("& 'static[u8]"), "Bytes");
        assert_eq!(convert_type_string("()"), "Null");
        assert_eq!(
            convert_type_string("AccountIdLookupOf<T>"),
            "AccountIdLookupOf"
        );
        assert_eq!(
            convert_type_string("BoundedVec<u8, T::MaxLen>"),
            "BoundedVec<u8, MaxLen>"
        );
        assert_eq!(
            convert_type_string("<T::Lookup as StaticLookup>::Source"),
            "LookupSource"
        );
        assert_eq!(
            convert_type_string("<T::Balance as HasCompact>::Type"),
            "Compact<Balance>"
        );
        // Only py-scale-codec's three names: a shown name stays as written.
        assert_eq!(
            convert_type_string("<BalanceOf<T> as HasCompact>::Type"),
            "<BalanceOf as HasCompact>::Type"
        );
        assert_eq!(
            convert_type_string("grandpa::AuthorityList"),
            "AuthorityList"
        );
        assert_eq!(convert_type_string("VecDeque<u32>"), "Vec<u32>");
        assert_eq!(convert_type_string("Box<>"), "Box<>");
    }
}
