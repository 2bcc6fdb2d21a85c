//! ferroscale-macros: `#[ferroscale::runtime(metadata = "path/to/file.scale")]`
//! expands a module to the same runtime types `cargo xtask generate` writes.
//!
//! ```text
//! #[ferroscale_macros::runtime(metadata = "metadata/polkadot.scale")]
//! pub mod polkadot {}
//! // polkadot::RuntimeCall, polkadot::runtime_types::… are now in scope.
//! ```
//!
//! The path is relative to the invoking crate's `CARGO_MANIFEST_DIR`. Instead
//! of `metadata`, `registry_json = "types.json"` reads a bare scale-info
//! `PortableRegistry` in JSON. The expansion refers to
//! `::ferroscale_runtime_types` and `::parity_scale_codec`, so the invoking
//! crate depends on both.

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::quote;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, ItemMod, Lit, MetaNameValue, Token};

/// Generates a chain's runtime types into the annotated (empty) module.
#[proc_macro_attribute]
pub fn runtime(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    match expand(args.into(), item.into(), &manifest_dir) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Where the types come from.
enum Source {
    Metadata(PathBuf),
    RegistryJson(PathBuf),
}

/// The expansion: the module with the generated body, and a hidden
/// `include_bytes!` so cargo rebuilds when the metadata file changes.
fn expand(args: TokenStream, item: TokenStream, manifest_dir: &Path) -> syn::Result<TokenStream> {
    let module: ItemMod = syn::parse2(item)?;
    if module
        .content
        .as_ref()
        .is_some_and(|(_, items)| !items.is_empty())
    {
        return Err(syn::Error::new_spanned(
            &module.ident,
            "ferroscale::runtime expects an empty module: `pub mod name {}`",
        ));
    }
    let source = parse_args(args, manifest_dir)?;
    let body = generate_body(&source).map_err(|e| syn::Error::new_spanned(&module.ident, e))?;
    let path = match &source {
        Source::Metadata(p) | Source::RegistryJson(p) => p.display().to_string(),
    };
    let ItemMod {
        attrs, vis, ident, ..
    } = module;
    Ok(quote! {
        #(#attrs)*
        #vis mod #ident { #body }
        const _: &[u8] = include_bytes!(#path);
    })
}

/// Generates the module body (the same tokens the xtask renders to a file).
fn generate_body(source: &Source) -> Result<TokenStream, String> {
    let (path, json) = match source {
        Source::Metadata(p) => (p, false),
        Source::RegistryJson(p) => (p, true),
    };
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let generated = if json {
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{} is not UTF-8 JSON", path.display()))?;
        ferroscale_codegen::input::from_registry_json(&text)
            .and_then(|input| ferroscale_codegen::generate_from(&input))
    } else {
        ferroscale_codegen::generate(&bytes)
    }
    .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(generated.tokens)
}

fn parse_args(args: TokenStream, manifest_dir: &Path) -> syn::Result<Source> {
    let pairs = Punctuated::<MetaNameValue, Token![,]>::parse_terminated.parse2(args.clone())?;
    let mut source = None;
    for pair in pairs {
        let key = pair
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        let Expr::Lit(ExprLit {
            lit: Lit::Str(value),
            ..
        }) = &pair.value
        else {
            return Err(syn::Error::new_spanned(
                &pair.value,
                "expected a string literal",
            ));
        };
        let path = manifest_dir.join(value.value());
        let s = match key.as_str() {
            "metadata" => Source::Metadata(path),
            "registry_json" => Source::RegistryJson(path),
            _ => {
                return Err(syn::Error::new_spanned(
                    &pair.path,
                    "unknown argument: expected `metadata = \"…\"` or `registry_json = \"…\"`",
                ))
            }
        };
        if source.replace(s).is_some() {
            return Err(syn::Error::new_spanned(
                &pair.path,
                "give exactly one source",
            ));
        }
    }
    source.ok_or_else(|| {
        syn::Error::new_spanned(
            args,
            "missing source: `#[ferroscale::runtime(metadata = \"path/to/file.scale\")]`",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// The module body of an expansion, rendered like the xtask renders files.
    fn expanded_body(args: TokenStream) -> String {
        let out = expand(
            args,
            quote!(
                pub mod chain {}
            ),
            &workspace(),
        )
        .expect("expands");
        let file: syn::File = syn::parse2(out).unwrap();
        let syn::Item::Mod(m) = &file.items[0] else {
            panic!("first item is the module")
        };
        let (_, items) = m.content.as_ref().unwrap();
        let body = quote!(#(#items)*);
        // Inner attributes of the module are the generated file's inner attributes.
        let attrs = m
            .attrs
            .iter()
            .filter(|a| matches!(a.style, syn::AttrStyle::Inner(_)));
        ferroscale_codegen::render(&quote!(#(#attrs)* #body)).unwrap()
    }

    #[test]
    fn expansion_equals_the_checked_in_generated_file() {
        let fixtures = ferroscale_fixtures::dir();
        let metadata = fixtures.join("metadata/polkadot-v15-spec1001002.scale");
        ferroscale_fixtures::read("metadata/polkadot-v15-spec1001002.scale"); // verifies the digest
        let path = metadata.display().to_string();
        let body = expanded_body(quote!(metadata = #path));
        let written =
            std::fs::read_to_string(workspace().join("runtime-types/src/polkadot.rs")).unwrap();
        assert!(
            body == written,
            "macro expansion differs from runtime-types/src/polkadot.rs"
        );
    }

    #[test]
    fn bad_arguments_are_clear_errors() {
        let err = |args: TokenStream, item: TokenStream| {
            expand(args, item, &workspace()).unwrap_err().to_string()
        };
        assert!(err(
            quote!(),
            quote!(
                mod m {}
            )
        )
        .contains("missing source"));
        assert!(err(
            quote!(metadta = "x"),
            quote!(
                mod m {}
            )
        )
        .contains("unknown argument"));
        assert!(err(
            quote!(metadata = "no/such/file.scale"),
            quote!(
                mod m {}
            )
        )
        .contains("cannot read"));
        assert!(err(
            quote!(metadata = "x"),
            quote!(
                mod m {
                    struct A;
                }
            )
        )
        .contains("empty module"));
        let v9 = ferroscale_fixtures::path("metadata/substrate-node-v9.scale")
            .display()
            .to_string();
        assert!(err(
            quote!(metadata = #v9),
            quote!(
                mod m {}
            )
        )
        .contains("dynamic layer"));
    }
}
