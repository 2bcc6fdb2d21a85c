//! The installed Python package as Rust sees it: the name it was imported
//! under ([`name`]) and the class tables it registers on import
//! ([`catalogue`]).

pub mod catalogue;
pub mod name;
