//! py-scale-codec 1.2.12's `generate_type_decomposition` of a portable
//! registry type (`scale_info::N`), the shape `get_param_info` shows for a
//! call argument, an event field or a storage key.
//!
//! py-scale-codec builds a Python class per registry type and asks that class
//! for its decomposition; what it gives depends on the class: the one a
//! preset names for the type's path (`sp_core::crypto::AccountId32` →
//! `GenericAccountId`, `AccountId`), else the one of the definition kind.
//! This module follows the same choices over the registry itself: the class
//! behind a path comes from the registry's preset definitions
//! ([`PathClass::of`]), and structs, enums and tuples are read from the type
//! definitions with py-scale-codec's rules (a 1-tuple is its element, unit
//! variants give a tuple of names, `Vec<u8>` is `"Bytes"`, an `Option` is
//! `(None, inner)`, structs and enums deeper than `max_recursion` give their
//! class name).

use std::cell::Cell;

use scale_info::form::PortableForm;
use scale_info::{Field, PortableRegistry, Type, TypeDef, TypeDefPrimitive};

use crate::error::Error;
use crate::preset::{Definition, Definitions};

/// The most shapes one decomposition may hold. py-scale-codec expands every
/// struct and enum down to `max_recursion` levels, which on the real
/// runtimes of the fixtures reaches about 50,000 (an XCM call's nested
/// instructions); a hostile registry could make it exponential.
pub const MAX_SHAPES: usize = 1_000_000;

/// Nesting past which a type is named whatever it is (py-scale-codec limits
/// structs and enums only; a registry type that nests itself through tuples
/// and sequences alone would never end).
const MAX_LEVEL_OVER: u32 = 64;

/// Nesting past which the walk stops whatever `max_recursion` asks (the
/// walk recurses once per level: a bounded stack).
const MAX_LEVEL: u32 = 512;

/// A decomposition as py-scale-codec's Python values: text, `None`, tuples,
/// lists and dicts (whose keys may be `None` for the gaps of an enum's
/// variant indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A type name (`"u32"`, `"AccountId"`, `"scale_info::12"`, `"Bytes"` …).
    Name(String),
    /// `None`.
    None,
    /// A tuple.
    Tuple(Vec<Shape>),
    /// A one-element list (a sequence of the shape).
    List(Box<Shape>),
    /// A dict in insertion order.
    Dict(Vec<(Option<String>, Shape)>),
}

/// The py-scale-codec class a preset gives a portable type through its path,
/// as far as it changes the decomposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathClass {
    /// `GenericAccountId`: `"AccountId"`.
    AccountId,
    /// `GenericCall`: `"Call"`.
    Call,
    /// `GenericVote`: `{"aye": "bool", "conviction": (names…)}`.
    Vote,
    /// `Option`: `(None, first type parameter)`.
    Option,
    /// `BoundedVec`: a `Vec` of the first type parameter.
    BoundedVec,
    /// `WrapperKeepOpaque`: the second field's shape.
    WrapperKeepOpaque,
    /// `Data`: its own fixed variants.
    Data,
    /// A class that decomposes to its name (`Era`, maps, sets, `H256`,
    /// `U256` …): `scale_info::N`.
    Named,
    /// A struct, enum or tuple class: the definition decides.
    Plain,
}

/// The conviction names py-scale-codec's `Conviction` lists.
const CONVICTIONS: [&str; 7] = [
    "None", "Locked1x", "Locked2x", "Locked3x", "Locked4x", "Locked5x", "Locked6x",
];

impl PathClass {
    /// The class behind a py-scale-codec class name (lower case), as far as
    /// its decomposition goes; `None` for a name that is not one of its
    /// classes.
    fn of_class(lower: &str) -> Option<PathClass> {
        Some(match lower {
            "genericaccountid" | "multiaccountid" => PathClass::AccountId,
            "genericcall" => PathClass::Call,
            "genericvote" => PathClass::Vote,
            "option" => PathClass::Option,
            "boundedvec" => PathClass::BoundedVec,
            "wrapperkeepopaque" => PathClass::WrapperKeepOpaque,
            "data" => PathClass::Data,
            "era"
            | "map"
            | "btreemap"
            | "hashmap"
            | "boundedbtreemap"
            | "btreeset"
            | "h160"
            | "h256"
            | "h512"
            | "u256"
            | "genericethereumaccountid"
            | "null"
            | "bitvec"
            | "bytes"
            | "hexbytes"
            | "str"
            | "string"
            | "text" => PathClass::Named,
            "struct"
            | "enum"
            | "tuple"
            | "genericmultiaddress"
            | "genericscaleinfoevent"
            | "genericeventrecord"
            | "genericevent" => PathClass::Plain,
            _ => return None,
        })
    }

    /// The class of a name as the registry's presets define it: an alias is
    /// followed, a struct or enum definition gives its `base_class`; a name
    /// the presets lack may still be one of py-scale-codec's classes.
    fn of_name(defs: &Definitions, name: &str) -> Option<PathClass> {
        let mut name = name.to_owned();
        for _ in 0..16 {
            let Some(def) = defs.lookup(&name) else {
                return PathClass::of_class(&name.to_lowercase());
            };
            match &def.def {
                Definition::Alias(target) => name = target.clone(),
                other => {
                    return Some(
                        other
                            .base_class()
                            .and_then(|b| PathClass::of_class(&b.to_lowercase()))
                            .unwrap_or(PathClass::Plain),
                    )
                }
            }
        }
        None
    }

    /// The class py-scale-codec picks for a type with this path: the path
    /// joined by `::`, then `*::` and the path without its first segment,
    /// then one `*::` per leading segment and the last one.
    pub fn of(defs: &Definitions, path: &[String]) -> Option<PathClass> {
        let (Some(last), false) = (path.last(), path.is_empty()) else {
            return None;
        };
        let full = path.join("::");
        let wildcard = format!("*::{}", path[1..].join("::"));
        let catch_all = format!("{}{last}", "*::".repeat(path.len() - 1));
        [full, wildcard, catch_all]
            .iter()
            .find_map(|name| PathClass::of_name(defs, name))
    }
}

/// The decomposition of `scale_info::<id>`, with classes from `defs`;
/// structs and enums deeper than `max_recursion` give their class name. An
/// error when it would hold more than [`MAX_SHAPES`] shapes.
pub fn decompose(
    types: &PortableRegistry,
    defs: &Definitions,
    id: u32,
    max_recursion: u32,
) -> Result<Shape, Error> {
    let walk = Walk {
        types,
        defs,
        max: max_recursion,
        left: Cell::new(MAX_SHAPES),
    };
    let shape = walk.id(id, 0);
    if walk.left.get() == 0 {
        return Err(Error::Usage(format!(
            "the decomposition of scale_info::{id} would hold more than {MAX_SHAPES} parts \
             (lower max_recursion)"
        )));
    }
    Ok(shape)
}

struct Walk<'a> {
    types: &'a PortableRegistry,
    defs: &'a Definitions,
    max: u32,
    /// Shapes the walk may still make.
    left: Cell<usize>,
}

/// The name py-scale-codec gives the class of registry type `id`.
fn class_name(id: u32) -> Shape {
    Shape::Name(format!("scale_info::{id}"))
}

impl Walk<'_> {
    fn ty(&self, id: u32) -> Option<&Type<PortableForm>> {
        self.types.resolve(id)
    }

    fn id(&self, id: u32, level: u32) -> Shape {
        let left = self.left.get();
        if left == 0 || level > self.max.saturating_add(MAX_LEVEL_OVER).min(MAX_LEVEL) {
            self.left.set(0);
            return class_name(id);
        }
        self.left.set(left - 1);
        let Some(ty) = self.ty(id) else {
            return class_name(id);
        };
        let class = PathClass::of(self.defs, &ty.path.segments);
        let param = |i: usize| ty.type_params.get(i).and_then(|p| p.ty).map(|t| t.id);
        match class {
            Some(PathClass::AccountId) => return Shape::Name("AccountId".into()),
            Some(PathClass::Call) => return Shape::Name("Call".into()),
            Some(PathClass::Named) => return class_name(id),
            Some(PathClass::Data) if level > self.max => return class_name(id),
            Some(PathClass::Data) => return data_shape(),
            Some(PathClass::Vote) => return vote_shape(),
            Some(PathClass::Option) => {
                return match param(0) {
                    Some(inner) => Shape::Tuple(vec![Shape::None, self.id(inner, level + 1)]),
                    None => class_name(id),
                }
            }
            Some(PathClass::BoundedVec) => {
                return match param(0) {
                    Some(inner) => self.sequence(inner, level),
                    None => class_name(id),
                }
            }
            Some(PathClass::WrapperKeepOpaque) => {
                if let TypeDef::Composite(c) = &ty.type_def {
                    if let Some(f) = c.fields.get(1) {
                        return self.id(f.ty.id, level + 1);
                    }
                }
                return class_name(id);
            }
            Some(PathClass::Plain) | None => {}
        }
        match &ty.type_def {
            TypeDef::Primitive(p) => Shape::Name(primitive(p).into()),
            TypeDef::Array(a) => {
                let inner = self.id(a.type_param.id, level + 1);
                Shape::Name(format!("[{}; {}]", flat(&inner), a.len))
            }
            TypeDef::Composite(c) => self.fields(&c.fields, level, || class_name(id)),
            TypeDef::Sequence(s) => self.sequence(s.type_param.id, level),
            TypeDef::Variant(v) => {
                if level > self.max {
                    return class_name(id);
                }
                let len = v.variants.iter().map(|v| v.index as usize + 1).max();
                let mut slots: Vec<Option<&scale_info::Variant<PortableForm>>> =
                    vec![None; len.unwrap_or(0)];
                for var in &v.variants {
                    slots[var.index as usize] = Some(var);
                }
                if slots.iter().all(|s| s.is_none_or(|v| v.fields.is_empty())) {
                    return Shape::Tuple(
                        slots
                            .iter()
                            .flatten()
                            .map(|v| Shape::Name(v.name.clone()))
                            .collect(),
                    );
                }
                Shape::Dict(
                    slots
                        .iter()
                        .map(|slot| match slot {
                            None => (None, Shape::None),
                            Some(v) => (Some(v.name.clone()), self.variant(&v.fields, level)),
                        })
                        .collect(),
                )
            }
            TypeDef::Tuple(t) => {
                self.tuple(&t.fields.iter().map(|f| f.id).collect::<Vec<_>>(), level)
            }
            TypeDef::Compact(c) => self.id(c.type_param.id, level + 1),
            TypeDef::BitSequence(_) => Shape::Name("BitVec".into()),
        }
    }

    /// A `Vec<T>`: `"Bytes"` for bytes, else `[shape]`.
    fn sequence(&self, inner: u32, level: u32) -> Shape {
        match self.id(inner, level + 1) {
            Shape::Name(n) if n == "u8" => Shape::Name("Bytes".into()),
            other => Shape::List(Box::new(other)),
        }
    }

    /// A tuple class: `()` empty, its element for one, else a tuple.
    fn tuple(&self, items: &[u32], level: u32) -> Shape {
        let mut shapes: Vec<Shape> = items.iter().map(|t| self.id(*t, level + 1)).collect();
        if shapes.len() == 1 {
            return shapes.pop().unwrap_or(Shape::None);
        }
        Shape::Tuple(shapes)
    }

    /// A composite: a struct when every field is named (or there are none),
    /// else a tuple of the field types.
    fn fields(
        &self,
        fields: &[Field<PortableForm>],
        level: u32,
        name: impl Fn() -> Shape,
    ) -> Shape {
        if fields.iter().all(|f| f.name.is_some()) {
            if level > self.max {
                return name();
            }
            return Shape::Dict(
                fields
                    .iter()
                    .map(|f| (f.name.clone(), self.id(f.ty.id, level + 1)))
                    .collect(),
            );
        }
        self.tuple(&fields.iter().map(|f| f.ty.id).collect::<Vec<_>>(), level)
    }

    /// An enum variant's value, one level down: `None` without fields, an
    /// inner struct for named fields, the type for one unnamed field, a
    /// tuple for several.
    fn variant(&self, fields: &[Field<PortableForm>], level: u32) -> Shape {
        match fields {
            [] => Shape::None,
            [one] if one.name.is_none() => self.id(one.ty.id, level + 1),
            _ => self.fields(fields, level + 1, || Shape::Name("InnerStruct".into())),
        }
    }
}

/// A name as text inside an array's `[T; N]` (py-scale-codec formats the
/// element's decomposition with `str`).
fn flat(shape: &Shape) -> String {
    match shape {
        Shape::Name(n) => n.clone(),
        Shape::None => "None".into(),
        Shape::List(inner) => format!("[{}]", flat_quoted(inner)),
        Shape::Tuple(items) if items.len() == 1 => format!("({},)", flat_quoted(&items[0])),
        Shape::Tuple(items) => format!(
            "({})",
            items.iter().map(flat_quoted).collect::<Vec<_>>().join(", ")
        ),
        Shape::Dict(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!(
                    "{}: {}",
                    k.as_ref().map_or("None".into(), |k| quote(k)),
                    flat_quoted(v)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `flat` inside a container, where Python's `repr` quotes strings.
fn flat_quoted(shape: &Shape) -> String {
    match shape {
        Shape::Name(n) => quote(n),
        other => flat(other),
    }
}

/// Python's `repr` of a string without quotes or backslashes in it.
fn quote(text: &str) -> String {
    format!("'{text}'")
}

fn primitive(p: &TypeDefPrimitive) -> &'static str {
    match p {
        TypeDefPrimitive::Bool => "bool",
        TypeDefPrimitive::Char => "char",
        TypeDefPrimitive::Str => "Str",
        TypeDefPrimitive::U8 => "u8",
        TypeDefPrimitive::U16 => "u16",
        TypeDefPrimitive::U32 => "u32",
        TypeDefPrimitive::U64 => "u64",
        TypeDefPrimitive::U128 => "u128",
        TypeDefPrimitive::U256 => "u256",
        TypeDefPrimitive::I8 => "i8",
        TypeDefPrimitive::I16 => "i16",
        TypeDefPrimitive::I32 => "i32",
        TypeDefPrimitive::I64 => "i64",
        TypeDefPrimitive::I128 => "i128",
        TypeDefPrimitive::I256 => "i256",
    }
}

/// py-scale-codec's `Data` class: its own variants (`None`, `Raw` bytes and
/// four 32-byte hashes).
fn data_shape() -> Shape {
    let mut entries = vec![
        (Some("None".into()), Shape::None),
        (Some("Raw".into()), Shape::Name("Bytes".into())),
    ];
    for hash in ["BlakeTwo256", "Sha256", "Keccak256", "ShaThree256"] {
        entries.push((Some(hash.into()), Shape::Name("h256".into())));
    }
    Shape::Dict(entries)
}

/// py-scale-codec's `GenericVote`: the aye flag and the conviction names.
fn vote_shape() -> Shape {
    Shape::Dict(vec![
        (Some("aye".into()), Shape::Name("bool".into())),
        (
            Some("conviction".into()),
            Shape::Tuple(
                CONVICTIONS
                    .iter()
                    .map(|c| Shape::Name((*c).into()))
                    .collect(),
            ),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use scale_info::form::PortableForm;
    use scale_info::{
        Field, Path, PortableRegistryBuilder, Type, TypeDefPrimitive, TypeDefTuple, TypeDefVariant,
        Variant,
    };

    use super::{decompose, Shape, MAX_SHAPES};
    use crate::preset::Definitions;

    fn ty(def: impl Into<scale_info::TypeDef<PortableForm>>) -> Type<PortableForm> {
        Type::new(Path::default(), vec![], def, vec![])
    }

    #[test]
    fn a_type_that_nests_itself_through_tuples_is_named_not_followed_forever() {
        // `struct A((A,))`-like: a tuple whose element is itself, with no
        // struct or enum on the way for the depth limit to stop at
        let mut b = PortableRegistryBuilder::new();
        let id = b.next_type_id();
        b.register_type(ty(TypeDefTuple::new_portable([id.into(), id.into()])));
        match decompose(&b.finish(), &Definitions::new(), id, 9) {
            Err(e) => assert!(e.to_string().contains("scale_info::0"), "{e}"),
            Ok(_) => panic!("a self-nesting tuple was decomposed"),
        }
    }

    #[test]
    fn a_huge_max_recursion_stops_at_a_bounded_depth() {
        // struct A { a: (A,) }: followed for as deep as max_recursion allows
        let mut b = PortableRegistryBuilder::new();
        let id = b.next_type_id();
        let field = Field::new(Some("a".into()), (id + 1).into(), None, vec![]);
        b.register_type(ty(scale_info::TypeDefComposite::new([field])));
        b.register_type(ty(TypeDefTuple::new_portable([id.into()])));
        assert!(decompose(&b.finish(), &Definitions::new(), id, u32::MAX).is_err());
    }

    #[test]
    fn an_exponential_decomposition_is_refused() {
        // enum E { V0(E, E), …, V15(E, E) }: each enum level is two walk levels
        // down (variant, tuple), so 5 of them under max_recursion 9: 32^5 shapes
        let mut b = PortableRegistryBuilder::new();
        let id = b.next_type_id();
        let field = || Field::new(None, id.into(), None, vec![]);
        let variants =
            (0..16u8).map(|i| Variant::new(format!("V{i}"), vec![field(), field()], i, vec![]));
        b.register_type(ty(TypeDefVariant::new(variants)));
        match decompose(&b.finish(), &Definitions::new(), id, 9) {
            Err(e) => assert!(e.to_string().contains(&MAX_SHAPES.to_string()), "{e}"),
            Ok(_) => panic!("an exponential decomposition was built"),
        }
    }

    #[test]
    fn unit_variants_with_a_gap_in_their_indices_give_a_tuple_of_names() {
        let mut b = PortableRegistryBuilder::new();
        let u8_id = b.register_type(ty(TypeDefPrimitive::U8));
        let variants = [
            Variant::new("A".into(), vec![], 0, vec![]),
            Variant::new("C".into(), vec![], 2, vec![]),
        ];
        let unit = b.register_type(ty(TypeDefVariant::new(variants)));
        let with_value = b.register_type(ty(TypeDefVariant::new([
            Variant::new("A".into(), vec![], 0, vec![]),
            Variant::new(
                "C".into(),
                vec![Field::new(None, u8_id.into(), None, vec![])],
                2,
                vec![],
            ),
        ])));
        let reg = b.finish();
        let name = |n: &str| Shape::Name(n.into());
        assert_eq!(
            decompose(&reg, &Definitions::new(), unit, 9).unwrap(),
            Shape::Tuple(vec![name("A"), name("C")])
        );
        // a gap is a `None` entry, as py-scale-codec's placeholder variants give
        assert_eq!(
            decompose(&reg, &Definitions::new(), with_value, 9).unwrap(),
            Shape::Dict(vec![
                (Some("A".into()), Shape::None),
                (None, Shape::None),
                (Some("C".into()), name("u8"))
            ])
        );
    }
}
