//! `cargo xtask summary FILE`: load a metadata file (binary or hex text, any
//! framing `Metadata::load` accepts) and print its version, spec, type count
//! and one line per pallet.

use std::fmt::Write as _;

use ferroscale_metadata::Metadata;

/// Runs the command: `args` is `[FILE]`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let [path] = args else {
        return Err("usage: cargo xtask summary FILE  (metadata, binary or 0x hex)".into());
    };
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let metadata = Metadata::load(&bytes).map_err(|e| format!("{path}: {e}"))?;
    print!("{}", render(path, &metadata));
    Ok(())
}

/// The summary as text: a header, then a table of pallets.
fn render(path: &str, m: &Metadata) -> String {
    let mut out = String::new();
    let spec = match &m.runtime_version {
        Some(v) => format!("{} {}", v.spec_name, v.spec_version),
        None => "unknown (no System.Version constant)".into(),
    };
    let types = match &m.types {
        Some(t) => t.types.len().to_string(),
        None => "none (legacy metadata: types are strings)".into(),
    };
    // Writing into a String cannot fail.
    let _ = writeln!(out, "file:     {path}");
    let _ = writeln!(out, "metadata: V{}", m.version);
    let _ = writeln!(out, "spec:     {spec}");
    let _ = writeln!(out, "types:    {types}");
    let _ = writeln!(out, "pallets:  {}", m.pallets.len());
    if m.version >= 15 {
        let _ = writeln!(out, "apis:     {}", m.apis.len());
    }
    let _ = writeln!(out);
    let name_width = m
        .pallets
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max("pallet".len());
    let _ = writeln!(
        out,
        "{:>5}  {:<name_width$}  {:>5}  {:>6}  {:>6}  {:>9}  {:>7}",
        "index", "pallet", "calls", "events", "errors", "constants", "storage"
    );
    for p in &m.pallets {
        let _ = writeln!(
            out,
            "{:>5}  {:<name_width$}  {:>5}  {:>6}  {:>6}  {:>9}  {:>7}",
            p.index,
            p.name,
            p.calls().len(),
            p.events().len(),
            p.errors().len(),
            p.constants.len(),
            p.storage_entries().len()
        );
    }
    out
}
