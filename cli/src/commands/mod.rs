//! One module per command family; [`run`] dispatches.

mod codec;
mod generate;
#[cfg(feature = "index")]
mod index;
mod metadata;
mod ss58;

use crate::cli::{Args, Command};

/// Runs a parsed command line: the text for stdout, or the error message.
pub(crate) fn run(args: Args) -> Result<String, String> {
    let pretty = args.pretty;
    match args.command {
        Command::Metadata {
            file,
            node,
            pallet,
            type_,
            json,
            save,
            digest,
            chain,
        } => metadata::run(
            file.as_deref(),
            &node,
            pallet.as_deref(),
            type_.as_deref(),
            (json, pretty),
            save.as_deref(),
            digest.then_some(&chain),
        ),
        Command::Decode {
            type_string,
            hex,
            registry,
        } => codec::decode(&type_string, &hex, &registry, pretty),
        Command::Encode {
            type_string,
            json,
            registry,
        } => codec::encode(&type_string, &json, &registry),
        Command::Extrinsic { hex, registry } => codec::extrinsic(&hex, &registry, pretty),
        Command::Events { hex, registry } => codec::events(&hex, &registry, pretty),
        Command::StorageKey {
            pallet,
            entry,
            keys,
            registry,
        } => codec::storage_key(&pallet, &entry, &keys, &registry),
        Command::RuntimeApi {
            trait_name,
            method,
            args,
            answer,
            registry,
        } => codec::runtime_api(
            &trait_name,
            &method,
            &args,
            answer.as_deref(),
            &registry,
            pretty,
        ),
        Command::Ss58 { action } => ss58::run(action, pretty),
        Command::Generate { file, node, out } => {
            generate::run(file.as_deref(), &node, out.as_deref())
        }
        #[cfg(feature = "index")]
        Command::Index(index_args) => index::run(&index_args, pretty),
        #[cfg(not(feature = "index"))]
        Command::Index { .. } => {
            use clap::CommandFactory;
            // A usage error (exit code 2), like any command this build lacks.
            Args::command()
                .error(
                    clap::error::ErrorKind::InvalidSubcommand,
                    "this ferroscale was built without `index` (arrow and parquet); \
                     install it with `cargo install --path cli --features index`",
                )
                .exit()
        }
    }
}
