//! A Python object a configuration holds and may replace while other
//! threads read it (`_registry`, `_classes`).
//!
//! A field of a `#[pyclass]` set through `&mut self` is guarded by PyO3's
//! borrow flag: on a free-threaded interpreter, replacing the registry
//! (`init_runtime`) while another thread decodes failed with "Already
//! borrowed". Behind its own short lock, readers take a reference and go on
//! with it, and a writer swaps it.

use std::sync::{Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::PyVisit;

/// An optional `Py<T>`, replaceable through a shared reference.
pub(crate) struct Slot<T>(Mutex<Option<Py<T>>>);

impl<T> Slot<T> {
    pub(crate) fn empty() -> Self {
        Slot(Mutex::new(None))
    }

    /// The object now held. The lock is held only to copy the reference,
    /// with no Python code run meanwhile, so waiting for it never blocks
    /// the interpreter for long.
    pub(crate) fn get<'py>(&self, py: Python<'py>) -> Option<Bound<'py, T>> {
        let held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        held.as_ref().map(|v| v.bind(py).clone())
    }

    /// Holds `value` from now on; the one replaced is released after the
    /// lock (its finalizer may run Python code).
    pub(crate) fn set(&self, value: Option<Py<T>>) {
        let old = std::mem::replace(
            &mut *self.0.lock().unwrap_or_else(PoisonError::into_inner),
            value,
        );
        drop(old);
    }

    /// For the garbage collector's `__traverse__`: a slot being replaced
    /// at this moment is skipped rather than waited for.
    pub(crate) fn visit(&self, visit: &PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        match self.0.try_lock() {
            Ok(held) => visit.call(&*held),
            Err(_) => Ok(()),
        }
    }
}
