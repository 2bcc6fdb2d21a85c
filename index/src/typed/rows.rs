//! Decoded events and calls appended to the rows of their typed tables.
//!
//! The values are the ones the generic tables are written from (the
//! dynamic layer's [`Document`](ferroscale_dynamic::Document) of each
//! block's `System.Events` and of each extrinsic): nothing is decoded a
//! second time. Each field is appended to its column's builder as it is
//! read ([`super::append`]); a value that does not fit its column is
//! taken back from every column of its row, which becomes an `errors` row
//! naming the block, the item, the table and the column.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, UInt32Array, UInt64Array};
use arrow_schema::ArrowError;
use ferroscale_dynamic::document::Kind as ValueKind;
use ferroscale_dynamic::ValueRef;

use super::capacity;
use super::column::Builder;
use super::schema::{Kind, Layout, TableDef};
use super::Catalog;
use crate::call_tree::{call_parts, nested_calls};
use crate::columns::TextColumn;

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
    /// (spec, index in its [`Catalog`]) → index in `tables`.
    at: HashMap<(u32, usize), usize>,
    /// Events and calls that did not become typed rows (each an `errors`
    /// row instead).
    pub misfits: u64,
    /// The input bytes of the run of blocks these rows are of (0: unknown),
    /// by which a table's builders are sized up front (`capacity`).
    run_bytes: usize,
}

/// The rows of one typed table of one runtime.
#[derive(Clone, Debug)]
pub struct TableRows {
    /// The table.
    pub def: Arc<TableDef>,
    block_number: Vec<u64>,
    block_hash: TextColumn,
    extrinsic_index: Vec<Option<u32>>,
    index: Vec<u32>,
    phase: TextColumn,
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
            block_hash: TextColumn::default(),
            extrinsic_index: Vec::new(),
            index: Vec::new(),
            phase: TextColumn::default(),
            columns,
        }
    }

    /// Makes room for `rows` more rows in the place columns.
    fn reserve_place(&mut self, rows: usize) {
        self.block_number.reserve(rows);
        // `0x` and 64 hex digits.
        self.block_hash.reserve_rows(rows, 66 * rows);
        self.extrinsic_index.reserve(rows);
        self.index.reserve(rows);
        if self.def.kind == Kind::Event {
            self.phase.reserve_rows(rows, 16 * rows);
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

    /// The table and its rows as a record batch of its schema.
    pub fn into_batch(self) -> (Arc<TableDef>, Result<RecordBatch, ArrowError>) {
        (self.def.clone(), self.into_record_batch())
    }

    /// The rows as a record batch of the table's schema.
    pub fn into_record_batch(self) -> Result<RecordBatch, ArrowError> {
        let n = self.len();
        let spec = self.def.spec_version;
        let mut arrays: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(self.block_number)),
            Arc::new(self.block_hash.into_array()?),
        ];
        match self.def.kind {
            Kind::Event => {
                arrays.push(Arc::new(UInt32Array::from(self.extrinsic_index)));
                arrays.push(Arc::new(UInt32Array::from(self.index)));
                arrays.push(Arc::new(self.phase.into_array()?));
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
    /// Rows of a run of blocks of `run_bytes` input bytes: each table's
    /// builders are made with room for what the thread's last run of the
    /// table needed, scaled by the runs' bytes (`capacity`).
    pub fn for_run(run_bytes: usize) -> TypedRows {
        TypedRows {
            run_bytes,
            ..TypedRows::default()
        }
    }

    /// The tables with rows, in the order first met.
    pub fn into_tables(self) -> Vec<TableRows> {
        if self.run_bytes > 0 {
            for (&key, &at) in &self.at {
                let t = &self.tables[at];
                capacity::remember(key, self.run_bytes, t.len(), &t.columns);
            }
        }
        self.tables.into_iter().filter(|t| !t.is_empty()).collect()
    }

    fn table(
        &mut self,
        place: &Place<'_>,
        kind: Kind,
        pallet: &str,
        item: &str,
    ) -> Option<&mut TableRows> {
        let index = place.catalog.index(kind, pallet, item)?;
        self.table_at(place, index).map(|(_, rows)| rows)
    }

    /// The rows of table `index` of the block's catalog (made when first
    /// met), with their position among these tables.
    pub(crate) fn table_at(
        &mut self,
        place: &Place<'_>,
        index: usize,
    ) -> Option<(usize, &mut TableRows)> {
        let key = (place.spec_version, index);
        let at = match self.at.get(&key) {
            Some(&at) => at,
            None => {
                let def = place.catalog.tables().get(index)?.clone();
                let mut rows = TableRows::new(def);
                if self.run_bytes > 0 {
                    let n = capacity::prepare(key, self.run_bytes, &mut rows.columns);
                    rows.reserve_place(n);
                }
                self.tables.push(rows);
                self.at.insert(key, self.tables.len() - 1);
                self.tables.len() - 1
            }
        };
        self.tables.get_mut(at).map(|rows| (at, rows))
    }

    /// The rows at position `at` ([`TypedRows::table_at`]).
    pub(crate) fn table_rows(&mut self, at: usize) -> &mut TableRows {
        &mut self.tables[at]
    }

    /// Keeps the first `rows` rows of the table at position `at`.
    pub(crate) fn truncate_table(&mut self, at: usize, rows: usize) {
        if let Some(t) = self.tables.get_mut(at) {
            t.truncate(rows);
        }
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
            match rows.push(
                place,
                extrinsic_index,
                i as u32,
                phase,
                record.get("attributes"),
            ) {
                Ok(()) => {}
                Err(error) => report(
                    &item,
                    &format!("typed table events/{}: {error}", rows.def.name()),
                ),
            }
        }
    }

    /// Appends the rows of extrinsic `extrinsic`'s call value and, when
    /// `nested` (the decoder built more calls than this one,
    /// [`ferroscale_dynamic::Document::calls`]), of every call nested in
    /// it, numbered in pre-order (0: its own call). Without `nested` the
    /// arguments are not searched for calls: in a block's 50 KB
    /// `ParaInherent.enter` that walk cost as much as its typed row.
    pub(crate) fn push_calls(
        &mut self,
        place: &Place<'_>,
        extrinsic: u32,
        call: ValueRef<'_, '_>,
        nested: bool,
        report: &mut Report<'_>,
    ) {
        let mut next = 0u32;
        self.push_call(place, extrinsic, call, nested, &mut next, report);
    }

    fn push_call(
        &mut self,
        place: &Place<'_>,
        extrinsic: u32,
        call: ValueRef<'_, '_>,
        nested: bool,
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
            Some(rows) => match rows.push(place, Some(extrinsic), index, "", Some(args)) {
                Ok(()) => {}
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
        if nested {
            nested_calls(args, &mut |inner| {
                self.push_call(place, extrinsic, inner, nested, next, report)
            });
        }
    }
}

impl TableRows {
    /// The data columns' builders (a row's fields are appended to them,
    /// then its place with [`TableRows::push_place`]).
    pub(crate) fn columns_mut(&mut self) -> &mut [Builder] {
        &mut self.columns
    }

    /// Appends a row's place columns, its data columns appended already.
    pub(crate) fn push_place(
        &mut self,
        place: &Place<'_>,
        extrinsic_index: Option<u32>,
        index: u32,
        phase: &str,
    ) {
        self.block_number.push(place.block_number);
        self.block_hash.push(place.block_hash);
        self.extrinsic_index.push(extrinsic_index);
        self.index.push(index);
        if self.def.kind == Kind::Event {
            self.phase.push(phase);
        }
    }

    /// Keeps the first `rows` rows (data columns appended past them too).
    pub(crate) fn truncate(&mut self, rows: usize) {
        self.block_number.truncate(rows);
        self.block_hash.truncate(rows);
        self.extrinsic_index.truncate(rows);
        self.index.truncate(rows);
        if self.def.kind == Kind::Event {
            self.phase.truncate(rows);
        }
        for b in &mut self.columns {
            b.truncate(rows);
        }
    }

    /// Appends one row: its place, and the fields of `value` (the event's
    /// or call's, found as `def.layout` says) to their columns; a value
    /// that does not fit appends nothing, and says why.
    pub(crate) fn push(
        &mut self,
        place: &Place<'_>,
        extrinsic_index: Option<u32>,
        index: u32,
        phase: &str,
        value: Option<ValueRef<'_, '_>>,
    ) -> Result<(), String> {
        append_fields(&self.def, &mut self.columns, value)?;
        self.push_place(place, extrinsic_index, index, phase);
        Ok(())
    }
}

/// Appends one row's fields (of `value`, found as `def.layout` says) to
/// `columns` (one builder per column of `def`), each checked against its
/// column; on error every column is as it was before.
pub fn append_fields(
    def: &TableDef,
    columns: &mut [Builder],
    value: Option<ValueRef<'_, '_>>,
) -> Result<(), String> {
    let defs = &def.columns;
    if let Some(v) = value {
        let fields = match def.layout {
            Layout::Dict | Layout::Tuple | Layout::Args => Some(v.len()),
            Layout::Single | Layout::Empty => None,
        };
        if fields.is_some_and(|n| n != defs.len()) {
            return Err(format!(
                "{} fields, the table has {} columns",
                v.len(),
                defs.len()
            ));
        }
    }
    let rows = columns.first().map_or(0, Builder::len);
    let mut appended = 0;
    let result = (|| {
        for (i, (c, b)) in defs.iter().zip(columns.iter_mut()).enumerate() {
            let found = value.and_then(|v| match def.layout {
                // Field `i` of as many (checked above).
                Layout::Dict => v.entries().and_then(|mut e| e.nth(i)).map(|(_, x)| x),
                Layout::Single => Some(v),
                Layout::Tuple => v.item(i).filter(|_| v.kind() == ValueKind::Tuple),
                Layout::Args => v.item(i).and_then(|a| a.get("value")),
                Layout::Empty => None,
            });
            let v = match (value, found) {
                (None, _) => return Err("no value".to_string()),
                (_, Some(v)) => v,
                (_, None) => {
                    return Err(format!("column {}: no value for field {i}", c.name));
                }
            };
            appended = i + 1;
            b.append(&c.shape, v)
                .map_err(|e| format!("column {}: {e}", c.name))?;
        }
        Ok(())
    })();
    if result.is_err() {
        // Take back what the columns before the misfit (and its own
        // nested parts) appended.
        for b in &mut columns[..appended] {
            b.truncate(rows);
        }
    }
    result
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
        let catalog = Catalog::from_tables(vec![def]);
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
