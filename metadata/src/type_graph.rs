//! The type registry as a graph: which types a type refers to
//! ([`children`]), whether the registry holds together ([`check_registry`]),
//! and its strongly connected components ([`Components`], Tarjan's
//! algorithm). These are the one implementation of each rule; the structural
//! hash ([`crate::type_hash`]), the loader's checks, codegen's recursion
//! boxing and its registry validation all use them.

use scale_info::form::PortableForm;
use scale_info::{PortableRegistry, TypeDef};

use crate::Error;

/// Every type id a definition refers to, in definition order: fields of a
/// composite, fields of each variant in turn, tuple elements, the element
/// of a sequence, array or compact, and a bit sequence's store then order
/// type. Primitives refer to none. Generic parameters
/// (`Type::type_params`) are not part of the definition and not listed.
///
/// An iterator rather than a `Vec`: the loader walks every type of every
/// registry it checks, and allocating per type would show in load times.
pub fn children(def: &TypeDef<PortableForm>) -> impl Iterator<Item = u32> + '_ {
    // Each kind contributes through one of four slots; the others are empty,
    // so the chain below is one concrete iterator type for every kind.
    let (fields, variants, tuple, direct) = match def {
        TypeDef::Composite(c) => (&c.fields[..], &[][..], &[][..], [None, None]),
        TypeDef::Variant(v) => (&[][..], &v.variants[..], &[][..], [None, None]),
        TypeDef::Tuple(t) => (&[][..], &[][..], &t.fields[..], [None, None]),
        TypeDef::Sequence(s) => (&[][..], &[][..], &[][..], [Some(s.type_param.id), None]),
        TypeDef::Array(a) => (&[][..], &[][..], &[][..], [Some(a.type_param.id), None]),
        TypeDef::Compact(c) => (&[][..], &[][..], &[][..], [Some(c.type_param.id), None]),
        TypeDef::BitSequence(b) => (
            &[][..],
            &[][..],
            &[][..],
            [Some(b.bit_store_type.id), Some(b.bit_order_type.id)],
        ),
        TypeDef::Primitive(_) => (&[][..], &[][..], &[][..], [None, None]),
    };
    fields
        .iter()
        .map(|f| f.ty.id)
        .chain(
            variants
                .iter()
                .flat_map(|v| v.fields.iter().map(|f| f.ty.id)),
        )
        .chain(tuple.iter().map(|t| t.id))
        .chain(direct.into_iter().flatten())
}

/// What makes a registry not a well-formed graph ([`check_registry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryFault {
    /// The entry at `position` has another id.
    IdNotPosition {
        /// Where the entry stands.
        position: usize,
        /// The id it has.
        id: u32,
    },
    /// Type `from` refers to `to`, which is not in the registry of `len` types.
    Dangling {
        /// The referring type.
        from: u32,
        /// The id it refers to.
        to: u32,
        /// How many types the registry has.
        len: usize,
    },
}

impl std::fmt::Display for RegistryFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegistryFault::IdNotPosition { position, id } => write!(
                f,
                "registry entry {position} has id {id} (ids must equal positions)"
            ),
            RegistryFault::Dangling { from, to, len } => write!(
                f,
                "type {from} refers to type {to}, but the registry has {len} types"
            ),
        }
    }
}

impl std::error::Error for RegistryFault {}

impl From<RegistryFault> for Error {
    fn from(fault: RegistryFault) -> Self {
        Error::MetadataContent(fault.to_string())
    }
}

/// Checks that a registry is a well-formed graph: every type's id equals its
/// position, and every id a type refers to (its [`children`] and its generic
/// parameters) is in range. After this, `PortableRegistry::resolve` succeeds
/// on every id the registry mentions.
///
/// # Errors
///
/// The first fault, in registry order (for one type: its generic
/// parameters, then its definition).
pub fn check_registry(types: &PortableRegistry) -> Result<(), RegistryFault> {
    let len = types.types.len();
    for (position, t) in types.types.iter().enumerate() {
        if t.id as usize != position {
            return Err(RegistryFault::IdNotPosition { position, id: t.id });
        }
        let params = t.ty.type_params.iter().filter_map(|p| p.ty.map(|ty| ty.id));
        if let Some(to) = params
            .chain(children(&t.ty.type_def))
            .find(|&id| id as usize >= len)
        {
            return Err(RegistryFault::Dangling {
                from: t.id,
                to,
                len,
            });
        }
    }
    Ok(())
}

/// Strongly connected components of a directed graph whose nodes are
/// `0..n`: two nodes share a component exactly when each reaches the other.
///
/// Built by Tarjan's algorithm, iteratively: registries come from outside
/// and may nest deeper than the stack allows a recursive walk.
#[derive(Clone, Debug)]
pub struct Components {
    /// Component number of each node.
    of: Vec<u32>,
    /// Number of components.
    count: usize,
}

impl Components {
    /// The components of the graph with `edges[v]` the targets of node `v`.
    /// Targets outside `0..edges.len()` are skipped (a dangling id is the
    /// registry check's business, not the graph's).
    pub fn new(edges: &[Vec<u32>]) -> Self {
        const UNSEEN: u32 = u32::MAX;
        let n = edges.len();
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut of = vec![UNSEEN; n];
        let mut stack: Vec<usize> = Vec::new();
        let (mut next, mut count) = (0u32, 0u32);
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            // (node, position of its next edge): the recursion's frames.
            let mut frames = vec![(root, 0usize)];
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut pos)) = frames.last_mut() {
                if let Some(&w) = edges[v].get(*pos) {
                    *pos += 1;
                    let w = w as usize;
                    if w >= n {
                        continue;
                    }
                    if index[w] == UNSEEN {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        frames.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                } else {
                    frames.pop();
                    if let Some(&(parent, _)) = frames.last() {
                        low[parent] = low[parent].min(low[v]);
                    }
                    if low[v] == index[v] {
                        while let Some(w) = stack.pop() {
                            on_stack[w] = false;
                            of[w] = count;
                            if w == v {
                                break;
                            }
                        }
                        count += 1;
                    }
                }
            }
        }
        Components {
            of,
            count: count as usize,
        }
    }

    /// The component of `node` (`None` outside the graph).
    pub fn of(&self, node: usize) -> Option<u32> {
        self.of.get(node).copied()
    }

    /// The component of each node, indexed by node.
    pub fn as_slice(&self) -> &[u32] {
        &self.of
    }

    /// How many components there are (numbered `0..count`).
    pub fn count(&self) -> usize {
        self.count
    }

    /// Per component, whether it lies on a cycle of `edges` (the graph the
    /// components were built from): it has more than one node, or its one
    /// node refers to itself.
    pub fn cyclic(&self, edges: &[Vec<u32>]) -> Vec<bool> {
        let mut size = vec![0usize; self.count];
        for &c in &self.of {
            size[c as usize] += 1;
        }
        let mut cyclic: Vec<bool> = size.iter().map(|&s| s > 1).collect();
        for (v, out) in edges.iter().enumerate() {
            if out.contains(&(v as u32)) {
                cyclic[self.of[v] as usize] = true;
            }
        }
        cyclic
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_of_a_small_graph() {
        // 0 → 1 → 2 → 0 is one cycle; 3 → 3 a self-loop; 4 → 0 alone; the
        // dangling edge 4 → 9 is skipped.
        let edges = vec![vec![1], vec![2], vec![0], vec![3], vec![0, 9]];
        let c = Components::new(&edges);
        assert_eq!(c.count(), 3);
        assert_eq!(c.of(0), c.of(1));
        assert_eq!(c.of(1), c.of(2));
        assert_ne!(c.of(3), c.of(0));
        assert_ne!(c.of(4), c.of(0));
        assert_eq!(c.of(5), None);
        let cyclic = c.cyclic(&edges);
        assert!(cyclic[c.of(0).unwrap() as usize]);
        assert!(cyclic[c.of(3).unwrap() as usize]);
        assert!(!cyclic[c.of(4).unwrap() as usize]);
    }

    #[test]
    fn deep_chains_do_not_overflow_the_stack() {
        let n = 200_000u32;
        let edges: Vec<Vec<u32>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
        let c = Components::new(&edges);
        assert_eq!(c.count(), 1);
    }
}
