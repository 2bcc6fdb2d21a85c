//! A typed table's row read back into the dynamic layer's value of its
//! event or call: the inverse of [`super::append`], used to prove that the
//! typed columns hold every value exactly.
//!
//! A JSON column reads back as its text ([`Value::Str`]);
//! [`as_stored`] puts a dynamic value in the same form, so the two compare
//! with `==`.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch, StructArray};
use ferroscale_value::Value;

use super::arrow_type::{unwrap_option, TEXT_SUFFIX, VALUE};
use super::schema::Renamed;
use super::schema::{Layout, TableDef};
use super::shape::Shape;
use super::union::TypedTable;
use super::wide;
use super::wide::WideCell;

/// Columns by name: a record batch's or a struct's.
trait Columns {
    fn get(&self, name: &str) -> Option<&ArrayRef>;
}

impl Columns for RecordBatch {
    fn get(&self, name: &str) -> Option<&ArrayRef> {
        self.column_by_name(name)
    }
}

impl Columns for StructArray {
    fn get(&self, name: &str) -> Option<&ArrayRef> {
        self.column_by_name(name)
    }
}

/// The event's `attributes` value, or the call's argument values in
/// order, of row `row` of `batch` (a batch of `def`'s table, or of a union
/// schema that holds its columns under their names).
pub fn row_value(def: &TableDef, batch: &RecordBatch, row: usize) -> Result<Value, String> {
    row_value_from(def, batch, row)
}

/// [`row_value`] of a row of `table` (a union over runtimes), whose
/// runtime is `def`'s: a retyped field is read from the column the union
/// put it in ([`TypedTable::column_of`]).
pub fn row_value_in(
    table: &TypedTable,
    def: &TableDef,
    batch: &RecordBatch,
    row: usize,
) -> Result<Value, String> {
    let renaming = Renaming {
        batch,
        renamed: &table.renamed,
        spec: def.spec_version,
    };
    row_value_from(def, &renaming, row)
}

/// [`row_value`] of a row of a batch read back from a typed table's file,
/// whose runtime is `def`'s: a retyped field is read from the column
/// `renamed` names for it (the file's `renamed_columns`,
/// [`super::schema::renamed_columns`]).
pub fn row_value_renamed(
    renamed: &[Renamed],
    def: &TableDef,
    batch: &RecordBatch,
    row: usize,
) -> Result<Value, String> {
    let renaming = Renaming {
        batch,
        renamed,
        spec: def.spec_version,
    };
    row_value_from(def, &renaming, row)
}

/// A union batch's columns as one runtime's fields name them.
struct Renaming<'a> {
    batch: &'a RecordBatch,
    renamed: &'a [Renamed],
    spec: u32,
}

impl Columns for Renaming<'_> {
    fn get(&self, name: &str) -> Option<&ArrayRef> {
        let column = self
            .renamed
            .iter()
            .find(|(s, f, _)| *s == self.spec && f == name)
            .map_or(name, |(_, _, c)| c.as_str());
        self.batch.column_by_name(column)
    }
}

fn row_value_from(def: &TableDef, columns: &dyn Columns, row: usize) -> Result<Value, String> {
    let values = def
        .columns
        .iter()
        .map(|c| read(&c.shape, columns, &c.name, row))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(match def.layout {
        Layout::Dict => Value::Dict(
            def.columns
                .iter()
                .zip(values)
                .map(|(c, v)| (c.name.as_str().into(), v))
                .collect(),
        ),
        Layout::Single => values.into_iter().next().unwrap_or(Value::Null),
        Layout::Tuple => Value::Tuple(values),
        Layout::Empty => Value::Null,
        Layout::Args => Value::List(values),
    })
}

/// `value` with each part a JSON column holds replaced by its JSON text
/// (what [`row_value`] reads there).
pub fn as_stored(shape: &Shape, value: &Value) -> Value {
    match (shape, value) {
        (Shape::Json, Value::Null) => Value::Null,
        (Shape::Json, v) => Value::Str(ferroscale_value::json::to_json(v).into()),
        (Shape::Option(inner), v) => as_stored(inner, v),
        (Shape::List(item), Value::List(items)) => {
            Value::List(items.iter().map(|i| as_stored(item, i)).collect())
        }
        (Shape::Struct { fields, .. }, Value::Tuple(items)) => Value::Tuple(
            items
                .iter()
                .zip(fields)
                .map(|(i, (_, s))| as_stored(s, i))
                .collect(),
        ),
        (Shape::Struct { fields, .. }, Value::Dict(entries)) => Value::Dict(
            entries
                .iter()
                .zip(fields)
                .map(|((k, v), (_, s))| (k.clone(), as_stored(s, v)))
                .collect(),
        ),
        (Shape::Enum { variants }, Value::Dict(entries)) if entries.len() == 1 => {
            let (k, v) = &entries[0];
            match variants.iter().find(|(n, _)| **n == **k) {
                Some((_, Some(s))) => Value::Dict(vec![(k.clone(), as_stored(s, v))]),
                _ => value.clone(),
            }
        }
        _ => value.clone(),
    }
}

/// The value of column `name` of `shape` (one column, or two for a wide
/// integer) in `batch` at `row`.
pub fn column_value(
    shape: &Shape,
    batch: &RecordBatch,
    name: &str,
    row: usize,
) -> Result<Value, String> {
    read(shape, batch, name, row)
}

/// The value of column `name` of `shape` under `parent` at `row`.
fn read(shape: &Shape, parent: &dyn Columns, name: &str, row: usize) -> Result<Value, String> {
    let column = |n: &str| parent.get(n).ok_or_else(|| format!("no column {n}"));
    if let Shape::Wide { signed } = unwrap_option(shape) {
        let decimal = column(name)?.as_primitive::<arrow_array::types::Decimal128Type>();
        let text = column(&format!("{name}{TEXT_SUFFIX}"))?.as_string::<i32>();
        let cell = if decimal.is_valid(row) {
            WideCell::Decimal(decimal.value(row))
        } else if text.is_valid(row) {
            WideCell::Digits(text.value(row).to_string())
        } else {
            return Ok(Value::Null);
        };
        return wide::value(&cell, *signed).ok_or_else(|| format!("{name}: bad digits"));
    }
    read_array(shape, column(name)?, row)
}

fn read_array(shape: &Shape, array: &ArrayRef, row: usize) -> Result<Value, String> {
    if array.is_null(row) {
        return Ok(Value::Null);
    }
    Ok(match unwrap_option(shape) {
        Shape::Bool => Value::Bool(array.as_boolean().value(row)),
        Shape::UInt(8) => Value::UInt(array.as_primitive::<UInt8Type>().value(row).into()),
        Shape::UInt(16) => Value::UInt(array.as_primitive::<UInt16Type>().value(row).into()),
        Shape::UInt(32) => Value::UInt(array.as_primitive::<UInt32Type>().value(row).into()),
        Shape::UInt(_) => Value::UInt(array.as_primitive::<UInt64Type>().value(row).into()),
        Shape::Int(8) => Value::Int(array.as_primitive::<Int8Type>().value(row).into()),
        Shape::Int(16) => Value::Int(array.as_primitive::<Int16Type>().value(row).into()),
        Shape::Int(32) => Value::Int(array.as_primitive::<Int32Type>().value(row).into()),
        Shape::Int(_) => Value::Int(array.as_primitive::<Int64Type>().value(row).into()),
        Shape::Text | Shape::Json => Value::str(array.as_string::<i32>().value(row)),
        Shape::Label => Value::str(label(array, row)?),
        Shape::Bytes => Value::bytes_or_text(array.as_binary::<i32>().value(row)),
        Shape::Hex(_) => Value::hex(array.as_fixed_size_binary().value(row)),
        Shape::List(item) => {
            let list = array.as_list::<i32>();
            let items = list.value(row);
            let wide = matches!(unwrap_option(item), Shape::Wide { .. });
            let mut out = Vec::with_capacity(items.len());
            for i in 0..items.len() {
                out.push(if wide {
                    read(item, items.as_struct(), VALUE, i)?
                } else {
                    read_array(item, &items, i)?
                });
            }
            Value::List(out)
        }
        Shape::Struct { fields, tuple } => {
            let s = array.as_struct();
            let values = fields
                .iter()
                .map(|(n, f)| read(f, s, n, row))
                .collect::<Result<Vec<_>, _>>()?;
            if *tuple {
                Value::Tuple(values)
            } else {
                Value::Dict(
                    fields
                        .iter()
                        .zip(values)
                        .map(|((n, _), v)| (n.as_str().into(), v))
                        .collect(),
                )
            }
        }
        Shape::Enum { variants } => {
            let s = array.as_struct();
            let tag = s
                .column_by_name(super::shape::VARIANT)
                .ok_or("no variant column")?;
            let name = label(tag, row)?;
            match variants.iter().find(|(n, _)| *n == name) {
                Some((_, None)) => Value::str(name),
                Some((n, Some(p))) => Value::Dict(vec![(n.as_str().into(), read(p, s, n, row)?)]),
                None => return Err(format!("no variant {name}")),
            }
        }
        Shape::Wide { .. } | Shape::Option(_) => unreachable!("handled by read / unwrap_option"),
    })
}

/// The text of a label: dictionary-encoded (a table column) or plain.
fn label(array: &ArrayRef, row: usize) -> Result<String, String> {
    if let Some(text) = array.as_string_opt::<i32>() {
        return Ok(text.value(row).to_string());
    }
    let dict = array
        .as_dictionary_opt::<Int32Type>()
        .ok_or("a label column is not a dictionary")?;
    let key = dict.keys().value(row) as usize;
    Ok(dict.values().as_string::<i32>().value(key).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typed::union::tests::def;
    use crate::typed::union::unify;

    #[test]
    fn rows_of_a_retyped_field_read_back_from_their_column() {
        use crate::typed::rows::Place;
        use crate::typed::Catalog;
        use ferroscale_dynamic::registry::Registry;
        use ferroscale_dynamic::Document;
        use ferroscale_value::Value;
        let catalog = Catalog::default();
        let place = |spec_version| Place {
            block_number: spec_version as u64,
            block_hash: "0x00",
            spec_version,
            catalog: &catalog,
        };
        // Each runtime's event value, decoded as the indexer reads it.
        let mut registry = Registry::new();
        registry
            .update_types_json(
                r#"{"Old": {"type": "struct", "type_mapping": [["who", "Text"], ["amount", "u64"]]},
                    "New": {"type": "struct", "type_mapping": [["who", "Text"], ["amount", "u128"]]}}"#,
            )
            .unwrap();
        let old_ty = registry.resolve("Old").unwrap();
        let new_ty = registry.resolve("New").unwrap();
        let ctx = registry.context();
        let mut old = def(100, &[("who", Shape::Text), ("amount", Shape::UInt(64))]);
        let mut new = def(
            200,
            &[
                ("who", Shape::Text),
                ("amount", Shape::Wide { signed: false }),
            ],
        );
        let bytes = [&[4, b'a'][..], &7u64.to_le_bytes()].concat();
        let doc = Document::decode(&ctx, old_ty, &bytes).unwrap();
        old.push(&place(100), Some(0), 0, "ApplyExtrinsic", Some(doc.root()))
            .unwrap();
        let bytes = [&[4, b'b'][..], &u128::MAX.to_le_bytes()].concat();
        let doc = Document::decode(&ctx, new_ty, &bytes).unwrap();
        new.push(&place(200), Some(0), 0, "ApplyExtrinsic", Some(doc.root()))
            .unwrap();
        let defs = [old.def.clone(), new.def.clone()];
        let table = &unify(vec![new, old]).unwrap()[0];
        let values: Vec<Value> = table
            .batches
            .iter()
            .zip(&defs)
            .map(|(batch, def)| row_value_in(table, def, batch, 0).unwrap())
            .collect();
        assert_eq!(
            values,
            [
                Value::Dict(vec![
                    ("who".into(), Value::str("a")),
                    ("amount".into(), Value::UInt(7))
                ]),
                Value::Dict(vec![
                    ("who".into(), Value::str("b")),
                    ("amount".into(), Value::UInt(u128::MAX))
                ]),
            ]
        );
    }
}
