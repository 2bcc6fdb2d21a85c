//! `WrapperKeepOpaque<T>`: a `T` kept as its encoded bytes behind a compact
//! length, so a runtime can carry values whose type it may not decode.

use std::marker::PhantomData;

use parity_scale_codec::{Decode, Encode, Error, Input, Output};

/// The encoded bytes of a `T`, with a compact length prefix on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrapperKeepOpaque<T> {
    /// `T`'s SCALE bytes.
    pub data: Vec<u8>,
    ty: PhantomData<T>,
}

impl<T: Decode> WrapperKeepOpaque<T> {
    /// Wraps already encoded bytes.
    pub fn from_encoded(data: Vec<u8>) -> Self {
        WrapperKeepOpaque {
            data,
            ty: PhantomData,
        }
    }

    /// Decodes the inner value (all bytes must be used).
    pub fn try_decode(&self) -> Result<T, Error> {
        parity_scale_codec::DecodeAll::decode_all(&mut &self.data[..])
    }
}

impl<T> Encode for WrapperKeepOpaque<T> {
    fn size_hint(&self) -> usize {
        self.data.size_hint()
    }

    fn encode_to<W: Output + ?Sized>(&self, dest: &mut W) {
        self.data.encode_to(dest)
    }
}

impl<T> Decode for WrapperKeepOpaque<T> {
    fn decode<I: Input>(input: &mut I) -> Result<Self, Error> {
        Ok(WrapperKeepOpaque {
            data: Vec::<u8>::decode(input)?,
            ty: PhantomData,
        })
    }
}
