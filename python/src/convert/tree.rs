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
//! A part may be left undecoded until first reached ([`Graft`]): the
//! metadata's type registry, four fifths of its bytes, which a client
//! reading a pallet or a storage function never needs.
//!
//! Each value made is kept by its node's path ([`Made`]), and the values
//! are made as one value's parts are: a node's value made after parts of
//! it holds the very objects made for those parts, and a part read after
//! a value holding it is taken from that value. So the objects are shared
//! as the whole value's parts are, and no part is made twice (a client
//! that walks the registry's types and then reads the whole metadata
//! would otherwise hold every type twice).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::prelude::*;

use crate::convert::detached::{build_with, to_python, Built, Key};
use crate::convert::sink::{NameCache, PySink};

/// A decoded value and the Python strings of its names.
pub struct DecodedTree {
    root: Built,
    /// A part decoded when first reached; `root` holds a stand-in there.
    graft: Option<Graft>,
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

/// How a [`Graft`]'s part is decoded.
pub type DecodePart = Box<dyn Fn(Python<'_>) -> PyResult<Built> + Send + Sync>;

/// A part of a tree decoded when first entered (by [`NodeRef::child`] of
/// its node, or by [`NodeRef::to_python`] of a node holding it), in place
/// of the stand-in its tree's root holds at `at`. The stand-in is the same
/// kind of node with the same keys (the metadata's registry with no
/// types), so the node itself answers what it is without the part being
/// decoded; every [`NodeRef`] below it is made by `child`, which decodes
/// the part first, so no read meets the stand-in's insides.
pub struct Graft {
    at: Box<[u32]>,
    decode: DecodePart,
    done: OnceLock<Built>,
}

impl Graft {
    /// The part at path `at`, made by `decode`.
    pub fn new(at: Vec<u32>, decode: DecodePart) -> Graft {
        Graft {
            at: at.into(),
            decode,
            done: OnceLock::new(),
        }
    }

    /// The part, decoded now if it is not yet (an error leaves it
    /// undecoded, and the next read tries again and reports it again).
    fn force(&self, py: Python<'_>) -> PyResult<&Built> {
        if let Some(done) = self.done.get() {
            return Ok(done);
        }
        let decoded = (self.decode)(py)?;
        Ok(self.done.get_or_init(|| decoded))
    }
}

impl DecodedTree {
    /// The tree of `root`, decoded with the registry whose names are
    /// `names`; `graft`, when given, is the part `root` holds a stand-in for.
    pub fn new(
        root: Built,
        graft: Option<Graft>,
        names: Arc<Mutex<NameCache>>,
    ) -> Arc<DecodedTree> {
        Arc::new(DecodedTree {
            root,
            graft,
            names,
            made: Mutex::default(),
        })
    }

    /// Whether the tree has a part not decoded yet.
    pub fn part_pending(&self) -> bool {
        self.graft.as_ref().is_some_and(|g| g.done.get().is_none())
    }

    /// The node at `path` (a step that does not exist leads to
    /// [`NOTHING`]; paths are made by [`NodeRef::child`] only).
    fn node_at(&self, path: &[u32]) -> &Built {
        let mut node = &self.root;
        for (depth, &step) in path.iter().enumerate() {
            node = children(node)
                .and_then(|c| c.get(step as usize))
                .unwrap_or(&NOTHING);
            node = self.grafted(&path[..=depth], node);
        }
        node
    }

    /// The grafted part when `path` is its place and it is decoded, else
    /// `node` (the node the root holds there).
    fn grafted<'a>(&'a self, path: &[u32], node: &'a Built) -> &'a Built {
        match &self.graft {
            Some(graft) if *graft.at == *path => graft.done.get().unwrap_or(node),
            _ => node,
        }
    }

    /// The graft at or below `path`, if any.
    fn graft_within(&self, path: &[u32]) -> Option<&Graft> {
        self.graft.as_ref().filter(|g| g.at.starts_with(path))
    }

    /// The graft strictly below `path`, if any.
    fn graft_below(&self, path: &[u32]) -> Option<&Graft> {
        self.graft
            .as_ref()
            .filter(|g| g.at.len() > path.len() && g.at.starts_with(path))
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

    /// The tree the node is in.
    pub fn tree(&self) -> &DecodedTree {
        &self.tree
    }

    /// The node's data.
    pub fn get(&self) -> &Built {
        self.tree.node_at(&self.path)
    }

    /// The child at `position` (an item of a list or tuple, the value of a
    /// dict's entry), `None` when there is none; a grafted part is decoded
    /// here when first entered.
    pub fn child(&self, py: Python<'_>, position: usize) -> PyResult<Option<NodeRef>> {
        if let Some(graft) = self.tree.graft.as_ref().filter(|g| *g.at == *self.path) {
            graft.force(py)?;
        }
        let count = children(self.get()).map_or(0, |c| c.len());
        let Some(step) = u32::try_from(position).ok().filter(|_| position < count) else {
            return Ok(None);
        };
        let mut path = Vec::with_capacity(self.path.len() + 1);
        path.extend_from_slice(&self.path);
        path.push(step);
        Ok(Some(NodeRef {
            tree: Arc::clone(&self.tree),
            path: path.into(),
        }))
    }

    /// The children of a list or tuple, `None` for another kind.
    pub fn items(&self, py: Python<'_>) -> PyResult<Option<Vec<NodeRef>>> {
        let count = match self.get() {
            Built::List(items) | Built::Tuple(items) => items.len(),
            _ => return Ok(None),
        };
        let mut all = Vec::with_capacity(count);
        for i in 0..count {
            all.extend(self.child(py, i)?);
        }
        Ok(Some(all))
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
    pub fn field(&self, py: Python<'_>, name: &str) -> PyResult<Option<NodeRef>> {
        let Built::Dict(entries) = self.get() else {
            return Ok(None);
        };
        match entries.iter().position(|(k, _)| k.text() == name) {
            Some(at) => self.child(py, at),
            None => Ok(None),
        }
    }

    /// A dict's entries' names, in order; `None` when the node is no dict.
    pub fn keys(&self) -> Option<Vec<&str>> {
        match self.get() {
            Built::Dict(entries) => Some(entries.iter().map(|(k, _)| k.text()).collect()),
            _ => None,
        }
    }

    /// The Python object of the node, made as the whole value's part is:
    /// the object made before for this node, else the one inside a value
    /// made before for a node holding it, else a new one holding the
    /// objects made before for its parts (see the module documentation).
    pub fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(graft) = self.tree.graft_within(&self.path) {
            graft.force(py)?;
        }
        // a part's value is containers without cycles, as a decode's is
        let _gc = crate::convert::sink::GcPause::for_input(py, usize::MAX);
        let mut path = self.path.to_vec();
        let (Ok(mut made), Ok(mut names)) = (self.tree.made.try_lock(), self.tree.names.try_lock())
        else {
            // in use further up this thread's stack (a finalizer making
            // another part) or by another thread: a value of its own
            let mut sink = PySink {
                py,
                names: &mut NameCache::default(),
            };
            let nothing_made = Made::default();
            return Ok(build_reusing(
                &mut sink,
                &self.tree,
                self.get(),
                &mut path,
                &nothing_made,
            ));
        };
        if let Some(value) = made.values.get(&*self.path) {
            return Ok(value.bind(py).clone());
        }
        for depth in (0..self.path.len()).rev() {
            if let Some(holder) = made.values.get(&self.path[..depth]) {
                if let Some(value) = self.inside(holder.bind(py).clone(), depth) {
                    return Ok(value);
                }
                break;
            }
        }
        let mut sink = PySink {
            py,
            names: &mut names,
        };
        let value = build_reusing(&mut sink, &self.tree, self.get(), &mut path, &made);
        for depth in 0..self.path.len() {
            made.holding.insert(self.path[..depth].into());
        }
        made.values
            .insert(Box::from(&*self.path), value.clone().unbind());
        Ok(value)
    }

    /// The node's object inside `holder`, the object of the node at
    /// `depth` of its path.
    fn inside<'py>(&self, holder: Bound<'py, PyAny>, depth: usize) -> Option<Bound<'py, PyAny>> {
        let mut node = self.tree.node_at(&self.path[..depth]);
        let mut value = holder;
        for (at, &step) in self.path.iter().enumerate().skip(depth) {
            let step = step as usize;
            match node {
                Built::List(items) | Built::Tuple(items) => {
                    value = value.get_item(step).ok()?;
                    node = items.get(step)?;
                }
                Built::Dict(entries) => {
                    let (key, child) = entries.get(step)?;
                    value = value.get_item(key.text()).ok()?;
                    node = child;
                }
                _ => return None,
            }
            node = self.tree.grafted(&self.path[..=at], node);
        }
        Some(value)
    }
}

/// The Python object of `node` at `path` of `tree`, holding the objects
/// `made` before for its parts and the grafted part (decoded before).
fn build_reusing<'py>(
    sink: &mut PySink<'py, '_>,
    tree: &DecodedTree,
    node: &Built,
    path: &mut Vec<u32>,
    made: &Made,
) -> Bound<'py, PyAny> {
    if let Some(value) = made.values.get(path.as_slice()) {
        return value.bind(sink.py).clone();
    }
    if !made.holding.contains(path.as_slice()) && tree.graft_below(path).is_none() {
        return to_python(sink.py, sink.names, node);
    }
    build_with(sink, node, &mut |sink, part, position| {
        // positions are u32: the decoder's lengths are
        path.push(position as u32);
        let part = tree.grafted(path, part);
        let value = build_reusing(sink, tree, part, path, made);
        path.pop();
        value
    })
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
