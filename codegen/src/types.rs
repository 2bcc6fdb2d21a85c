//! The type graph → Rust items: which registry types become generated
//! definitions (and under which name), how any type id is written at a use
//! site, and each definition's tokens.
//!
//! Naming: a type with a path `a::b::Name` lives at `runtime_types::a::b::Name`.
//! All instances of a generic type share one definition whose fields name the
//! generic parameters; instances whose definitions differ even after that
//! (colliding paths) are split into `Name`, `Name2`, … by order of first type
//! id, repeated until no definition changes (a split can change the
//! definitions of the types that refer to the split one).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use ferroscale_metadata::type_graph::{self, children, Components, RegistryFault};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use scale_info::form::PortableForm;
use scale_info::{Field, PortableRegistry, Type, TypeDef, TypeDefPrimitive};

use crate::codec::{codec_impls, Bounds, FieldLayout, Fields, Layout, VariantLayout};
use crate::idents::{clean, ident};
use crate::recursion::Recursion;
use crate::substitutes::{substitute_for, Substitute};
use crate::CodegenError;

/// How one registry type is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A generated definition: index into `shapes`.
    Generated(usize),
    /// A well-known substitute.
    Substituted(Substitute),
    /// Written in place: primitives, tuples, sequences, arrays, compacts, bit sequences.
    Inline,
}

/// One generated definition (a struct or an enum).
#[derive(Debug, Clone)]
pub(crate) struct Shape {
    /// Module segments below `runtime_types` (already valid identifiers).
    pub module: Vec<String>,
    /// Type name (a valid identifier).
    pub name: String,
    /// Type ids of every instance, ascending; the first one is the representative.
    pub instances: Vec<u32>,
}

/// A generic parameter in scope while writing a definition: the type id it
/// stands for in the instance being written, its name, and whether it was used.
struct Params {
    /// (type id, name, position in the type's `type_params`).
    list: Vec<(u32, Ident, usize)>,
    used: RefCell<Vec<bool>>,
    /// Parameters some field holds as `#[codec(compact)]`.
    compact: RefCell<Vec<bool>>,
}

impl Params {
    fn none() -> Self {
        Params {
            list: Vec::new(),
            used: RefCell::new(Vec::new()),
            compact: RefCell::new(Vec::new()),
        }
    }

    fn of(ty: &Type<PortableForm>) -> Self {
        let mut list: Vec<(u32, Ident, usize)> = Vec::new();
        for (pos, p) in ty.type_params.iter().enumerate() {
            if let Some(t) = p.ty {
                // The first parameter standing for a type id wins; a later one
                // with the same id is then unused and dropped.
                if !list.iter().any(|(id, _, _)| *id == t.id) {
                    list.push((t.id, ident(&p.name), pos));
                }
            }
        }
        let used = RefCell::new(vec![false; list.len()]);
        let compact = RefCell::new(vec![false; list.len()]);
        Params {
            list,
            used,
            compact,
        }
    }

    /// Records that a field holds parameter `id` as `#[codec(compact)]`.
    fn mark_compact(&self, id: u32) {
        if let Some(pos) = self.list.iter().position(|(t, _, _)| *t == id) {
            self.compact.borrow_mut()[pos] = true;
        }
    }

    /// The codec impls' bounds on the parameters themselves, for a type
    /// whose field-type bounds would recurse: each used parameter bound by
    /// `codec` (the trait `Encode` or `Decode`), and by `HasCompact` where a
    /// field holds it compact.
    fn codec_bounds(&self, codec: TokenStream) -> Vec<TokenStream> {
        let used = self.used.borrow();
        let compact = self.compact.borrow();
        self.list
            .iter()
            .enumerate()
            .filter(|(i, _)| used[*i])
            .map(|(i, (_, name, _))| {
                if compact[i] {
                    quote!(#name: #codec + ::parity_scale_codec::HasCompact)
                } else {
                    quote!(#name: #codec)
                }
            })
            .collect()
    }

    fn lookup(&self, id: u32) -> Option<Ident> {
        let pos = self.list.iter().position(|(t, _, _)| *t == id)?;
        self.used.borrow_mut()[pos] = true;
        Some(self.list[pos].1.clone())
    }

    fn used_idents(&self) -> Vec<Ident> {
        let used = self.used.borrow();
        self.list
            .iter()
            .zip(used.iter())
            .filter(|(_, u)| **u)
            .map(|((_, i, _), _)| i.clone())
            .collect()
    }

    fn used_positions(&self) -> Vec<usize> {
        let used = self.used.borrow();
        self.list
            .iter()
            .zip(used.iter())
            .filter(|(_, u)| **u)
            .map(|((_, _, p), _)| *p)
            .collect()
    }
}

/// The writer of type references and definitions for one registry.
pub(crate) struct TypeGen<'a> {
    types: &'a PortableRegistry,
    recursion: Recursion,
    class: Vec<Class>,
    /// The generated definitions, in a deterministic order.
    pub shapes: Vec<Shape>,
    /// Shapes used inside `Compact<…>` (they get a `CompactAs` impl).
    compact_shapes: RefCell<BTreeSet<usize>>,
    /// Per shape, the positions of the generic parameters its definition keeps.
    used: Vec<Vec<usize>>,
    /// The runtime lists transaction-extension versions besides 0, so its
    /// `UncheckedExtrinsic` carries the chain's `TransactionExtensions`
    /// (wherever the type appears: runtime API parameters, blocks).
    general_extensions: bool,
    /// The runtime's call, event and error enums over its pallets, by type
    /// id: `"call"`, `"event"`, `"error"` (their variants are pallets).
    outer: BTreeMap<u32, &'static str>,
}

impl<'a> TypeGen<'a> {
    /// Classifies every type, names the generated ones and resolves collisions.
    pub(crate) fn new(types: &'a PortableRegistry) -> Result<Self, CodegenError> {
        validate(types)?;
        let mut class = Vec::with_capacity(types.types.len());
        let mut groups: BTreeMap<(Vec<String>, String), Vec<u32>> = BTreeMap::new();
        for t in &types.types {
            let ty = &t.ty;
            let c = if let Some(s) = substitute_for(types, ty) {
                Class::Substituted(s)
            } else if matches!(ty.type_def, TypeDef::Composite(_) | TypeDef::Variant(_)) {
                let (module, name) = if ty.path.segments.is_empty() {
                    // Anonymous composites do not occur in FRAME metadata; give
                    // them a stable home rather than failing.
                    (vec!["anonymous".to_owned()], format!("Type{}", t.id))
                } else {
                    let segs = &ty.path.segments;
                    (
                        segs[..segs.len() - 1].iter().map(|s| clean(s)).collect(),
                        clean(&segs[segs.len() - 1]),
                    )
                };
                groups.entry((module, name)).or_default().push(t.id);
                Class::Generated(usize::MAX) // assigned below
            } else {
                Class::Inline
            };
            class.push(c);
        }
        let shapes: Vec<Shape> = groups
            .into_iter()
            .map(|((module, name), instances)| Shape {
                module,
                name,
                instances,
            })
            .collect();
        for (i, s) in shapes.iter().enumerate() {
            for &id in &s.instances {
                class[id as usize] = Class::Generated(i);
            }
        }
        let mut gen = TypeGen {
            types,
            recursion: Recursion::new(types),
            class,
            shapes,
            compact_shapes: RefCell::new(BTreeSet::new()),
            used: Vec::new(),
            general_extensions: false,
            outer: BTreeMap::new(),
        };
        check_inline_cycles(&gen)?;
        gen.compute_used_params();
        gen.split_collisions();
        gen.make_names_unique();
        Ok(gen)
    }

    /// Splits every shape whose instances have different definitions, until stable.
    fn split_collisions(&mut self) {
        loop {
            let mut changed = false;
            let mut new_shapes: Vec<Shape> = Vec::new();
            for shape in &self.shapes {
                let mut parts: Vec<(String, Vec<u32>)> = Vec::new();
                for &id in &shape.instances {
                    let key = self.definition_key(id);
                    match parts.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, ids)) => ids.push(id),
                        None => parts.push((key, vec![id])),
                    }
                }
                changed |= parts.len() > 1;
                for (k, (_, ids)) in parts.into_iter().enumerate() {
                    let name = if k == 0 {
                        shape.name.clone()
                    } else {
                        format!("{}{}", shape.name, k + 1)
                    };
                    new_shapes.push(Shape {
                        module: shape.module.clone(),
                        name,
                        instances: ids,
                    });
                }
            }
            if !changed {
                return;
            }
            self.shapes = new_shapes;
            for (i, s) in self.shapes.iter().enumerate() {
                for &id in &s.instances {
                    self.class[id as usize] = Class::Generated(i);
                }
            }
            self.compute_used_params();
        }
    }

    /// Which generic parameters each definition keeps: those its body names.
    /// A body names the parameters of the types it refers to only where those
    /// keep them, so this is a fixpoint that only grows.
    fn compute_used_params(&mut self) {
        self.used = vec![Vec::new(); self.shapes.len()];
        loop {
            let next: Vec<Vec<usize>> = (0..self.shapes.len())
                .map(|s| {
                    let rep = self.shapes[s].instances[0];
                    let params = Params::of(self.ty(rep));
                    let _ = self.layout(rep, 0, &params);
                    params.used_positions()
                })
                .collect();
            if next == self.used {
                return;
            }
            self.used = next;
        }
    }

    /// Gives a unique name to shapes that still share a module and name (a
    /// split suffix meeting an existing type), and keeps names off the prelude
    /// types the generated code uses unqualified.
    fn make_names_unique(&mut self) {
        let mut taken: BTreeSet<(Vec<String>, String)> = BTreeSet::new();
        for s in &mut self.shapes {
            let mut name = s.name.clone();
            if ["Vec", "Option", "Result", "Box", "String"].contains(&name.as_str()) {
                name.push_str("Type");
            }
            while taken.contains(&(s.module.clone(), name.clone())) {
                name.push('_');
            }
            taken.insert((s.module.clone(), name.clone()));
            s.name = name;
        }
    }

    /// A definition's text with a placeholder name, and what its declaration
    /// does not show (variant indexes, compact fields): equal keys mean one
    /// shared definition.
    fn definition_key(&self, id: u32) -> String {
        let params = Params::of(self.ty(id));
        let layout = self.layout(id, 0, &params);
        let item = Self::item(&ident("__Shape"), &layout, &params.used_idents());
        format!("{item} {}", layout.encoding_marks())
    }

    /// Whether a shape's definition keeps generic parameters.
    pub(crate) fn is_generic(&self, shape: usize) -> bool {
        !self.used[shape].is_empty()
    }

    /// The registry the types come from.
    pub(crate) fn registry(&self) -> &'a PortableRegistry {
        self.types
    }

    /// Number of registry types.
    pub(crate) fn len(&self) -> usize {
        self.types.types.len()
    }

    /// For a runtime that lists transaction-extension versions besides 0:
    /// its `UncheckedExtrinsic` is written with the chain's
    /// `TransactionExtensions` as the general transactions' extensions.
    pub(crate) fn with_general_extensions(mut self, yes: bool) -> Self {
        self.general_extensions = yes;
        self
    }

    /// The runtime's outer enums (`RuntimeCall` …), whose decode errors name
    /// the pallet: type id and `"call"`, `"event"` or `"error"`.
    pub(crate) fn with_outer_enums(
        mut self,
        outer: impl IntoIterator<Item = (u32, &'static str)>,
    ) -> Self {
        self.outer.extend(outer);
        self
    }

    /// Whether a type id can be written on its own (bit-order markers cannot).
    pub(crate) fn is_standalone(&self, id: u32) -> bool {
        !matches!(
            self.class.get(id as usize),
            Some(Class::Substituted(Substitute::BitOrder(_))) | None
        )
    }

    fn ty(&self, id: u32) -> &'a Type<PortableForm> {
        &self.types.types[id as usize].ty
    }

    /// The type `id` as written at depth `depth` below the chain module, with no
    /// generic parameters in scope.
    pub(crate) fn type_ref(&self, id: u32, depth: usize) -> TokenStream {
        self.ref_in(id, depth, &Params::none())
    }

    /// The declared type of a field of type `id` inside type `holder` (the
    /// compact attribute's inner type, boxed where the definition boxes it),
    /// and whether the field is left out of the definition (a `PhantomData`).
    pub(crate) fn field_decl(&self, holder: u32, id: u32, depth: usize) -> Option<TokenStream> {
        if self.is_unit(id) {
            return None;
        }
        Some(self.field_type(holder, id, depth, &Params::none()).1)
    }

    /// Whether `id` is written as the generated enum (not substituted).
    pub(crate) fn is_generated_variant(&self, id: u32) -> bool {
        matches!(self.class.get(id as usize), Some(Class::Generated(_)))
            && matches!(self.ty(id).type_def, TypeDef::Variant(_))
    }

    /// A tuple of the given types (the extrinsic's `Extra`).
    pub(crate) fn tuple_ref(&self, ids: &[u32], depth: usize) -> TokenStream {
        let items = ids.iter().map(|&id| self.type_ref(id, depth));
        quote!((#(#items,)*))
    }

    fn ref_in(&self, id: u32, depth: usize, params: &Params) -> TokenStream {
        if let Some(p) = params.lookup(id) {
            return quote!(#p);
        }
        let ty = self.ty(id);
        match self.class[id as usize] {
            Class::Generated(s) => {
                let path = self.shape_path(s, depth);
                // Instantiate the shape's kept generic parameters positionally
                // with this instance's arguments.
                let args: Vec<TokenStream> = self.used[s]
                    .iter()
                    .filter_map(|&pos| ty.type_params.get(pos).and_then(|p| p.ty))
                    .map(|t| self.ref_in(t.id, depth, params))
                    .collect();
                if args.is_empty() {
                    path
                } else {
                    quote!(#path<#(#args),*>)
                }
            }
            Class::Substituted(sub) => self.substitute_ref(ty, sub, depth, params),
            Class::Inline => self.inline_ref(ty, depth, params),
        }
    }

    fn shape_path(&self, shape: usize, depth: usize) -> TokenStream {
        let s = &self.shapes[shape];
        let supers = std::iter::repeat_n(quote!(super::), depth);
        let module = s.module.iter().map(|m| ident(m));
        let name = ident(&s.name);
        quote!(#(#supers)* runtime_types :: #(#module ::)* #name)
    }

    fn substitute_ref(
        &self,
        ty: &Type<PortableForm>,
        sub: Substitute,
        depth: usize,
        params: &Params,
    ) -> TokenStream {
        let field = |i: usize| -> u32 {
            match &ty.type_def {
                TypeDef::Variant(v) => v.variants[i].fields[0].ty.id,
                TypeDef::Composite(c) => c.fields[i].ty.id,
                _ => unreachable!("substitutes are matched on composites and variants"),
            }
        };
        match sub {
            Substitute::Option => {
                let inner = self.ref_in(field(1), depth, params);
                quote!(Option<#inner>)
            }
            Substitute::Result => {
                let ok = self.ref_in(field(0), depth, params);
                let err = self.ref_in(field(1), depth, params);
                quote!(Result<#ok, #err>)
            }
            Substitute::Transparent => self.ref_in(field(0), depth, params),
            Substitute::BitOrder(name) => {
                let name = format_ident!("{}", name);
                quote!(::ferroscale_runtime_types::bits::#name)
            }
            Substitute::Runtime(name, n) => {
                let name = format_ident!("{}", name);
                if n == 0 {
                    return quote!(::ferroscale_runtime_types::#name);
                }
                let mut args: Vec<TokenStream> = ty
                    .type_params
                    .iter()
                    .take(n)
                    .map(|p| match p.ty {
                        Some(t) => self.ref_in(t.id, depth, params),
                        None => quote!(()),
                    })
                    .collect();
                if name == "UncheckedExtrinsic" && self.general_extensions {
                    let supers = std::iter::repeat_n(quote!(super::), depth);
                    args.push(quote!(#(#supers)* TransactionExtensions));
                }
                quote!(::ferroscale_runtime_types::#name<#(#args),*>)
            }
        }
    }

    fn inline_ref(&self, ty: &Type<PortableForm>, depth: usize, params: &Params) -> TokenStream {
        match &ty.type_def {
            TypeDef::Primitive(p) => primitive(p),
            TypeDef::Sequence(s) => {
                let inner = self.ref_in(s.type_param.id, depth, params);
                quote!(Vec<#inner>)
            }
            TypeDef::Array(a) => {
                let inner = self.ref_in(a.type_param.id, depth, params);
                let len = a.len as usize;
                quote!([#inner; #len])
            }
            TypeDef::Tuple(t) => {
                let items = t.fields.iter().map(|f| self.ref_in(f.id, depth, params));
                quote!((#(#items,)*))
            }
            TypeDef::Compact(c) => {
                self.note_compact(c.type_param.id);
                let inner = self.ref_in(c.type_param.id, depth, params);
                quote!(::parity_scale_codec::Compact<#inner>)
            }
            TypeDef::BitSequence(b) => {
                let store = self.ref_in(b.bit_store_type.id, depth, params);
                let order = self.ref_in(b.bit_order_type.id, depth, params);
                quote!(::ferroscale_runtime_types::bits::BitSequence<#store, #order>)
            }
            // Composites and variants are always generated or substituted.
            TypeDef::Composite(_) | TypeDef::Variant(_) => quote!(()),
        }
    }

    /// Records that a generated newtype is used inside `Compact` (it needs `CompactAs`).
    fn note_compact(&self, inner: u32) {
        if let Class::Generated(s) = self.class[inner as usize] {
            self.compact_shapes.borrow_mut().insert(s);
        }
    }

    /// The item (struct or enum with derives and its codec impls) of a
    /// shape, written at `depth`.
    pub(crate) fn definition(&self, shape: &Shape, depth: usize) -> TokenStream {
        let rep = shape.instances[0];
        let params = Params::of(self.ty(rep));
        let layout = self.layout(rep, depth, &params);
        let name = ident(&shape.name);
        let generics = params.used_idents();
        let item = Self::item(&name, &layout, &generics);
        let bounds = if !generics.is_empty()
            && shape
                .instances
                .iter()
                .any(|&i| self.recursion.refers_to_itself(i))
        {
            // Field-type bounds would name the type itself (`Vec<Self<T>>:
            // Encode`, which needs itself); bound the parameters instead.
            Bounds::Params(
                params.codec_bounds(quote!(::parity_scale_codec::Encode)),
                params.codec_bounds(quote!(::parity_scale_codec::Decode)),
            )
        } else {
            Bounds::FieldTypes
        };
        let outer = shape
            .instances
            .iter()
            .find_map(|id| self.outer.get(id).copied());
        let codec = codec_impls(&name, &generics, &layout, bounds, outer);
        quote!(#item #codec)
    }

    /// The struct or enum (with its `variant_name`) of `layout`.
    fn item(name: &Ident, layout: &Layout, generics: &[Ident]) -> TokenStream {
        let generics = if generics.is_empty() {
            quote!()
        } else {
            quote!(<#(#generics),*>)
        };
        let derives = quote!(#[derive(Debug, Clone, PartialEq, Eq)]);
        match layout {
            Layout::Enum(variants) => {
                let decls = variants.iter().map(|v| {
                    let vname = &v.name;
                    let fields = v.fields.declaration(false);
                    quote!(#vname #fields)
                });
                // `{ .. }` matches unit, tuple and struct variants alike.
                let arms = variants.iter().map(|v| {
                    let vname = &v.name;
                    let text = v.metadata_name.as_str();
                    quote!(Self::#vname { .. } => #text)
                });
                quote! {
                    #derives
                    pub enum #name #generics { #(#decls,)* }
                    impl #generics #name #generics {
                        /// The variant's name, as the metadata spells it.
                        pub fn variant_name(&self) -> &'static str {
                            match *self { #(#arms,)* }
                        }
                    }
                }
            }
            Layout::Struct(fields) => {
                let decl = fields.declaration(true);
                let end = if fields.named { quote!() } else { quote!(;) };
                quote! {
                    #derives
                    pub struct #name #generics #decl #end
                }
            }
        }
    }

    /// The `CompactAs` impl for a newtype used inside `Compact`, if it is one
    /// over an unsigned integer.
    pub(crate) fn compact_impl(&self, shape_index: usize, depth: usize) -> Option<TokenStream> {
        if !self.compact_shapes.borrow().contains(&shape_index) {
            return None;
        }
        let shape = &self.shapes[shape_index];
        let rep = self.ty(shape.instances[0]);
        let TypeDef::Composite(c) = &rep.type_def else {
            return None;
        };
        if c.fields.len() != 1 || !rep.type_params.iter().all(|p| p.ty.is_none()) {
            return None;
        }
        let inner = self.ty(c.fields[0].ty.id);
        let TypeDef::Primitive(p) = &inner.type_def else {
            return None;
        };
        if !matches!(
            p,
            TypeDefPrimitive::U8
                | TypeDefPrimitive::U16
                | TypeDefPrimitive::U32
                | TypeDefPrimitive::U64
                | TypeDefPrimitive::U128
        ) {
            return None;
        }
        let _ = depth;
        let name = ident(&shape.name);
        let as_ty = primitive(p);
        let (get, make) = match &c.fields[0].name {
            Some(f) => {
                let f = ident(f);
                (quote!(&self.#f), quote!(#name { #f: v }))
            }
            None => (quote!(&self.0), quote!(#name(v))),
        };
        Some(quote! {
            impl ::parity_scale_codec::CompactAs for #name {
                type As = #as_ty;
                fn encode_as(&self) -> &#as_ty { #get }
                fn decode_from(v: #as_ty) -> Result<Self, ::parity_scale_codec::Error> { Ok(#make) }
            }
            impl From<::parity_scale_codec::Compact<#name>> for #name {
                fn from(c: ::parity_scale_codec::Compact<#name>) -> Self { c.0 }
            }
        })
    }

    /// `impl ToValue` for a shape, under `gate` (the `values` option's
    /// attribute): the value contract's shapes.
    pub(crate) fn to_value_impl(&self, shape: &Shape, gate: &TokenStream) -> TokenStream {
        let rep = shape.instances[0];
        let params = Params::of(self.ty(rep));
        // Marks the kept parameters.
        let _ = self.layout(rep, 0, &params);
        let generics = params.used_idents();
        let (impl_generics, ty_generics) = if generics.is_empty() {
            (quote!(), quote!())
        } else {
            (quote!(<#(#generics: ToValue),*>), quote!(<#(#generics),*>))
        };
        // A `()` field is left out of the definition (`PhantomData`), but the
        // dynamic decoder (like py-scale-codec) shows it as an empty tuple.
        let unit = quote!(Value::Tuple(Vec::new()));
        // Field and variant names are made once per process (`NAMES`) and
        // shared by every value, as the dynamic decoder shares the graph's.
        let names = value_names(&self.ty(rep).type_def);
        let name = |n: &str| {
            let i = names.iter().position(|x| x == n).unwrap_or_default();
            quote!(names[#i].clone())
        };
        let body = match &self.ty(rep).type_def {
            TypeDef::Composite(c) => {
                // An empty composite is an empty dict, as the dynamic layer gives it.
                let named = c.fields.iter().all(|f| f.name.is_some());
                let mut kept = 0usize;
                let values: Vec<TokenStream> = c
                    .fields
                    .iter()
                    .map(|f| {
                        if self.is_unit(f.ty.id) {
                            return unit.clone();
                        }
                        let access = match (&f.name, named) {
                            (Some(n), true) => {
                                let i = ident(n);
                                quote!(self.#i)
                            }
                            _ => {
                                let i = syn::Index::from(kept);
                                quote!(self.#i)
                            }
                        };
                        kept += 1;
                        quote!(ToValue::to_value(&#access))
                    })
                    .collect();
                if named {
                    let entries = c.fields.iter().zip(&values).map(|(f, v)| {
                        let n = f.name.as_deref().unwrap_or_default();
                        let n = name(n);
                        quote!((#n, #v))
                    });
                    quote!(Value::Dict(vec![#(#entries),*]))
                } else {
                    match values.len() {
                        1 => values[0].clone(),
                        _ => quote!(Value::Tuple(vec![#(#values),*])),
                    }
                }
            }
            TypeDef::Variant(v) => {
                let arms = v.variants.iter().map(|var| {
                    let vn = var.name.as_str();
                    let vi = ident(vn);
                    if var.fields.is_empty() {
                        let n = name(vn);
                        return quote!(Self::#vi => Value::Str(#n));
                    }
                    let kept: Vec<&Field<PortableForm>> = var
                        .fields
                        .iter()
                        .filter(|f| !self.is_unit(f.ty.id))
                        .collect();
                    let named = var.fields.iter().all(|f| f.name.is_some());
                    // Bind kept fields to `f0…` so field names cannot shadow `name`.
                    let binds: Vec<Ident> =
                        (0..kept.len()).map(|i| format_ident!("f{}", i)).collect();
                    let mut next = binds.iter();
                    let values: Vec<TokenStream> = var
                        .fields
                        .iter()
                        .map(|f| match self.is_unit(f.ty.id) {
                            true => unit.clone(),
                            false => {
                                let b = next.next();
                                quote!(ToValue::to_value(#b))
                            }
                        })
                        .collect();
                    let inner = if named {
                        let entries = var.fields.iter().zip(&values).map(|(f, v)| {
                            let n = f.name.as_deref().unwrap_or_default();
                            let n = name(n);
                            quote!((#n, #v))
                        });
                        quote!(Value::Dict(vec![#(#entries),*]))
                    } else if values.len() == 1 {
                        values[0].clone()
                    } else {
                        quote!(Value::Tuple(vec![#(#values),*]))
                    };
                    let pattern = if kept.is_empty() {
                        // Declared as a unit variant (see `body`).
                        quote!(Self::#vi)
                    } else if named {
                        let fields = kept
                            .iter()
                            .map(|f| ident(f.name.as_deref().unwrap_or_default()));
                        quote!(Self::#vi { #(#fields: ref #binds),* })
                    } else {
                        quote!(Self::#vi(#(ref #binds),*))
                    };
                    let n = name(vn);
                    quote!(#pattern => Value::Dict(vec![(#n, #inner)]))
                });
                // `*self`: an enum without variants matches with no arms.
                quote!(match *self { #(#arms,)* })
            }
            _ => quote!(Value::Null),
        };
        let table = if names.is_empty() {
            quote!()
        } else {
            let count = names.len();
            let names = names.iter().map(String::as_str);
            quote! {
                static NAMES: ::std::sync::OnceLock<[::std::sync::Arc<str>; #count]> = ::std::sync::OnceLock::new();
                let names = NAMES.get_or_init(|| [#(name(#names)),*]);
            }
        };
        let ty_name = ident(&shape.name);
        quote! {
            #gate
            impl #impl_generics ToValue for #ty_name #ty_generics {
                fn to_value(&self) -> Value { #table #body }
            }
        }
    }

    /// What the definition of type `id` declares: a struct's fields or an
    /// enum's variants (marking the generic parameters it names as used).
    fn layout(&self, id: u32, depth: usize, params: &Params) -> Layout {
        match &self.ty(id).type_def {
            TypeDef::Variant(v) => Layout::Enum(
                v.variants
                    .iter()
                    .map(|var| VariantLayout {
                        name: ident(&var.name),
                        metadata_name: var.name.clone(),
                        index: var.index,
                        fields: self.fields(id, &var.fields, depth, params),
                    })
                    .collect(),
            ),
            TypeDef::Composite(c) => Layout::Struct(self.fields(id, &c.fields, depth, params)),
            // Only composites and variants are generated.
            _ => Layout::Struct(Fields {
                list: Vec::new(),
                named: false,
            }),
        }
    }

    /// A definition's fields; empty-tuple fields (`PhantomData` in the
    /// metadata) are left out since they occupy no bytes.
    fn fields(
        &self,
        holder: u32,
        fields: &[Field<PortableForm>],
        depth: usize,
        params: &Params,
    ) -> Fields {
        let named = fields.iter().all(|f| f.name.is_some()) && !fields.is_empty();
        let list = fields
            .iter()
            .filter(|f| !self.is_unit(f.ty.id))
            .map(|f| {
                let (compact, ty) = self.field_type(holder, f.ty.id, depth, params);
                FieldLayout {
                    name: named.then(|| ident(f.name.as_deref().unwrap_or_default())),
                    ty,
                    compact,
                }
            })
            .collect();
        Fields { list, named }
    }

    fn is_unit(&self, id: u32) -> bool {
        matches!(&self.ty(id).type_def, TypeDef::Tuple(t) if t.fields.is_empty())
    }

    /// Whether a field is encoded as a compact, and its declared type (the
    /// compact's inner type; boxed when the field closes a cycle of by-value
    /// containment).
    fn field_type(
        &self,
        holder: u32,
        id: u32,
        depth: usize,
        params: &Params,
    ) -> (bool, TokenStream) {
        if params.lookup(id).is_none() {
            if let TypeDef::Compact(c) = &self.ty(id).type_def {
                let inner = c.type_param.id;
                if self.compact_attribute_fits(inner, params) {
                    self.note_compact(inner);
                    params.mark_compact(inner);
                    let ty = self.ref_in(inner, depth, params);
                    return (true, ty);
                }
            }
        }
        let ty = self.ref_in(id, depth, params);
        if self.recursion.needs_box(holder, id) {
            (false, quote!(Box<#ty>))
        } else {
            (false, ty)
        }
    }

    /// A compact field can hold unsigned integers, generic parameters (bound
    /// by `HasCompact`) and generated newtypes (given `CompactAs`).
    fn compact_attribute_fits(&self, inner: u32, params: &Params) -> bool {
        if params.list.iter().any(|(t, _, _)| *t == inner) {
            return true;
        }
        match &self.ty(inner).type_def {
            TypeDef::Primitive(p) => matches!(
                p,
                TypeDefPrimitive::U8
                    | TypeDefPrimitive::U16
                    | TypeDefPrimitive::U32
                    | TypeDefPrimitive::U64
                    | TypeDefPrimitive::U128
            ),
            TypeDef::Composite(c) => {
                matches!(self.class[inner as usize], Class::Generated(_)) && c.fields.len() == 1
            }
            _ => false,
        }
    }
}

fn primitive(p: &TypeDefPrimitive) -> TokenStream {
    match p {
        TypeDefPrimitive::Bool => quote!(bool),
        // SCALE encodes `char` as its `u32` code point; parity-scale-codec has no `char` codec.
        TypeDefPrimitive::Char => quote!(u32),
        TypeDefPrimitive::Str => quote!(String),
        TypeDefPrimitive::U8 => quote!(u8),
        TypeDefPrimitive::U16 => quote!(u16),
        TypeDefPrimitive::U32 => quote!(u32),
        TypeDefPrimitive::U64 => quote!(u64),
        TypeDefPrimitive::U128 => quote!(u128),
        TypeDefPrimitive::U256 => quote!(::ferroscale_runtime_types::U256),
        TypeDefPrimitive::I8 => quote!(i8),
        TypeDefPrimitive::I16 => quote!(i16),
        TypeDefPrimitive::I32 => quote!(i32),
        TypeDefPrimitive::I64 => quote!(i64),
        TypeDefPrimitive::I128 => quote!(i128),
        TypeDefPrimitive::I256 => quote!(::ferroscale_runtime_types::I256),
    }
}

/// Every type id the registry mentions exists, and ids equal positions
/// (the metadata loader's own check; a bare registry has not been through it).
fn validate(types: &PortableRegistry) -> Result<(), CodegenError> {
    type_graph::check_registry(types).map_err(|fault| {
        CodegenError::Registry(match fault {
            RegistryFault::IdNotPosition { position, id } => {
                format!("type at position {position} has id {id}; ids must be positions")
            }
            RegistryFault::Dangling { from, to, len } => format!(
                "type {from} refers to type id {to}, which is not in the registry ({len} types)"
            ),
            other => other.to_string(),
        })
    })
}

/// Types written in place (tuples, sequences, `Option` …) must not contain
/// themselves: such a type has no finite Rust spelling. A generated
/// definition on the way breaks the cycle (it has a name to refer to), so the
/// graph looked at is the one between types written in place.
fn check_inline_cycles(gen: &TypeGen<'_>) -> Result<(), CodegenError> {
    let inline = |id: usize| !matches!(gen.class[id], Class::Generated(_));
    let edges: Vec<Vec<u32>> = (0..gen.types.types.len())
        .map(|id| {
            if !inline(id) {
                return Vec::new();
            }
            children(&gen.ty(id as u32).type_def)
                .filter(|&k| inline(k as usize))
                .collect()
        })
        .collect();
    let components = Components::new(&edges);
    let cyclic = components.cyclic(&edges);
    match (0..edges.len()).find(|&k| components.of(k).is_some_and(|c| cyclic[c as usize])) {
        Some(k) => Err(CodegenError::Registry(format!(
            "type {k} contains itself only through anonymous types \
             (tuples, sequences, Option …), which no Rust type can spell"
        ))),
        None => Ok(()),
    }
}

/// The dict keys and variant names a type's value uses, each once, in order
/// of first use.
fn value_names(def: &TypeDef<PortableForm>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |n: &str| {
        if !out.iter().any(|x| x == n) {
            out.push(n.to_owned());
        }
    };
    let named = |fields: &[Field<PortableForm>]| fields.iter().all(|f| f.name.is_some());
    match def {
        TypeDef::Composite(c) if named(&c.fields) => {
            c.fields
                .iter()
                .filter_map(|f| f.name.as_deref())
                .for_each(&mut add);
        }
        TypeDef::Variant(v) => {
            for var in &v.variants {
                add(&var.name);
                if !var.fields.is_empty() && named(&var.fields) {
                    var.fields
                        .iter()
                        .filter_map(|f| f.name.as_deref())
                        .for_each(&mut add);
                }
            }
        }
        _ => {}
    }
    out
}
