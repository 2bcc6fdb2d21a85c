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
//!
//! Each value made is kept by its node's path ([`Made`]), and the values
//! are made as one value's parts are: a node's value made after parts of
//! it holds the very objects made for those parts, and a part read after
//! a value holding it is taken from that value. So the objects are shared
//! as the whole value's parts are, and no part is made twice (a client
//! that walks the registry's types and then reads the whole metadata
//! would otherwise hold every type twice).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

use crate::convert::detached::{build_with, to_python, Built, Key};
use crate::convert::sink::{NameCache, PySink};

/// A decoded value and the Python strings of its names.
pub struct DecodedTree {
    root: Built,
    /// The names of the registry the value was decoded with: shared by
    /// every tree of that registry, as a decode's are by every value (made
    /// anew for each tree, they took a fifth of a whole metadata value).
    names: Arc<Mutex<NameCache>>,
    made: Mutex<Made>,
}

/// The values made from a tree so far.
#[derive(Default)]
struct Made {
    /// Each value made, by its node's path.
    values: HashMap<Box<[u32]>, Py<PyAny>>,
    /// Every proper prefix of those paths: the nodes whose values, when
    /// made, hold values made before.
    holding: HashSet<Box<[u32]>>,
}

impl DecodedTree {
    /// The tree of `root`, decoded with the registry whose names are `names`.
    pub fn new(root: Built, names: Arc<Mutex<NameCache>>) -> Arc<DecodedTree> {
        Arc::new(DecodedTree {
            root,
            names,
            made: Mutex::default(),
        })
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
        node_at(&self.tree.root, &self.path)
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

    /// The Python object of the node, made as the whole value's part is:
    /// the object made before for this node, else the one inside a value
    /// made before for a node holding it, else a new one holding the
    /// objects made before for its parts (see the module documentation).
    pub fn to_python<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        // a part's value is containers without cycles, as a decode's is
        let _gc = crate::convert::sink::GcPause::for_input(py, usize::MAX);
        let (Ok(mut made), Ok(mut names)) = (self.tree.made.try_lock(), self.tree.names.try_lock())
        else {
            // in use further up this thread's stack (a finalizer making
            // another part) or by another thread: a value of its own
            return to_python(py, &mut NameCache::default(), self.get());
        };
        if let Some(value) = made.values.get(&*self.path) {
            return value.bind(py).clone();
        }
        for depth in (0..self.path.len()).rev() {
            if let Some(holder) = made.values.get(&self.path[..depth]) {
                if let Some(value) = self.inside(holder.bind(py).clone(), depth) {
                    return value;
                }
                break;
            }
        }
        let mut sink = PySink {
            py,
            names: &mut names,
        };
        let mut path = self.path.to_vec();
        let value = build_reusing(&mut sink, self.get(), &mut path, &made);
        for depth in 0..self.path.len() {
            made.holding.insert(self.path[..depth].into());
        }
        made.values
            .insert(Box::from(&*self.path), value.clone().unbind());
        value
    }

    /// The node's object inside `holder`, the object of the node at
    /// `depth` of its path.
    fn inside<'py>(&self, holder: Bound<'py, PyAny>, depth: usize) -> Option<Bound<'py, PyAny>> {
        let mut node = node_at(&self.tree.root, &self.path[..depth]);
        let mut value = holder;
        for &step in &self.path[depth..] {
            let step = step as usize;
            match node {
                Built::List(items) | Built::Tuple(items) => {
                    value = value.get_item(step).ok()?;
                    node = items.get(step)?;
                }
                Built::Dict(entries) => {
                    let (key, child) = entries.get(step)?;
                    value = value.get_item(key_text(key)).ok()?;
                    node = child;
                }
                _ => return None,
            }
        }
        Some(value)
    }
}

/// The Python object of `node` at `path`, holding the objects `made`
/// before for its parts.
fn build_reusing<'py>(
    sink: &mut PySink<'py, '_>,
    node: &Built,
    path: &mut Vec<u32>,
    made: &Made,
) -> Bound<'py, PyAny> {
    if let Some(value) = made.values.get(path.as_slice()) {
        return value.bind(sink.py).clone();
    }
    if !made.holding.contains(path.as_slice()) {
        return to_python(sink.py, sink.names, node);
    }
    build_with(sink, node, &mut |sink, part, position| {
        // positions are u32: the decoder's lengths are
        path.push(position as u32);
        let value = build_reusing(sink, part, path, made);
        path.pop();
        value
    })
}

/// The node at `path` under `root` (a step that does not exist leads to
/// [`NOTHING`]; paths are made by [`NodeRef::child`] only).
fn node_at<'a>(root: &'a Built, path: &[u32]) -> &'a Built {
    let mut node = root;
    for &step in path {
        node = children(node)
            .and_then(|c| c.get(step as usize))
            .unwrap_or(&NOTHING);
    }
    node
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
