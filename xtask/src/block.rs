//! `cargo xtask block`: the decoding half of the README's main job — a real
//! block printed typed and dynamically.
//!
//! Default: Polkadot block 18,468,942 (spec 1000001, V14 metadata: a
//! parachain inherent, two signed transfers and 58 events).
//! 1. Typed: builds and runs `examples/indexer`, whose types are generated at
//!    compile time from the block's own metadata fixture by `ferroscale::runtime`
//!    and checked against that metadata before anything is decoded. Cargo's
//!    progress shows while it builds (the first build takes minutes).
//! 2. Dynamic: every extrinsic and every event record through a registry
//!    built from the same metadata — no presets, no Python.
//!
//! `--legacy` prints block 5,000,000 instead (spec 30, V12 metadata), which
//! needs the `legacy` and `polkadot` presets (fetched first if missing).
//! Long values are cut unless `--full` is given.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use ferroscale_dynamic::registry::Registry;
use ferroscale_value::Value;

/// Which block to print: fixture files, presets and settings.
struct Block {
    metadata: &'static str,
    extrinsics: &'static str,
    /// `System.Events` of the block, when the fixtures have it.
    events: Option<&'static str>,
    /// Presets a pre-V14 runtime needs; empty: the metadata says everything.
    presets: &'static [&'static str],
    spec: u64,
}

const BLOCK_18468942: Block = Block {
    metadata: "metadata/polkadot-v14-spec1000001.scale",
    extrinsics: "payloads/polkadot-block-18468942/extrinsics.json",
    events: Some("payloads/polkadot-block-18468942/events.hex"),
    presets: &[],
    spec: 1_000_001,
};

const BLOCK_5M: Block = Block {
    metadata: "metadata/polkadot-v12-spec30.scale",
    extrinsics: "payloads/polkadot-block-5000000/extrinsics.json",
    events: None,
    presets: &["core", "legacy", "polkadot"],
    spec: 30,
};

fn fixture(name: &str) -> Result<PathBuf, String> {
    let path = ferroscale_fixtures::dir().join(name);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "fixture {name} not found at {} (set {} to the fixtures folder)",
            path.display(),
            ferroscale_fixtures::ENV_VAR
        ))
    }
}

/// How much of each value is printed unless `--full` is given.
const SHOWN_CHARS: usize = 600;

/// Entry point: `block [--legacy] [--full]`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    if let Some(unknown) = args
        .iter()
        .find(|a| !matches!(a.as_str(), "--legacy" | "--full"))
    {
        return Err(format!("block takes [--legacy] [--full], got {unknown:?}"));
    }
    let full = args.iter().any(|a| a == "--full");
    if args.iter().any(|a| a == "--legacy") {
        crate::presets::ensure()?;
        return print_dynamic(&BLOCK_5M, full);
    }
    println!("== typed: examples/indexer, types generated from the block's own metadata ==");
    run_typed_example()?;
    println!("\n== dynamic: the same block through a registry built from its metadata ==");
    print_dynamic(&BLOCK_18468942, full)
}

/// Builds and runs the README's Rust example on the fixtures; cargo's own
/// output is the progress while the generated types compile.
fn run_typed_example() -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let fixtures = ferroscale_fixtures::dir();
    let status = Command::new(cargo)
        .args(["run", "-p", "ferroscale-example-indexer", "--"])
        .arg(&fixtures)
        .current_dir(crate::workspace::workspace_root())
        .status()
        .map_err(|e| format!("running cargo for examples/indexer: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("examples/indexer failed ({status})"))
    }
}

fn print_dynamic(block: &Block, full: bool) -> Result<(), String> {
    let read = |name: &str| -> Result<Vec<u8>, String> {
        let path = fixture(name)?;
        std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let started = Instant::now();
    let mut registry = if block.presets.is_empty() {
        Registry::new()
    } else {
        Registry::with_presets(block.presets).map_err(|e| e.to_string())?
    };
    registry.set_active_spec_version_id(block.spec);
    registry.set_ss58_format(Some(0));
    registry
        .load_metadata(&read(block.metadata)?)
        .map_err(|e| format!("{}: {e}", block.metadata))?;
    let built = started.elapsed();

    let text = String::from_utf8(read(block.extrinsics)?)
        .map_err(|e| format!("{}: {e}", block.extrinsics))?;
    let list: Vec<String> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", block.extrinsics))?;
    let started = Instant::now();
    let mut extrinsics = Vec::with_capacity(list.len());
    for (i, hex) in list.iter().enumerate() {
        let bytes = ferroscale_core::hex::decode(hex).map_err(|e| format!("extrinsic {i}: {e}"))?;
        let value = registry
            .decode("Extrinsic", &bytes)
            .map_err(|e| format!("extrinsic {i}: {e}"))?;
        extrinsics.push(value);
    }
    let events = match block.events {
        Some(name) => {
            let hex = String::from_utf8(read(name)?).map_err(|e| format!("{name}: {e}"))?;
            let bytes =
                ferroscale_core::hex::decode(hex.trim()).map_err(|e| format!("{name}: {e}"))?;
            let value = registry
                .decode_events(&bytes)
                .map_err(|e| format!("{name}: {e}"))?;
            value.as_items().map(<[Value]>::to_vec).unwrap_or_default()
        }
        None => Vec::new(),
    };
    let took = started.elapsed();

    for (i, value) in extrinsics.iter().enumerate() {
        println!("extrinsic {i}: {}", shown(value, full));
    }
    for (i, record) in events.iter().enumerate() {
        println!("event {i}: {}", shown(record, full));
    }
    println!(
        "\n{} extrinsics and {} events of {} decoded in {:.2?} (registry built in {:.2?})",
        extrinsics.len(),
        events.len(),
        block.extrinsics.trim_end_matches("/extrinsics.json"),
        took,
        built
    );
    Ok(())
}

/// A value as JSON, cut to [`SHOWN_CHARS`] unless `full`.
fn shown(value: &Value, full: bool) -> String {
    let text = value.to_string();
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) if !full => format!(
            "{} … ({} more characters; --full shows all)",
            &text[..cut],
            text.len() - cut
        ),
        _ => text,
    }
}
