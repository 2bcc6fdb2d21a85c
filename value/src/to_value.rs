//! [`ToValue`]: a typed Rust value as a dynamic [`Value`] in py-scale-codec's
//! shapes (the value contract of `DESIGN.md`): integers as numbers,
//! `Vec<u8>` as text or `"0x…"`, byte arrays as `"0x…"`, `Option` as `Null`
//! or the value, `Result` as `{"Ok": …}`/`{"Err": …}`, tuples as tuples (a
//! 1-tuple unwrapped). The impls for the standard types live here; generated
//! chain modules and `ferroscale-runtime-types`' own types implement it for
//! theirs.

use std::sync::Arc;

use parity_scale_codec::Compact;

use crate::Value;

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
        // py-scale-codec 1.2.12 renders `[u8; 0]` as `[]`, like any empty array
        if items.is_empty() {
            return Value::List(Vec::new());
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_types_take_py_scale_codec_shapes() {
        assert_eq!(b"hi".to_vec().to_value(), Value::str("hi"));
        assert_eq!(vec![0xffu8, 0].to_value(), Value::str("0xff00"));
        assert_eq!([1u8, 2].to_value(), Value::str("0x0102"));
        assert_eq!([0u8; 0].to_value(), Value::List(Vec::new()));
        assert_eq!([0xabu8; 65].to_value(), Value::hex(&[0xab; 65]));
        assert_eq!([0xcdu8; 64].to_value(), Value::hex(&[0xcd; 64]));
        assert_eq!(
            vec![1u32, 2].to_value(),
            Value::List(vec![Value::UInt(1), Value::UInt(2)])
        );
        assert_eq!((7u8,).to_value(), Value::UInt(7));
        assert_eq!(Option::<u8>::None.to_value(), Value::Null);
        assert_eq!(Compact(5u64).to_value(), Value::UInt(5));
    }
}
