//! py-scale-codec type strings: `"Vec<(AccountId, Balance)>"`, `"[u8; 32]"`,
//! `"<T as Trait>::Balance"`, `"scale_info::42"` ….
//!
//! A type string is read in two steps, the way py-scale-codec 1.2.12 reads it
//! (`RuntimeConfigurationObject.convert_type_string` and `get_decoder_class`):
//!
//! 1. [`rewrite_text`] applies py-scale-codec's textual rewrites (`T::` and
//!    `<T as Trait>::` dropped, newlines removed, `VecDeque<` read as `Vec<` …),
//!    remembering where every remaining byte came from so that errors point into
//!    the string the caller gave.
//! 2. [`parse`] builds a [`TypeExpr`] and applies the structural rewrites at
//!    every level (`Box<T>` → `T`, `()` → `Null`, `Vec<u8>`/`&[u8]` → `Bytes`,
//!    `<Balance as HasCompact>::Type` → `Compact<Balance>` …).
//!
//! A type *name* shown to the user (a call argument's `type`) goes through
//! [`convert_type_string`] instead: the same rules on the whole string, the
//! text otherwise kept as written, as py-scale-codec shows it.
//!
//! [`TypeExpr`]'s `Display` is the canonical form (one space after commas and
//! semicolons, none elsewhere); registries key their caches on it.
//! Nesting is capped at [`MAX_DEPTH`], so a hostile `Vec<Vec<Vec<…` fails with
//! an error instead of exhausting the stack.

mod ast;
mod error;
mod parse;
mod rewrite;

pub use ast::TypeExpr;
pub use error::ParseError;
pub use parse::{parse, parse_key, MAX_DEPTH};
pub use rewrite::{convert_type_string, rewrite_text};
