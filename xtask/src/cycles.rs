//! `cargo xtask cycles`: no import cycles between the modules of any crate.
//!
//! The rule (ARCHITECTURE.md): within every module, its child modules
//! depend on each other one way only. A file's references to other modules
//! are its `crate::…`, `super::…` and `self::…` paths (in `use` items and
//! in code, comments and strings left out); a reference from inside child
//! `a` of module `m` to something inside child `b` of `m` is an edge
//! `a → b` of `m`'s children. References to a module's own ancestors or
//! descendants are not edges (a parent declares and re-exports its
//! children). Every crate of the workspace is checked, generated chains
//! included, and so are the packages the workspace excludes (`fuzz/`); each
//! cycle is printed with a file that makes each edge.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::workspace::workspace_root;

/// The crates whose modules are checked: the root package, every workspace
/// member (the `members = [...]` line of the root `Cargo.toml`) and the
/// packages kept out of the workspace (`exclude = [...]`: `fuzz/`, a
/// cargo-fuzz package with a workspace of its own).
fn crates(root: &Path) -> Result<Vec<String>, String> {
    let manifest = root.join("Cargo.toml");
    let text = fs::read_to_string(&manifest)
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    let list = |key: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(&format!("{key} = [")))
            .map(|line| {
                line.split('"')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
    };
    let members = list("members")
        .ok_or_else(|| format!("{} has no `members = [...]` line", manifest.display()))?;
    let mut out = vec![".".to_owned()];
    out.extend(members);
    out.extend(list("exclude").unwrap_or_default());
    Ok(out)
}

/// A module path below the crate root (`["registry", "resolve"]`).
type ModPath = Vec<String>;

/// An edge between two children of one module, with the file that makes it.
type Edges = BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, PathBuf>>>;

/// Checks every crate of the workspace (or of the checkout at the first
/// argument, e.g. an older worktree).
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let root = args.first().map_or_else(workspace_root, PathBuf::from);
    let mut problems = Vec::new();
    let mut checked = 0;
    let crates = crates(&root)?;
    for krate in &crates {
        let src = root.join(krate).join("src");
        if !src.is_dir() {
            continue;
        }
        let modules = modules_of(&src)?;
        checked += modules.len();
        problems.extend(cycles_in(krate, &modules)?);
    }
    if problems.is_empty() {
        eprintln!(
            "module cycles: none ({checked} modules in {} crates)",
            crates.len()
        );
        Ok(())
    } else {
        Err(format!(
            "import cycles between modules:\n{}",
            problems.join("\n")
        ))
    }
}

/// Every module file of a crate's `src/`: its module path and file.
fn modules_of(src: &Path) -> Result<BTreeMap<ModPath, PathBuf>, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).map_err(|e| e.to_string())?;
                out.insert(module_path(rel), path);
            }
        }
    }
    // `src/bin/*.rs` are crate roots of their own, not modules of the library.
    out.retain(|m, _| m.first().is_none_or(|f| f != "bin"));
    Ok(out)
}

/// `lib.rs`/`main.rs` → `[]`, `a/mod.rs` → `[a]`, `a/b.rs` → `[a, b]`.
fn module_path(rel: &Path) -> ModPath {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let file = parts.pop().unwrap_or_default();
    let stem = file.trim_end_matches(".rs");
    if !(matches!(stem, "mod") || (parts.is_empty() && matches!(stem, "lib" | "main"))) {
        parts.push(stem.to_owned());
    }
    parts
}

/// The cycles of one crate, as printable lines.
fn cycles_in(krate: &str, modules: &BTreeMap<ModPath, PathBuf>) -> Result<Vec<String>, String> {
    let known: BTreeSet<&ModPath> = modules.keys().collect();
    let mut edges: Edges = BTreeMap::new();
    for (from, file) in modules {
        let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let is_dir_module = file
            .file_name()
            .is_some_and(|f| f == "mod.rs" || from.is_empty());
        for reference in references(&strip_comments_and_strings(&text)) {
            let Some(target) = resolve(from, is_dir_module, &reference, &known) else {
                continue;
            };
            let common = from.iter().zip(&target).take_while(|(a, b)| a == b).count();
            // Ancestor or descendant: not an edge between siblings.
            if common == from.len() || common == target.len() {
                continue;
            }
            edges
                .entry(from[..common].to_vec())
                .or_default()
                .entry(from[common].clone())
                .or_default()
                .entry(target[common].clone())
                .or_insert_with(|| file.clone());
        }
    }
    let mut out = Vec::new();
    for (parent, graph) in &edges {
        for cycle in find_cycles(graph) {
            let name = |m: &String| {
                let mut p = parent.clone();
                p.push(m.clone());
                p.join("::")
            };
            let mut steps = Vec::new();
            for pair in cycle.windows(2) {
                let file = &graph[&pair[0]][&pair[1]];
                steps.push(format!(
                    "    {} -> {} ({})",
                    name(&pair[0]),
                    name(&pair[1]),
                    file.display()
                ));
            }
            out.push(format!("  crate {krate}:\n{}", steps.join("\n")));
        }
    }
    Ok(out)
}

/// One cycle per strongly connected component with more than one member,
/// as a closed walk (first = last).
fn find_cycles(graph: &BTreeMap<String, BTreeMap<String, PathBuf>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = graph
        .iter()
        .flat_map(|(a, targets)| std::iter::once(a).chain(targets.keys()))
        .collect();
    let mut reported: BTreeSet<String> = BTreeSet::new();
    let mut cycles = Vec::new();
    for start in nodes {
        if reported.contains(start) {
            continue;
        }
        // Breadth-first from `start`'s successors back to `start`.
        let mut previous: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue: Vec<&String> = vec![start];
        let mut found = false;
        while !queue.is_empty() && !found {
            let mut next = Vec::new();
            for n in queue {
                for m in graph.get(n).into_iter().flat_map(|t| t.keys()) {
                    if m == start {
                        previous.insert(start, n);
                        found = true;
                        break;
                    }
                    if !previous.contains_key(m) {
                        previous.insert(m, n);
                        next.push(m);
                    }
                }
                if found {
                    break;
                }
            }
            queue = next;
        }
        if found {
            let mut walk = vec![start.clone()];
            let mut at = previous[start];
            while at != start {
                walk.push(at.clone());
                at = previous[at];
            }
            walk.push(start.clone());
            walk.reverse();
            reported.extend(walk.iter().cloned());
            cycles.push(walk);
        }
    }
    cycles
}

/// The module a path (`crate::a::b::Item`, `super::x`, `self::y`) points
/// into: the longest prefix that is a module of the crate.
fn resolve(
    from: &ModPath,
    is_dir_module: bool,
    reference: &[String],
    known: &BTreeSet<&ModPath>,
) -> Option<ModPath> {
    let (mut base, rest): (ModPath, &[String]) = match reference.first()?.as_str() {
        "crate" => (Vec::new(), &reference[1..]),
        "self" if is_dir_module => (from.clone(), &reference[1..]),
        "self" => return None,
        "super" => {
            // In `a/b.rs`, `super` is `a`; in `a/b/mod.rs` it is `a` too.
            let mut base = from.clone();
            let mut rest = reference;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
            (base, rest)
        }
        _ => return None,
    };
    let mut best = base.clone();
    for segment in rest {
        base.push(segment.clone());
        if known.contains(&base) {
            best = base.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// Every `crate::`/`super::`/`self::` path of the text, with `{…}` groups
/// expanded (`crate::{a::X, b}` gives `crate::a::X` and `crate::b`).
fn references(text: &str) -> Vec<Vec<String>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let at_word_start = i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != b':';
        if !(at_word_start && is_ident(bytes[i])) {
            i += 1;
            continue;
        }
        let (path, end) = read_path(text, i);
        let rooted = path
            .first()
            .is_some_and(|s| matches!(s.as_str(), "crate" | "super" | "self"));
        if rooted && text[end..].starts_with("::{") {
            let close = matching_brace(bytes, end + 2);
            out.extend(group(&path, &text[end + 3..close]));
            i = close + 1;
            continue;
        }
        if rooted && path.len() > 1 {
            out.push(path);
        }
        i = end.max(i + 1);
    }
    out
}

/// The paths of a `use` group's items (`a::X, b, c::{d::Y}`) under `prefix`.
fn group(prefix: &[String], items: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for item in split_top_level(items) {
        let item = item.trim();
        let (segments, end) = read_path(item, 0);
        let mut path = prefix.to_vec();
        path.extend(segments.into_iter().filter(|s| s != "self"));
        if item[end..].starts_with("::{") {
            let close = matching_brace(item.as_bytes(), end + 2);
            out.extend(group(&path, &item[end + 3..close]));
        } else {
            out.push(path);
        }
    }
    out
}

/// The `::`-separated identifiers starting at `start`, and where they end.
fn read_path(text: &str, start: usize) -> (Vec<String>, usize) {
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let mut i = start;
    loop {
        let s = i;
        while i < bytes.len() && is_ident(bytes[i]) {
            i += 1;
        }
        if s == i {
            break;
        }
        parts.push(text[s..i].to_owned());
        if text[i..].starts_with("::") && i + 2 < bytes.len() && is_ident(bytes[i + 2]) {
            i += 2;
        } else {
            break;
        }
    }
    (parts, i)
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn matching_brace(bytes: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    bytes.len()
}

fn split_top_level(group: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, b) in group.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&group[start..]);
    out
}

/// The text with comments and string/char literals blanked (so that a path
/// in a doc comment or a message is not a reference).
fn strip_comments_and_strings(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < bytes.len() {
                if bytes[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if bytes[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if bytes[i] == b'r'
            && (bytes[i + 1..].starts_with(b"\"") || bytes[i + 1..].starts_with(b"#"))
            && (i == 0 || !is_ident(bytes[i - 1]))
        {
            // Raw string: r"…" or r#"…"#.
            let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
            let open = i + 1 + hashes;
            if bytes.get(open) != Some(&b'"') {
                out.push(bytes[i]);
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            i = open + 1;
            while i < bytes.len() && !bytes[i..].starts_with(&close) {
                i += 1;
            }
            i += close.len();
            out.extend_from_slice(b"\"\"");
        } else if bytes[i] == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.extend_from_slice(b"\"\"");
        } else if bytes[i] == b'\'' && bytes.get(i + 2) == Some(&b'\'') {
            i += 3;
        } else if bytes[i] == b'\'' && bytes.get(i + 1) == Some(&b'\\') {
            i += 2;
            while i < bytes.len() && bytes[i] != b'\'' {
                i += 1;
            }
            i += 1;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(paths: &[&[&str]]) -> Vec<ModPath> {
        paths
            .iter()
            .map(|p| p.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn references_expand_groups_and_skip_comments_and_strings() {
        let text = "use crate::{a::X, b, c::{d::Y}};\n// crate::zz\nlet s = \"crate::yy\";\nsuper::e::f();";
        let refs: Vec<String> = references(&strip_comments_and_strings(text))
            .into_iter()
            .map(|p| p.join("::"))
            .collect();
        assert!(refs.contains(&"crate::a::X".to_owned()), "{refs:?}");
        assert!(refs.contains(&"crate::b".to_owned()), "{refs:?}");
        assert!(refs.contains(&"crate::c::d::Y".to_owned()), "{refs:?}");
        assert!(refs.contains(&"super::e::f".to_owned()), "{refs:?}");
        assert!(
            !refs.iter().any(|r| r.contains("zz") || r.contains("yy")),
            "{refs:?}"
        );
    }

    #[test]
    fn a_cycle_between_siblings_is_found_and_parent_links_are_not() {
        let mods = known(&[&[], &["a"], &["b"], &["c"], &["c", "d"]]);
        let set: BTreeSet<&ModPath> = mods.iter().collect();
        let a = vec!["a".to_owned()];
        let to_b = resolve(&a, false, &known(&[&["crate", "b", "X"]])[0], &set);
        assert_eq!(to_b, Some(vec!["b".to_owned()]));
        let d = vec!["c".to_owned(), "d".to_owned()];
        let to_parent = resolve(&d, false, &known(&[&["super", "Y"]])[0], &set);
        assert_eq!(to_parent, Some(vec!["c".to_owned()]));
        let mut graph: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
        graph
            .entry("a".into())
            .or_default()
            .insert("b".into(), "a.rs".into());
        graph
            .entry("b".into())
            .or_default()
            .insert("c".into(), "b.rs".into());
        assert!(find_cycles(&graph).is_empty());
        graph
            .entry("c".into())
            .or_default()
            .insert("a".into(), "c.rs".into());
        let cycles = find_cycles(&graph);
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0].first(), cycles[0].last());
        assert_eq!(cycles[0].len(), 4);
    }
}
