//! A scale object's value and what is built from it on first read
//! (`value` from a deferred decode, `value_object`), behind a short lock of
//! their own.
//!
//! Threads read one object at once (a client's metadata). Reading builds
//! these caches, and storing them through `&mut self` needed PyO3's
//! exclusive borrow, which on a free-threaded interpreter collided with
//! another reader's shared one. Here a reader stores through a shared
//! borrow. No Python code runs while the lock is held: values replaced are
//! dropped after it is released, since a finalizer may run then.

use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::PyTraverseError;

use super::deferred::DeferredValue;
use super::{opt, ScaleObject};

/// The three caches; at most one of `value` and `deferred` is set.
#[derive(Default)]
struct Values {
    value: Option<Py<PyAny>>,
    /// A decoded value not built as Python data yet.
    deferred: Option<Py<DeferredValue>>,
    /// `None`: not built yet (`_UNSET` in Python).
    value_object: Option<Py<PyAny>>,
}

/// What a reader finds: the value, or the deferred value to build it from.
enum Found {
    Value(Option<Py<PyAny>>),
    Deferred(Py<DeferredValue>),
}

/// The lock around [`Values`].
#[derive(Default)]
pub(crate) struct ValueCell(Mutex<Values>);

impl ValueCell {
    fn held(&self) -> MutexGuard<'_, Values> {
        // a panic while held is caught and reported (`crate::errors::guard`);
        // every change here is one assignment, so the state is whole
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The value, or the deferred value it is still to be built from.
    fn find(&self, py: Python<'_>) -> Found {
        let v = self.held();
        match (&v.value, &v.deferred) {
            (None, Some(d)) => Found::Deferred(d.clone_ref(py)),
            (value, _) => Found::Value(value.as_ref().map(|v| v.clone_ref(py))),
        }
    }

    /// Keeps `built` as the value unless another thread kept one first;
    /// returns the value kept.
    pub(crate) fn keep_built(&self, py: Python<'_>, built: Py<PyAny>) -> Option<Py<PyAny>> {
        let mut v = self.held();
        let dropped = if v.value.is_none() && v.deferred.is_some() {
            v.value = Some(built);
            v.deferred.take().map(Py::into_any)
        } else {
            Some(built)
        };
        let kept = v.value.as_ref().map(|v| v.clone_ref(py));
        drop(v);
        drop(dropped);
        kept
    }

    /// The value (`None` while deferred).
    pub(crate) fn value(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.held().value.as_ref().map(|v| v.clone_ref(py))
    }

    /// The value, or the deferred value it is still to be built from.
    pub(crate) fn value_or_deferred(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        match self.find(py) {
            Found::Value(value) => value,
            Found::Deferred(d) => Some(d.into_any()),
        }
    }

    /// Whether the value is decoded but not built yet.
    pub(crate) fn is_deferred(&self) -> bool {
        self.held().deferred.is_some()
    }

    /// The built `value_object`, if any.
    pub(crate) fn value_object(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.held().value_object.as_ref().map(|v| v.clone_ref(py))
    }

    /// Keeps `built` as the `value_object` unless another thread kept one
    /// first; returns the one kept.
    pub(crate) fn keep_value_object(&self, py: Python<'_>, built: Py<PyAny>) -> Py<PyAny> {
        let mut v = self.held();
        let (kept, dropped) = match &v.value_object {
            Some(first) => (first.clone_ref(py), Some(built)),
            None => {
                v.value_object = Some(built.clone_ref(py));
                (built, None)
            }
        };
        drop(v);
        drop(dropped);
        kept
    }

    /// Replaces the `value_object` (`None`: not built).
    pub(crate) fn set_value_object(&self, value_object: Option<Py<PyAny>>) {
        let old = std::mem::replace(&mut self.held().value_object, value_object);
        drop(old);
    }

    /// A new value (`deferred`: to be built on first read); the
    /// `value_object` built from the old one goes.
    pub(crate) fn set(&self, value: Option<Py<PyAny>>, deferred: Option<Py<DeferredValue>>) {
        let old = std::mem::replace(
            &mut *self.held(),
            Values {
                value,
                deferred,
                value_object: None,
            },
        );
        drop(old);
    }

    /// A new value, keeping the `value_object` (py-scale-codec's `_value`
    /// setter).
    pub(crate) fn set_value_only(&self, value: Option<Py<PyAny>>) {
        let mut v = self.held();
        let old = (std::mem::replace(&mut v.value, value), v.deferred.take());
        drop(v);
        drop(old);
    }

    /// For the garbage collector: a cell being changed at this moment is
    /// skipped rather than waited for.
    pub(crate) fn visit(&self, visit: &PyVisit<'_>) -> Result<(), PyTraverseError> {
        let Ok(v) = self.0.try_lock() else {
            return Ok(());
        };
        visit.call(&v.value)?;
        visit.call(&v.deferred)?;
        visit.call(&v.value_object)
    }
}

impl ScaleObject {
    /// The tree node a deferred value is made from (see [`DeferredValue`]),
    /// `None` when the value is built.
    pub(crate) fn deferred_node(
        slf: &Bound<'_, Self>,
    ) -> PyResult<Option<crate::convert::tree::NodeRef>> {
        let py = slf.py();
        match slf.try_borrow()?.values.find(py) {
            Found::Deferred(d) => d.get().tree_node(py).map(Some),
            Found::Value(_) => Ok(None),
        }
    }

    /// Whether part of a deferred value is still undecoded (false once
    /// the value is built; see [`DeferredValue::part_pending`]).
    pub(crate) fn part_pending(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(match slf.try_borrow()?.values.find(slf.py()) {
            Found::Deferred(d) => d.get().part_pending(),
            Found::Value(_) => false,
        })
    }

    /// The value, built now if it was deferred. Two threads reading a
    /// deferred value at once may both build it; the first kept is the one
    /// every reader gets.
    pub(crate) fn value_now<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let deferred = match slf.try_borrow()?.values.find(py) {
            Found::Deferred(d) => d,
            Found::Value(value) => return Ok(opt(py, &value).into_bound(py)),
        };
        let built = deferred.get().build(py)?;
        let kept = slf.try_borrow()?.values.keep_built(py, built.unbind());
        Ok(opt(py, &kept).into_bound(py))
    }
}
