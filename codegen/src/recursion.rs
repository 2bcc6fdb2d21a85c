//! Which fields must be boxed: a Rust type cannot contain itself by value, so
//! every field whose type lies on a cycle of by-value containment with the type
//! holding it gets a `Box`. Sequences (`Vec`) already add indirection and break
//! cycles; composites, variants, tuples, arrays and compacts do not.

use ferroscale_metadata::type_graph::{self, Components};
use scale_info::form::PortableForm;
use scale_info::{PortableRegistry, TypeDef};

/// Strongly connected components of the by-value containment graph.
pub(crate) struct Recursion {
    /// Component of each type id (index = type id).
    components: Components,
    /// Whether a component is recursive (more than one type, or a self-loop).
    recursive: Vec<bool>,
    /// Whether each type lies on a cycle of containment of any kind (a
    /// sequence included): such a type reaches itself through its own
    /// fields' types, so codec impls bounded by those fields' types would
    /// make the trait solver chase them for ever
    /// (`CallTrace<U256>` holding `Vec<CallTrace<U256>>`, E0275).
    self_referring: Vec<bool>,
}

impl Recursion {
    /// Analyses every type of the registry.
    pub(crate) fn new(types: &PortableRegistry) -> Self {
        let edges: Vec<Vec<u32>> = types
            .types
            .iter()
            .map(|t| by_value_children(&t.ty.type_def))
            .collect();
        let components = Components::new(&edges);
        let recursive = components.cyclic(&edges);
        let all_edges: Vec<Vec<u32>> = types
            .types
            .iter()
            .map(|t| type_graph::children(&t.ty.type_def).collect())
            .collect();
        let all = Components::new(&all_edges);
        let cyclic = all.cyclic(&all_edges);
        let self_referring = (0..types.types.len())
            .map(|i| all.of(i).is_some_and(|c| cyclic[c as usize]))
            .collect();
        Recursion {
            components,
            recursive,
            self_referring,
        }
    }

    /// Whether type `id` reaches itself through the types of its fields,
    /// by value or behind a sequence.
    pub(crate) fn refers_to_itself(&self, id: u32) -> bool {
        self.self_referring
            .get(id as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Whether a field of type `field` inside type `holder` must be boxed.
    pub(crate) fn needs_box(&self, holder: u32, field: u32) -> bool {
        match (
            self.components.of(holder as usize),
            self.components.of(field as usize),
        ) {
            (Some(a), Some(b)) => a == b && self.recursive[a as usize],
            _ => false,
        }
    }
}

/// The types a type holds by value (no indirection in between): all the
/// types it refers to, except behind a sequence (a `Vec` points to its
/// elements; a bit sequence's store and order are markers, not contents).
fn by_value_children(def: &TypeDef<PortableForm>) -> Vec<u32> {
    match def {
        TypeDef::Sequence(_) | TypeDef::BitSequence(_) => Vec::new(),
        _ => type_graph::children(def).collect(),
    }
}
