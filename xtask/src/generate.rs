//! `cargo xtask generate`: runtime types from chain metadata.
//!
//! - `generate` (no argument): every chain of the table.
//! - `generate --chain NAME`: one chain of the table.
//! - `generate --metadata FILE [--name NAME]`: any other V14+ blob, written
//!   as `runtime-types/src/generated/<NAME>.rs` with a cargo feature `NAME`.
//! - `generate --url URL --name NAME [--at HASH]`: the same from a node's
//!   metadata (the newest of V14–V16 it offers, fetched by the `ferroscale` CLI).
//! - `generate --check`: regenerate every chain of the table in memory and
//!   fail if a checked-in file differs (CI runs this).
//!
//! Shipped chains go to `runtime-types/src/generated/<chain>.rs` (a folder
//! of generated files only: `.gitattributes` marks them generated, `.ignore`
//! keeps them out of code search), registered in
//! `runtime-types/src/generated/mod.rs` and as cargo features. Each file
//! starts with a header naming its metadata (the fixture and its sha256, or
//! the file or node it came from, and the runtime's spec) and the command
//! that regenerates it. Test-only chains are
//! not written here: the ferroscale-tests crate (`tests/src/lib.rs`) and the
//! fixture chains (`tests/fixture-chains/`) expand them from the fixtures at
//! compile time with `#[ferroscale_macros::runtime(fixture = "…")]`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::workspace::workspace_root;

/// A chain the generator knows by name.
struct Chain {
    /// Name on the command line and cargo feature (`asset-hub`).
    name: &'static str,
    /// Fixture holding its metadata.
    fixture: &'static str,
}

const CHAINS: &[Chain] = &[
    Chain {
        name: "polkadot",
        fixture: "metadata/polkadot-v15-spec1001002.scale",
    },
    Chain {
        name: "kusama",
        fixture: "metadata/kusama-v15-spec1001002.scale",
    },
    Chain {
        name: "bittensor",
        fixture: "metadata/subtensor-v15-spec343.scale",
    },
    Chain {
        name: "asset-hub",
        fixture: "metadata/statemint-v16-spec2000003-small.scale",
    },
    Chain {
        name: "substrate-node",
        fixture: "metadata/substrate-node-v15-spec268.scale",
    },
];

/// Entry point of `cargo xtask generate …`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut chain: Option<String> = None;
    let mut metadata: Option<PathBuf> = None;
    let mut name: Option<String> = None;
    let mut url: Option<String> = None;
    let mut at: Option<String> = None;
    let mut check = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--chain" => chain = Some(it.next().ok_or("--chain needs a NAME")?.clone()),
            "--metadata" => {
                metadata = Some(PathBuf::from(it.next().ok_or("--metadata needs a FILE")?))
            }
            "--name" => name = Some(it.next().ok_or("--name needs a NAME")?.clone()),
            "--url" => url = Some(it.next().ok_or("--url needs a URL")?.clone()),
            "--at" => at = Some(it.next().ok_or("--at needs a block HASH")?.clone()),
            "--check" => check = true,
            other => return Err(format!("generate: unknown argument {other:?}\n{USAGE}")),
        }
    }
    if at.is_some() && url.is_none() {
        return Err(format!("generate: --at goes with --url\n{USAGE}"));
    }
    if let Some(url) = url {
        if metadata.is_some() || chain.is_some() || check {
            return Err(format!(
                "generate: --url takes the place of --chain, --metadata and --check\n{USAGE}"
            ));
        }
        let name = name.ok_or("generate --url: give the chain's --name")?;
        validate_name(&name)?;
        let bytes = from_node(&url, at.as_deref())?;
        let origin = match &at {
            Some(hash) => format!("the node {url} at block {hash}"),
            None => format!("the node {url} (its best block)"),
        };
        let again = match &at {
            Some(hash) => format!("--url {url} --name {name} --at {hash}"),
            None => format!("--url {url} --name {name}"),
        };
        let out = generate_one(&name, &bytes, &origin, &again)?;
        write_chain(&name, &out)?;
        return register(&name);
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
        let origin = format!("the metadata file {}", file.display());
        let again = format!("--metadata {} --name {name}", file.display());
        let out = generate_one(&name, &read(&name, &file)?, &origin, &again)?;
        write_chain(&name, &out)?;
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
        let sha256 = ferroscale_fixtures::entry(c.fixture)
            .map(|e| e.sha256)
            .ok_or_else(|| format!("{}: the fixtures' manifest lists no {}", c.name, c.fixture))?;
        let bytes =
            ferroscale_fixtures::try_read(c.fixture).map_err(|e| format!("{}: {e}", c.name))?;
        let origin = format!("the fixture {}\n// (sha256 {sha256})", c.fixture);
        let again = format!("--chain {}", c.name);
        let out = generate_one(c.name, &bytes, &origin, &again)?;
        if check {
            let path = output_path(c.name);
            let current = std::fs::read_to_string(&path).unwrap_or_default();
            if current != out {
                stale.push(path.display().to_string());
            }
        } else {
            write_chain(c.name, &out)?;
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
    for c in &selected {
        register(c.name)?;
    }
    Ok(())
}

const USAGE: &str = "usage: cargo xtask generate [--chain NAME | --metadata FILE [--name NAME]] [--check]\n       cargo xtask generate --url URL --name NAME [--at HASH]";

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

fn module_name(chain: &str) -> String {
    chain.replace('-', "_")
}

/// The folder of generated chain modules (nothing hand-written in it).
const GENERATED_DIR: &str = "runtime-types/src/generated";

fn output_path(chain: &str) -> PathBuf {
    workspace_root()
        .join(GENERATED_DIR)
        .join(format!("{}.rs", module_name(chain)))
}

fn chains_rs() -> PathBuf {
    workspace_root().join(GENERATED_DIR).join("mod.rs")
}

/// A metadata file's bytes.
fn read(name: &str, file: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(file).map_err(|e| format!("{name}: cannot read {}: {e}", file.display()))
}

/// A node's newest metadata (V14–V16, else `state_getMetadata`) at block
/// `at`, fetched by the `ferroscale` CLI (`metadata --url … --save FILE`):
/// one RPC client for both, and the xtask stays free of tokio and
/// jsonrpsee, which every `cargo xtask` command would otherwise build first.
fn from_node(url: &str, at: Option<&str>) -> Result<Vec<u8>, String> {
    // one file per process: two runs at once must not read each other's
    let file = crate::workspace::workspace_root().join(format!(
        "target/xtask-node-metadata-{}.scale",
        std::process::id()
    ));
    let file_arg = file.to_string_lossy().into_owned();
    let mut args = vec![
        "run",
        "--quiet",
        "--package",
        "ferroscale-cli",
        "--",
        "metadata",
        "--url",
        url,
        "--save",
        &file_arg,
    ];
    if let Some(at) = at {
        args.extend(["--at", at]);
    }
    crate::workspace::run_step("metadata from the node", "cargo", &args)?;
    let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let _ = std::fs::remove_file(&file);
    Ok(bytes)
}

/// Generates and formats one chain, printing what it produced: `origin`
/// says where the metadata came from and `again` the `cargo xtask generate`
/// arguments that regenerate it, both written into the file's header.
fn generate_one(name: &str, bytes: &[u8], origin: &str, again: &str) -> Result<String, String> {
    let start = Instant::now();
    let generated = ferroscale_codegen::generate(bytes).map_err(|e| format!("{name}: {e}"))?;
    let body = ferroscale_codegen::render(&generated.tokens).map_err(|e| format!("{name}: {e}"))?;
    let runtime = match &generated.spec {
        Some((spec_name, spec_version)) => format!("runtime {spec_name} {spec_version}, "),
        None => String::new(),
    };
    let text = format!(
        "// @generated by `cargo xtask generate` (ferroscale-codegen): do not edit.\n\
         // Regenerate with `cargo xtask generate {again}`.\n\
         // Metadata: {origin},\n\
         // {runtime}metadata V{}.\n\
         {body}",
        generated.metadata_version
    );
    let elapsed = start.elapsed();
    eprintln!(
        "{name:>15}: V{} metadata, {} registry types -> {} definitions, {} lines, {} KiB, {:.0} ms",
        generated.metadata_version,
        generated.registry_types,
        generated.definitions,
        text.lines().count(),
        text.len() / 1024,
        elapsed.as_secs_f64() * 1000.0,
    );
    Ok(text)
}

fn write_chain(name: &str, text: &str) -> Result<(), String> {
    let path = output_path(name);
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

/// The text of `runtime-types/src/generated/mod.rs` for these chains.
fn registration_text(chains: &[String]) -> String {
    let mut out = String::from(
        "// @generated by `cargo xtask generate`. Do not edit; `cargo xtask generate` rewrites it.\n\
         //! The generated chain modules, one cargo feature each.\n",
    );
    for c in chains {
        let m = module_name(c);
        out.push_str(&format!(
            "\n/// Runtime types of `{c}` (cargo feature `{c}`).\n#[cfg(feature = \"{c}\")]\n#[rustfmt::skip] // formatted by the generator (prettyplease)\n#[allow(missing_docs)] // documented where the metadata documents it\npub mod {m};\n"
        ));
    }
    out
}
