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
pub struct GeneralPart<Extensions> {
    /// The transaction-extension version the extensions belong to.
    pub extension_version: u8,
    /// The extensions' data (era, nonce, tip …) of that version.
    pub extensions: Extensions,
}

/// The extensions a general (format-5) transaction carries, read by the
/// transaction-extension version byte before them.
///
/// Implemented for all extension data that encodes and decodes (`Extra`):
/// version 0 only, the one a runtime that lists no other version has.
/// Codegen makes an enum with a variant per version for a runtime whose
/// metadata lists others (`TransactionExtensions`, which is not itself
/// `Encode`/`Decode`), and implements this trait for it.
pub trait GeneralExtensions: Sized {
    /// Decodes the extensions of transaction-extension version `version`.
    fn decode_version<I: Input>(version: u8, input: &mut I) -> Result<Self, Error>;

    /// Encodes the extensions (not the version byte).
    fn encode_extensions_to<W: Output + ?Sized>(&self, dest: &mut W);
}

/// Any extension data that encodes and decodes (the runtime's `Extra`
/// tuple, or the struct some runtimes wrap it in): version 0 only.
impl<T: Encode + Decode> GeneralExtensions for T {
    fn decode_version<I: Input>(version: u8, input: &mut I) -> Result<Self, Error> {
        if version != 0 {
            return Err(Error::from(
                "extrinsic: general transaction of an extension version other than 0 \
                 (the runtime's metadata lists version 0 only)",
            ));
        }
        Self::decode(input)
    }

    fn encode_extensions_to<W: Output + ?Sized>(&self, dest: &mut W) {
        self.encode_to(dest)
    }
}

/// What precedes the call: the extrinsic's format and kind with their data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preamble<Address, Signature, Extra, General = Extra> {
    /// No signature and no extensions (unsigned extrinsics, inherents), of
    /// format 4 or 5 (the value).
    Bare(u8),
    /// Format 4 signed.
    Signed(SignedPart<Address, Signature, Extra>),
    /// Format 5 general transaction.
    General(GeneralPart<General>),
}

/// An extrinsic of format 4 or 5.
///
/// `Extra` is the runtime's extension tuple of transaction-extension
/// version 0, the one a signed format-4 extrinsic always carries. `General`
/// is what a general transaction carries: `Extra` itself (version 0 only)
/// unless the runtime lists other extension versions, where codegen makes
/// an enum of them ([`GeneralExtensions`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncheckedExtrinsic<Address, Call, Signature, Extra, General = Extra> {
    /// Format, kind and the data that comes with them.
    pub preamble: Preamble<Address, Signature, Extra, General>,
    /// The call.
    pub function: Call,
}

impl<A, C, S, E> UncheckedExtrinsic<A, C, S, E, E> {
    /// The extensions' data of a signed extrinsic or a general transaction
    /// (of a runtime with version 0 only; else see [`Self::general`]).
    pub fn extensions(&self) -> Option<&E> {
        match &self.preamble {
            Preamble::Signed(signed) => Some(&signed.extra),
            Preamble::General(general) => Some(&general.extensions),
            Preamble::Bare(_) => None,
        }
    }
}

impl<A, C, S, E, G> UncheckedExtrinsic<A, C, S, E, G> {
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

    /// The extension version and extensions of a general transaction.
    pub fn general(&self) -> Option<&GeneralPart<G>> {
        match &self.preamble {
            Preamble::General(general) => Some(general),
            _ => None,
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

impl<A: Encode, C: Encode, S: Encode, E: Encode, G: GeneralExtensions> Encode
    for UncheckedExtrinsic<A, C, S, E, G>
{
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
                general.extensions.encode_extensions_to(&mut inner);
            }
        }
        self.function.encode_to(&mut inner);
        Compact(inner.len() as u32).encode_to(dest);
        dest.write(&inner);
    }
}

impl<A: Decode, C: Decode, S: Decode, E: Decode, G: GeneralExtensions> Decode
    for UncheckedExtrinsic<A, C, S, E, G>
{
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
            (4, SIGNED) => {
                Preamble::Signed(SignedPart::decode(&mut counted).map_err(|e| e.chain(PREAMBLE))?)
            }
            (5, GENERAL) => {
                let extension_version = u8::decode(&mut counted)?;
                Preamble::General(GeneralPart {
                    extension_version,
                    extensions: G::decode_version(extension_version, &mut counted)
                        .map_err(|e| e.chain(PREAMBLE))?,
                })
            }
            _ => {
                return Err(Error::from(
                    "extrinsic: unsupported preamble byte (known: 0x04, 0x84, 0x05, 0x45)",
                ))
            }
        };
        let function =
            C::decode(&mut counted).map_err(|e| e.chain("UncheckedExtrinsic.function"))?;
        if counted.read != len {
            return Err("extrinsic: length prefix does not match its contents".into());
        }
        Ok(UncheckedExtrinsic { preamble, function })
    }
}

/// The label of a decode error in the signed or general part (see
/// `codec_impl`).
const PREAMBLE: &str = "UncheckedExtrinsic.preamble";

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
