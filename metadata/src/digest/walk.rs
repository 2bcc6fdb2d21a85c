//! Reading SCALE bytes through the RFC's types, recording which leaves the
//! bytes use: an enum's variant, a struct, tuple, array, sequence or bit
//! sequence (primitives and compacts are not leaves). Every length read
//! from the bytes is checked against the bytes left before anything is
//! skipped; nothing is allocated per element; nesting is bounded.

use std::collections::BTreeSet;
use std::ops::Range;

use parity_scale_codec::{Compact, Decode};

use super::shape::LeafKey;
use super::types::{Type, TypeDef, TypeRef};
use crate::Error;

/// How deep types may nest while reading (a hostile registry can be
/// recursive; real extrinsics nest a few dozen levels at most).
const MAX_DEPTH: usize = 256;

/// The leaves by RFC id: leaves sorted by key, and for each RFC id the
/// range of its leaves.
pub(crate) struct Leaves<'a> {
    keys: &'a [(LeafKey, Type)],
    by_id: Vec<Range<usize>>,
}

impl<'a> Leaves<'a> {
    /// Indexes leaves sorted by key (as `shape` gives them); RFC ids are
    /// dense from 0.
    pub(crate) fn new(leaves: &'a [(LeafKey, Type)]) -> Self {
        let mut by_id: Vec<Range<usize>> = Vec::new();
        for (i, ((id, _), _)) in leaves.iter().enumerate() {
            let id = *id as usize;
            if by_id.len() <= id {
                by_id.resize(id + 1, i..i);
            }
            by_id[id].end = i + 1;
        }
        Leaves {
            keys: leaves,
            by_id,
        }
    }

    /// The leaves of RFC id `id`.
    pub(crate) fn of(&self, id: u32) -> Result<&'a [(LeafKey, Type)], Error> {
        self.by_id
            .get(id as usize)
            .map(|r| &self.keys[r.clone()])
            .filter(|l| !l.is_empty())
            .ok_or_else(|| Error::Digest(format!("no type with RFC id {id}")))
    }

    /// The position (in leaf order) of the leaf with this key.
    pub(crate) fn position(&self, key: LeafKey) -> Option<usize> {
        self.keys.binary_search_by(|(k, _)| k.cmp(&key)).ok()
    }

    /// Records every leaf reachable from `ty`, whatever bytes would choose
    /// (all variants of every enum): the RFC's rule for the address and
    /// signature types of a signed extrinsic.
    pub(crate) fn all_below(&self, ty: TypeRef, used: &mut BTreeSet<LeafKey>) -> Result<(), Error> {
        let mut stack = vec![ty];
        while let Some(ty) = stack.pop() {
            let Some(id) = ty.id() else { continue };
            for (key, leaf) in self.of(id)? {
                if !used.insert(*key) {
                    continue;
                }
                match &leaf.type_def {
                    TypeDef::Composite(fields) => stack.extend(fields.iter().map(|f| f.ty)),
                    TypeDef::Enumeration(v) => stack.extend(v.fields.iter().map(|f| f.ty)),
                    TypeDef::Sequence(t) => stack.push(*t),
                    TypeDef::Array(a) => stack.push(a.type_param),
                    TypeDef::Tuple(ts) => stack.extend(ts.iter().copied()),
                    TypeDef::BitSequence(_) => {}
                }
            }
        }
        Ok(())
    }
}

/// A reader of one byte string through the types, collecting the leaves used.
pub(crate) struct Walker<'a, 'b> {
    leaves: &'b Leaves<'a>,
    /// The leaves the bytes used so far.
    pub(crate) used: &'b mut BTreeSet<LeafKey>,
}

fn short(what: &str) -> Error {
    Error::Digest(format!("the bytes end inside {what}"))
}

fn take<'x>(input: &mut &'x [u8], n: usize, what: &str) -> Result<&'x [u8], Error> {
    if input.len() < n {
        return Err(short(what));
    }
    let (head, tail) = input.split_at(n);
    *input = tail;
    Ok(head)
}

fn compact<T>(input: &mut &[u8], what: &str) -> Result<T, Error>
where
    Compact<T>: Decode,
{
    Compact::<T>::decode(input)
        .map(|c| c.0)
        .map_err(|_| Error::Digest(format!("invalid compact integer in {what}")))
}

impl<'a, 'b> Walker<'a, 'b> {
    /// A walker over these leaves, adding to `used`.
    pub(crate) fn new(leaves: &'b Leaves<'a>, used: &'b mut BTreeSet<LeafKey>) -> Self {
        Walker { leaves, used }
    }

    /// Reads one value of type `ty` from the front of `input`.
    pub(crate) fn read(&mut self, ty: TypeRef, input: &mut &[u8]) -> Result<(), Error> {
        self.value(ty, input, 0)
    }

    fn value(&mut self, ty: TypeRef, input: &mut &[u8], depth: usize) -> Result<(), Error> {
        let fixed = |input: &mut &[u8], n: usize, what: &str| take(input, n, what).map(drop);
        match ty {
            TypeRef::Void => Ok(()),
            TypeRef::Bool => match take(input, 1, "a bool")?[0] {
                0 | 1 => Ok(()),
                b => Err(Error::Digest(format!("invalid bool byte {b}"))),
            },
            TypeRef::Char => {
                let b = take(input, 4, "a char")?;
                let c = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                char::from_u32(c)
                    .map(drop)
                    .ok_or_else(|| Error::Digest(format!("invalid char {c:#x}")))
            }
            TypeRef::Str => {
                let len = compact::<u32>(input, "a string's length")?;
                fixed(input, len as usize, "a string")
            }
            TypeRef::U8 | TypeRef::I8 => fixed(input, 1, "an integer"),
            TypeRef::U16 | TypeRef::I16 => fixed(input, 2, "an integer"),
            TypeRef::U32 | TypeRef::I32 => fixed(input, 4, "an integer"),
            TypeRef::U64 | TypeRef::I64 => fixed(input, 8, "an integer"),
            TypeRef::U128 | TypeRef::I128 => fixed(input, 16, "an integer"),
            TypeRef::U256 | TypeRef::I256 => fixed(input, 32, "an integer"),
            TypeRef::CompactU8 => compact::<u8>(input, "a Compact<u8>").map(drop),
            TypeRef::CompactU16 => compact::<u16>(input, "a Compact<u16>").map(drop),
            TypeRef::CompactU32 => compact::<u32>(input, "a Compact<u32>").map(drop),
            TypeRef::CompactU64 => compact::<u64>(input, "a Compact<u64>").map(drop),
            TypeRef::CompactU128 => compact::<u128>(input, "a Compact<u128>").map(drop),
            TypeRef::CompactU256 => Err(Error::Digest(
                "Compact<u256> values are not supported".into(),
            )),
            TypeRef::ById(id) => {
                if depth >= MAX_DEPTH {
                    return Err(Error::Digest(format!("types nest deeper than {MAX_DEPTH}")));
                }
                self.by_id(id.0, input, depth + 1)
            }
        }
    }

    fn by_id(&mut self, id: u32, input: &mut &[u8], depth: usize) -> Result<(), Error> {
        let leaves = self.leaves.of(id)?;
        let ((_, _), first) = &leaves[0];
        match &first.type_def {
            TypeDef::Enumeration(_) => {
                let index = u32::from(take(input, 1, "an enum's variant index")?[0]);
                let leaf = leaves
                    .iter()
                    .find(|(_, t)| matches!(&t.type_def, TypeDef::Enumeration(v) if v.index.0 == index))
                    .ok_or_else(|| Error::Digest(format!("type {id} has no variant {index}")))?;
                self.used.insert(leaf.0);
                let TypeDef::Enumeration(v) = &leaf.1.type_def else {
                    unreachable!("matched as an enumeration above")
                };
                for f in &v.fields {
                    self.value(f.ty, input, depth)?;
                }
                Ok(())
            }
            TypeDef::Composite(fields) => {
                self.used.insert((id, 0));
                fields
                    .iter()
                    .try_for_each(|f| self.value(f.ty, input, depth))
            }
            TypeDef::Tuple(types) => {
                self.used.insert((id, 0));
                types.iter().try_for_each(|t| self.value(*t, input, depth))
            }
            TypeDef::Sequence(t) => {
                self.used.insert((id, 0));
                let len = compact::<u32>(input, "a sequence's length")?;
                self.elements(*t, u64::from(len), input, depth)
            }
            TypeDef::Array(a) => {
                self.used.insert((id, 0));
                self.elements(a.type_param, u64::from(a.len), input, depth)
            }
            TypeDef::BitSequence(b) => {
                self.used.insert((id, 0));
                let bits = compact::<u32>(input, "a bit sequence's length")?;
                let store_bits = u64::from(b.num_bytes.max(1)) * 8;
                let bytes = u64::from(bits).div_ceil(store_bits) * u64::from(b.num_bytes);
                let bytes = usize::try_from(bytes).map_err(|_| short("a bit sequence"))?;
                take(input, bytes, "a bit sequence").map(drop)
            }
        }
    }

    /// `count` elements of one type. An element that reads no bytes took
    /// no choice either, so the others would record the same leaves: the
    /// loop stops there (a billion-element array of `()` costs nothing).
    fn elements(
        &mut self,
        ty: TypeRef,
        count: u64,
        input: &mut &[u8],
        depth: usize,
    ) -> Result<(), Error> {
        for _ in 0..count {
            let before = input.len();
            self.value(ty, input, depth)?;
            if input.len() == before {
                break;
            }
        }
        Ok(())
    }
}
