//! The column each runtime's field is stored under, fixed for a whole run
//! (every partition of a range) rather than per partition.
//!
//! A [`Naming`] folds runtimes in, one after the other: each table's data
//! columns are a list that only grows. A runtime's field goes to the first
//! column named `<name>` or `<name>__v<spec'>` of its Arrow type; a field
//! no column holds yet gets `<name>` when no column has that name, else
//! `<name>__v<spec>` (a retyped field: a column of its own from the first
//! runtime with that type on, never a cast); a wide integer's text column
//! goes with its decimal column (`<column>__text`). A column keeps its name
//! and type once given, so every partition written with one naming agrees
//! on what each name holds, and readers that join files by column name
//! (DuckDB's `union_by_name`, pyarrow's `unify_schemas`, Spark's
//! `mergeSchema`, Polars' diagonal concatenation) read the partitions of a
//! range as one table.
//!
//! The pipeline folds the runtimes it is given in ascending spec version
//! before its first typed partition, then each runtime it loads later (a
//! metadata folder) when first used ([`crate::pipeline::Decoders`]): the
//! same runtimes in the same order give the same names, whatever the
//! partitions. A run into an output folder starts from the columns the
//! folder's earlier runs gave ([`Naming::from_columns`], saved in its
//! manifest by [`crate::saved_naming`]), so that a later run over earlier blocks
//! extends those names rather than choosing others.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use arrow_schema::{Field, Schema};

use super::arrow_type::{fields_of, TEXT_SUFFIX};
use super::schema::{place_fields, Kind, Renamed, TableDef};
use super::Catalog;

/// A table whose runtimes' schemas cannot be joined.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionError(pub String);

impl fmt::Display for UnionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnionError {}

/// One table's data columns ([`Naming::columns`]): its kind, its name
/// (`<Pallet>.<item>`), and each column with the spec version it was given
/// for, in the order they were given.
pub type TableColumns<'a> = (Kind, &'a str, Vec<(&'a Field, u32)>);

/// The data columns of every typed table over the runtimes folded in.
#[derive(Clone, Debug, Default)]
pub struct Naming {
    tables: HashMap<(Kind, String), TableNaming>,
    /// The runtimes folded in, whole ([`Naming::add_runtime`]).
    runtimes: BTreeSet<u32>,
}

/// One table's data columns and, per runtime, where its fields are.
#[derive(Clone, Debug, Default)]
struct TableNaming {
    /// The data columns, in the order they were given.
    columns: Vec<Field>,
    /// Per column (same order): the spec version it was given for.
    given_for: Vec<u32>,
    /// Per spec version: the column of each of its Arrow fields (a wide
    /// integer is two), in its schema's order.
    by_spec: HashMap<u32, Vec<usize>>,
}

impl Naming {
    /// No runtime yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether every table of runtime `spec` was folded in.
    pub fn has_runtime(&self, spec: u32) -> bool {
        self.runtimes.contains(&spec)
    }

    /// The runtimes folded in whole, ascending.
    pub fn runtimes(&self) -> impl Iterator<Item = u32> + '_ {
        self.runtimes.iter().copied()
    }

    /// Folds in every table of runtime `spec` (its `catalog`); a runtime
    /// folded in before is left as it is.
    pub fn add_runtime(&mut self, spec: u32, catalog: &Catalog) -> Result<(), UnionError> {
        if !self.runtimes.insert(spec) {
            return Ok(());
        }
        for def in catalog.tables() {
            self.add_table(def)?;
        }
        Ok(())
    }

    /// Folds in one runtime's definition of one table (nothing when that
    /// runtime's definition of it is in already).
    pub fn add_table(&mut self, def: &TableDef) -> Result<(), UnionError> {
        let name = def.name();
        let spec = def.spec_version;
        let table = self.tables.entry((def.kind, name.clone())).or_default();
        if table.by_spec.contains_key(&spec) {
            return Ok(());
        }
        let mut map = Vec::new();
        // This runtime's columns so far: its field name → the column's name.
        let mut names: HashMap<String, String> = HashMap::new();
        for c in &def.columns {
            for f in fields_of(&c.name, &c.shape) {
                let field = f.name().clone();
                // A wide integer's text column goes with its decimal column.
                let companion = field
                    .strip_suffix(TEXT_SUFFIX)
                    .and_then(|base| names.get(base))
                    .map(|column| format!("{column}{TEXT_SUFFIX}"));
                let at = match companion {
                    Some(column) => table
                        .companion(column, &f, spec)
                        .map_err(|e| UnionError(format!("typed table {name}: spec {spec}: {e}")))?,
                    None => table
                        .column_for(&f, spec)
                        .map_err(|e| UnionError(format!("typed table {name}: {e}")))?,
                };
                names.insert(field, table.columns[at].name().clone());
                map.push(at);
            }
        }
        table.by_spec.insert(spec, map);
        Ok(())
    }

    /// Where the fields of `spec`'s rows of table `name` go (`None`: that
    /// runtime's definition was never folded in).
    pub fn placed(&self, kind: Kind, name: &str, spec: u32) -> Option<Vec<usize>> {
        self.tables
            .get(&(kind, name.to_string()))?
            .by_spec
            .get(&spec)
            .cloned()
    }

    /// The data column `at` of table `name`.
    pub fn column(&self, kind: Kind, name: &str, at: usize) -> Option<&Field> {
        self.tables.get(&(kind, name.to_string()))?.columns.get(at)
    }

    /// A naming of the given tables' data columns, each `(column, spec
    /// version it was given for)` in the order they were given, and no
    /// runtime folded in: runtimes folded in later place their fields in
    /// these columns when their name and Arrow type fit (as they would have
    /// had they been folded in when the columns were given) and add
    /// columns after them. Two columns of one name in a table are an error.
    pub fn from_columns(
        tables: impl IntoIterator<Item = (Kind, String, Vec<(Field, u32)>)>,
    ) -> Result<Naming, UnionError> {
        let mut naming = Naming::new();
        for (kind, name, columns) in tables {
            let table = naming.tables.entry((kind, name.clone())).or_default();
            if !table.columns.is_empty() {
                return Err(UnionError(format!(
                    "typed table {}/{name} is given twice",
                    kind.folder()
                )));
            }
            for (field, spec) in columns {
                if table.columns.iter().any(|g| g.name() == field.name()) {
                    return Err(UnionError(format!(
                        "typed table {}/{name}: column {} is given twice",
                        kind.folder(),
                        field.name()
                    )));
                }
                table.columns.push(field.with_nullable(true));
                table.given_for.push(spec);
            }
        }
        Ok(naming)
    }

    /// Every table's data columns, each with the spec version it was given
    /// for, in the order they were given; tables by kind and name.
    pub fn columns(&self) -> Vec<TableColumns<'_>> {
        let mut tables: Vec<_> = self
            .tables
            .iter()
            .map(|((kind, name), t)| {
                let columns = t.columns.iter().zip(t.given_for.iter().copied());
                (*kind, name.as_str(), columns.collect())
            })
            .collect();
        tables.sort_by(|a, b| (a.0.folder(), a.1).cmp(&(b.0.folder(), b.1)));
        tables
    }

    /// The schema of table `name` over every runtime folded in: its place
    /// columns, then every data column, in the order they were given
    /// (`None`: no runtime folded in has the table). The rows of any of
    /// those runtimes fit it by column name, NULL where they lack one.
    pub fn schema(&self, kind: Kind, name: &str) -> Option<Schema> {
        let table = self.tables.get(&(kind, name.to_string()))?;
        let mut fields = place_fields(kind);
        fields.extend(table.columns.iter().cloned());
        Some(Schema::new(fields))
    }

    /// How many data columns the tables have together: it grows whenever
    /// a column is given, and only then (a naming to save again).
    pub fn column_count(&self) -> usize {
        self.tables.values().map(|t| t.columns.len()).sum()
    }

    /// The fields of `def` stored under another name than their own, as
    /// (spec version, field, column).
    pub fn renamed(&self, def: &TableDef) -> Vec<Renamed> {
        let Some(table) = self.tables.get(&(def.kind, def.name())) else {
            return Vec::new();
        };
        let Some(map) = table.by_spec.get(&def.spec_version) else {
            return Vec::new();
        };
        let fields = def
            .columns
            .iter()
            .flat_map(|c| fields_of(&c.name, &c.shape));
        fields
            .zip(map)
            .filter(|(f, &at)| table.columns[at].name() != f.name())
            .map(|(f, &at)| {
                let column = table.columns[at].name().clone();
                (def.spec_version, f.name().clone(), column)
            })
            .collect()
    }
}

impl TableNaming {
    /// The column `column` of a wide integer's text, added when new (for
    /// spec `spec`).
    fn companion(&mut self, column: String, f: &Field, spec: u32) -> Result<usize, String> {
        match self.columns.iter().position(|g| *g.name() == column) {
            Some(i) if self.columns[i].data_type() == f.data_type() => Ok(i),
            Some(i) => Err(format!(
                "column {column} is {} for an earlier runtime, this one's is {}",
                self.columns[i].data_type(),
                f.data_type()
            )),
            None => Ok(self.push(f.clone().with_name(column), spec)),
        }
    }

    /// The column of field `f` of spec `spec`: the first column named
    /// `<name>` or `<name>__v<spec'>` of its Arrow type, else a new one
    /// (`<name>` when no column has that name yet, `<name>__v<spec>` when
    /// one of another type has).
    fn column_for(&mut self, f: &Field, spec: u32) -> Result<usize, String> {
        let name = f.name().as_str();
        let same_type = self.columns.iter().position(|g| {
            (g.name() == name || retyped_of(g.name(), name)) && g.data_type() == f.data_type()
        });
        if let Some(i) = same_type {
            return Ok(i);
        }
        let column = if self.columns.iter().any(|g| g.name() == name) {
            let new = format!("{name}__v{spec}");
            if self.columns.iter().any(|g| *g.name() == new) {
                return Err(format!(
                    "column {new} exists already: the retyped field {name} of spec {spec} \
                     cannot take its name"
                ));
            }
            new
        } else {
            name.to_string()
        };
        Ok(self.push(f.clone().with_name(column), spec))
    }

    /// Adds column `field`, given for spec `spec`; its index.
    fn push(&mut self, field: Field, spec: u32) -> usize {
        self.columns.push(field.with_nullable(true));
        self.given_for.push(spec);
        self.columns.len() - 1
    }
}

/// Whether column `column` is field `name` retyped: `<name>__v<digits>`.
fn retyped_of(column: &str, name: &str) -> bool {
    column
        .strip_prefix(name)
        .and_then(|rest| rest.strip_prefix("__v"))
        .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
}
