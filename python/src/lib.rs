//! `scalecodec._core`: the Rust half of the `scalecodec` Python package.
//!
//! The Python package only declares py-scale-codec's names and adapts them;
//! every decode, encode, type resolution, SS58 and FRAME rule runs here, once
//! per value, over `ferroscale_dynamic` (its `ops` module for what lies
//! beside the type walk). Modules: [`registry`] (the `Registry` class),
//! [`scale_bytes`] (`ScaleBytes`), [`object`] (the Rust base of scale
//! objects: the value protocol, the default hooks, the fast decode and
//! encode), [`config_base`] (the Rust base of configurations and
//! `create_scale_object`), [`config`] (a configuration's class cache,
//! preset mirror and registry imports), [`classes`] (the class made per type
//! string), [`declared`] (users' own scale classes), [`kinds`] (`TypeKind` and `ClassInfo`: node kinds and
//! class attributes as typed objects), [`ops`] (Era, multisig, addresses,
//! compact, floats, `MetadataVersioned`), [`sink`] (decoding straight into
//! Python objects with interned names), [`convert`] (Python values →
//! `Value` for encoding), [`errors`] (Rust errors → py-scale-codec's
//! exception classes, panic guard), [`ss58`], [`metadata_objects`] (py-scale-codec's metadata object API: the bases of
//! the pallet, call, storage … classes), [`metadata_views`] (the FRAME rules they
//! read: storage entry types, V9–V13 indexes), [`metadata`] (the metadata
//! model as Python data), [`typed_parts`] (the parts of a decoded value, a
//! metadata's or any object's `value_object`, as scale objects), [`parts_origin`] (what a part
//! keeps of where it comes from), [`catalogue`] (the package's class tables,
//! registered on import), [`text`] (hex written straight into Python strings),
//! [`value_decoder`] (cyscale's `get_value_decoder` callables), [`ownership`]
//! (whether the installed `scalecodec` files are all ours), [`index`]
//! (columnar decoding to Arrow and Parquet; the `index` feature).

pub mod catalogue;
pub mod classes;
pub mod config;
pub mod config_base;
pub mod convert;
pub mod declared;
pub mod detached;
pub mod errors;
#[cfg(feature = "index")]
pub mod index;
pub mod kinds;
pub mod metadata;
pub mod metadata_objects;
pub mod metadata_views;
pub mod object;
pub mod ops;
pub mod ownership;
pub mod parts_origin;
pub mod registry;
pub mod runtime_api;
pub mod scale_bytes;
pub mod scale_views;
pub mod sink;
pub mod ss58;
pub mod storage;
pub mod text;
pub mod typed_parts;
pub mod value_decoder;
pub mod views;

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
    m.add_class::<scale_bytes::PyScaleBytes>()?;
    m.add_class::<object::ScaleObject>()?;
    m.add_class::<config_base::ConfigBase>()?;
    m.add_class::<object::FastNode>()?;
    m.add_class::<value_decoder::ValueDecoder>()?;
    m.add("UNSET", object::unset(m.py()))?;
    m.add_function(wrap_pyfunction!(object::restore_object, m)?)?;
    m.add_class::<kinds::TypeKind>()?;
    metadata_objects::register(m)?;
    scale_views::register(m)?;
    m.add_function(wrap_pyfunction!(kinds::tuple_elements, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::ss58_encode, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::ss58_decode, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::is_valid_ss58_address, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::ss58_encode_account_index, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::ss58_decode_account_index, m)?)?;
    m.add_function(wrap_pyfunction!(ss58::get_ss58_format, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::metadata_info, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::set_presets_dir, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::presets_dir, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::metadata_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(ops::multi_account_id, m)?)?;
    m.add_function(wrap_pyfunction!(ops::encode_compact, m)?)?;
    m.add_function(wrap_pyfunction!(ops::trailing_zeros, m)?)?;
    m.add_function(wrap_pyfunction!(ops::next_power_of_two, m)?)?;
    m.add_function(wrap_pyfunction!(ops::decode_metadata, m)?)?;
    m.add_function(wrap_pyfunction!(ops::check_type_def, m)?)?;
    m.add_function(wrap_pyfunction!(convert_type_string, m)?)?;
    m.add_function(wrap_pyfunction!(typed_parts::typed_part, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue::set_catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(typed_parts::wrap_parts, m)?)?;
    m.add_function(wrap_pyfunction!(typed_parts::value_object_of, m)?)?;
    m.add_function(wrap_pyfunction!(typed_parts::portable_entry, m)?)?;
    m.add_function(wrap_pyfunction!(declared::user_definition, m)?)?;
    m.add_function(wrap_pyfunction!(ownership::check_ownership, m)?)?;
    #[cfg(feature = "index")]
    index::register(m)?;
    m.add(
        "STORAGE_VERSION_VALUE",
        metadata::storage_version_value(m.py())?,
    )?;
    Ok(())
}
