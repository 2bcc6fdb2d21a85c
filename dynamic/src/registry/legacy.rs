//! Legacy (V9–V13) metadata: the calls and events tables the engine's
//! `Call`, `Extrinsic` and `Event` nodes decode against, with every argument
//! type string resolved through the registry's presets.

use std::sync::Arc;

use ferroscale_metadata::{Metadata, TypeRef};

use super::Registry;
use crate::error::Error;
use crate::graph::{Name, Node};
use crate::runtime::{Extension, ExtrinsicFormat, ItemKind, PalletTables, Runtime};
use crate::typestr::convert_type_string;

/// Extension data py-scale-codec reads for legacy metadata
/// (`GenericExtrinsicV4` over `get_signed_extensions`), in its field order.
const EXTENSION_FIELDS: [(&str, &[&str], &str); 4] = [
    ("era", &["CheckMortality", "CheckEra"], "Era"),
    ("nonce", &["CheckNonce"], "Compact<Index>"),
    ("tip", &["ChargeTransactionPayment"], "Compact<Balance>"),
    ("asset_id", &["ChargeAssetTxPayment"], "Option<AssetId>"),
];

/// The extension types py-scale-codec 1.2.12 names for legacy metadata,
/// which gives only the identifiers (`get_signed_extensions`):
/// `(identifier, extrinsic type, additional-signed type)`; any other
/// identifier has neither.
pub const LEGACY_SIGNED_EXTENSIONS: [(&str, Option<&str>, Option<&str>); 14] = [
    ("CheckMortality", Some("Era"), Some("Hash")),
    ("CheckEra", Some("Era"), Some("Hash")),
    ("CheckNonce", Some("Compact<Index>"), None),
    ("ChargeTransactionPayment", Some("Compact<Balance>"), None),
    ("CheckSpecVersion", None, Some("u32")),
    ("CheckTxVersion", None, Some("u32")),
    ("CheckGenesis", None, Some("Hash")),
    ("CheckWeight", None, None),
    ("ValidateEquivocationReport", None, None),
    ("LockStakingStatus", None, None),
    ("CheckBlockGasLimit", None, None),
    ("RestrictFunctionality", None, None),
    ("LimitParathreadCommits", None, None),
    ("ChargeAssetTxPayment", Some("Option<AssetId>"), None),
];

/// The extrinsic and additional-signed types of a legacy signed extension
/// (see [`LEGACY_SIGNED_EXTENSIONS`]).
pub fn legacy_signed_extension(identifier: &str) -> (Option<&'static str>, Option<&'static str>) {
    LEGACY_SIGNED_EXTENSIONS
        .iter()
        .find(|(id, _, _)| *id == identifier)
        .map_or((None, None), |(_, ext, add)| (*ext, *add))
}

fn type_string(ty: &TypeRef) -> Result<&str, Error> {
    ty.name()
        .ok_or_else(|| Error::Import("legacy metadata refers to a registry type id".to_string()))
}

/// Builds the runtime of legacy metadata over `registry`'s current
/// definitions (load the presets and switch the spec version first).
///
/// Calls and events are keyed by their pallet byte (see
/// [`PalletTables`](crate::runtime) for V9–V11, where one byte can name a
/// different module for calls than for events).
pub fn legacy_runtime(registry: &mut Registry, md: &Metadata) -> Result<Runtime, Error> {
    if md.version >= 14 {
        return Err(Error::Import(format!(
            "metadata V{} has a portable registry; load it with Registry::load_metadata",
            md.version
        )));
    }
    let mut tables = PalletTables::default();
    for p in &md.pallets {
        tables.add(p, &mut |kind, v, f| {
            let raw = type_string(&f.ty)?;
            let ty = match registry.resolve(raw) {
                Ok(ty) => ty,
                // As in py-scale-codec, which resolves an argument's type when
                // it is used: a type the presets lack fails the calls and
                // events that carry it, naming it, not the whole runtime.
                Err(err @ Error::UnknownType { .. }) => {
                    let reason = format!(
                        "{raw} ({}.{} argument {:?}: {err})",
                        p.name,
                        v.name,
                        f.name.as_deref().unwrap_or("")
                    );
                    registry
                        .graph
                        .add(Node::Unresolved(Name::from(reason)), None)
                }
                Err(err) => {
                    return Err(Error::Import(format!(
                        "{}.{} argument {:?} of type {raw:?}: {err}",
                        p.name,
                        v.name,
                        f.name.as_deref().unwrap_or("")
                    )))
                }
            };
            // py-scale-codec shows call argument types converted, event ones as written.
            let type_name = match kind {
                ItemKind::Call => convert_type_string(raw),
                ItemKind::Event => raw.to_string(),
            };
            Ok((ty, Some(Name::from(type_name))))
        })?;
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
        versions: vec![md.extrinsic.versions.first().copied().unwrap_or(4)],
        address: Some(registry.resolve("Address")?),
        signature: Some(registry.resolve("ExtrinsicSignature")?),
        account_id: None,
        call: Some(registry.resolve("Call")?),
        extensions,
        // Format 5 came with V16 metadata: a legacy runtime has no general
        // transactions.
        general_extensions: Default::default(),
        // Legacy metadata names its signed extensions without types.
        signing: Vec::new(),
    };
    // Legacy tables are listed by pallet byte.
    Ok(tables.into_runtime(extrinsic, false, true))
}
