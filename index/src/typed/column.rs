//! Builders shaped like their column, appended to row by row
//! ([`Builder::append`], in [`super::append`]) and finished into Arrow
//! arrays (one array per Arrow field: two for a wide integer).
//!
//! Text and bytes go back to back into one buffer per column
//! ([`crate::columns`]), never a `String` or `Vec` per value: the
//! allocations and copies of per-value buffers were most of the typed
//! tables' time.

use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, BooleanArray, Decimal128Array, DictionaryArray, FixedSizeBinaryArray, Int16Array,
    Int32Array, Int64Array, Int8Array, ListArray, StructArray, UInt16Array, UInt32Array,
    UInt64Array, UInt8Array,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, Fields};

use super::arrow_type::{
    enum_fields, item_field, struct_fields, unwrap_option, VALUE, WIDE_PRECISION,
};
use super::shape::Shape;
use crate::columns::{BytesColumn, TextColumn};

/// The rows of one column of a shape, as they are appended.
#[derive(Clone, Debug)]
pub enum Builder {
    /// Booleans.
    Bool(Vec<Option<bool>>),
    /// Unsigned integers of a width (bits).
    UInt(u8, Vec<Option<u64>>),
    /// Signed integers of a width (bits).
    Int(u8, Vec<Option<i64>>),
    /// Wide integers: the decimal, the digits.
    Wide(Vec<Option<i128>>, TextColumn),
    /// Text and JSON.
    Text(TextColumn),
    /// Enum labels of a table column (dictionary-encoded).
    Label(TextColumn),
    /// Binary.
    Bytes(BytesColumn),
    /// Fixed-size binary: the width, the rows' bytes back to back (zeros
    /// for a null row), each row's validity.
    Hex(u32, Vec<u8>, Vec<bool>),
    /// A list: item shape (for its field), offsets, validity, items.
    List(Box<Shape>, Vec<i32>, Vec<bool>, Box<Builder>),
    /// A struct: its Arrow fields, validity, one builder per shape field.
    Struct(Fields, Vec<bool>, Vec<Builder>),
}

impl Builder {
    /// An empty builder for a table column of `shape` (its Arrow type
    /// [`super::arrow_type::fields_of`]).
    pub fn new(shape: &Shape) -> Builder {
        match unwrap_option(shape) {
            Shape::Label => Builder::Label(TextColumn::default()),
            _ => Builder::nested(shape),
        }
    }

    /// An empty builder for a column of `shape` nested in a struct or a
    /// list (a label is plain text there).
    fn nested(shape: &Shape) -> Builder {
        match unwrap_option(shape) {
            Shape::Bool => Builder::Bool(Vec::new()),
            Shape::UInt(b) => Builder::UInt(*b, Vec::new()),
            Shape::Int(b) => Builder::Int(*b, Vec::new()),
            Shape::Wide { .. } => Builder::Wide(Vec::new(), TextColumn::default()),
            Shape::Text | Shape::Json | Shape::Label => Builder::Text(TextColumn::default()),
            Shape::Bytes => Builder::Bytes(BytesColumn::default()),
            Shape::Hex(n) => Builder::Hex(*n, Vec::new(), Vec::new()),
            Shape::List(item) => {
                let items = match unwrap_option(item) {
                    // A wide item is a struct of its two columns.
                    Shape::Wide { .. } => Builder::nested(&Shape::Struct {
                        fields: vec![(VALUE.to_string(), (**item).clone())],
                        tuple: false,
                    }),
                    _ => Builder::nested(item),
                };
                Builder::List(item.clone(), vec![0], Vec::new(), Box::new(items))
            }
            Shape::Struct { fields, .. } => Builder::Struct(
                struct_fields(fields.iter().map(|(n, s)| (n.as_str(), s))),
                Vec::new(),
                fields.iter().map(|(_, s)| Builder::nested(s)).collect(),
            ),
            Shape::Enum { variants } => {
                let mut children = vec![Builder::Text(TextColumn::default())];
                children.extend(
                    variants
                        .iter()
                        .filter_map(|(_, p)| p.as_ref())
                        .map(Builder::nested),
                );
                Builder::Struct(enum_fields(variants), Vec::new(), children)
            }
            Shape::Option(_) => unreachable!("unwrap_option removes options"),
        }
    }

    /// Appends NULL.
    pub fn push_null(&mut self) {
        match self {
            Builder::Bool(v) => v.push(None),
            Builder::UInt(_, v) => v.push(None),
            Builder::Int(_, v) => v.push(None),
            Builder::Wide(d, t) => {
                d.push(None);
                t.push_null();
            }
            Builder::Text(v) | Builder::Label(v) => v.push_null(),
            Builder::Bytes(v) => v.push_null(),
            Builder::Hex(n, data, valid) => {
                data.resize(data.len() + *n as usize, 0);
                valid.push(false);
            }
            Builder::List(_, offsets, valid, _) => {
                let last = offsets.last().copied().unwrap_or(0);
                offsets.push(last);
                valid.push(false);
            }
            Builder::Struct(_, valid, children) => {
                children.iter_mut().for_each(Builder::push_null);
                valid.push(false);
            }
        }
    }

    /// Rows appended.
    pub fn len(&self) -> usize {
        match self {
            Builder::Bool(v) => v.len(),
            Builder::UInt(_, v) => v.len(),
            Builder::Int(_, v) => v.len(),
            Builder::Wide(d, _) => d.len(),
            Builder::Text(v) | Builder::Label(v) => v.len(),
            Builder::Bytes(v) => v.len(),
            Builder::Hex(_, _, valid) | Builder::List(_, _, valid, _) => valid.len(),
            Builder::Struct(_, valid, _) => valid.len(),
        }
    }

    /// Whether no row was appended.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps the first `rows` rows: what a value that did not fit had
    /// appended (of itself, and of its parts in nested builders) is taken
    /// back.
    pub fn truncate(&mut self, rows: usize) {
        match self {
            Builder::Bool(v) => v.truncate(rows),
            Builder::UInt(_, v) => v.truncate(rows),
            Builder::Int(_, v) => v.truncate(rows),
            Builder::Wide(d, t) => {
                d.truncate(rows);
                t.truncate(rows);
            }
            Builder::Text(v) | Builder::Label(v) => v.truncate(rows),
            Builder::Bytes(v) => v.truncate(rows),
            Builder::Hex(n, data, valid) => {
                valid.truncate(rows);
                data.truncate(valid.len() * *n as usize);
            }
            Builder::List(_, offsets, valid, items) => {
                valid.truncate(rows);
                offsets.truncate(valid.len() + 1);
                let end = offsets.last().copied().unwrap_or(0);
                items.truncate(usize::try_from(end).unwrap_or(0));
            }
            Builder::Struct(_, valid, children) => {
                valid.truncate(rows);
                for c in children {
                    c.truncate(rows);
                }
            }
        }
    }

    /// The arrays of the rows appended: one, or two for a wide integer
    /// (the decimal, then the text).
    pub fn finish(self) -> Result<Vec<ArrayRef>, ArrowError> {
        Ok(match self {
            Builder::Bool(v) => vec![Arc::new(BooleanArray::from(v))],
            Builder::UInt(8, v) => vec![Arc::new(UInt8Array::from_iter(
                v.into_iter().map(|x| x.map(|x| x as u8)),
            ))],
            Builder::UInt(16, v) => vec![Arc::new(UInt16Array::from_iter(
                v.into_iter().map(|x| x.map(|x| x as u16)),
            ))],
            Builder::UInt(32, v) => vec![Arc::new(UInt32Array::from_iter(
                v.into_iter().map(|x| x.map(|x| x as u32)),
            ))],
            Builder::UInt(_, v) => vec![Arc::new(UInt64Array::from(v))],
            Builder::Int(8, v) => vec![Arc::new(Int8Array::from_iter(
                v.into_iter().map(|x| x.map(|x| x as i8)),
            ))],
            Builder::Int(16, v) => vec![Arc::new(Int16Array::from_iter(
                v.into_iter().map(|x| x.map(|x| x as i16)),
            ))],
            Builder::Int(32, v) => vec![Arc::new(Int32Array::from_iter(
                v.into_iter().map(|x| x.map(|x| x as i32)),
            ))],
            Builder::Int(_, v) => vec![Arc::new(Int64Array::from(v))],
            Builder::Wide(d, t) => vec![
                Arc::new(Decimal128Array::from(d).with_precision_and_scale(WIDE_PRECISION, 0)?),
                Arc::new(t.into_array()?),
            ],
            Builder::Text(v) => vec![Arc::new(v.into_array()?)],
            Builder::Label(v) => vec![Arc::new(
                v.into_array()?
                    .iter()
                    .collect::<DictionaryArray<Int32Type>>(),
            )],
            Builder::Bytes(v) => vec![Arc::new(v.into_array()?)],
            Builder::Hex(n, data, valid) => {
                let nulls = Some(NullBuffer::from(valid)).filter(|n| n.null_count() > 0);
                vec![Arc::new(FixedSizeBinaryArray::try_new(
                    n as i32,
                    Buffer::from_vec(data),
                    nulls,
                )?)]
            }
            Builder::List(item, offsets, valid, items) => {
                let values = match items.finish()?.as_slice() {
                    [one] => one.clone(),
                    _ => return Err(ArrowError::SchemaError("a list item of two arrays".into())),
                };
                let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
                let nulls = NullBuffer::from(valid);
                vec![Arc::new(ListArray::try_new(
                    Arc::new(item_field(&item)),
                    offsets,
                    values,
                    Some(nulls),
                )?)]
            }
            Builder::Struct(fields, valid, children) => {
                let mut arrays = Vec::with_capacity(fields.len());
                for c in children {
                    arrays.extend(c.finish()?);
                }
                let nulls = NullBuffer::from(valid);
                vec![Arc::new(StructArray::try_new(fields, arrays, Some(nulls))?)]
            }
        })
    }
}
