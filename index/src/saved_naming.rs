//! The typed tables' column names of an output folder, saved in its
//! manifest (`OUT/_manifest/typed_columns.json`) so that every run into the
//! folder names columns as the runs before it did.
//!
//! A run names each table's columns over the runtimes it folds in
//! ([`crate::typed::naming`]): the first type of a field keeps the bare
//! name, a later type gets `<name>__v<spec>`. Which type is "first"
//! depends on the runtimes a run sees, so a later run over earlier blocks
//! (an older runtime now present) would give the bare name to another type
//! than the files already written, and readers joining the folder's files
//! by column name would meet one name with two types. A run therefore
//! starts from the columns saved here ([`load`]) and saves them again
//! whenever it gives a new one ([`save`]), before any file that uses it is
//! written: a name, once in a file of the folder, keeps its type.
//!
//! The file lists, per table, its data columns in the order they were
//! given: the column's name, the spec version it was given for and its
//! Arrow type (serde's rendering of arrow-schema's `DataType`, read back
//! exactly). A folder written before the file existed has none: its
//! naming is read from its typed files instead ([`from_files`]), so that
//! its first run with this file keeps their names too.

use std::fs;
use std::path::Path;

use arrow_schema::{DataType, Field};
use serde::{Deserialize, Serialize};

use crate::layout::typed_folders;
use crate::manifest::{write_atomically, ManifestError, DIR};
use crate::typed::arrow_type::TEXT_SUFFIX;
use crate::typed::schema::{place_fields, METADATA_KEY};
use crate::typed::{Kind, Naming};

/// The file's name in the manifest's folder.
pub const FILE: &str = "typed_columns.json";

/// The file's content.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    /// Every typed table with columns, by kind then name.
    tables: Vec<SavedTable>,
}

/// One table's columns.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedTable {
    /// `events` or `calls` ([`Kind::folder`]).
    kind: String,
    /// `<Pallet>.<item>`.
    table: String,
    /// Its data columns, in the order they were given.
    columns: Vec<SavedColumn>,
}

/// One data column.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedColumn {
    /// The column's name.
    name: String,
    /// The spec version it was given for (the first runtime whose field
    /// it holds, in the order the runs folded runtimes in).
    spec_version: u32,
    /// Its Arrow type.
    #[serde(rename = "type")]
    data_type: DataType,
}

/// The naming saved in the manifest of `out`: its columns, no runtime
/// folded in yet ([`Naming::from_columns`]); no file (a new folder, or one
/// written before the file existed): the naming its typed files hold
/// ([`from_files`]; none, an empty naming). A file that does not read is an
/// error naming it: a run that guessed would rename columns.
pub fn load(out: &Path) -> Result<Naming, ManifestError> {
    let path = out.join(DIR).join(FILE);
    let fail = |reason: String| ManifestError(format!("{}: {reason}", path.display()));
    let text = match fs::read(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return from_files(out),
        Err(e) => return Err(fail(e.to_string())),
    };
    let saved: Saved = serde_json::from_slice(&text)
        .map_err(|e| fail(format!("not a saved typed naming: {e}")))?;
    let mut tables = Vec::with_capacity(saved.tables.len());
    for t in saved.tables {
        let kind = match t.kind.as_str() {
            "events" => Kind::Event,
            "calls" => Kind::Call,
            other => return Err(fail(format!("table {}: kind {other:?}", t.table))),
        };
        let columns = t
            .columns
            .into_iter()
            .map(|c| (Field::new(c.name, c.data_type, true), c.spec_version))
            .collect();
        tables.push((kind, t.table, columns));
    }
    Naming::from_columns(tables).map_err(|e| fail(e.0))
}

/// Whether the manifest of `out` has a saved naming (a run that read its
/// naming from the files, [`from_files`], saves it with its first typed
/// partition, so that the next run need not read them again).
pub fn is_saved(out: &Path) -> bool {
    out.join(DIR).join(FILE).is_file()
}

/// The naming the typed files under `out` hold, for a folder written
/// before the naming was saved: each table's data columns (those after its
/// place columns), in the order its files, by first block, first hold
/// them. A column is given for the spec of its name (`<name>__v<spec>`),
/// else for the first runtime of the first file that holds it (the files
/// do not say which runtime gave a bare name first; the runs only read the
/// column's name and type). Files under a temporary name are left out.
pub fn from_files(out: &Path) -> Result<Naming, ManifestError> {
    let folders =
        typed_folders(out).map_err(|e| ManifestError(format!("reading {}: {e}", out.display())))?;
    let mut tables = Vec::new();
    for folder in folders {
        let Some((kind, table)) = typed_table(&folder) else {
            continue;
        };
        let place: Vec<String> = place_fields(kind)
            .iter()
            .map(|f| f.name().clone())
            .collect();
        let mut columns: Vec<(Field, u32)> = Vec::new();
        for path in partition_files(&out.join(&folder))? {
            let (schema, first_spec) = file_schema(&path)?;
            for field in schema.fields() {
                let name = field.name();
                if place.contains(name) || columns.iter().any(|(f, _)| f.name() == name) {
                    continue;
                }
                let spec = retyped_spec(name).or(first_spec).unwrap_or(0);
                // Name and type only: what a run gives a column.
                let column = Field::new(name, field.data_type().clone(), true);
                columns.push((column, spec));
            }
        }
        tables.push((kind, table.to_string(), columns));
    }
    Naming::from_columns(tables).map_err(|e| ManifestError(format!("{}: {}", out.display(), e.0)))
}

/// The kind and name of the typed table whose folder (under the output
/// folder) is `folder`: `typed/<kind>/<table>`; `None` for another folder.
pub(crate) fn typed_table(folder: &str) -> Option<(Kind, &str)> {
    let mut parts = folder.splitn(3, '/').skip(1);
    let kind = match parts.next()? {
        "events" => Kind::Event,
        "calls" => Kind::Call,
        _ => return None,
    };
    Some((kind, parts.next()?))
}

/// The partition files (`blocks_<first>_<last>.parquet`) of a table's
/// folder, by first block.
fn partition_files(dir: &Path) -> Result<Vec<std::path::PathBuf>, ManifestError> {
    let fail = |e: std::io::Error| ManifestError(format!("reading {}: {e}", dir.display()));
    let mut files = Vec::new();
    for item in fs::read_dir(dir).map_err(fail)? {
        let name = item.map_err(fail)?.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(range) = crate::manifest::parse_name(name, ".parquet") {
            files.push((range, dir.join(name)));
        }
    }
    files.sort();
    Ok(files.into_iter().map(|(_, path)| path).collect())
}

/// A typed file's Arrow schema and the first of its table's spec versions
/// (its `ferroscale.typed` metadata's `spec_versions`).
fn file_schema(path: &Path) -> Result<(arrow_schema::SchemaRef, Option<u32>), ManifestError> {
    let fail = |reason: String| ManifestError(format!("{}: {reason}", path.display()));
    let file = fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| fail(e.to_string()))?;
    let first_spec = reader
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|k| k.key == METADATA_KEY))
        .and_then(|k| serde_json::from_str::<serde_json::Value>(k.value.as_deref()?).ok())
        .and_then(|v| v.get("spec_versions")?.get(0)?.as_u64())
        .and_then(|s| u32::try_from(s).ok());
    Ok((reader.schema().clone(), first_spec))
}

/// The spec of a retyped column's name: `<name>__v<spec>`, or its wide
/// companion `<name>__v<spec>__text`.
fn retyped_spec(column: &str) -> Option<u32> {
    let column = column.strip_suffix(TEXT_SUFFIX).unwrap_or(column);
    column.rsplit_once("__v")?.1.parse().ok()
}

/// Saves the columns of `naming` in the manifest of `out` (atomically, as
/// entries are), replacing what was saved: `naming` started from it
/// ([`load`]), so it holds every column saved before.
pub fn save(out: &Path, naming: &Naming) -> Result<(), ManifestError> {
    let tables = naming
        .columns()
        .into_iter()
        .map(|(kind, table, columns)| SavedTable {
            kind: kind.folder().to_string(),
            table: table.to_string(),
            columns: columns
                .into_iter()
                .map(|(field, spec_version)| SavedColumn {
                    name: field.name().clone(),
                    spec_version,
                    data_type: field.data_type().clone(),
                })
                .collect(),
        })
        .collect();
    let text =
        serde_json::to_vec_pretty(&Saved { tables }).map_err(|e| ManifestError(e.to_string()))?;
    write_atomically(&out.join(DIR), FILE, &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typed::shape::Shape;
    use crate::typed::union::tests::def;

    fn names(naming: &Naming) -> Vec<(String, u32, DataType)> {
        naming
            .columns()
            .into_iter()
            .flat_map(|(_, _, columns)| columns)
            .map(|(f, spec)| (f.name().clone(), spec, f.data_type().clone()))
            .collect()
    }

    #[test]
    fn a_saved_naming_reads_back_and_an_older_runtime_extends_it() {
        let out = std::env::temp_dir().join(format!("ferroscale-naming-{}", std::process::id()));
        let _ = fs::remove_dir_all(&out);
        assert_eq!(load(&out).unwrap().column_count(), 0);

        // A run that saw spec 200 only: `amount` is its wide integer.
        let wide = Shape::Wide { signed: false };
        let list = Shape::List(Box::new(Shape::Bytes));
        let new = def(
            200,
            &[("amount", wide), ("who", Shape::Text), ("memo", list)],
        );
        let mut first = Naming::new();
        first.add_table(&new.def).unwrap();
        save(&out, &first).unwrap();
        let loaded = load(&out).unwrap();
        assert_eq!(names(&loaded), names(&first));
        assert_eq!(loaded.column_count(), 4); // amount, amount__text, who, memo

        // A later run that sees spec 100 too, folded first: its u64 `amount`
        // is the retyped one now, spec 200's keeps the bare name.
        let mut later = loaded;
        let old = def(100, &[("amount", Shape::UInt(64)), ("who", Shape::Text)]);
        later.add_table(&old.def).unwrap();
        later.add_table(&new.def).unwrap();
        let column = |spec, at| {
            let placed = later
                .placed(Kind::Event, "Balances.Transfer", spec)
                .unwrap();
            later
                .column(Kind::Event, "Balances.Transfer", placed[at])
                .unwrap()
                .name()
                .clone()
        };
        assert_eq!([column(100, 0), column(100, 1)], ["amount__v100", "who"]);
        assert_eq!([column(200, 0), column(200, 1)], ["amount", "amount__text"]);
        assert_eq!(later.column_count(), 5);
        // The table's schema over both runtimes: place columns, then the
        // columns in the order they were given.
        let schema = later.schema(Kind::Event, "Balances.Transfer").unwrap();
        let fields: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        let data = ["amount", "amount__text", "who", "memo", "amount__v100"];
        assert_eq!(fields[fields.len() - 5..], data);
        assert_eq!(fields.len(), place_fields(Kind::Event).len() + 5);
        assert!(later.schema(Kind::Call, "Balances.Transfer").is_none());
        save(&out, &later).unwrap();
        assert_eq!(names(&load(&out).unwrap()), names(&later));

        // A file that does not read is an error naming it, not a fresh start.
        fs::write(out.join(DIR).join(FILE), r#"{"tables": [{"kind": "x"}]}"#).unwrap();
        let e = load(&out).unwrap_err().0;
        assert!(
            e.contains(FILE) && e.contains("not a saved typed naming"),
            "{e}"
        );
        let _ = fs::remove_dir_all(&out);
    }

    #[test]
    fn a_retyped_column_names_its_spec() {
        assert_eq!(retyped_spec("amount__v200"), Some(200));
        assert_eq!(retyped_spec("amount__v200__text"), Some(200));
        assert_eq!(retyped_spec("amount__text"), None);
        assert_eq!(retyped_spec("amount"), None);
        assert_eq!(retyped_spec("a__vx"), None);
    }
}
