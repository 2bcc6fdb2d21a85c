//! Decoded events and calls appended to the rows of their typed tables.
//!
//! The values are the ones the generic tables are written from (the
//! dynamic layer's [`Document`](ferroscale_dynamic::Document) of each
//! block's `System.Events` and of each extrinsic): nothing is decoded a
//! second time. Each row's cells are all built before any is appended
//! ([`cell`]), so a value that does not fit its column appends nothing
//! and becomes an `errors` row naming the block, the item, the table and
//! the column.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray, UInt32Array, UInt64Array};
use arrow_schema::ArrowError;
use ferroscale_dynamic::document::Kind as ValueKind;
use ferroscale_dynamic::ValueRef;

use super::cell::{cell, Cell};
use super::column::Builder;
use super::schema::{Kind, Layout, TableDef};
use super::Catalog;
use crate::call_tree::{call_parts, nested_calls};

/// Where an item that does not fit its typed table is reported: the item
/// and why.
pub(crate) type Report<'a> = dyn FnMut(&Item, &str) + 'a;

/// An event or call that did not become a typed row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// The block's event record at this index.
    Event(usize),
    /// A call of an extrinsic: the extrinsic's index, the call's (pre-order,
    /// 0 the extrinsic's own call).
    Call {
        /// The extrinsic's index in its block.
        extrinsic: u32,
        /// The call's index in the extrinsic's call tree.
        call: u32,
    },
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Item::Event(i) => write!(f, "event {i}"),
            Item::Call { extrinsic, call } => write!(f, "extrinsic {extrinsic} call {call}"),
        }
    }
}

/// The typed rows of a run of blocks: one [`TableRows`] per table and
/// runtime, in the order first met.
#[derive(Clone, Debug, Default)]
pub struct TypedRows {
    tables: Vec<TableRows>,
    /// (kind, pallet, item, spec) → index in `tables`.
    at: HashMap<(Kind, String, String, u32), usize>,
    /// Events and calls that did not become typed rows (each an `errors`
    /// row instead).
    pub misfits: u64,
}

/// The rows of one typed table of one runtime.
#[derive(Clone, Debug)]
pub struct TableRows {
    /// The table.
    pub def: Arc<TableDef>,
    block_number: Vec<u64>,
    block_hash: Vec<String>,
    extrinsic_index: Vec<Option<u32>>,
    index: Vec<u32>,
    phase: Vec<String>,
    columns: Vec<Builder>,
}

/// Where a row is: its block and runtime, its extrinsic, its position.
pub(crate) struct Place<'a> {
    pub block_number: u64,
    pub block_hash: &'a str,
    pub spec_version: u32,
    /// The typed tables of the block's runtime.
    pub catalog: &'a Catalog,
}

impl TableRows {
    pub(crate) fn new(def: Arc<TableDef>) -> TableRows {
        let columns = def.columns.iter().map(|c| Builder::new(&c.shape)).collect();
        TableRows {
            def,
            block_number: Vec::new(),
            block_hash: Vec::new(),
            extrinsic_index: Vec::new(),
            index: Vec::new(),
            phase: Vec::new(),
            columns,
        }
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.block_number.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.block_number.is_empty()
    }

    /// The rows as a record batch of the table's schema.
    pub fn into_record_batch(self) -> Result<RecordBatch, ArrowError> {
        let n = self.len();
        let spec = self.def.spec_version;
        let mut arrays: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(self.block_number)),
            Arc::new(StringArray::from(self.block_hash)),
        ];
        match self.def.kind {
            Kind::Event => {
                arrays.push(Arc::new(UInt32Array::from(self.extrinsic_index)));
                arrays.push(Arc::new(UInt32Array::from(self.index)));
                arrays.push(Arc::new(StringArray::from(self.phase)));
            }
            Kind::Call => {
                let x: Vec<u32> = self
                    .extrinsic_index
                    .into_iter()
                    .map(Option::unwrap_or_default)
                    .collect();
                arrays.push(Arc::new(UInt32Array::from(x)));
                arrays.push(Arc::new(UInt32Array::from(self.index)));
            }
        }
        arrays.push(Arc::new(UInt32Array::from(vec![spec; n])));
        for b in self.columns {
            arrays.extend(b.finish()?);
        }
        RecordBatch::try_new(self.def.schema(), arrays)
    }
}

impl TypedRows {
    /// The tables with rows, in the order first met.
    pub fn into_tables(self) -> Vec<TableRows> {
        self.tables.into_iter().filter(|t| !t.is_empty()).collect()
    }

    fn table(
        &mut self,
        place: &Place<'_>,
        kind: Kind,
        pallet: &str,
        item: &str,
    ) -> Option<&mut TableRows> {
        let key = (
            kind,
            pallet.to_string(),
            item.to_string(),
            place.spec_version,
        );
        let at = match self.at.get(&key) {
            Some(&at) => at,
            None => {
                let def = place.catalog.get(kind, pallet, item)?;
                self.tables.push(TableRows::new(def));
                self.at.insert(key, self.tables.len() - 1);
                self.tables.len() - 1
            }
        };
        self.tables.get_mut(at)
    }

    /// Appends the rows of a decoded `System.Events` value (the generic
    /// `events` table's rows were taken from it without error); an event
    /// that does not fit its table is reported instead.
    pub(crate) fn push_events(
        &mut self,
        place: &Place<'_>,
        events: ValueRef<'_, '_>,
        report: &mut Report<'_>,
    ) {
        for (i, record) in events.items().into_iter().flatten().enumerate() {
            let text = |k: &str| record.get(k).and_then(|v| v.as_str());
            let (Some(pallet), Some(name), Some(phase)) =
                (text("module_id"), text("event_id"), text("phase"))
            else {
                continue;
            };
            let extrinsic_index = record
                .get("extrinsic_idx")
                .and_then(|x| x.as_u128())
                .and_then(|x| u32::try_from(x).ok());
            let item = Item::Event(i);
            let Some(rows) = self.table(place, Kind::Event, pallet, name) else {
                report(
                    &item,
                    &format!("typed table events/{pallet}.{name}: not in the runtime's event enum"),
                );
                continue;
            };
            match cells(&rows.def, record.get("attributes")) {
                Ok(cells) => rows.push(place, extrinsic_index, i as u32, phase, &cells),
                Err(error) => report(
                    &item,
                    &format!("typed table events/{}: {error}", rows.def.name()),
                ),
            }
        }
    }

    /// Appends the rows of extrinsic `extrinsic`'s call value and of every
    /// call nested in it, numbered in pre-order (0: its own call).
    pub(crate) fn push_calls(
        &mut self,
        place: &Place<'_>,
        extrinsic: u32,
        call: ValueRef<'_, '_>,
        report: &mut Report<'_>,
    ) {
        let mut next = 0u32;
        self.push_call(place, extrinsic, call, &mut next, report);
    }

    fn push_call(
        &mut self,
        place: &Place<'_>,
        extrinsic: u32,
        call: ValueRef<'_, '_>,
        next: &mut u32,
        report: &mut Report<'_>,
    ) {
        let Some((pallet, name, args)) = call_parts(call) else {
            return;
        };
        let index = *next;
        *next += 1;
        let item = Item::Call {
            extrinsic,
            call: index,
        };
        match self.table(place, Kind::Call, pallet, name) {
            Some(rows) => match cells(&rows.def, Some(args)) {
                Ok(cells) => rows.push(place, Some(extrinsic), index, "", &cells),
                Err(error) => report(
                    &item,
                    &format!("typed table calls/{}: {error}", rows.def.name()),
                ),
            },
            None => report(
                &item,
                &format!("typed table calls/{pallet}.{name}: not in the runtime's call enum"),
            ),
        }
        nested_calls(args, &mut |inner| {
            self.push_call(place, extrinsic, inner, next, report)
        });
    }
}

impl TableRows {
    /// Appends one row of checked cells (one per column).
    pub(crate) fn push(
        &mut self,
        place: &Place<'_>,
        extrinsic_index: Option<u32>,
        index: u32,
        phase: &str,
        cells: &[Cell],
    ) {
        self.block_number.push(place.block_number);
        self.block_hash.push(place.block_hash.to_string());
        self.extrinsic_index.push(extrinsic_index);
        self.index.push(index);
        if self.def.kind == Kind::Event {
            self.phase.push(phase.to_string());
        }
        for (b, c) in self.columns.iter_mut().zip(cells) {
            b.push(c);
        }
    }
}

/// The cells of one row: each field's value (found as `def.layout` says)
/// checked against its column.
pub fn cells(def: &TableDef, value: Option<ValueRef<'_, '_>>) -> Result<Vec<Cell>, String> {
    let columns = &def.columns;
    let field = |i: usize| -> Result<ValueRef<'_, '_>, String> {
        let v = value.ok_or("no value")?;
        let c = &columns[i];
        let found = match def.layout {
            Layout::Dict => v.entries().and_then(|mut e| e.nth(i)).map(|(_, x)| x),
            Layout::Single => Some(v),
            Layout::Tuple => v.item(i).filter(|_| v.kind() == ValueKind::Tuple),
            Layout::Args => v.item(i).and_then(|a| a.get("value")),
            Layout::Empty => None,
        };
        found.ok_or_else(|| format!("column {}: no value for field {i}", c.name))
    };
    match (def.layout, value) {
        (Layout::Dict, Some(v)) if v.len() != columns.len() => {
            return Err(format!(
                "{} fields, the table has {} columns",
                v.len(),
                columns.len()
            ))
        }
        (Layout::Tuple | Layout::Args, Some(v)) if v.len() != columns.len() => {
            return Err(format!(
                "{} fields, the table has {} columns",
                v.len(),
                columns.len()
            ))
        }
        _ => {}
    }
    (0..columns.len())
        .map(|i| {
            let v = field(i)?;
            cell(&columns[i].shape, v).map_err(|e| format!("column {}: {e}", columns[i].name))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typed::schema::Column;
    use crate::typed::shape::Shape;
    use ferroscale_dynamic::registry::Registry;
    use ferroscale_dynamic::Document;

    /// Block 18,468,942's events, decoded, handed to `rows` with `catalog`;
    /// the reports (item, error).
    fn reports(catalog: &Catalog) -> (TypedRows, Vec<(String, String)>) {
        let metadata = ferroscale_fixtures::read("metadata/polkadot-v14-spec1000001.scale");
        let mut registry = Registry::new();
        registry.load_metadata(&metadata).unwrap();
        registry.set_ss58_format(Some(0));
        // `System.Events`' value type.
        let md = ferroscale_metadata::Metadata::load(&metadata).unwrap();
        let system = md.pallets.iter().find(|p| p.name == "System").unwrap();
        let entry = system.storage.as_ref().unwrap();
        let events = entry.entries.iter().find(|e| e.name == "Events").unwrap();
        let ty = registry.resolve(&events.value.to_string()).unwrap();
        let bytes = ferroscale_fixtures::read_hex("payloads/polkadot-block-18468942/events.hex");
        let mut doc = Document::new();
        doc.decode_into(&registry.context(), ty, &bytes).unwrap();
        let place = Place {
            block_number: 18_468_942,
            block_hash: "0x00",
            spec_version: 1_000_001,
            catalog,
        };
        let mut rows = TypedRows::default();
        let mut out = Vec::new();
        rows.push_events(&place, doc.root(), &mut |item, error| {
            out.push((item.to_string(), error.to_string()))
        });
        (rows, out)
    }

    #[test]
    fn events_without_a_table_or_that_do_not_fit_it_are_reported_not_dropped() {
        let (rows, out) = reports(&Catalog::default());
        assert_eq!(out.len(), 58);
        assert!(rows.into_tables().is_empty());
        assert_eq!(out[0].0, "event 0");
        assert!(
            out[0].1.contains("not in the runtime's event enum"),
            "{out:?}"
        );

        // A table whose `amount` column is too narrow for the balances.
        let def = TableDef {
            kind: Kind::Event,
            pallet: "Balances".into(),
            item: "Withdraw".into(),
            spec_version: 1_000_001,
            layout: crate::typed::schema::Layout::Dict,
            columns: vec![
                Column {
                    name: "who".into(),
                    shape: Shape::Text,
                },
                Column {
                    name: "amount".into(),
                    shape: Shape::UInt(8),
                },
            ],
        };
        let catalog = Catalog {
            tables: vec![Arc::new(def)],
            by_name: [((Kind::Event, "Balances".into(), "Withdraw".into()), 0)].into(),
        };
        let (rows, out) = reports(&catalog);
        let misfits: Vec<_> = out
            .iter()
            .filter(|(_, e)| e.contains("events/Balances.Withdraw"))
            .collect();
        assert!(!misfits.is_empty());
        assert!(
            misfits[0].1.contains("column amount") && misfits[0].1.contains("does not fit"),
            "{misfits:?}"
        );
        // Nothing of a misfit row is appended.
        assert!(rows.into_tables().is_empty());
    }
}
