//! Reading what the user gives: bytes as hex, files or stdin; metadata
//! from a file or a node (`--url`); JSON values.

use std::io::Read;
use std::path::Path;

use ferroscale_value::Value;

use crate::cli::NodeArgs;

/// The text of an argument: as is, `@FILE` read from a file, `-` from stdin.
pub(crate) fn text(arg: &str) -> Result<String, String> {
    let (raw, what) = if arg == "-" {
        (read_capped(std::io::stdin().lock(), "stdin")?, "stdin")
    } else if let Some(path) = arg.strip_prefix('@') {
        (read_path(Path::new(path))?, path)
    } else {
        return Ok(arg.to_owned());
    };
    String::from_utf8(raw).map_err(|e| format!("{what}: not UTF-8 text: {e}"))
}

/// The most any one input (a file, stdin) may hold: far above the largest
/// metadata, block or value a command reads (a few MiB), and the same as a
/// line of `ferroscale index --source`. A larger input (`/dev/zero`, a
/// whole disk image given by mistake) is refused by name instead of filling
/// memory.
const MAX_INPUT_BYTES: u64 = 256 << 20;

/// All of `reader`, at most [`MAX_INPUT_BYTES`]; `what` names it in errors.
fn read_capped(reader: impl Read, what: &str) -> Result<Vec<u8>, String> {
    let mut raw = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut raw)
        .map_err(|e| format!("cannot read {what}: {e}"))?;
    if raw.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "{what} holds more than {} MiB: larger than any metadata, block or value this reads",
            MAX_INPUT_BYTES >> 20
        ));
    }
    Ok(raw)
}

/// A file's bytes, at most [`MAX_INPUT_BYTES`].
fn read_path(path: &Path) -> Result<Vec<u8>, String> {
    let what = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {what}: {e}"))?;
    read_capped(file, &what)
}

/// Bytes of an argument: `0x…` hex, `@FILE` (binary, or hex text) or `-`.
pub(crate) fn bytes(arg: &str) -> Result<Vec<u8>, String> {
    if let Some(path) = arg.strip_prefix('@') {
        let raw = read_path(Path::new(path))?;
        return Ok(match std::str::from_utf8(&raw) {
            Ok(t) if t.trim_start().starts_with("0x") => hex(t.trim(), path)?,
            _ => raw,
        });
    }
    let t = text(arg)?;
    hex(t.trim(), "the argument")
}

fn hex(text: &str, what: &str) -> Result<Vec<u8>, String> {
    ferroscale_core::hex::decode(text).map_err(|e| format!("{what}: not hex: {e}"))
}

/// A metadata file's bytes (binary or hex text; the loader accepts both).
pub(crate) fn file(path: &Path) -> Result<Vec<u8>, String> {
    read_path(path)
}

/// Metadata from a file or a node (`--url`), with how to name it in
/// messages; `None` when neither is given.
pub(crate) fn metadata_opt(
    file_arg: Option<&Path>,
    node: &NodeArgs,
) -> Result<Option<(Vec<u8>, String)>, String> {
    match (file_arg, &node.url) {
        (Some(path), _) => Ok(Some((file(path)?, path.display().to_string()))),
        (None, Some(url)) => from_node(url, node).map(Some),
        (None, None) => Ok(None),
    }
}

/// Metadata from a file or a node; one of them is required.
pub(crate) fn metadata(
    file_arg: Option<&Path>,
    node: &NodeArgs,
) -> Result<(Vec<u8>, String), String> {
    metadata_opt(file_arg, node)?.ok_or_else(|| "give a metadata FILE or --url URL".into())
}

/// The node's newest metadata (V14–V16, else `state_getMetadata`) at `--at`.
fn from_node(url: &str, node: &NodeArgs) -> Result<(Vec<u8>, String), String> {
    let at = node
        .at
        .as_deref()
        .map(|h| {
            let bytes = hex(h.trim(), "--at")?;
            <[u8; 32]>::try_from(bytes.as_slice())
                .map_err(|_| format!("--at: a block hash is 32 bytes, not {}", bytes.len()))
        })
        .transpose()?;
    let config = ferroscale_rpc::ClientConfig {
        request_timeout: std::time::Duration::from_secs(node.rpc_timeout.max(1)),
        ..ferroscale_rpc::ClientConfig::default()
    };
    let client =
        ferroscale_rpc::BlockingClient::connect_with(url, config).map_err(|e| e.to_string())?;
    let fetched = client.metadata(at.as_ref()).map_err(|e| e.to_string())?;
    Ok((fetched.bytes, format!("{url} ({})", fetched.source)))
}

/// A JSON text as a dynamic value: objects keep their keys (order does not
/// matter to the encoder, which looks fields up by name); integers beyond
/// 64 bits are given as strings of digits (`"340282366920938463463374607431768211455"`).
///
/// A bare word that is not JSON (an SS58 address, `0x…` hex: ASCII
/// letters and digits only) is taken as text, so a shell user need not quote
/// it twice; digits alone are a JSON number. Anything else must be JSON: a
/// truncated list or string is an error, never text.
pub(crate) fn json_value(text: &str) -> Result<Value, String> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(json) => from_json(&json),
        Err(_) if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric()) => {
            Ok(Value::str(text))
        }
        Err(e) => Err(format!(
            "the value is not JSON: {e} (text of more than one word goes in JSON quotes: '\"…\"')"
        )),
    }
}

fn from_json(json: &serde_json::Value) -> Result<Value, String> {
    use serde_json::Value as J;
    Ok(match json {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => {
            if let Some(u) = n.as_u64() {
                Value::UInt(u.into())
            } else if let Some(i) = n.as_i64() {
                Value::Int(i.into())
            } else {
                return Err(format!(
                    "{n}: SCALE has no fractions; give integers beyond 64 bits as strings of digits"
                ));
            }
        }
        J::String(s) => Value::str(s.as_str()),
        J::Array(items) => Value::List(items.iter().map(from_json).collect::<Result<_, _>>()?),
        J::Object(map) => Value::Dict(
            map.iter()
                .map(|(k, v)| Ok((k.as_str().into(), from_json(v)?)))
                .collect::<Result<_, String>>()?,
        ),
    })
}
