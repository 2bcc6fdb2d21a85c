//! A value decoded but not yet turned into Python data.
//!
//! Runtime metadata is the one value whose Python form costs far more than
//! its decoding: the ~40,000 dicts, lists and strings of a 300 KB metadata
//! take about 4 ms to build (as long as `pickle.loads` of the same tree),
//! while the engine reads and checks the bytes in about 1 ms. Clients call
//! `metadata.decode()` as a statement and read parts of the value later, if
//! at all. So a class's `_decode_value` may return a [`DeferredValue`] (the
//! bytes are read and checked, the Python data is not built). On the first
//! read of the value or of its `value_object`, the bytes are decoded into
//! Rust data ([`crate::convert::tree`]): the value (`value`, `serialize`,
//! pickling …) is made from it whole, and each part of the `value_object`
//! holds its own node and makes its value when that is read, so a client
//! reading one pallet pays for that pallet. `decode()` builds the value at
//! once whenever its caller uses the result ([`result_discarded`]). Every
//! read sees the same value the eager decode gives.

use std::sync::{Arc, OnceLock};

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyBytes;

use crate::convert::tree::{DecodedTree, NodeRef};

/// Decodes bytes into the Rust data a [`DeferredValue`] keeps (the lock
/// released meanwhile).
pub(crate) type DecodeTree =
    Box<dyn Fn(&Bound<'_, PyBytes>) -> PyResult<Arc<DecodedTree>> + Send + Sync>;

/// A value decoded into Rust data, made into Python data when first read
/// (whole, or part by part through the object's `value_object`).
#[pyclass(frozen, module = "scalecodec._core", name = "DeferredValue")]
pub struct DeferredValue {
    how: How,
}

enum How {
    /// `decode(bytes)` into a tree, on the first read of the value or of a
    /// part of it (the object's `value_object`); the value and each part
    /// are made from that one tree ([`crate::convert::tree`]).
    Tree {
        decode: DecodeTree,
        bytes: Py<PyBytes>,
        tree: OnceLock<Arc<DecodedTree>>,
    },
    /// A node of a tree (a part of a value decoded as [`How::Tree`]).
    Node(NodeRef),
}

impl DeferredValue {
    /// A value decoded from `bytes` by `decode` when it or a part of it is
    /// first read, its parts made from the decoded tree one by one.
    pub(crate) fn tree(decode: DecodeTree, bytes: Py<PyBytes>) -> Self {
        DeferredValue {
            how: How::Tree {
                decode,
                bytes,
                tree: OnceLock::new(),
            },
        }
    }

    /// The value of `node`, made when first read.
    pub(crate) fn node(node: NodeRef) -> Self {
        DeferredValue {
            how: How::Node(node),
        }
    }

    /// The tree node the value is made from (decoding the tree now if it
    /// is not yet).
    pub(crate) fn tree_node(&self, py: Python<'_>) -> PyResult<NodeRef> {
        match &self.how {
            How::Node(node) => Ok(node.clone()),
            How::Tree {
                decode,
                bytes,
                tree,
            } => {
                if let Some(done) = tree.get() {
                    return Ok(NodeRef::root(Arc::clone(done)));
                }
                // two threads reading it first may both decode; the first
                // kept is the one every reader gets
                let decoded = decode(bytes.bind(py))?;
                let kept = tree.get_or_init(|| decoded);
                Ok(NodeRef::root(Arc::clone(kept)))
            }
        }
    }

    /// Whether a part of the value is still undecoded: the whole tree
    /// when it is not decoded yet, else its grafted part
    /// ([`crate::convert::tree::Graft`]).
    pub(crate) fn part_pending(&self) -> bool {
        match &self.how {
            How::Tree { tree, .. } => tree.get().is_none_or(|t| t.part_pending()),
            How::Node(node) => node.tree().part_pending(),
        }
    }

    /// Builds the value (an error leaves the value unbuilt, and the next
    /// read tries again and reports it again).
    pub(crate) fn build<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.tree_node(py)?.to_python(py)
    }
}

#[pymethods]
impl DeferredValue {
    fn __traverse__(&self, visit: pyo3::gc::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        match &self.how {
            How::Tree { bytes, .. } => visit.call(bytes),
            How::Node(_) => Ok(()),
        }
    }
}

/// The opcodes [`result_discarded`] reads, from the running interpreter's
/// `opcode` module (their numbers change between versions).
struct Opcodes {
    /// Which opcodes are calls (`CALL`, `CALL_METHOD`, `CALL_FUNCTION` …).
    call: [bool; 256],
    pop_top: u8,
    /// The inline cache slots after a call (CPython 3.11+; `None` before).
    cache: Option<u8>,
}

static OPCODES: PyOnceLock<Opcodes> = PyOnceLock::new();

impl Opcodes {
    fn read(py: Python<'_>) -> PyResult<Opcodes> {
        let module = py.import(intern!(py, "opcode"))?;
        let opmap = module.getattr("opmap")?;
        let mut call = [false; 256];
        for (number, name) in module.getattr("opname")?.try_iter()?.enumerate() {
            if number < 256 && name?.extract::<String>()?.starts_with("CALL") {
                call[number] = true;
            }
        }
        Ok(Opcodes {
            call,
            pop_top: opmap.get_item("POP_TOP")?.extract()?,
            cache: opmap
                .call_method1(intern!(py, "get"), ("CACHE",))?
                .extract()?,
        })
    }
}

/// Whether the Python code that called the running Rust method throws the
/// result away (`metadata.decode()` as a statement): the caller's next
/// instruction is a call, and the one after it (and the call's inline
/// caches) is `POP_TOP`.
///
/// Only an optimisation may rest on this: a result nobody holds cannot be
/// observed, so skipping its construction changes nothing a program can
/// see. Whenever the answer is not certain (another interpreter, an
/// unexpected frame, any error) it is `false`, and the value is built.
pub(crate) fn result_discarded(py: Python<'_>) -> bool {
    let read = || -> PyResult<bool> {
        let ops = OPCODES.get_or_try_init(py, || Opcodes::read(py))?;
        // The frame of the Python code running the call (a Rust method has
        // no frame of its own).
        let frame = py
            .import(intern!(py, "sys"))?
            .call_method1(intern!(py, "_getframe"), (0,))?;
        let last: usize = frame.getattr(intern!(py, "f_lasti"))?.extract()?;
        let code = frame
            .getattr(intern!(py, "f_code"))?
            .getattr(intern!(py, "co_code"))?;
        let code = code.cast::<PyBytes>()?.as_bytes();
        if !code.get(last).is_some_and(|&op| ops.call[op as usize]) {
            return Ok(false);
        }
        let mut next = last + 2;
        while ops.cache.is_some() && code.get(next).copied() == ops.cache {
            next += 2;
        }
        Ok(code.get(next) == Some(&ops.pop_top))
    };
    read().unwrap_or(false)
}
