//! Type kinds and class attributes: `TypeKind` (what a graph node is, which
//! picks a scale class; a Python enum) and `ClassInfo` (the attributes
//! py-scale-codec's classes carry: `sub_type`, `type_mapping`, `value_list`,
//! `element_count`, the preset's `base_class`), plus a type's decomposition
//! as Python data.

use ferroscale_dynamic::graph::{Field, Fields, Node, Special, TypeGraph, Variant};
use ferroscale_dynamic::ops::decomposition::Decomposition;
use ferroscale_dynamic::ops::portable_decomposition::Shape;
use ferroscale_dynamic::preset::{Definition, EnumVariants, TypeRef};
use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::NodeKind;
use ferroscale_dynamic::TypeIdx;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// Declares `TypeKind` with the engine's node kinds
/// ([`ferroscale_dynamic::with_node_kinds!`]), in its order (`int(kind)` is
/// the position), and its conversion from [`NodeKind`].
macro_rules! type_kind {
    ($($kind:ident),* $(,)?) => {
        /// What a type-graph node is (the engine's [`NodeKind`], as a Python enum).
        #[pyclass(
            eq,
            eq_int,
            hash,
            frozen,
            module = "scalecodec._core",
            name = "TypeKind"
        )]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum TypeKind {
            $($kind),*
        }

        impl From<NodeKind> for TypeKind {
            fn from(kind: NodeKind) -> Self {
                match kind {
                    $(NodeKind::$kind => TypeKind::$kind),*
                }
            }
        }
    };
}

ferroscale_dynamic::with_node_kinds!(type_kind);

impl TypeKind {
    /// The kind of `node`.
    pub fn of(node: &Node) -> Self {
        node.kind().into()
    }
}

/// The attributes of the scale class of one type string.
pub struct ClassInfo {
    /// The node's kind.
    pub(crate) kind: TypeKind,
    /// The element / inner type as written (`Vec<T>`, `Option<T>`, `[T; N]`, `Compact<T>`).
    pub(crate) sub_type: Option<String>,
    /// Fields `[[name, type]]`, variants `[[name, type or "Null"]]` or tuple items `[type]`.
    pub(crate) type_mapping: Option<Py<PyAny>>,
    /// Variant or flag names (enums, sets).
    pub(crate) value_list: Option<Vec<String>>,
    /// Length of an array.
    pub(crate) element_count: Option<u32>,
    /// The `base_class` the preset's definition names, if any.
    pub(crate) base_class: Option<String>,
}

/// The top-level comma-separated parts of `text`, each trimmed.
fn split_top(text: &str) -> Vec<String> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..i].trim().to_owned());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        parts.push(last.to_owned());
    }
    parts
}

/// The first generic argument of `type_string` as written (`Vec<Foo<A, B>>`
/// → `Foo<A, B>`), or the element type of an array (`[T; N]` → `T`).
pub fn sub_type_text(type_string: &str) -> Option<String> {
    let s = type_string.trim();
    if let (Some(open), true) = (s.find('<'), s.ends_with('>')) {
        return split_top(&s[open + 1..s.len() - 1]).into_iter().next();
    }
    if s.starts_with('[') && s.ends_with(']') {
        let semi = s.rfind(';')?;
        return Some(s[1..semi].trim().to_owned());
    }
    None
}

/// The element types of a tuple type string as written (`"(A, Vec<B>)"` →
/// `["A", "Vec<B>"]`; py-scale-codec's `build_type_mapping`); `[]` for
/// anything that is not a parenthesised tuple.
#[pyfunction]
pub fn tuple_elements(type_string: &str) -> Vec<String> {
    let s = type_string.trim();
    match s.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        Some(inner) => split_top(inner),
        None => Vec::new(),
    }
}

/// A preset definition's shape: `(kind, [(name, type)], base_class)`.
type DefinitionShape = (&'static str, Vec<(String, Option<String>)>, Option<String>);

/// The preset definition behind `type_string` as written (aliases followed;
/// `Name<A, B>` falls back to `Name`). An alias to a name the presets do not
/// define (`"Type": "GenericStringType"`) gives that name as the base class,
/// as py-scale-codec takes the class of that name.
fn definition(registry: &Registry, type_string: &str) -> Option<DefinitionShape> {
    let defs = registry.definitions();
    let text = |t: &TypeRef| -> Option<String> {
        match t {
            TypeRef::Named(s) | TypeRef::Invalid(s) => Some(s.clone()),
            TypeRef::Null => None,
            TypeRef::Inline(fields) => Some(format!(
                "{{{}}}",
                fields
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    };
    let end = defs.follow_aliases(type_string)?;
    let Some(named) = end.definition else {
        return (end.aliases > 0).then(|| ("alias", Vec::new(), Some(end.name)));
    };
    let (kind, mapping) = match &named.def {
        // `follow_aliases` ends at a name that is no alias
        Definition::Alias(_) => return None,
        Definition::Struct { fields, .. } => (
            "struct",
            fields.iter().map(|(n, t)| (n.clone(), text(t))).collect(),
        ),
        Definition::Tuple { items, .. } => (
            "tuple",
            items.iter().map(|t| (String::new(), text(t))).collect(),
        ),
        Definition::Enum {
            variants: EnumVariants::Mapped(vs),
            ..
        } => (
            "enum",
            vs.iter().map(|(n, t)| (n.clone(), text(t))).collect(),
        ),
        Definition::Enum {
            variants: EnumVariants::Values(vs),
            ..
        } => (
            // py-scale-codec's `value_list` enum: it has no `type_mapping`
            "value_list",
            vs.iter().map(|(n, _)| (n.clone(), None)).collect(),
        ),
        Definition::Set { flags, .. } => (
            "set",
            flags.iter().map(|(n, _)| (n.clone(), None)).collect(),
        ),
    };
    Some((kind, mapping, named.def.base_class().map(str::to_owned)))
}

/// `[[name, type]]` as a Python list.
fn pairs<'py>(py: Python<'py>, items: Vec<(String, Option<String>)>) -> PyResult<Py<PyAny>> {
    let out = PyList::empty(py);
    for (n, t) in items {
        out.append(PyList::new(
            py,
            [n.into_pyobject(py)?.into_any(), t.into_pyobject(py)?],
        )?)?;
    }
    Ok(out.into_any().unbind())
}

/// The class attributes of `type_string`, resolved to node `idx` of `registry`.
pub fn class_info(
    py: Python<'_>,
    registry: &Registry,
    type_string: &str,
    idx: TypeIdx,
) -> PyResult<ClassInfo> {
    let graph: &TypeGraph = registry.graph();
    let Some(node) = graph.get(idx) else {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "no type node #{}",
            idx.0
        )));
    };
    let kind = TypeKind::of(node);
    let name = |t: TypeIdx| graph.describe(t);
    let struct_mapping = |fs: &[Field]| {
        let items = fs.iter().map(|f| (f.name.to_string(), Some(name(f.ty))));
        pairs(py, items.collect())
    };
    let mut info = ClassInfo {
        kind,
        sub_type: None,
        type_mapping: None,
        value_list: None,
        element_count: None,
        base_class: None,
    };
    match node {
        Node::Compact(t) | Node::Seq(t) | Node::Option(t) | Node::Array(t, _) => {
            info.sub_type = sub_type_text(type_string).or_else(|| Some(name(*t)));
        }
        _ => {}
    }
    match node {
        Node::Array(_, n) | Node::ByteArray(n) => info.element_count = Some(*n),
        Node::Tuple(ts) => {
            let s = type_string.trim();
            let items = match s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
                Some(inner) => split_top(inner),
                None => ts.iter().map(|t| name(*t)).collect(),
            };
            info.type_mapping = Some(items.into_pyobject(py)?.into_any().unbind());
        }
        Node::Struct(fs) => info.type_mapping = Some(struct_mapping(fs)?),
        Node::Enum(vs) => enum_mapping(py, graph, vs, &mut info)?,
        Node::Special(Special::MultiAddress(inner)) => {
            // py-scale-codec's `GenericMultiAddress` is an enum of the
            // runtime's address variants
            if let Some(Node::Enum(vs)) = graph.get(*inner) {
                enum_mapping(py, graph, vs, &mut info)?;
            }
        }
        // py-scale-codec's event record is the runtime's record struct, its
        // `GenericPreRuntime` a struct of its fields, and its scale-info
        // event an enum of the pallets' event enums
        Node::Special(Special::EventRecord(inner) | Special::PreRuntime { fields: inner, .. }) => {
            if let Some(Node::Struct(fs)) = graph.get(*inner) {
                info.type_mapping = Some(struct_mapping(fs)?);
            }
        }
        Node::Special(Special::ScaleInfoEvent(inner)) => {
            if let Some(Node::Enum(vs)) = graph.get(*inner) {
                enum_mapping(py, graph, vs, &mut info)?;
            }
        }
        Node::Result(ok, err) => {
            let items = vec![
                ("Ok".to_string(), Some(name(*ok))),
                ("Err".to_string(), Some(name(*err))),
            ];
            info.type_mapping = Some(pairs(py, items)?);
            info.value_list = Some(vec!["Ok".into(), "Err".into()]);
        }
        Node::Set { flags, .. } => {
            info.value_list = Some(flags.iter().map(|(n, _)| n.to_string()).collect());
        }
        _ => {}
    }
    if type_string.starts_with("scale_info::") {
        return Ok(info);
    }
    if let Some((def_kind, mapping, base_class)) = definition(registry, type_string) {
        info.base_class = base_class;
        match (def_kind, kind) {
            ("struct", TypeKind::Struct) => info.type_mapping = Some(pairs(py, mapping)?),
            ("tuple", TypeKind::Tuple) => {
                let items: Vec<Option<String>> = mapping.into_iter().map(|(_, t)| t).collect();
                info.type_mapping = Some(items.into_pyobject(py)?.into_any().unbind());
            }
            ("value_list", TypeKind::Enum) => info.type_mapping = None,
            ("enum", TypeKind::Enum) => {
                let items = mapping
                    .into_iter()
                    .map(|(n, t)| (n, Some(t.unwrap_or_else(|| "Null".into()))))
                    .collect();
                info.type_mapping = Some(pairs(py, items)?);
            }
            _ => {}
        }
    }
    Ok(info)
}

/// An enum's `type_mapping` and `value_list` (its variant names), as
/// py-scale-codec derives them from a scale-info variant type: one
/// `[name, type]` entry per discriminant up to the largest, so that an
/// entry's position is its variant's SCALE index (the positions no variant
/// uses hold `[None, "Null"]`). A variant's type is `"Null"` without fields,
/// its one unnamed field's type, `"(t1, t2, …)"` for several unnamed fields
/// and `{name: type}` for named ones (a class `get_decoder_class` makes an
/// inner struct of) — what the variant's part in a `value_object` is.
fn enum_mapping(
    py: Python<'_>,
    graph: &TypeGraph,
    variants: &[Variant],
    info: &mut ClassInfo,
) -> PyResult<()> {
    let null = || "Null".into_pyobject(py).map(|n| n.into_any());
    let variant_type = |fields: &Fields| -> PyResult<Bound<'_, PyAny>> {
        Ok(match fields {
            Fields::Unnamed(ts) if ts.len() == 1 => {
                graph.describe(ts[0]).into_pyobject(py)?.into_any()
            }
            Fields::Unnamed(ts) if !ts.is_empty() => {
                let items: Vec<String> = ts.iter().map(|t| graph.describe(*t)).collect();
                format!("({})", items.join(", "))
                    .into_pyobject(py)?
                    .into_any()
            }
            Fields::Named(fs) => {
                let named = PyDict::new(py);
                for f in fs {
                    named.set_item(f.name.to_string(), graph.describe(f.ty))?;
                }
                named.into_any()
            }
            Fields::Unit | Fields::Unnamed(_) => null()?,
        })
    };
    let slots = variants.iter().map(|v| usize::from(v.index) + 1).max();
    let mapping = PyList::empty(py);
    for _ in 0..slots.unwrap_or(0) {
        mapping.append(PyList::new(py, [py.None().into_bound(py), null()?])?)?;
    }
    for v in variants {
        let name = v.name.to_string().into_pyobject(py)?.into_any();
        let entry = PyList::new(py, [name, variant_type(&v.fields)?])?;
        mapping.set_item(usize::from(v.index), entry)?;
    }
    info.type_mapping = Some(mapping.into_any().unbind());
    info.value_list = Some(variants.iter().map(|v| v.name.to_string()).collect());
    Ok(())
}

/// A portable type's decomposition as py-scale-codec's Python values.
pub fn shape_to_py<'py>(py: Python<'py>, shape: &Shape) -> PyResult<Bound<'py, PyAny>> {
    Ok(match shape {
        Shape::Name(n) => n.into_pyobject(py)?.into_any(),
        Shape::None => py.None().into_bound(py),
        Shape::Tuple(items) => {
            let items = items
                .iter()
                .map(|i| shape_to_py(py, i))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, items)?.into_any()
        }
        Shape::List(inner) => PyList::new(py, [shape_to_py(py, inner)?])?.into_any(),
        Shape::Dict(entries) => {
            let out = PyDict::new(py);
            for (k, v) in entries {
                out.set_item(k.as_deref(), shape_to_py(py, v)?)?;
            }
            out.into_any()
        }
    })
}

/// A decomposition as py-scale-codec gives it: names as `str`, variant-name
/// lists, `{name: shape}` dicts, tuples and one-element lists.
pub fn decomposition_to_py<'py>(py: Python<'py>, d: &Decomposition) -> PyResult<Bound<'py, PyAny>> {
    Ok(match d {
        Decomposition::Name(n) => n.into_pyobject(py)?.into_any(),
        Decomposition::Names(ns) => ns.into_pyobject(py)?.into_any(),
        Decomposition::Variants(vs) => {
            let out = PyDict::new(py);
            for (n, v) in vs {
                match v {
                    Some(v) => out.set_item(n, decomposition_to_py(py, v)?)?,
                    None => out.set_item(n, py.None())?,
                }
            }
            out.into_any()
        }
        Decomposition::Fields(fs) => {
            let out = PyDict::new(py);
            for (n, v) in fs {
                out.set_item(n, decomposition_to_py(py, v)?)?;
            }
            out.into_any()
        }
        Decomposition::Tuple(items) => {
            let items = items
                .iter()
                .map(|i| decomposition_to_py(py, i))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, items)?.into_any()
        }
        Decomposition::Seq(inner) => PyList::new(py, [decomposition_to_py(py, inner)?])?.into_any(),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn sub_types_as_written() {
        assert_eq!(
            super::sub_type_text("Vec<Foo<A, B>>").as_deref(),
            Some("Foo<A, B>")
        );
        assert_eq!(super::sub_type_text("[u32; 4]").as_deref(), Some("u32"));
        assert_eq!(super::sub_type_text("u32"), None);
        assert_eq!(
            super::split_top("A, (B, C), D<E, F>"),
            ["A", "(B, C)", "D<E, F>"]
        );
    }
}
