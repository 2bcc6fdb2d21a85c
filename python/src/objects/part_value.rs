//! The value a typed part holds ([`Val`]): Python data, or a node of a
//! decoded tree whose Python data is made when the part's value is first
//! read ([`crate::convert::tree`]). [`crate::objects::typed_parts`] asks
//! it what a part's `value_object` needs (is it a dict, its entry `name`,
//! its items …) and gets the answers the Python data would give, so that
//! a part's parts are made without making its value.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert::detached::Built;
use crate::convert::tree::{NodeRef, TreeNode};
use crate::objects::object::DeferredValue;

/// A part's value: Python data, or a node of a decoded tree whose Python
/// data is made when the part's value is first read
/// ([`crate::convert::tree`]). Each question asked of it has the answer
/// the Python data would give.
#[derive(Clone)]
pub(crate) enum Val<'py> {
    Py(Bound<'py, PyAny>),
    Node(NodeRef),
}

impl<'py> Val<'py> {
    /// `value`, or the node it carries (a [`TreeNode`]).
    pub(crate) fn of(value: &Bound<'py, PyAny>) -> Val<'py> {
        match value.cast::<TreeNode>() {
            Ok(node) => Val::Node(node.get().0.clone()),
            Err(_) => Val::Py(value.clone()),
        }
    }

    /// The Python data (made now for a node).
    pub(crate) fn python(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Val::Py(v) => Ok(v.clone()),
            Val::Node(n) => n.to_python(py),
        }
    }

    pub(crate) fn none(py: Python<'py>) -> Val<'py> {
        Val::Py(py.None().into_bound(py))
    }

    pub(crate) fn is_none(&self) -> bool {
        match self {
            Val::Py(v) => v.is_none(),
            Val::Node(n) => matches!(n.get(), Built::Null),
        }
    }

    pub(crate) fn is_dict(&self) -> bool {
        match self {
            Val::Py(v) => v.is_instance_of::<PyDict>(),
            Val::Node(n) => matches!(n.get(), Built::Dict(_)),
        }
    }

    pub(crate) fn is_str(&self) -> bool {
        match self {
            Val::Py(v) => v.is_instance_of::<PyString>(),
            Val::Node(n) => matches!(
                n.get(),
                Built::Text(_) | Built::Name(_) | Built::Hex(_) | Built::Account(..)
            ),
        }
    }

    pub(crate) fn is_int(&self) -> bool {
        match self {
            Val::Py(v) => v.is_instance_of::<pyo3::types::PyInt>(),
            Val::Node(n) => matches!(
                n.get(),
                Built::Bool(_) | Built::UInt(_) | Built::Int(_) | Built::Wide(..)
            ),
        }
    }

    /// A dict's entry `name` (`None` when it has none); call on a dict only.
    pub(crate) fn field(&self, name: &Bound<'py, PyAny>) -> PyResult<Val<'py>> {
        let py = name.py();
        Ok(match self {
            Val::Py(v) => match v.cast::<PyDict>()?.get_item(name)? {
                Some(field) => Val::Py(field),
                None => Val::none(py),
            },
            Val::Node(n) => match name.extract::<&str>() {
                Ok(key) => match n.field(py, key)? {
                    Some(field) => Val::Node(field),
                    None => Val::none(py),
                },
                Err(_) => Val::none(py),
            },
        })
    }

    /// The items iterating the value gives.
    pub(crate) fn items(&self, py: Python<'py>) -> PyResult<Vec<Val<'py>>> {
        if let Val::Node(n) = self {
            if let Some(items) = n.items(py)? {
                return Ok(items.into_iter().map(Val::Node).collect());
            }
        }
        self.python(py)?
            .try_iter()?
            .map(|v| v.map(Val::Py))
            .collect()
    }

    pub(crate) fn is_truthy(&self, py: Python<'py>) -> PyResult<bool> {
        match self {
            Val::Node(n) => match n.get() {
                Built::Null => Ok(false),
                Built::List(items) | Built::Tuple(items) => Ok(!items.is_empty()),
                Built::Dict(entries) => Ok(!entries.is_empty()),
                _ => self.python(py)?.is_truthy(),
            },
            Val::Py(v) => v.is_truthy(),
        }
    }

    /// A one-entry dict's name and value (an enum's variant with data).
    pub(crate) fn single_entry(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(Bound<'py, PyAny>, Val<'py>)>> {
        match self {
            Val::Py(v) => match v.cast::<PyDict>() {
                Ok(d) if d.len() == 1 => Ok(d.iter().next().map(|(k, v)| (k, Val::Py(v)))),
                _ => Ok(None),
            },
            Val::Node(n) => match (n.keys(), n.child(py, 0)?) {
                (Some(keys), Some(value)) if keys.len() == 1 => Ok(Some((
                    PyString::new(py, keys[0]).into_any(),
                    Val::Node(value),
                ))),
                _ => Ok(None),
            },
        }
    }

    /// The variant name an enum's value gives (a unit variant's name, or
    /// the one key of `{name: value}`), when it is text.
    pub(crate) fn variant_name(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        let name = match self.single_entry(py)? {
            Some((name, _)) => name,
            None if self.is_str() => self.python(py)?,
            None => return Ok(None),
        };
        Ok(name.cast_into::<PyString>().ok())
    }

    /// How many items (`len()`).
    pub(crate) fn len(&self, py: Python<'py>) -> PyResult<usize> {
        match self {
            Val::Node(n) => match n.get() {
                Built::List(items) | Built::Tuple(items) => Ok(items.len()),
                Built::Dict(entries) => Ok(entries.len()),
                _ => self.python(py)?.len(),
            },
            Val::Py(v) => v.len(),
        }
    }

    /// Item `i` of a list or tuple.
    pub(crate) fn item(&self, py: Python<'py>, i: usize) -> PyResult<Val<'py>> {
        if let Val::Node(n) = self {
            if n.items_len().is_some() {
                if let Some(child) = n.child(py, i)? {
                    return Ok(Val::Node(child));
                }
            }
        }
        self.python(py)?.get_item(i).map(Val::Py)
    }

    /// The value as a Python object that carries it: the Python data, or
    /// the node as a [`TreeNode`] (what [`typed_part`](crate::objects::typed_parts::typed_part) takes).
    pub(crate) fn into_bound(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Val::Py(v) => Ok(v),
            Val::Node(n) => Ok(Bound::new(py, TreeNode(n))?.into_any()),
        }
    }

    /// The value a part holds: the Python data, or a deferred value made
    /// from the node when first read.
    pub(crate) fn into_part_value(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Val::Py(v) => Ok(v),
            Val::Node(n) => Ok(Bound::new(py, DeferredValue::node(n))?.into_any()),
        }
    }
}
