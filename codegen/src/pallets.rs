//! Typed access per pallet: `pallets::<pallet>::{constants, storage, calls}`.
//!
//! - `constants::name()` decodes the constant's value bytes from the metadata.
//! - `storage::entry(keys…)` builds the full storage key, `storage::Entry`
//!   names the value type; prefixes, defaults and key decoding: see
//!   [`crate::storage`].
//! - `calls::name(args…)` builds the `RuntimeCall` whose encoding is the
//!   extrinsic's call bytes.
//! - `view_functions::name(args…)` (V16) builds the typed query
//!   (`ViewFunctionPayload`, see `payloads`).
//!
//! Every function is `#[inline]`, so a chain's types compile without
//! instantiating a decoder per constant and storage entry; only what a
//! service calls is compiled.

use std::collections::BTreeSet;

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use scale_info::TypeDef;

use crate::idents::{ident, snake, unique_in, unique_names};
use crate::input::{ChainInput, PalletInfo};
use crate::types::TypeGen;

/// Depth of the items inside `pallets::<pallet>::<section>`.
const SECTION_DEPTH: usize = 3;

/// The `pallets` module.
pub(crate) fn pallets_module(input: &ChainInput, gen: &TypeGen<'_>) -> TokenStream {
    let names = unique_names(input.pallets.iter().map(|p| snake(&p.name)));
    let modules = input.pallets.iter().zip(names).map(|(p, name)| {
        let name = ident(&name);
        let body = pallet_body(input, gen, p);
        let doc = format!("The `{}` pallet (index {}).", p.name, p.index);
        quote!(#[doc = #doc] pub mod #name { #body })
    });
    quote! {
        /// Typed access to each pallet: constants, storage keys and values, call
        /// constructors, view functions.
        pub mod pallets { #(#modules)* }
    }
}

fn pallet_body(input: &ChainInput, gen: &TypeGen<'_>, p: &PalletInfo) -> TokenStream {
    let index = p.index;
    let mut out = quote! {
        /// Index of the pallet in `RuntimeCall` and `RuntimeEvent`.
        pub const INDEX: u8 = #index;
    };
    for (alias, id, what) in [
        ("Call", p.calls, "calls"),
        ("Event", p.event, "events"),
        ("Error", p.error, "errors"),
    ] {
        if let Some(id) = id {
            let alias = ident(alias);
            let ty = gen.type_ref(id, 2);
            let doc = format!("The pallet's {what}.");
            out.extend(quote!(#[doc = #doc] pub type #alias = #ty;));
        }
    }
    if !p.constants.is_empty() {
        let consts = constants(gen, p);
        out.extend(quote! {
            /// The pallet's constants, decoded from the metadata.
            pub mod constants { #consts }
        });
    }
    if !p.storage.is_empty() {
        let entries = crate::storage::storage_module(gen, p);
        out.extend(quote! {
            /// The pallet's storage: value types, defaults, key and prefix
            /// builders, key decoders.
            pub mod storage { #entries }
        });
    }
    if let Some(calls) = calls(input, gen, p) {
        out.extend(quote! {
            /// Constructors of the pallet's calls as `RuntimeCall`s.
            pub mod calls { #calls }
        });
    }
    if !p.view_functions.is_empty() {
        let fns = crate::payloads::view_functions(gen, p, SECTION_DEPTH);
        out.extend(quote! {
            /// The pallet's view functions (V16) as typed queries.
            pub mod view_functions { #fns }
        });
    }
    out
}

fn constants(gen: &TypeGen<'_>, p: &PalletInfo) -> TokenStream {
    let mut seen = BTreeSet::new();
    let items = p
        .constants
        .iter()
        .filter(|c| gen.is_standalone(c.1))
        .map(|(name, ty, value)| {
            let f = ident(&unique_in(&mut seen, snake(name)));
            let ty = gen.type_ref(*ty, SECTION_DEPTH);
            let bytes = Literal::byte_string(value);
            let doc = format!("`{}.{name}`.", p.name);
            quote! {
                #[doc = #doc]
                #[inline]
                pub fn #f() -> Result<#ty, ::ferroscale_runtime_types::DecodeError> {
                    ::ferroscale_runtime_types::decode_all(#bytes)
                }
            }
        });
    quote!(#(#items)*)
}

/// Call constructors, when the pallet's calls appear in `RuntimeCall`.
fn calls(input: &ChainInput, gen: &TypeGen<'_>, p: &PalletInfo) -> Option<TokenStream> {
    let call_ty = p.calls?;
    let runtime_call = input.extrinsic.as_ref()?.call;
    let types = gen.registry();
    let TypeDef::Variant(outer) = &types.types[runtime_call as usize].ty.type_def else {
        return None;
    };
    let outer_variant = outer
        .variants
        .iter()
        .find(|v| v.fields.len() == 1 && v.fields[0].ty.id == call_ty)?;
    if !gen.is_generated_variant(runtime_call) || !gen.is_generated_variant(call_ty) {
        return None;
    }
    let TypeDef::Variant(inner) = &types.types[call_ty as usize].ty.type_def else {
        return None;
    };
    let boxed = gen
        .field_decl(runtime_call, call_ty, SECTION_DEPTH)?
        .to_string()
        .starts_with("Box");
    let outer_name = ident(&outer_variant.name);
    let call_path = gen.type_ref(call_ty, SECTION_DEPTH);
    let mut seen = BTreeSet::new();
    let fns = inner.variants.iter().filter_map(|v| {
        if v.fields.iter().any(|f| f.name.is_none()) {
            return None;
        }
        let f = ident(&unique_in(&mut seen, snake(&v.name)));
        let vname = ident(&v.name);
        let mut params = Vec::new();
        let mut names = Vec::new();
        for field in &v.fields {
            let Some(ty) = gen.field_decl(call_ty, field.ty.id, SECTION_DEPTH) else {
                continue;
            };
            let n = ident(field.name.as_deref().unwrap_or_default());
            params.push(quote!(#n: #ty));
            names.push(n);
        }
        let inner = if names.is_empty() && v.fields.is_empty() {
            quote!(#call_path::#vname)
        } else {
            quote!(#call_path::#vname { #(#names),* })
        };
        let wrapped = if boxed {
            quote!(Box::new(#inner))
        } else {
            inner
        };
        let doc = format!("`{}.{}` as a `RuntimeCall`.", p.name, v.name);
        Some(quote! {
            #[doc = #doc]
            #[inline]
            pub fn #f(#(#params),*) -> super::super::super::RuntimeCall {
                super::super::super::RuntimeCall::#outer_name(#wrapped)
            }
        })
    });
    Some(quote!(#(#fns)*))
}
