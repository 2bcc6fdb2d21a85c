//! The real Polkadot blocks and metadata the index tests read, by their
//! fixture names. One file for the tests of `ferroscale-index` and of
//! `ferroscale index` (the CLI's `tests/common` includes it by path).

pub(crate) const META_9180: &str = "metadata/polkadot-v14-spec9180.scale";
pub(crate) const META_1000001: &str = "metadata/polkadot-v14-spec1000001.scale";
pub(crate) const BLOCK_10M: &str = "payloads/polkadot-block-10000000/extrinsics.json";
pub(crate) const BLOCK_18M: &str = "payloads/polkadot-block-18468942/extrinsics.json";
pub(crate) const EVENTS_18M: &str = "payloads/polkadot-block-18468942/events.hex";
/// Legacy metadata (V12, spec 30): its types come from the presets below.
pub(crate) const META_30: &str = "metadata/polkadot-v12-spec30.scale";
pub(crate) const BLOCK_5M: &str = "payloads/polkadot-block-5000000/extrinsics.json";
/// The type-registry presets a Polkadot runtime of before V14 decodes with.
pub(crate) const POLKADOT_PRESETS: [&str; 3] = ["core", "legacy", "polkadot"];

/// A fixture's extrinsics, `0x` hex as the file has them.
pub(crate) fn extrinsics(name: &str) -> Vec<String> {
    serde_json::from_str(&ferroscale_fixtures::read_string(name)).expect("extrinsics JSON")
}

/// A fixture's extrinsics as bytes.
pub(crate) fn extrinsic_bytes(name: &str) -> Vec<Vec<u8>> {
    extrinsics(name)
        .iter()
        .map(|x| ferroscale_fixtures::decode_hex(x).expect("hex"))
        .collect()
}
