//! FRAME rules the metadata objects ([`crate::metadata`]) read from a
//! decoded metadata value (py-scale-codec's dicts): a storage entry's key,
//! value and hasher types by its shape, and the V9–V13 numbering of
//! pallets in call, event and error indexes.

use pyo3::exceptions::PyNotImplementedError;
use pyo3::prelude::*;
use pyo3::types::PyList;

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

/// The values `fields` names in `entry`.
fn read<'py>(entry: &Bound<'py, PyAny>, fields: &Fields) -> PyResult<Vec<Bound<'py, PyAny>>> {
    match fields {
        Fields::Each(names) => names.iter().map(|n| entry.get_item(*n)).collect(),
        Fields::List(name) => entry.get_item(*name)?.try_iter()?.collect(),
    }
}

/// A type named in a storage entry as a type string: `scale_info::N` of a
/// portable type id, else py-scale-codec's normalisation of the legacy name.
fn type_string(ty: &Bound<'_, PyAny>, scale_info: bool) -> PyResult<String> {
    if scale_info {
        Ok(format!("scale_info::{}", ty.str()?))
    } else {
        Ok(ferroscale_dynamic::runtime::convert_type_string(
            &ty.extract::<String>()?,
        ))
    }
}

/// `(shape, value type, key types, hashers)`
/// of a storage entry's `type` value (`{"Map": {"hasher", "key", "value",
/// …}}`), V14+ ones (`scale_info`: `Plain` or `Map`, whose `hashers` list
/// has one hasher per element of a tuple key) as `scale_info::N`.
/// `NotImplementedError` for a shape the version does not have.
pub fn storage_entry_types<'py>(
    ty: &Bound<'py, PyAny>,
    scale_info: bool,
) -> PyResult<(&'static str, String, Vec<String>, Bound<'py, PyList>)> {
    let py = ty.py();
    for (position, (shape, keys, hashers)) in SHAPES.iter().enumerate() {
        if !ty.contains(*shape)? {
            continue;
        }
        if scale_info && position > 1 {
            return Err(PyNotImplementedError::new_err(()));
        }
        let entry = ty.get_item(*shape)?;
        let value = if position == 0 {
            entry.clone()
        } else {
            entry.get_item("value")?
        };
        let keys = read(&entry, keys)?
            .iter()
            .map(|k| type_string(k, scale_info))
            .collect::<PyResult<Vec<_>>>()?;
        let hashers = match hashers {
            None => PyList::new(py, ["Twox64Concat"])?,
            Some(_) if scale_info => PyList::new(py, read(&entry, &Fields::List("hashers"))?)?,
            Some(fields) => PyList::new(py, read(&entry, fields)?)?,
        };
        return Ok((shape, type_string(&value, scale_info)?, keys, hashers));
    }
    Err(PyNotImplementedError::new_err(format!(
        "storage entry type {}",
        ty.repr()?
    )))
}

/// The pallet fields indexed by call, event and error (py-scale-codec's
/// `call_index`, `event_index`, `error_index`), in that order.
const INDEXED: [&str; 3] = ["calls", "events", "errors"];

/// The V9–V13 call, event and error indexes of the `modules` of a decoded
/// metadata value: `(table, module position, entry position, key)` per
/// entry, `table` counting in `INDEXED`'s order. A V12/V13 module carries
/// its index; V9–V11 number the modules that have calls (events, errors:
/// an empty error list counts as none) in order. Keys are `"PPCC"` hex for
/// calls and events, `"P-E"` for errors; V14+ metadata has no such tables.
pub fn legacy_metadata_index(
    version: u32,
    modules: &Bound<'_, PyAny>,
) -> PyResult<Vec<(usize, usize, usize, String)>> {
    let mut found = Vec::new();
    if version >= 14 {
        return Ok(found);
    }
    let mut counters = [0u64; 3];
    for (m, module) in modules.try_iter()?.enumerate() {
        let module = module?;
        for (table, field) in INDEXED.iter().enumerate() {
            let entries = module.get_item(*field)?;
            if entries.is_none() || (table == 2 && entries.len()? == 0) {
                continue;
            }
            let position = if version >= 12 {
                module.get_item("index")?.extract::<u64>()?
            } else {
                counters[table]
            };
            counters[table] += 1;
            for i in 0..entries.len()? {
                let key = if table == 2 {
                    format!("{position}-{i}")
                } else {
                    format!("{position:02x}{i:02x}")
                };
                found.push((table, m, i, key));
            }
        }
    }
    Ok(found)
}
