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
//! `PortableRegistry` in JSON, and `fixture = "metadata/kusama-v14-spec9111.scale"`
//! names a metadata blob of ferroscale's real-chain fixtures folder (for the
//! project's own tests): `$FERROSCALE_FIXTURES/<name>` when that variable is
//! set, else `../shared/fixtures/<name>` beside the ferroscale checkout, the
//! same lookup as the `ferroscale-fixtures` crate. A missing file is a compile
//! error naming it and both places. The expansion refers to
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
    /// A metadata blob, relative to the invoking crate.
    Metadata(PathBuf),
    /// A bare `PortableRegistry` as JSON, relative to the invoking crate.
    RegistryJson(PathBuf),
    /// A metadata blob of the fixtures folder (resolved, known to exist).
    Fixture(PathBuf),
}

/// The variable naming the fixtures folder (as in `ferroscale-fixtures`).
const FIXTURES_ENV: &str = "FERROSCALE_FIXTURES";

/// The fixtures folder: `$FERROSCALE_FIXTURES`, else `../shared/fixtures`
/// beside the checkout this macro crate was built from (its manifest dir is
/// one level below the workspace root, as `ferroscale-fixtures`' is).
fn fixtures_dir() -> PathBuf {
    match std::env::var_os(FIXTURES_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"),
    }
}

/// The path of fixture `name` (e.g. `metadata/x.scale`), or why it cannot be used.
fn fixture_path(name: &str) -> Result<PathBuf, String> {
    let relative = Path::new(name);
    if name.is_empty()
        || relative.is_absolute()
        || relative
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(format!(
            "fixture {name:?}: expected a path inside the fixtures folder, such as \
             \"metadata/polkadot-v14-spec9180.scale\""
        ));
    }
    let path = fixtures_dir().join(relative);
    if path.is_file() {
        Ok(path)
    } else {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        Err(format!(
            "fixture `{name}` is missing: looked for {} (set {FIXTURES_ENV} to the folder \
             holding the real-chain fixtures, or place ../shared/fixtures beside the checkout){}",
            path.display(),
            if ci {
                "; CI=true: fixtures are required"
            } else {
                ""
            }
        ))
    }
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
        Source::Metadata(p) | Source::RegistryJson(p) | Source::Fixture(p) => {
            p.display().to_string()
        }
    };
    // A fixture's location depends on the environment: `option_env!` makes
    // rustc record the variable, so cargo re-expands when it changes.
    let env_dependency = if matches!(&source, Source::Fixture(_)) {
        quote!(
            const _: ::core::option::Option<&str> = ::core::option_env!(#FIXTURES_ENV);
        )
    } else {
        quote!()
    };
    let ItemMod {
        attrs, vis, ident, ..
    } = module;
    Ok(quote! {
        #(#attrs)*
        #[allow(missing_docs)] // documented where the metadata documents it
        #vis mod #ident { #body }
        const _: &[u8] = include_bytes!(#path);
        #env_dependency
    })
}

/// Generates the module body (the same tokens the xtask renders to a file).
fn generate_body(source: &Source) -> Result<TokenStream, String> {
    let (path, json) = match source {
        Source::Metadata(p) | Source::Fixture(p) => (p, false),
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
            "fixture" => Source::Fixture(
                fixture_path(&value.value()).map_err(|e| syn::Error::new_spanned(value, e))?,
            ),
            _ => {
                return Err(syn::Error::new_spanned(
                    &pair.path,
                    "unknown argument: expected `metadata = \"…\"`, `registry_json = \"…\"` \
                     or `fixture = \"…\"`",
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
    fn a_fixture_name_resolves_in_the_fixtures_folder() {
        let name = "metadata/polkadot-v14-spec9180.scale";
        ferroscale_fixtures::read(name); // present and matching the manifest
        let out = expand(
            quote!(fixture = #name),
            quote!(
                pub mod chain {}
            ),
            &workspace(),
        )
        .expect("expands")
        .to_string();
        let expected = ferroscale_fixtures::path(name).display().to_string();
        let resolved = fixture_path(name).unwrap();
        assert_eq!(
            std::fs::canonicalize(&resolved).unwrap(),
            std::fs::canonicalize(&expected).unwrap()
        );
        assert!(out.contains("include_bytes"), "the file is tracked");
        assert!(out.contains("option_env"), "the variable is tracked");
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
        let missing = err(
            quote!(fixture = "metadata/no-such-chain.scale"),
            quote!(
                mod m {}
            ),
        );
        assert!(
            missing.contains("fixture `metadata/no-such-chain.scale` is missing")
                && missing.contains(FIXTURES_ENV),
            "{missing}"
        );
        for outside in ["../secret.scale", "/etc/passwd", ""] {
            let e = err(
                quote!(fixture = #outside),
                quote!(
                    mod m {}
                ),
            );
            assert!(e.contains("inside the fixtures folder"), "{outside}: {e}");
        }
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
