//! The parsed form of a type string.

use std::fmt;

/// A parsed type string.
///
/// `Display` renders the canonical form: `Name`, `Name<A, B>`, `(A, B)`,
/// `[T; N]`, `&[u8]`, `<T as Trait>::Name`. Names keep their case; lookups
/// lower-case the canonical form, as py-scale-codec lower-cases its keys.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeExpr {
    /// A name or `::` path: `u32`, `AccountId`, `sp_runtime::DispatchError`, `*::Call`.
    Path(String),
    /// `scale_info::N`: type `N` of the runtime's portable registry.
    ScaleInfo(u32),
    /// `Base<A, B, …>`: `Vec<T>`, `BTreeMap<K, V>`, `BoundedVec<T, S>`, preset generics.
    Generic(String, Vec<TypeExpr>),
    /// `(A, B, …)`; `(A)` is a one-element tuple. `()` only survives in keys
    /// parsed without rewrites (it becomes `Null` otherwise).
    Tuple(Vec<TypeExpr>),
    /// `[T; N]`.
    Array(Box<TypeExpr>, u64),
    /// `&[u8]` (only in keys parsed without rewrites; `Bytes` otherwise).
    ByteSlice,
    /// `<Self as Trait>::Name`, when no rewrite applies.
    Qualified {
        /// The type before `as`.
        self_ty: Box<TypeExpr>,
        /// The trait after `as`.
        trait_ty: Box<TypeExpr>,
        /// The associated name after `::`.
        assoc: String,
    },
}

impl TypeExpr {
    /// A plain name.
    pub fn path(name: impl Into<String>) -> Self {
        TypeExpr::Path(name.into())
    }

    /// The canonical form, lower-cased: the key registries look names up by.
    pub fn key(&self) -> String {
        self.to_string().to_lowercase()
    }

    /// Nesting depth (a name is 1).
    pub fn depth(&self) -> usize {
        match self {
            TypeExpr::Path(_) | TypeExpr::ScaleInfo(_) | TypeExpr::ByteSlice => 1,
            TypeExpr::Generic(_, args) | TypeExpr::Tuple(args) => {
                1 + args.iter().map(TypeExpr::depth).max().unwrap_or(0)
            }
            TypeExpr::Array(inner, _) => 1 + inner.depth(),
            TypeExpr::Qualified {
                self_ty, trait_ty, ..
            } => 1 + self_ty.depth().max(trait_ty.depth()),
        }
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, items: &[TypeExpr]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl fmt::Display for TypeExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeExpr::Path(name) => f.write_str(name),
            TypeExpr::ScaleInfo(n) => write!(f, "scale_info::{n}"),
            TypeExpr::Generic(base, args) => {
                write!(f, "{base}<")?;
                write_list(f, args)?;
                f.write_str(">")
            }
            TypeExpr::Tuple(items) => {
                f.write_str("(")?;
                write_list(f, items)?;
                f.write_str(")")
            }
            TypeExpr::Array(inner, len) => write!(f, "[{inner}; {len}]"),
            TypeExpr::ByteSlice => f.write_str("&[u8]"),
            TypeExpr::Qualified {
                self_ty,
                trait_ty,
                assoc,
            } => write!(f, "<{self_ty} as {trait_ty}>::{assoc}"),
        }
    }
}
