//! [`Cell`]s appended to builders shaped like their column, finished into
//! Arrow arrays (one array per Arrow field: two for a wide integer).

use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Decimal128Array, DictionaryArray, FixedSizeBinaryArray,
    Int16Array, Int32Array, Int64Array, Int8Array, ListArray, StringArray, StructArray,
    UInt16Array, UInt32Array, UInt64Array, UInt8Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, Fields};

use super::arrow_type::{
    enum_fields, item_field, struct_fields, unwrap_option, VALUE, WIDE_PRECISION,
};
use super::cell::{Cell, WideCell};
use super::shape::Shape;

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
    Wide(Vec<Option<i128>>, Vec<Option<String>>),
    /// Text and JSON.
    Text(Vec<Option<String>>),
    /// Enum labels of a table column (dictionary-encoded).
    Label(Vec<Option<String>>),
    /// Binary.
    Bytes(Vec<Option<Vec<u8>>>),
    /// Fixed-size binary of a width.
    Hex(u32, Vec<Option<Vec<u8>>>),
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
            Shape::Label => Builder::Label(Vec::new()),
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
            Shape::Wide { .. } => Builder::Wide(Vec::new(), Vec::new()),
            Shape::Text | Shape::Json => Builder::Text(Vec::new()),
            Shape::Label => Builder::Text(Vec::new()),
            Shape::Bytes => Builder::Bytes(Vec::new()),
            Shape::Hex(n) => Builder::Hex(*n, Vec::new()),
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
                let mut children = vec![Builder::Text(Vec::new())];
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

    /// Appends `cell` (built by [`super::cell::cell`] for this shape: a
    /// cell of another shape appends NULL).
    pub fn push(&mut self, cell: &Cell) {
        match (self, cell) {
            (b, Cell::Null) => b.push_null(),
            (Builder::Bool(v), Cell::Bool(x)) => v.push(Some(*x)),
            (Builder::UInt(_, v), Cell::UInt(x)) => v.push(Some(*x)),
            (Builder::Int(_, v), Cell::Int(x)) => v.push(Some(*x)),
            (Builder::Wide(d, t), Cell::Wide(w)) => match w {
                WideCell::Decimal(n) => {
                    d.push(Some(*n));
                    t.push(None);
                }
                WideCell::Digits(s) => {
                    d.push(None);
                    t.push(Some(s.clone()));
                }
            },
            (Builder::Text(v) | Builder::Label(v), Cell::Text(x)) => v.push(Some(x.clone())),
            (Builder::Bytes(v) | Builder::Hex(_, v), Cell::Bytes(x)) => v.push(Some(x.clone())),
            (Builder::List(_, offsets, valid, items), Cell::List(cells)) => {
                for c in cells {
                    items.push(c);
                }
                let last = offsets.last().copied().unwrap_or(0);
                offsets.push(last + cells.len() as i32);
                valid.push(true);
            }
            (Builder::Struct(_, valid, children), Cell::Struct(cells))
                if cells.len() == children.len() =>
            {
                for (b, c) in children.iter_mut().zip(cells) {
                    b.push(c);
                }
                valid.push(true);
            }
            (b, _) => b.push_null(),
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
                t.push(None);
            }
            Builder::Text(v) | Builder::Label(v) => v.push(None),
            Builder::Bytes(v) | Builder::Hex(_, v) => v.push(None),
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
                Arc::new(StringArray::from(t)),
            ],
            Builder::Text(v) => vec![Arc::new(StringArray::from(v))],
            Builder::Label(v) => vec![Arc::new(
                v.iter()
                    .map(Option::as_deref)
                    .collect::<DictionaryArray<Int32Type>>(),
            )],
            Builder::Bytes(v) => vec![Arc::new(BinaryArray::from_iter(v))],
            Builder::Hex(n, v) => {
                let len = v.len();
                let array = if v.iter().all(Option::is_none) {
                    FixedSizeBinaryArray::new_null(n as i32, len)
                } else {
                    FixedSizeBinaryArray::try_from_sparse_iter_with_size(v.into_iter(), n as i32)?
                };
                vec![Arc::new(array)]
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
