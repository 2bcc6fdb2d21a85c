//! One schema per typed table over the runtimes of a partition, its
//! columns named for the whole run ([`super::naming`]).
//!
//! A table's schema is the place columns, then the data columns its
//! runtimes use, as the run's [`Naming`] names and orders them: a column
//! keeps its name while its Arrow type stays the same; a column a runtime
//! adds is NULL in the rows of runtimes without it; a field whose Arrow
//! type differs from the one it had in an earlier runtime is in a column
//! `<name>__v<spec>` of its own from that runtime on, so no value is ever
//! cast. The renames are listed in the schema's metadata.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use arrow_array::{new_null_array, ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, Field, Schema, SchemaRef};

use super::naming::Naming;
pub use super::naming::UnionError;
use super::rows::TableRows;
pub use super::schema::Renamed;
use super::schema::{describe, place_fields, Kind, TableDef};

/// One typed table of a range: its union schema and its rows, in block order.
#[derive(Clone, Debug)]
pub struct TypedTable {
    /// Events or calls.
    pub kind: Kind,
    /// `<Pallet>.<Event>` / `<Pallet>.<call>`.
    pub name: String,
    /// The union schema.
    pub schema: SchemaRef,
    /// The rows, as batches of `schema`, in block order.
    pub batches: Vec<RecordBatch>,
    /// The fields of runtimes stored under another column than their name
    /// (a retyped field), as (spec version, field, column).
    pub renamed: Vec<Renamed>,
}

impl TypedTable {
    /// The column field `field` of spec `spec`'s rows is stored under.
    pub fn column_of<'a>(&'a self, spec: u32, field: &'a str) -> &'a str {
        self.renamed
            .iter()
            .find(|(s, f, _)| *s == spec && f == field)
            .map_or(field, |(_, _, c)| c.as_str())
    }
}

impl TypedTable {
    /// The table's folder under the output: `typed/events/<name>` or `typed/calls/<name>`.
    pub fn folder(&self) -> String {
        format!("{}/{}/{}", super::TYPED_DIR, self.kind.folder(), self.name)
    }

    /// How many rows.
    pub fn num_rows(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }
}

/// The typed tables of `parts` (each table's rows of one runtime for a run
/// of blocks, in block order), one per table, in (kind, name) order, their
/// columns named over the parts' runtimes alone (ascending spec version).
pub fn unify(parts: Vec<TableRows>) -> Result<Vec<TypedTable>, UnionError> {
    unify_named(parts, &mut Naming::new())
}

/// [`unify`] with the columns named by `naming` (the runtimes of a whole
/// run, [`super::naming`]): a table's schema holds the place columns, then
/// the columns its parts' runtimes use, in `naming`'s order. Runtimes of
/// the parts that `naming` lacks are folded in first, ascending.
pub fn unify_named(
    parts: Vec<TableRows>,
    naming: &mut Naming,
) -> Result<Vec<TypedTable>, UnionError> {
    unify_batches(
        parts.into_iter().map(TableRows::into_batch).collect(),
        naming,
    )
}

/// A table's rows of one runtime for a run of blocks as a record batch
/// of that runtime's schema ([`TableRows::into_batch`], made where the
/// rows were decoded, so that the decoding threads share that work).
pub type RunBatch = (Arc<TableDef>, Result<RecordBatch, ArrowError>);

/// [`unify_named`] of parts made record batches already.
pub fn unify_batches(
    parts: Vec<RunBatch>,
    naming: &mut Naming,
) -> Result<Vec<TypedTable>, UnionError> {
    let mut defs: Vec<Arc<TableDef>> = parts.iter().map(|(d, _)| d.clone()).collect();
    defs.sort_by_key(|d| d.spec_version);
    for def in &defs {
        naming.add_table(def)?;
    }
    let mut by_table: BTreeMap<(Kind, String), Vec<Part>> = BTreeMap::new();
    for (def, batch) in parts {
        let name = def.name();
        let batch = batch.map_err(|e| UnionError(format!("typed table {name}: {e}")))?;
        by_table
            .entry((def.kind, name))
            .or_default()
            .push((def, batch));
    }
    by_table
        .into_iter()
        .map(|((kind, name), batches)| table(kind, name, batches, naming))
        .collect()
}

/// One runtime's rows of a table, as a batch of that runtime's schema.
type Part = (Arc<TableDef>, RecordBatch);

fn table(
    kind: Kind,
    name: String,
    mut parts: Vec<Part>,
    naming: &Naming,
) -> Result<TypedTable, UnionError> {
    // Batches in block order (runs are in order; within a run, one batch per runtime).
    parts.sort_by_key(|(_, b)| first_block(b));
    let mut specs: Vec<&Arc<TableDef>> = parts.iter().map(|(d, _)| d).collect();
    specs.sort_by_key(|d| d.spec_version);
    specs.dedup_by_key(|d| d.spec_version);
    let place = place_fields(kind).len();
    // Per spec: its data column's index → the naming's column.
    let mut maps: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut renamed: Vec<Renamed> = Vec::new();
    for def in &specs {
        let spec = def.spec_version;
        let map = naming.placed(kind, &name, spec).ok_or_else(|| {
            UnionError(format!(
                "typed table {name}: spec {spec} has no columns named"
            ))
        })?;
        renamed.extend(naming.renamed(def));
        maps.insert(spec, map);
    }
    // The naming's columns these runtimes use, in its order, after the place.
    let used: BTreeSet<usize> = maps.values().flatten().copied().collect();
    let mut fields: Vec<Field> = place_fields(kind);
    let mut at_of: BTreeMap<usize, usize> = BTreeMap::new();
    for &c in &used {
        let field = naming
            .column(kind, &name, c)
            .ok_or_else(|| UnionError(format!("typed table {name}: column {c} is not named")))?;
        at_of.insert(c, fields.len());
        fields.push(field.clone());
    }
    let spec_versions: Vec<u32> = specs.iter().map(|d| d.spec_version).collect();
    let latest = specs.last().map(|d| (**d).clone());
    let metadata = latest
        .map(|d| describe(&d, &spec_versions, &renamed))
        .unwrap_or_default();
    let schema = Arc::new(Schema::new(fields).with_metadata(metadata));
    let batches = parts
        .into_iter()
        .map(|(def, batch)| {
            let map = &maps[&def.spec_version];
            let rows = batch.num_rows();
            let mut columns: Vec<Option<ArrayRef>> = vec![None; schema.fields().len()];
            for (i, c) in batch.columns().iter().enumerate() {
                let at = if i < place {
                    i
                } else {
                    let column = map.get(i - place).ok_or_else(|| {
                        UnionError(format!(
                            "typed table {name}: spec {} has more columns than were named",
                            def.spec_version
                        ))
                    })?;
                    at_of[column]
                };
                columns[at] = Some(c.clone());
            }
            let columns = columns
                .into_iter()
                .zip(schema.fields())
                .map(|(c, f)| c.unwrap_or_else(|| new_null_array(f.data_type(), rows)))
                .collect();
            RecordBatch::try_new(schema.clone(), columns)
                .map_err(|e| UnionError(format!("typed table {name}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TypedTable {
        kind,
        name,
        schema,
        batches,
        renamed,
    })
}

fn first_block(batch: &RecordBatch) -> u64 {
    batch
        .column(0)
        .as_any()
        .downcast_ref::<arrow_array::UInt64Array>()
        .and_then(|a| a.values().first().copied())
        .unwrap_or(0)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::typed::schema::{Column, Layout};
    use crate::typed::shape::Shape;
    use arrow_schema::DataType;

    /// A `Balances.Transfer` event table of `spec_version` with `columns`.
    pub(crate) fn def(spec_version: u32, columns: &[(&str, Shape)]) -> TableRows {
        TableRows::new(Arc::new(TableDef {
            kind: Kind::Event,
            pallet: "Balances".into(),
            item: "Transfer".into(),
            spec_version,
            layout: Layout::Dict,
            columns: columns
                .iter()
                .map(|(n, s)| Column {
                    name: n.to_string(),
                    shape: s.clone(),
                })
                .collect(),
        }))
    }

    #[test]
    fn added_fields_are_appended_and_retyped_ones_get_a_column_of_their_spec() {
        let wide = Shape::Wide { signed: false };
        let parts = vec![
            def(
                300,
                &[
                    ("who", Shape::Text),
                    ("amount", wide.clone()),
                    ("memo", Shape::Bytes),
                ],
            ),
            def(100, &[("who", Shape::Text), ("amount", Shape::UInt(64))]),
            def(200, &[("who", Shape::Text), ("amount", wide.clone())]),
        ];
        let tables = unify(parts).unwrap();
        assert_eq!(tables.len(), 1);
        let schema = &tables[0].schema;
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(
            names[6..],
            [
                "who",
                "amount",
                "amount__v200",
                "amount__v200__text",
                "memo"
            ]
        );
        assert_eq!(schema.field(7).data_type(), &DataType::UInt64);
        assert_eq!(schema.field(8).data_type(), &DataType::Decimal128(38, 0));
        let meta = &schema.metadata()[crate::typed::schema::METADATA_KEY];
        let renamed = r#""renamed_columns":[[200,"amount","amount__v200"],[200,"amount__text","amount__v200__text"],[300,"amount","amount__v200"],[300,"amount__text","amount__v200__text"]]"#;
        assert!(meta.contains(renamed), "{meta}");
        assert!(meta.contains(r#""spec_versions":[100,200,300]"#), "{meta}");
        assert_eq!(tables[0].column_of(300, "amount"), "amount__v200");
        assert_eq!(tables[0].column_of(100, "amount"), "amount");

        // A type that comes back goes back to its column.
        let parts = vec![
            def(100, &[("amount", Shape::UInt(64))]),
            def(200, &[("amount", Shape::UInt(32))]),
            def(300, &[("amount", Shape::UInt(64))]),
        ];
        let t = &unify(parts).unwrap()[0];
        assert_eq!(t.column_of(200, "amount"), "amount__v200");
        assert_eq!(t.column_of(300, "amount"), "amount");
    }
}
