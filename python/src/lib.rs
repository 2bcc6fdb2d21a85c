//! `ferroscale._core` (imported as `scalecodec._core` where ferroscale is the
//! interpreter's `scalecodec`): the Rust half of the Python package.
//!
//! The Python package only declares py-scale-codec's names and adapts them;
//! every decode, encode, type resolution, SS58 and FRAME rule runs in the
//! engine crates (`ferroscale_dynamic` above all), and these modules convert
//! and forward, one folder per concern:
//!
//! - [`registry`]: the `Registry` class (one dynamic registry per
//!   configuration), node kinds, storage, runtime APIs, transactions and
//!   cyscale's value decoders by name;
//! - [`config`]: the Rust base of `RuntimeConfigurationObject`, its class
//!   cache and `create_scale_object`, users' own scale classes;
//! - [`objects`]: the Rust base of every scale object, the typed parts of
//!   decoded values and the view classes mixed into the scale classes;
//! - [`metadata`]: py-scale-codec's metadata object API over the engine's
//!   metadata model, and the RFC-0078 digest;
//! - [`convert`]: Python values to and from the engine's values (`ScaleBytes`,
//!   decoding straight into Python objects, hex text);
//! - [`ops`]: module functions (multisig, addresses, compact, floats, SS58);
//! - [`errors`]: engine errors as py-scale-codec's exception classes, and the
//!   guard that keeps a Rust panic out of Python;
//! - [`package`]: the name the package was imported under and the class
//!   tables it registers;
//! - `index`: columnar decoding to Arrow and Parquet (the `index` feature).

// The crate is a Python extension, not a Rust library: its Rust docs are for
// its contributors, built with `--document-private-items`, where links to
// private items resolve.
#![allow(rustdoc::private_intra_doc_links)]

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
