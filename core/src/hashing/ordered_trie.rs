//! The root of an ordered trie: what a Substrate header's `extrinsics_root`
//! commits to (the block's extrinsics, keyed by their index).
//!
//! The trie is `sp-trie`'s: base 16, no extension nodes (a branch carries
//! the key nibbles it shares), BLAKE2b-256, and its node encoding:
//!
//! - a header byte: the node's kind in the high bits, the partial key's
//!   nibble count in the rest (longer counts continue in further bytes);
//! - the partial key, two nibbles a byte (an odd count puts its first
//!   nibble alone in the low half of the first byte);
//! - a branch: a 16-bit little-endian bitmap of its children, its value if
//!   any, then each child's reference (SCALE `Vec<u8>`: the child's
//!   encoding when shorter than 32 bytes, else its hash);
//! - a value: inline (SCALE `Vec<u8>`), or, in the V1 layout when longer
//!   than 32 bytes, its 32-byte hash (with other kind bits in the header).
//!
//! The keys are the SCALE compact encodings of `0, 1, 2, …` (so the order
//! of the values matters) and the root is the hash of the root node (the
//! empty trie's is the hash of one zero byte).
//!
//! Written from the format, to check headers independently of the node
//! that served them; `the_empty_root_is_substrate_s` and the real blocks of
//! the indexer's tests tie it to the chain.

use parity_scale_codec::{Compact, Encode};

use super::digest::{blake2_256, blake2b_of_parts};

/// The trie layout a runtime built its extrinsics root with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrieLayout {
    /// Values are stored in their node, whatever their length (`StateVersion::V0`).
    V0,
    /// Values longer than 32 bytes are stored as their hash (`StateVersion::V1`).
    V1,
}

impl TrieLayout {
    /// Whether `value` is stored as its hash in this layout.
    fn hashes(self, value: &[u8]) -> bool {
        // sp-core's TRIE_VALUE_NODE_THRESHOLD: 33 bytes and more are hashed.
        self == TrieLayout::V1 && value.len() >= 33
    }
}

/// The root of the trie mapping the SCALE compact encoding of each index
/// to the value at that index.
pub fn ordered_trie_root(values: &[impl AsRef<[u8]>], layout: TrieLayout) -> [u8; 32] {
    root(&sorted_items(values), layout, &mut Reference::of)
}

/// The roots of several ordered tries ([`ordered_trie_root`] of each list),
/// with the V0 leaves of all of them hashed together, several at a time in
/// vector lanes: a batch of blocks' extrinsics roots, where one long
/// extrinsic a block (a parachain inherent) was most of the time, costs
/// about a third. V1 tries are made one by one (their long values are
/// hashed before their leaves).
pub fn ordered_trie_roots<V: AsRef<[u8]>>(lists: &[&[V]], layout: TrieLayout) -> Vec<[u8; 32]> {
    let tries: Vec<Vec<Item<'_>>> = lists.iter().map(|l| sorted_items(l)).collect();
    if layout == TrieLayout::V1 {
        return tries
            .iter()
            .map(|items| root(items, layout, &mut Reference::of))
            .collect();
    }
    // First walk: the leaves to hash, in the order a walk meets them (the
    // placeholders keep every node's length, so the walk is the same).
    let mut leaves: Vec<(Vec<u8>, &[u8])> = Vec::new();
    for items in &tries {
        root(items, layout, &mut |head, tail| {
            if Reference::is_long_leaf(&head, tail) {
                leaves.push((head, tail));
                Reference::Hash([0; 32])
            } else if Reference::is_hashed(&head, tail) {
                Reference::Hash([0; 32])
            } else {
                Reference::of(head, tail)
            }
        });
    }
    let mut states: Vec<blake2b_simd::State> = leaves
        .iter()
        .map(|(head, _)| {
            let mut state = blake2b_simd::Params::new().hash_length(32).to_state();
            state.update(head);
            state
        })
        .collect();
    blake2b_simd::many::update_many(states.iter_mut().zip(leaves.iter().map(|(_, tail)| *tail)));
    let mut hashes = states.iter().map(|state| {
        let mut out = [0u8; 32];
        out.copy_from_slice(state.finalize().as_bytes());
        out
    });
    // Second walk: the same nodes, each leaf's hash taken in turn.
    tries
        .iter()
        .map(|items| {
            root(
                items,
                layout,
                &mut |head, tail| match Reference::is_long_leaf(&head, tail) {
                    true => Reference::Hash(hashes.next().unwrap_or_default()),
                    false => Reference::of(head, tail),
                },
            )
        })
        .collect()
}

/// A trie's item: its key as nibbles, and its value.
type Item<'a> = (Vec<u8>, &'a [u8]);

/// How a node's encoding, given as its head and its tail (a leaf's value),
/// becomes its reference.
type Refer<'f, 'a> = dyn FnMut(Vec<u8>, &'a [u8]) -> Reference + 'f;

/// Each value under the nibbles of its index's compact encoding, in key order.
fn sorted_items<V: AsRef<[u8]>>(values: &[V]) -> Vec<Item<'_>> {
    let mut items: Vec<Item<'_>> = values
        .iter()
        .enumerate()
        .map(|(i, v)| (nibbles(&Compact(i as u64).encode()), v.as_ref()))
        .collect();
    // The trie is ordered by key bytes, which is not index order (64 is
    // `01 01`, 1 is `04`); compact encodings are prefix-free, so the
    // nibble order is the byte order.
    items.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    items
}

/// The root of the trie of `items` (sorted), leaves referred to by `refer`.
fn root<'a>(items: &[Item<'a>], layout: TrieLayout, refer: &mut Refer<'_, 'a>) -> [u8; 32] {
    match items.is_empty() {
        true => blake2_256(&[0]),
        // The root is hashed whatever its length.
        false => match node(items, 0, layout, refer) {
            Reference::Inline(encoding) => blake2_256(&encoding),
            Reference::Hash(hash) => hash,
        },
    }
}

/// `bytes` as nibbles, high half first.
fn nibbles(bytes: &[u8]) -> Vec<u8> {
    bytes.iter().flat_map(|b| [b >> 4, b & 0x0f]).collect()
}

/// A node as its parent refers to it: its encoding when shorter than 32
/// bytes, else the hash of its encoding.
enum Reference {
    Inline(Vec<u8>),
    Hash([u8; 32]),
}

impl Reference {
    /// The reference of the node encoded as `head` then `tail`: hashed
    /// from the two parts, so a long value is not copied into a node first
    /// (extrinsics are most of a block's bytes).
    fn of(head: Vec<u8>, tail: &[u8]) -> Reference {
        match Reference::is_hashed(&head, tail) {
            false => Reference::Inline([head.as_slice(), tail].concat()),
            true => Reference::Hash(blake2b_of_parts(&[&head, tail])),
        }
    }

    /// Whether the node encoded as `head` then `tail` is referred to by its hash.
    fn is_hashed(head: &[u8], tail: &[u8]) -> bool {
        head.len() + tail.len() >= 32
    }

    /// Whether the node is a leaf holding its value inline (its `tail`)
    /// and referred to by its hash: the nodes [`ordered_trie_roots`]
    /// hashes together (both of its walks ask this, so they agree).
    fn is_long_leaf(head: &[u8], tail: &[u8]) -> bool {
        !tail.is_empty() && Reference::is_hashed(head, tail)
    }
}

/// The node holding `items` (sorted, not empty, sharing their first
/// `depth` nibbles).
fn node<'a>(
    items: &[Item<'a>],
    depth: usize,
    layout: TrieLayout,
    refer: &mut Refer<'_, 'a>,
) -> Reference {
    let first = &items[0].0[depth..];
    if let [(_, value)] = items {
        let hashed = layout.hashes(value);
        let mut head = header(Kind::Leaf, first.len(), hashed);
        partial_key(first, &mut head);
        return match hashed {
            true => {
                head.extend_from_slice(&blake2_256(value));
                refer(head, &[])
            }
            false => {
                Compact(value.len() as u64).encode_to(&mut head);
                refer(head, value)
            }
        };
    }
    // Sorted: what the first and last keys share, all share.
    let last = &items[items.len() - 1].0[depth..];
    let shared = first.iter().zip(last).take_while(|(a, b)| a == b).count();
    let at = depth + shared;
    // A key ending here is the branch's own value (never the case for
    // compact-encoded indexes, which are prefix-free).
    let (value, rest) = match items[0].0.len() == at {
        true => (Some(items[0].1), &items[1..]),
        false => (None, items),
    };
    let hashed = value.is_some_and(|v| layout.hashes(v));
    let kind = match value {
        None => Kind::Branch,
        Some(_) => Kind::BranchWithValue,
    };
    let mut out = header(kind, shared, hashed);
    partial_key(&first[..shared], &mut out);
    let bitmap_at = out.len();
    out.extend_from_slice(&[0, 0]);
    if let Some(value) = value {
        push_value(value, layout, &mut out);
    }
    let mut bitmap = 0u16;
    let mut start = 0;
    while start < rest.len() {
        let nibble = rest[start].0[at];
        let end = start + rest[start..].partition_point(|(k, _)| k[at] == nibble);
        bitmap |= 1 << nibble;
        match node(&rest[start..end], at + 1, layout, refer) {
            Reference::Inline(child) => child.encode_to(&mut out),
            Reference::Hash(hash) => hash.as_slice().encode_to(&mut out),
        }
        start = end;
    }
    out[bitmap_at..bitmap_at + 2].copy_from_slice(&bitmap.to_le_bytes());
    refer(out, &[])
}

/// A value as a node stores it: inline with its length, or its hash.
fn push_value(value: &[u8], layout: TrieLayout, out: &mut Vec<u8>) {
    match layout.hashes(value) {
        true => out.extend_from_slice(&blake2_256(value)),
        false => value.encode_to(out),
    }
}

/// A node's kind, as its header tells it.
#[derive(Clone, Copy)]
enum Kind {
    Leaf,
    Branch,
    BranchWithValue,
}

/// The header: the kind's bits, then the partial key's nibble count in
/// the bits left; a count that does not fit fills them and goes on in
/// further bytes (255 each, then the rest).
fn header(kind: Kind, nibble_count: usize, hashed_value: bool) -> Vec<u8> {
    // (prefix, bits of the prefix)
    let (prefix, bits) = match (kind, hashed_value) {
        (Kind::Leaf, false) => (0b01 << 6, 2),
        (Kind::Branch, _) => (0b10 << 6, 2),
        (Kind::BranchWithValue, false) => (0b11 << 6, 2),
        (Kind::Leaf, true) => (0b001 << 5, 3),
        (Kind::BranchWithValue, true) => (0b0001 << 4, 4),
    };
    let max = 255usize >> bits;
    // sp-trie bounds a partial key at u16::MAX nibbles.
    let count = nibble_count.min(usize::from(u16::MAX));
    if count < max {
        return vec![prefix | count as u8];
    }
    let mut out = vec![prefix | max as u8];
    let mut rest = count - (max - 1);
    loop {
        if rest < 256 {
            out.push((rest - 1) as u8);
            return out;
        }
        out.push(255);
        rest -= 255;
    }
}

/// The partial key's nibbles packed two a byte, an odd first one alone.
fn partial_key(nibbles: &[u8], out: &mut Vec<u8>) {
    let (odd, pairs) = nibbles.split_at(nibbles.len() % 2);
    out.extend_from_slice(odd);
    out.extend(pairs.chunks_exact(2).map(|p| (p[0] << 4) | p[1]));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn the_empty_root_is_substrate_s() {
        // Substrate's empty trie root (`sp_trie::empty_trie_root`), the
        // extrinsics root of a block without extrinsics.
        let empty = "03170a2e7597b7b7e3d84c05391d139a62b157e78786d8c082f29dcf4c111314";
        for layout in [TrieLayout::V0, TrieLayout::V1] {
            assert_eq!(hex(&ordered_trie_root(&[] as &[&[u8]], layout)), empty);
        }
    }

    #[test]
    fn one_value_is_a_leaf_under_the_key_of_index_zero() {
        // Key `00`: two nibbles, leaf header 0x42, packed key 0x00, then
        // the value with its compact length.
        let root = ordered_trie_root(&[b"abc"], TrieLayout::V0);
        assert_eq!(root, blake2_256(&[0x42, 0x00, 3 << 2, b'a', b'b', b'c']));
        // A long value in V1: the hashed-leaf header 0x22 and its hash.
        let long = [7u8; 40];
        let mut leaf = vec![0x22, 0x00];
        leaf.extend_from_slice(&blake2_256(&long));
        assert_eq!(
            ordered_trie_root(&[long], TrieLayout::V1),
            blake2_256(&leaf)
        );
        // 32 bytes stay inline in V1.
        let short = [7u8; 32];
        assert_eq!(
            ordered_trie_root(&[short], TrieLayout::V1),
            ordered_trie_root(&[short], TrieLayout::V0)
        );
    }

    #[test]
    fn two_values_are_a_branch_on_their_first_nibble() {
        // Keys `00` and `04`: a branch sharing nibble 0, children at
        // nibbles 0 and 4, each a leaf with no nibble left.
        let root = ordered_trie_root(&[b"a", b"b"], TrieLayout::V0);
        let leaf = |v: u8| vec![0x40, 1 << 2, v];
        let mut branch = vec![0x81, 0x00, 0b0001_0001, 0x00];
        for v in [b'a', b'b'] {
            let child = leaf(v);
            branch.push((child.len() as u8) << 2);
            branch.extend_from_slice(&child);
        }
        assert_eq!(root, blake2_256(&branch));
    }

    #[test]
    fn roots_made_together_are_each_list_s_root() {
        // Lists of 0 to 69 values (one level of branches, then two), of
        // lengths around the inline limit and long ones, in both layouts.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        let lists: Vec<Vec<Vec<u8>>> = (0..70)
            .map(|count| {
                (0..count)
                    .map(|_| {
                        let len = [next(40), next(300), 4_000 + next(9_000)][next(3)];
                        (0..len).map(|_| next(256) as u8).collect()
                    })
                    .collect()
            })
            .collect();
        let refs: Vec<&[Vec<u8>]> = lists.iter().map(Vec::as_slice).collect();
        for layout in [TrieLayout::V0, TrieLayout::V1] {
            let together = ordered_trie_roots(&refs, layout);
            let one_by_one: Vec<[u8; 32]> =
                lists.iter().map(|l| ordered_trie_root(l, layout)).collect();
            assert_eq!(together, one_by_one, "{layout:?}");
        }
        assert!(ordered_trie_roots::<&[u8]>(&[], TrieLayout::V0).is_empty());
    }

    #[test]
    fn the_order_of_the_values_is_committed_to() {
        let a = ordered_trie_root(&[b"a", b"b"], TrieLayout::V0);
        let b = ordered_trie_root(&[b"b", b"a"], TrieLayout::V0);
        assert_ne!(a, b);
    }

    #[test]
    fn headers_of_long_partial_keys_go_on_in_further_bytes() {
        assert_eq!(header(Kind::Leaf, 62, false), [0x40 | 62]);
        assert_eq!(header(Kind::Leaf, 63, false), [0x40 | 63, 0]);
        assert_eq!(header(Kind::Leaf, 63 + 300, false), [0x7f, 255, 45]);
        assert_eq!(header(Kind::BranchWithValue, 15, true), [0x1f, 0]);
    }
}
