//! The runtime context special types need: pallets with their calls and
//! events, the extrinsic format (address, signature, signed extensions) and
//! the ss58 format for account rendering. Built from V14+ metadata by
//! [`crate::portable::import_metadata`]; a legacy (V9–V13) importer can fill
//! the same tables with arg types compiled from type strings.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use crate::graph::{Name, TypeIdx};

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
    /// The pallet index (first byte of calls and events).
    pub index: u8,
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

/// The extrinsic format of the runtime.
#[derive(Clone, Debug, Default)]
pub struct ExtrinsicFormat {
    /// Extrinsic format version (4).
    pub version: u8,
    /// `Address` type.
    pub address: Option<TypeIdx>,
    /// `ExtrinsicSignature` type.
    pub signature: Option<TypeIdx>,
    /// The account id type inside the address (MultiAddress's `AccountId` parameter).
    pub account_id: Option<TypeIdx>,
    /// The `RuntimeCall` type.
    pub call: Option<TypeIdx>,
    /// Signed extensions that carry data, in metadata order.
    pub extensions: Vec<Extension>,
}

/// The active runtime: what Call, Extrinsic and the legacy event types decode against.
#[derive(Clone, Debug, Default)]
pub struct Runtime {
    /// Pallets, in metadata order.
    pub pallets: Vec<Pallet>,
    by_index: HashMap<u8, usize>,
    /// The extrinsic format.
    pub extrinsic: ExtrinsicFormat,
    /// `true` for V14+ metadata (scale-info calls: attributes are variant values);
    /// `false` for legacy metadata (attributes are `{"type", "value"}` lists).
    pub portable: bool,
}

impl Runtime {
    /// A runtime over `pallets`.
    pub fn new(pallets: Vec<Pallet>, extrinsic: ExtrinsicFormat, portable: bool) -> Self {
        let by_index = pallets
            .iter()
            .enumerate()
            .map(|(i, p)| (p.index, i))
            .collect();
        Runtime {
            pallets,
            by_index,
            extrinsic,
            portable,
        }
    }

    /// The pallet with `index`.
    pub fn pallet_by_index(&self, index: u8) -> Option<&Pallet> {
        self.by_index.get(&index).map(|&i| &self.pallets[i])
    }

    /// The pallet named `name`.
    pub fn pallet(&self, name: &str) -> Option<&Pallet> {
        self.pallets.iter().find(|p| &*p.name == name)
    }
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

/// py-scale-codec's `convert_type_string`: the rewrites it applies to type
/// names from metadata (`T::Balance` → `Balance`, `Vec<u8>` → `Bytes` …).
pub fn convert_type_string(name: &str) -> String {
    let mut s = name.replace("T::", "");
    for pat in [
        "<T>",
        "<T as Trait>::",
        "<T as Trait<I>>::",
        "<T as Config>::",
        "<T as Config<I>>::",
    ] {
        s = remove_ci(&s, pat);
    }
    s.retain(|c| c != '\n');
    for prefix in [
        "grandpa::",
        "session::",
        "slashing::",
        "limits::",
        "beefy_primitives::",
        "xcm::opaque::",
    ] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.to_string();
            break;
        }
    }
    s = replace_ci(&s, "VecDeque<", "Vec<");
    // `get`, not slicing: byte 4 of a hostile name may fall inside a
    // multi-byte character. After an ASCII `Box<` and before the final `>`
    // both cuts are on character boundaries.
    if s.len() > 5 && s.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("Box<")) && s.ends_with('>')
    {
        s = s[4..s.len() - 1].to_string();
    }
    if s == "()" {
        return "Null".into();
    }
    let lower = s.to_ascii_lowercase();
    match lower.as_str() {
        "vec<u8>" | "&[u8]" | "& 'static[u8]" => "Bytes".into(),
        "<lookup as staticlookup>::source" => "LookupSource".into(),
        "<balance as hascompact>::type" => "Compact<Balance>".into(),
        "<blocknumber as hascompact>::type" => "Compact<BlockNumber>".into(),
        "<moment as hascompact>::type" => "Compact<Moment>".into(),
        "<inherentofflinereport as inherentofflinereport>::inherent" => {
            "InherentOfflineReport".into()
        }
        _ => s,
    }
}

fn remove_ci(s: &str, pat: &str) -> String {
    replace_ci(s, pat, "")
}

/// Case-insensitive (ASCII) replacement of every occurrence of `pat`.
fn replace_ci(s: &str, pat: &str, with: &str) -> String {
    let lower = s.to_ascii_lowercase();
    let pat_l = pat.to_ascii_lowercase();
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    let mut from = 0;
    while let Some(p) = lower[from..].find(&pat_l) {
        let at = from + p;
        out.push_str(&s[last..at]);
        out.push_str(with);
        last = at + pat.len();
        from = last;
    }
    out.push_str(&s[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_type_names_like_py_scale_codec() {
        assert_eq!(convert_type_string("T::AccountId"), "AccountId");
        assert_eq!(convert_type_string("BalanceOf<T>"), "BalanceOf");
        assert_eq!(convert_type_string("<T as Config>::Balance"), "Balance");
        assert_eq!(convert_type_string("<T as Config<I>>::Hash"), "Hash");
        assert_eq!(
            convert_type_string("Box<<T as Config>::RuntimeCall>"),
            "RuntimeCall"
        );
        assert_eq!(convert_type_string("Vec<u8>"), "Bytes");
        assert_eq!(convert_type_string("()"), "Null");
        assert_eq!(
            convert_type_string("AccountIdLookupOf<T>"),
            "AccountIdLookupOf"
        );
        assert_eq!(
            convert_type_string("BoundedVec<u8, T::MaxLen>"),
            "BoundedVec<u8, MaxLen>"
        );
    }
}
