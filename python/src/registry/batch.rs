//! `batch_decode`: many items of a few types decoded in one call, their
//! bytes taken and types looked up first, then decoded in order straight
//! into Python objects or, for a large batch, with the interpreter lock
//! released; account ids rendered in groups.

use ferroscale_dynamic::TypeIdx;
use ferroscale_dynamic::{account_layout, AccountLayout, PendingAccounts};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString};

use std::sync::Arc;

use crate::convert::detached::{detached, DETACH_MIN};
use crate::convert::sink::{GcPause, NameCache, PySink};
use crate::errors::{guard, to_py};

use super::{PyRegistry, RegistryState};

/// The bytes of a `batch_decode` item that is not `bytes`: what py-scale-codec's
/// `ScaleBytes` accepts — `bytearray` (copied: Python code run while the sink
/// builds objects, e.g. a finalizer, could resize it), `"0x…"` hex text, or a
/// `ScaleBytes` (its whole buffer).
pub(super) fn batch_input_bytes(item: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = item.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = item.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    if let Ok(sb) = item.cast::<crate::convert::scale_bytes::PyScaleBytes>() {
        let data = sb.get().buffer().clone_ref(item.py());
        return batch_input_bytes(data.bind(item.py()));
    }
    if let Ok(s) = item.cast::<PyString>() {
        let text = s.to_str()?;
        if let Some(hex) = text.strip_prefix("0x") {
            return ferroscale_core::hex::decode(hex)
                .map_err(|e| PyValueError::new_err(format!("batch_decode: {e}")));
        }
        return Err(PyValueError::new_err(
            "Provided data is not in supported format: provided 'str'",
        ));
    }
    Err(PyTypeError::new_err(format!(
        "expected bytes, hex str or ScaleBytes, not {}",
        item.get_type().name()?
    )))
}

/// The error of a group of accounts that could not be rendered.
pub(super) fn unrendered(e: ferroscale_core::error::Error) -> PyErr {
    PyValueError::new_err(format!("batch_decode: {e}"))
}

/// A list as is; any other iterable collected into one.
pub(super) fn as_list<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    match items.cast::<PyList>() {
        Ok(list) => Ok(list.clone()),
        Err(_) => PyList::new(py, items.try_iter()?.collect::<PyResult<Vec<_>>>()?),
    }
}

/// The text of a `batch_decode` type string, or a `TypeError` naming what it was.
pub(super) fn type_string_text<'a>(t: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    let text = t.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "type string must be a str, not {}",
            crate::convert::type_name(t)
        ))
    })?;
    text.to_str()
}

/// The type strings of one batch already resolved. Batches repeat a handful
/// of type strings, usually the very same `str` objects, so a short list
/// compared by identity (then by text) beats hashing every item's text.
#[derive(Default)]
pub(super) struct TypeStringCache<'py> {
    /// Held (not just their pointers), so an entry's object cannot be freed
    /// and its address reused by another string during the batch.
    seen: Vec<(Bound<'py, PyAny>, TypeIdx)>,
}

impl<'py> TypeStringCache<'py> {
    /// Entries kept; past this, further strings are resolved by the
    /// registry's own cache.
    const CAPACITY: usize = 16;

    fn find(&self, t: &Bound<'py, PyAny>) -> Option<TypeIdx> {
        if let Some((_, ty)) = self.seen.iter().find(|(s, _)| s.is(t)) {
            return Some(*ty);
        }
        let text = t.cast::<PyString>().ok()?.to_str().ok()?;
        self.seen
            .iter()
            .find(|(s, _)| s.cast::<PyString>().ok().and_then(|s| s.to_str().ok()) == Some(text))
            .map(|(_, ty)| *ty)
    }

    fn remember(&mut self, t: Bound<'py, PyAny>, ty: TypeIdx) {
        if self.seen.len() < Self::CAPACITY {
            self.seen.push((t, ty));
        }
    }
}

/// A list of known length filled in place (no intermediate `Vec`).
pub(super) struct ListBuilder<'py> {
    list: Bound<'py, PyList>,
}

impl<'py> ListBuilder<'py> {
    fn new(py: Python<'py>, len: usize) -> PyResult<Self> {
        let len = pyo3::ffi::Py_ssize_t::try_from(len)
            .map_err(|_| PyValueError::new_err("batch_decode: too many items"))?;
        // SAFETY: PyList_New returns a new reference (or NULL with an
        // exception set, which `from_owned_ptr_or_err` turns into an error).
        // Its slots start NULL, which the list's deallocator accepts, so an
        // early return leaves nothing dangling.
        let list = unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyList_New(len))? };
        Ok(Self {
            list: list.cast_into::<PyList>()?,
        })
    }

    /// Stores `value` in slot `i` (each slot is set once, `i` < the length;
    /// slots may be filled in any order).
    fn set(&self, i: usize, value: Bound<'py, PyAny>) {
        debug_assert!(i < self.list.len());
        // SAFETY: the list is fresh and not yet shared with Python code, `i`
        // is below its length, and the slot is still NULL; SET_ITEM steals
        // the reference `into_ptr` hands over.
        #[cfg(not(feature = "abi3"))]
        unsafe {
            pyo3::ffi::PyList_SET_ITEM(
                self.list.as_ptr(),
                i as pyo3::ffi::Py_ssize_t,
                value.into_ptr(),
            );
        }
        // The stable ABI has no SET_ITEM macro; SetItem (bounds-checked,
        // steals the reference also on failure) cannot fail here: `i` is
        // below the length and the list is a list.
        // SAFETY: as above.
        #[cfg(feature = "abi3")]
        unsafe {
            pyo3::ffi::PyList_SetItem(
                self.list.as_ptr(),
                i as pyo3::ffi::Py_ssize_t,
                value.into_ptr(),
            );
        }
    }

    fn finish(self) -> Bound<'py, PyList> {
        self.list
    }
}

/// The bytes of one `batch_decode` item: a `bytes` object's own (kept
/// alive, and immutable, while they are read), or a copy.
pub(super) enum BatchBytes<'py> {
    Borrowed(Bound<'py, PyBytes>),
    Owned(Vec<u8>),
}

impl BatchBytes<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            BatchBytes::Borrowed(b) => b.as_bytes(),
            BatchBytes::Owned(v) => v,
        }
    }
}

/// Renders, in groups, the account ids inside the batch's fixed-size items
/// (a query_map page's key tuples) that the account table lacks, and keeps
/// them there, so the decode that follows finds every text made: one by
/// one, the SS58 text of an account never seen was two fifths of such a
/// key's decode. Bare account ids are left to the batch loop (which renders
/// them in groups into their slots), items of a varying-size type to the
/// decode.
pub(super) fn prefetch_accounts(
    py: Python<'_>,
    ctx: &ferroscale_dynamic::Context<'_>,
    names: &mut NameCache,
    pending: &mut PendingAccounts,
    items: &[(TypeIdx, BatchBytes<'_>)],
) -> PyResult<()> {
    // A batch has a few types (a page: the key's and the value's).
    const TYPES: usize = 8;
    if !names.keeps_accounts() {
        // Texts made here would have nowhere to wait for the decode.
        return Ok(());
    }
    let format = pending.format();
    let remember = |names: &mut NameCache, id: &[u8; 32], text: &str| {
        names.remember_account(id, format, &PyString::new(py, text));
    };
    // An id the table lacks waits in `pending` (rendered 64 at a time).
    let mut set_aside = |names: &mut NameCache, id: [u8; 32]| -> PyResult<()> {
        if names.cached_account(py, &id, format).is_some() {
            return Ok(());
        }
        pending
            .push(0, id, |_, id, text| remember(names, id, text))
            .map_err(unrendered)
    };
    let mut layouts: Vec<(TypeIdx, Option<AccountLayout>)> = Vec::new();
    for (ty, bytes) in items {
        let bytes = bytes.bytes();
        if PendingAccounts::bare_account(ctx, *ty, bytes).is_some() {
            // Rendered in groups by the batch loop itself, into their slots.
            continue;
        }
        let at = match layouts.iter().position(|(t, _)| t == ty) {
            Some(at) => at,
            None if layouts.len() < TYPES => {
                layouts.push((*ty, account_layout(ctx.graph, *ty)));
                layouts.len() - 1
            }
            None => continue,
        };
        let Some(layout) = layouts[at].1.as_ref().filter(|l| l.size == bytes.len()) else {
            continue;
        };
        for &offset in &layout.offsets {
            if let Some(Ok(id)) = bytes.get(offset..offset + 32).map(<[u8; 32]>::try_from) {
                set_aside(names, id)?;
            }
        }
    }
    pending
        .flush(|_, id, text| remember(names, id, text))
        .map_err(unrendered)
}

impl PyRegistry {
    /// `batch_decode`: see the Python method (and `ConfigBase.batch_decode`).
    ///
    /// Each item's type is looked up and its bytes taken (with the lock
    /// held), then the items are decoded in order, so the first failing item
    /// raises, as decoding one by one would. A batch of [`DETACH_MIN`] bytes
    /// or more decodes with the interpreter lock released
    /// ([`crate::convert::detached::decode_batch`]); a smaller one straight into
    /// Python objects.
    pub(crate) fn batch<'py>(
        slf: &Bound<'py, Self>,
        type_strings: &Bound<'py, PyAny>,
        data_list: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = slf.py();
        let type_strings = as_list(py, type_strings)?;
        let data_list = as_list(py, data_list)?;
        let n = type_strings.len();
        if n != data_list.len() {
            return Err(PyValueError::new_err(format!(
                "batch_decode: {n} type strings but {} byte strings",
                data_list.len()
            )));
        }
        let mut reg = slf.get().lock(py)?;
        let (items, stopped) = guard("batch decoding", || {
            Ok(reg.batch_items(py, &type_strings, &data_list))
        })?;
        let total: usize = items.iter().map(|(_, b)| b.bytes().len()).sum();
        if total < DETACH_MIN {
            let _gc = GcPause::for_input(py, total);
            let out = guard("batch decoding", || reg.batch_held(py, &items))?;
            return match stopped {
                Some(e) => Err(e),
                None => Ok(out),
            };
        }
        let snapshot = Arc::clone(&reg.inner);
        drop(reg);
        let slices: Vec<(TypeIdx, &[u8])> = items.iter().map(|(t, b)| (*t, b.bytes())).collect();
        let decoded = detached(py, "batch decoding", || {
            crate::convert::detached::decode_batch(&snapshot.context(), &slices)
        })
        .map_err(PyValueError::new_err)?;
        guard("batch decoding", || {
            let built = decoded.map_err(|e| match e {
                crate::convert::detached::BatchError::Decode(e) => to_py(py, &e),
                crate::convert::detached::BatchError::Accounts(e) => unrendered(e),
            })?;
            if let Some(e) = stopped {
                return Err(e);
            }
            let _gc = GcPause::for_input(py, total);
            let out = ListBuilder::new(py, n)?;
            let mut fresh = NameCache::default();
            let mut reg = slf.get().lock(py).ok();
            let names = match reg.as_mut() {
                Some(reg) => &mut reg.names,
                // in use further up this thread's stack (a finalizer)
                None => &mut fresh,
            };
            built.into_python(py, names, |i, v| out.set(i, v));
            Ok(out.finish())
        })
    }
}

impl RegistryState {
    /// The node and bytes of each `batch_decode` item, up to the first one
    /// that fails (its error is the second part).
    pub(super) fn batch_items<'py>(
        &mut self,
        py: Python<'py>,
        type_strings: &Bound<'py, PyList>,
        data_list: &Bound<'py, PyList>,
    ) -> (Vec<(TypeIdx, BatchBytes<'py>)>, Option<PyErr>) {
        let n = type_strings.len();
        let mut items = Vec::with_capacity(n);
        let mut types = TypeStringCache::default();
        for i in 0..n {
            let item = (|| -> PyResult<(TypeIdx, BatchBytes<'py>)> {
                // Checked access: a finalizer run by an allocation could
                // shrink either list while we are in the loop.
                let t = type_strings.get_item(i)?;
                let ty = match types.find(&t) {
                    Some(ty) => ty,
                    None => {
                        let ty = self.resolve_idx(py, type_string_text(&t)?)?;
                        types.remember(t, ty);
                        ty
                    }
                };
                let item = data_list.get_item(i)?;
                let bytes = match item.cast_into::<PyBytes>() {
                    Ok(b) => BatchBytes::Borrowed(b),
                    Err(e) => BatchBytes::Owned(batch_input_bytes(&e.into_inner())?),
                };
                Ok((ty, bytes))
            })();
            match item {
                Ok(item) => items.push(item),
                Err(e) => return (items, Some(e)),
            }
        }
        (items, None)
    }

    /// Decodes `items` straight into Python objects, the lock held.
    pub(super) fn batch_held<'py>(
        &mut self,
        py: Python<'py>,
        items: &[(TypeIdx, BatchBytes<'py>)],
    ) -> PyResult<Bound<'py, PyList>> {
        let out = ListBuilder::new(py, items.len())?;
        // Account ids rendered as SS58 are set aside and rendered in
        // groups, several times faster per account (see `PendingAccounts`).
        let ctx = self.inner.context();
        let mut accounts = PendingAccounts::for_context(&ctx);
        let names = &mut self.names;
        // A text made here goes to its slot and into the account table.
        fn put(
            names: &mut NameCache,
            out: &ListBuilder<'_>,
            (slot, id, format, text): (usize, &[u8; 32], u16, &str),
        ) {
            let text = PyString::new(out.list.py(), text);
            names.remember_account(id, format, &text);
            out.set(slot, text.into_any());
        }
        if let Some(pending) = accounts.as_mut() {
            prefetch_accounts(py, &ctx, names, pending, items)?;
        }
        for (i, (ty, bytes)) in items.iter().enumerate() {
            let bytes = bytes.bytes();
            if let Some(pending) = accounts.as_mut() {
                if let Some(id) = PendingAccounts::bare_account(&ctx, *ty, bytes) {
                    let format = pending.format();
                    match names.cached_account(py, &id, format) {
                        Some(text) => out.set(i, text.into_any()),
                        None => pending
                            .push(i, id, |slot, id, text| {
                                put(names, &out, (slot, id, format, text))
                            })
                            .map_err(unrendered)?,
                    }
                    continue;
                }
            }
            let mut sink = PySink { py, names };
            let v = ferroscale_dynamic::decode(&ctx, *ty, bytes, &mut sink)
                .map_err(|e| to_py(py, &e))?;
            out.set(i, v);
        }
        if let Some(pending) = accounts.as_mut() {
            let format = pending.format();
            pending
                .flush(|slot, id, text| put(names, &out, (slot, id, format, text)))
                .map_err(unrendered)?;
        }
        Ok(out.finish())
    }
}
