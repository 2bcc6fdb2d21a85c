//! A document's value as compact JSON text, written straight from its
//! arrays: the text [`ferroscale_value::json::write_json`] gives for the
//! value's `to_value()` (one rendering for every JSON output).
//!
//! Why here and not over [`ValueRef`]'s reading methods: the index renders
//! every argument of every call and event this way, and going through the
//! public view (a kind, then a conversion through a scalar [`Value`], then
//! an iterator per container) was a tenth of its time.

use ferroscale_value::json::{write_i128, write_json, write_str, write_u128};

use super::{Document, Slot, ValueRef};

impl ValueRef<'_, '_> {
    /// Appends this value's compact JSON text to `out`: the same text as
    /// `ferroscale_value::json::write_json(&ValueRef { doc, slot }.to_value(), out)`.
    pub fn write_json(self, out: &mut String) {
        write_slot(self.doc, self.slot, out);
    }
}

fn write_slot(doc: &Document<'_>, slot: Slot<'_>, out: &mut String) {
    match slot {
        Slot::Null => out.push_str("null"),
        Slot::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Slot::UInt(n) => write_u128(n.into(), out),
        Slot::Int(n) => write_i128(n.into(), out),
        // 256-bit integers are rare: rendered through their value.
        Slot::WideUInt(_) | Slot::WideInt(_) => write_json(&ValueRef { doc, slot }.to_value(), out),
        // Hex and SS58 text (most of a block's text) needs no escape scan.
        Slot::Plain(span) => {
            out.push('"');
            out.push_str(doc.text_at(span).unwrap_or_default());
            out.push('"');
        }
        Slot::Text(span) => write_str(doc.text_at(span).unwrap_or_default(), out),
        Slot::Name(name) => write_str(name, out),
        Slot::List(span) | Slot::Tuple(span) => {
            out.push('[');
            let items = doc.items.get(span.range()).unwrap_or_default();
            for (i, &item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_slot(doc, slot_at(doc, item), out);
            }
            out.push(']');
        }
        Slot::Dict(span) => {
            out.push('{');
            let entries = doc.entries.get(span.range()).unwrap_or_default();
            for (i, entry) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(doc.key_text(entry.key), out);
                out.push(':');
                write_slot(doc, slot_at(doc, entry.value), out);
            }
            out.push('}');
        }
    }
}

/// The slot at `index` (`Null` outside the document, as [`ValueRef`] reads it).
#[inline]
fn slot_at<'g>(doc: &Document<'g>, index: usize) -> Slot<'g> {
    doc.slots.get(index).copied().unwrap_or(Slot::Null)
}
