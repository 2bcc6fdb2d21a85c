//! The installed Python package as Rust sees it: the class tables it
//! registers on import ([`catalogue`]) and whether its files are all ours
//! ([`ownership`]).

pub mod catalogue;
pub mod ownership;
