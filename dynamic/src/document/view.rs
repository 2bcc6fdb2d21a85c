//! Reading a [`Document`]: [`ValueRef`] points at one of its values.

use std::fmt;

use ferroscale_value::Value;

use super::{Document, Entry, Slot};

/// What kind of value a [`ValueRef`] is (the [`Value`] variants, with the
/// integer widths folded together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `None`.
    Null,
    /// A boolean.
    Bool,
    /// An integer of any width.
    Int,
    /// Text.
    Str,
    /// A list.
    List,
    /// A tuple.
    Tuple,
    /// A dict.
    Dict,
}

/// One value of a [`Document`]; cheap to copy.
#[derive(Clone, Copy)]
pub struct ValueRef<'d, 'g> {
    pub(super) doc: &'d Document<'g>,
    pub(super) slot: Slot<'g>,
}

impl<'d, 'g> ValueRef<'d, 'g> {
    #[inline]
    pub(super) fn new(doc: &'d Document<'g>, index: usize) -> Self {
        // An index outside the document (only an empty document's root) reads as None.
        let slot = doc.slots.get(index).copied().unwrap_or(Slot::Null);
        ValueRef { doc, slot }
    }

    /// The kind of value.
    #[inline]
    pub fn kind(self) -> Kind {
        match self.slot {
            Slot::Null => Kind::Null,
            Slot::Bool(_) => Kind::Bool,
            Slot::UInt(_) | Slot::Int(_) | Slot::WideUInt(_) | Slot::WideInt(_) => Kind::Int,
            Slot::Text(_) | Slot::Plain(_) | Slot::Name(_) => Kind::Str,
            Slot::List(_) => Kind::List,
            Slot::Tuple(_) => Kind::Tuple,
            Slot::Dict(_) => Kind::Dict,
        }
    }

    /// Whether this is `None`.
    pub fn is_null(self) -> bool {
        matches!(self.slot, Slot::Null)
    }

    /// The boolean, if this is one.
    #[inline]
    pub fn as_bool(self) -> Option<bool> {
        match self.slot {
            Slot::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The integer, if this is one that fits a `u128`.
    #[inline]
    pub fn as_u128(self) -> Option<u128> {
        match self.to_scalar()? {
            Value::UInt(n) => Some(n),
            Value::Int(n) => u128::try_from(n).ok(),
            _ => None,
        }
    }

    /// The integer, if this is one that fits an `i128`.
    #[inline]
    pub fn as_i128(self) -> Option<i128> {
        match self.to_scalar()? {
            Value::UInt(n) => i128::try_from(n).ok(),
            Value::Int(n) => Some(n),
            _ => None,
        }
    }

    /// The text, if this is text.
    #[inline]
    pub fn as_str(self) -> Option<&'d str> {
        match self.slot {
            Slot::Text(span) | Slot::Plain(span) => self.doc.text_at(span),
            Slot::Name(name) => Some(&**name),
            _ => None,
        }
    }

    /// The text, if this is text the decoder wrote itself (hex digits,
    /// SS58 addresses, `0b…` bit sequences): ASCII letters and digits only, so a JSON writer can
    /// quote it as it is, without scanning it for escapes. `None` for other
    /// text (read it with [`ValueRef::as_str`]) and for other values.
    #[inline]
    pub fn as_plain_str(self) -> Option<&'d str> {
        match self.slot {
            Slot::Plain(span) => self.doc.text_at(span),
            _ => None,
        }
    }

    /// The items of a list or tuple (`None` for other values).
    #[inline]
    pub fn items(self) -> Option<Items<'d, 'g>> {
        match self.slot {
            Slot::List(span) | Slot::Tuple(span) => Some(Items {
                doc: self.doc,
                indexes: self.doc.items.get(span.range()).unwrap_or_default().iter(),
            }),
            _ => None,
        }
    }

    /// The entries of a dict, in order (`None` for other values).
    #[inline]
    pub fn entries(self) -> Option<Entries<'d, 'g>> {
        match self.slot {
            Slot::Dict(span) => Some(Entries {
                doc: self.doc,
                entries: self
                    .doc
                    .entries
                    .get(span.range())
                    .unwrap_or_default()
                    .iter(),
            }),
            _ => None,
        }
    }

    /// The item at `index` of a list or tuple.
    pub fn item(self, index: usize) -> Option<ValueRef<'d, 'g>> {
        self.items()?.nth(index)
    }

    /// The value under `key` of a dict.
    pub fn get(self, key: &str) -> Option<ValueRef<'d, 'g>> {
        self.entries()?.find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// How many items or entries a list, tuple or dict has (0 for other values).
    pub fn len(self) -> usize {
        match self.slot {
            Slot::List(span) | Slot::Tuple(span) | Slot::Dict(span) => span.len as usize,
            _ => 0,
        }
    }

    /// Whether [`ValueRef::len`] is 0.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// This value as an owned [`Value`] tree (the shape
    /// [`crate::decode_value`] gives).
    pub fn to_value(self) -> Value {
        if let Some(v) = self.to_scalar() {
            return v;
        }
        match self.slot {
            Slot::List(_) => Value::List(self.items_to_values()),
            Slot::Tuple(_) => Value::Tuple(self.items_to_values()),
            Slot::Dict(_) => Value::Dict(
                self.entries()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| (k.into(), v.to_value()))
                    .collect(),
            ),
            // Scalars were handled above.
            _ => Value::Null,
        }
    }

    fn items_to_values(self) -> Vec<Value> {
        self.items()
            .into_iter()
            .flatten()
            .map(|v| v.to_value())
            .collect()
    }

    /// A scalar as a [`Value`] (wide integers normalised the way
    /// [`crate::ValueSink`] does); `None` for containers.
    #[inline]
    fn to_scalar(self) -> Option<Value> {
        Some(match self.slot {
            Slot::Null => Value::Null,
            Slot::Bool(b) => Value::Bool(b),
            Slot::UInt(n) => Value::UInt(n as u128),
            Slot::Int(n) => Value::Int(n as i128),
            Slot::WideUInt(i) => {
                let le = self.doc.wide.get(i as usize).copied().unwrap_or_default();
                let mut sink = crate::ValueSink;
                crate::Sink::u256(&mut sink, &le)
            }
            Slot::WideInt(i) => {
                let le = self.doc.wide.get(i as usize).copied().unwrap_or_default();
                let mut sink = crate::ValueSink;
                crate::Sink::i256(&mut sink, &le)
            }
            Slot::Text(_) | Slot::Plain(_) | Slot::Name(_) => {
                Value::str(self.as_str().unwrap_or_default())
            }
            Slot::List(_) | Slot::Tuple(_) | Slot::Dict(_) => return None,
        })
    }
}

impl fmt::Debug for ValueRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_value(), f)
    }
}

/// The items of a list or tuple ([`ValueRef::items`]).
#[derive(Clone)]
pub struct Items<'d, 'g> {
    doc: &'d Document<'g>,
    indexes: std::slice::Iter<'d, usize>,
}

impl<'d, 'g> Iterator for Items<'d, 'g> {
    type Item = ValueRef<'d, 'g>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let &i = self.indexes.next()?;
        Some(ValueRef::new(self.doc, i))
    }
    fn nth(&mut self, n: usize) -> Option<Self::Item> {
        let &i = self.indexes.nth(n)?;
        Some(ValueRef::new(self.doc, i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.indexes.size_hint()
    }
}

impl ExactSizeIterator for Items<'_, '_> {}

/// The entries of a dict ([`ValueRef::entries`]).
#[derive(Clone)]
pub struct Entries<'d, 'g> {
    doc: &'d Document<'g>,
    entries: std::slice::Iter<'d, Entry<'g>>,
}

impl<'d, 'g> Iterator for Entries<'d, 'g> {
    type Item = (&'d str, ValueRef<'d, 'g>);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let e = self.entries.next()?;
        Some((self.doc.key_text(e.key), ValueRef::new(self.doc, e.value)))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl ExactSizeIterator for Entries<'_, '_> {}
