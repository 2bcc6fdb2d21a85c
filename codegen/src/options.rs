//! What a generation includes and how the generated code names the crates it
//! uses: the committed chain files (`cargo xtask generate`) gate their
//! optional parts behind cargo features of `ferroscale-runtime-types`; the
//! proc-macro expands in the user's crate, where those features mean nothing,
//! so it decides at expansion time and names the crates through the path the
//! user depends on (`::ferroscale::runtime_types`).

use proc_macro2::{Group, Spacing, TokenStream, TokenTree};
use quote::{quote, ToTokens};

/// When an optional part of the generated module is compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Include {
    /// Always (no `cfg`).
    Always,
    /// Never (not generated).
    Never,
    /// Behind `#[cfg(feature = "…")]` of the crate that holds the code.
    IfFeature(String),
}

impl Include {
    /// The attribute to put on a gated item, `None` when it is left out.
    pub(crate) fn attr(&self) -> Option<TokenStream> {
        match self {
            Include::Always => Some(quote!()),
            Include::Never => None,
            Include::IfFeature(f) => Some(quote!(#[cfg(feature = #f)])),
        }
    }
}

/// How to generate.
#[derive(Clone)]
pub struct Options {
    /// The path generated code names `ferroscale-runtime-types` by; `None`
    /// for `::ferroscale_runtime_types`. parity-scale-codec is then named
    /// through its re-export, `<path>::codec`, so the user's crate needs no
    /// dependency of its own on either.
    pub crate_path: Option<syn::Path>,
    /// `ToValue` impls and the `TYPED_DECODERS` table.
    pub values: Include,
    /// `roundtrip_type(type_id, bytes)`.
    pub roundtrip: Include,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self
            .crate_path
            .as_ref()
            .map(|p| p.to_token_stream().to_string());
        f.debug_struct("Options")
            .field("crate_path", &path)
            .field("values", &self.values)
            .field("roundtrip", &self.roundtrip)
            .finish()
    }
}

impl Default for Options {
    /// What `cargo xtask generate` writes: both parts behind the cargo
    /// features `values` and `roundtrip` of `ferroscale-runtime-types`.
    fn default() -> Self {
        Options {
            crate_path: None,
            values: Include::IfFeature("values".to_owned()),
            roundtrip: Include::IfFeature("roundtrip".to_owned()),
        }
    }
}

/// The crate names the generator writes (absolute paths `::name`).
const RUNTIME_TYPES: &str = "ferroscale_runtime_types";
const CODEC: &str = "parity_scale_codec";

/// Rewrites every `::ferroscale_runtime_types` to `path` and every
/// `::parity_scale_codec` to `path::codec`, in every group (nothing when
/// `path` is `::ferroscale_runtime_types` itself: the code is then exactly
/// what the xtask writes).
pub(crate) fn rename_crates(tokens: TokenStream, path: &syn::Path) -> TokenStream {
    let root = path.to_token_stream();
    if path.leading_colon.is_some()
        && path.segments.len() == 1
        && path.segments[0].ident == RUNTIME_TYPES
    {
        return tokens;
    }
    let codec = quote!(#path::codec);
    rewrite(tokens, &root, &codec)
}

fn rewrite(tokens: TokenStream, root: &TokenStream, codec: &TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = TokenStream::new();
    let mut i = 0;
    while i < tokens.len() {
        // `::name` is `:` (joint), `:` (alone), then the identifier (the
        // generator names these crates by absolute paths only).
        {
            if let (
                Some(TokenTree::Punct(a)),
                Some(TokenTree::Punct(b)),
                Some(TokenTree::Ident(id)),
            ) = (tokens.get(i), tokens.get(i + 1), tokens.get(i + 2))
            {
                if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':' {
                    let name = id.to_string();
                    if name == RUNTIME_TYPES || name == CODEC {
                        out.extend(if name == CODEC {
                            codec.clone()
                        } else {
                            root.clone()
                        });
                        i += 3;
                        continue;
                    }
                }
            }
        }
        match &tokens[i] {
            TokenTree::Group(g) => {
                let inner = rewrite(g.stream(), root, codec);
                let mut group = Group::new(g.delimiter(), inner);
                group.set_span(g.span());
                out.extend([TokenTree::Group(group)]);
            }
            t => out.extend([t.clone()]),
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_crate_paths_are_renamed() {
        let path: syn::Path = syn::parse_quote!(::ferroscale::runtime_types);
        let out = rename_crates(
            quote! {
                #[codec(crate = ::parity_scale_codec)]
                use ::parity_scale_codec::{Decode, Encode};
                struct A(::ferroscale_runtime_types::U256, Vec<::parity_scale_codec::Compact<u8>>);
            },
            &path,
        )
        .to_string();
        assert_eq!(
            out,
            quote! {
                #[codec(crate = ::ferroscale::runtime_types::codec)]
                use ::ferroscale::runtime_types::codec::{Decode, Encode};
                struct A(::ferroscale::runtime_types::U256, Vec<::ferroscale::runtime_types::codec::Compact<u8>>);
            }
            .to_string()
        );
        let own: syn::Path = syn::parse_quote!(::ferroscale_runtime_types);
        let code = quote!(
            use ::parity_scale_codec::Encode;
        );
        assert_eq!(
            rename_crates(code.clone(), &own).to_string(),
            code.to_string()
        );
    }
}
