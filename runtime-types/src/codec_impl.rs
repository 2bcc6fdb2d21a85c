//! What the generated `Encode` and `Decode` impls call: one function per
//! field, so that a runtime's hundreds of impls stay short (see
//! `ferroscale-codegen`'s `codec` module).
//!
//! A decode error is parity-scale-codec's chained error, one label per level,
//! outermost first; [`crate::decode_all`] writes the chain as one line
//! ([`crate::DecodeError`]). The labels the generated code passes:
//!
//! - a field: `Type.field`, `Type.0` (tuple struct), `Type::Variant.field`,
//!   `Type::Variant.0`;
//! - the field of a pallet's variant in the runtime's call, event or error
//!   enum: `pallet 19 (Treasury) event` (`decode_all` merges it with the
//!   pallet enum's refusal: `pallet 19 (Treasury) has no event variant 8`);
//! - an enum's variant byte: `Type` (only when the input ran out there);
//! - an unknown variant: `Type has no variant 8` ([`no_variant`]), or for the
//!   runtime's outer enums `RuntimeEvent has no pallet with index 200`
//!   ([`no_pallet`]), each above a fixed sentinel.

use parity_scale_codec::{Decode, Encode, EncodeAsRef, Error, HasCompact, Input, Output};

/// The innermost text of an unknown variant's error (below `Type has no variant N`).
pub(crate) const NO_VARIANT: &str = "unknown variant index";

/// The innermost text of an unknown pallet index's error in the runtime's
/// call, event or error enum.
pub(crate) const NO_PALLET: &str = "unknown pallet index";

/// Decodes a field, naming it in the error (`what`: `AccountInfo.nonce`).
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

/// Reads an enum's variant index (`what`: the enum's name).
#[inline]
pub fn variant_index<I: Input>(input: &mut I, what: &'static str) -> Result<u8, Error> {
    input.read_byte().map_err(|e| e.chain(what))
}

/// The error of enum `what` for variant byte `index`, which names none of
/// its variants: `Phase has no variant 9`.
#[cold]
pub fn no_variant(what: &'static str, index: u8) -> Error {
    Error::from(NO_VARIANT).chain(format!("{what} has no variant {index}"))
}

/// The error of the runtime's call, event or error enum `what` for a pallet
/// index none of its pallets has: `RuntimeEvent has no pallet with index 200`.
#[cold]
pub fn no_pallet(what: &'static str, index: u8) -> Error {
    Error::from(NO_PALLET).chain(format!("{what} has no pallet with index {index}"))
}

/// A pallet label's parts (`pallet 19 (Treasury) event`: 19, `Treasury`,
/// `event`), or `None` for any other label.
pub(crate) fn pallet_label(label: &str) -> Option<(&str, &str, &str)> {
    let rest = label.strip_prefix("pallet ")?;
    let (index, rest) = rest.split_once(" (")?;
    let (name, kind) = rest.split_once(") ")?;
    index
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then_some((index, name, kind))
}

/// Encodes a field as a compact.
#[inline]
pub fn encode_compact<T: HasCompact, O: Output + ?Sized>(value: &T, dest: &mut O) {
    <<T as HasCompact>::Type as EncodeAsRef<'_, T>>::RefType::from(value).encode_to(dest)
}
