//! A [`Shape`] as Arrow fields: the one place that says which Arrow type
//! holds which shape (the builders and the read-back follow it).

use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields};

use super::shape::{Shape, VARIANT};

/// Precision of the decimal of a wide integer: the most Arrow's
/// `Decimal128`, DuckDB, Polars and Spark decimals all hold.
pub const WIDE_PRECISION: u8 = 38;

/// Suffix of a wide integer's companion text column.
pub const TEXT_SUFFIX: &str = "__text";

/// The item field of a list column.
pub const ITEM: &str = "item";

/// Name of a list item's value when the item is a wide integer (a list
/// item has no name of its own to suffix).
pub const VALUE: &str = "value";

/// `shape` without its `Option`s (an option is its inner type, nullable).
pub fn unwrap_option(shape: &Shape) -> &Shape {
    match shape {
        Shape::Option(inner) => unwrap_option(inner),
        s => s,
    }
}

/// The Arrow fields table column `name` of `shape` expands to: one, or
/// two for a wide integer (`name` and `name__text`). Every data field is
/// nullable: NULL is `None` of an `Option`, a variant not taken, a field a
/// table's other runtimes lack, or a wide value held by its text.
///
/// An enum label is dictionary-encoded text as a table column; nested in
/// a struct or a list it is plain Utf8 (Parquet still stores its pages
/// dictionary-encoded): arrow-rs 56 cannot read back a struct whose first
/// child is a dictionary ("Failed to decode level data for struct array").
pub fn fields_of(name: &str, shape: &Shape) -> Vec<Field> {
    match unwrap_option(shape) {
        Shape::Label => vec![Field::new(name, label(), true)],
        _ => nested_fields_of(name, shape),
    }
}

/// [`fields_of`] of a field nested in a struct.
pub fn nested_fields_of(name: &str, shape: &Shape) -> Vec<Field> {
    match unwrap_option(shape) {
        Shape::Wide { .. } => vec![
            Field::new(name, decimal(), true),
            Field::new(format!("{name}{TEXT_SUFFIX}"), DataType::Utf8, true),
        ],
        s => vec![Field::new(name, data_type(s), true)],
    }
}

/// The decimal type of wide integers.
pub fn decimal() -> DataType {
    DataType::Decimal128(WIDE_PRECISION, 0)
}

/// The dictionary type of enum labels.
pub fn label() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
}

/// The struct fields of `fields` (each expanded by [`fields_of`]).
pub fn struct_fields<'a>(fields: impl IntoIterator<Item = (&'a str, &'a Shape)>) -> Fields {
    fields
        .into_iter()
        .flat_map(|(n, s)| nested_fields_of(n, s))
        .collect::<Vec<_>>()
        .into()
}

/// The children of an enum's struct: `variant`, then each variant with data.
pub fn enum_fields(variants: &[(String, Option<Shape>)]) -> Fields {
    let mut out = vec![Field::new(VARIANT, DataType::Utf8, true)];
    for (name, payload) in variants {
        if let Some(p) = payload {
            out.extend(nested_fields_of(name, p));
        }
    }
    out.into()
}

/// The item field of a list of `item`.
pub fn item_field(item: &Shape) -> Field {
    match unwrap_option(item) {
        Shape::Wide { .. } => {
            Field::new(ITEM, DataType::Struct(struct_fields([(VALUE, item)])), true)
        }
        s => Field::new(ITEM, data_type(s), true),
    }
}

/// The Arrow type of a nested shape that is not a wide integer (those
/// expand to two fields, [`nested_fields_of`]).
pub fn data_type(shape: &Shape) -> DataType {
    match shape {
        Shape::Bool => DataType::Boolean,
        Shape::UInt(8) => DataType::UInt8,
        Shape::UInt(16) => DataType::UInt16,
        Shape::UInt(32) => DataType::UInt32,
        Shape::UInt(_) => DataType::UInt64,
        Shape::Int(8) => DataType::Int8,
        Shape::Int(16) => DataType::Int16,
        Shape::Int(32) => DataType::Int32,
        Shape::Int(_) => DataType::Int64,
        Shape::Wide { .. } => decimal(),
        // A label's dictionary type is for table columns only ([`fields_of`]).
        Shape::Text | Shape::Json | Shape::Label => DataType::Utf8,
        Shape::Bytes => DataType::Binary,
        Shape::Hex(n) => DataType::FixedSizeBinary(*n as i32),
        Shape::Option(inner) => data_type(unwrap_option(inner)),
        Shape::List(item) => DataType::List(Arc::new(item_field(item))),
        Shape::Struct { fields, .. } => {
            DataType::Struct(struct_fields(fields.iter().map(|(n, s)| (n.as_str(), s))))
        }
        Shape::Enum { variants } => DataType::Struct(enum_fields(variants)),
    }
}
