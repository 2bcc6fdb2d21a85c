//! Legacy (V9–V13) metadata: the calls and events tables the engine's
//! `Call`, `Extrinsic` and `Event` nodes decode against, with every argument
//! type string resolved through the registry's presets.

use std::collections::BTreeMap;
use std::sync::Arc;

use ferroscale_metadata::{Metadata, PalletEnum, TypeRef};

use super::Registry;
use crate::error::Error;
use crate::graph::Name;
use crate::runtime::{convert_type_string, Arg, Extension, ExtrinsicFormat, Item, Pallet, Runtime};

/// Extension data py-scale-codec reads for legacy metadata
/// (`GenericExtrinsicV4` over `get_signed_extensions`), in its field order.
const EXTENSION_FIELDS: [(&str, &[&str], &str); 4] = [
    ("era", &["CheckMortality", "CheckEra"], "Era"),
    ("nonce", &["CheckNonce"], "Compact<Index>"),
    ("tip", &["ChargeTransactionPayment"], "Compact<Balance>"),
    ("asset_id", &["ChargeAssetTxPayment"], "Option<AssetId>"),
];

fn type_string(ty: &TypeRef) -> Result<&str, Error> {
    ty.name()
        .ok_or_else(|| Error::Import("legacy metadata refers to a registry type id".to_string()))
}

/// The items (calls or events) of a pallet enum, arg types resolved.
fn items(
    registry: &mut Registry,
    pallet: &str,
    e: &PalletEnum,
    calls: bool,
) -> Result<Vec<Item>, Error> {
    let mut out = Vec::with_capacity(e.variants.len());
    for v in &e.variants {
        let mut args = Vec::with_capacity(v.fields.len());
        for f in &v.fields {
            let raw = type_string(&f.ty)?;
            let ty = registry.resolve(raw).map_err(|err| {
                Error::Import(format!(
                    "{pallet}.{} argument {:?} of type {raw:?}: {err}",
                    v.name,
                    f.name.as_deref().unwrap_or("")
                ))
            })?;
            // py-scale-codec shows call argument types converted, event ones as written.
            let type_name = if calls {
                convert_type_string(raw)
            } else {
                raw.to_string()
            };
            args.push(Arg {
                name: if calls {
                    f.name.as_deref().map(Name::from)
                } else {
                    None
                },
                type_name: Some(Name::from(type_name)),
                ty,
            });
        }
        out.push(Item {
            index: v.index,
            name: Name::from(v.name.as_str()),
            args,
        });
    }
    out.sort_by_key(|i| i.index);
    Ok(out)
}

/// Builds the runtime of legacy metadata over `registry`'s current
/// definitions (load the presets and switch the spec version first).
///
/// Calls and events are keyed by their pallet byte; in V9–V11, where calls
/// and events count only the modules that have them, one byte can name a
/// different module for calls than for events: the call module's name is
/// then the one shown for both (a known limitation).
pub fn legacy_runtime(registry: &mut Registry, md: &Metadata) -> Result<Runtime, Error> {
    if md.version >= 14 {
        return Err(Error::Import(format!(
            "metadata V{} has a portable registry; load it with Registry::load_metadata",
            md.version
        )));
    }
    let mut by_index: BTreeMap<u8, Pallet> = BTreeMap::new();
    for p in &md.pallets {
        if let Some(calls) = &p.call_enum {
            let list = items(registry, &p.name, calls, true)?;
            let slot = by_index
                .entry(calls.pallet_index)
                .or_insert_with(|| Pallet {
                    index: calls.pallet_index,
                    name: Name::from(p.name.as_str()),
                    calls: Vec::new(),
                    events: Vec::new(),
                });
            slot.name = Name::from(p.name.as_str());
            slot.calls = list;
        }
        if let Some(events) = &p.event_enum {
            let list = items(registry, &p.name, events, false)?;
            let slot = by_index
                .entry(events.pallet_index)
                .or_insert_with(|| Pallet {
                    index: events.pallet_index,
                    name: Name::from(p.name.as_str()),
                    calls: Vec::new(),
                    events: Vec::new(),
                });
            slot.events = list;
        }
    }
    let identifiers: Vec<&str> = md
        .extrinsic
        .signed_extensions
        .iter()
        .map(|e| e.identifier.as_str())
        .collect();
    let mut extensions = Vec::new();
    for (key, ids, ty) in EXTENSION_FIELDS {
        // Without signed extensions in the metadata (V9, V10) py-scale-codec
        // falls back on core.json's ExtrinsicV4: era, nonce, tip.
        let applies = if identifiers.is_empty() {
            key != "asset_id"
        } else {
            ids.iter().any(|id| identifiers.contains(id))
        };
        if applies {
            let idx = registry.resolve(ty)?;
            extensions.push(Extension {
                identifier: Arc::from(ids[0]),
                key: Arc::from(key),
                ty: idx,
            });
        }
    }
    let extrinsic = ExtrinsicFormat {
        version: md.extrinsic.versions.first().copied().unwrap_or(4),
        address: Some(registry.resolve("Address")?),
        signature: Some(registry.resolve("ExtrinsicSignature")?),
        account_id: None,
        call: Some(registry.resolve("Call")?),
        extensions,
    };
    Ok(Runtime::new(
        by_index.into_values().collect(),
        extrinsic,
        false,
    ))
}
