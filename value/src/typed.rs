//! Typed decoders by structural hash: what the dynamic layer needs to decode
//! a runtime's type through a generated Rust type instead of walking it.
//!
//! Every generated chain module has, behind the `values` feature, a
//! `TYPED_DECODERS` table: one [`TypedDecoder`] per structural hash
//! (`ferroscale_metadata::type_hash`) of the metadata types
//! it was generated from, sorted by hash. A decoder runs the type's generated
//! `Decode` (with a nesting limit) and converts the result with
//! [`ToValue`], so it gives the value the dynamic decoder gives for a type
//! of that hash — where the dynamic rendering does not depend on runtime
//! settings (SS58 format, the runtime's call and event tables), which the
//! dynamic layer checks before using one.
//!
//! The tables are plain statics: a service attaches the ones of the chains
//! it compiled in (through `ferroscale-typed-fallback`) and nothing else is
//! linked. This interface sits below both the generated chains and the
//! dynamic layer, so neither depends on the other.

use parity_scale_codec::{Decode, DecodeLimit};

use crate::{ToValue, Value};

/// Decodes one value from the front of the input (advancing it past the
/// bytes used; trailing bytes are left for the caller) with a nesting limit
/// (the first argument, as [`DecodeLimit`] counts it), as a dynamic [`Value`].
pub type TypedDecoder = fn(u32, &mut &[u8]) -> Result<Value, parity_scale_codec::Error>;

/// A table of typed decoders: `(structural hash, decoder)`, sorted by hash,
/// one entry per hash (what generated chain modules export as `TYPED_DECODERS`).
pub type TypedDecoderTable = &'static [(u128, TypedDecoder)];

/// The [`TypedDecoder`] of `T`: `T`'s generated `Decode` under a nesting limit,
/// then [`ToValue`]. Generated tables hold instances of this function.
pub fn decode_to_value<T: Decode + ToValue>(
    depth_limit: u32,
    input: &mut &[u8],
) -> Result<Value, parity_scale_codec::Error> {
    T::decode_with_depth_limit(depth_limit, input).map(|v| v.to_value())
}

/// The decoder for structural hash `hash` in `table` (binary search; the
/// table must be sorted by hash, as generated tables are).
pub fn find_decoder(table: TypedDecoderTable, hash: u128) -> Option<TypedDecoder> {
    table
        .binary_search_by_key(&hash, |&(h, _)| h)
        .ok()
        .map(|i| table[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    static TABLE: &[(u128, TypedDecoder)] =
        &[(3, decode_to_value::<u32>), (7, decode_to_value::<Vec<u8>>)];

    #[test]
    fn decoders_are_found_by_hash_and_leave_trailing_bytes() {
        assert!(find_decoder(TABLE, 4).is_none());
        let decode = find_decoder(TABLE, 3).expect("entry");
        let mut input: &[u8] = &[1, 0, 0, 0, 9];
        assert_eq!(decode(8, &mut input), Ok(Value::UInt(1)));
        assert_eq!(input, &[9]);
        let decode = find_decoder(TABLE, 7).expect("entry");
        assert_eq!(decode(8, &mut &[8, b'h', b'i'][..]), Ok(Value::str("hi")));
        assert!(decode(8, &mut &[12, b'h'][..]).is_err());
    }
}
