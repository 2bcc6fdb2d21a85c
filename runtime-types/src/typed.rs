//! Typed decoders by structural hash (the interface lives in
//! `ferroscale-value`, below both this crate and the dynamic layer;
//! generated `TYPED_DECODERS` tables name it through this path).

pub use ferroscale_value::typed::*;
