//! `UncheckedExtrinsic<Address, Call, Signature, Extra>` of formats 4 and 5:
//! what a block body holds. On the wire: a compact byte length, then a
//! preamble byte (format in the low six bits, kind in the high two), then
//! what that kind carries, then the call:
//!
//! | byte | kind | carries |
//! |---|---|---|
//! | `0x04` | format 4 unsigned | nothing |
//! | `0x84` | format 4 signed | address, signature, the extensions' data |
//! | `0x05` | format 5 bare | nothing |
//! | `0x45` | format 5 general | a transaction-extension version byte, the extensions' data |

use parity_scale_codec::{Compact, Decode, Encode, Error, Input, Output};

/// The low six bits of the preamble byte: the format version.
const VERSION_BITS: u8 = 0b0011_1111;
/// Kind bits of a signed (format 4) extrinsic.
const SIGNED: u8 = 0b1000_0000;
/// Kind bits of a general (format 5) transaction.
const GENERAL: u8 = 0b0100_0000;

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

/// The extensions of a format-5 general transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneralPart<Extra> {
    /// The transaction-extension version the extensions belong to.
    pub extension_version: u8,
    /// The extensions' data (era, nonce, tip …).
    pub extensions: Extra,
}

/// What precedes the call: the extrinsic's format and kind with their data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preamble<Address, Signature, Extra> {
    /// No signature and no extensions (unsigned extrinsics, inherents), of
    /// format 4 or 5 (the value).
    Bare(u8),
    /// Format 4 signed.
    Signed(SignedPart<Address, Signature, Extra>),
    /// Format 5 general transaction.
    General(GeneralPart<Extra>),
}

/// An extrinsic of format 4 or 5.
///
/// `Extra` is the runtime's extension tuple of transaction-extension
/// version 0, the one a signed format-4 extrinsic always carries; a general
/// transaction of another extension version is refused when decoded (no
/// runtime of the fixtures lists one; the dynamic layer reads them all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncheckedExtrinsic<Address, Call, Signature, Extra> {
    /// Format, kind and the data that comes with them.
    pub preamble: Preamble<Address, Signature, Extra>,
    /// The call.
    pub function: Call,
}

impl<A, C, S, E> UncheckedExtrinsic<A, C, S, E> {
    /// A format-4 extrinsic: signed when `signature` is `Some`.
    pub fn v4(signature: Option<SignedPart<A, S, E>>, function: C) -> Self {
        let preamble = match signature {
            Some(signed) => Preamble::Signed(signed),
            None => Preamble::Bare(4),
        };
        UncheckedExtrinsic { preamble, function }
    }

    /// The signer's part of a signed extrinsic.
    pub fn signature(&self) -> Option<&SignedPart<A, S, E>> {
        match &self.preamble {
            Preamble::Signed(signed) => Some(signed),
            _ => None,
        }
    }

    /// The extensions' data of a signed extrinsic or a general transaction.
    pub fn extensions(&self) -> Option<&E> {
        match &self.preamble {
            Preamble::Signed(signed) => Some(&signed.extra),
            Preamble::General(general) => Some(&general.extensions),
            Preamble::Bare(_) => None,
        }
    }

    /// The format version: 4 or 5.
    pub fn version(&self) -> u8 {
        match &self.preamble {
            Preamble::Bare(version) => *version,
            Preamble::Signed(_) => 4,
            Preamble::General(_) => 5,
        }
    }
}

impl<A: Encode, C: Encode, S: Encode, E: Encode> Encode for UncheckedExtrinsic<A, C, S, E> {
    fn encode_to<W: Output + ?Sized>(&self, dest: &mut W) {
        let mut inner = Vec::with_capacity(256);
        match &self.preamble {
            Preamble::Bare(version) => inner.push(*version & VERSION_BITS),
            Preamble::Signed(signed) => {
                inner.push(4 | SIGNED);
                signed.encode_to(&mut inner);
            }
            Preamble::General(general) => {
                inner.push(5 | GENERAL);
                inner.push(general.extension_version);
                general.extensions.encode_to(&mut inner);
            }
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
        let first = u8::decode(&mut counted)?;
        let preamble = match (first & VERSION_BITS, first & !VERSION_BITS) {
            (version @ (4 | 5), 0) => Preamble::Bare(version),
            (4, SIGNED) => Preamble::Signed(SignedPart::decode(&mut counted)?),
            (5, GENERAL) => {
                let extension_version = u8::decode(&mut counted)?;
                if extension_version != 0 {
                    return Err(Error::from(
                        "extrinsic: general transaction of an extension version other than 0 \
                         (these types carry version 0's extensions)",
                    ));
                }
                Preamble::General(GeneralPart {
                    extension_version,
                    extensions: E::decode(&mut counted)?,
                })
            }
            _ => {
                return Err(Error::from(
                    "extrinsic: unsupported preamble byte (known: 0x04, 0x84, 0x05, 0x45)",
                ))
            }
        };
        let function = C::decode(&mut counted)?;
        if counted.read != len {
            return Err("extrinsic: length prefix does not match its contents".into());
        }
        Ok(UncheckedExtrinsic { preamble, function })
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
