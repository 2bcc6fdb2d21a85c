//! The core metadata model (any version V9–V16) as plain Python data, from
//! which the Python layer builds its metadata, pallet and storage objects.

use ferroscale_metadata::{
    Metadata, Pallet, PalletEnum, StorageEntry, StorageModifier, TypeRef, Variant,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use ferroscale_dynamic::registry::legacy_signed_extension;

use std::sync::{Arc, Mutex, OnceLock};

use crate::convert::detached::Built;
use crate::convert::sink::NameCache;
use crate::convert::tree::{DecodePart, DecodedTree, Graft};
use crate::errors::{guard, raise};
use crate::registry::PyRegistry;

fn type_string(t: &TypeRef) -> String {
    t.to_string()
}

fn variant_dict<'py>(py: Python<'py>, v: &Variant) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", &v.name)?;
    d.set_item("index", v.index)?;
    let args = PyList::empty(py);
    for f in &v.fields {
        let a = PyDict::new(py);
        a.set_item("name", f.name.as_deref())?;
        a.set_item("type", type_string(&f.ty))?;
        a.set_item("typeName", f.type_name.as_deref())?;
        args.append(a)?;
    }
    d.set_item("args", args)?;
    d.set_item("docs", &v.docs)?;
    Ok(d)
}

fn enum_dict<'py>(py: Python<'py>, e: &Option<PalletEnum>) -> PyResult<Bound<'py, PyAny>> {
    let Some(e) = e else {
        return Ok(py.None().into_bound(py));
    };
    let d = PyDict::new(py);
    d.set_item("pallet_index", e.pallet_index)?;
    d.set_item("type", e.type_id)?;
    let vs = PyList::empty(py);
    for v in &e.variants {
        vs.append(variant_dict(py, v)?)?;
    }
    d.set_item("variants", vs)?;
    Ok(d.into_any())
}

fn storage_dict<'py>(py: Python<'py>, s: &StorageEntry) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", &s.name)?;
    d.set_item(
        "modifier",
        match s.modifier {
            StorageModifier::Optional => "Optional",
            StorageModifier::Default => "Default",
        },
    )?;
    let hashers: Vec<&str> = s.hashers.iter().map(|h| h.name()).collect();
    d.set_item("hashers", hashers)?;
    d.set_item("key", s.key.as_ref().map(type_string))?;
    let keys: Vec<String> = s.keys.iter().map(type_string).collect();
    d.set_item("keys", keys)?;
    d.set_item("value", type_string(&s.value))?;
    d.set_item("default", PyBytes::new(py, &s.default))?;
    d.set_item("docs", &s.docs)?;
    d.set_item("linked", s.linked)?;
    Ok(d)
}

/// The name and docs of the storage-version entry py-scale-codec lists first
/// in every pallet with storage (a `u16` under a reserved name).
pub(crate) const STORAGE_VERSION: (&str, &str) = (
    ":__STORAGE_VERSION__:",
    "Returns the current pallet version from storage",
);

/// The storage-version entry in the model's shape (see [`STORAGE_VERSION`]).
fn storage_version_entry(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", STORAGE_VERSION.0)?;
    d.set_item("modifier", "Default")?;
    d.set_item("hashers", PyList::empty(py))?;
    d.set_item("key", py.None())?;
    d.set_item("keys", PyList::empty(py))?;
    d.set_item("value", "u16")?;
    d.set_item("default", PyBytes::new(py, &[0, 0]))?;
    d.set_item("docs", [STORAGE_VERSION.1])?;
    d.set_item("linked", false)?;
    Ok(d)
}

/// The storage-version entry as py-scale-codec's metadata value shows it
/// (`scalecodec._core.STORAGE_VERSION_VALUE`).
pub fn storage_version_value(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", STORAGE_VERSION.0)?;
    d.set_item("modifier", "Default")?;
    let ty = PyDict::new(py);
    ty.set_item("Plain", "u16")?;
    d.set_item("type", ty)?;
    d.set_item("default", "0x0000")?;
    d.set_item("documentation", [STORAGE_VERSION.1])?;
    Ok(d)
}

fn pallet_dict<'py>(py: Python<'py>, p: &Pallet) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", &p.name)?;
    d.set_item("index", p.index)?;
    d.set_item("calls", enum_dict(py, &p.call_enum)?)?;
    d.set_item("events", enum_dict(py, &p.event_enum)?)?;
    d.set_item("errors", enum_dict(py, &p.error_enum)?)?;
    let consts = PyList::empty(py);
    for c in &p.constants {
        let cd = PyDict::new(py);
        cd.set_item("name", &c.name)?;
        cd.set_item("type", type_string(&c.ty))?;
        cd.set_item("value", PyBytes::new(py, &c.value))?;
        cd.set_item("docs", &c.docs)?;
        consts.append(cd)?;
    }
    d.set_item("constants", consts)?;
    match &p.storage {
        Some(s) => {
            let sd = PyDict::new(py);
            sd.set_item("prefix", &s.prefix)?;
            let entries = PyList::empty(py);
            entries.append(storage_version_entry(py)?)?;
            for e in &s.entries {
                entries.append(storage_dict(py, e)?)?;
            }
            sd.set_item("entries", entries)?;
            d.set_item("storage", sd)?;
        }
        None => d.set_item("storage", py.None())?,
    }
    d.set_item("docs", &p.docs)?;
    Ok(d)
}

/// Loads metadata bytes (any framing the core accepts) and returns
/// `{"version", "spec_name", "spec_version", "pallets": [...], "extrinsic_version"}`.
#[pyfunction]
pub fn metadata_info<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyDict>> {
    let md = read_metadata(py, data)?;
    info_dict(py, &md)
}

/// Reads metadata with the interpreter lock released (other threads run
/// meanwhile); a `ValueError` saying what is wrong and where.
pub(crate) fn read_metadata(py: Python<'_>, data: &[u8]) -> PyResult<Metadata> {
    crate::convert::detached::detached(py, "reading metadata", || Metadata::load(data))
        .map_err(PyValueError::new_err)?
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// [`metadata_info`]'s dict of a metadata the engine has read.
pub(crate) fn info_dict<'py>(py: Python<'py>, md: &Metadata) -> PyResult<Bound<'py, PyDict>> {
    guard("reading metadata", || {
        let d = PyDict::new(py);
        d.set_item("version", md.version)?;
        d.set_item("spec_name", md.spec_name())?;
        d.set_item("spec_version", md.spec_version())?;
        d.set_item("extrinsic_versions", md.extrinsic.versions.clone())?;
        let pallets = PyList::empty(py);
        for p in &md.pallets {
            pallets.append(pallet_dict(py, p)?)?;
        }
        d.set_item("pallets", pallets)?;
        d.set_item("type_count", md.type_count())?;
        d.set_item("signed_extensions", signed_extensions_dict(py, md)?)?;
        Ok(d)
    })
}

/// The signed extensions `{identifier: {"extrinsic", "additional_signed"}}`
/// with their type strings (py-scale-codec's types for legacy metadata).
pub(crate) fn signed_extensions_dict<'py>(
    py: Python<'py>,
    md: &Metadata,
) -> PyResult<Bound<'py, PyDict>> {
    let extensions = PyDict::new(py);
    for e in &md.extrinsic.signed_extensions {
        let ed = PyDict::new(py);
        if md.version < 14 {
            // legacy metadata names the extensions only: py-scale-codec's types
            let (extrinsic, additional) = legacy_signed_extension(&e.identifier);
            ed.set_item("extrinsic", extrinsic)?;
            ed.set_item("additional_signed", additional)?;
        } else {
            ed.set_item("extrinsic", e.ty.map(|t| format!("scale_info::{t}")))?;
            ed.set_item(
                "additional_signed",
                e.additional_signed.map(|t| format!("scale_info::{t}")),
            )?;
        }
        extensions.set_item(&e.identifier, ed)?;
    }
    Ok(extensions)
}

/// Tells the Rust engine where the installed package keeps the presets
/// (its `type_registry/` folder), so the `core` preset's metadata
/// definitions load from the wheel wherever it was unpacked.
#[pyfunction]
pub fn set_presets_dir(path: std::path::PathBuf) {
    ferroscale_dynamic::preset::set_presets_dir(path);
}

/// The folder the Rust engine reads presets from (an error when it holds no
/// `core.json`).
#[pyfunction]
pub fn presets_dir() -> PyResult<String> {
    ferroscale_dynamic::preset::presets_dir()
        .map(|d| d.display().to_string())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A new registry of the metadata definitions (the `core` preset's
/// `MetadataV9`–`V14` and ours for V15/V16, those `MetadataVersioned`
/// decodes with): the Python layer takes the classes of a decoded metadata
/// value's parts (pallets, calls, storage entries …) from it, as
/// py-scale-codec types them. Its own copy, so that resolving class names
/// never waits on the registry the decoder borrows.
#[pyfunction]
pub fn metadata_definitions(py: Python<'_>) -> PyResult<Bound<'_, PyRegistry>> {
    let inner = guard("loading the metadata definitions", || {
        ferroscale_dynamic::ops::portable_json::metadata_definitions()
            .map_err(|e| crate::errors::to_py(py, &e))
    })?;
    Bound::new(py, PyRegistry::with_inner(inner))
}

/// Refuses metadata whose version byte (after the `meta` magic) is not one
/// of V9–V16, as py-scale-codec words it.
pub(crate) fn check_version(bytes: &[u8]) -> PyResult<()> {
    if bytes.len() >= 5
        && &bytes[..4] == b"meta"
        && !ferroscale_dynamic::registry::METADATA_VERSIONS.contains(&bytes[4])
    {
        return Err(PyValueError::new_err(format!(
            "metadata version {} is not supported (only V9 to V16)",
            bytes[4]
        )));
    }
    Ok(())
}

/// Decodes runtime metadata (`MetadataVersioned`, V9–V16) from the start of
/// `data` with py-scale-codec's metadata definitions, whatever presets a
/// configuration holds: `(value, bytes used, model)` where the model is
/// [`metadata_info`]'s dict.
#[pyfunction]
pub fn decode_metadata<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyBytes>,
) -> PyResult<(Bound<'py, PyAny>, usize, Bound<'py, PyAny>)> {
    check_version(data.as_bytes())?;
    let info = metadata_info(py, data.as_bytes()).map_err(|e| not_metadata(py, &e))?;
    let (value, used) = decode_value(data)?;
    Ok((value, used, info.into_any()))
}

/// A metadata read error as py-scale-codec raises it.
pub(crate) fn not_metadata(py: Python<'_>, e: &PyErr) -> PyErr {
    raise(
        py,
        "InvalidScaleTypeValueException",
        e.value(py).to_string(),
    )
}

/// py-scale-codec's value of the `MetadataVersioned` in `data` (which
/// holds it and nothing else), decoded with py-scale-codec's metadata
/// definitions.
#[pyfunction]
pub fn metadata_value<'py>(data: &Bound<'py, PyBytes>) -> PyResult<Bound<'py, PyAny>> {
    Ok(decode_value(data)?.0)
}

/// The `MetadataVersioned` in `data` (which holds it, magic first, and
/// nothing else; `model` is the engine's reading of it) as Rust data
/// decoded with py-scale-codec's metadata definitions, from which its
/// Python value and parts are made when read
/// (`crate::objects::object::DeferredValue`).
///
/// The portable registry of a V14+ metadata, four fifths of its bytes, is
/// decoded when first reached ([`Graft`]): a client reading a pallet or a
/// storage function does not pay for it.
pub(crate) fn metadata_tree(
    data: &Bound<'_, PyBytes>,
    model: &Metadata,
) -> PyResult<Arc<DecodedTree>> {
    // the definitions' names, interned once for every metadata's tree
    static NAMES: OnceLock<Arc<Mutex<NameCache>>> = OnceLock::new();
    let names = Arc::clone(NAMES.get_or_init(|| Arc::new(Mutex::new(NameCache::default()))));
    let registry = PyRegistry::metadata_definitions(data.py())?;
    if let Some((root, graft)) = without_registry(data, model, registry)? {
        return Ok(DecodedTree::new(root, Some(graft), names));
    }
    let root = PyRegistry::decode_built(registry, "MetadataVersioned", data.as_bytes())?;
    Ok(DecodedTree::new(root, None, names))
}

/// The metadata in `data` decoded with an empty portable registry in place
/// of its own (one byte: no types), and the graft that decodes its own
/// where the stand-in is; `None` for metadata without a registry (or one
/// whose value does not hold it where [`registry_path`] looks).
fn without_registry(
    data: &Bound<'_, PyBytes>,
    model: &Metadata,
    definitions: &Bound<'_, PyRegistry>,
) -> PyResult<Option<(Built, Graft)>> {
    let bytes = data.as_bytes();
    // magic and version byte, then the registry
    const TYPES_AT: usize = ferroscale_metadata::MAGIC.len() + 1;
    let types_end = model.types_encoded_len().map(|len| TYPES_AT + len);
    let Some(types_end) = types_end.filter(|&end| end <= bytes.len()) else {
        return Ok(None);
    };
    let mut shell = Vec::with_capacity(bytes.len() - (types_end - TYPES_AT) + 1);
    shell.extend_from_slice(&bytes[..TYPES_AT]);
    shell.push(0);
    shell.extend_from_slice(&bytes[types_end..]);
    let root = PyRegistry::decode_built(definitions, "MetadataVersioned", &shell)?;
    let Some(at) = registry_path(&root) else {
        return Ok(None);
    };
    let data = data.clone().unbind();
    let decode: DecodePart = Box::new(move |py| {
        let definitions = PyRegistry::metadata_definitions(py)?;
        let types = &data.as_bytes(py)[TYPES_AT..types_end];
        PyRegistry::decode_built(definitions, "PortableRegistry", types).map_err(|e| {
            PyValueError::new_err(format!(
                "decoding the metadata's type registry (bytes {TYPES_AT}..{types_end}): {e}"
            ))
        })
    });
    Ok(Some((root, Graft::new(at, decode))))
}

/// Where a `MetadataVersioned` value holds its registry: the `types` field
/// of the `{"V<n>": metadata}` after the magic (`None` in another shape).
fn registry_path(root: &Built) -> Option<Vec<u32>> {
    let Built::Tuple(parts) = root else {
        return None;
    };
    let Some(Built::Dict(version)) = parts.get(1) else {
        return None;
    };
    let [(_, Built::Dict(fields))] = version.as_slice() else {
        return None;
    };
    let at = fields.iter().position(|(key, _)| key.text() == "types")?;
    Some(vec![1, 0, u32::try_from(at).ok()?])
}

/// [`metadata_value`] and the bytes it used.
pub(crate) fn decode_value<'py>(
    data: &Bound<'py, PyBytes>,
) -> PyResult<(Bound<'py, PyAny>, usize)> {
    let py = data.py();
    let registry = PyRegistry::metadata_definitions(py)?;
    let ty = guard("resolving a type", || {
        registry
            .get()
            .lock(py)?
            .resolve_idx(py, "MetadataVersioned")
    })?;
    PyRegistry::decode_in(
        registry,
        ty,
        Some("MetadataVersioned"),
        data.as_any(),
        0,
        false,
    )
}
