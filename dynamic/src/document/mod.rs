//! A decoded value as one flat document: the same content and shapes as
//! [`Value`] (py-scale-codec's), stored in a few arrays instead of a tree of
//! allocations.
//!
//! Why: a [`Value`] tree costs an allocation (and later a free) per list,
//! dict and string, and an atomic reference count per field name; for
//! values of many small parts (event records, `Vec<DelegateInfo>`) that is
//! most of the decoding time. A [`Document`] appends every node to one array,
//! every child reference to another, every string to one text buffer, and
//! borrows field and variant names from the type graph (hence its lifetime
//! `'g`). Reading goes through [`ValueRef`]; [`ValueRef::to_value`] gives the
//! owned tree when one is needed. A document can be decoded into again
//! ([`Document::decode_into`]), reusing its buffers.
//!
//! By type string, resolve first (which may add to the registry), then
//! decode against the registry's context:
//!
//! ```
//! use ferroscale_dynamic::registry::Registry;
//! use ferroscale_dynamic::Document;
//!
//! let mut registry = Registry::new();
//! let ty = registry.resolve("(u32, Vec<bool>, Option<Bytes>)")?;
//! let doc = Document::decode(&registry.context(), ty, &[7, 0, 0, 0, 8, 1, 0, 1, 8, b'h', b'i'])?;
//! let root = doc.root();
//! assert_eq!(root.item(0).and_then(|v| v.as_u128()), Some(7));
//! assert_eq!(root.item(1).map(|v| v.len()), Some(2));
//! assert_eq!(root.item(2).and_then(|v| v.as_str()), Some("hi"));
//! assert_eq!(doc.to_value(), registry.decode("(u32, Vec<bool>, Option<Bytes>)", &[7, 0, 0, 0, 8, 1, 0, 1, 8, b'h', b'i'])?);
//! # Ok::<(), ferroscale_dynamic::Error>(())
//! ```

mod build;
mod json;
mod view;

pub use view::{Entries, Items, Kind, ValueRef};

use ferroscale_value::Value;

use crate::context::Context;
use crate::decode::{decode_owned, decode_owned_prefix};
use crate::error::Error;
use crate::graph::{Name, TypeIdx};

/// A decoded value stored flat; read it with [`Document::root`].
#[derive(Clone, Debug, Default)]
pub struct Document<'g> {
    /// Every node; children come before their container.
    slots: Vec<Slot<'g>>,
    /// The children of lists and tuples: ranges of slot indexes.
    items: Vec<usize>,
    /// The entries of dicts: ranges of (key, slot index).
    entries: Vec<Entry<'g>>,
    /// All decoded text (strings, hex, SS58), back to back. A `String`,
    /// so reading a span checks only its ends (hex digits are written in
    /// place by [`ferroscale_core::hex::push_hex`]).
    text: String,
    /// Where in `text` the keys of [`Key::Text`] are.
    key_texts: Vec<Span>,
    /// Integers wider than 64 bits, 32 little-endian bytes each.
    wide: Vec<[u8; 32]>,
    /// Calls the decoder built into the value (see [`Document::calls`]).
    calls: usize,
    /// The slot of the decoded value.
    root: usize,
}

/// One node of a [`Document`].
#[derive(Clone, Copy, Debug)]
enum Slot<'g> {
    Null,
    Bool(bool),
    UInt(u64),
    Int(i64),
    /// An unsigned integer in `wide[index]`.
    WideUInt(u32),
    /// A two's-complement signed integer in `wide[index]`.
    WideInt(u32),
    /// `text[start..start + len]`.
    Text(Span),
    /// `text[start..start + len]`, written by the decoder itself (hex
    /// digits, SS58, `0b…` bits): letters and digits only, nothing JSON
    /// escapes.
    Plain(Span),
    /// A name from the type graph (variant names as values).
    Name(&'g Name),
    /// `items[span]`.
    List(Span),
    /// `items[span]`.
    Tuple(Span),
    /// `entries[span]`.
    Dict(Span),
}

/// An empty vector of another item type in `v`'s allocation (the standard
/// library collects a mapped `IntoIter` in place when the two types have
/// the same size and alignment: here, one type under two lifetimes).
fn emptied<T, U>(v: Vec<T>) -> Vec<U> {
    v.into_iter().filter_map(|_| None).collect()
}

/// A range of one of a document's arrays, in 32-bit offsets so that a node
/// takes 16 bytes (a document past 2^32 of anything is refused, see
/// [`Document::decode_into`]).
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: u32,
    len: u32,
}

impl Span {
    /// The range `start..start + len` (cut to 32 bits: the decode is then
    /// refused before anyone reads it).
    fn new(start: usize, len: usize) -> Self {
        Span {
            start: start as u32,
            len: len as u32,
        }
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// A dict entry.
#[derive(Clone, Copy, Debug)]
struct Entry<'g> {
    key: Key<'g>,
    value: usize,
}

/// A dict key: a graph name (kept as the reference the decoder passes, so
/// storing it reads nothing), or text of the document (keys of a [`Value`]
/// converted into it, see [`crate::Sink::value`]): `key_texts[index]`, so
/// that an entry stays 24 bytes.
#[derive(Clone, Copy, Debug)]
enum Key<'g> {
    Name(&'g Name),
    Text(usize),
}

impl<'g> Document<'g> {
    /// An empty document (its root reads as `None` until decoded into).
    pub fn new() -> Self {
        Document::default()
    }

    /// Decodes all of `bytes` as `ty` (trailing bytes are an error, as in
    /// [`crate::decode_value`]).
    pub fn decode(ctx: &Context<'g>, ty: TypeIdx, bytes: &[u8]) -> Result<Self, Error> {
        // A first guess at the sizes from the input's (chain values have
        // about a node per three input bytes, and render to about twice
        // their size in text), so most decodes never regrow. Capped: past
        // that the arrays grow as usual.
        let guess = bytes.len().min(1 << 22);
        let mut doc = Document {
            slots: Vec::with_capacity(guess / 3 + 8),
            items: Vec::with_capacity(guess / 8 + 8),
            entries: Vec::with_capacity(guess / 3 + 8),
            text: String::with_capacity(2 * guess + 8),
            ..Document::default()
        };
        doc.decode_into(ctx, ty, bytes)?;
        Ok(doc)
    }

    /// Decodes into this document, replacing its value and keeping its
    /// buffers' capacity (for decoding many values one after another). On
    /// error the document is left empty.
    pub fn decode_into(
        &mut self,
        ctx: &Context<'g>,
        ty: TypeIdx,
        bytes: &[u8],
    ) -> Result<(), Error> {
        self.clear();
        let builder = build::Builder::new(std::mem::take(self));
        let (decoded, builder) = decode_owned(ctx, ty, bytes, builder);
        let finished = builder.finish();
        let decoded = match finished {
            Ok(doc) => {
                *self = doc;
                decoded.and_then(|root| self.check_offsets(bytes.len()).map(|()| root))
            }
            Err(e) => Err(e),
        };
        match decoded {
            Ok(root) => {
                self.root = root;
                Ok(())
            }
            Err(e) => {
                self.clear();
                Err(e)
            }
        }
    }

    /// Decodes a `ty` from the start of `bytes` into this document (as
    /// [`Document::decode_into`], the bytes after the value left alone):
    /// the bytes the value used. A caller that reads a value's parts itself
    /// hands the parts it does not read to the dynamic decoder this way
    /// (the index's typed tables: a column written as JSON).
    pub fn decode_prefix_into(
        &mut self,
        ctx: &Context<'g>,
        ty: TypeIdx,
        bytes: &[u8],
    ) -> Result<usize, Error> {
        self.clear();
        let builder = build::Builder::new(std::mem::take(self));
        let (decoded, builder) = decode_owned_prefix(ctx, ty, bytes, builder);
        let decoded = match builder.finish() {
            Ok(doc) => {
                *self = doc;
                decoded.and_then(|(root, used)| self.check_offsets(used).map(|()| (root, used)))
            }
            Err(e) => Err(e),
        };
        match decoded {
            Ok((root, used)) => {
                self.root = root;
                Ok(used)
            }
            Err(e) => {
                self.clear();
                Err(e)
            }
        }
    }

    /// This document emptied, its buffers kept, for values of any type graph
    /// (the lifetime is only the graph's names): a worker can keep one
    /// document's memory from one batch of decodes to the next, where a
    /// fresh document grows (and faults in) its arrays anew every time.
    pub fn recycle<'h>(mut self) -> Document<'h> {
        self.clear();
        Document {
            slots: emptied(self.slots),
            items: self.items,
            entries: emptied(self.entries),
            text: self.text,
            key_texts: self.key_texts,
            wide: self.wide,
            calls: 0,
            root: 0,
        }
    }

    /// The decoded value.
    pub fn root(&self) -> ValueRef<'_, 'g> {
        ValueRef::new(self, self.root)
    }

    /// The decoded value as an owned [`Value`] tree.
    pub fn to_value(&self) -> Value {
        self.root().to_value()
    }

    /// How many calls (dicts of `call_module`, `call_function`, …) the
    /// decoder built into the value, nested ones included; `None` when parts
    /// of the value were built elsewhere (a decode hook's values, whose calls
    /// the decoder did not see). An extrinsic with `Some(1)` has no call
    /// nested in its own, so a reader looking for nested calls need not walk
    /// its arguments.
    pub fn calls(&self) -> Option<usize> {
        self.key_texts.is_empty().then_some(self.calls)
    }

    /// Refuses a document with an array past 32-bit offsets. The arrays only
    /// grow while building, so if none ends past that, no [`Span`] was cut.
    fn check_offsets(&self, input_len: usize) -> Result<(), Error> {
        let lengths = [
            self.slots.len(),
            self.items.len(),
            self.entries.len(),
            self.text.len(),
            self.key_texts.len(),
            self.wide.len(),
        ];
        if lengths.iter().all(|&n| u32::try_from(n).is_ok()) {
            return Ok(());
        }
        Err(Error::Usage(format!(
            "the value of {input_len} input bytes is too large for a Document (an array past 2^32 entries); decode it into a Value instead"
        )))
    }

    /// The text of a dict key.
    #[inline]
    fn key_text(&self, key: Key<'g>) -> &str {
        match key {
            Key::Name(name) => name,
            Key::Text(index) => self
                .key_texts
                .get(index)
                .and_then(|&span| self.text_at(span))
                .unwrap_or_default(),
        }
    }

    /// The text of `span` (always UTF-8, see [`Document::text`]).
    #[inline]
    fn text_at(&self, span: Span) -> Option<&str> {
        self.text.get(span.range())
    }

    fn clear(&mut self) {
        self.slots.clear();
        self.items.clear();
        self.entries.clear();
        self.text.clear();
        self.key_texts.clear();
        self.wide.clear();
        self.calls = 0;
        self.root = 0;
    }
}
