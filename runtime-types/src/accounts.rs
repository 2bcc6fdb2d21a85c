//! Account ids and addresses: `AccountId32` (SS58 text), `MultiAddress`.

use std::fmt;
use std::str::FromStr;

use parity_scale_codec::{Decode, Encode, HasCompact};

/// The SS58 network format `Display` uses: 42, generic Substrate.
pub const DEFAULT_SS58_FORMAT: u16 = 42;

/// A 32-byte account id (`sp_core::crypto::AccountId32`); prints as SS58.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Encode, Decode)]
pub struct AccountId32(pub [u8; 32]);

impl AccountId32 {
    /// The raw public key bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The SS58 address of this account on network `format` (0 Polkadot, 2 Kusama, 42 generic).
    pub fn to_ss58(&self, format: u16) -> Result<String, ferroscale_core::Error> {
        ferroscale_core::ss58::encode(&self.0, format)
    }
}

impl From<[u8; 32]> for AccountId32 {
    fn from(bytes: [u8; 32]) -> Self {
        AccountId32(bytes)
    }
}

impl AsRef<[u8]> for AccountId32 {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for AccountId32 {
    /// The generic-Substrate (format 42) SS58 address.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_ss58(DEFAULT_SS58_FORMAT) {
            Ok(s) => f.write_str(&s),
            Err(_) => f.write_str(&ferroscale_core::hex::encode_prefixed(&self.0)),
        }
    }
}

impl fmt::Debug for AccountId32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AccountId32({self})")
    }
}

impl FromStr for AccountId32 {
    type Err = ferroscale_core::Error;

    /// An SS58 address of any network, or 32 bytes of `0x` hex.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bytes = if s.starts_with("0x") {
            ferroscale_core::hex::decode(s)?
        } else {
            ferroscale_core::ss58::decode(s, None)?.payload
        };
        let arr: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
            ferroscale_core::Error::Ss58(format!(
                "an AccountId32 has 32 bytes, this address has {}",
                bytes.len()
            ))
        })?;
        Ok(AccountId32(arr))
    }
}

/// `sp_runtime::MultiAddress<AccountId, AccountIndex>`: the address of a signed extrinsic.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
pub enum MultiAddress<AccountId, AccountIndex: HasCompact> {
    /// An account id.
    #[codec(index = 0)]
    Id(AccountId),
    /// An account index (compact-encoded).
    #[codec(index = 1)]
    Index(#[codec(compact)] AccountIndex),
    /// Raw bytes.
    #[codec(index = 2)]
    Raw(Vec<u8>),
    /// A 32-byte address.
    #[codec(index = 3)]
    Address32([u8; 32]),
    /// A 20-byte address.
    #[codec(index = 4)]
    Address20([u8; 20]),
}

impl<AccountId, AccountIndex: HasCompact> From<AccountId>
    for MultiAddress<AccountId, AccountIndex>
{
    fn from(id: AccountId) -> Self {
        MultiAddress::Id(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_id_prints_and_parses_ss58() {
        // Alice's public key and her well-known generic-substrate address.
        let alice: AccountId32 =
            "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"
                .parse()
                .unwrap();
        assert_eq!(
            alice.to_string(),
            "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
        );
        let back: AccountId32 = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
            .parse()
            .unwrap();
        assert_eq!(back, alice);
        assert!("5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ"
            .parse::<AccountId32>()
            .is_err());
    }

    #[test]
    fn multi_address_encodes_like_sp_runtime() {
        let id = MultiAddress::<AccountId32, ()>::Id(AccountId32([7; 32]));
        let bytes = id.encode();
        assert_eq!(bytes[0], 0);
        assert_eq!(bytes.len(), 33);
        let index = MultiAddress::<AccountId32, u32>::Index(1);
        assert_eq!(index.encode(), vec![1, 4]);
        assert_eq!(
            MultiAddress::<AccountId32, u32>::decode(&mut &[1u8, 4][..]).unwrap(),
            index
        );
    }
}
