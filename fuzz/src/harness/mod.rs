//! The fuzzing harness shared by the cargo-fuzz targets (`fuzz/fuzz_targets/`)
//! and the bounded smoke fuzz that runs in CI
//! (`dynamic/tests/hardening_smoke_fuzz.rs` and
//! `tests/tests/typed_smoke_fuzz.rs` include this folder by path, so it must
//! only use crates both of those test crates can see: core, dynamic,
//! ferroscale-fixtures, frame-metadata, parity-scale-codec).
//!
//! - [`targets`]: one entry point per fuzzed API; each takes arbitrary bytes
//!   and must return without panicking, whatever they are.
//! - [`registries`]: the real chain registries the dynamic decoder is fuzzed
//!   against, built once per process.
//! - [`named`]: the V16 runtimes whose runtime APIs, view functions, storage
//!   maps and extrinsics the `named` target reaches by name.
//! - [`seeds`]: seed inputs taken from the real fixtures.
//! - [`inputs`]: the layouts of the inputs that name a registry or runtime
//!   and an item (the targets read them, the seeds build them).
//! - [`mutate`]: a seeded xorshift mutator (the smoke fuzz's engine; libFuzzer
//!   has its own).
//! - [`smoke`]: the smoke fuzz's runner (seeds first, then mutated inputs).

pub mod inputs;
pub mod mutate;
pub mod named;
pub mod registries;
pub mod seeds;
pub mod smoke;
pub mod targets;
