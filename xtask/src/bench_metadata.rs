//! `cargo xtask bench-metadata [--iterations N] [FILE…]`: how long loading
//! metadata takes. Loads each file N times (default 20) and prints the
//! minimum and median per file. Without files it loads every `*.scale` file in
//! the fixtures' `metadata/` folder (`$FERROSCALE_FIXTURES`, else
//! `../shared/fixtures`). Run it in release for meaningful figures:
//! `cargo run --release -p xtask -- bench-metadata`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ferroscale_metadata::Metadata;

/// Runs the benchmark.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut iterations = 20usize;
    let mut files = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--iterations" | "-n" => {
                let n = args.next().ok_or("--iterations needs a number")?;
                iterations = n
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--iterations: not a positive number: {n}"))?;
            }
            file => files.push(PathBuf::from(file)),
        }
    }
    if files.is_empty() {
        files = fixture_files()?;
    }
    if cfg!(debug_assertions) {
        eprintln!("note: debug build; use `cargo run --release -p xtask -- bench-metadata`");
    }
    println!("{iterations} loads per file (Metadata::from_bytes, bytes already in memory)\n");
    println!(
        "| file | version | KiB | types | min ms | median ms | MB/s (median) |\n|---|---|---|---|---|---|---|"
    );
    for path in files {
        let bytes =
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let metadata = Metadata::load(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        // Time the binary path: hex files are decoded to bytes once, first.
        let binary = match std::str::from_utf8(&bytes) {
            Ok(text) => ferroscale_core::hex::decode(text.trim()).unwrap_or(bytes),
            Err(_) => bytes,
        };
        let mut times: Vec<Duration> = (0..iterations)
            .map(|_| {
                let start = Instant::now();
                let loaded = Metadata::from_bytes(&binary);
                let elapsed = start.elapsed();
                std::hint::black_box(loaded).ok();
                elapsed
            })
            .collect();
        times.sort_unstable();
        let (min, median) = (times[0], times[times.len() / 2]);
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        println!(
            "| {name} | V{} | {:.1} | {} | {:.3} | {:.3} | {:.0} |",
            metadata.version,
            binary.len() as f64 / 1024.0,
            metadata.type_count(),
            ms(min),
            ms(median),
            binary.len() as f64 / 1e6 / median.as_secs_f64()
        );
    }
    Ok(())
}

/// Every `*.scale` file in the fixtures' `metadata/` folder, sorted.
fn fixture_files() -> Result<Vec<PathBuf>, String> {
    let root = ferroscale_fixtures::dir();
    let dir = root.join("metadata");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "scale"))
        .collect();
    files.sort();
    Ok(files)
}
