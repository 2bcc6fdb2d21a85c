//! Turning metadata names (paths, fields, variants, generic parameters) into
//! valid Rust identifiers, deterministically.

use proc_macro2::{Ident, Span};

/// Words that cannot be plain identifiers; they become raw identifiers (`r#type`).
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
    "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn",
    "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
    "virtual", "yield", "try", "gen",
];

/// Words that cannot even be raw identifiers; they get a trailing underscore.
const RESERVED: &[&str] = &["self", "Self", "super", "crate", "_"];

/// A valid identifier for `name`: characters outside `[A-Za-z0-9_]` become
/// `_`, a leading digit gets a `_` prefix, keywords become raw identifiers.
pub fn ident(name: &str) -> Ident {
    let text = clean(name);
    if RESERVED.contains(&text.as_str()) {
        Ident::new(&format!("{text}_"), Span::call_site())
    } else if KEYWORDS.contains(&text.as_str()) {
        Ident::new_raw(&text, Span::call_site())
    } else {
        Ident::new(&text, Span::call_site())
    }
}

/// The identifier text without keyword handling (used to build names).
pub fn clean(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `snake_case` of a `CamelCase` name (for module and function names).
pub fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
            if i > 0 && (prev_lower || (prev_upper && next_lower)) {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    clean(&out)
}

/// `SCREAMING_SNAKE_CASE` of a `CamelCase` name (for constants).
pub fn screaming(name: &str) -> String {
    snake(name).to_ascii_uppercase()
}

/// Names made distinct in order: a name seen before gets `_` appended
/// until it is new (two pallets whose names snake-case alike keep both).
pub fn unique_names<I: IntoIterator<Item = String>>(names: I) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    names
        .into_iter()
        .map(|name| unique_in(&mut seen, name))
        .collect()
}

/// `name`, with `_` appended until it is not in `seen`; then kept in `seen`.
pub fn unique_in(seen: &mut std::collections::BTreeSet<String>, mut name: String) -> String {
    while !seen.insert(name.clone()) {
        name.push('_');
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_valid_identifiers() {
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("self").to_string(), "self_");
        assert_eq!(ident("9lives").to_string(), "_9lives");
        assert_eq!(ident("a-b").to_string(), "a_b");
        assert_eq!(snake("ExistentialDeposit"), "existential_deposit");
        assert_eq!(
            snake("MaxNominatorRewardedPerValidator"),
            "max_nominator_rewarded_per_validator"
        );
        assert_eq!(snake("XCMVersion"), "xcm_version");
        assert_eq!(screaming("SS58Prefix"), "SS58_PREFIX");
    }
}
