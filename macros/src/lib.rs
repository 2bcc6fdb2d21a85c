//! ferroscale-macros: `#[ferroscale::runtime(metadata = "path/to/file.scale")]`
//! expands a module to the same runtime types `cargo xtask generate` writes.
//! Use it through the facade (`ferroscale::runtime`): the expansion names
//! the crates it needs through `::ferroscale`, so `ferroscale` is the only
//! dependency the invoking crate needs.
//!
//! ```text
//! #[ferroscale::runtime(metadata = "metadata/polkadot.scale")]
//! pub mod polkadot {}
//! // polkadot::RuntimeCall, polkadot::runtime_types::…, polkadot::RUNTIME are now in scope.
//! ```
//!
//! The path is relative to the invoking crate's `CARGO_MANIFEST_DIR`, or to
//! its build script's output folder when it starts with `$OUT_DIR/` (metadata
//! a build script fetched or made). Instead
//! of `metadata`, `registry_json = "types.json"` reads a bare scale-info
//! `PortableRegistry` in JSON, and `fixture = "metadata/kusama-v14-spec9111.scale"`
//! names a file of ferroscale's real-chain fixtures folder (for the project's
//! own tests; a metadata blob, or a bare registry when the name ends in
//! `.json`): `$FERROSCALE_FIXTURES/<name>` when that variable is set, else
//! `../shared/fixtures/<name>` beside the ferroscale checkout, the same lookup
//! as the `ferroscale-fixtures` crate. A missing file is a compile error
//! naming it and both places.
//!
//! Options: `crate = "::ferroscale_runtime_types"` names the runtime-types
//! crate by another path (default `::ferroscale::runtime_types`; the codec is
//! named through its `codec` re-export); `values = true` adds the `ToValue`
//! impls and `TYPED_DECODERS`, the dynamic layer's typed fallback (left out
//! by default: they were a third of the README example's own compile time,
//! 19–20 s with them against 12–13 s without; the expansion never depends on
//! the invoking crate's cargo features); `roundtrip = true` adds
//! `roundtrip_type(type_id, bytes)` and `payload_roundtrip(…)` (the project's
//! real-data tests).

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use ferroscale_codegen::{Include, Options};
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
    /// A file of the fixtures folder (resolved, known to exist): a metadata
    /// blob, or a bare `PortableRegistry` as JSON when its name ends in `.json`.
    Fixture(PathBuf),
}

/// The variable naming the fixtures folder (`ferroscale_fixtures::ENV_VAR`).
const FIXTURES_ENV: &str = "FERROSCALE_FIXTURES";

/// The fixtures folder: `$FERROSCALE_FIXTURES`, else `../shared/fixtures`
/// beside the checkout this macro crate was built from (its manifest dir is
/// one level below the workspace root, as `ferroscale-fixtures`' is). The
/// rule of `ferroscale_fixtures::locate`, written out here so that a user's
/// build of the macro needs no test crate; the tests check the two agree.
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

/// Where a `metadata`/`registry_json` file is: relative to the invoking
/// crate's manifest folder, or under its build script's output folder when
/// written `$OUT_DIR/…` (metadata a build script fetched or made).
fn source_path(manifest_dir: &Path, value: &str) -> Result<PathBuf, String> {
    match value.strip_prefix("$OUT_DIR/") {
        Some(rest) => std::env::var_os("OUT_DIR")
            .map(|out| Path::new(&out).join(rest))
            .ok_or_else(|| {
                format!("{value:?}: OUT_DIR is not set (the crate has no build script)")
            }),
        None => Ok(manifest_dir.join(value)),
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
    let (source, options) = parse_args(args, manifest_dir)?;
    let body =
        generate_body(&source, &options).map_err(|e| syn::Error::new_spanned(&module.ident, e))?;
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
fn generate_body(source: &Source, options: &Options) -> Result<TokenStream, String> {
    let (path, json) = match source {
        Source::Metadata(p) => (p, false),
        Source::RegistryJson(p) => (p, true),
        Source::Fixture(p) => (p, p.extension().is_some_and(|e| e == "json")),
    };
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let generated = if json {
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{} is not UTF-8 JSON", path.display()))?;
        ferroscale_codegen::input::from_registry_json(&text)
            .and_then(|input| ferroscale_codegen::generate_from_with(&input, options))
    } else {
        ferroscale_codegen::generate_with(&bytes, options)
    }
    .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(generated.tokens)
}

/// The default path of `ferroscale-runtime-types` in the expansion: through
/// the facade, the one dependency a user's crate has.
const DEFAULT_CRATE: &str = "::ferroscale::runtime_types";

fn parse_args(args: TokenStream, manifest_dir: &Path) -> syn::Result<(Source, Options)> {
    let pairs = Punctuated::<MetaNameValue, Token![,]>::parse_terminated.parse2(args.clone())?;
    let mut source = None;
    let mut options = Options {
        crate_path: Some(syn::parse_str(DEFAULT_CRATE).expect("a valid path")),
        // Decided here, not by a `cfg` in the user's crate, whose features
        // know nothing of ours.
        values: Include::Never,
        roundtrip: Include::Never,
    };
    for pair in pairs {
        // (syn reads `crate` in an attribute's arguments as an identifier too.)
        let key = pair
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        match key.as_str() {
            "values" | "roundtrip" => {
                let on = bool_value(&pair.value)?;
                let include = if on { Include::Always } else { Include::Never };
                if key == "values" {
                    options.values = include;
                } else {
                    options.roundtrip = include;
                }
                continue;
            }
            "crate" => {
                let text = str_value(&pair.value)?;
                options.crate_path = Some(syn::parse_str(&text.value()).map_err(|e| {
                    syn::Error::new_spanned(&text, format!("`crate` must be a path: {e}"))
                })?);
                continue;
            }
            _ => {}
        }
        let value = str_value(&pair.value)?;
        let path = source_path(manifest_dir, &value.value())
            .map_err(|e| syn::Error::new_spanned(&value, e))?;
        let s = match key.as_str() {
            "metadata" => Source::Metadata(path),
            "registry_json" => Source::RegistryJson(path),
            "fixture" => Source::Fixture(
                fixture_path(&value.value()).map_err(|e| syn::Error::new_spanned(&value, e))?,
            ),
            _ => {
                return Err(syn::Error::new_spanned(
                    &pair.path,
                    "unknown argument: expected `metadata = \"…\"`, `registry_json = \"…\"` \
                     or `fixture = \"…\"`, and optionally `crate = \"…\"`, `values = true`, \
                     `roundtrip = true`",
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
    let source = source.ok_or_else(|| {
        syn::Error::new_spanned(
            args,
            "missing source: `#[ferroscale::runtime(metadata = \"path/to/file.scale\")]`",
        )
    })?;
    Ok((source, options))
}

fn str_value(value: &Expr) -> syn::Result<syn::LitStr> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(s.clone()),
        other => Err(syn::Error::new_spanned(other, "expected a string literal")),
    }
}

fn bool_value(value: &Expr) -> syn::Result<bool> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        }) => Ok(b.value),
        other => Err(syn::Error::new_spanned(other, "expected `true` or `false`")),
    }
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
        let body = expanded_body(
            quote!(metadata = #path, crate = "::ferroscale_runtime_types", values = true, roundtrip = true),
        );
        let written =
            std::fs::read_to_string(workspace().join("runtime-types/src/generated/polkadot.rs"))
                .unwrap();
        // The xtask's header (plain comments above the module's own doc:
        // where the metadata came from) is the file's, not the expansion's.
        let written: String = written
            .lines()
            .skip_while(|l| l.starts_with("// "))
            .map(|l| format!("{l}\n"))
            .collect();
        // The committed file gates these parts behind features of its crate;
        // the expansion includes them as asked. Nothing else may differ.
        let gates = [
            "#[cfg(feature = \"values\")]",
            "#[cfg(feature = \"roundtrip\")]",
        ];
        let ungated: String = written
            .lines()
            .filter(|l| !gates.contains(&l.trim()))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(ungated.len() < written.len(), "the file has gated parts");
        if body != ungated {
            let line = body
                .lines()
                .zip(ungated.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "macro expansion differs from runtime-types/src/generated/polkadot.rs at line {}: {:?} vs {:?}",
                line + 1,
                body.lines().nth(line),
                ungated.lines().nth(line)
            );
        }
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
        assert_eq!(FIXTURES_ENV, ferroscale_fixtures::ENV_VAR);
    }

    #[test]
    fn a_json_fixture_is_read_as_a_bare_registry() {
        let name = "payloads/subtensor/test_types.json";
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
        assert!(
            out.contains("DelegateInfo"),
            "the registry's types are generated"
        );
        assert!(
            out.contains("from a bare type registry"),
            "read as a bare registry, not as metadata"
        );
    }

    #[test]
    fn the_expansion_names_the_facade_and_ignores_the_users_features() {
        let name = "metadata/polkadot-v14-spec9180.scale";
        ferroscale_fixtures::read(name);
        let item = quote!(
            pub mod chain {}
        );
        let full = expand(
            quote!(fixture = #name, values = true),
            item.clone(),
            &workspace(),
        )
        .expect("expands")
        .to_string();
        assert!(
            full.contains(":: ferroscale :: runtime_types :: codec"),
            "the codec is named through the facade"
        );
        for absent in [
            ":: ferroscale_runtime_types",
            ":: parity_scale_codec",
            "feature =",
        ] {
            if let Some(at) = full.find(absent) {
                let from = full[..at]
                    .char_indices()
                    .rev()
                    .nth(80)
                    .map_or(0, |(i, _)| i);
                panic!("`{absent}` in the expansion: …{}", &full[from..at + 40]);
            }
        }
        assert!(full.contains("TYPED_DECODERS") && full.contains("impl ToValue for"));
        assert!(
            full.contains("SPEC_VERSION : u32 = 9180u32"),
            "the spec is recorded"
        );
        assert!(!full.contains("roundtrip_type"));
        let lean = expand(
            quote!(fixture = #name, roundtrip = true),
            item,
            &workspace(),
        )
        .expect("expands")
        .to_string();
        assert!(!lean.contains("TYPED_DECODERS") && !lean.contains("impl ToValue for"));
        assert!(lean.contains("roundtrip_type"));
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
