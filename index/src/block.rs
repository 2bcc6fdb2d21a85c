//! The input model: one block as an indexer receives it.

/// One block: its identity, the SCALE bytes of each extrinsic and the
/// `System.Events` storage value at that block.
///
/// The bytes are `Vec<u8>` as the sources read them; an embedder may lend
/// its own buffers instead (`B`: anything that reads as bytes), as the
/// Python module does with Python's `bytes` objects, which it decodes in
/// place rather than copying every block first (a serial stretch before
/// the parallel decode).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block<B = Vec<u8>> {
    /// Block number.
    pub number: u64,
    /// Block hash, `"0x…"` hex as given by the source.
    pub hash: String,
    /// Spec version of the runtime the block was built with.
    pub spec_version: u32,
    /// Each extrinsic's bytes (compact length prefix included, as
    /// `chain_getBlock` returns them).
    pub extrinsics: Vec<B>,
    /// The `System.Events` storage value (a SCALE `Vec<EventRecord>`), when
    /// the source has it.
    pub events: Option<B>,
}

impl<B: AsRef<[u8]>> Block<B> {
    /// Bytes of SCALE input this block carries (extrinsics and events), for
    /// throughput figures and the size of a run of blocks decoded together.
    pub fn scale_bytes(&self) -> usize {
        self.extrinsics
            .iter()
            .map(|x| x.as_ref().len())
            .sum::<usize>()
            + self.events.as_ref().map_or(0, |e| e.as_ref().len())
    }
}
