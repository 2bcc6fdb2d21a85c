//! Fixed-size byte newtypes: hashes (`H160`, `H256`, `H512`), 256-bit
//! integers (`U256`, `I256`, little-endian) and `AccountId20`. Their SCALE
//! form is the raw bytes; they print and parse as `0x…` hex.

use std::fmt;
use std::str::FromStr;

use parity_scale_codec::{Decode, Encode};

macro_rules! fixed_bytes {
    ($(#[$doc:meta] $name:ident($len:literal);)*) => {$(
        #[$doc]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Encode, Decode)]
        pub struct $name(pub [u8; $len]);

        impl $name {
            /// The raw bytes.
            pub fn as_bytes(&self) -> &[u8; $len] {
                &self.0
            }
        }

        impl From<[u8; $len]> for $name {
            fn from(bytes: [u8; $len]) -> Self {
                $name(bytes)
            }
        }

        impl AsRef<[u8]> for $name {
            fn as_ref(&self) -> &[u8] {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&ferroscale_core::hex::encode_prefixed(&self.0))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self)
            }
        }

        impl FromStr for $name {
            type Err = ferroscale_core::Error;

            /// `0x`-prefixed (or bare) hex of exactly the type's length.
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let bytes = ferroscale_core::hex::decode(s)?;
                let arr: [u8; $len] = bytes.as_slice().try_into().map_err(|_| {
                    ferroscale_core::Error::Hex(format!(
                        "{}: expected {} bytes of hex, got {}",
                        stringify!($name),
                        $len,
                        bytes.len()
                    ))
                })?;
                Ok($name(arr))
            }
        }
    )*};
}

fixed_bytes! {
    /// A 160-bit hash (`primitive_types::H160`).
    H160(20);
    /// A 256-bit hash (`primitive_types::H256`).
    H256(32);
    /// A 512-bit hash (`primitive_types::H512`).
    H512(64);
    /// An unsigned 256-bit integer, little-endian bytes (`U256` primitive).
    U256(32);
    /// A signed 256-bit integer, little-endian two's complement bytes (`I256` primitive).
    I256(32);
    /// A 20-byte (Ethereum-style) account id (`AccountId20`).
    AccountId20(20);
}
