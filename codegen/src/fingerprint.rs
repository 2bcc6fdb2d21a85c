//! The generated module's record of its runtime: `SPEC_NAME`,
//! `SPEC_VERSION`, `METADATA_HASH` and `RUNTIME` (every item's hash), which
//! `ferroscale_metadata::Metadata::check` compares with a loaded runtime.

use ferroscale_metadata::fingerprint::{Fingerprint, ItemKind};
use proc_macro2::TokenStream;
use quote::quote;

/// The items.
pub(crate) fn runtime_items(f: &Fingerprint) -> TokenStream {
    let spec_name = f.spec_name.clone().unwrap_or_default();
    let spec_version = f.spec_version.unwrap_or(0);
    let hash = hash_literal(f.hash);
    let list = |kind: ItemKind| {
        let rows = f.items(kind).iter().map(|(p, n, h)| {
            let h = hash_literal(*h);
            quote!((#p, #n, #h))
        });
        quote!(&[#(#rows),*])
    };
    let [calls, events, storage, constants, extrinsic, runtime_apis, view_functions] =
        ItemKind::ALL.map(list);
    quote! {
        /// The `spec_name` of the runtime these types were generated from
        /// (empty when its metadata had no `System.Version`).
        pub const SPEC_NAME: &str = #spec_name;
        /// The `spec_version` of the runtime these types were generated from.
        pub const SPEC_VERSION: u32 = #spec_version;
        /// The hash of the whole runtime these types were generated from
        /// (`ferroscale_metadata::fingerprint`): equal for a runtime whose
        /// calls, events, storage, constants, extrinsic format, runtime APIs and
        /// view functions decode the same.
        pub const METADATA_HASH: u128 = #hash;
        /// The runtime these types were generated from, item by item: check it
        /// against a loaded runtime with `Metadata::check(&RUNTIME)` (all of it)
        /// or `Metadata::check_item(&RUNTIME, kind, pallet, name)` (one item)
        /// before decoding that runtime's data.
        pub static RUNTIME: ::ferroscale_runtime_types::RuntimeFingerprint =
            ::ferroscale_runtime_types::RuntimeFingerprint {
                spec_name: SPEC_NAME,
                spec_version: SPEC_VERSION,
                hash: METADATA_HASH,
                calls: #calls,
                events: #events,
                storage: #storage,
                constants: #constants,
                extrinsic: #extrinsic,
                runtime_apis: #runtime_apis,
                view_functions: #view_functions,
            };
    }
}

/// A `u128` hash as a hex literal (`0x…`, 32 digits).
pub(crate) fn hash_literal(h: u128) -> TokenStream {
    let lit = syn::LitInt::new(&format!("0x{h:032x}"), proc_macro2::Span::call_site());
    quote!(#lit)
}
