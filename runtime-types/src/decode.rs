//! Decoding outside input with the generated types: [`decode_all`] (every
//! byte used, nesting and stack capped) and its error, [`DecodeError`], one
//! line with the byte offset and the type path:
//!
//! ```text
//! pallet 19 (Treasury) has no event variant 8 at byte 3 (EventRecord.event); were these types generated for this runtime? `Metadata::check` tells
//! ```
//!
//! The generated `Decode` impls return parity-scale-codec's chained error,
//! each level a label the generated code passes to [`crate::codec_impl`]
//! (the grammar is documented there); [`decode_all`] reads the input
//! through [`Tracked`], which knows where the last read began and whether a
//! read ran past the end, and writes the chain as one line.

use std::fmt;

use ferroscale_core::stack::{StackBase, DEFAULT_STACK_BUDGET};
use parity_scale_codec::{Decode, DecodeLimit, Encode, Error, Input};

use crate::codec_impl::{pallet_label, NO_PALLET, NO_VARIANT};

/// Nesting depth at which generated decoders give up (deeper input is hostile:
/// real calls nest a handful of levels through `batch`/`proxy`/`sudo`).
pub const MAX_DECODE_DEPTH: u32 = 256;

/// The question a decoding error asks when the bytes may be another
/// runtime's: `Metadata::check` (ferroscale-metadata) compares the runtime
/// the types were generated from (`RUNTIME`) with a loaded one.
const MISMATCH_HINT: &str = "were these types generated for this runtime? `Metadata::check` tells";

/// Decodes `bytes` as a `T` (every byte used, nesting capped at
/// [`MAX_DECODE_DEPTH`]) and encodes it again: the round-trip the real-data
/// tests compare with the input. The error is the codec's (what the
/// generated `roundtrip_type` dispatch returns), led by [`DecodeError`]'s line.
pub fn roundtrip<T>(bytes: &[u8]) -> Result<Vec<u8>, Error>
where
    T: Decode + Encode,
{
    let value = decode_all::<T>(bytes)?;
    Ok(value.encode())
}

/// Decodes `bytes` as a `T`, requiring every byte to be used, capping the
/// nesting depth at [`MAX_DECODE_DEPTH`] and the stack the decode may use at
/// [`ferroscale_core::stack::DEFAULT_STACK_BUDGET`] (in a debug build, 256
/// levels of a recursive type can take more than a spawned thread's 2 MiB):
/// the safe way to decode outside input. An error says where and in which
/// field ([`DecodeError`]).
pub fn decode_all<T: Decode>(bytes: &[u8]) -> Result<T, DecodeError> {
    let mut input = Tracked::new(bytes);
    match T::decode_with_depth_limit(MAX_DECODE_DEPTH, &mut input) {
        Ok(value) if input.rest.is_empty() => Ok(value),
        Ok(_) => Err(DecodeError::left_over(input.at(), input.rest.len())),
        Err(e) => Err(DecodeError::from_codec(e, &input)),
    }
}

/// What went wrong, broadly (the message says exactly).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// An enum's variant byte names none of its variants (in the runtime's
    /// call, event or error enum: no such pallet, or no such item in the
    /// pallet). The usual sign of types generated for another runtime.
    UnknownVariant,
    /// The input ended before the value.
    InputEnded,
    /// The value ended before the input.
    BytesLeft,
    /// The value nests deeper than [`MAX_DECODE_DEPTH`] or than the stack budget allows.
    TooDeep,
    /// The bytes are not a value of the type for another reason (an invalid
    /// `bool` or `Option` tag, UTF-8, a compact out of range, an
    /// extrinsic's length prefix, …).
    Invalid,
}

/// Why [`decode_all`] refused its input: one line with what went wrong, the
/// byte offset, and the type path to the field being read (outermost
/// first), e.g. ``pallet 19 (Treasury) has no event variant 8 at byte 3
/// (EventRecord.event); were these types generated for this runtime?
/// `Metadata::check` tells``. Its [`source`](std::error::Error::source) is
/// the codec's error for the innermost step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    offset: usize,
    path: String,
    message: String,
    source: Option<Error>,
}

impl DecodeError {
    /// What went wrong, broadly.
    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The byte the error is about, from the start of the input: the
    /// variant byte or the invalid value's (last) byte, the end of the
    /// input when it ran out, the first byte left over.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The fields being decoded, outermost first, joined by ` > `
    /// (`EventRecord.event > RuntimeEvent::Treasury`); empty at the top level.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// An error of kind `kind` at `offset` with message `what` (and no path).
    pub(crate) fn other(kind: DecodeErrorKind, offset: usize, what: &'static str) -> Self {
        DecodeError {
            kind,
            offset,
            path: String::new(),
            message: format!("{what} at byte {offset}"),
            source: Some(Error::from(what)),
        }
    }

    fn left_over(at: usize, left: usize) -> Self {
        let bytes = if left == 1 { "byte" } else { "bytes" };
        DecodeError {
            kind: DecodeErrorKind::BytesLeft,
            offset: at,
            path: String::new(),
            message: format!("{left} {bytes} left over at byte {at}; {MISMATCH_HINT}"),
            source: None,
        }
    }

    /// The codec's chained error, read with what `input` knows about the
    /// position, as one line.
    fn from_codec(error: Error, input: &Tracked<'_>) -> Self {
        // Each level's own text and the level itself, outermost first.
        let mut levels: Vec<(String, &Error)> = Vec::new();
        let mut level = Some(&error);
        while let Some(e) = level {
            let next = cause(e);
            levels.push((own_text(e, next.is_some()), e));
            level = next;
        }
        let (leaf, leaf_error) = levels.pop().expect("at least the error itself");
        let mut source = leaf_error.clone();
        let mut labels: Vec<String> = levels.into_iter().map(|(t, _)| t).collect();
        let (kind, offset, what) = if let Some((from, wanted)) = input.short {
            let bytes = if wanted == 1 { "byte" } else { "bytes" };
            let end = input.len;
            (
                DecodeErrorKind::InputEnded,
                end,
                format!("input ran out at byte {end}, reading {wanted} {bytes} from byte {from}"),
            )
        } else if (leaf == NO_VARIANT || leaf == NO_PALLET) && !labels.is_empty() {
            // `no_variant`/`no_pallet` put "X has no variant N" above the sentinel.
            let said = labels.pop().expect("checked");
            // The refusal itself is the source, not the sentinel below it.
            if let Some(e) = find_level(&error, labels.len()) {
                source = e.clone();
            }
            let at = input.last;
            let what = match (said.rsplit_once(" has no variant "), labels.last()) {
                (Some((_, index)), Some(outer)) => match pallet_label(outer) {
                    Some((pallet, name, kind)) => {
                        let text =
                            format!("pallet {pallet} ({name}) has no {kind} variant {index}");
                        labels.pop();
                        text
                    }
                    None => said,
                },
                _ => said,
            };
            (
                DecodeErrorKind::UnknownVariant,
                at,
                format!("{what} at byte {at}"),
            )
        } else if leaf.contains("recursion depth") || leaf.contains("stack budget") {
            let at = input.at();
            (DecodeErrorKind::TooDeep, at, format!("{leaf} at byte {at}"))
        } else {
            let at = input.last;
            (DecodeErrorKind::Invalid, at, format!("{leaf} at byte {at}"))
        };
        let path = labels
            .iter()
            .map(|l| match pallet_label(l) {
                Some((_, name, kind)) => format!("Runtime{}::{name}", capitalized(kind)),
                None => l.clone(),
            })
            .collect::<Vec<_>>()
            .join(" > ");
        let mut message = what;
        if !path.is_empty() {
            message.push_str(&format!(" ({path})"));
        }
        if kind != DecodeErrorKind::TooDeep {
            message.push_str("; ");
            message.push_str(MISMATCH_HINT);
        }
        DecodeError {
            kind,
            offset,
            path,
            message,
            source: Some(source),
        }
    }
}

/// The level `depth` steps below `error` (0: `error` itself).
fn find_level(error: &Error, depth: usize) -> Option<&Error> {
    let mut e = error;
    for _ in 0..depth {
        e = cause(e)?;
    }
    Some(e)
}

/// The level below `e` (parity-scale-codec gives its boxed cause as the source).
fn cause(e: &Error) -> Option<&Error> {
    let source = std::error::Error::source(e)?;
    source
        .downcast_ref::<Box<Error>>()
        .map(|b| &**b)
        .or_else(|| source.downcast_ref::<Error>())
}

/// A level's own description: its display without the causes below it
/// (parity-scale-codec writes `desc:\n\tcause…`).
fn own_text(e: &Error, has_cause: bool) -> String {
    let text = e.to_string();
    if has_cause {
        match text.split_once(":\n") {
            Some((own, _)) => own.to_owned(),
            None => text,
        }
    } else {
        text
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The codec's error led by the one line (for the tests' round-trip
/// dispatch, which returns the codec's error type).
impl From<DecodeError> for Error {
    fn from(e: DecodeError) -> Error {
        match e.source {
            Some(source) => source.chain(e.message),
            None => Error::from("bytes left over").chain(e.message),
        }
    }
}

/// The input of [`decode_all`]: a slice that remembers where the last read
/// began and which read it could not fill, and that refuses to go one level
/// deeper once the decode has used its stack budget (every recursive type
/// reaches itself through a `Box`, `Vec` or map, whose `Decode` calls
/// [`Input::descend_ref`] first).
struct Tracked<'b> {
    rest: &'b [u8],
    len: usize,
    /// Where the last read began.
    last: usize,
    /// A read the input could not fill: where it began and the bytes it wanted.
    short: Option<(usize, usize)>,
    base: StackBase,
}

impl<'b> Tracked<'b> {
    fn new(bytes: &'b [u8]) -> Self {
        Tracked {
            rest: bytes,
            len: bytes.len(),
            last: 0,
            short: None,
            base: StackBase::here(),
        }
    }

    /// The offset of the next byte.
    fn at(&self) -> usize {
        self.len - self.rest.len()
    }
}

impl Input for Tracked<'_> {
    fn remaining_len(&mut self) -> Result<Option<usize>, Error> {
        Ok(Some(self.rest.len()))
    }

    #[inline]
    fn read(&mut self, into: &mut [u8]) -> Result<(), Error> {
        let at = self.at();
        match self.rest.split_at_checked(into.len()) {
            Some((head, tail)) => {
                into.copy_from_slice(head);
                self.rest = tail;
                self.last = at;
                Ok(())
            }
            None => {
                self.short = Some((at, into.len()));
                Err("Not enough data to fill buffer".into())
            }
        }
    }

    #[inline]
    fn read_byte(&mut self) -> Result<u8, Error> {
        let at = self.at();
        match self.rest.split_first() {
            Some((&byte, tail)) => {
                self.rest = tail;
                self.last = at;
                Ok(byte)
            }
            None => {
                self.short = Some((at, 1));
                Err("Not enough data to read byte".into())
            }
        }
    }

    fn descend_ref(&mut self) -> Result<(), Error> {
        if self.base.exhausted(DEFAULT_STACK_BUDGET) {
            return Err("nesting used more than the decoder's stack budget".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec_impl::{field, no_variant, variant_index};

    /// A struct of one enum field, decoded as generated code does.
    #[derive(Debug)]
    struct Record(#[allow(dead_code)] u8);

    impl Decode for Record {
        fn decode<I: Input>(input: &mut I) -> Result<Self, Error> {
            let _: u16 = field(input, "Record.before")?;
            Ok(Record(field::<Kind, _>(input, "Record.kind")?.0))
        }
    }

    struct Kind(u8);

    impl Decode for Kind {
        fn decode<I: Input>(input: &mut I) -> Result<Self, Error> {
            match variant_index(input, "Kind")? {
                0 => Ok(Kind(field(input, "Kind::A.0")?)),
                v => Err(no_variant("Kind", v)),
            }
        }
    }

    #[test]
    fn an_unknown_variant_names_its_byte_and_path() {
        let e = decode_all::<Record>(&[1, 0, 7]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Kind has no variant 7 at byte 2 (Record.kind); were these types generated for this \
             runtime? `Metadata::check` tells"
        );
        assert_eq!(
            (e.kind(), e.offset(), e.path()),
            (DecodeErrorKind::UnknownVariant, 2, "Record.kind")
        );
        let source = std::error::Error::source(&e).unwrap().to_string();
        assert!(source.starts_with("Kind has no variant 7"), "{source}");
    }

    #[test]
    fn a_short_input_names_where_it_ran_out() {
        let e = decode_all::<Record>(&[1, 0, 0]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "input ran out at byte 3, reading 1 byte from byte 3 (Record.kind > Kind::A.0); were \
             these types generated for this runtime? `Metadata::check` tells"
        );
        assert_eq!(e.kind(), DecodeErrorKind::InputEnded);
        let e = decode_all::<Record>(&[1]).unwrap_err();
        assert!(
            e.to_string().starts_with(
                "input ran out at byte 1, reading 2 bytes from byte 0 (Record.before)"
            ),
            "{e}"
        );
    }

    #[test]
    fn bytes_left_over_are_counted() {
        let e = decode_all::<u16>(&[1, 2, 3]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "1 byte left over at byte 2; were these types generated for this runtime? \
             `Metadata::check` tells"
        );
        assert_eq!(e.kind(), DecodeErrorKind::BytesLeft);
    }

    #[test]
    fn an_invalid_value_names_its_byte() {
        let e = decode_all::<(u8, bool)>(&[0, 2]).unwrap_err();
        assert_eq!(e.offset(), 1);
        assert!(
            e.to_string()
                .starts_with("Invalid boolean representation at byte 1;"),
            "{e}"
        );
    }

    #[test]
    fn the_codec_error_is_led_by_the_line() {
        let e: Error = decode_all::<Record>(&[1, 0, 7]).unwrap_err().into();
        assert!(
            e.to_string()
                .starts_with("Kind has no variant 7 at byte 2 (Record.kind)"),
            "{e}"
        );
    }
}
