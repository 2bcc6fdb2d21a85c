//! The lock around a registry's state.
//!
//! One runtime configuration is shared by every thread that decodes with
//! it. Under the GIL, PyO3's borrow flags never saw two threads at once; on
//! a free-threaded interpreter they do, and a second thread's borrow failed
//! with "Already mutably borrowed" instead of waiting its turn. A mutex
//! makes it wait. Waiting detaches from the interpreter, so a thread that
//! holds the lock and needs the interpreter (to build a value's Python
//! objects) is never blocked by one waiting for the lock.
//!
//! A thread that asks again for a lock it holds (a finalizer or a Python
//! callback run while it decodes) gets an error, as the borrow flag gave it,
//! instead of waiting for itself forever.

use std::cell::Cell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::PyRuntimeError;
use pyo3::sync::MutexExt;
use pyo3::{PyResult, Python};

/// A value behind a mutex that knows which thread holds it.
pub(crate) struct ThreadLock<T> {
    value: Mutex<T>,
    /// The holding thread's [`thread_token`], 0 when free.
    owner: AtomicU64,
}

/// The held lock: the value, and the lock released when dropped.
pub(crate) struct Held<'a, T> {
    guard: MutexGuard<'a, T>,
    owner: &'a AtomicU64,
}

impl<T> ThreadLock<T> {
    pub(crate) fn new(value: T) -> Self {
        ThreadLock {
            value: Mutex::new(value),
            owner: AtomicU64::new(0),
        }
    }

    /// Waits for the lock (detached from the interpreter meanwhile). An
    /// error when this thread holds it already.
    pub(crate) fn lock(&self, py: Python<'_>) -> PyResult<Held<'_, T>> {
        let me = thread_token();
        // Only this thread ever stores its own token, so seeing it here
        // means this thread holds the lock further up its stack.
        if self.owner.load(Ordering::Acquire) == me {
            return Err(PyRuntimeError::new_err(
                "the type registry is in use further up this thread's stack \
                 (a finalizer or callback used it while it was decoding)",
            ));
        }
        // A panic while the lock was held is caught before it reaches
        // Python (`crate::errors::guard`) and reported there; the state is
        // used as that call left it, as it was under PyO3's borrow flag.
        let guard = self
            .value
            .lock_py_attached(py)
            .unwrap_or_else(PoisonError::into_inner);
        self.owner.store(me, Ordering::Release);
        Ok(Held {
            guard,
            owner: &self.owner,
        })
    }
}

impl<T> Drop for Held<'_, T> {
    fn drop(&mut self) {
        // before `guard` unlocks (fields drop after this body)
        self.owner.store(0, Ordering::Release);
    }
}

impl<T> Deref for Held<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T> DerefMut for Held<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

/// A number for the calling thread, unique for the process and never 0.
fn thread_token() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        static TOKEN: Cell<u64> = const { Cell::new(0) };
    }
    TOKEN.with(|token| {
        if token.get() == 0 {
            token.set(NEXT.fetch_add(1, Ordering::Relaxed));
        }
        token.get()
    })
}
