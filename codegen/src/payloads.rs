//! Typed runtime API calls and view function queries.
//!
//! - `runtime_apis::<trait>::<method>(args…)` (V15+) returns a
//!   `RuntimeApiPayload<Output>`: `Trait_method`, the encoded arguments and
//!   the item it checks against (`Metadata::check_payload`).
//! - `pallets::<pallet>::view_functions::<name>(args…)` (V16) returns a
//!   `ViewFunctionPayload<Output>` with the query id.
//!
//! One `#[inline]` function per method and nothing else: the result type is
//! the payload's type parameter (no alias per method), so a chain's build
//! only compiles what a service calls. V14 metadata lists no runtime APIs,
//! so no `runtime_apis` module is generated for it.
//!
//! Behind the `roundtrip` option, `payload_roundtrip` dispatches by name to
//! every generated function with arguments decoded from bytes (the
//! real-data tests compare its payloads with the dynamic layer's).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::idents::{ident, snake, unique_names};
use crate::input::{ChainInput, MethodInfo, PalletInfo};
use crate::types::TypeGen;

/// Depth of the functions inside `runtime_apis::<trait>`.
const API_DEPTH: usize = 2;

/// Arguments encoded in one tuple at most (parity-scale-codec encodes
/// tuples of up to 18 elements; longer lists nest tuples, whose encoding is
/// the same concatenation).
const TUPLE_CHUNK: usize = 16;

/// The `runtime_apis` module, `None` when the metadata lists no runtime API.
pub(crate) fn runtime_apis_module(input: &ChainInput, gen: &TypeGen<'_>) -> Option<TokenStream> {
    if input.apis.is_empty() {
        return None;
    }
    let names = unique_names(input.apis.iter().map(|a| snake(&a.name)));
    let modules = input.apis.iter().zip(names).map(|(api, module)| {
        let module = ident(&module);
        let fn_names = unique_names(api.methods.iter().map(|m| m.name.clone()));
        let fns = api.methods.iter().zip(fn_names).filter_map(|(m, f)| {
            method_fn(gen, m, &f, API_DEPTH, "RuntimeApiPayload", |runtime, args| {
                let owner = &api.name;
                let name = &m.name;
                quote! {
                    ::ferroscale_runtime_types::RuntimeApiPayload::new(#runtime, #owner, #name, #args)
                }
            })
        });
        let doc = format!("The `{}` runtime API.", api.name);
        quote!(#[doc = #doc] pub mod #module { #(#fns)* })
    });
    Some(quote! {
        /// Typed runtime API calls (V15+): one module per trait, one function
        /// per method returning its `RuntimeApiPayload` (what `state_call`
        /// takes, and the result type its answer decodes as).
        pub mod runtime_apis { #(#modules)* }
    })
}

/// The functions of a pallet's `view_functions` module at `depth`.
pub(crate) fn view_functions(gen: &TypeGen<'_>, p: &PalletInfo, depth: usize) -> TokenStream {
    let fn_names = unique_names(p.view_functions.iter().map(|f| f.method.name.clone()));
    let fns = p.view_functions.iter().zip(fn_names).filter_map(|(f, fname)| {
        method_fn(gen, &f.method, &fname, depth, "ViewFunctionPayload", |runtime, args| {
            let pallet = &p.name;
            let name = &f.method.name;
            let id = Literal::byte_string(&f.id);
            quote! {
                ::ferroscale_runtime_types::ViewFunctionPayload::new(#runtime, #pallet, #name, *#id, #args)
            }
        })
    });
    quote!(#(#fns)*)
}

/// One method's function, `None` when a type cannot be written on its own
/// (never for real runtime APIs: bit-order markers are not parameters).
fn method_fn(
    gen: &TypeGen<'_>,
    m: &MethodInfo,
    fname: &str,
    depth: usize,
    payload_ty: &str,
    payload: impl FnOnce(TokenStream, TokenStream) -> TokenStream,
) -> Option<TokenStream> {
    if !gen.is_standalone(m.output) || m.inputs.iter().any(|(_, ty)| !gen.is_standalone(*ty)) {
        return None;
    }
    let f = ident(fname);
    let payload_ty = ident(payload_ty);
    let param_names = unique_names(m.inputs.iter().map(|(n, _)| n.clone()));
    let names: Vec<_> = param_names.iter().map(|n| ident(n)).collect();
    let params = m.inputs.iter().zip(&names).map(|((_, ty), n)| {
        let ty = gen.type_ref(*ty, depth);
        quote!(#n: #ty)
    });
    let output = gen.type_ref(m.output, depth);
    let supers = (0..depth).map(|_| quote!(super::));
    let runtime = quote!(&#(#supers)* RUNTIME);
    let body = payload(runtime, encoded_args(&names));
    let doc = match &m.doc {
        Some(d) => format!("`{}`: {d}", m.name),
        None => format!("`{}`.", m.name),
    };
    Some(quote! {
        #[doc = #doc]
        #[inline]
        pub fn #f(#(#params),*) -> ::ferroscale_runtime_types::#payload_ty<#output> {
            #body
        }
    })
}

/// The parameters SCALE-encoded one after the other, as one expression.
fn encoded_args(names: &[proc_macro2::Ident]) -> TokenStream {
    if names.is_empty() {
        return quote!(Vec::new());
    }
    if names.len() <= TUPLE_CHUNK {
        return quote!(::parity_scale_codec::Encode::encode(&(#(&#names,)*)));
    }
    let chunks = names.chunks(TUPLE_CHUNK).map(|c| quote!((#(&#c,)*)));
    quote!(::parity_scale_codec::Encode::encode(&(#(#chunks,)*)))
}

/// `payload_roundtrip(kind, owner, name, args, result)` under `gate`: the
/// payload of every generated function, its arguments decoded from `args`
/// with the parameter types, and `result` decoded as its result type and
/// encoded again. `None` when nothing is generated (no runtime APIs and no
/// view functions).
pub(crate) fn roundtrip_dispatch(
    input: &ChainInput,
    gen: &TypeGen<'_>,
    gate: &TokenStream,
) -> Option<TokenStream> {
    let mut arms = Vec::new();
    let arm = |kind: TokenStream, owner: &str, m: &MethodInfo, path: TokenStream, wrap| {
        if !gen.is_standalone(m.output) || m.inputs.iter().any(|(_, ty)| !gen.is_standalone(*ty)) {
            return None;
        }
        let name = &m.name;
        let args = (0..m.inputs.len()).map(|i| {
            let i = Literal::usize_unsuffixed(i);
            quote!(arg(args, #i)?)
        });
        Some(quote! {
            (ItemKind::#kind, #owner, #name) => #wrap(#path(#(#args),*), result)?,
        })
    };
    let api_modules = unique_names(input.apis.iter().map(|a| snake(&a.name)));
    for (api, module) in input.apis.iter().zip(api_modules) {
        let module = ident(&module);
        let fn_names = unique_names(api.methods.iter().map(|m| m.name.clone()));
        for (m, f) in api.methods.iter().zip(fn_names) {
            let f = ident(&f);
            let path = quote!(runtime_apis::#module::#f);
            arms.extend(arm(
                quote!(RuntimeApi),
                &api.name,
                m,
                path,
                quote!(roundtrip_api),
            ));
        }
    }
    let pallet_modules = unique_names(input.pallets.iter().map(|p| snake(&p.name)));
    for (p, module) in input.pallets.iter().zip(pallet_modules) {
        let module = ident(&module);
        let fn_names = unique_names(p.view_functions.iter().map(|f| f.method.name.clone()));
        for (v, f) in p.view_functions.iter().zip(fn_names) {
            let f = ident(&f);
            let path = quote!(pallets::#module::view_functions::#f);
            arms.extend(arm(
                quote!(ViewFunction),
                &p.name,
                &v.method,
                path,
                quote!(roundtrip_view),
            ));
        }
    }
    if arms.is_empty() {
        return None;
    }
    Some(quote! {
        /// The typed payload of a runtime API method (`kind`
        /// `ItemKind::RuntimeApi`, `owner` its trait) or view function
        /// (`ItemKind::ViewFunction`, `owner` its pallet), called with
        /// arguments decoded from `args` (one encoding per parameter), and
        /// `result` decoded as its result type and encoded again; `None` for
        /// a name no function was generated for.
        #gate
        pub fn payload_roundtrip(
            kind: ::ferroscale_runtime_types::ItemKind,
            owner: &str,
            name: &str,
            args: &[&[u8]],
            result: &[u8],
        ) -> Option<Result<::ferroscale_runtime_types::PayloadRoundtrip, ::parity_scale_codec::Error>> {
            use ::ferroscale_runtime_types::{roundtrip_api, roundtrip_arg as arg, roundtrip_view, ItemKind, PayloadRoundtrip};
            let run = || -> Result<Option<PayloadRoundtrip>, ::parity_scale_codec::Error> {
                Ok(Some(match (kind, owner, name) {
                    #(#arms)*
                    _ => return Ok(None),
                }))
            };
            run().transpose()
        }
    })
}
