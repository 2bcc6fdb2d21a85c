//! ferroscale's fuzzing harness: the entry points the cargo-fuzz targets in
//! `fuzz_targets/` call, the real registries they decode against, and the
//! seed corpora built from the fixtures. See docs/rust.md, "Limits on hostile input,
//! fuzzing and differential tests".

#![forbid(unsafe_code)]

pub mod harness;
#[cfg(feature = "index")]
pub mod index;
#[cfg(feature = "typed")]
pub mod typed;
#[cfg(feature = "typed")]
pub mod typed_check;
