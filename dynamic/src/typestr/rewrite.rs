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

/// Applies one rule; `origin[i]` is the input offset of output byte `i`.
fn apply(text: &str, origin: &[usize], rule: &Rule) -> (String, Vec<usize>) {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut out_origin = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if (!rule.at_start || i == 0) && matches_at(bytes, i, rule) {
            for &b in rule.replacement.as_bytes() {
                out.push(b);
                out_origin.push(origin[i]);
            }
            i += rule.pattern.len();
        } else {
            out.push(bytes[i]);
            out_origin.push(origin[i]);
            i += 1;
        }
    }
    // Patterns and replacements are ASCII, so cuts fall on char boundaries.
    let out = String::from_utf8(out).expect("ASCII rewrites keep UTF-8 intact");
    (out, out_origin)
}

/// Applies py-scale-codec's textual rewrites to `input`. Returns the rewritten
/// text and, for each of its bytes (plus one past the end), the offset in
/// `input` it came from.
pub fn rewrite_text(input: &str) -> (String, Vec<usize>) {
    let mut text = input.to_string();
    let mut origin: Vec<usize> = (0..input.len()).collect();
    for rule in RULES {
        if text.len() >= rule.pattern.len() {
            let (t, o) = apply(&text, &origin, rule);
            text = t;
            origin = o;
        }
    }
    origin.push(input.len());
    (text, origin)
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
}
