//! Generated types as dynamic [`Value`]s in py-scale-codec's shapes (the
//! value contract of `DESIGN.md`): integers as numbers, `Vec<u8>` as text or
//! `"0x…"`, byte arrays and hashes as `"0x…"`, structs as dicts in field
//! order, enums as `"Name"` or `{"Name": value}`, `Option` as `Null` or the
//! value, maps as lists of pairs, bit sequences as `"0b…"`.
//!
//! Generated chain modules implement [`ToValue`] for their types behind the
//! `values` cargo feature (it adds compile time; only services that hand
//! typed values to the dynamic or Python layer need it).
//!
//! Account ids become `"0x…"` here: which SS58 format applies is the
//! caller's (registry's) setting, not the type's.

pub use ferroscale_value::{name, ToValue, Value};

use crate::bits::{BitOrder, BitSequence, BitStore};
use crate::{
    AccountId20, AccountId32, BTreeMap, BTreeSet, MultiAddress, Preamble, UncheckedExtrinsic,
};
use crate::{WrapperKeepOpaque, H160, H256, H512, I256, U256};

macro_rules! hex_bytes {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::hex(&self.0)
            }
        }
    )*};
}
hex_bytes!(AccountId32, AccountId20, H160, H256, H512);

/// A 256-bit integer that fits in 128 bits takes the ordinary integer form
/// (as the dynamic decoder gives it), so equal numbers compare equal.
impl ToValue for U256 {
    fn to_value(&self) -> Value {
        let (low, high) = self.0.split_at(16);
        match <[u8; 16]>::try_from(low) {
            Ok(low) if high.iter().all(|&b| b == 0) => Value::UInt(u128::from_le_bytes(low)),
            _ => Value::U256(Box::new(self.0)),
        }
    }
}

/// Like [`U256`]'s: the ordinary integer form when the value fits in 128 bits.
impl ToValue for I256 {
    fn to_value(&self) -> Value {
        let (low, high) = self.0.split_at(16);
        let sign = if low[15] & 0x80 == 0 { 0 } else { 0xff };
        match <[u8; 16]>::try_from(low) {
            Ok(low) if high.iter().all(|&b| b == sign) => Value::Int(i128::from_le_bytes(low)),
            _ => Value::I256(Box::new(self.0)),
        }
    }
}

/// py-scale-codec's `GenericMultiAddress`: the `Id` and `Index` variants are
/// the bare account id and index, the others `{"Name": value}`.
impl<A: ToValue, I: ToValue + parity_scale_codec::HasCompact> ToValue for MultiAddress<A, I> {
    fn to_value(&self) -> Value {
        let (n, v) = match self {
            MultiAddress::Id(a) => return a.to_value(),
            MultiAddress::Index(i) => return i.to_value(),
            MultiAddress::Raw(r) => ("Raw", r.to_value()),
            MultiAddress::Address32(a) => ("Address32", a.to_value()),
            MultiAddress::Address20(a) => ("Address20", a.to_value()),
        };
        Value::Dict(vec![(name(n), v)])
    }
}

impl<K: ToValue, V: ToValue> ToValue for BTreeMap<K, V> {
    fn to_value(&self) -> Value {
        Value::List(
            self.0
                .iter()
                .map(|(k, v)| Value::Tuple(vec![k.to_value(), v.to_value()]))
                .collect(),
        )
    }
}

impl<T: ToValue> ToValue for BTreeSet<T> {
    fn to_value(&self) -> Value {
        Value::List(self.0.iter().map(ToValue::to_value).collect())
    }
}

impl<S: BitStore, O: BitOrder> ToValue for BitSequence<S, O> {
    fn to_value(&self) -> Value {
        Value::str(self.to_py_bit_string())
    }
}

impl<T> ToValue for WrapperKeepOpaque<T> {
    fn to_value(&self) -> Value {
        Value::hex(&self.data)
    }
}

impl<A: ToValue, C: ToValue, S: ToValue, E: ToValue, G: ToValue> ToValue
    for UncheckedExtrinsic<A, C, S, E, G>
{
    /// `{"address", "signature", "extra", "call"}` for a signed extrinsic,
    /// `{"call"}` for an unsigned one (a reduced form of py-scale-codec's
    /// extrinsic dict, which also carries hashes and the decoded era);
    /// format 5 adds `"version": 5`, and a general transaction its
    /// `"extension_version"` and `"extra"`.
    fn to_value(&self) -> Value {
        let mut fields = Vec::new();
        if self.version() == 5 {
            fields.push((name("version"), Value::UInt(5)));
        }
        match &self.preamble {
            Preamble::Bare(_) => {}
            Preamble::Signed(s) => {
                fields.push((name("address"), s.address.to_value()));
                fields.push((name("signature"), s.signature.to_value()));
                fields.push((name("extra"), s.extra.to_value()));
            }
            Preamble::General(g) => {
                fields.push((
                    name("extension_version"),
                    Value::UInt(g.extension_version.into()),
                ));
                fields.push((name("extra"), g.extensions.to_value()));
            }
        }
        fields.push((name("call"), self.function.to_value()));
        Value::Dict(fields)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_sequences_take_py_scale_codec_shapes() {
        // py-scale-codec reads the words as one little-endian integer.
        let bits = BitSequence::<u8, crate::bits::Lsb0>::from_bits(&[true, false]);
        assert_eq!(bits.to_value(), Value::str("0b01"));
    }
}
