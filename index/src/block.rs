//! The input model: one block as an indexer receives it, and what its
//! header says (its hash, BABE's and Aura's slot and author).

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
    /// The header's fields beyond the number, when the source has them:
    /// the chain checks (the header hashes to `hash`, the parent is the
    /// block before) and the `blocks` table's roots and digest need them.
    pub header: Option<Header>,
    /// Whether the block was final when it was fetched (`None`: the source
    /// does not say).
    pub finalized: Option<bool>,
}

/// A header's fields beyond its number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The parent block's hash.
    pub parent_hash: [u8; 32],
    /// The state root after the block.
    pub state_root: [u8; 32],
    /// The root of the block's extrinsics.
    pub extrinsics_root: [u8; 32],
    /// The digest's logs, each a SCALE `DigestItem`.
    pub digest: Vec<Vec<u8>>,
}

impl Header {
    /// The hash of block `number` with this header.
    pub fn hash(&self, number: u64) -> [u8; 32] {
        ferroscale_core::hashing::header_hash(
            &self.parent_hash,
            number,
            &self.state_root,
            &self.extrinsics_root,
            &self.digest,
        )
    }

    /// The BABE or Aura pre-runtime digest's slot and, for BABE, the
    /// author's index in the authority set: `(slot, author_index)`.
    pub fn slot_and_author(&self) -> Option<(u64, Option<u32>)> {
        self.digest.iter().find_map(|log| pre_runtime(log))
    }
}

/// A pre-runtime `DigestItem` (variant 6: engine id, then the engine's
/// bytes) of BABE (`BABE`: a `PreDigest`, whose three kinds all begin with
/// the authority index and the slot) or Aura (`aura`: the slot).
fn pre_runtime(log: &[u8]) -> Option<(u64, Option<u32>)> {
    let (&6, rest) = log.split_first()? else {
        return None;
    };
    let (engine, rest) = rest.split_at_checked(4)?;
    // The engine's bytes are a `Vec<u8>`: a compact length first, which
    // for a pre-digest is one byte (under 64) in practice; longer ones are
    // read as they come.
    let data = strip_compact(rest)?;
    let u64_at = |b: &[u8], at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
    };
    match engine {
        b"BABE" if matches!(data.first(), Some(1..=3)) => {
            let index = u32::from_le_bytes(data.get(1..5)?.try_into().ok()?);
            Some((u64_at(data, 5)?, Some(index)))
        }
        b"aura" => Some((u64_at(data, 0)?, None)),
        _ => None,
    }
}

/// `bytes` after a SCALE compact length prefix (the length is not checked:
/// the fields read after it are bounds-checked themselves).
fn strip_compact(bytes: &[u8]) -> Option<&[u8]> {
    let first = *bytes.first()?;
    let size = match first & 0b11 {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => 1 + usize::from(first >> 2) + 4,
    };
    bytes.get(size..)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn babe_and_aura_pre_digests_give_slot_and_author() {
        let header = |log: Vec<u8>| Header {
            parent_hash: [0; 32],
            state_root: [0; 32],
            extrinsics_root: [0; 32],
            digest: vec![vec![5, b'B', b'A', b'B', b'E', 0], log],
        };
        // BABE secondary plain: kind 2, authority 9, slot 1234.
        let mut babe = vec![6, b'B', b'A', b'B', b'E', 13 << 2, 2, 9, 0, 0, 0];
        babe.extend_from_slice(&1234u64.to_le_bytes());
        assert_eq!(header(babe).slot_and_author(), Some((1234, Some(9))));
        let mut aura = vec![6, b'a', b'u', b'r', b'a', 8 << 2];
        aura.extend_from_slice(&77u64.to_le_bytes());
        assert_eq!(header(aura).slot_and_author(), Some((77, None)));
        // Cut short, or another engine: nothing, and no panic.
        assert_eq!(
            header(vec![6, b'B', b'A', b'B', b'E', 4, 2, 9]).slot_and_author(),
            None
        );
        assert_eq!(
            header(vec![6, b'p', b'o', b'w', b'_', 0]).slot_and_author(),
            None
        );
        assert_eq!(header(vec![6]).slot_and_author(), None);
    }
}
