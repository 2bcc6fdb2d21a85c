//! ferroscale-value: the dynamic [`Value`] in py-scale-codec 1.2.12's
//! shapes, and what turns typed Rust values into it.
//!
//! This crate is the meeting point of the typed and the dynamic layers:
//! generated chain types (`ferroscale-runtime-types`) implement
//! [`ToValue`] and export [`typed::TypedDecoderTable`]s; the dynamic decoder
//! (`ferroscale-dynamic`) produces [`Value`]s and shares the renderings of
//! [`render`]. Neither of those crates depends on the other.
//!
//! - [`Value`], [`Name`]: the value and its shared strings.
//! - [`ToValue`]: a typed value as a [`Value`] (impls for the standard types).
//! - [`typed`]: typed decoders by structural hash.
//! - [`render`]: py-scale-codec's text renderings (bit sequences).
//! - [`json`]: compact JSON text of a value, and the JSON string escaping.

#![forbid(unsafe_code)]

mod to_value;
mod value;

pub mod json;
pub mod render;
pub mod typed;

pub use to_value::{name, ToValue};
pub use value::{Name, Value};
