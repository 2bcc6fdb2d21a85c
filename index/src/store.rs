//! The decoded rows of the five tables, stored by column ([`Rows`]), and a
//! row of each read back ([`ExtrinsicRow`] …).
//!
//! A table's columns are the Arrow arrays to be: numbers in vectors, text in
//! [`TextColumn`]s that rows write into (see [`crate::columns`]), so turning
//! the rows into record batches ([`crate::tables::Tables::from_rows`]) hands
//! the buffers over instead of copying them. The columns of a table always
//! have the same number of rows: [`crate::rows`] appends a row to all of them
//! at once, only after everything that can fail about it has been read.

use crate::block::Block;
use crate::columns::{TextColumn, TextListColumn};

/// A row of the `blocks` table.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockRow<'a> {
    /// Block number.
    pub number: u64,
    /// Block hash, `"0x…"`.
    pub hash: &'a str,
    /// Runtime spec version.
    pub spec_version: u32,
    /// Extrinsics in the block (decoded or not).
    pub extrinsic_count: u32,
    /// Event records in `System.Events`; `None` when the source had no events
    /// or they did not decode.
    pub event_count: Option<u32>,
    /// The parent's hash, `"0x…"` (`None`: the source gave no header).
    pub parent_hash: Option<&'a str>,
    /// The state root, `"0x…"`.
    pub state_root: Option<&'a str>,
    /// The extrinsics root, `"0x…"`.
    pub extrinsics_root: Option<&'a str>,
    /// The digest's logs as a JSON list of `"0x…"` SCALE `DigestItem`s.
    pub digest: Option<&'a str>,
    /// The BABE or Aura slot.
    pub slot: Option<u64>,
    /// The BABE author's index in the authority set.
    pub author_index: Option<u32>,
    /// Milliseconds since the Unix epoch, from the block's `Timestamp.set`.
    pub timestamp: Option<u64>,
    /// Whether the block was final when fetched (`None`: unknown).
    pub finalized: Option<bool>,
}

/// A row of the `extrinsics` table.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtrinsicRow<'a> {
    /// Block number.
    pub block_number: u64,
    /// Position in the block.
    pub index: u32,
    /// Extrinsic format version (4 or 5).
    pub version: u8,
    /// Whether it carries a signature (format 4 signed).
    pub signed: bool,
    /// The signer: SS58 text, or the address value as JSON when it is not a plain account.
    pub address: Option<&'a str>,
    /// The signature value as JSON.
    pub signature: Option<&'a str>,
    /// `CheckNonce`.
    pub nonce: Option<u64>,
    /// `ChargeTransactionPayment`'s tip, exact decimal digits (a `u128`).
    pub tip: Option<&'a str>,
    /// `CheckMortality` as JSON (`"00"` immortal, else `{"period", "phase"}`).
    pub era: Option<&'a str>,
    /// `CheckMetadataHash`'s mode as JSON.
    pub mode: Option<&'a str>,
    /// Format 5 general extrinsics: the transaction-extension version.
    pub extension_version: Option<u8>,
    /// Every extension value of the extrinsic as one JSON object, keyed as
    /// the dynamic layer keys them (`era`, `nonce`, `tip`, `mode`, or the
    /// extension's identifier).
    pub extensions: Option<&'a str>,
    /// Call's pallet name.
    pub pallet: &'a str,
    /// Call name.
    pub call: &'a str,
    /// The call's arguments (`call_args`) as JSON.
    pub args: &'a str,
    /// Length in bytes without the compact length prefix.
    pub length: u32,
    /// `"0x…"` blake2-256 of the extrinsic.
    pub hash: &'a str,
    /// From `System.ExtrinsicSuccess` / `ExtrinsicFailed` in phase
    /// `ApplyExtrinsic(index)`; `None` without events.
    pub success: Option<bool>,
}

/// A row of the `calls` table: each call nested in an extrinsic's call
/// (batches, proxies, multisigs, sudo …), in pre-order. The extrinsic's own
/// call (index 0, depth 0) is its `extrinsics` row.
#[derive(Clone, Debug, PartialEq)]
pub struct CallRow<'a> {
    /// Block number.
    pub block_number: u64,
    /// The extrinsic's position in the block.
    pub extrinsic_index: u32,
    /// Position of this call in the extrinsic's pre-order walk (0, the
    /// extrinsic's own call, has no row here).
    pub index: u32,
    /// `index` of the call whose arguments hold this one (0: the extrinsic's call).
    pub parent_index: u32,
    /// Nesting depth (1: directly in the extrinsic's call).
    pub depth: u32,
    /// Pallet name.
    pub pallet: &'a str,
    /// Call name.
    pub name: &'a str,
    /// The call's arguments (`call_args`) as JSON.
    pub args: &'a str,
    /// `"0x…"` blake2-256 of the call's bytes.
    pub call_hash: &'a str,
}

/// A row of the `events` table.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRow<'a> {
    /// Block number.
    pub block_number: u64,
    /// Position in `System.Events`.
    pub index: u32,
    /// Phase name: `ApplyExtrinsic`, `Finalization`, `Initialization`.
    pub phase: &'a str,
    /// The extrinsic index of an `ApplyExtrinsic` phase.
    pub extrinsic_index: Option<u32>,
    /// Pallet name.
    pub pallet: &'a str,
    /// Event name.
    pub name: &'a str,
    /// The event's attributes as JSON.
    pub args: &'a str,
    /// Topics, `"0x…"` each.
    pub topics: Vec<&'a str>,
}

/// A row of the `errors` table: an item that did not decode.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorRow<'a> {
    /// Block number.
    pub block_number: u64,
    /// The block's spec version (the runtime the bytes were decoded with).
    pub spec_version: u32,
    /// What failed: `extrinsic N`, `events`, `block`.
    pub item: &'a str,
    /// Why.
    pub error: &'a str,
    /// The item's bytes as `0x` hex, so that the row can be decoded again
    /// later without the node.
    pub bytes: &'a str,
}

/// The `blocks` table's columns.
#[derive(Clone, Default)]
pub struct BlockRows {
    pub(crate) number: Vec<u64>,
    pub(crate) hash: TextColumn,
    pub(crate) spec_version: Vec<u32>,
    pub(crate) extrinsic_count: Vec<u32>,
    pub(crate) event_count: Vec<Option<u32>>,
    pub(crate) parent_hash: TextColumn,
    pub(crate) state_root: TextColumn,
    pub(crate) extrinsics_root: TextColumn,
    pub(crate) digest: TextColumn,
    pub(crate) slot: Vec<Option<u64>>,
    pub(crate) author_index: Vec<Option<u32>>,
    pub(crate) timestamp: Vec<Option<u64>>,
    pub(crate) finalized: Vec<Option<bool>>,
}

/// The `extrinsics` table's columns.
#[derive(Clone, Default)]
pub struct ExtrinsicRows {
    pub(crate) block_number: Vec<u64>,
    pub(crate) index: Vec<u32>,
    pub(crate) version: Vec<u8>,
    pub(crate) signed: Vec<bool>,
    pub(crate) address: TextColumn,
    pub(crate) signature: TextColumn,
    pub(crate) nonce: Vec<Option<u64>>,
    pub(crate) tip: TextColumn,
    pub(crate) era: TextColumn,
    pub(crate) mode: TextColumn,
    pub(crate) extension_version: Vec<Option<u8>>,
    pub(crate) extensions: TextColumn,
    pub(crate) pallet: TextColumn,
    pub(crate) call: TextColumn,
    pub(crate) args: TextColumn,
    pub(crate) length: Vec<u32>,
    pub(crate) hash: TextColumn,
    pub(crate) success: Vec<Option<bool>>,
}

/// The `calls` table's columns.
#[derive(Clone, Default)]
pub struct CallRows {
    pub(crate) block_number: Vec<u64>,
    pub(crate) extrinsic_index: Vec<u32>,
    pub(crate) index: Vec<u32>,
    pub(crate) parent_index: Vec<u32>,
    pub(crate) depth: Vec<u32>,
    pub(crate) pallet: TextColumn,
    pub(crate) name: TextColumn,
    pub(crate) args: TextColumn,
    pub(crate) call_hash: TextColumn,
}

/// The `events` table's columns.
#[derive(Clone, Default)]
pub struct EventRows {
    pub(crate) block_number: Vec<u64>,
    pub(crate) index: Vec<u32>,
    pub(crate) phase: TextColumn,
    pub(crate) extrinsic_index: Vec<Option<u32>>,
    pub(crate) pallet: TextColumn,
    pub(crate) name: TextColumn,
    pub(crate) args: TextColumn,
    pub(crate) topics: TextListColumn,
}

/// The `errors` table's columns.
#[derive(Clone, Default)]
pub struct ErrorRows {
    pub(crate) block_number: Vec<u64>,
    pub(crate) spec_version: Vec<u32>,
    pub(crate) item: TextColumn,
    pub(crate) error: TextColumn,
    pub(crate) bytes: TextColumn,
}

/// What every table's columns answer: how many rows, and row `i` read back.
macro_rules! table_rows {
    ($rows:ty, $row:ident, $first:ident, |$t:ident, $i:ident| $read:expr) => {
        impl $rows {
            /// Number of rows.
            pub fn len(&self) -> usize {
                self.$first.len()
            }

            /// Whether there are no rows.
            pub fn is_empty(&self) -> bool {
                self.$first.is_empty()
            }

            /// Row `i`, read back (`None` past the end).
            pub fn get(&self, i: usize) -> Option<$row<'_>> {
                if i >= self.len() {
                    return None;
                }
                let ($t, $i) = (self, i);
                Some($read)
            }

            /// Every row, in order.
            pub fn iter(&self) -> impl Iterator<Item = $row<'_>> + '_ {
                (0..self.len()).filter_map(move |i| self.get(i))
            }
        }

        impl std::fmt::Debug for $rows {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }
    };
}

table_rows!(BlockRows, BlockRow, number, |t, i| BlockRow {
    number: t.number[i],
    hash: t.hash.get(i).unwrap_or_default(),
    spec_version: t.spec_version[i],
    extrinsic_count: t.extrinsic_count[i],
    event_count: t.event_count[i],
    parent_hash: t.parent_hash.get(i),
    state_root: t.state_root.get(i),
    extrinsics_root: t.extrinsics_root.get(i),
    digest: t.digest.get(i),
    slot: t.slot[i],
    author_index: t.author_index[i],
    timestamp: t.timestamp[i],
    finalized: t.finalized[i],
});

table_rows!(ExtrinsicRows, ExtrinsicRow, block_number, |t, i| {
    ExtrinsicRow {
        block_number: t.block_number[i],
        index: t.index[i],
        version: t.version[i],
        signed: t.signed[i],
        address: t.address.get(i),
        signature: t.signature.get(i),
        nonce: t.nonce[i],
        tip: t.tip.get(i),
        era: t.era.get(i),
        mode: t.mode.get(i),
        extension_version: t.extension_version[i],
        extensions: t.extensions.get(i),
        pallet: t.pallet.get(i).unwrap_or_default(),
        call: t.call.get(i).unwrap_or_default(),
        args: t.args.get(i).unwrap_or_default(),
        length: t.length[i],
        hash: t.hash.get(i).unwrap_or_default(),
        success: t.success[i],
    }
});

table_rows!(CallRows, CallRow, block_number, |t, i| CallRow {
    block_number: t.block_number[i],
    extrinsic_index: t.extrinsic_index[i],
    index: t.index[i],
    parent_index: t.parent_index[i],
    depth: t.depth[i],
    pallet: t.pallet.get(i).unwrap_or_default(),
    name: t.name.get(i).unwrap_or_default(),
    args: t.args.get(i).unwrap_or_default(),
    call_hash: t.call_hash.get(i).unwrap_or_default(),
});

table_rows!(EventRows, EventRow, block_number, |t, i| EventRow {
    block_number: t.block_number[i],
    index: t.index[i],
    phase: t.phase.get(i).unwrap_or_default(),
    extrinsic_index: t.extrinsic_index[i],
    pallet: t.pallet.get(i).unwrap_or_default(),
    name: t.name.get(i).unwrap_or_default(),
    args: t.args.get(i).unwrap_or_default(),
    topics: t.topics.get(i),
});

table_rows!(ErrorRows, ErrorRow, block_number, |t, i| ErrorRow {
    block_number: t.block_number[i],
    spec_version: t.spec_version[i],
    item: t.item.get(i).unwrap_or_default(),
    error: t.error.get(i).unwrap_or_default(),
    bytes: t.bytes.get(i).unwrap_or_default(),
});

impl BlockRows {
    pub(crate) fn push(&mut self, row: BlockRow<'_>) {
        self.number.push(row.number);
        self.hash.push(row.hash);
        self.spec_version.push(row.spec_version);
        self.extrinsic_count.push(row.extrinsic_count);
        self.event_count.push(row.event_count);
        for (column, text) in [
            (&mut self.parent_hash, row.parent_hash),
            (&mut self.state_root, row.state_root),
            (&mut self.extrinsics_root, row.extrinsics_root),
            (&mut self.digest, row.digest),
        ] {
            match text {
                Some(text) => column.push(text),
                None => column.push_null(),
            }
        }
        self.slot.push(row.slot);
        self.author_index.push(row.author_index);
        self.timestamp.push(row.timestamp);
        self.finalized.push(row.finalized);
    }
}

impl ErrorRows {
    /// A row for `item` of block `block_number` (of `spec_version`), which
    /// failed with `error`; its `bytes` are kept as hex.
    pub(crate) fn push(
        &mut self,
        block_number: u64,
        spec_version: u32,
        item: &str,
        error: &str,
        bytes: &[u8],
    ) {
        self.block_number.push(block_number);
        self.spec_version.push(spec_version);
        self.item.push(item);
        self.error.push(error);
        self.bytes
            .push(&ferroscale_core::hex::encode_prefixed(bytes));
    }
}

/// Rows of every table for some blocks, by column.
#[derive(Clone, Debug, Default)]
pub struct Rows {
    /// `blocks` rows.
    pub blocks: BlockRows,
    /// `extrinsics` rows.
    pub extrinsics: ExtrinsicRows,
    /// `calls` rows.
    pub calls: CallRows,
    /// `events` rows.
    pub events: EventRows,
    /// `errors` rows.
    pub errors: ErrorRows,
    /// The typed tables' rows, when they are wanted (`None`: not built).
    pub typed: Option<crate::typed::TypedRows>,
}

impl Rows {
    /// Rows with room for the JSON arguments of `blocks`, which is most of
    /// their text: three times their extrinsics' and events' bytes (about
    /// what real blocks render to). A column grown by doubling instead
    /// copies itself at every step, and for a batch of large blocks those
    /// copies (and the page faults of the memory they leave behind) took as
    /// long as the decode.
    pub fn for_blocks<B: AsRef<[u8]>>(blocks: &[Block<B>]) -> Rows {
        let mut rows = Rows::default();
        let extrinsics: usize = blocks
            .iter()
            .flat_map(|b| &b.extrinsics)
            .map(|x| x.as_ref().len())
            .sum();
        let events: usize = blocks
            .iter()
            .filter_map(|b| b.events.as_ref())
            .map(|e| e.as_ref().len())
            .sum();
        rows.extrinsics.args.reserve(extrinsics.saturating_mul(3));
        rows.events.args.reserve(events.saturating_mul(3));
        rows
    }
}
