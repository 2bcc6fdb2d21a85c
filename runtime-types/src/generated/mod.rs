//! The generated chain modules, one cargo feature each. Written by `cargo xtask generate`.

/// Runtime types of `asset-hub` (cargo feature `asset-hub`).
#[cfg(feature = "asset-hub")]
#[path = "asset_hub.rs"]
#[rustfmt::skip] // formatted by the generator (prettyplease)
#[allow(missing_docs)] // documented where the metadata documents it
pub mod asset_hub;

/// Runtime types of `bittensor` (cargo feature `bittensor`).
#[cfg(feature = "bittensor")]
#[path = "bittensor.rs"]
#[rustfmt::skip] // formatted by the generator (prettyplease)
#[allow(missing_docs)] // documented where the metadata documents it
pub mod bittensor;

/// Runtime types of `kusama` (cargo feature `kusama`).
#[cfg(feature = "kusama")]
#[path = "kusama.rs"]
#[rustfmt::skip] // formatted by the generator (prettyplease)
#[allow(missing_docs)] // documented where the metadata documents it
pub mod kusama;

/// Runtime types of `polkadot` (cargo feature `polkadot`).
#[cfg(feature = "polkadot")]
#[path = "polkadot.rs"]
#[rustfmt::skip] // formatted by the generator (prettyplease)
#[allow(missing_docs)] // documented where the metadata documents it
pub mod polkadot;

/// Runtime types of `substrate-node` (cargo feature `substrate-node`).
#[cfg(feature = "substrate-node")]
#[path = "substrate_node.rs"]
#[rustfmt::skip] // formatted by the generator (prettyplease)
#[allow(missing_docs)] // documented where the metadata documents it
pub mod substrate_node;
