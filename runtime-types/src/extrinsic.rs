//! `UncheckedExtrinsic<Address, Call, Signature, Extra>`, version 4: what a
//! block body holds. On the wire: a compact byte length, then a version byte
//! (`0x84` signed, `0x04` unsigned), then for a signed one the address, the
//! signature and the signed extensions' extra data, then the call.

use parity_scale_codec::{Compact, Decode, Encode, Error, Input, Output};

/// Bit of the version byte that marks a signed extrinsic.
const SIGNED_BIT: u8 = 0b1000_0000;
/// The extrinsic format version this type reads and writes.
const VERSION: u8 = 4;

/// The signer's part of a signed extrinsic.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
pub struct SignedPart<Address, Signature, Extra> {
    /// Who signed.
    pub address: Address,
    /// The signature.
    pub signature: Signature,
    /// The signed extensions' extra data (era, nonce, tip …).
    pub extra: Extra,
}

/// A version-4 extrinsic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncheckedExtrinsic<Address, Call, Signature, Extra> {
    /// `Some` for a signed extrinsic.
    pub signature: Option<SignedPart<Address, Signature, Extra>>,
    /// The call.
    pub function: Call,
}

impl<A: Encode, C: Encode, S: Encode, E: Encode> Encode for UncheckedExtrinsic<A, C, S, E> {
    fn encode_to<W: Output + ?Sized>(&self, dest: &mut W) {
        let mut inner = Vec::with_capacity(256);
        match &self.signature {
            Some(signed) => {
                inner.push(VERSION | SIGNED_BIT);
                signed.encode_to(&mut inner);
            }
            None => inner.push(VERSION),
        }
        self.function.encode_to(&mut inner);
        Compact(inner.len() as u32).encode_to(dest);
        dest.write(&inner);
    }
}

impl<A: Decode, C: Decode, S: Decode, E: Decode> Decode for UncheckedExtrinsic<A, C, S, E> {
    fn decode<I: Input>(input: &mut I) -> Result<Self, Error> {
        let Compact(len) = Compact::<u32>::decode(input)?;
        let len = len as usize;
        if let Some(remaining) = input.remaining_len()? {
            if remaining < len {
                return Err("extrinsic: length prefix exceeds the remaining input".into());
            }
        }
        // Read through a counting wrapper so the length prefix is checked
        // without first copying the bytes out.
        let mut counted = Counted {
            inner: input,
            read: 0,
            limit: len,
        };
        let version = u8::decode(&mut counted)?;
        if version & !SIGNED_BIT != VERSION {
            return Err("extrinsic: unsupported format version (only version 4 is known)".into());
        }
        let signature = if version & SIGNED_BIT != 0 {
            Some(SignedPart::decode(&mut counted)?)
        } else {
            None
        };
        let function = C::decode(&mut counted)?;
        if counted.read != len {
            return Err("extrinsic: length prefix does not match its contents".into());
        }
        Ok(UncheckedExtrinsic {
            signature,
            function,
        })
    }
}

/// An input that refuses to read past `limit` bytes and counts what it read.
struct Counted<'a, I: Input> {
    inner: &'a mut I,
    read: usize,
    limit: usize,
}

impl<I: Input> Input for Counted<'_, I> {
    fn remaining_len(&mut self) -> Result<Option<usize>, Error> {
        Ok(Some(self.limit - self.read))
    }

    fn read(&mut self, into: &mut [u8]) -> Result<(), Error> {
        if into.len() > self.limit - self.read {
            return Err("extrinsic: contents run past the length prefix".into());
        }
        self.inner.read(into)?;
        self.read += into.len();
        Ok(())
    }

    fn descend_ref(&mut self) -> Result<(), Error> {
        self.inner.descend_ref()
    }

    fn ascend_ref(&mut self) {
        self.inner.ascend_ref()
    }

    fn on_before_alloc_mem(&mut self, size: usize) -> Result<(), Error> {
        self.inner.on_before_alloc_mem(size)
    }
}
