//! A type's decomposition: its shape down to primitive names, as
//! py-scale-codec's `generate_type_decomposition` gives it (used to describe
//! storage parameters and runtime-API arguments).

use crate::graph::{Fields, Node, TypeGraph, TypeIdx};

/// Nesting past which a type is given by its name (recursive types).
pub const MAX_DEPTH: u32 = 32;

/// The shape of a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decomposition {
    /// A primitive (`"u32"`, `"str"`) or a type named as it is (`AccountId`, …).
    Name(String),
    /// An enum whose variants carry no single value: the variant names.
    Names(Vec<String>),
    /// An enum: each variant's name and the shape of its single value.
    Variants(Vec<(String, Option<Decomposition>)>),
    /// A struct: field names and shapes.
    Fields(Vec<(String, Decomposition)>),
    /// A tuple.
    Tuple(Vec<Decomposition>),
    /// A sequence or array of the shape.
    Seq(Box<Decomposition>),
}

/// The decomposition of node `ty` of `graph`.
pub fn decompose(graph: &TypeGraph, ty: TypeIdx) -> Decomposition {
    walk(graph, ty, 0)
}

/// The value of an enum variant as a decomposition sees it: the single
/// unnamed field, if that is what the variant carries.
fn single(fields: &Fields) -> Option<TypeIdx> {
    match fields {
        Fields::Unnamed(ts) if ts.len() == 1 => Some(ts[0]),
        _ => None,
    }
}

fn walk(graph: &TypeGraph, ty: TypeIdx, depth: u32) -> Decomposition {
    let named = || Decomposition::Name(graph.describe(ty));
    if depth > MAX_DEPTH {
        return named();
    }
    let next = |t: TypeIdx| walk(graph, t, depth + 1);
    match graph.get(ty) {
        Some(Node::Prim(p)) => Decomposition::Name(format!("{p:?}").to_lowercase()),
        Some(Node::Enum(vs)) => {
            if vs.iter().all(|v| single(&v.fields).is_none()) {
                Decomposition::Names(vs.iter().map(|v| v.name.to_string()).collect())
            } else {
                Decomposition::Variants(
                    vs.iter()
                        .map(|v| (v.name.to_string(), single(&v.fields).map(next)))
                        .collect(),
                )
            }
        }
        Some(Node::Struct(fs)) => Decomposition::Fields(
            fs.iter()
                .map(|f| (f.name.to_string(), next(f.ty)))
                .collect(),
        ),
        Some(Node::Tuple(ts)) => Decomposition::Tuple(ts.iter().map(|t| next(*t)).collect()),
        Some(Node::Seq(t) | Node::Array(t, _)) => Decomposition::Seq(Box::new(next(*t))),
        Some(Node::Compact(t) | Node::Option(t)) => next(*t),
        _ => named(),
    }
}
