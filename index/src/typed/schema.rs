//! The typed tables of one runtime: a table per event variant and per
//! call, its columns (the row's place, then one per field) and its Arrow
//! schema.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef};
use ferroscale_dynamic::runtime::Item;
use ferroscale_dynamic::{Node, TypeGraph};

use super::arrow_type::{fields_of, unwrap_option, TEXT_SUFFIX, WIDE_PRECISION};
use super::shape::Shape;
use ferroscale_dynamic::registry::Registry;

/// Whether a table holds events or calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// One row per event record of the variant.
    Event,
    /// One row per call (an extrinsic's own and every call nested in it).
    Call,
}

impl Kind {
    /// The folder under `OUT/typed/`: `events` or `calls`.
    pub fn folder(self) -> &'static str {
        match self {
            Kind::Event => "events",
            Kind::Call => "calls",
        }
    }
}

/// How an event's fields sit in its `attributes` value (the variant's
/// payload as the decoder renders it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Named fields: a dict.
    Dict,
    /// One unnamed field: the value itself.
    Single,
    /// Several unnamed fields: a tuple.
    Tuple,
    /// No fields.
    Empty,
    /// A call's arguments, or a legacy (V9–V13) event's: a list of
    /// `{name, type, value}` (`{type, value}` for an event).
    Args,
}

/// One data column of a typed table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The column's name: the field's name, `_0`, `_1` … for unnamed
    /// fields, `<name>__field` for a field named like a place column (or
    /// ending in `__text`), `<name>__<position>` for a second field of a
    /// name.
    pub name: String,
    /// The field's shape.
    pub shape: Shape,
}

/// One typed table of one runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDef {
    /// Events or calls.
    pub kind: Kind,
    /// Pallet name.
    pub pallet: String,
    /// Event or call name.
    pub item: String,
    /// The runtime.
    pub spec_version: u32,
    /// Where the fields are in the decoded value.
    pub layout: Layout,
    /// The data columns, in field order.
    pub columns: Vec<Column>,
}

/// The place columns of event tables.
pub const EVENT_PLACE: [&str; 6] = [
    "block_number",
    "block_hash",
    "extrinsic_index",
    "event_index",
    "phase",
    "spec_version",
];

/// The place columns of call tables. `call_index` numbers an extrinsic's
/// calls in pre-order, 0 its own call (as the generic `calls` table's `index`).
pub const CALL_PLACE: [&str; 5] = [
    "block_number",
    "block_hash",
    "extrinsic_index",
    "call_index",
    "spec_version",
];

/// The schema metadata key that describes a typed table (one key, whose
/// value is a JSON object with sorted keys: an Arrow schema's metadata is a
/// hash map, and one entry keeps its serialization byte-identical).
pub const METADATA_KEY: &str = "ferroscale.typed";

/// How wide integers are stored (in every typed table's metadata).
pub const WIDE_RULE: &str =
    "u128/i128/u256/i256 fields are Decimal128(38, 0), exact for |v| < 10^38; \
     a value past that is NULL there and its exact decimal digits are in the companion Utf8 \
     column <name>__text, which is NULL otherwise";

impl TableDef {
    /// The table's name, `<Pallet>.<Event>` / `<Pallet>.<call>` (its folder).
    pub fn name(&self) -> String {
        format!("{}.{}", self.pallet, self.item)
    }

    /// The place columns of this table's kind.
    pub fn place(&self) -> &'static [&'static str] {
        match self.kind {
            Kind::Event => &EVENT_PLACE,
            Kind::Call => &CALL_PLACE,
        }
    }

    /// The Arrow schema: place columns, then the data columns (a wide
    /// integer expanded to two), with the [`METADATA_KEY`] description.
    pub fn schema(&self) -> SchemaRef {
        let mut fields = place_fields(self.kind);
        for c in &self.columns {
            fields.extend(fields_of(&c.name, &c.shape));
        }
        let metadata = describe(self, &[self.spec_version], &[]);
        Arc::new(Schema::new(fields).with_metadata(metadata))
    }
}

/// The place fields of `kind`'s tables.
pub fn place_fields(kind: Kind) -> Vec<Field> {
    use DataType::{UInt32, UInt64, Utf8};
    match kind {
        Kind::Event => vec![
            Field::new("block_number", UInt64, false),
            Field::new("block_hash", Utf8, false),
            Field::new("extrinsic_index", UInt32, true),
            Field::new("event_index", UInt32, false),
            Field::new("phase", Utf8, false),
            Field::new("spec_version", UInt32, false),
        ],
        Kind::Call => vec![
            Field::new("block_number", UInt64, false),
            Field::new("block_hash", Utf8, false),
            Field::new("extrinsic_index", UInt32, false),
            Field::new("call_index", UInt32, false),
            Field::new("spec_version", UInt32, false),
        ],
    }
}

/// A column a runtime's field is stored under in a union of runtimes,
/// when not its own name: (spec version, field, column).
pub type Renamed = (u32, String, String);

/// The [`METADATA_KEY`] entry of a table over `specs`, with the columns
/// renamed by the union of its runtimes (`renamed`: spec, field, column).
pub(crate) fn describe(
    def: &TableDef,
    specs: &[u32],
    renamed: &[Renamed],
) -> HashMap<String, String> {
    let mut json_columns = Vec::new();
    let mut wide_columns = Vec::new();
    for c in &def.columns {
        paths(&c.name, &c.shape, &mut json_columns, &mut wide_columns);
    }
    let value = serde_json::json!({
        "table": def.name(),
        "kind": def.kind.folder(),
        "spec_versions": specs,
        "wide_integers": WIDE_RULE,
        "wide_precision": WIDE_PRECISION,
        "wide_columns": wide_columns,
        "json_columns": json_columns,
        "json_rule": "recursive types, types nested deeper than 8 levels or wider than 256 \
                      columns, and FRAME types with value shapes of their own (MultiAddress, \
                      Call, Era …) are JSON text, as the generic tables write them",
        "accounts": "AccountId32 is SS58 text in the chain's format",
        "enums": "an enum without data is its variant name: dictionary-encoded text as a table \
                  column, text nested in a struct or list; with data, a struct of `variant` \
                  and one column per variant with data",
        "nullability": "every data column is nullable: NULL is None, a variant not taken, \
                        a field the row's runtime lacks, or a wide value held by its text",
        "retyped": "columns are named over every runtime of the run, in ascending spec \
                    version (a runtime loaded later, when first used), the same in every \
                    partition, starting from the names earlier runs into the same folder \
                    gave (_manifest/typed_columns.json), never renamed: a runtime's field is in the first column named <name> or \
                    <name>__v<spec> of its Arrow type; a type no such column has adds \
                    <name>__v<spec>, spec the first runtime with it (its wide companion \
                    <name>__v<spec>__text); a file holds the columns of its rows' runtimes; \
                    renamed_columns lists [spec, field, column] for every field stored under \
                    another name",
        "renamed_columns": renamed.iter().map(|(s, f, c)| serde_json::json!([s, f, c])).collect::<Vec<_>>(),
    });
    HashMap::from([(METADATA_KEY.to_string(), value.to_string())])
}

/// The `renamed_columns` of a typed table's schema metadata (a file's
/// key-value metadata): every field of a runtime stored under another
/// column than its name, as (spec version, field, column).
pub fn renamed_columns(metadata: &HashMap<String, String>) -> Result<Vec<Renamed>, String> {
    let text = metadata
        .get(METADATA_KEY)
        .ok_or_else(|| format!("no {METADATA_KEY} entry in the schema's metadata"))?;
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("{METADATA_KEY}: {e}"))?;
    let Some(list) = value.get("renamed_columns").and_then(|v| v.as_array()) else {
        return Err(format!("{METADATA_KEY}: no renamed_columns list"));
    };
    list.iter()
        .enumerate()
        .map(|(i, entry)| {
            let bad =
                || format!("{METADATA_KEY}: renamed_columns[{i}] is not [spec, field, column]");
            let [spec, field, column] = entry.as_array().map(Vec::as_slice).ok_or_else(bad)? else {
                return Err(bad());
            };
            let spec = spec
                .as_u64()
                .and_then(|s| u32::try_from(s).ok())
                .ok_or_else(bad)?;
            let (Some(field), Some(column)) = (field.as_str(), column.as_str()) else {
                return Err(bad());
            };
            Ok((spec, field.to_string(), column.to_string()))
        })
        .collect()
}

/// Paths (dotted) of JSON and wide-integer columns under `name`.
fn paths(name: &str, shape: &Shape, json: &mut Vec<String>, wide: &mut Vec<String>) {
    match unwrap_option(shape) {
        Shape::Json => json.push(name.to_string()),
        Shape::Wide { .. } => wide.push(name.to_string()),
        Shape::List(item) => paths(&format!("{name}[]"), item, json, wide),
        Shape::Struct { fields, .. } => {
            for (n, s) in fields {
                paths(&format!("{name}.{n}"), s, json, wide);
            }
        }
        Shape::Enum { variants } => {
            for (n, s) in variants {
                if let Some(s) = s {
                    paths(&format!("{name}.{n}"), s, json, wide);
                }
            }
        }
        _ => {}
    }
}

/// Every typed table of the runtime loaded in `registry` (spec `spec_version`): its events (pallets in metadata
/// order, events by index), then its calls. A legacy runtime's (V9–V13,
/// its types from presets) are shaped from the same type graph, its
/// arguments read as py-scale-codec's legacy values show them.
pub fn tables(registry: &Registry, spec_version: u32) -> Vec<TableDef> {
    let Some(runtime) = registry.runtime() else {
        return Vec::new();
    };
    let legacy = !runtime.portable;
    let graph = registry.graph();
    let mut out = Vec::new();
    for kind in [Kind::Event, Kind::Call] {
        for pallet in &runtime.pallets {
            let items = match kind {
                Kind::Event => &pallet.events,
                Kind::Call => &pallet.calls,
            };
            for item in items {
                out.push(table(graph, kind, &pallet.name, item, spec_version, legacy));
            }
        }
    }
    out
}

fn table(
    graph: &TypeGraph,
    kind: Kind,
    pallet: &str,
    item: &Item,
    spec_version: u32,
    legacy: bool,
) -> TableDef {
    let named = item.args.iter().all(|a| a.name.is_some());
    let layout = match (kind, item.args.len(), named) {
        (Kind::Call, _, _) => Layout::Args,
        // a legacy event's attributes are `[{type, value}]`, its fields unnamed
        (Kind::Event, _, _) if legacy => Layout::Args,
        (Kind::Event, 0, _) => Layout::Empty,
        (Kind::Event, _, true) => Layout::Dict,
        (Kind::Event, 1, false) => Layout::Single,
        (Kind::Event, _, false) => Layout::Tuple,
    };
    let place = match kind {
        Kind::Event => &EVENT_PLACE[..],
        Kind::Call => &CALL_PLACE[..],
    };
    let mut used: Vec<String> = Vec::new();
    let columns = item
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let name = match (&a.name, layout) {
                (Some(n), Layout::Dict | Layout::Args) => n.to_string(),
                _ => format!("_{i}"),
            };
            let name = if place.contains(&name.as_str()) || name.ends_with(TEXT_SUFFIX) {
                format!("{name}__field")
            } else {
                name
            };
            // Two fields of one name (metadata may say anything): the
            // second is `<name>__<position>`.
            let name = if used.contains(&name) {
                format!("{name}__{i}")
            } else {
                name
            };
            used.push(name.clone());
            // A legacy argument is py-scale-codec's serialized value, where
            // `Bytes` are `0x…` hex whatever they hold: text, kept as is.
            let shape = match graph.get(a.ty) {
                Some(Node::Bytes) if legacy => Shape::Text,
                _ => Shape::of(graph, a.ty),
            };
            Column { name, shape }
        })
        .collect();
    TableDef {
        kind,
        pallet: pallet.to_string(),
        item: item.name.to_string(),
        spec_version,
        layout,
        columns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(value: &str) -> HashMap<String, String> {
        HashMap::from([(METADATA_KEY.to_string(), value.to_string())])
    }

    #[test]
    fn renamed_columns_read_back_and_malformed_entries_are_named() {
        let ok =
            meta(r#"{"renamed_columns":[[1000001,"dispatch_info","dispatch_info__v1000001"]]}"#);
        assert_eq!(
            renamed_columns(&ok).unwrap(),
            [(
                1_000_001,
                "dispatch_info".to_string(),
                "dispatch_info__v1000001".to_string()
            )]
        );
        assert!(renamed_columns(&HashMap::new())
            .unwrap_err()
            .contains("no ferroscale.typed entry"));
        assert!(renamed_columns(&meta("{"))
            .unwrap_err()
            .starts_with("ferroscale.typed: "));
        assert!(renamed_columns(&meta("{}"))
            .unwrap_err()
            .contains("no renamed_columns list"));
        for bad in [
            r#"{"renamed_columns":[[1,"a"]]}"#,
            r#"{"renamed_columns":[[-1,"a","b"]]}"#,
            r#"{"renamed_columns":[[4294967296,"a","b"]]}"#,
            r#"{"renamed_columns":[[1,2,"b"]]}"#,
            r#"{"renamed_columns":[7]}"#,
        ] {
            let e = renamed_columns(&meta(bad)).unwrap_err();
            assert!(
                e.contains("renamed_columns[0] is not [spec, field, column]"),
                "{bad}: {e}"
            );
        }
    }
}
