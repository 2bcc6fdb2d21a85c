//! The runtime context special types need: pallets with their calls and
//! events, the extrinsic format (address, signature, signed extensions) and
//! the ss58 format for account rendering. Both metadata importers —
//! [`crate::portable::import_metadata`] (V14+, argument types are registry
//! ids) and [`crate::registry::legacy_runtime`] (V9–V13, argument types are
//! type strings compiled through presets) — build the call and event tables
//! with the one `PalletTables` builder here (crate-internal).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, LazyLock};

use ferroscale_metadata::{Field as MdField, Pallet as MdPallet, PalletEnum, Variant as MdVariant};

use crate::error::Error;
use crate::graph::{Name, TypeIdx};

/// Kept at this path for the Python module, which binds it; the rules live
/// in [`crate::typestr`] beside the parser's.
pub use crate::typestr::convert_type_string;

/// One argument of a call or event.
#[derive(Clone, Debug)]
pub struct Arg {
    /// Argument name (`None` for positional event arguments).
    pub name: Option<Name>,
    /// The type name as py-scale-codec shows it (`convert_type_string` of the
    /// metadata's `typeName`), `None` when the metadata has none.
    pub type_name: Option<Name>,
    /// The argument's type in the graph.
    pub ty: TypeIdx,
}

/// A call or event of a pallet.
#[derive(Clone, Debug)]
pub struct Item {
    /// Index within the pallet.
    pub index: u8,
    /// Name (`transfer`, `Deposit` …).
    pub name: Name,
    /// Arguments in order.
    pub args: Vec<Arg>,
}

/// One pallet of the runtime.
#[derive(Clone, Debug)]
pub struct Pallet {
    /// The first byte of its calls: the pallet index from V12 on. In V9–V11,
    /// where calls count only the modules that have calls, the position
    /// among those (a pallet without calls: its [`Pallet::event_index`]).
    pub index: u8,
    /// The first byte of its events: [`Pallet::index`] from V12 on; in
    /// V9–V11 the position among the modules that have events.
    pub event_index: u8,
    /// Pallet name (`Balances` …).
    pub name: Name,
    /// Calls, sorted by index.
    pub calls: Vec<Item>,
    /// Events, sorted by index.
    pub events: Vec<Item>,
}

impl Pallet {
    /// The call with `index`.
    pub fn call(&self, index: u8) -> Option<&Item> {
        find(&self.calls, index)
    }
    /// The event with `index`.
    pub fn event(&self, index: u8) -> Option<&Item> {
        find(&self.events, index)
    }
}

fn find(items: &[Item], index: u8) -> Option<&Item> {
    match items.get(index as usize) {
        Some(i) if i.index == index => Some(i),
        _ => items
            .binary_search_by_key(&index, |i| i.index)
            .ok()
            .map(|p| &items[p]),
    }
}

/// A signed extension that carries data in the extrinsic.
#[derive(Clone, Debug)]
pub struct Extension {
    /// The identifier in the metadata (`CheckMortality` …).
    pub identifier: Name,
    /// The key of its value in py-scale-codec's extrinsic dict (`era`,
    /// `nonce`, `tip`, `asset_id`, `mode`; other extensions use the identifier).
    pub key: Name,
    /// Its type.
    pub ty: TypeIdx,
}

/// A signed extension of a format-4 signed extrinsic as its signer sees it:
/// the data it adds to the extrinsic and the data it adds to the signed
/// payload only (its `additional_signed`). Both `None` for an extension
/// without data (`CheckWeight` …).
#[derive(Clone, Debug)]
pub struct SigningExtension {
    /// The identifier in the metadata (`CheckMortality` …).
    pub identifier: Name,
    /// Which FRAME extension it is, when it is one whose values a signature
    /// payload takes from its own fields ([`FrameExtension::of`]).
    pub frame: Option<FrameExtension>,
    /// Its `extrinsic` type, `None` when it takes no bytes.
    pub extrinsic: Option<TypeIdx>,
    /// Its `additional_signed` type, `None` when it takes no bytes.
    pub additional_signed: Option<TypeIdx>,
}

/// The FRAME signed extensions whose data a signer gives by meaning (era,
/// nonce, tip …) rather than by identifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameExtension {
    /// `CheckMortality` (`CheckEra` before): the era, and the hash of its checkpoint block.
    Mortality,
    /// `CheckNonce`: the sender's nonce.
    Nonce,
    /// `ChargeTransactionPayment`: the tip.
    Tip,
    /// `ChargeAssetTxPayment`: the tip and the asset it is paid in.
    AssetTip,
    /// `CheckMetadataHash`: the mode byte, and the metadata hash when enabled.
    MetadataHash,
    /// `CheckSpecVersion`: the runtime's spec version.
    SpecVersion,
    /// `CheckTxVersion`: the runtime's transaction version.
    TxVersion,
    /// `CheckGenesis`: the genesis hash.
    Genesis,
}

impl FrameExtension {
    /// The FRAME extension called `identifier`, if it is one.
    pub fn of(identifier: &str) -> Option<Self> {
        Some(match identifier {
            "CheckMortality" | "CheckEra" => FrameExtension::Mortality,
            "CheckNonce" => FrameExtension::Nonce,
            "ChargeTransactionPayment" => FrameExtension::Tip,
            "ChargeAssetTxPayment" => FrameExtension::AssetTip,
            "CheckMetadataHash" => FrameExtension::MetadataHash,
            "CheckSpecVersion" => FrameExtension::SpecVersion,
            "CheckTxVersion" => FrameExtension::TxVersion,
            "CheckGenesis" => FrameExtension::Genesis,
            _ => return None,
        })
    }
}

/// The extrinsic format of the runtime.
#[derive(Clone, Debug, Default)]
pub struct ExtrinsicFormat {
    /// The extrinsic format versions the metadata lists (4 before V16; V16
    /// runtimes list 4 and 5).
    pub versions: Vec<u8>,
    /// `Address` type.
    pub address: Option<TypeIdx>,
    /// `ExtrinsicSignature` type.
    pub signature: Option<TypeIdx>,
    /// The account id type inside the address (MultiAddress's `AccountId` parameter).
    pub account_id: Option<TypeIdx>,
    /// The `RuntimeCall` type.
    pub call: Option<TypeIdx>,
    /// Signed extensions that carry data, in metadata order: what a signed
    /// format-4 extrinsic carries (transaction-extension version 0).
    pub extensions: Vec<Extension>,
    /// What a format-5 general transaction carries after its
    /// transaction-extension version byte: the extensions with data of each
    /// version the metadata lists (V16's `transaction_extensions_by_version`;
    /// version 0 alone, with every extension, when the metadata lists none).
    pub general_extensions: BTreeMap<u8, Vec<Extension>>,
    /// Every signed extension of a format-4 signed extrinsic, in metadata
    /// order, with its `extrinsic` and `additional_signed` types: what a
    /// signature payload is made of (V14+; empty for legacy metadata, whose
    /// extensions have no types).
    pub signing: Vec<SigningExtension>,
}

/// What an extrinsic's first byte says: its format version (low six bits)
/// and its kind (high two bits). Format 4 has bare and signed extrinsics;
/// format 5 has bare ones and general transactions (extensions without a
/// signature of their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preamble {
    /// No signature, no extensions (unsigned extrinsics, inherents), of
    /// format 4 or 5.
    Bare(u8),
    /// Format 4 signed: address, signature, the extensions of version 0.
    Signed,
    /// Format 5 general: a transaction-extension version byte, then the
    /// extensions of that version.
    General,
}

impl Preamble {
    const VERSION_BITS: u8 = 0b0011_1111;
    const SIGNED: u8 = 0b1000_0000;
    const GENERAL: u8 = 0b0100_0000;

    /// The preamble of first byte `byte`; `None` for any combination of
    /// format and kind no runtime produces.
    pub fn from_byte(byte: u8) -> Option<Self> {
        match (byte & Self::VERSION_BITS, byte & !Self::VERSION_BITS) {
            (version @ (4 | 5), 0) => Some(Preamble::Bare(version)),
            (4, Self::SIGNED) => Some(Preamble::Signed),
            (5, Self::GENERAL) => Some(Preamble::General),
            _ => None,
        }
    }

    /// The first byte of an extrinsic with this preamble.
    pub fn byte(self) -> u8 {
        match self {
            Preamble::Bare(version) => version,
            Preamble::Signed => 4 | Self::SIGNED,
            Preamble::General => 5 | Self::GENERAL,
        }
    }

    /// The extrinsic format version (4 or 5).
    pub fn version(self) -> u8 {
        self.byte() & Self::VERSION_BITS
    }
}

/// The active runtime: what Call, Extrinsic and the legacy event types decode against.
#[derive(Clone, Debug, Default)]
pub struct Runtime {
    /// Pallets, in metadata order.
    pub pallets: Vec<Pallet>,
    by_index: HashMap<u8, usize>,
    by_event_index: HashMap<u8, usize>,
    /// The extrinsic format.
    pub extrinsic: ExtrinsicFormat,
    /// `true` for V14+ metadata (scale-info calls: attributes are variant values);
    /// `false` for legacy metadata (attributes are `{"type", "value"}` lists).
    pub portable: bool,
}

impl Runtime {
    /// A runtime over `pallets`, each found by the byte of its calls and by
    /// that of its events (the first pallet with a byte, if two share one).
    pub fn new(pallets: Vec<Pallet>, extrinsic: ExtrinsicFormat, portable: bool) -> Self {
        let pallets = pallets.into_iter().map(|p| (p, true, true)).collect();
        PalletTables { pallets }.into_runtime(extrinsic, portable, false)
    }

    /// The pallet whose calls start with byte `index` (its pallet index
    /// from V12 on).
    pub fn pallet_by_index(&self, index: u8) -> Option<&Pallet> {
        self.by_index.get(&index).map(|&i| &self.pallets[i])
    }

    /// The pallet whose events start with byte `index` (its pallet index
    /// from V12 on; see [`Pallet::event_index`] for V9–V11).
    pub fn pallet_by_event_index(&self, index: u8) -> Option<&Pallet> {
        self.by_event_index.get(&index).map(|&i| &self.pallets[i])
    }

    /// The pallet named `name`.
    pub fn pallet(&self, name: &str) -> Option<&Pallet> {
        self.pallets.iter().find(|p| &*p.name == name)
    }
}

/// Which of a pallet's tables an item belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind {
    /// A call (extrinsic function).
    Call,
    /// An event.
    Event,
}

/// What an importer says about one argument: its type in the graph and the
/// type name shown for it (`None` when the metadata has none).
pub(crate) type ArgType = Result<(TypeIdx, Option<Name>), Error>;

/// The builder of a runtime's call and event tables from the metadata
/// model's pallets; what differs between metadata families — how an
/// argument's type is found and how its name is shown — comes in as a
/// closure, the rest (one entry per pallet, items sorted by index,
/// argument names and order) is here once.
///
/// Each pallet keeps its own calls and events under their own bytes
/// ([`Pallet::index`], [`Pallet::event_index`]): in V9–V11, where calls and
/// events count only the modules that have them, one byte names one module
/// in a call and another in an event (byte 2 of Kusama 1038: `Timestamp`'s
/// calls, `Balances`' events). Pallets keep the order they were added in.
#[derive(Default)]
pub(crate) struct PalletTables {
    /// Each pallet, and whether it has a call enum and an event enum (an
    /// empty one too: it counts for the bytes in V9–V11).
    pallets: Vec<(Pallet, bool, bool)>,
}

impl PalletTables {
    /// Adds `pallet` with its calls and events. `arg` gives the graph type
    /// and the shown type name of one argument (a field of a call or event
    /// variant).
    pub(crate) fn add(
        &mut self,
        pallet: &MdPallet,
        arg: &mut impl FnMut(ItemKind, &MdVariant, &MdField) -> ArgType,
    ) -> Result<(), Error> {
        let (calls, events) = (&pallet.call_enum, &pallet.event_enum);
        let index = calls
            .as_ref()
            .or(events.as_ref())
            .map_or(pallet.index, |e| e.pallet_index);
        let entry = Pallet {
            index,
            event_index: events.as_ref().map_or(index, |e| e.pallet_index),
            name: Name::from(pallet.name.as_str()),
            calls: calls
                .as_ref()
                .map(|e| items(e, ItemKind::Call, arg))
                .transpose()?
                .unwrap_or_default(),
            events: events
                .as_ref()
                .map(|e| items(e, ItemKind::Event, arg))
                .transpose()?
                .unwrap_or_default(),
        };
        self.pallets
            .push((entry, calls.is_some(), events.is_some()));
        Ok(())
    }

    /// The runtime over the pallets: in the order they were added, or
    /// sorted by [`Pallet::index`] (`sorted`; legacy tables are listed so). A
    /// pallet is found by a call's byte when it has a call enum, and by an
    /// event's byte when it has an event enum.
    pub(crate) fn into_runtime(
        mut self,
        extrinsic: ExtrinsicFormat,
        portable: bool,
        sorted: bool,
    ) -> Runtime {
        if sorted {
            self.pallets.sort_by_key(|(p, ..)| p.index);
        }
        let mut runtime = Runtime {
            extrinsic,
            portable,
            ..Runtime::default()
        };
        for (at, (pallet, calls, events)) in self.pallets.into_iter().enumerate() {
            if calls {
                runtime.by_index.entry(pallet.index).or_insert(at);
            }
            if events {
                runtime
                    .by_event_index
                    .entry(pallet.event_index)
                    .or_insert(at);
            }
            runtime.pallets.push(pallet);
        }
        runtime
    }
}

/// The items of one pallet enum, sorted by index (the lookup in
/// [`Pallet::call`] and [`Pallet::event`] relies on it).
fn items(
    e: &PalletEnum,
    kind: ItemKind,
    arg: &mut impl FnMut(ItemKind, &MdVariant, &MdField) -> ArgType,
) -> Result<Vec<Item>, Error> {
    let mut out = Vec::with_capacity(e.variants.len());
    for v in &e.variants {
        let mut args = Vec::with_capacity(v.fields.len());
        for f in &v.fields {
            let (ty, type_name) = arg(kind, v, f)?;
            args.push(Arg {
                name: f.name.as_deref().map(Name::from),
                type_name,
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

/// The key under which py-scale-codec puts a signed extension's value, if it knows it.
pub fn extension_key(identifier: &str) -> Option<&'static str> {
    Some(match identifier {
        "CheckMortality" | "CheckEra" => "era",
        "CheckNonce" => "nonce",
        "ChargeTransactionPayment" => "tip",
        "ChargeAssetTxPayment" => "asset_id",
        "CheckMetadataHash" => "mode",
        _ => return None,
    })
}

/// Dict keys of the special types' values, allocated once.
pub(crate) struct Keys {
    pub call_index: Name,
    pub call_function: Name,
    pub call_module: Name,
    pub call_args: Name,
    pub call_hash: Name,
    pub name: Name,
    pub type_: Name,
    pub value: Name,
    pub extrinsic_hash: Name,
    pub extrinsic_length: Name,
    pub address: Name,
    pub signature: Name,
    pub call: Name,
    pub version: Name,
    pub extension_version: Name,
    pub phase: Name,
    pub extrinsic_idx: Name,
    pub event: Name,
    pub event_index: Name,
    pub module_id: Name,
    pub event_id: Name,
    pub attributes: Name,
    pub topics: Name,
    pub none: Name,
    pub raw: Name,
    pub aye: Name,
    pub conviction: Name,
    pub engine: Name,
    pub data: Name,
    pub hash_names: [Name; 4],
    pub convictions: [Name; 7],
}

pub(crate) static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let n = |s: &str| -> Name { Arc::from(s) };
    Keys {
        call_index: n("call_index"),
        call_function: n("call_function"),
        call_module: n("call_module"),
        call_args: n("call_args"),
        call_hash: n("call_hash"),
        name: n("name"),
        type_: n("type"),
        value: n("value"),
        extrinsic_hash: n("extrinsic_hash"),
        extrinsic_length: n("extrinsic_length"),
        address: n("address"),
        signature: n("signature"),
        call: n("call"),
        version: n("version"),
        extension_version: n("extension_version"),
        phase: n("phase"),
        extrinsic_idx: n("extrinsic_idx"),
        event: n("event"),
        event_index: n("event_index"),
        module_id: n("module_id"),
        event_id: n("event_id"),
        attributes: n("attributes"),
        topics: n("topics"),
        none: n("None"),
        raw: n("Raw"),
        aye: n("aye"),
        conviction: n("conviction"),
        engine: n("engine"),
        data: n("data"),
        hash_names: [
            n("BlakeTwo256"),
            n("Sha256"),
            n("Keccak256"),
            n("ShaThree256"),
        ],
        convictions: [
            n("None"),
            n("Locked1x"),
            n("Locked2x"),
            n("Locked3x"),
            n("Locked4x"),
            n("Locked5x"),
            n("Locked6x"),
        ],
    }
});
