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

use std::sync::Arc;

pub use ferroscale_core::value::Value;
use parity_scale_codec::Compact;

use crate::bits::{BitOrder, BitSequence, BitStore};
use crate::{AccountId20, AccountId32, BTreeMap, BTreeSet, MultiAddress, UncheckedExtrinsic};
use crate::{WrapperKeepOpaque, H160, H256, H512, I256, U256};

/// A typed value as a dynamic [`Value`].
pub trait ToValue {
    /// The value.
    fn to_value(&self) -> Value;

    /// A sequence of these (`Vec<Self>`): a list, except bytes (text or hex).
    fn seq_to_value(items: &[Self]) -> Value
    where
        Self: Sized,
    {
        Value::List(items.iter().map(ToValue::to_value).collect())
    }

    /// An array of these (`[Self; N]`): a list, except bytes (hex).
    fn array_to_value(items: &[Self]) -> Value
    where
        Self: Sized,
    {
        Value::List(items.iter().map(ToValue::to_value).collect())
    }
}

/// A field or variant name as the shared string type of [`Value`].
pub fn name(s: &'static str) -> Arc<str> {
    Arc::from(s)
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::UInt(*self as u128)
            }
        }
    )*};
}
unsigned!(u16, u32, u64, u128);

macro_rules! signed {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(*self as i128)
            }
        }
    )*};
}
signed!(i8, i16, i32, i64, i128);

impl ToValue for u8 {
    fn to_value(&self) -> Value {
        Value::UInt(u128::from(*self))
    }
    fn seq_to_value(items: &[Self]) -> Value {
        Value::bytes_or_text(items)
    }
    fn array_to_value(items: &[Self]) -> Value {
        Value::hex(items)
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::str(self.as_str())
    }
}

/// The empty tuple is an empty tuple (py-scale-codec's `()`), as the
/// dynamic decoder gives a registry's `()` type.
impl ToValue for () {
    fn to_value(&self) -> Value {
        Value::Tuple(Vec::new())
    }
}

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Value {
        T::seq_to_value(self)
    }
}

impl<T: ToValue, const N: usize> ToValue for [T; N] {
    fn to_value(&self) -> Value {
        T::array_to_value(self)
    }
}

impl<T: ToValue> ToValue for Box<T> {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        match self {
            Some(v) => v.to_value(),
            None => Value::Null,
        }
    }
}

impl<T: ToValue, E: ToValue> ToValue for Result<T, E> {
    fn to_value(&self) -> Value {
        match self {
            Ok(v) => Value::Dict(vec![(name("Ok"), v.to_value())]),
            Err(e) => Value::Dict(vec![(name("Err"), e.to_value())]),
        }
    }
}

impl<T: ToValue> ToValue for Compact<T> {
    fn to_value(&self) -> Value {
        self.0.to_value()
    }
}

macro_rules! tuples {
    ($(($($n:tt $t:ident),+))*) => {$(
        impl<$($t: ToValue),+> ToValue for ($($t,)+) {
            fn to_value(&self) -> Value {
                let items = vec![$(self.$n.to_value()),+];
                // py-scale-codec unwraps a 1-tuple to its element.
                if items.len() == 1 {
                    items.into_iter().next().unwrap_or(Value::Null)
                } else {
                    Value::Tuple(items)
                }
            }
        }
    )*};
}
tuples! {
    (0 A)
    (0 A, 1 B)
    (0 A, 1 B, 2 C)
    (0 A, 1 B, 2 C, 3 D)
    (0 A, 1 B, 2 C, 3 D, 4 E)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L, 12 M)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L, 12 M, 13 N)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L, 12 M, 13 N, 14 O)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L, 12 M, 13 N, 14 O, 15 P)
}

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

impl<A: ToValue, C: ToValue, S: ToValue, E: ToValue> ToValue for UncheckedExtrinsic<A, C, S, E> {
    /// `{"address", "signature", "extra", "call"}` for a signed extrinsic,
    /// `{"call"}` for an unsigned one (a reduced form of py-scale-codec's
    /// extrinsic dict, which also carries hashes and the decoded era).
    fn to_value(&self) -> Value {
        let mut fields = Vec::new();
        if let Some(s) = &self.signature {
            fields.push((name("address"), s.address.to_value()));
            fields.push((name("signature"), s.signature.to_value()));
            fields.push((name("extra"), s.extra.to_value()));
        }
        fields.push((name("call"), self.function.to_value()));
        Value::Dict(fields)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_types_take_py_scale_codec_shapes() {
        assert_eq!(b"hi".to_vec().to_value(), Value::str("hi"));
        assert_eq!(vec![0xffu8, 0].to_value(), Value::str("0xff00"));
        assert_eq!([1u8, 2].to_value(), Value::str("0x0102"));
        assert_eq!([0xabu8; 65].to_value(), Value::hex(&[0xab; 65]));
        assert_eq!([0xcdu8; 64].to_value(), Value::hex(&[0xcd; 64]));
        assert_eq!(
            vec![1u32, 2].to_value(),
            Value::List(vec![Value::UInt(1), Value::UInt(2)])
        );
        assert_eq!((7u8,).to_value(), Value::UInt(7));
        assert_eq!(Option::<u8>::None.to_value(), Value::Null);
        assert_eq!(Compact(5u64).to_value(), Value::UInt(5));
        // py-scale-codec reads the words as one little-endian integer.
        let bits = BitSequence::<u8, crate::bits::Lsb0>::from_bits(&[true, false]);
        assert_eq!(bits.to_value(), Value::str("0b01"));
    }
}
