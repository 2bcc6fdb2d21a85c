//! What the generated `Encode` and `Decode` impls call: one function per
//! field, so that a runtime's hundreds of impls stay short (see
//! `ferroscale-codegen`'s `codec` module). The error messages are the
//! parity-scale-codec derive's, so a decode error reads the same.

use parity_scale_codec::{Decode, Encode, EncodeAsRef, Error, HasCompact, Input, Output};

/// Decodes a field, naming it in the error (`what`: ``Could not decode
/// `AccountInfo::nonce` ``).
#[inline]
pub fn field<T: Decode, I: Input>(input: &mut I, what: &'static str) -> Result<T, Error> {
    T::decode(input).map_err(|e| e.chain(what))
}

/// Decodes a field encoded as a compact.
#[inline]
pub fn compact_field<T: HasCompact, I: Input>(
    input: &mut I,
    what: &'static str,
) -> Result<T, Error> {
    <T as HasCompact>::Type::decode(input)
        .map(Into::into)
        .map_err(|e| e.chain(what))
}

/// Reads an enum's variant index.
#[inline]
pub fn variant_index<I: Input>(input: &mut I, what: &'static str) -> Result<u8, Error> {
    input.read_byte().map_err(|e| e.chain(what))
}

/// Encodes a field as a compact.
#[inline]
pub fn encode_compact<T: HasCompact, O: Output + ?Sized>(value: &T, dest: &mut O) {
    <<T as HasCompact>::Type as EncodeAsRef<'_, T>>::RefType::from(value).encode_to(dest)
}
