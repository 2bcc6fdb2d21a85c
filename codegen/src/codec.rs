//! The `Encode`, `EncodeLike` and `Decode` impls of a generated definition,
//! written out rather than derived.
//!
//! Why not `#[derive(Encode, Decode)]`: a runtime has hundreds of types, and
//! the derive's expansion (a closure and a guard per variant, a compile-time
//! check of the variant indexes, a `match` per field) was three quarters of
//! the text rustc type-checked for a whole runtime. These impls do the same
//! work with one call per field into `ferroscale_runtime_types::codec_impl`,
//! each naming its field for the error (`AccountInfo.nonce`; the labels'
//! grammar is documented there), which `decode_all` writes as one line with
//! the byte offset. The runtime's call, event and error enums label their
//! pallets' variants `pallet 19 (Treasury) event`, so that an unknown item
//! reads `pallet 19 (Treasury) has no event variant 8`.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{format_ident, quote};

/// One field as declared: its name (`None` in a tuple struct or variant),
/// its declared type, and whether it is encoded as a compact.
pub(crate) struct FieldLayout {
    pub name: Option<Ident>,
    pub ty: TokenStream,
    pub compact: bool,
}

/// A struct's or a variant's declared fields (fields of type `()` are left
/// out: they occupy no bytes).
pub(crate) struct Fields {
    pub list: Vec<FieldLayout>,
    /// Named (`{ a: A }`) rather than positional (`(A)`); false when empty.
    pub named: bool,
}

/// One variant of a generated enum.
pub(crate) struct VariantLayout {
    pub name: Ident,
    /// The name as the metadata spells it (`name` may differ: `Self_`,
    /// `r#type`, `_1`).
    pub metadata_name: String,
    pub index: u8,
    pub fields: Fields,
}

/// What a generated definition is.
pub(crate) enum Layout {
    Struct(Fields),
    Enum(Vec<VariantLayout>),
}

impl Layout {
    /// The encoding facts a declaration does not show, as text: each
    /// variant's index and each field's compactness.
    pub(crate) fn encoding_marks(&self) -> String {
        let flags = |f: &Fields| -> String {
            f.list
                .iter()
                .map(|f| if f.compact { 'c' } else { '-' })
                .collect()
        };
        match self {
            Layout::Struct(f) => flags(f),
            Layout::Enum(vs) => vs
                .iter()
                .map(|v| format!("{}:{}", v.index, flags(&v.fields)))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// How the impls bound the definition's generic parameters.
pub(crate) enum Bounds {
    /// By the type of every field that names a parameter, as the derive
    /// does (`Vec<T>: Encode`).
    FieldTypes,
    /// By the parameters themselves (for a type that reaches itself through
    /// its fields, where the field-type bounds would never end): the bounds
    /// for `Encode` and for `Decode`.
    Params(Vec<TokenStream>, Vec<TokenStream>),
}

impl Fields {
    /// The declaration: `{ pub a: A, }`, `(pub A, B)` or nothing.
    pub(crate) fn declaration(&self, public: bool) -> TokenStream {
        if self.list.is_empty() {
            return quote!();
        }
        let vis = if public { quote!(pub) } else { quote!() };
        let decls = self.list.iter().map(|f| {
            let ty = &f.ty;
            match &f.name {
                Some(name) => quote!(#vis #name: #ty),
                None => quote!(#vis #ty),
            }
        });
        if self.named {
            quote!({ #(#decls,)* })
        } else {
            quote!(( #(#decls),* ))
        }
    }

    /// Names to bind the fields to in a pattern (`__f0`, …: never a field's
    /// own name, which could shadow the encoder's arguments).
    fn bindings(&self) -> Vec<Ident> {
        (0..self.list.len())
            .map(|i| format_ident!("__f{}", i))
            .collect()
    }

    /// `Self::V { a: __f0 }`, `Self::V(__f0)` or `Self::V` with `path` the
    /// variant (or `Self` for a struct).
    fn pattern(&self, path: TokenStream) -> TokenStream {
        let binds = self.bindings();
        if self.list.is_empty() {
            return path;
        }
        if self.named {
            let names = self.list.iter().filter_map(|f| f.name.as_ref());
            quote!(#path { #(#names: #binds),* })
        } else {
            quote!(#path(#(#binds),*))
        }
    }

    /// Each field's encoding, the fields bound as in [`Fields::pattern`].
    fn encode_bound(&self) -> TokenStream {
        let steps = self.list.iter().zip(self.bindings()).map(|(f, b)| {
            if f.compact {
                quote!(::ferroscale_runtime_types::codec_impl::encode_compact(#b, __dest);)
            } else {
                quote!(::parity_scale_codec::Encode::encode_to(#b, __dest);)
            }
        });
        quote!(#(#steps)*)
    }

    /// The value built from its fields decoded in order, `what` naming the
    /// type (and variant) in error labels (`Type.field`, `Type::Variant.0`),
    /// or `label` naming the only field.
    fn construct(&self, path: TokenStream, what: &str, label: Option<&str>) -> TokenStream {
        let reads = self.list.iter().enumerate().map(|(i, f)| {
            let at = match (&f.name, label) {
                (_, Some(label)) => label.to_owned(),
                (Some(name), None) => format!("{what}.{}", unraw(name)),
                (None, None) => format!("{what}.{i}"),
            };
            let read = if f.compact {
                quote!(::ferroscale_runtime_types::codec_impl::compact_field(__input, #at)?)
            } else {
                quote!(::ferroscale_runtime_types::codec_impl::field(__input, #at)?)
            };
            match &f.name {
                Some(name) => quote!(#name: #read),
                None => read,
            }
        });
        if self.list.is_empty() {
            path
        } else if self.named {
            quote!(#path { #(#reads),* })
        } else {
            quote!(#path(#(#reads),*))
        }
    }
}

/// The three impls for definition `name` (written `name` in messages) with
/// generic parameters `generics`; `outer` is `Some("call")`, `"event"` or
/// `"error"` for the runtime's enum of that kind over its pallets.
pub(crate) fn codec_impls(
    name: &Ident,
    generics: &[Ident],
    layout: &Layout,
    bounds: Bounds,
    outer: Option<&str>,
) -> TokenStream {
    let what = unraw(name);
    let (encode_bounds, decode_bounds) = match bounds {
        Bounds::Params(encode, decode) => (encode, decode),
        Bounds::FieldTypes => (
            field_type_bounds(layout, generics, quote!(::parity_scale_codec::Encode)),
            field_type_bounds(layout, generics, quote!(::parity_scale_codec::Decode)),
        ),
    };
    let (impl_generics, ty_generics) = if generics.is_empty() {
        (quote!(), quote!())
    } else {
        (quote!(<#(#generics),*>), quote!(<#(#generics),*>))
    };
    let where_encode = where_clause(&encode_bounds);
    let where_decode = where_clause(&decode_bounds);
    let (encode, decode) = match layout {
        Layout::Struct(fields) => {
            let encode = if fields.list.is_empty() {
                quote!()
            } else {
                let pattern = fields.pattern(quote!(Self));
                let steps = fields.encode_bound();
                quote!(let #pattern = self; #steps)
            };
            let value = fields.construct(quote!(Self), &what, None);
            (encode, quote!(::core::result::Result::Ok(#value)))
        }
        Layout::Enum(variants) => {
            let encode_arms = variants.iter().map(|v| {
                let vname = &v.name;
                let pattern = v.fields.pattern(quote!(Self::#vname));
                let index = v.index;
                let steps = v.fields.encode_bound();
                quote!(#pattern => { __dest.push_byte(#index); #steps })
            });
            let decode_arms = variants.iter().map(|v| {
                let vname = &v.name;
                let index = v.index;
                // A pallet's variant of the runtime's outer enum holds the
                // pallet's own enum: its one field is labelled by the pallet.
                let label = outer
                    .filter(|_| v.fields.list.len() == 1)
                    .map(|kind| format!("pallet {index} ({}) {kind}", v.metadata_name));
                let value = v.fields.construct(
                    quote!(Self::#vname),
                    &format!("{what}::{}", unraw(vname)),
                    label.as_deref(),
                );
                if v.fields.list.is_empty() {
                    return quote!(#index => ::core::result::Result::Ok(#value));
                }
                // Each variant's fields are read in a closure of its own, as
                // the derive does: in an unoptimised build every arm's
                // temporaries would otherwise share one stack frame, whose
                // size is then the sum over all variants (a `RuntimeCall`
                // frame of tens of kilobytes, for each level of nested calls).
                quote! {
                    #index => (move || -> ::core::result::Result<Self, ::parity_scale_codec::Error> {
                        ::core::result::Result::Ok(#value)
                    })()
                }
            });
            let refuse = if outer.is_some() {
                quote!(no_pallet)
            } else {
                quote!(no_variant)
            };
            // Every byte taken (`Era`'s 256 variants): no arm is left for
            // an unknown one.
            let otherwise = (variants.len() < 256).then(|| {
                quote!(__v => ::core::result::Result::Err(::ferroscale_runtime_types::codec_impl::#refuse(#what, __v)),)
            });
            // `*self`: an enum without variants matches with no arms.
            let encode = if variants.is_empty() {
                quote!(match *self {})
            } else {
                quote!(match self { #(#encode_arms)* })
            };
            (
                encode,
                quote! {
                    match ::ferroscale_runtime_types::codec_impl::variant_index(__input, #what)? {
                        #(#decode_arms,)*
                        #otherwise
                    }
                },
            )
        }
    };
    quote! {
        impl #impl_generics ::parity_scale_codec::Encode for #name #ty_generics #where_encode {
            fn encode_to<__O: ::parity_scale_codec::Output + ?Sized>(&self, __dest: &mut __O) {
                #encode
            }
        }
        impl #impl_generics ::parity_scale_codec::EncodeLike for #name #ty_generics #where_encode {}
        impl #impl_generics ::parity_scale_codec::Decode for #name #ty_generics #where_decode {
            fn decode<__I: ::parity_scale_codec::Input>(
                __input: &mut __I,
            ) -> ::core::result::Result<Self, ::parity_scale_codec::Error> {
                #decode
            }
        }
    }
}

fn where_clause(bounds: &[TokenStream]) -> TokenStream {
    if bounds.is_empty() {
        quote!()
    } else {
        quote!(where #(#bounds),*)
    }
}

/// `FieldType: Trait` for every field whose type names a generic parameter
/// (`FieldType: HasCompact` for a compact one), each once, in order.
fn field_type_bounds(layout: &Layout, generics: &[Ident], codec: TokenStream) -> Vec<TokenStream> {
    if generics.is_empty() {
        return Vec::new();
    }
    let fields: Vec<&FieldLayout> = match layout {
        Layout::Struct(f) => f.list.iter().collect(),
        Layout::Enum(vs) => vs.iter().flat_map(|v| &v.fields.list).collect(),
    };
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for f in fields {
        if !names_any(f.ty.clone(), generics) {
            continue;
        }
        let ty = &f.ty;
        let bound = if f.compact {
            quote!(#ty: ::parity_scale_codec::HasCompact)
        } else {
            quote!(#ty: #codec)
        };
        let key = bound.to_string();
        if !seen.contains(&key) {
            seen.push(key);
            out.push(bound);
        }
    }
    out
}

/// Whether `tokens` name any of `idents` (at any depth).
fn names_any(tokens: TokenStream, idents: &[Ident]) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(i) => idents.contains(&i),
        TokenTree::Group(g) => names_any(g.stream(), idents),
        _ => false,
    })
}

/// An identifier as its name reads (`r#type` → `type`).
fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}
