//! Batch decoding: many byte strings against their types in one call. The
//! type-string front end (resolving each distinct string once) lives next to
//! the registry; this takes resolved [`TypeIdx`]s.

use ferroscale_core::value::Value;

use crate::account::{rendered_account_format, PendingAccounts};
use crate::decode::{decode, Context};
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
pub fn batch_decode_into<S: Sink>(
    ctx: &Context<'_>,
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
    let mut pending = ctx.ss58_format.map(PendingAccounts::new);
    for (i, (&ty, &bytes)) in types.iter().zip(inputs).enumerate() {
        if let Some(accounts) = pending.as_mut() {
            if let (Some(_), Ok(key)) = (
                rendered_account_format(ctx, ty),
                <[u8; 32]>::try_from(bytes),
            ) {
                out.push(None);
                if accounts.push(i, key) {
                    render(accounts, &mut out, sink)?;
                }
                continue;
            }
        }
        out.push(Some(decode(ctx, ty, bytes, sink)));
    }
    if let Some(accounts) = pending.as_mut() {
        render(accounts, &mut out, sink)?;
    }
    out.into_iter()
        .map(|v| v.ok_or_else(|| Error::Usage("batch_decode: an account was not rendered".into())))
        .collect()
}

/// Renders the accounts set aside into their slots of `out`.
fn render<S: Sink>(
    accounts: &mut PendingAccounts,
    out: &mut [Option<Result<S::Out, Error>>],
    sink: &mut S,
) -> Result<(), Error> {
    accounts
        .flush(|slot, text| out[slot] = Some(Ok(sink.text(text))))
        .map_err(|e| Error::Usage(format!("batch_decode: {e}")))
}
