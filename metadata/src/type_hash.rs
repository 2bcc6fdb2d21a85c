//! Structural hashes of registry types: a 128-bit digest of a type's shape —
//! what it is (struct, enum, sequence …), its path, field names, variant
//! names and indices, and the shapes it contains, recursively — and nothing
//! else (no type ids, docs, generic parameter names or `typeName` strings).
//!
//! Two registries give a type the same hash exactly when it has the same wire
//! format and the same names, so the hash can tell whether a Rust type
//! generated for one runtime still fits a type of another runtime: the
//! generated code records the hash of each of its types, and the dynamic
//! layer uses a generated decoder only where the hashes agree.
//!
//! Recursive types are hashed with back-references (how many levels up the
//! type refers to), so the hash does not depend on type ids. A type's hash is
//! always that of the walk rooted at it: a remembered hash is reused only
//! where no type above on the walk lies on a cycle with it (strongly
//! connected components tell), so the order of calls never changes a hash.

use std::collections::HashMap;

use ferroscale_core::hashing::blake2_128;
use scale_info::form::PortableForm;
use scale_info::{Field, PortableRegistry, TypeDef, TypeDefPrimitive};

use crate::type_graph::{self, Components};
use crate::Error;

/// Deepest nesting the walk follows before it refuses the registry.
const MAX_DEPTH: usize = 512;

/// The structural hash of registry type `id`.
pub fn type_hash(types: &PortableRegistry, id: u32) -> Result<u128, Error> {
    TypeHasher::new(types).hash(id)
}

/// Hashes many types of one registry, sharing the work between them.
pub struct TypeHasher<'a> {
    types: &'a PortableRegistry,
    /// Hashes of walks rooted at a type (see [`TypeHasher::visit`]).
    done: HashMap<u32, u128>,
    /// Strongly connected component of each type id (index = position in the registry).
    component: Vec<u32>,
}

impl<'a> TypeHasher<'a> {
    /// A hasher over `types`.
    pub fn new(types: &'a PortableRegistry) -> Self {
        TypeHasher {
            types,
            done: HashMap::new(),
            component: components(types),
        }
    }

    /// The structural hash of type `id`.
    pub fn hash(&mut self, id: u32) -> Result<u128, Error> {
        let mut stack = Vec::new();
        self.visit(id, &mut stack).map(|(h, _)| h)
    }

    /// Whether a type on the walk lies on a cycle with `id`: then `id`'s
    /// shape below this point refers back up, and differs from its rooted walk.
    fn cycle_on_stack(&self, id: u32, stack: &[u32]) -> bool {
        let c = self.component.get(id as usize);
        c.is_some() && stack.iter().any(|&s| self.component.get(s as usize) == c)
    }

    /// Returns the hash and the lowest walk position the shape refers back to
    /// (`usize::MAX` when none).
    fn visit(&mut self, id: u32, stack: &mut Vec<u32>) -> Result<(u128, usize), Error> {
        if let Some(pos) = stack.iter().rposition(|&s| s == id) {
            let mut buf = vec![b'R'];
            buf.extend_from_slice(&((stack.len() - pos) as u64).to_le_bytes());
            return Ok((digest(&buf), pos));
        }
        let rooted = !self.cycle_on_stack(id, stack);
        if rooted {
            if let Some(&h) = self.done.get(&id) {
                return Ok((h, usize::MAX));
            }
        }
        if stack.len() >= MAX_DEPTH {
            return Err(Error::MetadataContent(format!(
                "type {id} nests deeper than {MAX_DEPTH} levels"
            )));
        }
        let ty = self.types.resolve(id).ok_or_else(|| {
            Error::MetadataContent(format!("type id {id} is not in the registry"))
        })?;
        let own = stack.len();
        stack.push(id);
        let mut buf = Vec::with_capacity(64);
        let mut low = usize::MAX;
        put_strs(&mut buf, ty.path.segments.iter().map(String::as_str));
        let result = (|| {
            match &ty.type_def {
                TypeDef::Composite(c) => {
                    buf.push(b'C');
                    self.fields(&c.fields, stack, &mut buf, &mut low)?;
                }
                TypeDef::Variant(v) => {
                    buf.push(b'V');
                    put_len(&mut buf, v.variants.len());
                    for var in &v.variants {
                        put_str(&mut buf, &var.name);
                        buf.push(var.index);
                        self.fields(&var.fields, stack, &mut buf, &mut low)?;
                    }
                }
                TypeDef::Sequence(s) => {
                    buf.push(b'S');
                    self.child(s.type_param.id, stack, &mut buf, &mut low)?;
                }
                TypeDef::Array(a) => {
                    buf.push(b'A');
                    put_len(&mut buf, a.len as usize);
                    self.child(a.type_param.id, stack, &mut buf, &mut low)?;
                }
                TypeDef::Tuple(t) => {
                    buf.push(b'T');
                    put_len(&mut buf, t.fields.len());
                    for f in &t.fields {
                        self.child(f.id, stack, &mut buf, &mut low)?;
                    }
                }
                TypeDef::Primitive(p) => {
                    buf.push(b'P');
                    buf.push(primitive_code(p));
                }
                TypeDef::Compact(c) => {
                    buf.push(b'K');
                    self.child(c.type_param.id, stack, &mut buf, &mut low)?;
                }
                TypeDef::BitSequence(b) => {
                    buf.push(b'B');
                    self.child(b.bit_store_type.id, stack, &mut buf, &mut low)?;
                    self.child(b.bit_order_type.id, stack, &mut buf, &mut low)?;
                }
            }
            Ok::<(), Error>(())
        })();
        stack.pop();
        result?;
        let h = digest(&buf);
        if rooted {
            self.done.insert(id, h);
        }
        Ok((h, if low >= own { usize::MAX } else { low }))
    }

    fn fields(
        &mut self,
        fields: &[Field<PortableForm>],
        stack: &mut Vec<u32>,
        buf: &mut Vec<u8>,
        low: &mut usize,
    ) -> Result<(), Error> {
        put_len(buf, fields.len());
        for f in fields {
            match &f.name {
                Some(n) => {
                    buf.push(1);
                    put_str(buf, n);
                }
                None => buf.push(0),
            }
            self.child(f.ty.id, stack, buf, low)?;
        }
        Ok(())
    }

    fn child(
        &mut self,
        id: u32,
        stack: &mut Vec<u32>,
        buf: &mut Vec<u8>,
        low: &mut usize,
    ) -> Result<(), Error> {
        let (h, l) = self.visit(id, stack)?;
        buf.extend_from_slice(&h.to_le_bytes());
        *low = (*low).min(l);
        Ok(())
    }
}

/// Strongly connected component of each type id of the "contains" graph
/// ([`type_graph::children`]), indexed by type id.
fn components(types: &PortableRegistry) -> Vec<u32> {
    let position: HashMap<u32, u32> = types
        .types
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id, i as u32))
        .collect();
    let edges: Vec<Vec<u32>> = types
        .types
        .iter()
        .map(|t| {
            type_graph::children(&t.ty.type_def)
                .filter_map(|c| position.get(&c).copied())
                .collect()
        })
        .collect();
    let component = Components::new(&edges);
    // Indexed by type id (ids are positions in FRAME registries; others are
    // looked up through `position` and fall back to "no cycle").
    let mut by_id = vec![u32::MAX; types.types.len()];
    for (i, t) in types.types.iter().enumerate() {
        if let (Some(slot), Some(c)) = (by_id.get_mut(t.id as usize), component.of(i)) {
            *slot = c;
        }
    }
    by_id
}

fn digest(bytes: &[u8]) -> u128 {
    u128::from_le_bytes(blake2_128(bytes))
}

fn put_len(buf: &mut Vec<u8>, n: usize) {
    buf.extend_from_slice(&(n as u64).to_le_bytes());
}

fn put_str(buf: &mut Vec<u8>, s: &str) {
    put_len(buf, s.len());
    buf.extend_from_slice(s.as_bytes());
}

fn put_strs<'s>(buf: &mut Vec<u8>, items: impl ExactSizeIterator<Item = &'s str>) {
    put_len(buf, items.len());
    for s in items {
        put_str(buf, s);
    }
}

fn primitive_code(p: &TypeDefPrimitive) -> u8 {
    match p {
        TypeDefPrimitive::Bool => 0,
        TypeDefPrimitive::Char => 1,
        TypeDefPrimitive::Str => 2,
        TypeDefPrimitive::U8 => 3,
        TypeDefPrimitive::U16 => 4,
        TypeDefPrimitive::U32 => 5,
        TypeDefPrimitive::U64 => 6,
        TypeDefPrimitive::U128 => 7,
        TypeDefPrimitive::U256 => 8,
        TypeDefPrimitive::I8 => 9,
        TypeDefPrimitive::I16 => 10,
        TypeDefPrimitive::I32 => 11,
        TypeDefPrimitive::I64 => 12,
        TypeDefPrimitive::I128 => 13,
        TypeDefPrimitive::I256 => 14,
    }
}
