//! Batch decoding: many byte strings against their types in one call. The
//! type-string front end (resolving each distinct string once) lives next to
//! the registry; this takes resolved [`TypeIdx`]s.

use ferroscale_core::value::Value;

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
    Ok(types
        .iter()
        .zip(inputs)
        .map(|(t, b)| decode(ctx, *t, b, sink))
        .collect())
}
