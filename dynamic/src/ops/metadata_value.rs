//! FRAME rules read from a decoded metadata value in py-scale-codec
//! 1.2.12's shapes (what `MetadataVersioned` decodes to, a [`Value`]): a
//! storage entry's key, value and hasher types by its shape, and the V9–V13
//! numbering of pallets in call, event and error indexes. The Python
//! module's metadata objects answer with these.

use ferroscale_value::Value;

use crate::typestr::convert_type_string;

/// Where a storage shape keeps its keys or hashers.
enum Fields {
    /// One field each, in order.
    Each(&'static [&'static str]),
    /// One field holding the list.
    List(&'static str),
}

/// The storage entry shapes, in the order py-scale-codec tests them
/// (`"Map" in type` …): `(shape, keys, hashers)`; a plain entry has no
/// hashers (py-scale-codec reports `Twox64Concat`).
const SHAPES: [(&str, Fields, Option<Fields>); 4] = [
    ("Plain", Fields::Each(&[]), None),
    (
        "Map",
        Fields::Each(&["key"]),
        Some(Fields::Each(&["hasher"])),
    ),
    (
        "DoubleMap",
        Fields::Each(&["key1", "key2"]),
        Some(Fields::Each(&["hasher", "key2_hasher"])),
    ),
    ("NMap", Fields::List("keys"), Some(Fields::List("hashers"))),
];

/// A storage entry's types, by its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageEntryTypes {
    /// `"Plain"`, `"Map"`, `"DoubleMap"` or `"NMap"`.
    pub shape: &'static str,
    /// The value type.
    pub value: String,
    /// The key types, one per hasher (none for a plain entry).
    pub keys: Vec<String>,
    /// The hashers, one per key (`Twox64Concat` for a plain entry, as
    /// py-scale-codec reports it).
    pub hashers: Vec<String>,
}

/// Why a storage entry's `type` value gives no types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorageTypeError {
    /// A shape the metadata version does not have (V14+ has `Plain` and `Map` only).
    NotInVersion,
    /// None of the shapes.
    UnknownShape,
    /// A field the shape has is missing, or not of its kind.
    Field(&'static str),
}

/// Whether `ty` holds `shape`: a dict's key, a list's element, a text's
/// substring (Python's `shape in ty`).
fn holds(ty: &Value, shape: &str) -> bool {
    match ty {
        Value::Dict(entries) => entries.iter().any(|(k, _)| &**k == shape),
        Value::List(items) | Value::Tuple(items) => items.iter().any(|i| i.as_str() == Some(shape)),
        Value::Str(s) => s.contains(shape),
        _ => false,
    }
}

/// The values `fields` names in `entry`.
fn read<'v>(entry: &'v Value, fields: &Fields) -> Result<Vec<&'v Value>, StorageTypeError> {
    match fields {
        Fields::Each(names) => names
            .iter()
            .map(|n| entry.get(n).ok_or(StorageTypeError::Field(n)))
            .collect(),
        Fields::List(name) => Ok(entry
            .get(name)
            .and_then(Value::as_items)
            .ok_or(StorageTypeError::Field(name))?
            .iter()
            .collect()),
    }
}

/// A type named in a storage entry as a type string: `scale_info::N` of a
/// portable type id, else py-scale-codec's normalisation of the legacy name.
fn type_string(ty: &Value, scale_info: bool) -> Result<String, StorageTypeError> {
    match (ty, scale_info) {
        (Value::Str(s), true) => Ok(format!("scale_info::{s}")),
        (Value::Str(s), false) => Ok(convert_type_string(s)),
        (Value::UInt(n), true) => Ok(format!("scale_info::{n}")),
        (Value::Int(n), true) => Ok(format!("scale_info::{n}")),
        _ => Err(StorageTypeError::Field("type")),
    }
}

/// A storage entry's types from its `type` value (`{"Map": {"hasher",
/// "key", "value", …}}`); V14+ ones (`scale_info`: `Plain` or `Map`, whose
/// `hashers` list has one hasher per element of a tuple key) as
/// `scale_info::N`.
pub fn storage_entry_types(
    ty: &Value,
    scale_info: bool,
) -> Result<StorageEntryTypes, StorageTypeError> {
    for (position, (shape, keys, hashers)) in SHAPES.iter().enumerate() {
        if !holds(ty, shape) {
            continue;
        }
        if scale_info && position > 1 {
            return Err(StorageTypeError::NotInVersion);
        }
        let entry = ty.get(shape).ok_or(StorageTypeError::Field(shape))?;
        let value = match position {
            0 => entry,
            _ => entry.get("value").ok_or(StorageTypeError::Field("value"))?,
        };
        let keys = read(entry, keys)?
            .into_iter()
            .map(|k| type_string(k, scale_info))
            .collect::<Result<Vec<_>, _>>()?;
        let hashers = match hashers {
            None => vec![Value::str("Twox64Concat")],
            Some(_) if scale_info => read(entry, &Fields::List("hashers"))?
                .into_iter()
                .cloned()
                .collect(),
            Some(fields) => read(entry, fields)?.into_iter().cloned().collect(),
        };
        let hashers = hashers
            .iter()
            .map(|h| h.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or(StorageTypeError::Field("hasher"))?;
        return Ok(StorageEntryTypes {
            shape,
            value: type_string(value, scale_info)?,
            keys,
            hashers,
        });
    }
    Err(StorageTypeError::UnknownShape)
}

/// The index tables a V9–V13 metadata has: calls, events, errors
/// (py-scale-codec's `call_index`, `event_index`, `error_index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexTable {
    /// `call_index`, keyed `"PPCC"` (pallet and call index, hex).
    Calls,
    /// `event_index`, keyed `"PPEE"`.
    Events,
    /// `error_index`, keyed `"P-E"` (decimal).
    Errors,
}

impl IndexTable {
    /// The three tables, in py-scale-codec's order.
    pub const ALL: [IndexTable; 3] = [IndexTable::Calls, IndexTable::Events, IndexTable::Errors];

    /// The module field the table indexes (`"calls"`, `"events"`, `"errors"`).
    pub fn field(self) -> &'static str {
        match self {
            IndexTable::Calls => "calls",
            IndexTable::Events => "events",
            IndexTable::Errors => "errors",
        }
    }
}

/// What the V9–V13 numbering reads of one module: its declared index
/// (V12+), and how many calls, events and errors it has (`None`: the
/// field is `None`), in [`IndexTable::ALL`]'s order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegacyModule {
    /// The module's `index` (V12 and V13 declare one).
    pub index: Option<u64>,
    /// The lengths of its calls, events and errors lists.
    pub lens: [Option<usize>; 3],
}

/// One entry of a V9–V13 index table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// The table.
    pub table: IndexTable,
    /// The module's position in the metadata's list.
    pub module: usize,
    /// The entry's position in the module's list.
    pub entry: usize,
    /// The key (`"PPCC"` hex for calls and events, `"P-E"` for errors).
    pub key: String,
}

/// The V9–V13 call, event and error index entries of `modules`, in order.
/// A V12/V13 module carries its index; V9–V11 number the modules that
/// have calls (events, errors: an empty error list counts as none) in
/// order. V14+ metadata has no such tables (empty).
pub fn legacy_metadata_index(version: u32, modules: &[LegacyModule]) -> Vec<IndexEntry> {
    let mut found = Vec::new();
    if version >= 14 {
        return found;
    }
    let mut counters = [0u64; 3];
    for (m, module) in modules.iter().enumerate() {
        for (t, table) in IndexTable::ALL.into_iter().enumerate() {
            let Some(len) = module.lens[t] else {
                continue;
            };
            if table == IndexTable::Errors && len == 0 {
                continue;
            }
            let position = match (version >= 12, module.index) {
                (true, Some(index)) => index,
                _ => counters[t],
            };
            counters[t] += 1;
            for i in 0..len {
                let key = match table {
                    IndexTable::Errors => format!("{position}-{i}"),
                    _ => format!("{position:02x}{i:02x}"),
                };
                found.push(IndexEntry {
                    table,
                    module: m,
                    entry: i,
                    key,
                });
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dict(entries: Vec<(&str, Value)>) -> Value {
        Value::Dict(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    #[test]
    fn storage_shapes() {
        let plain = dict(vec![("Plain", Value::str("T::Balance"))]);
        let types = storage_entry_types(&plain, false).unwrap();
        assert_eq!(types.shape, "Plain");
        assert_eq!(types.value, "Balance");
        assert!(types.keys.is_empty());
        assert_eq!(types.hashers, ["Twox64Concat"]);

        let double = dict(vec![(
            "DoubleMap",
            dict(vec![
                ("hasher", Value::str("Blake2_128Concat")),
                ("key1", Value::str("AccountId")),
                ("key2", Value::str("u32")),
                ("value", Value::str("u64")),
                ("key2_hasher", Value::str("Twox64Concat")),
            ]),
        )]);
        let types = storage_entry_types(&double, false).unwrap();
        assert_eq!(types.keys, ["AccountId", "u32"]);
        assert_eq!(types.hashers, ["Blake2_128Concat", "Twox64Concat"]);
        assert_eq!(
            storage_entry_types(&double, true),
            Err(StorageTypeError::NotInVersion)
        );

        let map = dict(vec![(
            "Map",
            dict(vec![
                (
                    "hashers",
                    Value::List(vec![Value::str("Identity"), Value::str("Twox64Concat")]),
                ),
                ("key", Value::UInt(7)),
                ("value", Value::UInt(9)),
            ]),
        )]);
        let types = storage_entry_types(&map, true).unwrap();
        assert_eq!(types.value, "scale_info::9");
        assert_eq!(types.keys, ["scale_info::7"]);
        assert_eq!(types.hashers, ["Identity", "Twox64Concat"]);
        assert_eq!(
            storage_entry_types(&Value::Null, false),
            Err(StorageTypeError::UnknownShape)
        );
    }

    #[test]
    fn legacy_index_numbering() {
        let modules = [
            LegacyModule {
                index: None,
                lens: [None, Some(1), Some(0)],
            },
            LegacyModule {
                index: None,
                lens: [Some(2), Some(1), Some(1)],
            },
        ];
        let keys = |version| {
            legacy_metadata_index(version, &modules)
                .into_iter()
                .map(|e| e.key)
                .collect::<Vec<_>>()
        };
        // V11: only modules with calls (errors: non-empty lists) count
        assert_eq!(keys(11), ["0000", "0000", "0001", "0100", "0-0"]);
        assert!(keys(14).is_empty());
    }
}
