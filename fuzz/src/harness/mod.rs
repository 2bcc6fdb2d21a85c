//! The fuzzing harness shared by the cargo-fuzz targets (`fuzz/fuzz_targets/`)
//! and the bounded smoke fuzz that runs in CI
//! (`dynamic/tests/hardening_smoke_fuzz.rs` includes this folder by path, so
//! it must only use crates every ferroscale-dynamic test can see: core,
//! dynamic, fixtures, frame-metadata, parity-scale-codec).
//!
//! - [`targets`]: one entry point per fuzzed API; each takes arbitrary bytes
//!   and must return without panicking, whatever they are.
//! - [`registries`]: the real chain registries the dynamic decoder is fuzzed
//!   against, built once per process.
//! - [`seeds`]: seed inputs taken from the real fixtures.
//! - [`mutate`]: a seeded xorshift mutator (the smoke fuzz's engine; libFuzzer
//!   has its own).

pub mod mutate;
pub mod registries;
pub mod seeds;
pub mod targets;
