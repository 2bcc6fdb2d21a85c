//! The chain checks of the blocks an index reads: each header hashes to
//! its block's hash, each parent is the block before (across the
//! partitions done before too), and each block's extrinsics have its
//! header's extrinsics root.

use super::IndexError;
use crate::block::Block;
use crate::manifest::Manifest;

/// The chain checks of the blocks read, in order: each header hashes to
/// its block's hash, each parent is the block before, and at the ends of
/// the partitions done before (whose entries keep their first parent and
/// last hash) the blocks read join them. (That the extrinsics have their
/// header's root is checked a partition at a time, when it is handed
/// over: [`first_root_mismatch`].)
#[derive(Default)]
pub(crate) struct ChainCheck {
    /// The block read before, and its hash.
    previous: Option<(u64, [u8; 32])>,
}

impl ChainCheck {
    pub(crate) fn check(
        &mut self,
        block: &Block,
        done: &Manifest,
        out: &std::path::Path,
    ) -> Result<(), IndexError> {
        let n = block.number;
        let fail = |reason: String| IndexError::Chain { block: n, reason };
        let hex = |h: &[u8]| ferroscale_core::hex::encode_prefixed(h);
        let hash: Option<[u8; 32]> = block
            .hash
            .strip_prefix("0x")
            .and_then(|h| ferroscale_core::hex::decode(h).ok())
            .and_then(|h| h.try_into().ok());
        let previous = self.previous.take();
        let Some(header) = &block.header else {
            self.previous = hash.map(|h| (n, h));
            return Ok(());
        };
        let Some(hash) = hash else {
            return Err(fail(format!(
                "its hash {:?} is not 32 bytes of 0x-hex",
                block.hash
            )));
        };
        let computed = header.hash(n);
        if computed != hash {
            return Err(fail(format!(
                "its header hashes to {}, not to its hash {} (a header or a hash that is not \
                 the block's)",
                hex(&computed),
                block.hash
            )));
        }
        let parent = hex(&header.parent_hash);
        let before = n.checked_sub(1);
        match previous {
            Some((p, previous_hash)) if Some(p) == before => {
                if previous_hash != header.parent_hash {
                    return Err(fail(format!(
                        "its parent is {parent}, but block {p} is {} (a reorg, or blocks from \
                         two chains)",
                        hex(&previous_hash)
                    )));
                }
            }
            _ => {
                // The partition done before that ends just before this block.
                if let Some((a, b)) = before.and_then(|b| done.partition_of(b)) {
                    let entry = Manifest::read_entry(out, a, b).map_err(IndexError::Manifest)?;
                    if let Some(last) = entry.last_hash.filter(|l| !l.eq_ignore_ascii_case(&parent))
                    {
                        return Err(fail(format!(
                            "its parent is {parent}, but block {b}, indexed before, is {last} \
                             (the chain changed since: a reorg, or another node)"
                        )));
                    }
                }
            }
        }
        // The partition done before that starts just after this block.
        if let Some((a, b)) = n
            .checked_add(1)
            .and_then(|next| done.partition_starting(next))
        {
            if done.partition_of(n).is_none() {
                let entry = Manifest::read_entry(out, a, b).map_err(IndexError::Manifest)?;
                if let Some(p) = entry
                    .first_parent_hash
                    .filter(|p| !p.eq_ignore_ascii_case(&block.hash))
                {
                    return Err(fail(format!(
                        "its hash is {}, but block {a}, indexed before, names {p} as its parent \
                         (the chain changed since: a reorg, or another node)",
                        block.hash
                    )));
                }
            }
        }
        self.previous = Some((n, hash));
        Ok(())
    }
}

/// The first of `blocks` whose extrinsics are not the ones its header
/// commits to, and the error naming it. The V0 roots of the whole
/// partition are made together: a block's long extrinsics (a parachain
/// inherent) hashed one at a time were a quarter of a core on a local
/// node's blocks; in vector lanes beside other blocks' they cost a third.
pub(crate) fn first_root_mismatch(blocks: &[Block]) -> Option<(usize, IndexError)> {
    use ferroscale_core::hashing::{ordered_trie_roots, TrieLayout};
    let checked: Vec<(usize, &crate::block::Header)> = blocks
        .iter()
        .enumerate()
        .filter_map(|(i, b)| b.header.as_ref().map(|h| (i, h)))
        .collect();
    let lists: Vec<&[Vec<u8>]> = checked
        .iter()
        .map(|&(i, _)| blocks[i].extrinsics.as_slice())
        .collect();
    let roots = ordered_trie_roots(&lists, TrieLayout::V0);
    checked
        .into_iter()
        .zip(roots)
        .find_map(|((i, header), v0)| {
            let block = &blocks[i];
            let reason = extrinsics_root_mismatch(block, header, v0)?;
            Some((
                i,
                IndexError::Chain {
                    block: block.number,
                    reason,
                },
            ))
        })
}

/// Why `block`'s extrinsics are not the ones its header commits to, if
/// they are not: the ordered trie root of the extrinsics (as served, length
/// prefix included; `v0` in the V0 layout) differs from the header's
/// `extrinsics_root`.
///
/// Runtimes build that root in the V0 trie layout, unless their
/// `RuntimeVersion::system_version` is 2 or more (V1: values over 32 bytes
/// hashed). Polkadot, Kusama and their system chains are V0 although their
/// state is V1, and no source gives the system version of every block, so
/// V0 is tried first and V1 only when V0 differs and some extrinsic is long
/// enough to tell them apart. Either root equal to the header's binds the
/// extrinsics to it (the two layouts' nodes differ in their header bits, so
/// a body of one layout cannot pass for another's without a BLAKE2b
/// collision).
fn extrinsics_root_mismatch(
    block: &Block,
    header: &crate::block::Header,
    v0: [u8; 32],
) -> Option<String> {
    use ferroscale_core::hashing::{ordered_trie_root, TrieLayout};
    if v0 == header.extrinsics_root {
        return None;
    }
    let hex = |h: &[u8]| ferroscale_core::hex::encode_prefixed(h);
    let mut computed = format!("{} (trie layout V0)", hex(&v0));
    if block.extrinsics.iter().any(|x| x.len() > 32) {
        let v1 = ordered_trie_root(&block.extrinsics, TrieLayout::V1);
        if v1 == header.extrinsics_root {
            return None;
        }
        computed = format!("{computed} or {} (V1)", hex(&v1));
    }
    Some(format!(
        "its {} extrinsics have the root {computed}, not its header's extrinsics root {} \
         (an extrinsic changed on the way, or a body that is not the block's)",
        block.extrinsics.len(),
        hex(&header.extrinsics_root)
    ))
}
