//! A counting global allocator for the hardening tests: it tracks, per
//! thread, the bytes live and the peak since [`measure`] started, so a test
//! can check that a hostile input was refused without allocating what its
//! length prefixes claim. Per thread, so tests running in parallel in the
//! same binary do not see each other's allocations.
//!
//! Included by path from `core/tests/hardening_*.rs` and
//! `dynamic/tests/hardening_*.rs`; each including test binary installs it as
//! its `#[global_allocator]`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counting allocator (delegates to the system allocator).
pub(crate) struct PeakAlloc;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn add(n: usize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add(n);
        live.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

fn sub(n: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(n)));
}

// SAFETY: every call is forwarded unchanged to `System`; the bookkeeping
// touches only const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for PeakAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            add(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            add(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        sub(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            sub(layout.size());
            add(new_size);
        }
        p
    }
}

/// Runs `f` and returns its result with the peak number of bytes this thread
/// had allocated at once during the call, above what was live before it.
pub(crate) fn measure<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let r = f();
    let peak = PEAK.with(Cell::get).saturating_sub(start);
    (r, peak)
}

/// One mebibyte.
pub(crate) const MIB: usize = 1 << 20;
