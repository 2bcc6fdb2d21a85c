//! `ferroscale._core` (imported as `scalecodec._core` where ferroscale is the
//! interpreter's `scalecodec`): the Rust half of the Python package.
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
//! [`value_decoder`] (cyscale's `get_value_decoder` callables), [`package`]
//! (the name the package was imported under, its class tables), [`index`]
//! (columnar decoding to Arrow and Parquet; the `index` feature).

pub mod config;
pub mod convert;
pub mod errors;
#[cfg(feature = "index")]
pub mod index;
pub mod metadata;
pub mod objects;
pub mod ops;
pub mod package;
pub mod registry;

use pyo3::prelude::*;

/// The extension's Rust allocations go to mimalloc. Loading a runtime's
/// metadata allocates and frees hundreds of thousands of small strings and
/// vectors (docs, names, type paths), and glibc's malloc and free were 40 %
/// of that time. Python's own objects still come from pymalloc. Only in the
/// extension module (the wheel): a Rust program linking this crate keeps
/// its own allocator.
#[cfg(feature = "extension-module")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// py-scale-codec's normalisation of a legacy metadata type name
/// (`"<Balance as HasCompact>::Type"` → `"Compact<Balance>"`, `T::` removed …).
#[pyfunction]
fn convert_type_string(name: &str) -> String {
    ferroscale_dynamic::runtime::convert_type_string(name)
}

/// The extension module. It keeps the GIL on a free-threaded CPython
/// (`gil_used = true`, which CPython answers by turning the GIL back on at
/// import), though what threads share (a registry, a configuration's slots,
/// a scale object's values) is behind locks of its own and its suites passed
/// on CPython 3.13t with the GIL off. PyO3 0.30, which fixed the reference
/// leaks of 0.27, builds for free-threaded 3.14t and later only, and no
/// such interpreter can be had where this project is built and tested:
/// support is declared once `cargo xtask free-threaded` has passed on one.
#[pymodule(gil_used = true)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    package::name::record(m)?;
    m.add_class::<registry::PyRegistry>()?;
    m.add_class::<convert::scale_bytes::PyScaleBytes>()?;
    m.add_class::<objects::object::ScaleObject>()?;
    m.add_class::<config::ConfigBase>()?;
    m.add_class::<objects::object::FastNode>()?;
    m.add_class::<registry::value_decoder::ValueDecoder>()?;
    m.add("UNSET", objects::object::unset(m.py()))?;
    m.add_function(wrap_pyfunction!(objects::object::restore_object, m)?)?;
    m.add_class::<registry::kinds::TypeKind>()?;
    // the metadata object API's views
    m.add_class::<metadata::entries::FieldView>()?;
    m.add_class::<metadata::entries::VariantView>()?;
    m.add_class::<metadata::entries::TypeDefVariantView>()?;
    m.add_class::<metadata::entries::ArgumentView>()?;
    m.add_class::<metadata::entries::ScaleInfoArgumentView>()?;
    m.add_class::<metadata::entries::FunctionView>()?;
    m.add_class::<metadata::entries::PalletEnumView>()?;
    m.add_class::<metadata::storage::StorageEntryView>()?;
    m.add_class::<metadata::storage::ScaleInfoStorageEntryView>()?;
    m.add_class::<metadata::entries::RuntimeCallDefinitionView>()?;
    m.add_class::<metadata::entries::EntryView>()?;
    m.add_class::<metadata::entries::EventView>()?;
    m.add_class::<metadata::entries::ConstantView>()?;
    m.add_class::<metadata::entries::ScaleInfoConstantView>()?;
    m.add_class::<metadata::pallet::PalletView>()?;
    m.add_class::<metadata::pallet::ScaleInfoPalletView>()?;
    m.add_class::<metadata::versioned::MetadataAllView>()?;
    m.add_class::<metadata::versioned::MetadataVersionedView>()?;
    m.add_class::<objects::views::extrinsic::CallView>()?;
    m.add_class::<objects::views::extrinsic::ExtrinsicView>()?;
    // the other scale classes' views
    m.add_class::<objects::views::values::EnumView>()?;
    m.add_class::<objects::views::values::SetView>()?;
    m.add_class::<objects::views::values::SeqView>()?;
    m.add_class::<objects::views::values::MapView>()?;
    m.add_class::<objects::views::values::EraView>()?;
    m.add_class::<objects::views::accounts::AccountIdView>()?;
    m.add_class::<objects::views::accounts::MultiAddressView>()?;
    m.add_class::<objects::views::events::RuntimeEventView>()?;
    m.add_class::<objects::views::events::EventRecordView>()?;
    m.add_class::<objects::views::values::StorageHasherView>()?;
    m.add_class::<objects::views::values::ContractResultView>()?;
    m.add_class::<objects::views::codec::CompositeView>()?;
    m.add_class::<objects::views::codec::RawBytesView>()?;
    m.add_class::<objects::views::codec::FloatView>()?;
    m.add_class::<objects::views::codec::TextView>()?;
    m.add_class::<objects::views::codec::BytesView>()?;
    m.add_function(wrap_pyfunction!(registry::kinds::tuple_elements, m)?)?;
    m.add_function(wrap_pyfunction!(ops::ss58::ss58_encode, m)?)?;
    m.add_function(wrap_pyfunction!(ops::ss58::ss58_decode, m)?)?;
    m.add_function(wrap_pyfunction!(ops::ss58::is_valid_ss58_address, m)?)?;
    m.add_function(wrap_pyfunction!(ops::ss58::ss58_encode_account_index, m)?)?;
    m.add_function(wrap_pyfunction!(ops::ss58::ss58_decode_account_index, m)?)?;
    m.add_function(wrap_pyfunction!(ops::ss58::get_ss58_format, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::model::metadata_info, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::model::set_presets_dir, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::model::presets_dir, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::model::metadata_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(ops::multi_account_id, m)?)?;
    m.add_function(wrap_pyfunction!(ops::encode_compact, m)?)?;
    m.add_function(wrap_pyfunction!(ops::trailing_zeros, m)?)?;
    m.add_function(wrap_pyfunction!(ops::next_power_of_two, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::model::decode_metadata, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::model::metadata_value, m)?)?;
    m.add_class::<metadata::loaded::LoadedMetadata>()?;
    m.add_class::<objects::object::DeferredValue>()?;
    m.add_function(wrap_pyfunction!(metadata::digest::metadata_digest, m)?)?;
    m.add_function(wrap_pyfunction!(metadata::digest::extrinsic_proof, m)?)?;
    m.add_function(wrap_pyfunction!(ops::check_type_def, m)?)?;
    m.add_function(wrap_pyfunction!(convert_type_string, m)?)?;
    m.add_function(wrap_pyfunction!(objects::typed_parts::typed_part, m)?)?;
    m.add_function(wrap_pyfunction!(package::catalogue::set_catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(objects::typed_parts::wrap_parts, m)?)?;
    m.add_function(wrap_pyfunction!(objects::typed_parts::value_object_of, m)?)?;
    m.add_function(wrap_pyfunction!(objects::typed_parts::portable_entry, m)?)?;
    m.add_function(wrap_pyfunction!(config::declared::user_definition, m)?)?;
    #[cfg(feature = "index")]
    {
        // columnar decoding (`scalecodec.index`)
        m.add_class::<index::PySpecDecoder>()?;
        m.add_class::<index::IndexBatch>()?;
        m.add_class::<index::ArrowTable>()?;
        m.add_function(wrap_pyfunction!(index::restore_spec_decoder, m)?)?;
        m.add_function(wrap_pyfunction!(index::decode_blocks, m)?)?;
        m.add_function(wrap_pyfunction!(index::typed_table_schema, m)?)?;
        m.add_function(wrap_pyfunction!(index::read_blocks, m)?)?;
        m.add_function(wrap_pyfunction!(index::index_json_lines, m)?)?;
        m.add_function(wrap_pyfunction!(index::missing_blocks, m)?)?;
        m.add_function(wrap_pyfunction!(index::check_index, m)?)?;
        m.add_function(wrap_pyfunction!(index::block_ranges, m)?)?;
        m.add_function(wrap_pyfunction!(index::index_decoder_stats, m)?)?;
        m.add_function(wrap_pyfunction!(index::keep_freed_memory, m)?)?;
    }
    m.add(
        "STORAGE_VERSION_VALUE",
        metadata::model::storage_version_value(m.py())?,
    )?;
    Ok(())
}
