//! The FRAME rules the metadata objects read from a decoded metadata value
//! (a storage entry's types by its shape, the V9–V13 index numbering),
//! bound from [`ferroscale_dynamic::ops::metadata_value`]: the value's part
//! converted, the engine's answer given back as Python data.

use ferroscale_dynamic::ops::metadata_value::{self, LegacyModule, StorageTypeError};
use pyo3::exceptions::{PyKeyError, PyNotImplementedError};
use pyo3::prelude::*;
use pyo3::types::PyList;

pub use metadata_value::IndexEntry;

/// `(shape, value type, key types, hashers)` of a storage entry's `type`
/// value ([`metadata_value::storage_entry_types`]); `NotImplementedError`
/// for a shape the version does not have, `KeyError` for a missing field.
pub fn storage_entry_types<'py>(
    ty: &Bound<'py, PyAny>,
    scale_info: bool,
) -> PyResult<(&'static str, String, Vec<String>, Bound<'py, PyList>)> {
    let value = crate::convert::to_value(ty)?;
    match metadata_value::storage_entry_types(&value, scale_info) {
        Ok(t) => Ok((t.shape, t.value, t.keys, PyList::new(ty.py(), t.hashers)?)),
        Err(StorageTypeError::NotInVersion) => Err(PyNotImplementedError::new_err(())),
        Err(StorageTypeError::UnknownShape) => Err(PyNotImplementedError::new_err(format!(
            "storage entry type {}",
            ty.repr()?
        ))),
        Err(StorageTypeError::Field(field)) => Err(PyKeyError::new_err(field)),
    }
}

/// The V9–V13 call, event and error index entries of the `modules` of a
/// decoded metadata value ([`metadata_value::legacy_metadata_index`]): what
/// the numbering reads of each module (its `index` from V12, the lengths of
/// its `calls`, `events` and `errors`) taken from the dicts.
pub fn legacy_metadata_index(
    version: u32,
    modules: &Bound<'_, PyAny>,
) -> PyResult<Vec<IndexEntry>> {
    if version >= 14 {
        return Ok(Vec::new());
    }
    let mut read = Vec::new();
    for module in modules.try_iter()? {
        let module = module?;
        let mut lens = [None; 3];
        for (len, table) in lens.iter_mut().zip(metadata_value::IndexTable::ALL) {
            let entries = module.get_item(table.field())?;
            if !entries.is_none() {
                *len = Some(entries.len()?);
            }
        }
        let index = match version >= 12 {
            true => Some(module.get_item("index")?.extract::<u64>()?),
            false => None,
        };
        read.push(LegacyModule { index, lens });
    }
    Ok(metadata_value::legacy_metadata_index(version, &read))
}
