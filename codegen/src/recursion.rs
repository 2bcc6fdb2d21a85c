//! Which fields must be boxed: a Rust type cannot contain itself by value, so
//! every field whose type lies on a cycle of by-value containment with the type
//! holding it gets a `Box`. Sequences (`Vec`) already add indirection and break
//! cycles; composites, variants, tuples, arrays and compacts do not.

use scale_info::{PortableRegistry, TypeDef};

/// Strongly connected components of the by-value containment graph.
pub(crate) struct Recursion {
    /// Component of each type id (index = type id).
    component: Vec<u32>,
    /// Whether a component is recursive (more than one type, or a self-loop).
    recursive: Vec<bool>,
}

impl Recursion {
    /// Analyses every type of the registry.
    pub(crate) fn new(types: &PortableRegistry) -> Self {
        let n = types.types.len();
        let edges: Vec<Vec<u32>> = (0..n)
            .map(|i| by_value_children(&types.types[i].ty.type_def))
            .collect();
        let (component, count) = tarjan(&edges);
        let mut size = vec![0usize; count];
        for &c in &component {
            size[c as usize] += 1;
        }
        let mut recursive: Vec<bool> = size.iter().map(|&s| s > 1).collect();
        for (i, out) in edges.iter().enumerate() {
            if out.contains(&(i as u32)) {
                recursive[component[i] as usize] = true;
            }
        }
        Recursion {
            component,
            recursive,
        }
    }

    /// Whether a field of type `field` inside type `holder` must be boxed.
    pub(crate) fn needs_box(&self, holder: u32, field: u32) -> bool {
        match (
            self.component.get(holder as usize),
            self.component.get(field as usize),
        ) {
            (Some(a), Some(b)) => a == b && self.recursive[*a as usize],
            _ => false,
        }
    }
}

/// The types a type holds by value (no indirection in between).
fn by_value_children(def: &TypeDef<scale_info::form::PortableForm>) -> Vec<u32> {
    match def {
        TypeDef::Composite(c) => c.fields.iter().map(|f| f.ty.id).collect(),
        TypeDef::Variant(v) => v
            .variants
            .iter()
            .flat_map(|v| v.fields.iter().map(|f| f.ty.id))
            .collect(),
        TypeDef::Tuple(t) => t.fields.iter().map(|f| f.id).collect(),
        TypeDef::Array(a) => vec![a.type_param.id],
        TypeDef::Compact(c) => vec![c.type_param.id],
        TypeDef::Sequence(_) | TypeDef::Primitive(_) | TypeDef::BitSequence(_) => Vec::new(),
    }
}

/// Tarjan's algorithm without recursion (registries come from outside and may
/// be deep): returns each node's component number and the number of components.
fn tarjan(edges: &[Vec<u32>]) -> (Vec<u32>, usize) {
    const UNSEEN: u32 = u32::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNSEEN; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut next_index = 0u32;
    let mut components = 0u32;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, next edge position) frames.
        let mut frames: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = frames.last_mut() {
            if let Some(&w) = edges[v].get(*pos) {
                *pos += 1;
                let w = w as usize;
                if w >= n {
                    continue; // dangling id: reported elsewhere
                }
                if index[w] == UNSEEN {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w as u32);
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
                        on_stack[w as usize] = false;
                        component[w as usize] = components;
                        if w as usize == v {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
    }
    (component, components as usize)
}
