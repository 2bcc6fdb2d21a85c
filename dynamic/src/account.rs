//! SS58 text for 32-byte account ids, the decoder's hot path when an ss58
//! format is set (Bittensor runtime-API results render tens of thousands of
//! accounts): `ferroscale_core::ss58::encode_address`, which builds the
//! address on the stack with a limb-wise base58, so every caller (Rust
//! values, the Python module, `ss58_encode`) shares one encoder.

use ferroscale_core::ss58::{self, Address};

use crate::context::Context;
use crate::graph::{Node, Special, TypeGraph, TypeIdx};

/// SS58 text of a 32-byte account for `format`, or `None` for formats the
/// spec does not allow (out of range or reserved).
pub fn ss58_account(account: &[u8; 32], format: u16) -> Option<Address> {
    if !format_allowed(format) {
        return None;
    }
    ss58::encode_address(account, format).ok()
}

/// Whether SS58 allows network `format` (in range and not reserved).
pub(crate) fn format_allowed(format: u16) -> bool {
    format <= ss58::MAX_FORMAT && !ss58::RESERVED_FORMATS.contains(&format)
}

/// 32-byte account ids set aside by a batch decoder, each with the slot its
/// text goes to, and rendered as SS58 [`PendingAccounts::GROUP`] at a time:
/// `ss58::encode_addresses` hashes the checksums of a group side by side in
/// vector lanes, several times faster per account than one by one. The text
/// each slot gets is the one decoding its value alone gives.
pub struct PendingAccounts {
    format: u16,
    slots: Vec<usize>,
    keys: Vec<[u8; 32]>,
}

impl PendingAccounts {
    /// Accounts rendered per [`flush`](Self::flush).
    pub const GROUP: usize = 64;

    /// An empty set for the accounts `ctx` renders as SS58, or `None` when
    /// it renders none (no format, or one the spec does not allow: account
    /// ids then decode to hex as usual).
    pub fn for_context(ctx: &Context<'_>) -> Option<Self> {
        ctx.ss58_format.and_then(Self::new)
    }

    /// An empty set for accounts in `format`, or `None` for a format the
    /// spec does not allow.
    pub fn new(format: u16) -> Option<Self> {
        format_allowed(format).then(|| PendingAccounts {
            format,
            slots: Vec::with_capacity(Self::GROUP),
            keys: Vec::with_capacity(Self::GROUP),
        })
    }

    /// The format the accounts are rendered in.
    pub fn format(&self) -> u16 {
        self.format
    }

    /// Sets `key` aside for `slot`, rendering the group through `put` once
    /// it is full.
    pub fn push(
        &mut self,
        slot: usize,
        key: [u8; 32],
        put: impl FnMut(usize, &[u8; 32], &str),
    ) -> Result<(), ferroscale_core::error::Error> {
        self.slots.push(slot);
        self.keys.push(key);
        if self.keys.len() >= Self::GROUP {
            self.flush(put)?;
        }
        Ok(())
    }

    /// Sets the value for `slot` aside when `bytes` decode as `ty` to an
    /// account id in SS58 (`ty` is a bare account id and `bytes` its 32
    /// bytes), rendering the group through `put` once it is full; `false`
    /// leaves the value to the caller to decode as usual.
    pub fn offer(
        &mut self,
        ctx: &Context<'_>,
        ty: TypeIdx,
        slot: usize,
        bytes: &[u8],
        put: impl FnMut(usize, &[u8; 32], &str),
    ) -> Result<bool, ferroscale_core::error::Error> {
        let Some(key) = Self::bare_account(ctx, ty, bytes) else {
            return Ok(false);
        };
        self.push(slot, key, put)?;
        Ok(true)
    }

    /// The account id `bytes` are when they decode as `ty` to a bare account
    /// id (what [`offer`](Self::offer) sets aside), else `None`.
    pub fn bare_account(ctx: &Context<'_>, ty: TypeIdx, bytes: &[u8]) -> Option<[u8; 32]> {
        let bare = matches!(ctx.graph.get(ty), Some(Node::Special(Special::AccountId)));
        if !bare || ctx.max_depth == 0 {
            return None;
        }
        <[u8; 32]>::try_from(bytes).ok()
    }

    /// Renders everything set aside, handing each slot its account id and
    /// text (`put(slot, id, text)`), and empties
    /// the set. Fails only if a key could not be encoded, which the format
    /// check of [`for_context`](Self::for_context) and the fixed key length
    /// rule out; the caller then has slots without text and must not use
    /// them.
    pub fn flush(
        &mut self,
        mut put: impl FnMut(usize, &[u8; 32], &str),
    ) -> Result<(), ferroscale_core::error::Error> {
        if self.keys.is_empty() {
            return Ok(());
        }
        let rendered = ss58::encode_addresses(&self.keys, self.format).map(|addresses| {
            for ((&slot, key), address) in self.slots.iter().zip(&self.keys).zip(&addresses) {
                put(slot, key, address);
            }
        });
        self.slots.clear();
        self.keys.clear();
        rendered
    }
}

/// Where a value of a fixed-size type keeps its 32-byte account ids (see
/// [`account_layout`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountLayout {
    /// The encoded size of every value of the type.
    pub size: usize,
    /// The byte offset of each account id in the encoding, in order.
    pub offsets: Vec<usize>,
}

/// The [`AccountLayout`] of `ty` when its encoded size never varies and it
/// holds at least one account id (a storage map's key tuple such as
/// `(u16, AccountId)`), so a batch decoder can find every account of a whole
/// batch before decoding and render them as a group; `None` otherwise
/// (sequences, enums, compacts and options vary in size; types nested
/// deeper than a few levels or with very many accounts are left alone).
pub fn account_layout(graph: &TypeGraph, ty: TypeIdx) -> Option<AccountLayout> {
    let mut layout = AccountLayout {
        size: 0,
        offsets: Vec::new(),
    };
    lay_out(graph, ty, &mut layout, 0)?;
    (!layout.offsets.is_empty()).then_some(layout)
}

/// Nesting [`account_layout`] follows.
const LAYOUT_DEPTH: u32 = 16;

/// Account ids [`account_layout`] lists at most.
const LAYOUT_ACCOUNTS: usize = 256;

fn lay_out(graph: &TypeGraph, ty: TypeIdx, layout: &mut AccountLayout, depth: u32) -> Option<()> {
    if depth > LAYOUT_DEPTH {
        return None;
    }
    match graph.get(ty)? {
        Node::Prim(p) => layout.size += p.fixed_size()?,
        Node::Null => {}
        Node::ByteArray(n) => layout.size += usize::try_from(*n).ok()?,
        Node::Special(Special::AccountId) => {
            if layout.offsets.len() >= LAYOUT_ACCOUNTS {
                return None;
            }
            layout.offsets.push(layout.size);
            layout.size += 32;
        }
        Node::Tuple(items) => {
            for &item in items {
                lay_out(graph, item, layout, depth + 1)?;
            }
        }
        Node::Struct(fields) => {
            for field in fields {
                lay_out(graph, field.ty, layout, depth + 1)?;
            }
        }
        Node::Array(item, n) => {
            let mut one = AccountLayout {
                size: 0,
                offsets: Vec::new(),
            };
            lay_out(graph, *item, &mut one, depth + 1)?;
            let n = usize::try_from(*n).ok()?;
            if one.offsets.len().checked_mul(n)? + layout.offsets.len() > LAYOUT_ACCOUNTS {
                return None;
            }
            // Only arrays of items with accounts are walked item by item,
            // and those are at most LAYOUT_ACCOUNTS long (checked above).
            if !one.offsets.is_empty() {
                for i in 0..n {
                    let base = layout.size.checked_add(one.size.checked_mul(i)?)?;
                    layout.offsets.extend(one.offsets.iter().map(|o| base + o));
                }
            }
            layout.size = layout.size.checked_add(one.size.checked_mul(n)?)?;
        }
        _ => return None,
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every address decodes back (through the `bs58` decoder, checksum
    /// checked) to the account and format it was made from; disallowed
    /// formats give `None`.
    #[test]
    fn round_trips_through_the_core_decoder() {
        let mut rng = ferroscale_test_support::Xorshift::new(0x1234_5678_9abc_def0);
        let mut accounts = vec![[0u8; 32], [0xff; 32]];
        let mut leading = [0u8; 32];
        leading[31] = 1;
        accounts.push(leading);
        for _ in 0..300 {
            let mut a = [0u8; 32];
            rng.fill(&mut a);
            accounts.push(a);
        }
        for format in [0u16, 1, 2, 42, 46, 63, 64, 255, 1284, 16383, 16384] {
            for a in &accounts {
                let text = ss58_account(a, format);
                if matches!(format, 46 | 16384) {
                    assert!(text.is_none(), "format {format}");
                    continue;
                }
                let text = text.unwrap_or_else(|| panic!("format {format}"));
                let back = ss58::decode(&text, Some(format)).unwrap();
                assert_eq!(back.payload, a.to_vec(), "format {format}");
            }
        }
        // Alice's well-known address.
        let alice: [u8; 32] = ferroscale_core::hex::decode(
            "d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
        )
        .unwrap()
        .try_into()
        .unwrap();
        assert_eq!(
            ss58_account(&alice, 42).unwrap().as_str(),
            "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
        );
    }
}
