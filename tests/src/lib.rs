//! ferroscale's cross-layer tests (never published): the typed layer, the
//! dynamic layer and py-scale-codec agree on real chain data. The suites are
//! in `tests/`; this library holds the test-only chains they share, expanded
//! at compile time by the proc-macro from the fixtures folder (nothing
//! generated is committed; a missing fixture is a compile error naming it):
//!
//! - [`polkadot_9180`]: Polkadot spec 9180 (the runtime of block 10,000,000),
//!   not shipped with ferroscale-runtime-types;
//! - [`subtensor_rpc`]: the bare type registry bt-decode's Bittensor
//!   runtime-API results were encoded with (`payloads/subtensor/test_types.json`).
//!
//! The macro's arguments give them `roundtrip_type` and the `ToValue`
//! impls, and name `ferroscale-runtime-types` directly (this crate does not
//! depend on the facade).

#![forbid(unsafe_code)]

#[ferroscale_macros::runtime(
    fixture = "metadata/polkadot-v14-spec9180.scale",
    crate = "::ferroscale_runtime_types",
    values = true,
    roundtrip = true
)]
pub mod polkadot_9180 {}

#[ferroscale_macros::runtime(
    fixture = "payloads/subtensor/test_types.json",
    crate = "::ferroscale_runtime_types",
    values = true,
    roundtrip = true
)]
pub mod subtensor_rpc {}
