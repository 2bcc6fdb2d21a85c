//! From bytes to [`Metadata`]: recognise the framing (magic, RPC wrappers,
//! hex), check the version, decode through `frame-metadata` with a depth limit
//! and an offset-tracking input, and hand the result to the converter of its
//! version family.

use frame_metadata::RuntimeMetadata;
use parity_scale_codec::{Compact, Decode, DecodeLimit, Input};

use super::model::Metadata;
use super::{legacy, modern, runtime_version};
use crate::error::Error;

/// The 4 bytes `meta` (0x6d657461) that open a `RuntimeMetadataPrefixed`.
pub const MAGIC: [u8; 4] = *b"meta";

/// The metadata versions this crate loads.
pub const SUPPORTED_VERSIONS: std::ops::RangeInclusive<u8> = 9..=16;

/// Nesting limit handed to `DecodeLimit`. Metadata nests at most ~6 levels of
/// vectors (registry → type → variants → fields → docs); the margin is wide,
/// the cap only stops hostile inputs from recursing without end.
const DEPTH_LIMIT: u32 = 32;

/// Where the `RuntimeMetadata` starts inside the input and where it ends.
struct Framing {
    /// Offset of the version byte.
    start: usize,
    /// End of the metadata (exclusive) as the framing declares it.
    end: usize,
}

pub(super) fn from_bytes(bytes: &[u8]) -> Result<Metadata, Error> {
    let framing = framing(bytes)?;
    let body = &bytes[framing.start..framing.end];
    let version = body[0];
    if !SUPPORTED_VERSIONS.contains(&version) {
        return Err(Error::Metadata {
            what: format!("unsupported metadata version {version} (supported: 9–16)"),
            offset: framing.start,
        });
    }
    let mut input = TrackingInput::new(body);
    let decoded =
        RuntimeMetadata::decode_with_depth_limit(DEPTH_LIMIT, &mut input).map_err(|e| {
            Error::Metadata {
                what: format!(
                    "cannot decode metadata V{version}: {}",
                    flatten_codec_error(&e)
                ),
                offset: framing.start + input.offset,
            }
        })?;
    if input.offset != body.len() {
        return Err(Error::Metadata {
            what: format!(
                "{} trailing bytes after the metadata",
                body.len() - input.offset
            ),
            offset: framing.start + input.offset,
        });
    }
    let mut metadata = match decoded {
        RuntimeMetadata::V9(m) => legacy::from_v9(m),
        RuntimeMetadata::V10(m) => legacy::from_v10(m),
        RuntimeMetadata::V11(m) => legacy::from_v11(m),
        RuntimeMetadata::V12(m) => legacy::from_v12(m),
        RuntimeMetadata::V13(m) => legacy::from_v13(m),
        RuntimeMetadata::V14(m) => modern::from_v14(m),
        RuntimeMetadata::V15(m) => modern::from_v15(m),
        RuntimeMetadata::V16(m) => modern::from_v16(m),
        // Refused above by the version check; kept as an error, not a panic.
        other => Err(Error::Metadata {
            what: format!(
                "unsupported metadata version {} (supported: 9–16)",
                other.version()
            ),
            offset: framing.start,
        }),
    }?;
    metadata.runtime_version = runtime_version::find(&metadata.pallets);
    Ok(metadata)
}

/// Finds the metadata inside `bytes`: a `RuntimeMetadataPrefixed` (magic
/// first), the same wrapped as `Option<OpaqueMetadata>` (0x01, compact
/// length, blob) or as `OpaqueMetadata` (compact length, blob), or a bare
/// `RuntimeMetadata` (version byte first).
fn framing(bytes: &[u8]) -> Result<Framing, Error> {
    if bytes.is_empty() {
        return Err(Error::Metadata {
            what: "empty input: no metadata".into(),
            offset: 0,
        });
    }
    if bytes.starts_with(&MAGIC) {
        return prefixed(0, bytes.len());
    }
    // An RPC wrapping: the payload after the header must open with the magic,
    // which tells a wrapper apart from a bare blob whose version byte
    // happens to look like a header.
    if bytes[0] == 1 {
        if let Some(framing) = wrapped(bytes, 1)? {
            return Ok(framing);
        }
    }
    if let Some(framing) = wrapped(bytes, 0)? {
        return Ok(framing);
    }
    if bytes[0] == 0 && bytes.len() == 1 {
        return Err(Error::Metadata {
            what: "the RPC result is None: the runtime has no metadata of that version".into(),
            offset: 0,
        });
    }
    if SUPPORTED_VERSIONS.contains(&bytes[0]) {
        return Ok(Framing {
            start: 0,
            end: bytes.len(),
        });
    }
    let shown = &bytes[..bytes.len().min(4)];
    Err(Error::Metadata {
        what: format!(
            "not metadata: expected the magic 0x6d657461 ('meta'), an RPC wrapping of it, \
             or a version byte 9–16; found 0x{}",
            ferroscale_core::hex::encode_prefixed(shown).trim_start_matches("0x")
        ),
        offset: 0,
    })
}

/// A prefixed blob in `bytes[start..end]`: magic, then the version byte.
fn prefixed(start: usize, end: usize) -> Result<Framing, Error> {
    if end - start <= MAGIC.len() {
        return Err(Error::Metadata {
            what: "truncated: the magic 'meta' is not followed by a version byte".into(),
            offset: end,
        });
    }
    Ok(Framing {
        start: start + MAGIC.len(),
        end,
    })
}

/// A compact length at `header`, followed by a prefixed blob of that length.
/// `Ok(None)` when the bytes there do not look like such a wrapping.
fn wrapped(bytes: &[u8], header: usize) -> Result<Option<Framing>, Error> {
    let mut rest = &bytes[header..];
    let Ok(Compact(declared)) = Compact::<u32>::decode(&mut rest) else {
        return Ok(None);
    };
    let start = bytes.len() - rest.len();
    if !rest.starts_with(&MAGIC) {
        return Ok(None);
    }
    let declared = declared as usize;
    if declared > rest.len() {
        return Err(Error::Metadata {
            what: format!(
                "truncated: the RPC wrapping declares {declared} bytes of metadata, {} present",
                rest.len()
            ),
            offset: bytes.len(),
        });
    }
    if declared < rest.len() {
        return Err(Error::Metadata {
            what: format!(
                "{} trailing bytes after the metadata the RPC wrapping declares",
                rest.len() - declared
            ),
            offset: start + declared,
        });
    }
    prefixed(start, bytes.len()).map(Some)
}

/// Turns parity-scale-codec's chained error (one cause per line, indented)
/// into one line, outermost first: `a: b: root cause`.
fn flatten_codec_error(e: &parity_scale_codec::Error) -> String {
    e.to_string()
        .lines()
        .map(|l| l.trim().trim_end_matches(':'))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(": ")
}

/// A byte-slice input that counts what has been read, so that a decode error
/// can say where it happened, and that reports the remaining length so that
/// parity-scale-codec refuses byte vectors longer than the input instead of
/// allocating them (its `Vec<u8>`/`String` decoding checks `remaining_len`
/// first; other vectors grow in 16 KiB steps as items actually decode).
struct TrackingInput<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> TrackingInput<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        TrackingInput { bytes, offset: 0 }
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.offset
    }
}

impl Input for TrackingInput<'_> {
    fn remaining_len(&mut self) -> Result<Option<usize>, parity_scale_codec::Error> {
        Ok(Some(self.remaining()))
    }

    fn read(&mut self, into: &mut [u8]) -> Result<(), parity_scale_codec::Error> {
        if into.len() > self.remaining() {
            return Err("not enough data: input ends".into());
        }
        into.copy_from_slice(&self.bytes[self.offset..self.offset + into.len()]);
        self.offset += into.len();
        Ok(())
    }

    fn read_byte(&mut self) -> Result<u8, parity_scale_codec::Error> {
        let byte = *self
            .bytes
            .get(self.offset)
            .ok_or("not enough data: input ends")?;
        self.offset += 1;
        Ok(byte)
    }

    fn on_before_alloc_mem(&mut self, size: usize) -> Result<(), parity_scale_codec::Error> {
        // Every decoded item takes at least one input byte, and no decoded
        // metadata item is more than a few hundred bytes in memory: a request
        // far beyond what the remaining input could fill is hostile.
        if size > self.remaining().saturating_mul(1024).max(64 * 1024) {
            return Err("length prefix larger than the remaining input".into());
        }
        Ok(())
    }
}

/// Decodes `0x` hex text (whitespace around it is ignored), then loads it.
pub(super) fn from_hex(text: &str) -> Result<Metadata, Error> {
    let bytes = ferroscale_core::hex::decode(text.trim())?;
    from_bytes(&bytes)
}

/// Hex text when the input is ASCII hex (optionally `0x`-prefixed, with
/// surrounding whitespace or a trailing newline), binary otherwise.
pub(super) fn load(input: &[u8]) -> Result<Metadata, Error> {
    match hex_text(input) {
        Some(text) => from_hex(text),
        None => from_bytes(input),
    }
}

fn hex_text(input: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(input).ok()?.trim();
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    // Binary metadata starts with `meta`, which is not hex, so an all-hex
    // input is text.
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit())).then_some(text)
}
