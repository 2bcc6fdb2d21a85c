//! ferroscale-codegen: turns a chain's metadata into Rust tokens — structs and
//! enums with derived `parity_scale_codec::{Encode, Decode}` for every type of
//! the runtime. Pure: no file or network I/O; the xtask and the proc-macro
//! decide where the tokens go.
//!
//! ```text
//! metadata bytes ──input::load──▶ ChainInput ──TypeGen──▶ items ──module tree──▶ TokenStream
//! ```
//!
//! The generated module holds `runtime_types::<path>::Name` definitions, the
//! chain-level aliases (`RuntimeCall`, `RuntimeEvent`, `UncheckedExtrinsic` …)
//! and, behind the `roundtrip` cargo feature of the crate that includes it, a
//! decode-and-re-encode dispatch by type id used by the real-data tests.

mod chain;
mod error;
pub mod idents;
pub mod input;
mod pallets;
mod recursion;
mod substitutes;
mod types;

use proc_macro2::TokenStream;

pub use error::CodegenError;
pub use input::ChainInput;

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
}

/// Generates the module body for a `RuntimeMetadataPrefixed` blob (V14+).
pub fn generate(metadata: &[u8]) -> Result<Generated, CodegenError> {
    let input = input::load(metadata)?;
    generate_from(&input)
}

/// Generates the module body from already loaded input.
pub fn generate_from(input: &ChainInput) -> Result<Generated, CodegenError> {
    let gen = types::TypeGen::new(&input.types)?;
    let tokens = chain::module_body(input, &gen);
    Ok(Generated {
        tokens,
        metadata_version: input.version,
        registry_types: gen.len(),
        definitions: gen.shapes.len(),
    })
}

/// Formats a module body as a Rust source file (deterministic: `prettyplease`).
pub fn render(tokens: &TokenStream) -> Result<String, CodegenError> {
    let file: syn::File = syn::parse2(tokens.clone())
        .map_err(|e| CodegenError::Registry(format!("generated tokens do not parse: {e}")))?;
    Ok(prettyplease::unparse(&file))
}
