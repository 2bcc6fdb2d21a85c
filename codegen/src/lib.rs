//! ferroscale-codegen: turns a chain's metadata into Rust tokens — structs and
//! enums with `parity_scale_codec::{Encode, Decode}` impls (written out, not
//! derived: see `codec`) for every type of the runtime. Pure: no file or network I/O; the xtask and the proc-macro
//! decide where the tokens go.
//!
//! ```text
//! metadata bytes ──input::load──▶ ChainInput ──TypeGen──▶ items ──module tree──▶ TokenStream
//! ```
//!
//! The generated module holds `runtime_types::<path>::Name` definitions, the
//! chain-level aliases (`RuntimeCall`, `RuntimeEvent`, `UncheckedExtrinsic` …)
//! typed access per pallet (`pallets`), typed runtime API calls
//! (`runtime_apis`, V15+; none for V14, whose metadata lists no runtime
//! APIs) and view functions (`pallets::<pallet>::view_functions`, V16), and,
//! behind the `roundtrip` cargo feature of the crate that includes it, a
//! decode-and-re-encode dispatch by type id (and one by runtime API method
//! and view function name) used by the real-data tests.

#![forbid(unsafe_code)]

mod chain;
mod codec;
mod error;
mod fingerprint;
pub mod idents;
pub mod input;
mod options;
mod pallets;
mod payloads;
mod recursion;
mod storage;
mod substitutes;
mod types;

use proc_macro2::TokenStream;

pub use error::CodegenError;
pub use input::ChainInput;
pub use options::{Include, Options};

/// What one generation produced.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The module body (items only, no surrounding `mod`).
    pub tokens: TokenStream,
    /// Metadata version the types came from.
    pub metadata_version: u32,
    /// Types in the metadata's registry.
    pub registry_types: usize,
    /// Struct and enum definitions written.
    pub definitions: usize,
    /// The runtime's `spec_name` and `spec_version`, when its metadata
    /// records them (`System.Version`).
    pub spec: Option<(String, u32)>,
}

/// Generates the module body for a `RuntimeMetadataPrefixed` blob (V14+),
/// as `cargo xtask generate` writes it ([`Options::default`]).
pub fn generate(metadata: &[u8]) -> Result<Generated, CodegenError> {
    generate_with(metadata, &Options::default())
}

/// Generates the module body for a metadata blob with the given options.
pub fn generate_with(metadata: &[u8], options: &Options) -> Result<Generated, CodegenError> {
    let input = input::load(metadata)?;
    generate_from_with(&input, options)
}

/// Generates the module body from already loaded input ([`Options::default`]).
pub fn generate_from(input: &ChainInput) -> Result<Generated, CodegenError> {
    generate_from_with(input, &Options::default())
}

/// Generates the module body from already loaded input with the given options.
pub fn generate_from_with(
    input: &ChainInput,
    options: &Options,
) -> Result<Generated, CodegenError> {
    let general = input
        .extrinsic
        .as_ref()
        .is_some_and(|e| e.has_other_extension_versions());
    let outer = [
        (input.extrinsic.as_ref().map(|e| e.call), "call"),
        (
            input
                .runtime_event
                .or_else(|| chain::event_enum_from_storage(input)),
            "event",
        ),
        (input.runtime_error, "error"),
    ]
    .into_iter()
    .filter_map(|(id, kind)| Some((id?, kind)));
    let gen = types::TypeGen::new(&input.types)?
        .with_general_extensions(general)
        .with_outer_enums(outer);
    let mut tokens = chain::module_body(input, &gen, options);
    if let Some(path) = &options.crate_path {
        tokens = options::rename_crates(tokens, path);
    }
    Ok(Generated {
        tokens,
        metadata_version: input.version,
        registry_types: gen.len(),
        definitions: gen.shapes.len(),
        spec: input
            .fingerprint
            .as_ref()
            .and_then(|f| f.spec_name.clone().zip(f.spec_version)),
    })
}

/// Formats a module body as a Rust source file (deterministic: `prettyplease`).
#[cfg(feature = "render")]
pub fn render(tokens: &TokenStream) -> Result<String, CodegenError> {
    let file: syn::File = syn::parse2(tokens.clone())
        .map_err(|e| CodegenError::Registry(format!("generated tokens do not parse: {e}")))?;
    Ok(prettyplease::unparse(&file))
}
