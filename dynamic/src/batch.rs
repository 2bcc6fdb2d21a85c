//! Batch decoding: many byte strings against their types in one call. The
//! type-string front end (resolving each distinct string once) lives next to
//! the registry; this takes resolved [`TypeIdx`]s.

use ferroscale_value::Value;

use crate::account::PendingAccounts;
use crate::context::Context;
use crate::decode::decode;
use crate::error::Error;
use crate::graph::TypeIdx;
use crate::sink::{Sink, ValueSink};

/// Decodes `inputs[i]` as `types[i]`, each consuming all its bytes; the same
/// values and errors as decoding one by one. Mismatched lengths are an error.
pub fn batch_decode(
    ctx: &Context<'_>,
    types: &[TypeIdx],
    inputs: &[&[u8]],
) -> Result<Vec<Result<Value, Error>>, Error> {
    batch_decode_into(ctx, types, inputs, &mut ValueSink)
}

/// [`batch_decode`] into any [`Sink`].
pub fn batch_decode_into<'a, S: Sink<'a>>(
    ctx: &Context<'a>,
    types: &[TypeIdx],
    inputs: &[&[u8]],
    sink: &mut S,
) -> Result<Vec<Result<S::Out, Error>>, Error> {
    if types.len() != inputs.len() {
        return Err(Error::Usage(format!(
            "batch_decode: {} types but {} byte strings",
            types.len(),
            inputs.len()
        )));
    }
    // Account ids rendered as SS58 are set aside and rendered in groups
    // (their text is the same; see `PendingAccounts`); everything else is
    // decoded in place.
    let mut out: Vec<Option<Result<S::Out, Error>>> = Vec::with_capacity(types.len());
    let mut pending = PendingAccounts::for_context(ctx);
    for (i, (&ty, &bytes)) in types.iter().zip(inputs).enumerate() {
        out.push(None);
        if let Some(accounts) = pending.as_mut() {
            let put = |slot: usize, _: &[u8; 32], text: &str| out[slot] = Some(Ok(sink.text(text)));
            if accounts.offer(ctx, ty, i, bytes, put).map_err(unrendered)? {
                continue;
            }
        }
        out[i] = Some(decode(ctx, ty, bytes, sink));
    }
    if let Some(accounts) = pending.as_mut() {
        accounts
            .flush(|slot, _, text| out[slot] = Some(Ok(sink.text(text))))
            .map_err(unrendered)?;
    }
    out.into_iter()
        .map(|v| v.ok_or_else(|| Error::Usage("batch_decode: an account was not rendered".into())))
        .collect()
}

/// The error of a group of accounts that could not be rendered.
fn unrendered(e: ferroscale_core::error::Error) -> Error {
    Error::Usage(format!("batch_decode: {e}"))
}
