//! The metadata objects below a pallet: fields, variants, call arguments,
//! V9–V13 calls, V14+ call / event / error enums, runtime-API call
//! definitions, constants, V9–V13 errors and events.
//!
//! Each class here is a base `scalecodec.types` mixes into the scale class
//! of its name (`class GenericPalletMetadata(_core.PalletView, Struct)`), so
//! that the objects stay what py-scale-codec's are (a pallet is a `Struct`
//! whose `value_object` holds typed parts, see [`crate::objects::typed_parts`])
//! while what they answer is Rust. The classes hold nothing of their own:
//! they read `value` and `value_object` of the object.

use crate::metadata::read::{convert_type, decomposition, depth, find_by, type_id_string};
use crate::objects::object::ScaleObject;
use crate::objects::views::{base, inner_part, item, part, view};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::{PyDict, PyList, PyTuple};

view!(
    FieldView,
    "FieldView",
    extends = ScaleObject,
    init = base(),
    docs = "docs",
    {
        //! A field of a composite or variant (portable registry).

        /// `scale_info::N` of the field's type.
        #[getter(r#type)]
        fn field_type(slf: &Bound<'_, Self>) -> PyResult<String> {
            type_id_string(&item(slf.as_any(), "type")?)
        }

        /// `scale_info::N` of the field's type.
        fn get_type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            Self::field_type(slf)
        }
    }
);

view!(
    VariantView,
    "VariantView",
    extends = ScaleObject,
    init = base(),
    docs = "docs",
    getters = {
        /// The fields (`GenericField` objects).
        args: part("fields"),
    },
    {
        //! A variant (a call, event or error of a V14+ pallet).

        /// `{field name: type decomposition}` of the fields.
        #[pyo3(signature = (max_recursion = None))]
        fn get_param_info<'py>(
            slf: &Bound<'py, Self>,
            max_recursion: Option<Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyDict>> {
            let py = slf.py();
            let max_recursion = depth(py, max_recursion)?;
            let info = PyDict::new(py);
            for arg in Self::args(slf)?.try_iter()? {
                let arg = arg?;
                let ty = arg.getattr(intern!(py, "type"))?;
                info.set_item(
                    arg.getattr(intern!(py, "name"))?,
                    decomposition(slf.as_any(), &ty, &max_recursion)?,
                )?;
            }
            Ok(info)
        }
    }
);

view!(
    TypeDefVariantView,
    "TypeDefVariantView",
    extends = ScaleObject,
    init = base(),
    {
        //! A variant type definition.

        /// The variant called `name`.
        fn get_variant_by_name<'py>(
            slf: &Bound<'py, Self>,
            name: &Bound<'py, PyAny>,
        ) -> PyResult<Option<Bound<'py, PyAny>>> {
            let variants = part(slf.as_any(), "variants")?;
            find_by(&variants, name, |v| {
                v.get_item("name")?.getattr(intern!(slf.py(), "value"))
            })
        }

        /// The variant with index `index`.
        fn get_variant_by_index<'py>(
            slf: &Bound<'py, Self>,
            index: &Bound<'py, PyAny>,
        ) -> PyResult<Option<Bound<'py, PyAny>>> {
            let variants = part(slf.as_any(), "variants")?;
            find_by(&variants, index, |v| {
                v.get_item("index")?.getattr(intern!(slf.py(), "value"))
            })
        }
    }
);

view!(
    ArgumentView,
    "ArgumentView",
    extends = ScaleObject,
    init = base(),
    getters = {
        /// The argument name.
        name: item("name"),
    },
    {
        //! An argument of a V9–V13 call.

        /// The argument type, normalised.
        #[getter(r#type)]
        fn type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            convert_type(&item(slf.as_any(), "type")?)
        }
    }
);

view!(
    ScaleInfoArgumentView,
    "ScaleInfoArgumentView",
    extends = ArgumentView,
    init = base().add_subclass(ArgumentView),
    {
        //! An argument of a V14+ call.

        /// The type name when the metadata gives one, else `scale_info::N`.
        #[getter(r#type)]
        fn type_string<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            let value = slf.getattr(intern!(py, "value"))?;
            let name = value.call_method1(intern!(py, "get"), ("typeName",))?;
            if name.is_truthy()? {
                return Ok(name);
            }
            Ok(type_id_string(&value.get_item("type")?)?
                .into_pyobject(py)?
                .into_any())
        }
    }
);

view!(
    FunctionView,
    "FunctionView",
    extends = ScaleObject,
    init = base(),
    docs = "documentation",
    getters = {
        /// The arguments (`GenericFunctionArgumentMetadata` objects).
        args: inner_part("args"),
    },
    {
        //! A V9–V13 call.

        /// The call name.
        fn get_identifier<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            item(slf.as_any(), "name")
        }
    }
);

view!(
    PalletEnumView,
    "PalletEnumView",
    extends = ScaleObject,
    init = base(),
    {
        //! A V14+ pallet's call, event or error enum.

        /// `scale_info::N` of the enum.
        fn get_type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            type_id_string(&item(slf.as_any(), "ty")?)
        }

        /// The enum's variants (`GenericVariant` objects), from the registry
        /// of the metadata this is part of (or of the configuration, once the
        /// metadata is added to it).
        fn _variants<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            let py = slf.py();
            if !slf.getattr(intern!(py, "value_object"))?.is_truthy()? {
                return Ok(PyList::empty(py).into_any());
            }
            let root = slf.getattr(intern!(py, "_parts_root"))?;
            let ty = item(slf.as_any(), "ty")?;
            let mut registry_type = py.None().into_bound(py);
            if !root.is_none() {
                registry_type = root.call_method1(intern!(py, "_registry_type"), (&ty,))?;
            }
            if registry_type.is_none() {
                registry_type = slf
                    .getattr(intern!(py, "runtime_config"))?
                    .call_method1(
                        intern!(py, "get_decoder_class"),
                        (Self::get_type_string(slf)?,),
                    )?
                    .getattr(intern!(py, "scale_info_type"))?;
            }
            registry_type
                .get_item("def")?
                .get_item(1)?
                .get_item("variants")
        }
    }
);

view!(
    RuntimeCallDefinitionView,
    "RuntimeCallDefinitionView",
    extends = ScaleObject,
    init = base(),
    {
        //! A runtime-API call definition of a preset's `runtime_api`.

        /// The type decomposition of each parameter.
        #[pyo3(signature = (max_recursion = None))]
        fn get_param_info<'py>(
            slf: &Bound<'py, Self>,
            max_recursion: Option<Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyList>> {
            let max_recursion = depth(slf.py(), max_recursion)?;
            let info = PyList::empty(slf.py());
            for param in item(slf.as_any(), "params")?.try_iter()? {
                let ty = param?.get_item("type")?;
                info.append(decomposition(slf.as_any(), &ty, &max_recursion)?)?;
            }
            Ok(info)
        }
    }
);

view!(
    ConstantView,
    "ConstantView",
    extends = ScaleObject,
    init = base(),
    docs = "documentation",
    {
        //! A V9–V13 pallet constant.

        /// The constant's type, normalised.
        #[getter(r#type)]
        fn type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            convert_type(&item(slf.as_any(), "type")?)
        }

        /// The constant's SCALE bytes.
        #[getter]
        fn constant_value<'py>(slf: &Bound<'py, Self>) -> PyResult<Option<Bound<'py, PyAny>>> {
            let py = slf.py();
            let value = slf
                .getattr(intern!(py, "value_object"))?
                .call_method1(intern!(py, "get"), ("value",))?;
            if !value.is_truthy()? {
                return Ok(None);
            }
            value.getattr(intern!(py, "value_object")).map(Some)
        }
    }
);

view!(
    ScaleInfoConstantView,
    "ScaleInfoConstantView",
    extends = ConstantView,
    init = base().add_subclass(ConstantView),
    {
        //! A V14+ pallet constant.

        /// `scale_info::N` of the constant's type.
        #[getter(r#type)]
        fn type_string(slf: &Bound<'_, Self>) -> PyResult<String> {
            type_id_string(&item(slf.as_any(), "type")?)
        }
    }
);

view!(
    EntryView,
    "EntryView",
    extends = ScaleObject,
    init = base(),
    docs = "documentation",
    {
        //! A V9–V13 error: name and documentation.
    }
);

view!(
    EventView,
    "EventView",
    extends = EntryView,
    init = base().add_subclass(EntryView),
    getters = {
        /// The argument types (a `Vec<Type>` object).
        args: part("args"),
    },
    {
        //! A V9–V13 event: name, documentation and argument types.
    }
);
