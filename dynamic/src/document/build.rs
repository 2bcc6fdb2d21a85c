//! The [`Sink`] that appends decoded values to a [`Document`].
//!
//! The decoder announces how many items a list, tuple or dict will get
//! (`seq_begin(len)`), so the builder reserves that range of `items` /
//! `entries` up front and each push writes its slot index in place: no
//! scratch stack, no copying, however containers nest. Should more items
//! come than announced, the range moves to the end (never the case for
//! this crate's decoder, which announces exact counts or upper bounds).
//! Account ids rendered as SS58 get their node at once and their text in
//! groups of [`PendingAccounts::GROUP`], as `batch_decode` renders them.

use crate::account::PendingAccounts;
use crate::error::Error;
use crate::graph::Name;
use crate::sink::Sink;

use super::{Document, Entry, Key, Slot, Span};

/// Builds into the document it holds (by value, so that every push reaches
/// the arrays through one pointer fewer).
pub(super) struct Builder<'g> {
    doc: Document<'g>,
    /// SS58 accounts whose text is still to be rendered (see
    /// [`Builder::finish`]).
    accounts: Option<PendingAccounts>,
    /// Set if a group of accounts could not be rendered (ruled out by the
    /// format check; the document is then refused rather than left with
    /// empty text).
    accounts_failed: bool,
}

/// A list, tuple or dict being filled: its reserved range and how much of it is used.
pub(super) struct Open {
    start: usize,
    capacity: usize,
    len: usize,
}

impl Open {
    fn span(&self) -> Span {
        Span::new(self.start, self.len)
    }
}

/// Reserves `capacity` places at the end of `array`, filled with `blank`.
fn reserve<T: Copy>(array: &mut Vec<T>, capacity: usize, blank: T) -> Open {
    let start = array.len();
    array.resize(start + capacity, blank);
    Open {
        start,
        capacity,
        len: 0,
    }
}

/// Writes `item` into the next place of `open`, moving the range to the end
/// of `array` (with room to spare) when it is full.
#[inline(always)]
fn push<T: Copy>(array: &mut Vec<T>, open: &mut Open, item: T) {
    if open.len == open.capacity {
        relocate(array, open, item);
    }
    if let Some(place) = array.get_mut(open.start + open.len) {
        *place = item;
    }
    open.len += 1;
}

/// Moves a full range to the end of `array` with room for more.
#[cold]
#[inline(never)]
fn relocate<T: Copy>(array: &mut Vec<T>, open: &mut Open, blank: T) {
    let capacity = (open.capacity * 2).max(4);
    let start = array.len();
    array.extend_from_within(open.start..open.start + open.len);
    array.resize(start + capacity, blank);
    open.start = start;
    open.capacity = capacity;
}

/// Appends `s` to the text of `doc` and returns where it is.
fn push_text(doc: &mut Document<'_>, s: &str) -> Span {
    let start = doc.text.len();
    doc.text.push_str(s);
    Span::new(start, s.len())
}

/// Gives `slot` of `doc` the text `text` (an account rendered late: SS58,
/// which is letters and digits only).
fn fill(doc: &mut Document<'_>, slot: usize, text: &str) {
    let span = push_text(doc, text);
    if let Some(place) = doc.slots.get_mut(slot) {
        *place = Slot::Plain(span);
    }
}

impl<'g> Builder<'g> {
    /// A builder that appends to `doc`.
    pub(super) fn new(doc: Document<'g>) -> Self {
        Builder {
            doc,
            accounts: None,
            accounts_failed: false,
        }
    }

    /// Renders the accounts still set aside and gives back the document.
    pub(super) fn finish(mut self) -> Result<Document<'g>, Error> {
        self.flush_accounts();
        if self.accounts_failed {
            return Err(Error::Usage(
                "an SS58 account could not be rendered into the Document".into(),
            ));
        }
        Ok(self.doc)
    }

    /// Renders every account set aside.
    fn flush_accounts(&mut self) {
        if let Some(pending) = &mut self.accounts {
            let doc = &mut self.doc;
            if pending
                .flush(|slot, _, text| fill(doc, slot, text))
                .is_err()
            {
                self.accounts_failed = true;
            }
        }
    }

    #[inline]
    fn slot(&mut self, slot: Slot<'g>) -> usize {
        self.doc.slots.push(slot);
        self.doc.slots.len() - 1
    }

    fn wide(&mut self, le: &[u8; 32], signed: bool) -> usize {
        self.doc.wide.push(*le);
        // Cut to 32 bits past 2^32 wide integers: the document is then refused.
        let index = (self.doc.wide.len() - 1) as u32;
        self.slot(if signed {
            Slot::WideInt(index)
        } else {
            Slot::WideUInt(index)
        })
    }

    /// Appends the hex digits of `bytes`, after `"0x"` if `prefixed`.
    #[inline]
    fn push_hex(&mut self, prefixed: bool, bytes: &[u8]) -> usize {
        self.plain(|text| {
            if prefixed {
                text.push_str("0x");
            }
            ferroscale_core::hex::push_hex(text, bytes);
        })
    }

    /// A [`Slot::Plain`] of the text `write` appends to the document's text
    /// (letters and digits only: the decoder's own hex, bits, SS58).
    #[inline]
    fn plain(&mut self, write: impl FnOnce(&mut String)) -> usize {
        let start = self.doc.text.len();
        write(&mut self.doc.text);
        let len = self.doc.text.len() - start;
        self.slot(Slot::Plain(Span::new(start, len)))
    }
}

impl<'g> Sink<'g> for Builder<'g> {
    type Out = usize;
    type Seq = Open;
    type Dict = Open;

    fn call_built(&mut self) {
        self.doc.calls += 1;
    }

    /// Written in place (a block's bitfields are hundreds of them), and
    /// plain: binary digits need no JSON escape scan.
    fn bits(&mut self, le_bytes: &[u8], bits: usize) -> usize {
        self.plain(|text| ferroscale_value::render::write_py_bit_string(le_bytes, bits, text))
    }

    fn null(&mut self) -> usize {
        self.slot(Slot::Null)
    }
    fn bool(&mut self, v: bool) -> usize {
        self.slot(Slot::Bool(v))
    }
    fn uint(&mut self, v: u128) -> usize {
        match u64::try_from(v) {
            Ok(small) => self.slot(Slot::UInt(small)),
            Err(_) => {
                let mut le = [0u8; 32];
                le[..16].copy_from_slice(&v.to_le_bytes());
                self.wide(&le, false)
            }
        }
    }
    fn int(&mut self, v: i128) -> usize {
        match i64::try_from(v) {
            Ok(small) => self.slot(Slot::Int(small)),
            Err(_) => {
                let mut le = [if v < 0 { 0xff } else { 0 }; 32];
                le[..16].copy_from_slice(&v.to_le_bytes());
                self.wide(&le, true)
            }
        }
    }
    fn u256(&mut self, le: &[u8; 32]) -> usize {
        self.wide(le, false)
    }
    fn i256(&mut self, le: &[u8; 32]) -> usize {
        self.wide(le, true)
    }
    fn text(&mut self, s: &str) -> usize {
        let span = push_text(&mut self.doc, s);
        self.slot(Slot::Text(span))
    }
    fn name(&mut self, n: &'g Name) -> usize {
        self.slot(Slot::Name(n))
    }
    fn hex(&mut self, bytes: &[u8]) -> usize {
        self.push_hex(true, bytes)
    }
    fn hex_digits(&mut self, bytes: &[u8]) -> usize {
        self.push_hex(false, bytes)
    }

    fn seq_begin(&mut self, len: usize) -> Open {
        reserve(&mut self.doc.items, len, 0)
    }
    #[inline]
    fn seq_push(&mut self, seq: &mut Open, item: usize) {
        push(&mut self.doc.items, seq, item);
    }
    fn list_end(&mut self, seq: Open) -> usize {
        self.slot(Slot::List(seq.span()))
    }
    fn tuple_end(&mut self, seq: Open) -> usize {
        self.slot(Slot::Tuple(seq.span()))
    }

    fn dict_begin(&mut self, len: usize) -> Open {
        let blank = Entry {
            key: Key::Text(0),
            value: 0,
        };
        reserve(&mut self.doc.entries, len, blank)
    }
    #[inline]
    fn dict_insert(&mut self, dict: &mut Open, key: &'g Name, value: usize) {
        let entry = Entry {
            key: Key::Name(key),
            value,
        };
        push(&mut self.doc.entries, dict, entry);
    }
    fn dict_insert_text(&mut self, dict: &mut Open, key: &str, value: usize) {
        let span = push_text(&mut self.doc, key);
        self.doc.key_texts.push(span);
        let key = Key::Text(self.doc.key_texts.len() - 1);
        push(&mut self.doc.entries, dict, Entry { key, value });
    }
    fn dict_end(&mut self, dict: Open) -> usize {
        self.slot(Slot::Dict(dict.span()))
    }

    /// Accounts are rendered in groups (checksums side by side in vector
    /// lanes): the node is made now and gets its text when its group is.
    fn ss58_account(&mut self, key: &[u8; 32], format: u16) -> usize {
        let slot = self.slot(Slot::Plain(Span::default()));
        if self.accounts.as_ref().map(PendingAccounts::format) != Some(format) {
            self.flush_accounts();
            self.accounts = PendingAccounts::new(format);
        }
        match &mut self.accounts {
            Some(pending) => {
                let doc = &mut self.doc;
                if pending
                    .push(slot, *key, |slot, _, text| fill(doc, slot, text))
                    .is_err()
                {
                    self.accounts_failed = true;
                }
            }
            // A format the spec does not allow (the decoder never passes one).
            None => {
                let text = crate::account::ss58_account(key, format);
                fill(&mut self.doc, slot, text.as_deref().unwrap_or_default());
            }
        }
        slot
    }

    /// The document is read-only, so a repeated value is the same slot.
    fn dup(&mut self, v: &usize) -> usize {
        *v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Name;

    /// More items than announced (the decoder never does this; another
    /// caller of the sink could): the range moves and nothing is lost, also
    /// with containers opened and closed in between.
    #[test]
    fn ranges_that_overflow_their_announcement_move_intact() {
        let key: Name = "k".into();
        let mut b = Builder::new(Document::default());
        let mut outer = b.seq_begin(1);
        let mut dict = b.dict_begin(0);
        for i in 0..40u64 {
            let item = b.uint(i as u128);
            b.seq_push(&mut outer, item);
            // An inner list and dict closed between pushes of the outer ones.
            let mut inner = b.seq_begin(0);
            let x = b.text("x");
            b.seq_push(&mut inner, x);
            let inner = b.tuple_end(inner);
            b.dict_insert(&mut dict, &key, inner);
        }
        let d = b.dict_end(dict);
        b.seq_push(&mut outer, d);
        let root = b.list_end(outer);
        let mut doc = b.finish().unwrap();
        doc.root = root;

        let root = doc.root();
        assert_eq!(root.len(), 41);
        for (i, item) in root.items().unwrap().take(40).enumerate() {
            assert_eq!(item.as_u128(), Some(i as u128));
        }
        let dict = root.item(40).unwrap();
        assert_eq!(dict.len(), 40);
        for (k, v) in dict.entries().unwrap() {
            assert_eq!(k, "k");
            assert_eq!(v.item(0).unwrap().as_str(), Some("x"));
        }
    }
}
