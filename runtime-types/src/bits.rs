//! Bit sequences (`BitVec<Store, Order>` in the metadata) without the `bitvec`
//! crate: a compact bit count followed by `ceil(bits / Store::BITS)` store
//! words, each little-endian; the order says which bit of a word comes first.
//!
//! Why not parity-scale-codec's `bit-vec` feature: it pulls `bitvec` (and its
//! `funty`/`radium`/`wyz` tree) into every build of the generated types for one
//! rarely used type, and its order types are generic traits that would make
//! every generated struct holding bits generic-heavy. This type is ~100 lines.

use std::fmt;
use std::marker::PhantomData;

use ferroscale_value::render::py_bit_string;
use parity_scale_codec::{Compact, Decode, Encode, Error, Input, Output};

/// The bit order of a store word.
pub trait BitOrder: Clone + fmt::Debug + PartialEq + Eq + 'static {
    /// `"Lsb0"` or `"Msb0"`.
    const NAME: &'static str;
    /// Position (shift from the least significant bit) of the `i`-th bit of a `width`-bit word.
    fn shift(i: u32, width: u32) -> u32;
}

/// Least significant bit first (`bitvec::order::Lsb0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lsb0;

/// Most significant bit first (`bitvec::order::Msb0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Msb0;

impl BitOrder for Lsb0 {
    const NAME: &'static str = "Lsb0";
    fn shift(i: u32, _width: u32) -> u32 {
        i
    }
}

impl BitOrder for Msb0 {
    const NAME: &'static str = "Msb0";
    fn shift(i: u32, width: u32) -> u32 {
        width - 1 - i
    }
}

/// A store word: `u8`, `u16`, `u32` or `u64`.
pub trait BitStore: Copy + Encode + Decode + fmt::Debug + PartialEq + Eq + 'static {
    /// Bits per word.
    const BITS: u32;
    /// The word as `u64`.
    fn to_u64(self) -> u64;
    /// The word from the low bits of a `u64`.
    fn from_u64(v: u64) -> Self;
}

macro_rules! store {
    ($($t:ty),*) => {$(
        impl BitStore for $t {
            const BITS: u32 = <$t>::BITS;
            fn to_u64(self) -> u64 { self as u64 }
            fn from_u64(v: u64) -> Self { v as $t }
        }
    )*};
}
store!(u8, u16, u32, u64);

/// The largest bit count parity-scale-codec accepts (its 32-bit architecture limit).
const MAX_BITS: u32 = 0x1fff_ffff;

/// A sequence of bits stored in words of `S`, ordered by `O`.
#[derive(Clone, PartialEq, Eq)]
pub struct BitSequence<S: BitStore, O: BitOrder> {
    len: u32,
    words: Vec<S>,
    order: PhantomData<O>,
}

impl<S: BitStore, O: BitOrder> BitSequence<S, O> {
    /// Bits from booleans.
    pub fn from_bits(bits: &[bool]) -> Self {
        let mut seq = BitSequence {
            len: 0,
            words: Vec::new(),
            order: PhantomData,
        };
        for &b in bits {
            seq.push(b);
        }
        seq
    }

    /// Appends one bit.
    pub fn push(&mut self, bit: bool) {
        let i = self.len % S::BITS;
        if i == 0 {
            self.words.push(S::from_u64(0));
        }
        if bit {
            let last = self.words.len() - 1;
            let w = self.words[last].to_u64() | 1 << O::shift(i, S::BITS);
            self.words[last] = S::from_u64(w);
        }
        self.len += 1;
    }

    /// Number of bits.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no bits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bit at `i`, if in range.
    pub fn get(&self, i: usize) -> Option<bool> {
        if i >= self.len as usize {
            return None;
        }
        let word = self.words[i / S::BITS as usize].to_u64();
        Some(word >> O::shift(i as u32 % S::BITS, S::BITS) & 1 == 1)
    }

    /// Every bit in order.
    pub fn iter(&self) -> impl Iterator<Item = bool> + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or(false))
    }

    /// py-scale-codec's text form (see [`py_bit_string`]) of the encoded words.
    pub fn to_py_bit_string(&self) -> String {
        let bytes: Vec<u8> = self.words.iter().flat_map(|w| w.encode()).collect();
        py_bit_string(&bytes, self.len as usize)
    }

    /// `"0b"` followed by the bits in order (bit 0 first).
    pub fn to_bit_string(&self) -> String {
        let mut s = String::with_capacity(2 + self.len());
        s.push_str("0b");
        s.extend(self.iter().map(|b| if b { '1' } else { '0' }));
        s
    }
}

impl<S: BitStore, O: BitOrder> fmt::Debug for BitSequence<S, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BitSequence<{}>({})", O::NAME, self.to_bit_string())
    }
}

impl<S: BitStore, O: BitOrder> Encode for BitSequence<S, O> {
    fn size_hint(&self) -> usize {
        5 + self.words.len() * (S::BITS as usize / 8)
    }

    fn encode_to<W: Output + ?Sized>(&self, dest: &mut W) {
        Compact(self.len).encode_to(dest);
        for w in &self.words {
            w.encode_to(dest);
        }
    }
}

impl<S: BitStore, O: BitOrder> Decode for BitSequence<S, O> {
    fn decode<I: Input>(input: &mut I) -> Result<Self, Error> {
        let Compact(len) = Compact::<u32>::decode(input)?;
        if len > MAX_BITS {
            return Err("bit sequence longer than 2^29 - 1 bits".into());
        }
        let words_len = len.div_ceil(S::BITS) as usize;
        // Allocation grows with the bytes actually read, not with the prefix.
        let mut words: Vec<S> = parity_scale_codec::decode_vec_with_len(input, words_len)?;
        // Bits past `len` in the last word are not part of the value; clear
        // them as parity-scale-codec's `BitVec` does, so re-encoding is canonical.
        let tail = len % S::BITS;
        if tail != 0 {
            if let Some(last) = words.last_mut() {
                let mask = (0..tail).fold(0u64, |m, i| m | 1 << O::shift(i, S::BITS));
                *last = S::from_u64(last.to_u64() & mask);
            }
        }
        Ok(BitSequence {
            len,
            words,
            order: PhantomData,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lsb0_and_msb0_place_bits_as_bitvec_does() {
        let bits = [true, false, true, true, false, false, false, false, true];
        let lsb = BitSequence::<u8, Lsb0>::from_bits(&bits);
        // bitvec![u8, Lsb0; 1,0,1,1,0,0,0,0,1] encodes as [0x24, 0x0d, 0x01].
        assert_eq!(lsb.encode(), vec![9 << 2, 0b0000_1101, 0b0000_0001]);
        let msb = BitSequence::<u8, Msb0>::from_bits(&bits);
        assert_eq!(msb.encode(), vec![9 << 2, 0b1011_0000, 0b1000_0000]);
        let back = BitSequence::<u8, Msb0>::decode(&mut &msb.encode()[..]).unwrap();
        assert_eq!(back, msb);
        assert_eq!(back.to_bit_string(), "0b101100001");
        let wide = BitSequence::<u32, Lsb0>::from_bits(&bits);
        assert_eq!(wide.encode(), vec![9 << 2, 0x0d, 0x01, 0, 0]);
    }

    #[test]
    fn truncated_and_oversized_inputs_are_errors() {
        assert!(BitSequence::<u8, Lsb0>::decode(&mut &[9 << 2, 0x0d][..]).is_err());
        // A huge bit count with no bytes behind it must not allocate or panic.
        let huge = Compact(MAX_BITS).encode();
        assert!(BitSequence::<u64, Lsb0>::decode(&mut &huge[..]).is_err());
        let too_many = Compact(MAX_BITS + 1).encode();
        assert!(BitSequence::<u8, Lsb0>::decode(&mut &too_many[..]).is_err());
    }
}
