//! The typed tables read from the bytes by the runtimes' plans
//! ([`crate::typed::direct`]) against the same tables made from the
//! dynamic layer's values (the path the plans replace, still taken for a
//! runtime without plans): equal record batches and equal `errors` rows,
//! beside the generic tables and alone, on the real blocks, on those
//! blocks cut short and with bytes changed, with tables that do not fit
//! the values, and on generated events and calls of every call and event
//! of every V14–V16 fixture runtime.

use arrow_array::RecordBatch;
use ferroscale_dynamic::graph::min_size;
use ferroscale_dynamic::Document;
use ferroscale_test_support::Xorshift;

use crate::block::Block;
use crate::rows::tests::{block, narrowed_spec};
use crate::rows::{decode_block_typed, decode_block_typed_only_into};
use crate::spec::SpecDecoder;
use crate::store::Rows;
use crate::typed::direct::DirectPlan;
use crate::typed::TypedRows;

/// A runtime's decoder that reads the typed tables from the values (no plans).
fn from_values(spec: SpecDecoder) -> SpecDecoder {
    spec.direct
        .set(DirectPlan::default())
        .expect("no plans yet");
    spec
}

fn decoder(metadata: &str) -> Option<SpecDecoder> {
    SpecDecoder::from_metadata(&ferroscale_fixtures::read(metadata), None).ok()
}

/// What a block's typed tables are: each table's batch by name and
/// runtime, the `errors` rows (all, or the typed tables' alone), how many
/// misfits.
#[derive(Debug, PartialEq)]
struct Typed {
    tables: Vec<(String, u32, RecordBatch)>,
    errors: Vec<String>,
    misfits: u64,
}

fn typed_of(rows: Rows, typed_errors_only: bool) -> Typed {
    let errors = rows
        .errors
        .iter()
        .filter(|e| !typed_errors_only || e.error.starts_with("typed table "))
        .map(|e| format!("{e:?}"))
        .collect();
    let typed = rows.typed.expect("typed rows");
    let misfits = typed.misfits;
    let mut tables: Vec<_> = typed
        .into_tables()
        .into_iter()
        .map(|t| {
            let (name, spec) = (t.def.name(), t.def.spec_version);
            (name, spec, t.into_record_batch().expect("batch"))
        })
        .collect();
    tables.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    Typed {
        tables,
        errors,
        misfits,
    }
}

/// The typed tables alone (the plans' path without the generic tables).
fn typed_only(block: &Block, spec: &SpecDecoder) -> Typed {
    let mut rows = Rows {
        typed: Some(TypedRows::default()),
        ..Rows::default()
    };
    decode_block_typed_only_into(block, Some(spec), &mut Document::new(), &mut rows);
    typed_of(rows, true)
}

/// Checks the three paths agree on `block`; whether it had typed rows.
fn same(block: &Block, plans: &SpecDecoder, values: &SpecDecoder, what: &str) -> bool {
    let old = typed_of(decode_block_typed(block, Some(values)), false);
    let new = typed_of(decode_block_typed(block, Some(plans)), false);
    assert_eq!(new, old, "{what}: beside the generic tables");
    let old_typed = Typed {
        errors: old
            .errors
            .iter()
            .filter(|e| e.contains("error: \"typed table "))
            .cloned()
            .collect(),
        ..old
    };
    assert_eq!(typed_only(block, plans), old_typed, "{what}: alone");
    // Alone, for a runtime without plans: from the values decoded there.
    assert_eq!(
        typed_only(block, values),
        old_typed,
        "{what}: alone, from values"
    );
    !old_typed.tables.is_empty()
}

const BLOCKS: [(&str, &str, u64, u32); 2] = [
    (
        "payloads/polkadot-block-18468942",
        "metadata/polkadot-v14-spec1000001.scale",
        18_468_942,
        1_000_001,
    ),
    (
        "payloads/polkadot-block-10000000",
        "metadata/polkadot-v14-spec9180.scale",
        10_000_000,
        9180,
    ),
];

fn fixture_block(dir: &str, number: u64, spec_version: u32) -> Block {
    let list: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(&format!(
        "{dir}/extrinsics.json"
    )))
    .expect("extrinsics.json");
    let events = format!("{dir}/events.hex");
    Block {
        number,
        hash: format!("0x{number:064x}"),
        spec_version,
        extrinsics: list
            .iter()
            .map(|h| ferroscale_fixtures::decode_hex(h).expect("hex"))
            .collect(),
        events: ferroscale_fixtures::entry(&events).map(|_| ferroscale_fixtures::read_hex(&events)),
        header: None,
        finalized: None,
    }
}

#[test]
fn the_plans_make_the_values_tables_on_every_real_block_and_on_damaged_ones() {
    for (dir, metadata, number, spec_version) in BLOCKS {
        let plans = decoder(metadata).expect("metadata");
        let values = from_values(decoder(metadata).expect("metadata"));
        assert!(plans.direct_plan().reads_events() && plans.direct_plan().reads_calls());
        let block = fixture_block(dir, number, spec_version);
        assert!(same(&block, &plans, &values, dir));
        // Damaged: each item cut short at many places, and bytes changed.
        let mut rng = Xorshift::new(number);
        let mut items: Vec<Vec<u8>> = block.extrinsics.clone();
        items.extend(block.events.clone());
        for (k, item) in items.iter().enumerate() {
            let is_events = block.events.is_some() && k == items.len() - 1;
            let mut cases = Vec::new();
            for _ in 0..12 {
                cases.push(item[..rng.below(item.len())].to_vec());
            }
            for _ in 0..24 {
                let mut changed = item.clone();
                for _ in 0..1 + rng.below(3) {
                    let at = rng.below(changed.len());
                    changed[at] = rng.next_u8();
                }
                cases.push(changed);
            }
            for bytes in cases {
                let mut damaged = block.clone();
                if is_events {
                    damaged.events = Some(bytes);
                } else {
                    damaged.extrinsics[k] = bytes;
                }
                same(&damaged, &plans, &values, &format!("{dir} item {k}"));
            }
        }
    }
}

#[test]
fn the_plans_report_the_values_misfits() {
    let plans = narrowed_spec();
    let values = from_values(narrowed_spec());
    let block = block();
    same(&block, &plans, &values, "narrowed tables");
    let rows = decode_block_typed(&block, Some(&plans));
    assert!(rows.typed.expect("typed").misfits > 1);
}

/// A SCALE compact length.
fn compact(n: usize, out: &mut Vec<u8>) {
    match n {
        0..=63 => out.push((n as u8) << 2),
        64..=16_383 => out.extend_from_slice(&(((n as u16) << 2) | 1).to_le_bytes()),
        _ => out.extend_from_slice(&(((n as u32) << 2) | 2).to_le_bytes()),
    }
}

/// `n` bytes, half of them zero (zero is the first variant, `None`, an
/// empty list: values decode often).
fn bytes(rng: &mut Xorshift, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| match rng.below(2) {
            0 => 0,
            _ => rng.next_u8(),
        })
        .collect()
}

#[test]
fn the_plans_make_the_values_tables_for_generated_events_and_calls_of_every_runtime() {
    let runtimes = [
        "metadata/substrate-node-v14-spec267.scale",
        "metadata/substrate-node-v15-spec268.scale",
        "metadata/substrate-node-v16-spec268.scale",
        "metadata/karura-v14-spec2032.scale",
        "metadata/bittensor-v14-spec329.scale",
        "metadata/subtensor-v15-spec343.scale",
        "metadata/polkadot-v14-spec9110.scale",
        "metadata/polkadot-v14-spec9180.scale",
        "metadata/polkadot-v14-spec1000001.scale",
        "metadata/polkadot-v15-spec1001002.scale",
        "metadata/kusama-v15-spec1001002.scale",
        "metadata/rococo-v15-spec1021002.scale",
        "metadata/statemint-v16-spec2000003-small.scale",
        "metadata/polkadot-v16-spec2003000.scale",
        "metadata/kusama-v16-spec2003000.scale",
        "metadata/asset-hub-polkadot-v16-spec2003001.scale",
        "metadata/frontier-template-v15-small.scale",
    ];
    let mut checked = 0;
    for metadata in runtimes {
        let Some(plans) = decoder(metadata) else {
            continue;
        };
        let values = from_values(decoder(metadata).expect("metadata"));
        let spec_version = plans.spec_version();
        let Some(runtime) = plans.registry().runtime() else {
            continue;
        };
        let graph = plans.registry().graph();
        let least = |types: &mut dyn Iterator<Item = ferroscale_dynamic::TypeIdx>| -> usize {
            types.map(|t| min_size(graph, t, 0) as usize).sum()
        };
        let mut rng = Xorshift::new(u64::from(spec_version));
        let (mut tried, mut with_rows) = (0, 0);
        for pallet in &runtime.pallets {
            for (kind, item) in pallet
                .events
                .iter()
                .map(|e| (true, e))
                .chain(pallet.calls.iter().map(|c| (false, c)))
            {
                let size = least(&mut item.args.iter().map(|a| a.ty));
                for extra in 0..4 {
                    let tail = bytes(&mut rng, size + extra);
                    let mut block = Block {
                        number: 1,
                        hash: "0x01".into(),
                        spec_version,
                        extrinsics: Vec::new(),
                        events: None,
                        header: None,
                        finalized: None,
                    };
                    if kind {
                        // One record: phase ApplyExtrinsic(0), the event, no topics.
                        let mut record = vec![4, 0, 0, 0, 0, 0, pallet.index, item.index];
                        record.extend(&tail);
                        record.push(0);
                        block.events = Some(record);
                    } else {
                        // An unsigned extrinsic of format 4.
                        let mut body = vec![4, pallet.index, item.index];
                        body.extend(&tail);
                        let mut x = Vec::new();
                        compact(body.len(), &mut x);
                        x.extend(body);
                        block.extrinsics.push(x);
                    }
                    tried += 1;
                    if same(
                        &block,
                        &plans,
                        &values,
                        &format!("{metadata} {}", item.name),
                    ) {
                        with_rows += 1;
                    }
                }
            }
        }
        println!("{metadata}: {tried} generated items, {with_rows} with typed rows");
        assert!(with_rows > 0, "{metadata}");
        checked += 1;
    }
    assert!(checked >= 10, "{checked} runtimes");
}
