//! RFC-0078 ("Merkleized Metadata"): the metadata hash that the
//! `CheckMetadataHash` signed extension signs, and the proof of the metadata
//! parts one extrinsic uses (what an offline signer such as a Ledger device
//! decodes the extrinsic with).
//!
//! The metadata (V14, V15 or V16; V9–V13 have no type registry and are
//! refused) is turned into the RFC's types ([`Merkleized`]): every type an
//! extrinsic can reach, one leaf per type (per variant for enums), in a
//! merkle tree whose root, with the hash of the extrinsic's shape and the
//! chain's [`ExtraInfo`], makes the [`MetadataDigest`]. Hashing is BLAKE3.
//!
//! ```no_run
//! use ferroscale_metadata::{digest, Metadata};
//!
//! let metadata = Metadata::load(&std::fs::read("polkadot.scale").unwrap()).unwrap();
//! let hash = digest::metadata_hash(&metadata, &digest::ChainInfo::new(10, "DOT")).unwrap();
//! println!("0x{}", hash.iter().map(|b| format!("{b:02x}")).collect::<String>());
//! ```
//!
//! V16 metadata is read as the V15 metadata of the same runtime shows its
//! extrinsic (the metadata hash a runtime checks is computed from its V15
//! metadata): the lowest extrinsic version, the extensions of a signed
//! version-4 extrinsic. V14 metadata names the address, call and signature
//! types through the `UncheckedExtrinsic` type's parameters.

mod chain;
mod merkle;
mod shape;
mod types;
mod walk;

use std::collections::BTreeSet;

use parity_scale_codec::{Compact, Decode, Encode};

pub use chain::{ss58_prefix, ChainInfo};
pub use types::{
    EnumerationVariant, ExtraInfo, ExtrinsicMetadata, Field, Hash, MetadataDigest, Proof,
    SignedExtensionMetadata, Type, TypeDef, TypeDefArray, TypeDefBitSequence, TypeRef,
};

use merkle::MerkleTree;
use shape::LeafKey;
use walk::{Leaves, Walker};

use crate::{Error, Metadata};

/// Metadata in RFC-0078's form: its type leaves, their merkle tree and its
/// extrinsic metadata. Build it once per runtime; digests and proofs are
/// then cheap.
pub struct Merkleized {
    leaves: Vec<(LeafKey, Type)>,
    extrinsic: ExtrinsicMetadata,
    tree: MerkleTree,
}

/// A signed extrinsic cut into the parts a proof is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtrinsicParts<'a> {
    /// The call.
    pub call: &'a [u8],
    /// The signed extensions' bytes carried in the extrinsic (era, nonce,
    /// tip, …), in extension order.
    pub included_in_extrinsic: &'a [u8],
}

impl Merkleized {
    /// The RFC's form of this metadata.
    ///
    /// # Errors
    ///
    /// [`Error::Digest`] for V9–V13 metadata, and for metadata whose
    /// extrinsic types are missing or that the RFC's type model cannot
    /// express (a compact over a non-integer, a bit sequence without a
    /// `u8`–`u64` store or a `Lsb0`/`Msb0` order).
    pub fn new(metadata: &Metadata) -> Result<Self, Error> {
        let shaped = shape::shape(metadata)?;
        let tree = MerkleTree::new(shaped.leaves.iter().map(|(_, t)| t));
        Ok(Merkleized {
            leaves: shaped.leaves,
            extrinsic: shaped.extrinsic,
            tree,
        })
    }

    /// The leaves of the types tree, in tree order.
    pub fn types(&self) -> impl ExactSizeIterator<Item = &Type> {
        self.leaves.iter().map(|(_, t)| t)
    }

    /// The root of the types tree.
    pub fn types_tree_root(&self) -> Hash {
        self.tree.root()
    }

    /// The extrinsic metadata in RFC types.
    pub fn extrinsic_metadata(&self) -> &ExtrinsicMetadata {
        &self.extrinsic
    }

    /// The digest with these chain facts; its [`MetadataDigest::hash`] is
    /// the metadata hash.
    pub fn digest(&self, extra: ExtraInfo) -> MetadataDigest {
        MetadataDigest {
            types_tree_root: self.types_tree_root(),
            extrinsic_metadata_hash: types::hash_of(&self.extrinsic),
            extra,
        }
    }

    /// The proof for a signed extrinsic given in parts: the types its call
    /// uses (read from `call`), every type below the address and signature
    /// types, and the types the extensions' bytes use, each extension
    /// reading its part of `included_in_extrinsic` and then of
    /// `included_in_signed_data` (the bytes only signed: spec and
    /// transaction versions, genesis and era block hashes, …).
    ///
    /// # Errors
    ///
    /// [`Error::Digest`] when the bytes do not read as the types say
    /// (unknown variant, truncated, invalid compact, …) or bytes are left
    /// over in any of the three.
    pub fn proof_for_extrinsic_parts(
        &self,
        call: &[u8],
        included_in_extrinsic: &[u8],
        included_in_signed_data: &[u8],
    ) -> Result<Proof, Error> {
        let leaves = Leaves::new(&self.leaves);
        let mut used = BTreeSet::new();
        let mut walker = Walker::new(&leaves, &mut used);
        let mut input = call;
        walker
            .read(self.extrinsic.call_ty, &mut input)
            .map_err(|e| within("the call", e))?;
        left_over(input, "the call")?;
        let (mut extra, mut signed) = (included_in_extrinsic, included_in_signed_data);
        for ext in &self.extrinsic.signed_extensions {
            let name = &ext.identifier;
            walker
                .read(ext.included_in_extrinsic, &mut extra)
                .map_err(|e| within(&format!("{name}'s bytes in the extrinsic"), e))?;
            walker
                .read(ext.included_in_signed_data, &mut signed)
                .map_err(|e| within(&format!("{name}'s signed data"), e))?;
        }
        left_over(extra, "the extensions' bytes in the extrinsic")?;
        left_over(signed, "the extensions' signed data")?;
        leaves.all_below(self.extrinsic.address_ty, &mut used)?;
        leaves.all_below(self.extrinsic.signature_ty, &mut used)?;
        self.proof_of(&leaves, &used)
    }

    /// Cuts a signed extrinsic (format version 4, with its compact length
    /// prefix, as a block holds it) into its call and the extensions' bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Digest`] for an unsigned extrinsic, another format version,
    /// a length prefix that does not match, or bytes that do not read as the
    /// address, signature and extension types.
    pub fn split_extrinsic<'x>(&self, extrinsic: &'x [u8]) -> Result<ExtrinsicParts<'x>, Error> {
        let mut input = extrinsic;
        let len = Compact::<u32>::decode(&mut input)
            .map_err(|_| Error::Digest("invalid extrinsic length prefix".into()))?;
        if len.0 as usize != input.len() {
            return Err(Error::Digest(format!(
                "the extrinsic's length prefix says {} bytes, {} follow",
                len.0,
                input.len()
            )));
        }
        let (&version, rest) = input
            .split_first()
            .ok_or_else(|| Error::Digest("empty extrinsic".into()))?;
        if version != 0x84 {
            return Err(Error::Digest(format!(
                "not a signed version-4 extrinsic (version byte {version:#04x})"
            )));
        }
        input = rest;
        let leaves = Leaves::new(&self.leaves);
        let mut ignored = BTreeSet::new();
        let mut walker = Walker::new(&leaves, &mut ignored);
        walker
            .read(self.extrinsic.address_ty, &mut input)
            .map_err(|e| within("the address", e))?;
        walker
            .read(self.extrinsic.signature_ty, &mut input)
            .map_err(|e| within("the signature", e))?;
        let extensions_start = input;
        for ext in &self.extrinsic.signed_extensions {
            walker
                .read(ext.included_in_extrinsic, &mut input)
                .map_err(|e| within(&ext.identifier, e))?;
        }
        let taken = extensions_start.len() - input.len();
        Ok(ExtrinsicParts {
            call: input,
            included_in_extrinsic: &extensions_start[..taken],
        })
    }

    fn proof_of(&self, leaves: &Leaves<'_>, used: &BTreeSet<LeafKey>) -> Result<Proof, Error> {
        let positions = used
            .iter()
            .map(|key| {
                leaves
                    .position(*key)
                    .ok_or_else(|| Error::Digest(format!("no leaf for type {key:?}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let (indexes, nodes) = self.tree.proof(&positions)?;
        let first_leaf = self.leaves.len().saturating_sub(1);
        Ok(Proof {
            leaves: indexes
                .iter()
                .map(|i| self.leaves[i - first_leaf].1.clone())
                .collect(),
            leaf_indices: indexes
                .iter()
                .map(|&i| u32::try_from(i).map_err(|_| Error::Digest("tree too large".into())))
                .collect::<Result<_, _>>()?,
            nodes,
        })
    }
}

fn within(what: &str, e: Error) -> Error {
    match e {
        Error::Digest(m) => Error::Digest(format!("{what}: {m}")),
        other => other,
    }
}

fn left_over(rest: &[u8], what: &str) -> Result<(), Error> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(Error::Digest(format!(
            "{} bytes left over after {what}",
            rest.len()
        )))
    }
}

/// The RFC-0078 digest of this metadata with these chain facts.
///
/// # Errors
///
/// As [`Merkleized::new`] and [`ChainInfo::extra_info`].
pub fn metadata_digest(metadata: &Metadata, chain: &ChainInfo) -> Result<MetadataDigest, Error> {
    let extra = chain.extra_info(metadata)?;
    Ok(Merkleized::new(metadata)?.digest(extra))
}

/// The 32-byte metadata hash (what `CheckMetadataHash` signs): the hash of
/// [`metadata_digest`].
///
/// # Errors
///
/// As [`metadata_digest`].
pub fn metadata_hash(metadata: &Metadata, chain: &ChainInfo) -> Result<Hash, Error> {
    metadata_digest(metadata, chain).map(|d| d.hash())
}

/// What an offline signer (the Ledger generic app) needs to decode and
/// check one signed extrinsic given in parts: the [`Proof`] (see
/// [`Merkleized::proof_for_extrinsic_parts`]), the [`ExtrinsicMetadata`] and
/// the [`ExtraInfo`], SCALE-encoded one after the other, from which it
/// recomputes the metadata hash. The same bytes as bittensor-core's
/// `generate_extrinsic_proof`.
///
/// # Errors
///
/// As [`Merkleized::new`], [`ChainInfo::extra_info`] and
/// [`Merkleized::proof_for_extrinsic_parts`].
pub fn extrinsic_proof(
    metadata: &Metadata,
    chain: &ChainInfo,
    call: &[u8],
    included_in_extrinsic: &[u8],
    included_in_signed_data: &[u8],
) -> Result<Vec<u8>, Error> {
    let extra = chain.extra_info(metadata)?;
    let merkleized = Merkleized::new(metadata)?;
    let proof = merkleized.proof_for_extrinsic_parts(
        call,
        included_in_extrinsic,
        included_in_signed_data,
    )?;
    let mut out = proof.encode();
    merkleized.extrinsic.encode_to(&mut out);
    extra.encode_to(&mut out);
    Ok(out)
}
