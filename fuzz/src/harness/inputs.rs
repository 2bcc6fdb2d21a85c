//! The byte layouts of the targets' inputs that name what to decode (a
//! registry or runtime, an item, flags, then the bytes): the entry points
//! in [`targets`](super::targets) read them, the [`seeds`](super::seeds)
//! build them.

/// Bit of the flags byte of a [`dynamic_decode`](super::targets::dynamic_decode)
/// input: decode as a whole extrinsic instead of the selected type.
pub const FLAG_EXTRINSIC: u8 = 0x80;
/// Bit of the flags byte: render account ids as SS58 (format 42).
pub const FLAG_SS58: u8 = 0x01;

/// Builds a [`dynamic_decode`](super::targets::dynamic_decode) input:
/// registry `registry` (index into
/// [`REGISTRY_FIXTURES`](super::registries::REGISTRY_FIXTURES)), graph node
/// `ty`, `flags`, then the bytes.
pub fn dynamic_input(registry: u8, ty: u16, flags: u8, payload: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(4 + payload.len());
    v.push(registry);
    v.extend_from_slice(&ty.to_le_bytes());
    v.push(flags);
    v.extend_from_slice(payload);
    v
}

/// What a [`named`](super::targets::named) input decodes (its byte 3,
/// modulo 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedKind {
    /// A runtime API method's result.
    RuntimeApiResult = 0,
    /// A view function's whole `state_call` answer.
    ViewFunctionAnswer = 1,
    /// A storage map's key after its 32-byte prefix, read back into parts.
    StorageKey = 2,
    /// A whole extrinsic (formats 4 and 5).
    Extrinsic = 3,
}

/// Builds a [`named`](super::targets::named) input: runtime `runtime`
/// (index into [`NAMED_FIXTURES`](super::named::NAMED_FIXTURES)), item
/// `item` of `kind`, then the bytes.
pub fn named_input(runtime: u8, item: u16, kind: NamedKind, payload: &[u8]) -> Vec<u8> {
    dynamic_input(runtime, item, kind as u8, payload)
}
