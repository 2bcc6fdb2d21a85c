//! `pallets::<pallet>::storage`: per storage entry, its value type, its key
//! and, for maps, the way back from a key to the typed map keys.
//!
//! For an entry `Entry` (function name `entry`) with map keys `K1 … Kn`:
//! - `type Entry`: the value type; `entry_default()` decodes the default.
//! - `entry(&K1, …, &Kn) -> Vec<u8>`: the full storage key.
//! - `entry_prefix()`, `entry_prefix1(&K1)` … `entry_prefix{n-1}(…)`: the
//!   iteration prefixes (what `state_getKeysPaged` takes), by how many
//!   leading keys they fix.
//! - `entry_decode_key(&[u8])`: the map keys read back from a full key — the
//!   key itself where its hasher keeps it (`Blake2_128Concat`,
//!   `Twox64Concat`, `Identity`), the digest (`[u8; 16]`/`[u8; 32]`) where
//!   it does not; one value for a one-key map, a tuple for more.
//!
//! With the round-trip option, `storage_key_roundtrip` runs all of them for
//! an entry named at run time, so tests hold them against the dynamic layer.

use std::collections::BTreeSet;

use ferroscale_metadata::StorageHasher;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use scale_info::TypeDef;

use crate::idents::{ident, snake, unique_in, unique_names};
use crate::input::{ChainInput, PalletInfo, StorageInfo};
use crate::types::TypeGen;

/// Depth of the items inside `pallets::<pallet>::storage`.
const SECTION_DEPTH: usize = 3;

/// Names the prelude functions use; an entry alias must not shadow them.
const PRELUDE: [&str; 5] = ["Result", "Vec", "Box", "Option", "String"];

/// The Rust names generated for one storage entry.
struct EntryNames {
    /// The full-key builder (and the base of the others).
    key: String,
    /// `…_default`.
    default: String,
    /// `prefixes[k]`: the prefix builder fixing the first `k` map keys.
    prefixes: Vec<String>,
    /// `…_decode_key`.
    decode_key: String,
}

/// One map key of an entry: its type and its hasher.
#[derive(Clone, Copy)]
struct MapKey {
    ty: u32,
    hasher: StorageHasher,
}

/// The map keys of `s`, one per hasher; empty for a plain value, `None` when
/// the key type and the hashers disagree (several hashers over a key that is
/// not a tuple of as many elements), which no key function can serve.
fn map_keys(gen: &TypeGen<'_>, s: &StorageInfo) -> Option<Vec<MapKey>> {
    let Some(key) = s.key else {
        return Some(Vec::new());
    };
    let types = match s.hashers.len() {
        0 => return None,
        // One hasher over a tuple key hashes the whole tuple.
        1 => vec![key],
        n => match &gen.registry().types[key as usize].ty.type_def {
            TypeDef::Tuple(t) if t.fields.len() == n => t.fields.iter().map(|f| f.id).collect(),
            _ => return None,
        },
    };
    Some(
        types
            .into_iter()
            .zip(&s.hashers)
            .map(|(ty, &hasher)| MapKey { ty, hasher })
            .collect(),
    )
}

/// The names of every entry's functions: entry names first, so a derived
/// name (`account_default`) never takes the name of another entry
/// (`AccountDefault`); a clash gets a trailing `_`.
fn entry_names(p: &PalletInfo) -> Vec<EntryNames> {
    let keys = unique_names(p.storage.iter().map(|s| snake(&s.name)));
    let mut seen: BTreeSet<String> = keys.iter().cloned().collect();
    let mut unique = |name: String| unique_in(&mut seen, name);
    p.storage
        .iter()
        .zip(keys)
        .map(|(s, key)| {
            let map_keys = s.hashers.len().max(usize::from(s.key.is_some()));
            EntryNames {
                default: unique(format!("{key}_default")),
                prefixes: (0..map_keys)
                    .map(|k| match k {
                        0 => unique(format!("{key}_prefix")),
                        k => unique(format!("{key}_prefix{k}")),
                    })
                    .collect(),
                decode_key: unique(format!("{key}_decode_key")),
                key,
            }
        })
        .collect()
}

/// The body of `pallets::<pallet>::storage`.
pub(crate) fn storage_module(gen: &TypeGen<'_>, p: &PalletInfo) -> TokenStream {
    let prefix = &p.storage_prefix;
    let items = p.storage.iter().zip(entry_names(p)).map(|(s, names)| {
        let item = &s.name;
        let alias = if PRELUDE.contains(&item.as_str()) {
            ident(&format!("{item}Value"))
        } else {
            ident(item)
        };
        let value = gen.type_ref(s.value, SECTION_DEPTH);
        let doc_value = format!("The value type of `{}.{item}`.", p.name);
        let mut out = quote! {
            #[doc = #doc_value]
            pub type #alias = #value;
        };
        let keys = map_keys(gen, s);
        let (key, iteration) = keys
            .map(|keys| key_functions(gen, &p.name, prefix, item, &keys, &names))
            .unzip();
        out.extend(key);
        if !s.optional {
            let f = ident(&names.default);
            let bytes = Literal::byte_string(&s.default);
            let doc = format!("The value of `{}.{item}` when nothing is stored.", p.name);
            out.extend(quote! {
                #[doc = #doc]
                #[inline]
                pub fn #f() -> Result<#alias, ::ferroscale_runtime_types::DecodeError> {
                    ::ferroscale_runtime_types::decode_all(#bytes)
                }
            });
        }
        out.extend(iteration);
        out
    });
    quote!(#(#items)*)
}

/// The full-key builder of one entry, and its prefix builders and key
/// decoder (empty for a plain value).
fn key_functions(
    gen: &TypeGen<'_>,
    pallet: &str,
    prefix: &str,
    item: &str,
    keys: &[MapKey],
    names: &EntryNames,
) -> (TokenStream, TokenStream) {
    // Per key: the parameter `keyN: &K` and its `(hasher, encoding)` pair.
    let (params, pairs): (Vec<TokenStream>, Vec<TokenStream>) = keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let name = ident(&format!("key{}", i + 1));
            let rust = gen.type_ref(k.ty, SECTION_DEPTH);
            let hasher = hasher_path(k.hasher);
            (
                quote!(#name: &#rust),
                quote!((#hasher, &::parity_scale_codec::Encode::encode(#name)[..])),
            )
        })
        .unzip();
    let f = ident(&names.key);
    let doc = format!("The storage key of `{pallet}.{item}`.");
    let full = quote! {
        #[doc = #doc]
        #[inline]
        pub fn #f(#(#params),*) -> Vec<u8> {
            ::ferroscale_runtime_types::storage_key(#prefix, #item, &[#(#pairs),*])
        }
    };
    let mut out = TokenStream::new();
    if keys.is_empty() {
        return (full, out);
    }
    for (k, name) in names.prefixes.iter().enumerate() {
        let f = ident(name);
        let (params, pairs) = (&params[..k], &pairs[..k]);
        let doc = match k {
            0 => format!("The prefix of every key of `{pallet}.{item}` (to iterate the map)."),
            k => format!(
                "The prefix of the keys of `{pallet}.{item}` whose first {k} map key(s) are given."
            ),
        };
        out.extend(quote! {
            #[doc = #doc]
            #[inline]
            pub fn #f(#(#params),*) -> Vec<u8> {
                ::ferroscale_runtime_types::storage_key(#prefix, #item, &[#(#pairs),*])
            }
        });
    }
    let vars: Vec<_> = (1..=keys.len()).map(|i| ident(&format!("k{i}"))).collect();
    let reads = keys.iter().zip(&vars).map(|(k, var)| {
        let hasher = hasher_path(k.hasher);
        if k.hasher.is_concat() {
            quote!(let #var = reader.key(#hasher)?;)
        } else {
            let n = Literal::usize_unsuffixed(k.hasher.hash_len());
            quote!(let #var = reader.digest::<#n>(#hasher)?;)
        }
    });
    let decoded = key_tuple(gen, keys);
    let result = if vars.len() == 1 {
        quote!(#(#vars)*)
    } else {
        quote!((#(#vars),*))
    };
    let f = ident(&names.decode_key);
    let doc = format!(
        "The map keys of a full storage key of `{pallet}.{item}` (a key of `state_getKeysPaged`): \
         each key where its hasher keeps it, the digest where it does not. The entry prefix and \
         every digest are checked."
    );
    out.extend(quote! {
        #[doc = #doc]
        #[inline]
        pub fn #f(storage_key: &[u8]) -> Result<#decoded, ::ferroscale_runtime_types::StorageKeyError> {
            let mut reader = ::ferroscale_runtime_types::StorageKeyReader::new(storage_key, #prefix, #item)?;
            #(#reads)*
            reader.end(#result)
        }
    });
    (full, out)
}

/// What `…_decode_key` returns: per key its type (concat hashers) or its
/// digest; one key bare, several as a tuple.
fn key_tuple(gen: &TypeGen<'_>, keys: &[MapKey]) -> TokenStream {
    let parts: Vec<TokenStream> = keys
        .iter()
        .map(|k| {
            if k.hasher.is_concat() {
                gen.type_ref(k.ty, SECTION_DEPTH)
            } else {
                let n = Literal::usize_unsuffixed(k.hasher.hash_len());
                quote!([u8; #n])
            }
        })
        .collect();
    if parts.len() == 1 {
        quote!(#(#parts)*)
    } else {
        quote!((#(#parts),*))
    }
}

fn hasher_path(hasher: StorageHasher) -> TokenStream {
    let h = ident(hasher.name());
    quote!(::ferroscale_runtime_types::StorageHasher::#h)
}

/// `storage_key_roundtrip(pallet, entry, keys)` under `gate`: for a map
/// entry, its map keys decoded from `keys` (one encoding each) with the
/// generated key types, the full key and every prefix built from them, and
/// the full key read back by `…_decode_key` and each part encoded again.
/// `None` when the chain has no map whose keys all have Rust types.
pub(crate) fn roundtrip_dispatch(
    input: &ChainInput,
    gen: &TypeGen<'_>,
    gate: &TokenStream,
) -> Option<TokenStream> {
    let pallet_modules = unique_names(input.pallets.iter().map(|p| snake(&p.name)));
    let mut arms = Vec::new();
    for (p, module) in input.pallets.iter().zip(pallet_modules) {
        let module = ident(&module);
        for (s, names) in p.storage.iter().zip(entry_names(p)) {
            let Some(keys) = map_keys(gen, s) else {
                continue;
            };
            if keys.is_empty() || keys.iter().any(|k| !gen.is_standalone(k.ty)) {
                continue;
            }
            let path = quote!(pallets::#module::storage);
            let vars: Vec<_> = (1..=keys.len()).map(|i| ident(&format!("k{i}"))).collect();
            let decode_args = (0..keys.len()).map(|i| {
                let var = &vars[i];
                let i = Literal::usize_unsuffixed(i);
                quote!(let #var = arg(keys, #i).map_err(|e| format!("map key {}: {e}", #i))?;)
            });
            let full = ident(&names.key);
            let prefixes = names.prefixes.iter().enumerate().map(|(k, name)| {
                let f = ident(name);
                let args = &vars[..k];
                quote!(#path::#f(#(&#args),*))
            });
            let decode = ident(&names.decode_key);
            let parts = if keys.len() == 1 {
                quote!(vec![::parity_scale_codec::Encode::encode(&parts)])
            } else {
                let fields = (0..keys.len()).map(Literal::usize_unsuffixed);
                quote!(vec![#(::parity_scale_codec::Encode::encode(&parts.#fields)),*])
            };
            let (pallet, item) = (&p.name, &s.name);
            arms.push(quote! {
                (#pallet, #item) => {
                    #(#decode_args)*
                    let full = #path::#full(#(&#vars),*);
                    let parts = #path::#decode(&full).map_err(|e| e.to_string())?;
                    StorageKeyRoundtrip {
                        prefixes: vec![#(#prefixes),*],
                        parts: #parts,
                        full,
                    }
                }
            });
        }
    }
    if arms.is_empty() {
        return None;
    }
    Some(quote! {
        /// The typed storage functions of map `pallet.entry` (pallet and
        /// entry as metadata names them) run on map keys decoded from
        /// `keys` (one encoding per key); `None` for an entry with no
        /// generated key functions.
        #gate
        pub fn storage_key_roundtrip(
            pallet: &str,
            entry: &str,
            keys: &[&[u8]],
        ) -> Option<Result<::ferroscale_runtime_types::StorageKeyRoundtrip, String>> {
            use ::ferroscale_runtime_types::{roundtrip_arg as arg, StorageKeyRoundtrip};
            let run = || -> Result<Option<StorageKeyRoundtrip>, String> {
                Ok(Some(match (pallet, entry) {
                    #(#arms)*
                    _ => return Ok(None),
                }))
            };
            run().transpose()
        }
    })
}
