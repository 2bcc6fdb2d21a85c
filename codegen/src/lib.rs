//! ferroscale-codegen: turns a chain's metadata model into Rust tokens —
//! structs and enums with derived `parity_scale_codec::{Encode, Decode}` for
//! every type of the runtime. Pure: no file or network I/O; the xtask and the
//! proc-macro decide where the tokens go.
