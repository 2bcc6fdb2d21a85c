//! The metadata itself: `MetadataVersioned` (decoded by Rust, with the
//! model behind `get_signed_extensions`) and the versioned enum inside it
//! (`MetadataAll`: pallets and, for V9–V13, the call, event and error
//! indexes).
//!
//! Each class here is a base `scalecodec.types` mixes into the scale class
//! of its name (`class GenericPalletMetadata(_core.PalletView, Struct)`), so
//! that the objects stay what py-scale-codec's are (a pallet is a `Struct`
//! whose `value_object` holds typed parts, see [`crate::objects::typed_parts`])
//! while what they answer is Rust. The classes hold nothing of their own:
//! they read `value` and `value_object` of the object.

use ferroscale_dynamic::ops::metadata_value::IndexTable;

use crate::convert::tree::TreeNode;
use crate::metadata::loaded::LoadedMetadata;
use crate::metadata::model::{check_version, decode_metadata, metadata_tree, not_metadata};
use crate::metadata::read::find_by;
use crate::objects::object::DeferredValue;
use crate::objects::object::ScaleObject;
use crate::objects::views::shared::data_bytes;
use crate::objects::views::{base, inner_part, item, part, view};
use pyo3::exceptions::{PyNotImplementedError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};
use std::sync::Arc;

impl MetadataAllView {
    /// The version's metadata object (`value_object[1]`).
    fn inner<'py>(slf: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        slf.getattr(intern!(slf.py(), "value_object"))?.get_item(1)
    }

    /// The metadata version (the enum's index).
    fn version(slf: &Bound<'_, PyAny>) -> PyResult<u32> {
        slf.getattr(intern!(slf.py(), "index"))?.extract()
    }

    /// The V9–V13 `(call_index, event_index, error_index)` tables, built on
    /// first use and kept on the object.
    fn indexes<'py>(slf: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let attrs = slf.getattr(intern!(py, "__dict__"))?;
        if let Ok(built) = attrs
            .call_method1(intern!(py, "get"), ("_built_indexes",))?
            .cast_into::<PyTuple>()
        {
            return Ok(built);
        }
        let tables = [PyDict::new(py), PyDict::new(py), PyDict::new(py)];
        let version = Self::version(slf)?;
        if version < 14 {
            let inner = Self::inner(slf)?;
            let modules = inner.get_item("modules")?;
            let values = inner.getattr(intern!(py, "value"))?.get_item("modules")?;
            let found = crate::metadata::rules::legacy_metadata_index(version, &values)?;
            for found in found {
                let module = modules.get_item(found.module)?;
                let entry = module
                    .get_item(found.table.field())?
                    .getattr(intern!(py, "value_object"))?
                    .get_item(found.entry)?;
                let key = &found.key;
                match found.table {
                    IndexTable::Errors => tables[2].set_item(key, entry)?,
                    table => {
                        entry.setattr(intern!(py, "lookup"), key)?;
                        tables[table as usize].set_item(key, (module, entry))?;
                    }
                }
            }
        }
        let built = PyTuple::new(py, tables)?;
        attrs.set_item("_built_indexes", &built)?;
        Ok(built)
    }
}

view!(
    MetadataAllView,
    "MetadataAllView",
    extends = ScaleObject,
    init = base(),
    {
        //! The versioned metadata enum (`{"V14": MetadataV14}`): pallets and, for V9–V13, the call / event / error indexes.

        /// The pallets (modules) as objects.
        #[getter]
        fn pallets<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let field = if Self::version(slf.as_any())? >= 14 {
                "pallets"
            } else {
                "modules"
            };
            inner_part(&Self::inner(slf.as_any())?, field)
        }

        /// `{"PPCC": (module, call)}` (V9–V13; empty for V14+, as in py-scale-codec).
        #[getter]
        fn call_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::indexes(slf.as_any())?.get_item(0)
        }

        /// `{"PPEE": (module, event)}` (V9–V13; empty for V14+).
        #[getter]
        fn event_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::indexes(slf.as_any())?.get_item(1)
        }

        /// `{"module-error": error}` (V9–V13; empty for V14+).
        #[getter]
        fn error_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::indexes(slf.as_any())?.get_item(2)
        }

        /// The portable registry object (V14+), else `None`.
        #[getter]
        fn portable_registry<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
            if Self::version(slf.as_any())? < 14 {
                return Ok(None);
            }
            part(&Self::inner(slf.as_any())?, "types").map(Some)
        }

        /// `call_index["{pallet_index}-{call_index}"]` (py-scale-codec's key form).
        fn get_call_function<'py>(
            slf: &Bound<'py, Self>,
            pallet_index: &Bound<'py, PyAny>,
            call_index: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let key = format!("{}-{}", pallet_index.str()?, call_index.str()?);
            Self::call_index(slf)?.call_method1(intern!(slf.py(), "get"), (key,))
        }

        /// Always `None` (as in py-scale-codec).
        fn get_event(&self, pallet_index: &Bound<'_, PyAny>, event_index: &Bound<'_, PyAny>) {
            let _ = (pallet_index, event_index);
        }

        /// The pallet called `name`, else `None`.
        fn get_metadata_pallet<'py>(
            slf: &Bound<'py, Self>,
            name: &Bound<'py, PyAny>,
        ) -> PyResult<Option<Bound<'py, PyAny>>> {
            find_by(&Self::pallets(slf)?, name, |p| item(p, "name"))
        }
    }
);

view!(
    MetadataVersionedView,
    "MetadataVersionedView",
    extends = ScaleObject,
    init = base(),
    {
        //! `MetadataVersioned`: runtime metadata V9–V16, read and checked by
        //! the engine at decode ([`LoadedMetadata`], kept as `_model`); the
        //! Python value (py-scale-codec's, with its definitions), the model
        //! behind `get_signed_extensions` (`_info`) and the object tree are
        //! built when first read.

        /// Reads the metadata at `offset` of `data`: `(value, bytes used)`,
        /// the value deferred (built on first read) when the metadata opens
        /// with its magic, as a node sends it; keeps the engine's metadata
        /// and the metadata's bytes.
        fn _decode_value<'py>(
            slf: &Bound<'py, Self>,
            data: &Bound<'py, PyAny>,
            offset: usize,
            check_remaining: bool,
        ) -> PyResult<(Bound<'py, PyAny>, usize)> {
            let _ = check_remaining;
            let py = slf.py();
            let bytes = data_bytes(data)?;
            let rest = bytes.get(offset..).unwrap_or(&[]);
            check_version(rest)?;
            let rest_bytes = PyBytes::new(py, rest);
            if !rest.starts_with(&ferroscale_metadata::MAGIC) {
                // another framing: read and built at once, as the
                // definitions decode it (and name what is wrong)
                let (value, used, info) = decode_metadata(py, &rest_bytes)?;
                slf.setattr(intern!(py, "_info"), info)?;
                slf.setattr(
                    intern!(py, "_metadata_bytes"),
                    PyBytes::new(py, &rest[..used.min(rest.len())]),
                )?;
                return Ok((value, used));
            }
            let loaded = LoadedMetadata::read(py, rest).map_err(|e| not_metadata(py, &e))?;
            let model = Arc::clone(loaded.model());
            slf.setattr(intern!(py, "_model"), Bound::new(py, loaded)?)?;
            slf.setattr(intern!(py, "_info"), py.None())?;
            slf.setattr(intern!(py, "_metadata_bytes"), &rest_bytes)?;
            let deferred = DeferredValue::tree(
                Box::new(move |bytes| metadata_tree(bytes, &model)),
                rest_bytes.unbind(),
            );
            Ok((Bound::new(py, deferred)?.into_any(), rest.len()))
        }

        /// Whether the portable registry (or the whole value) is still
        /// undecoded: it is decoded when a part inside it is first read.
        #[getter]
        fn _registry_deferred(slf: &Bound<'_, Self>) -> PyResult<bool> {
            ScaleObject::part_pending(slf.as_super())
        }

        /// Nothing to do before decoding: the metadata needs no runtime.
        fn _before_decode(&self) {}

        /// Nothing to do after: every part is built when first read.
        fn _after_decode(&self) {}

        /// Metadata is decoded, never encoded here.
        fn _encode_value(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
            let _ = value;
            Err(PyNotImplementedError::new_err(
                "encoding MetadataVersioned is not supported",
            ))
        }

        /// The model `_core.metadata_info` gives, built on first use (a
        /// `ValueError` before decoding).
        fn _require<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let info = slf.getattr(intern!(py, "_info"))?;
            if !info.is_none() {
                return Ok(info);
            }
            let model = slf.getattr(intern!(py, "_model"))?;
            let Ok(model) = model.cast::<LoadedMetadata>() else {
                return Err(PyValueError::new_err("metadata is not decoded"));
            };
            let info = model.get().info(py)?;
            slf.setattr(intern!(py, "_info"), &info)?;
            Ok(info.into_any())
        }

        /// The engine's reading kept at decode (`None` for metadata decoded
        /// from another framing, whose `_info` was built at once); a
        /// `ValueError` before decoding.
        fn _loaded<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, LoadedMetadata>>> {
            let py = slf.py();
            if let Ok(model) = slf
                .getattr(intern!(py, "_model"))?
                .cast_into::<LoadedMetadata>()
            {
                return Ok(Some(model));
            }
            if slf.getattr(intern!(py, "_info"))?.is_none() {
                return Err(PyValueError::new_err("metadata is not decoded"));
            }
            Ok(None)
        }

        /// The metadata version (9–16).
        fn _version(slf: &Bound<'_, Self>) -> PyResult<u32> {
            match Self::_loaded(slf)? {
                Some(model) => Ok(model.get().version()),
                None => Self::_require(slf)?.get_item("version")?.extract(),
            }
        }

        /// The magic number and the version enum as typed parts of this metadata.
        fn _build_value_object<'py>(
            slf: &Bound<'py, Self>,
            value: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyTuple>> {
            let py = slf.py();
            Self::_loaded(slf)?;
            let config = slf.getattr(intern!(py, "runtime_config"))?;
            let root = Some(slf.clone().into_any());
            // the value, or the node of the decoded tree its parts are
            // made from one by one (see `DeferredValue`)
            let item = |i: usize| -> PyResult<Bound<'py, PyAny>> {
                let Ok(node) = value.cast::<TreeNode>() else {
                    return value.get_item(i);
                };
                match node.get().0.child(py, i)? {
                    Some(child) => Ok(Bound::new(py, TreeNode(child))?.into_any()),
                    None => Err(PyValueError::new_err("metadata value without its parts")),
                }
            };
            let part = |i: usize, ty: &str| {
                crate::objects::typed_parts::typed_part(
                    item(i)?,
                    PyString::new(py, ty).into_any(),
                    config.clone(),
                    None,
                    root.clone(),
                )
            };
            PyTuple::new(py, [part(0, "[u8; 4]")?, part(1, "MetadataAll")?])
        }

        /// The portable registry's entry `type_id` as a `RegistryType`
        /// object (V14+; `None` when there is none), kept once made.
        fn _registry_type<'py>(
            slf: &Bound<'py, Self>,
            type_id: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let cache = slf.getattr(intern!(py, "__dict__"))?.call_method1(
                intern!(py, "setdefault"),
                ("_registry_types", PyDict::new(py)),
            )?;
            if let Some(found) = cache.cast::<PyDict>()?.get_item(type_id)? {
                return Ok(found);
            }
            let version = Self::_version(slf)?;
            let mut entry = py.None().into_bound(py);
            if version >= 14 {
                // from the decoded tree while the value is not built (one
                // entry's value is made, not the metadata's), else the value
                let types_of = |root: crate::convert::tree::NodeRef| -> PyResult<Option<_>> {
                    let Some(all) = root.child(py, 1)? else {
                        return Ok(None);
                    };
                    let Some(metadata) = all.field(py, &format!("V{version}"))? else {
                        return Ok(None);
                    };
                    let Some(registry) = metadata.field(py, "types")? else {
                        return Ok(None);
                    };
                    registry.field(py, "types")
                };
                let node = match ScaleObject::deferred_node(slf.as_super())? {
                    Some(root) => types_of(root)?,
                    None => None,
                };
                let types = match node {
                    Some(types) => Bound::new(py, TreeNode(types))?.into_any(),
                    None => slf
                        .getattr(intern!(py, "value"))?
                        .get_item(1)?
                        .get_item(format!("V{version}"))?
                        .get_item("types")?
                        .get_item("types")?,
                };
                let config = slf.getattr(intern!(py, "runtime_config"))?;
                entry = crate::objects::typed_parts::portable_entry(
                    &types,
                    type_id,
                    config,
                    Some(slf.clone().into_any()),
                )?;
            }
            cache.set_item(type_id, &entry)?;
            Ok(entry)
        }

        /// The error `error_index` of the pallet with index `module_index`.
        fn get_module_error<'py>(
            slf: &Bound<'py, Self>,
            module_index: &Bound<'py, PyAny>,
            error_index: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let all = Self::get_metadata(slf)?;
            if all.getattr(intern!(py, "portable_registry"))?.is_truthy()? {
                for pallet in all.getattr(intern!(py, "pallets"))?.try_iter()? {
                    let pallet = pallet?;
                    let errors = pallet.getattr(intern!(py, "errors"))?;
                    if pallet.get_item("index")?.eq(module_index)? && errors.is_truthy()? {
                        return errors.get_item(error_index);
                    }
                }
                return Ok(py.None().into_bound(py));
            }
            let key = format!("{}-{}", module_index.str()?, error_index.str()?);
            all.getattr(intern!(py, "error_index"))?
                .call_method1(intern!(py, "get"), (key,))
        }

        /// The version enum (`value_object[1]`): `.index` is the version,
        /// `.value_object[1].value` the version's metadata dict (py-scale-codec's).
        fn get_metadata<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            // The base class's getter, called directly: a client reads this
            // once per runtime, right after loading it, when the attribute
            // look-up through the class hierarchy is most of the cost.
            ScaleObject::get_value_object(slf.as_super())?.get_item(1)
        }

        /// The pallet called `name`, else `None`.
        fn get_metadata_pallet<'py>(
            slf: &Bound<'py, Self>,
            name: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.call_method1(intern!(slf.py(), "get_metadata_pallet"), (name,))
        }

        /// The pallet with index `index` (a `ValueError` when there is none).
        fn get_pallet_by_index<'py>(
            slf: &Bound<'py, Self>,
            index: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let pallets = Self::get_metadata(slf)?.getattr(intern!(slf.py(), "pallets"))?;
            find_by(&pallets, index, |p| item(p, "index"))?.ok_or_else(|| {
                PyValueError::new_err(format!(
                    "Pallet for index \"{}\" not found",
                    index.str().map(|s| s.to_string()).unwrap_or_default()
                ))
            })
        }

        /// Signed extensions `{identifier: {"extrinsic", "additional_signed"}}`.
        fn get_signed_extensions<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
            let py = slf.py();
            let found = match Self::_loaded(slf)? {
                // read from the model, without the rest of `_info`
                Some(model) => model.get().signed_extensions(py)?.into_any(),
                None => {
                    Self::_require(slf)?.call_method1(intern!(py, "get"), ("signed_extensions",))?
                }
            };
            let out = PyDict::new(py);
            if found.is_truthy()? {
                out.update(found.cast::<pyo3::types::PyMapping>()?)?;
            }
            Ok(out)
        }

        /// `MetadataAll`'s `call_index`.
        #[getter]
        fn call_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.getattr(intern!(slf.py(), "call_index"))
        }

        /// `MetadataAll`'s `event_index`.
        #[getter]
        fn event_index<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.getattr(intern!(slf.py(), "event_index"))
        }

        /// `MetadataAll`'s `portable_registry` (V14+), else `None`.
        #[getter]
        fn portable_registry<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.getattr(intern!(slf.py(), "portable_registry"))
        }

        /// `MetadataAll`'s `pallets`.
        #[getter]
        fn pallets<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            Self::get_metadata(slf)?.getattr(intern!(slf.py(), "pallets"))
        }
    }
);
