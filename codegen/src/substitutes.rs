//! Well-known metadata types replaced by hand-written types of
//! `ferroscale-runtime-types` (usable APIs: SS58 text, byte access …) or by
//! Rust's own (`Option`, `Result`). A substitute is used only when the
//! metadata's shape is the one the hand-written type encodes; otherwise the
//! type is generated like any other, so the wire format stays right.

use scale_info::form::PortableForm;
use scale_info::{PortableRegistry, Type, TypeDef, TypeDefPrimitive};

/// How a type with a well-known path is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Substitute {
    /// A hand-written type of `ferroscale_runtime_types` taking the metadata
    /// type's generic parameters positionally (`n` of them).
    Runtime(&'static str, usize),
    /// Rust's `Option<T>`.
    Option,
    /// Rust's `Result<T, E>`.
    Result,
    /// A transparent wrapper (`Cow<T>`) rendered as its only field.
    Transparent,
    /// A bit order marker (`bitvec::order::Lsb0`/`Msb0`), only used inside bit sequences.
    BitOrder(&'static str),
}

/// The substitute for `ty`, if its path is well known and its shape matches.
pub(crate) fn substitute_for(
    types: &PortableRegistry,
    ty: &Type<PortableForm>,
) -> Option<Substitute> {
    let segments: Vec<&str> = ty.path.segments.iter().map(String::as_str).collect();
    let params = ty.type_params.len();
    let s = match segments.as_slice() {
        ["Option"] if is_option(ty) => Substitute::Option,
        ["Result"] if is_result(ty) => Substitute::Result,
        ["Cow"] if single_field(ty).is_some() => Substitute::Transparent,
        ["bitvec", "order", "Lsb0"] => Substitute::BitOrder("Lsb0"),
        ["bitvec", "order", "Msb0"] => Substitute::BitOrder("Msb0"),
        ["sp_core", "crypto", "AccountId32"] if byte_array_newtype(types, ty, 32) => {
            Substitute::Runtime("AccountId32", 0)
        }
        [.., "AccountId20"] if byte_array_newtype(types, ty, 20) => {
            Substitute::Runtime("AccountId20", 0)
        }
        ["primitive_types", "H160"] if byte_array_newtype(types, ty, 20) => {
            Substitute::Runtime("H160", 0)
        }
        ["primitive_types", "H256"] if byte_array_newtype(types, ty, 32) => {
            Substitute::Runtime("H256", 0)
        }
        ["primitive_types", "H512"] if byte_array_newtype(types, ty, 64) => {
            Substitute::Runtime("H512", 0)
        }
        ["sp_runtime", "multiaddress", "MultiAddress"] if params == 2 && is_multi_address(ty) => {
            Substitute::Runtime("MultiAddress", 2)
        }
        ["BTreeMap"] if params == 2 && is_vec_newtype(types, ty) => {
            Substitute::Runtime("BTreeMap", 2)
        }
        ["BTreeSet"] if params == 1 && is_vec_newtype(types, ty) => {
            Substitute::Runtime("BTreeSet", 1)
        }
        [.., "WrapperKeepOpaque"] if params == 1 && is_keep_opaque(types, ty) => {
            Substitute::Runtime("WrapperKeepOpaque", 1)
        }
        ["sp_runtime", "generic", "unchecked_extrinsic", "UncheckedExtrinsic"]
            if params == 4 && is_vec_newtype(types, ty) =>
        {
            Substitute::Runtime("UncheckedExtrinsic", 4)
        }
        _ => return None,
    };
    Some(s)
}

fn single_field(ty: &Type<PortableForm>) -> Option<u32> {
    match &ty.type_def {
        TypeDef::Composite(c) if c.fields.len() == 1 => Some(c.fields[0].ty.id),
        _ => None,
    }
}

fn variant_names(ty: &Type<PortableForm>) -> Option<Vec<(&str, u8, usize)>> {
    match &ty.type_def {
        TypeDef::Variant(v) => Some(
            v.variants
                .iter()
                .map(|v| (v.name.as_str(), v.index, v.fields.len()))
                .collect(),
        ),
        _ => None,
    }
}

fn is_option(ty: &Type<PortableForm>) -> bool {
    variant_names(ty) == Some(vec![("None", 0, 0), ("Some", 1, 1)])
}

fn is_result(ty: &Type<PortableForm>) -> bool {
    variant_names(ty) == Some(vec![("Ok", 0, 1), ("Err", 1, 1)])
}

fn is_multi_address(ty: &Type<PortableForm>) -> bool {
    variant_names(ty)
        == Some(vec![
            ("Id", 0, 1),
            ("Index", 1, 1),
            ("Raw", 2, 1),
            ("Address32", 3, 1),
            ("Address20", 4, 1),
        ])
}

/// A composite whose only field is `[u8; len]`.
fn byte_array_newtype(types: &PortableRegistry, ty: &Type<PortableForm>, len: u32) -> bool {
    let Some(field) = single_field(ty) else {
        return false;
    };
    match types.resolve(field).map(|t| &t.type_def) {
        Some(TypeDef::Array(a)) => a.len == len && is_u8(types, a.type_param.id),
        _ => false,
    }
}

/// A composite whose only field is a sequence (`BTreeMap`'s `Vec<(K, V)>`,
/// `UncheckedExtrinsic`'s opaque `Vec<u8>`).
fn is_vec_newtype(types: &PortableRegistry, ty: &Type<PortableForm>) -> bool {
    single_field(ty)
        .and_then(|f| types.resolve(f))
        .is_some_and(|t| matches!(t.type_def, TypeDef::Sequence(_)))
}

/// `WrapperKeepOpaque<T>`: a compact length followed by `T`'s bytes.
fn is_keep_opaque(types: &PortableRegistry, ty: &Type<PortableForm>) -> bool {
    match &ty.type_def {
        TypeDef::Composite(c) if c.fields.len() == 2 => types
            .resolve(c.fields[0].ty.id)
            .is_some_and(|t| matches!(t.type_def, TypeDef::Compact(_))),
        _ => false,
    }
}

fn is_u8(types: &PortableRegistry, id: u32) -> bool {
    matches!(
        types.resolve(id).map(|t| &t.type_def),
        Some(TypeDef::Primitive(TypeDefPrimitive::U8))
    )
}
