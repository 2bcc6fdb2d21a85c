//! `scalecodec._core`: the Rust half of the `scalecodec` Python package.
//!
//! The Python package is a thin layer: every decode, encode, type resolution
//! and SS58 operation runs here, once per value, over `ferroscale_dynamic`'s
//! registry. Modules: [`registry`] (the `Registry` class), [`object`] (the
//! Rust bases of `ScaleBytes`, scale objects and configurations: the
//! create-and-decode hot path), [`sink`] (decoding
//! straight into Python objects with interned names), [`convert`] (Python
//! values → `Value` for encoding), [`errors`] (Rust errors → py-scale-codec's
//! exception classes, panic guard), [`ss58`], [`metadata`] (the metadata
//! model as Python data), [`text`] (hex written straight into Python strings).

pub mod convert;
pub mod errors;
pub mod metadata;
pub mod object;
pub mod registry;
pub mod sink;
pub mod ss58;
pub mod text;

use pyo3::prelude::*;

/// py-scale-codec's normalisation of a legacy metadata type name
/// (`"<Balance as HasCompact>::Type"` → `"Compact<Balance>"`, `T::` removed …).
#[pyfunction]
fn convert_type_string(name: &str) -> String {
    ferroscale_dynamic::runtime::convert_type_string(name)
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<registry::PyRegistry>()?;
    m.add_class::<object::PyScaleBytes>()?;
    m.add_class::<object::ScaleObject>()?;
    m.add_class::<object::ConfigBase>()?;
    m.add_class::<object::FastNode>()?;
    m.add("UNSET", object::unset(m.py()))?;
    m.add_function(wrap_pyfunction!(ss58::ss58_encode, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::ss58_decode, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::ss58_is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::ss58_encode_account_index, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::ss58_decode_account_index, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::metadata_info, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::set_presets_dir, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::presets_dir, m)?)?;
    m.add(
        "NEWER_METADATA_TYPES",
        ferroscale_dynamic::registry::NEWER_METADATA_TYPES,
    )?;
    m.add_function(wrap_pyfunction!(convert_type_string, m)?)?;
    Ok(())
}
