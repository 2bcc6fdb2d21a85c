//! A decoded value kept as Rust data ([`Built`]) and made into Python
//! objects part by part ([`NodeRef`]).
//!
//! Runtime metadata is read far more often in parts than whole: a client
//! asks for the extrinsic's signed extensions, one pallet, one registry
//! entry. Its whole Python value is ~40,000 objects (about 4 ms for a
//! 300 KB metadata), while the decode into Rust data is about 1 ms. So the
//! tree is decoded once, each part of it (a typed part of the metadata
//! object, see `crate::objects::typed_parts`) holds a [`NodeRef`] into it,
//! and a part's Python value is made from its node when first read.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

use crate::convert::detached::{to_python, Built, Key};
use crate::convert::sink::NameCache;

/// A decoded value and the Python strings of its names.
pub struct DecodedTree {
    root: Built,
    /// The names of the registry the value was decoded with: shared by
    /// every tree of that registry, as a decode's are by every value (made
    /// anew for each tree, they took a fifth of a whole metadata value).
    names: Arc<Mutex<NameCache>>,
}

impl DecodedTree {
    /// The tree of `root`, decoded with the registry whose names are `names`.
    pub fn new(root: Built, names: Arc<Mutex<NameCache>>) -> Arc<DecodedTree> {
        Arc::new(DecodedTree { root, names })
    }
}

/// A node of a [`DecodedTree`]: the path of child positions from its root
/// (paths are made by [`NodeRef::child`] only, so each step exists).
#[derive(Clone)]
pub struct NodeRef {
    tree: Arc<DecodedTree>,
    path: Arc<[u32]>,
}

/// What a step of a path that does not exist leads to (never met: see
/// [`NodeRef`]).
static NOTHING: Built = Built::Null;

impl NodeRef {
    /// The root of `tree`.
    pub fn root(tree: Arc<DecodedTree>) -> NodeRef {
        NodeRef {
            tree,
            path: Arc::from([]),
        }
    }

    /// The node's data.
    pub fn get(&self) -> &Built {
        let mut node = &self.tree.root;
        for &step in self.path.iter() {
            node = children(node)
                .and_then(|c| c.get(step as usize))
                .unwrap_or(&NOTHING);
        }
        node
    }

    /// The child at `position` (an item of a list or tuple, the value of a
    /// dict's entry), `None` when there is none.
    pub fn child(&self, position: usize) -> Option<NodeRef> {
        let count = children(self.get()).map_or(0, |c| c.len());
        if position >= count {
            return None;
        }
        let mut path = Vec::with_capacity(self.path.len() + 1);
        path.extend_from_slice(&self.path);
        path.push(u32::try_from(position).ok()?);
        Some(NodeRef {
            tree: Arc::clone(&self.tree),
            path: path.into(),
        })
    }

    /// The children of a list or tuple, `None` for another kind.
    pub fn items(&self) -> Option<Vec<NodeRef>> {
        match self.get() {
            Built::List(items) | Built::Tuple(items) => {
                Some((0..items.len()).filter_map(|i| self.child(i)).collect())
            }
            _ => None,
        }
    }

    /// How many items a list or tuple has, `None` for another kind.
    pub fn items_len(&self) -> Option<usize> {
        match self.get() {
            Built::List(items) | Built::Tuple(items) => Some(items.len()),
            _ => None,
        }
    }

    /// The value of a dict's entry `name`; `None` when the node is no dict
    /// or has no such entry.
    pub fn field(&self, name: &str) -> Option<NodeRef> {
        let Built::Dict(entries) = self.get() else {
            return None;
        };
        let at = entries.iter().position(|(k, _)| key_text(k) == name)?;
        self.child(at)
    }

    /// A dict's entries' names, in order; `None` when the node is no dict.
    pub fn keys(&self) -> Option<Vec<&str>> {
        match self.get() {
            Built::Dict(entries) => Some(entries.iter().map(|(k, _)| key_text(k)).collect()),
            _ => None,
        }
    }

    /// The Python object of the node, made as the whole value's part would
    /// be (equal to it, not the same object).
    pub fn to_python<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        // a part's value is containers without cycles, as a decode's is
        let _gc = crate::convert::sink::GcPause::for_input(py, usize::MAX);
        match self.tree.names.try_lock() {
            Ok(mut names) => to_python(py, &mut names, self.get()),
            // in use further up this thread's stack (a finalizer building
            // another part), or by another thread: the names are interned
            // again for this value
            Err(_) => to_python(py, &mut NameCache::default(), self.get()),
        }
    }
}

/// A dict key's text.
fn key_text(key: &Key) -> &str {
    match key {
        Key::Name(n) => n,
        Key::Text(t) => t,
    }
}

/// The children of a container node by position (a dict's values).
fn children(node: &Built) -> Option<ChildList<'_>> {
    match node {
        Built::List(items) | Built::Tuple(items) => Some(ChildList::Items(items)),
        Built::Dict(entries) => Some(ChildList::Entries(entries)),
        _ => None,
    }
}

/// [`children`]'s answer.
enum ChildList<'a> {
    Items(&'a [Built]),
    Entries(&'a [(Key, Built)]),
}

impl<'a> ChildList<'a> {
    fn get(&self, i: usize) -> Option<&'a Built> {
        match self {
            ChildList::Items(items) => items.get(i),
            ChildList::Entries(entries) => entries.get(i).map(|(_, v)| v),
        }
    }

    fn len(&self) -> usize {
        match self {
            ChildList::Items(items) => items.len(),
            ChildList::Entries(entries) => entries.len(),
        }
    }
}

/// A [`NodeRef`] as a Python object, so that it travels where a value does
/// (a scale object's `_build_value_object(value)`): internal to the
/// module, never returned to a user.
#[pyclass(frozen, module = "scalecodec._core", name = "TreeNode")]
pub struct TreeNode(pub NodeRef);
