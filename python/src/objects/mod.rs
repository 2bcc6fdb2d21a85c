//! Scale objects: the Rust base of every scale object ([`object`]), the
//! typed parts of decoded values ([`typed_parts`], [`parts_origin`], the
//! value a part holds: [`part_value`]), and the view classes the package
//! mixes into its scale classes ([`views`]).

pub mod object;
pub mod part_value;
pub mod parts_origin;
pub mod typed_parts;
pub mod views;
