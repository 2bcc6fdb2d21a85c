//! `cargo xtask generate`: runtime types from chain metadata.
//!
//! - `generate` (no argument): every chain of the table.
//! - `generate --chain NAME`: one chain of the table.
//! - `generate --metadata FILE [--name NAME]`: any other V14+ blob, written
//!   as `runtime-types/src/<NAME>.rs` with a cargo feature `NAME`.
//! - `generate --check`: regenerate every chain of the table in memory and
//!   fail if a checked-in file differs (CI runs this).
//!
//! Shipped chains go to `runtime-types/src/<chain>.rs`, registered in
//! `runtime-types/src/chains.rs` and as cargo features; test-only chains go to
//! the test crate `runtime-types/typed-tests/src/`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::workspace::workspace_root;

/// A chain the generator knows by name.
struct Chain {
    /// Name on the command line and cargo feature (`asset-hub`).
    name: &'static str,
    /// Fixture holding its metadata.
    fixture: &'static str,
    /// Generated only for the tests (not a feature of the shipped crate).
    test_only: bool,
    /// The fixture is a bare `PortableRegistry` as JSON, not a metadata blob.
    registry_json: bool,
}

const CHAINS: &[Chain] = &[
    Chain {
        name: "polkadot",
        fixture: "metadata/polkadot-v15-spec1001002.scale",
        test_only: false,
        registry_json: false,
    },
    Chain {
        name: "kusama",
        fixture: "metadata/kusama-v15-spec1001002.scale",
        test_only: false,
        registry_json: false,
    },
    Chain {
        name: "bittensor",
        fixture: "metadata/subtensor-v15-spec343.scale",
        test_only: false,
        registry_json: false,
    },
    Chain {
        name: "asset-hub",
        fixture: "metadata/statemint-v16-spec2000003-small.scale",
        test_only: false,
        registry_json: false,
    },
    Chain {
        name: "substrate-node",
        fixture: "metadata/substrate-node-v15-spec268.scale",
        test_only: false,
        registry_json: false,
    },
    Chain {
        name: "polkadot-9180",
        fixture: "metadata/polkadot-v14-spec9180.scale",
        test_only: true,
        registry_json: false,
    },
    // The registry bt-decode's Bittensor runtime-API results were encoded with.
    Chain {
        name: "subtensor-rpc",
        fixture: "payloads/subtensor/test_types.json",
        test_only: true,
        registry_json: true,
    },
];

/// Entry point of `cargo xtask generate …`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut chain: Option<String> = None;
    let mut metadata: Option<PathBuf> = None;
    let mut name: Option<String> = None;
    let mut check = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--chain" => chain = Some(it.next().ok_or("--chain needs a NAME")?.clone()),
            "--metadata" => {
                metadata = Some(PathBuf::from(it.next().ok_or("--metadata needs a FILE")?))
            }
            "--name" => name = Some(it.next().ok_or("--name needs a NAME")?.clone()),
            "--check" => check = true,
            other => return Err(format!("generate: unknown argument {other:?}\n{USAGE}")),
        }
    }
    if let Some(file) = metadata {
        let name = match name {
            Some(n) => n,
            None => file
                .file_stem()
                .and_then(|s| s.to_str())
                .map(|s| s.split(['-', '.']).next().unwrap_or(s).to_owned())
                .ok_or("--metadata: cannot derive a chain name from the file name; pass --name")?,
        };
        validate_name(&name)?;
        let out = generate_one(&name, &file, false, false)?;
        write_chain(&name, false, &out)?;
        return register(&name);
    }
    let selected: Vec<&Chain> = match &chain {
        Some(c) => vec![CHAINS.iter().find(|k| k.name == c).ok_or_else(|| {
            format!(
                "unknown chain {c:?}; known chains: {}",
                CHAINS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
            )
        })?],
        None => CHAINS.iter().collect(),
    };
    let mut stale = Vec::new();
    for c in &selected {
        let file = fixtures_dir().join(c.fixture);
        let out = generate_one(c.name, &file, c.test_only, c.registry_json)?;
        if check {
            let path = output_path(c.name, c.test_only);
            let current = std::fs::read_to_string(&path).unwrap_or_default();
            if current != out {
                stale.push(path.display().to_string());
            }
        } else {
            write_chain(c.name, c.test_only, &out)?;
        }
    }
    if check {
        let registry = registration_text(&registered_chains()?);
        let current = std::fs::read_to_string(chains_rs()).unwrap_or_default();
        if current != registry {
            stale.push(chains_rs().display().to_string());
        }
        if !stale.is_empty() {
            return Err(format!(
                "generated files differ from a fresh generation (run `cargo xtask generate`): {}",
                stale.join(", ")
            ));
        }
        eprintln!("generate --check: every generated file is up to date");
        return Ok(());
    }
    for c in selected.iter().filter(|c| !c.test_only) {
        register(c.name)?;
    }
    Ok(())
}

const USAGE: &str =
    "usage: cargo xtask generate [--chain NAME | --metadata FILE [--name NAME]] [--check]";

fn validate_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if ok && name != "roundtrip" {
        Ok(())
    } else {
        Err(format!(
            "chain name {name:?} must be lower-case letters, digits, '-' or '_' (and not `roundtrip`)"
        ))
    }
}

/// The fixtures folder (same lookup as `ferroscale-fixtures`).
fn fixtures_dir() -> PathBuf {
    match std::env::var_os("FERROSCALE_FIXTURES") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => workspace_root().join("../shared/fixtures"),
    }
}

fn module_name(chain: &str) -> String {
    chain.replace('-', "_")
}

fn output_path(chain: &str, test_only: bool) -> PathBuf {
    let file = format!("{}.rs", module_name(chain));
    if test_only {
        workspace_root()
            .join("runtime-types/typed-tests/src")
            .join(file)
    } else {
        workspace_root().join("runtime-types/src").join(file)
    }
}

fn chains_rs() -> PathBuf {
    workspace_root().join("runtime-types/src/chains.rs")
}

/// Generates and formats one chain, printing what it produced.
fn generate_one(
    name: &str,
    file: &Path,
    test_only: bool,
    registry_json: bool,
) -> Result<String, String> {
    let bytes =
        std::fs::read(file).map_err(|e| format!("{name}: cannot read {}: {e}", file.display()))?;
    let start = Instant::now();
    let generated = if registry_json {
        let text =
            String::from_utf8(bytes).map_err(|_| format!("{name}: registry JSON is not UTF-8"))?;
        ferroscale_codegen::input::from_registry_json(&text)
            .and_then(|input| ferroscale_codegen::generate_from(&input))
    } else {
        ferroscale_codegen::generate(&bytes)
    }
    .map_err(|e| format!("{name}: {e}"))?;
    let text = ferroscale_codegen::render(&generated.tokens).map_err(|e| format!("{name}: {e}"))?;
    let elapsed = start.elapsed();
    eprintln!(
        "{name:>15}: {}, {} registry types -> {} definitions, {} lines, {} KiB, {:.0} ms{}",
        match generated.metadata_version {
            0 => "bare registry".to_owned(),
            v => format!("V{v} metadata"),
        },
        generated.registry_types,
        generated.definitions,
        text.lines().count(),
        text.len() / 1024,
        elapsed.as_secs_f64() * 1000.0,
        if test_only { " (test-only)" } else { "" }
    );
    Ok(text)
}

fn write_chain(name: &str, test_only: bool, text: &str) -> Result<(), String> {
    let path = output_path(name, test_only);
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Chains registered in `runtime-types/Cargo.toml` (between the markers).
fn registered_chains() -> Result<Vec<String>, String> {
    let toml = std::fs::read_to_string(cargo_toml()).map_err(|e| format!("{e}"))?;
    let (_, region, _) = split_region(&toml)?;
    Ok(region
        .lines()
        .filter_map(|l| l.split_once(" = ").map(|(k, _)| k.trim().to_owned()))
        .collect())
}

fn cargo_toml() -> PathBuf {
    workspace_root().join("runtime-types/Cargo.toml")
}

const BEGIN: &str = "# generated chains (cargo xtask generate): begin\n";
const END: &str = "# generated chains: end\n";

fn split_region(toml: &str) -> Result<(&str, &str, &str), String> {
    let b = toml
        .find(BEGIN)
        .ok_or("runtime-types/Cargo.toml lacks the generated-chains markers")?;
    let e = toml
        .find(END)
        .ok_or("runtime-types/Cargo.toml lacks the generated-chains end marker")?;
    Ok((
        &toml[..b + BEGIN.len()],
        &toml[b + BEGIN.len()..e],
        &toml[e..],
    ))
}

/// Adds a chain's cargo feature and module registration (idempotent).
fn register(name: &str) -> Result<(), String> {
    let mut chains = registered_chains()?;
    if !chains.iter().any(|c| c == name) {
        chains.push(name.to_owned());
    }
    chains.sort();
    let toml = std::fs::read_to_string(cargo_toml()).map_err(|e| format!("{e}"))?;
    let (head, _, tail) = split_region(&toml)?;
    let region: String = chains.iter().map(|c| format!("{c} = []\n")).collect();
    let new_toml = format!("{head}{region}{tail}");
    if new_toml != toml {
        std::fs::write(cargo_toml(), new_toml).map_err(|e| format!("{e}"))?;
    }
    std::fs::write(chains_rs(), registration_text(&chains)).map_err(|e| format!("{e}"))
}

/// The text of `runtime-types/src/chains.rs` for these chains.
fn registration_text(chains: &[String]) -> String {
    let mut out = String::from(
        "//! The generated chain modules, one cargo feature each. Written by `cargo xtask generate`.\n",
    );
    for c in chains {
        let m = module_name(c);
        out.push_str(&format!(
            "\n/// Runtime types of `{c}` (cargo feature `{c}`).\n#[cfg(feature = \"{c}\")]\n#[path = \"{m}.rs\"]\n#[rustfmt::skip] // formatted by the generator (prettyplease)\n#[allow(missing_docs)] // documented where the metadata documents it\npub mod {m};\n"
        ));
    }
    out
}
