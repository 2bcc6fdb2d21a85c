//! py-scale-codec's metadata API: the metadata model as Python data and
//! the decoding of `MetadataVersioned` ([`model`]), the FRAME rules read
//! from a decoded metadata value ([`rules`]), the metadata as the engine
//! read it, kept on its object ([`loaded`]), and the metadata object
//! classes: [`versioned`] (the metadata itself), [`pallet`], [`storage`]
//! (storage entries), [`entries`] (calls, events, errors, constants,
//! fields, variants), with what they share in [`read`]; RFC-0078 metadata
//! hashes and extrinsic proofs ([`digest`]).

pub mod digest;
pub mod entries;
pub mod loaded;
pub mod model;
pub mod pallet;
pub mod read;
pub mod rules;
pub mod storage;
pub mod versioned;
