//! `cargo xtask block`: decode every extrinsic of a real block with the
//! dynamic layer and print the values, in py-scale-codec's shapes.
//!
//! Defaults to Polkadot block 10,000,000 (spec 9180, V14 metadata) from the
//! fixtures; `--legacy` takes block 5,000,000 (spec 30, V12 metadata, decoded
//! with the `legacy` and `polkadot` presets). Long values are cut unless
//! `--full` is given.

use std::path::PathBuf;
use std::time::Instant;

use ferroscale_dynamic::registry::Registry;

/// Which block to print: fixture files, presets and settings.
struct Block {
    metadata: &'static str,
    extrinsics: &'static str,
    presets: &'static [&'static str],
    spec: u64,
}

const BLOCK_10M: Block = Block {
    metadata: "metadata/polkadot-v14-spec9180.scale",
    extrinsics: "payloads/polkadot-block-10000000/extrinsics.json",
    presets: &["core"],
    spec: 9180,
};

const BLOCK_5M: Block = Block {
    metadata: "metadata/polkadot-v12-spec30.scale",
    extrinsics: "payloads/polkadot-block-5000000/extrinsics.json",
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
const SHOWN_CHARS: usize = 1500;

/// Entry point: `block [--legacy] [--full]`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let block = if args.iter().any(|a| a == "--legacy") {
        &BLOCK_5M
    } else {
        &BLOCK_10M
    };
    crate::presets::ensure()?;
    let read = |name: &str| -> Result<Vec<u8>, String> {
        let path = fixture(name)?;
        std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let started = Instant::now();
    let mut registry = Registry::with_presets(block.presets).map_err(|e| e.to_string())?;
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
    let mut decoded = Vec::with_capacity(list.len());
    for (i, hex) in list.iter().enumerate() {
        let bytes = ferroscale_core::hex::decode(hex).map_err(|e| format!("extrinsic {i}: {e}"))?;
        let value = registry
            .decode("Extrinsic", &bytes)
            .map_err(|e| format!("extrinsic {i}: {e}"))?;
        decoded.push(value);
    }
    let took = started.elapsed();
    let full = args.iter().any(|a| a == "--full");
    for (i, value) in decoded.iter().enumerate() {
        let text = value.to_string();
        match text.char_indices().nth(SHOWN_CHARS) {
            Some((cut, _)) if !full => println!(
                "extrinsic {i}: {} … ({} more characters; --full shows all)",
                &text[..cut],
                text.len() - cut
            ),
            _ => println!("extrinsic {i}: {text}"),
        }
    }
    println!(
        "\n{} extrinsics of {} decoded in {:.2?} (registry built in {:.2?})",
        decoded.len(),
        block.extrinsics,
        took,
        built
    );
    Ok(())
}
