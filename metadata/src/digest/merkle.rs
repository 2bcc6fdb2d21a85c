//! The RFC's merkle tree over the type leaves: a complete binary tree kept
//! as an array (root at 0, the children of `i` at `2i + 1` and `2i + 2`,
//! the `n` leaves at the last `n` positions in order), and the proof that a
//! set of leaves belongs to it.

use std::iter::Peekable;

use parity_scale_codec::Encode;

use super::types::{hash_of, Hash};
use crate::Error;

/// The hashes of every node of the tree.
pub(crate) struct MerkleTree {
    nodes: Vec<Hash>,
    leaves: usize,
}

/// A node's depth: the root is at 0.
fn level(index: usize) -> u32 {
    (index + 1).ilog2()
}

fn parent(index: usize) -> usize {
    index.saturating_sub(1) / 2
}

/// Whether `node` lies in the subtree under `top` (`top` included).
fn is_under(top: usize, node: usize) -> bool {
    if node < top {
        return false;
    }
    let (a, b) = (level(top), level(node));
    b >= a && (node + 1) >> (b - a) == top + 1
}

impl MerkleTree {
    /// The tree over the leaves' hashes (BLAKE3 of each leaf's encoding),
    /// inner nodes hashing their two children's hashes side by side.
    pub(crate) fn new<'a, T: Encode + 'a>(leaves: impl ExactSizeIterator<Item = &'a T>) -> Self {
        let n = leaves.len();
        let mut nodes = vec![[0u8; 32]; (2 * n).saturating_sub(1)];
        for (slot, leaf) in nodes[n.saturating_sub(1)..].iter_mut().zip(leaves) {
            *slot = hash_of(leaf);
        }
        for i in (0..n.saturating_sub(1)).rev() {
            nodes[i] = hash_of(&(nodes[2 * i + 1], nodes[2 * i + 2]));
        }
        MerkleTree { nodes, leaves: n }
    }

    /// The root hash; all zeroes for a tree without leaves.
    pub(crate) fn root(&self) -> Hash {
        self.nodes.first().copied().unwrap_or_default()
    }

    /// For the leaves at these positions (in leaf order, 0-based, distinct):
    /// their node indexes in the order the proof lists them (deepest level
    /// first, left to right), and the hashes of the other nodes a verifier
    /// needs to rebuild the root.
    pub(crate) fn proof(&self, positions: &[usize]) -> Result<(Vec<usize>, Vec<Hash>), Error> {
        let first_leaf = self.leaves.saturating_sub(1);
        let mut indexes = Vec::with_capacity(positions.len());
        for &p in positions {
            if p >= self.leaves {
                return Err(Error::Digest(format!("no leaf at position {p}")));
            }
            indexes.push(first_leaf + p);
        }
        indexes.sort_by(|a, b| level(*b).cmp(&level(*a)).then(a.cmp(b)));
        let mut hashes = Vec::new();
        let mut rest = indexes.iter().copied().peekable();
        if let Some(first) = rest.next() {
            if first != 0 {
                self.climb(0, first, &mut rest, &mut hashes);
            }
        }
        Ok((indexes, hashes))
    }

    /// From leaf `start` up to the child of `stop`: at each level, a left
    /// sibling's hash goes in front of what this climb collected (leaves
    /// come left to right, so no earlier leaf covers it); a right sibling is
    /// either the next leaf, or holds the next leaf below it (climbed from
    /// there first), or is given by its hash.
    fn climb(
        &self,
        stop: usize,
        start: usize,
        rest: &mut Peekable<impl Iterator<Item = usize>>,
        hashes: &mut Vec<Hash>,
    ) {
        let front = hashes.len();
        let mut node = start;
        loop {
            let up = parent(node);
            if node % 2 == 1 {
                let right = node + 1;
                match rest.peek().copied() {
                    Some(next) if next == right => {
                        rest.next();
                    }
                    Some(next) if is_under(right, next) => {
                        rest.next();
                        self.climb(right, next, rest, hashes);
                    }
                    _ => hashes.push(self.nodes[right]),
                }
            } else {
                hashes.insert(front, self.nodes[node - 1]);
            }
            if up == stop {
                return;
            }
            node = up;
        }
    }
}
