//! Typed parts: the parts of a value Rust decoded, as the scale objects
//! py-scale-codec's decoder would have made for them (a pallet as a
//! `PalletMetadataV14` object whose `value_object['calls']` is an `Option`
//! object …). A part wraps its share of the decoded value and builds its
//! own parts when its `value_object` is first read; this module makes the
//! parts ([`typed_part`]), decides what each `value_object` holds, and gives
//! the bytes py-scale-codec keeps in the `value_object` of text and bytes.
//!
//! A registry type walk (`.value` of every `PortableType`) makes hundreds of
//! parts at once, which is why they are made here and not in Python.

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple, PyType};

use crate::objects::object::{new_instance, ScaleObject};
use crate::objects::part_value::Val;
use crate::objects::parts_origin::PartsOrigin;
use crate::package::catalogue::{catalogue, scale_class};

/// A decoded list, tuple or dict with each element, item or value wrapped
/// as a plain part (`_Part`) of `config`; anything else as it is.
#[pyfunction]
pub fn wrap_parts<'py>(
    value: &Bound<'py, PyAny>,
    config: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = value.py();
    let plain = scale_class(py, "_Part")?;
    let wrap = |v: Bound<'py, PyAny>| plain.call1((v, config));
    if let Ok(list) = value.cast::<PyList>() {
        return Ok(
            PyList::new(py, list.iter().map(wrap).collect::<PyResult<Vec<_>>>()?)?.into_any(),
        );
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return Ok(
            PyTuple::new(py, tuple.iter().map(wrap).collect::<PyResult<Vec<_>>>()?)?.into_any(),
        );
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let out = PyDict::new(py);
        for (k, v) in dict.iter() {
            out.set_item(k, wrap(v)?)?;
        }
        return Ok(out.into_any());
    }
    Ok(value.clone())
}

/// A type string looked up, its class and the class's variant names (an
/// enum's `value_list`, when it has one).
struct Looked {
    type_string: Py<PyAny>,
    class: Py<PyAny>,
    variant_names: Option<Py<PyAny>>,
}

/// Entry `type_id` of a portable registry's `types` (the decoded
/// `{"id", "type"}` list) as a `RegistryType` part of `config` and `root`;
/// `None` when there is none. Ids are the positions in the registries seen
/// so far; an id elsewhere is searched for.
#[pyfunction]
#[pyo3(signature = (types, type_id, config, root=None))]
pub fn portable_entry<'py>(
    types: &Bound<'py, PyAny>,
    type_id: &Bound<'py, PyAny>,
    config: Bound<'py, PyAny>,
    root: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = types.py();
    let types = Val::of(types);
    let id = intern!(py, "id").clone().into_any();
    let has_id = |t: &Val<'py>| t.field(&id).and_then(|id| id.python(py)?.eq(type_id));
    let count = types.len(py)?;
    let at = type_id
        .extract::<usize>()
        .ok()
        .filter(|&i| i < count)
        .map(|i| types.item(py, i))
        .transpose()?;
    let mut entry = None;
    if let Some(candidate) = at {
        if has_id(&candidate)? {
            entry = Some(candidate);
        }
    }
    if entry.is_none() {
        for candidate in types.items(py)? {
            if has_id(&candidate)? {
                entry = Some(candidate);
                break;
            }
        }
    }
    match entry {
        Some(entry) => typed_part(
            entry
                .field(&intern!(py, "type").clone().into_any())?
                .into_bound(py)?,
            intern!(py, "RegistryType").clone().into_any(),
            config,
            None,
            root,
        ),
        None => Ok(py.None().into_bound(py)),
    }
}

/// The classes of the type strings of one `value_object` (a vector's
/// elements share one): the last one looked up.
#[derive(Default)]
struct ClassMemo {
    last: Option<Looked>,
}

impl ClassMemo {
    fn class_of<'py>(
        &mut self,
        origin: &PartsOrigin,
        type_string: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> {
        let py = type_string.py();
        if let Some(last) = &self.last {
            if last.type_string.bind(py).is(type_string) {
                let names = last.variant_names.as_ref().map(|n| n.bind(py).clone());
                return Ok((last.class.bind(py).clone(), names));
            }
        }
        let cls = origin
            .lookup(py)
            .call_method1(intern!(py, "get_decoder_class"), (type_string,))?;
        let names = variant_names(&cls)?;
        self.last = Some(Looked {
            type_string: type_string.clone().unbind(),
            class: cls.clone().unbind(),
            variant_names: names.as_ref().map(|n| n.clone().unbind()),
        });
        Ok((cls, names))
    }
}

/// A decoded scale object of `type_string` holding `value`, in `config`,
/// its class from `source` (by default the metadata definitions); `root`
/// is the object it is a part of (the metadata), kept by every part.
#[pyfunction]
#[pyo3(signature = (value, type_string, config, source=None, root=None))]
pub fn typed_part<'py>(
    value: Bound<'py, PyAny>,
    type_string: Bound<'py, PyAny>,
    config: Bound<'py, PyAny>,
    source: Option<Bound<'py, PyAny>>,
    root: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = value.py();
    let source = source.filter(|s| !s.is_none());
    let lookup = match &source {
        Some(s) => s.clone(),
        None => catalogue(py)?.definitions.call0()?,
    };
    let origin = Bound::new(
        py,
        PartsOrigin::new(
            source.map(Bound::unbind),
            lookup.unbind(),
            root.map_or_else(|| py.None(), Bound::unbind),
            typed_value_object,
        ),
    )?;
    make_part(
        Val::of(&value),
        &type_string,
        &config,
        &origin,
        &mut ClassMemo::default(),
    )
}

/// The `value_object` of `obj`, a decoded or encoded object (not a part of
/// one), holding `value`: built as a typed part's (see
/// [`typed_value_object`]), its parts' classes looked up in its own
/// configuration; a configuration-less object's containers as plain parts.
#[pyfunction]
pub fn value_object_of<'py>(
    obj: &Bound<'py, PyAny>,
    value: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let config = obj.getattr(intern!(py, "runtime_config"))?;
    if config.is_none() {
        return wrap_parts(value, &config);
    }
    let origin = Bound::new(
        py,
        PartsOrigin::new(
            Some(config.clone().unbind()),
            config.unbind(),
            py.None(),
            typed_value_object,
        ),
    )?;
    typed_value_object(obj, value, &origin)
}

/// One part (see [`typed_part`]); a type string no class is found for
/// gives a plain `_Part`.
fn make_part<'py>(
    value: Val<'py>,
    type_string: &Bound<'py, PyAny>,
    config: &Bound<'py, PyAny>,
    origin: &Bound<'py, PartsOrigin>,
    memo: &mut ClassMemo,
) -> PyResult<Bound<'py, PyAny>> {
    let py = type_string.py();
    let null;
    let type_string = if type_string.is_truthy()? {
        type_string
    } else {
        null = intern!(py, "Null").clone().into_any();
        &null
    };
    let (cls, variant_names) = memo.class_of(origin.get(), type_string)?;
    if cls.is_none() {
        return scale_class(py, "_Part")?.call1((value.python(py)?, config, type_string));
    }
    let obj = new_instance(cls.cast::<PyType>()?)?;
    let enum_index = match variant_names {
        Some(names) => variant_position(&names, value.variant_name(py)?.as_ref())?,
        None => None,
    };
    {
        let mut part = obj.cast::<ScaleObject>()?.try_borrow_mut()?;
        part.set_part(
            config.clone().unbind(),
            value.into_part_value(py)?,
            origin.clone().unbind(),
        );
    }
    if let Some(index) = enum_index {
        obj.setattr(intern!(py, "_index"), index)?;
    }
    Ok(obj)
}

/// An enum class's variant names by SCALE index and its `{variant: type}`,
/// derived from its `value_list` and `type_mapping`: the names are the
/// mapping's when that is `[name, type]` lists (a scale-info enum's has one
/// entry per index, gaps included), else the `value_list`. `None` for a
/// class without variants. A class made for a type string carries them
/// from its making (`_variant_names`, `_variant_types`, see
/// `config::classes`), since every part of the enum asks for them; a
/// class declared in Python derives them at each ask.
pub(crate) fn variant_tables<'py>(
    value_list: Option<Bound<'py, PyAny>>,
    mapping: Option<Bound<'py, PyAny>>,
) -> PyResult<Option<(Bound<'py, PyAny>, Bound<'py, PyDict>)>> {
    let Some(names) = value_list.filter(|n| n.is_truthy().unwrap_or(false)) else {
        return Ok(None);
    };
    let py = names.py();
    let types = PyDict::new(py);
    let Some(mapping) = mapping.filter(|m| m.is_instance_of::<PyList>()) else {
        return Ok(Some((names, types)));
    };
    let by_index = PyList::empty(py);
    let mut pairs = true;
    for entry in mapping.try_iter()? {
        let entry = entry?;
        match entry.cast::<PyList>() {
            Ok(pair) if pair.len() == 2 => {
                by_index.append(pair.get_item(0)?)?;
                types.set_item(pair.get_item(0)?, pair.get_item(1)?)?;
            }
            _ => pairs = false,
        }
    }
    Ok(Some((
        if pairs { by_index.into_any() } else { names },
        types,
    )))
}

/// [`variant_tables`]' names of `cls`: the ones it was made with, else derived.
fn variant_names<'py>(cls: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = cls.py();
    if let Ok(ty) = cls.cast::<PyType>() {
        if let Some(names) =
            crate::objects::object::own_class_attr(ty, intern!(py, "_variant_names"))?
        {
            return Ok(Some(names));
        }
    }
    let value_list = cls.getattr_opt(intern!(py, "value_list"))?;
    let mapping = cls.getattr_opt(intern!(py, "type_mapping"))?;
    Ok(variant_tables(value_list, mapping)?.map(|(names, _)| names))
}

/// An enum's variant index: the position of the value's variant name (a
/// unit variant's name, or the one key of `{name: value}`) in the class's
/// variant `names` (a list or tuple); `None` when it is not there.
pub fn variant_index(
    names: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<Option<usize>> {
    variant_position(names, Val::of(value).variant_name(value.py())?.as_ref())
}

/// The position of variant `name` in the class's variant `names` (a list
/// or tuple); `None` when it is not there or there is no name.
fn variant_position(
    names: &Bound<'_, PyAny>,
    name: Option<&Bound<'_, PyString>>,
) -> PyResult<Option<usize>> {
    let Some(name) = name else {
        return Ok(None);
    };
    if !(names.is_instance_of::<PyList>() || names.is_instance_of::<PyTuple>()) {
        return Ok(None);
    }
    for (i, candidate) in names.try_iter()?.enumerate() {
        if candidate?.eq(name)? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// `bytearray.fromhex(text)`: pairs of hex digits, ASCII whitespace
/// allowed between pairs; `None` when the text is not that.
fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    let mut out = Vec::with_capacity(digits.len() / 2);
    let mut i = 0;
    while i < digits.len() {
        let c = digits[i];
        if c.is_ascii_whitespace() || c == 0x0b {
            i += 1;
            continue;
        }
        let hi = (c as char).to_digit(16)?;
        let lo = (*digits.get(i + 1)? as char).to_digit(16)?;
        // two hex digits: at most 0xff
        out.push(u8::try_from(hi << 4 | lo).ok()?);
        i += 2;
    }
    Some(out)
}

/// The bytes behind a `Bytes` or text value, as py-scale-codec keeps them
/// in `value_object`: bytes as they are, `"0x…"` hex as its bytes, other
/// text as its UTF-8; anything else gives an empty `bytearray`.
pub fn raw_bytes<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyByteArray>> {
    let py = value.py();
    if let Ok(b) = value.cast::<PyBytes>() {
        return Ok(PyByteArray::new(py, b.as_bytes()));
    }
    if let Ok(b) = value.cast::<PyByteArray>() {
        return Ok(PyByteArray::new(py, &b.to_vec()));
    }
    if let Ok(s) = value.cast::<PyString>() {
        let text = s.to_str()?;
        if let Some(raw) = text.strip_prefix("0x").and_then(from_hex) {
            return Ok(PyByteArray::new(py, &raw));
        }
        return Ok(PyByteArray::new(py, text.as_bytes()));
    }
    Ok(PyByteArray::new(py, &[]))
}

/// The two items of a `(name, type)` pair of a `type_mapping` (a tuple or
/// a list), as Python's unpacking takes them.
fn pair<'py>(item: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let mut items = item.try_iter()?;
    match (items.next(), items.next(), items.next()) {
        (Some(a), Some(b), None) => Ok((a?, b?)),
        _ => Err(PyValueError::new_err(
            "a type_mapping entry must be a (name, type) pair",
        )),
    }
}

/// `{name: type}` of `obj`'s `type_mapping` (`mapping`): the variant
/// types its class was made with (`_variant_types`, see [`variant_tables`]),
/// else read from the mapping's `(name, type)` pairs.
fn mapping_types<'py>(
    obj: &Bound<'py, PyAny>,
    mapping: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let py = obj.py();
    let made =
        crate::objects::object::own_class_attr(&obj.get_type(), intern!(py, "_variant_types"))?;
    if let Some(types) = made.and_then(|t| t.cast_into::<PyDict>().ok()) {
        return Ok(types);
    }
    let types = PyDict::new(py);
    for item in mapping.try_iter()? {
        let (name, ty) = pair(&item?)?;
        types.set_item(name, ty)?;
    }
    Ok(types)
}

/// Whether `ty` names no type (`None` or `"Null"`): such an enum variant has no value.
fn is_null(ty: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    match ty {
        None => Ok(true),
        Some(t) => Ok(t.is_none() || t.eq("Null")?),
    }
}

/// The `value_object` of an event record (`{"phase", "event", "topics"}`
/// objects) or of a scale-info event (`(pallet, object of the pallet's event
/// enum)`) from the values py-scale-codec gives them (a record's `phase`
/// and `extrinsic_idx`, `event`, `topics`; an event's `module_id`,
/// `event_id`, `attributes`), each part typed by `mapping`; `None` for
/// another shape.
fn event_value_object<'py>(
    obj: &Bound<'py, PyAny>,
    value: &Bound<'py, PyAny>,
    mapping: &Bound<'py, PyAny>,
    part: &mut impl FnMut(Bound<'py, PyAny>, &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = value.py();
    let Ok(fields) = value.cast::<PyDict>() else {
        return Ok(None);
    };
    let types = mapping_types(obj, mapping)?;
    let get = |key: &str| -> PyResult<Bound<'py, PyAny>> {
        Ok(fields
            .get_item(key)?
            .unwrap_or_else(|| py.None().into_bound(py)))
    };
    if let (Some(phase_ty), Some(event_ty)) = (types.get_item("phase")?, types.get_item("event")?) {
        // an event record
        let phase = get("phase")?;
        let index = get("extrinsic_idx")?;
        let phase = match index.is_none() {
            true => phase,
            false => [(phase, index)].into_py_dict(py)?.into_any(),
        };
        let out = PyDict::new(py);
        out.set_item("phase", part(phase, &phase_ty)?)?;
        out.set_item("event", part(get("event")?, &event_ty)?)?;
        if let Some(topics_ty) = types.get_item("topics")? {
            out.set_item("topics", part(get("topics")?, &topics_ty)?)?;
        }
        return Ok(Some(out.into_any()));
    }
    // a scale-info event: its pallet's variant holds the pallet's event
    let pallet = get("module_id")?;
    let Some(ty) = types.get_item(&pallet)? else {
        return Ok(None);
    };
    let (event_id, attributes) = (get("event_id")?, get("attributes")?);
    let inner = match attributes.is_none() {
        true => event_id,
        false => [(event_id, attributes)].into_py_dict(py)?.into_any(),
    };
    let inner = part(inner, &ty)?;
    Ok(Some(PyTuple::new(py, [pallet, inner])?.into_any()))
}

/// py-scale-codec's `value_object` of the typed part `obj` holding `value`
/// (`origin`: where it comes from): per class kind, what its decoder would
/// have left there, each inner part made from the same origin: a struct's
/// dict of parts, a tuple's parts (a 1-tuple's its element's
/// `value_object`), bytes and text as their bytes, an option's part or
/// `None`, a vector's list of parts, an enum's `(variant, part or None)`
/// (a `MultiAddress`'s bare account its `Id`, a bare index its `Index`),
/// an event record's and a scale-info event's as `event_value_object`
/// builds them, an era's `(period, phase)` numbers; else the value itself
/// (a container's items as plain parts).
pub fn typed_value_object<'py>(
    obj: &Bound<'py, PyAny>,
    value: &Bound<'py, PyAny>,
    origin: &Bound<'py, PartsOrigin>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let kinds = catalogue(py)?.by_name;
    let is = |name: &str| -> PyResult<bool> {
        match kinds.get_item(name)? {
            Some(cls) => obj.is_instance(&cls),
            None => Ok(false),
        }
    };
    let config = obj.getattr(intern!(py, "runtime_config"))?;
    let mut memo = ClassMemo::default();
    let mut part = |v: Val<'py>, t: &Bound<'py, PyAny>| make_part(v, t, &config, origin, &mut memo);
    let mapping = obj.getattr(intern!(py, "type_mapping"))?;
    let sub = obj.getattr(intern!(py, "sub_type"))?;
    let has_mapping = mapping.is_truthy()?;
    let mut value = Val::of(value);
    if has_mapping && (is("GenericEventRecord")? || is("GenericScaleInfoEvent")?) {
        // an event's parts recombine its fields: made from Python data
        let data = value.python(py)?;
        let mut py_part = |v: Bound<'py, PyAny>, t: &Bound<'py, PyAny>| part(Val::Py(v), t);
        if let Some(parts) = event_value_object(obj, &data, &mapping, &mut py_part)? {
            return Ok(parts);
        }
        value = Val::Py(data);
    }
    if is("Struct")? && has_mapping && value.is_dict() {
        let out = PyDict::new(py);
        for item in mapping.try_iter()? {
            let (name, ty) = pair(&item?)?;
            out.set_item(&name, part(value.field(&name)?, &ty)?)?;
        }
        return Ok(out.into_any());
    }
    if is("Tuple")? && has_mapping {
        if mapping.len()? == 1 {
            return part(value, &mapping.get_item(0)?)?.getattr(intern!(py, "value_object"));
        }
        let parts = value
            .items(py)?
            .into_iter()
            .zip(mapping.try_iter()?)
            .map(|(v, t)| part(v, &t?))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(PyTuple::new(py, parts)?.into_any());
    }
    if is("Bytes")? || is("String")? {
        return Ok(raw_bytes(&value.python(py)?)?.into_any());
    }
    if is("Option")? {
        if value.is_none() || sub.is_none() {
            return Ok(py.None().into_bound(py));
        }
        return part(value, &sub);
    }
    if is("Vec")? && !sub.is_none() {
        if value.is_str() {
            // Vec<u8>: the bytes themselves
            return Ok(raw_bytes(&value.python(py)?)?.into_any());
        }
        let parts = PyList::empty(py);
        if value.is_truthy(py)? {
            for v in value.items(py)? {
                parts.append(part(v, &sub)?)?;
            }
        }
        return Ok(parts.into_any());
    }
    if is("FixedLengthArray")? && value.is_str() {
        return Ok(raw_bytes(&value.python(py)?)?.into_any());
    }
    let is_sequence = mapping.is_instance_of::<PyList>() || mapping.is_instance_of::<PyTuple>();
    if is("Enum")? && is_sequence && has_mapping {
        let types = mapping_types(obj, &mapping)?;
        if let Some((name, inner)) = value.single_entry(py)? {
            let inner = match types.get_item(&name)? {
                Some(ty) if !is_null(Some(&ty))? => part(inner, &ty)?,
                _ => py.None().into_bound(py),
            };
            return Ok(PyTuple::new(py, [name, inner])?.into_any());
        }
        // A `MultiAddress` shows its `Id` as the bare account and its
        // `Index` as the bare index.
        if is("GenericMultiAddress")? {
            let variant = if value.is_str() {
                Some("Id")
            } else if value.is_int() {
                Some("Index")
            } else {
                None
            };
            if let Some(name) = variant {
                if let Some(ty) = types.get_item(name)? {
                    let inner = part(value, &ty)?;
                    return Ok(
                        PyTuple::new(py, [PyString::new(py, name).into_any(), inner])?.into_any(),
                    );
                }
            }
        }
        if value.is_str() {
            // a unit variant (py-scale-codec's `value_list` enums have no
            // `type_mapping`, and keep the name itself)
            return Ok(PyTuple::new(py, [value.python(py)?, py.None().into_bound(py)])?.into_any());
        }
    }
    let value = value.python(py)?;
    if is("Era")? {
        // `(period, phase)` as numbers, as py-scale-codec keeps them
        return Ok(value);
    }
    // A kind without parts of its own here (an event record, a call): its
    // containers' items as plain parts, as a decoded object's are.
    if value.is_instance_of::<PyDict>()
        || value.is_instance_of::<PyList>()
        || value.is_instance_of::<PyTuple>()
    {
        return wrap_parts(&value, &config);
    }
    Ok(value)
}
