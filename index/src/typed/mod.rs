//! Typed tables: one table per event variant and per call of a runtime
//! (`Balances.Transfer`, `Staking.payout_stakers` …), each row's place
//! (block, extrinsic, position, runtime) then one column per field, in
//! Arrow's own types, derived from the runtime's type registry.
//!
//! | registry type | column |
//! |---|---|
//! | `u8`…`u64`, `i8`…`i64`, `Compact` of them | the Arrow integer of that width |
//! | `u128`, `i128`, `u256`, `i256`, `Compact<u128>` | `Decimal128(38, 0)` + `<name>__text` ([`wide`]) |
//! | `bool` | Boolean |
//! | `str`, `char`, bit sequences | Utf8 |
//! | `AccountId32` | Utf8: SS58 in the chain's format |
//! | `Vec<u8>` | Binary |
//! | `[u8; N]`, `H256`, 20-byte accounts | FixedSizeBinary(N) |
//! | `Option<T>` | T, NULL for `None` |
//! | `Vec<T>`, `[T; N]`, `BTreeMap<K, V>` (`(K, V)` structs), flag sets | List |
//! | struct, tuple (`_0`, `_1` …) | Struct |
//! | enum without data | Dictionary(Int32, Utf8) of the variant name |
//! | enum with data, `Result` | Struct of `variant` + one column per variant with data |
//! | recursive, deeper than 8, wider than 256 columns, FRAME specials | Utf8 JSON |
//!
//! Accounts are SS58 text only, without their 32 raw bytes beside them:
//! within one chain the text is one-to-one with the bytes (the prefix is
//! the runtime's), so it joins and groups as the bytes would, and it is
//! what people search for; 32 more bytes per account per row would double
//! the account columns for a join across chains that the text's
//! decoding serves.
//!
//! - [`shape`]: a registry type as a column's shape; [`arrow_type`]: a
//!   shape's Arrow type; [`schema`]: a runtime's tables and their schemas.
//! - [`column`](mod@column): builders of a shape's Arrow arrays;
//!   [`append`]: a decoded value checked against its shape and appended;
//!   [`wide`]: wide integers; [`rows`]: events and calls into rows;
//!   `capacity`: builders sized from the thread's last run.
//! - `plan`: a column's type and shape compiled into steps that read its
//!   SCALE bytes; `direct`: events and calls read from their bytes into
//!   rows by those steps, without the dynamic layer's value in between.
//! - [`union`]: one schema per table over several runtimes;
//!   [`read`]: rows back into the dynamic layer's values.

pub mod append;
pub mod arrow_type;
pub(crate) mod capacity;
pub mod column;
pub(crate) mod direct;
pub mod naming;
pub(crate) mod plan;
pub mod read;
pub mod rows;
pub mod schema;
pub mod shape;
pub mod union;
pub mod wide;

use std::collections::HashMap;
use std::sync::Arc;

pub use naming::Naming;
pub use rows::{TableRows, TypedRows};
pub use schema::{Kind, TableDef};
pub use union::{TypedTable, UnionError};

use ferroscale_dynamic::registry::Registry;

/// The folder of the typed tables under the output folder; one folder per
/// kind (`events`, `calls`) under it, one per table under those.
pub const TYPED_DIR: &str = "typed";

/// The typed tables of one runtime, by kind, pallet and name.
#[derive(Debug, Default)]
pub struct Catalog {
    tables: Vec<Arc<TableDef>>,
    by_name: ByName,
}

/// Table indexes by kind, pallet and item, nested so that a lookup by
/// `&str` allocates nothing (it is made for every event and call).
type ByName = HashMap<Kind, HashMap<String, HashMap<String, usize>>>;

fn by_name(tables: &[Arc<TableDef>]) -> ByName {
    let mut by_name = ByName::new();
    for (i, t) in tables.iter().enumerate() {
        by_name
            .entry(t.kind)
            .or_default()
            .entry(t.pallet.clone())
            .or_default()
            .insert(t.item.clone(), i);
    }
    by_name
}

impl Catalog {
    /// The tables of the runtime loaded in `registry` ([`schema::tables`]).
    pub fn new(registry: &Registry, spec_version: u32) -> Catalog {
        let tables: Vec<Arc<TableDef>> = schema::tables(registry, spec_version)
            .into_iter()
            .map(Arc::new)
            .collect();
        let by_name = by_name(&tables);
        Catalog { tables, by_name }
    }

    /// A catalog of the given tables (tests: a runtime's tables changed).
    #[cfg(test)]
    pub(crate) fn from_tables(tables: Vec<TableDef>) -> Catalog {
        let tables: Vec<Arc<TableDef>> = tables.into_iter().map(Arc::new).collect();
        let by_name = by_name(&tables);
        Catalog { tables, by_name }
    }

    /// Every table, events first (pallets in metadata order, items by index).
    pub fn tables(&self) -> &[Arc<TableDef>] {
        &self.tables
    }

    /// The table of `pallet`'s event or call `item`.
    pub fn get(&self, kind: Kind, pallet: &str, item: &str) -> Option<Arc<TableDef>> {
        self.index(kind, pallet, item)
            .map(|i| self.tables[i].clone())
    }

    /// The index in [`Catalog::tables`] of `pallet`'s event or call `item`.
    pub fn index(&self, kind: Kind, pallet: &str, item: &str) -> Option<usize> {
        self.by_name.get(&kind)?.get(pallet)?.get(item).copied()
    }
}
