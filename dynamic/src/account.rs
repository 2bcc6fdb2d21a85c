//! SS58 text for 32-byte account ids, the decoder's hot path when an ss58
//! format is set (Bittensor runtime-API results render tens of thousands of
//! accounts): `ferroscale_core::ss58::encode_address`, which builds the
//! address on the stack with a limb-wise base58, so every caller (Rust
//! values, the Python module, `ss58_encode`) shares one encoder.

use ferroscale_core::ss58::{self, Address};

use crate::decode::Context;
use crate::graph::{Node, Special, TypeIdx};

/// SS58 text of a 32-byte account for `format`, or `None` for formats the
/// spec does not allow (out of range or reserved).
pub fn ss58_account(account: &[u8; 32], format: u16) -> Option<Address> {
    if format > ss58::MAX_FORMAT || ss58::RESERVED_FORMATS.contains(&format) {
        return None;
    }
    ss58::encode_address(account, format).ok()
}

/// The SS58 format values of `ty` are rendered in under `ctx`, when `ty` is
/// a bare account id (decoding 32 bytes as `ty` gives `ss58_account`'s text)
/// and the context's format is one the spec allows; `None` otherwise.
///
/// Batch decoders use it to set such values aside and render them together
/// ([`PendingAccounts`]), with the text one-by-one decoding gives.
pub fn rendered_account_format(ctx: &Context<'_>, ty: TypeIdx) -> Option<u16> {
    let format = ctx.ss58_format?;
    let allowed = format <= ss58::MAX_FORMAT && !ss58::RESERVED_FORMATS.contains(&format);
    let bare = matches!(ctx.graph.get(ty), Some(Node::Special(Special::AccountId)));
    (allowed && bare && ctx.max_depth > 0).then_some(format)
}

/// 32-byte account ids set aside by a batch decoder, each with the slot its
/// text goes to, and rendered as SS58 [`PendingAccounts::GROUP`] at a time:
/// `ss58::encode_addresses` hashes the checksums of a group side by side in
/// vector lanes, several times faster per account than one by one.
pub struct PendingAccounts {
    format: u16,
    slots: Vec<usize>,
    keys: Vec<[u8; 32]>,
}

impl PendingAccounts {
    /// Accounts rendered per [`flush`](Self::flush).
    pub const GROUP: usize = 64;

    /// An empty set for SS58 `format` (from [`rendered_account_format`]).
    pub fn new(format: u16) -> Self {
        PendingAccounts {
            format,
            slots: Vec::with_capacity(Self::GROUP),
            keys: Vec::with_capacity(Self::GROUP),
        }
    }

    /// Sets `key` aside for `slot`; `true` when the group is full and should
    /// be flushed.
    pub fn push(&mut self, slot: usize, key: [u8; 32]) -> bool {
        self.slots.push(slot);
        self.keys.push(key);
        self.keys.len() >= Self::GROUP
    }

    /// Renders everything set aside, handing each slot its text, and empties
    /// the set. Fails only if a key could not be encoded, which the format
    /// check of [`rendered_account_format`] and the fixed key length rule
    /// out; the caller then has slots without text and must not use them.
    pub fn flush(
        &mut self,
        mut put: impl FnMut(usize, &str),
    ) -> Result<(), ferroscale_core::error::Error> {
        if self.keys.is_empty() {
            return Ok(());
        }
        let rendered = ss58::encode_addresses(&self.keys, self.format).map(|addresses| {
            for (&slot, address) in self.slots.iter().zip(&addresses) {
                put(slot, address);
            }
        });
        self.slots.clear();
        self.keys.clear();
        rendered
    }

    /// Whether nothing is set aside.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every address decodes back (through the `bs58` decoder, checksum
    /// checked) to the account and format it was made from; disallowed
    /// formats give `None`.
    #[test]
    fn round_trips_through_the_core_decoder() {
        let mut rng = ferroscale_fixtures::Xorshift::new(0x1234_5678_9abc_def0);
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
