//! The input model: one block as an indexer receives it.

/// One block: its identity, the SCALE bytes of each extrinsic and the
/// `System.Events` storage value at that block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Block number.
    pub number: u64,
    /// Block hash, `"0x…"` hex as given by the source.
    pub hash: String,
    /// Spec version of the runtime the block was built with.
    pub spec_version: u32,
    /// Each extrinsic's bytes (compact length prefix included, as
    /// `chain_getBlock` returns them).
    pub extrinsics: Vec<Vec<u8>>,
    /// The `System.Events` storage value (a SCALE `Vec<EventRecord>`), when
    /// the source has it.
    pub events: Option<Vec<u8>>,
}

impl Block {
    /// Bytes of SCALE input this block carries (extrinsics and events), for
    /// throughput figures.
    pub fn scale_bytes(&self) -> usize {
        self.extrinsics.iter().map(Vec::len).sum::<usize>()
            + self.events.as_ref().map_or(0, Vec::len)
    }
}
