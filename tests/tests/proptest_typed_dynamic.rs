//! The typed path (generated runtime types and their codecs, through
//! `roundtrip_type`) and the dynamic path (decode into a `Value`, encode it
//! again) agree byte for byte on real types of the chains the generated
//! crate covers in CI (Polkadot spec 1001002 and Bittensor spec 343, the
//! metadata each chain module was generated from):
//!
//! - every constant and every storage default of the metadata: both paths
//!   accept it and both re-encode it to the same bytes;
//! - random mutations of those values (proptest): whenever the typed path
//!   accepts the mutated bytes, its re-encoding (the canonical bytes of a
//!   random typed value) decodes dynamically and re-encodes dynamically to
//!   exactly those bytes.

use std::sync::OnceLock;

use ferroscale_dynamic::encode_value;
use ferroscale_dynamic::portable::{import_metadata_bytes, ImportedMetadata};
use ferroscale_dynamic::{decode_value, Context, TypeGraph};
use ferroscale_metadata::{Metadata, StorageModifier, TypeRef};
use ferroscale_runtime_types::{bittensor, polkadot};
use proptest::prelude::*;

type Roundtrip = fn(u32, &[u8]) -> Option<Result<Vec<u8>, parity_scale_codec::Error>>;

/// One chain: its registry imported dynamically, its generated types'
/// `roundtrip_type`, and its real (type id, bytes) values.
struct Chain {
    name: &'static str,
    graph: TypeGraph,
    imported: ImportedMetadata,
    typed: Roundtrip,
    values: Vec<(String, u32, Vec<u8>)>,
}

fn chains() -> &'static [Chain] {
    static CHAINS: OnceLock<Vec<Chain>> = OnceLock::new();
    CHAINS.get_or_init(|| {
        vec![
            load(
                "polkadot",
                "metadata/polkadot-v15-spec1001002.scale",
                polkadot::roundtrip_type,
            ),
            load(
                "bittensor",
                "metadata/subtensor-v15-spec343.scale",
                bittensor::roundtrip_type,
            ),
        ]
    })
}

fn load(name: &'static str, fixture: &str, typed: Roundtrip) -> Chain {
    let bytes = ferroscale_fixtures::read(fixture);
    let mut graph = TypeGraph::new();
    let imported = import_metadata_bytes(&mut graph, &bytes).expect("imports");
    let md = Metadata::from_bytes(&bytes).expect("loads");
    let mut values = Vec::new();
    for p in &md.pallets {
        for c in &p.constants {
            if let TypeRef::Id(id) = c.ty {
                values.push((format!("{}.{}", p.name, c.name), id, c.value.clone()));
            }
        }
        for e in p.storage_entries() {
            if let (StorageModifier::Default, TypeRef::Id(id)) = (e.modifier, &e.value) {
                values.push((
                    format!("{}.{} default", p.name, e.name),
                    *id,
                    e.default.clone(),
                ));
            }
        }
    }
    Chain {
        name,
        graph,
        imported,
        typed,
        values,
    }
}

/// The dynamic path: decode into a `Value`, encode it again.
fn dynamic_roundtrip(chain: &Chain, id: u32, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let ty = chain.imported.types.idx(id).ok_or("id out of range")?;
    let ctx = Context::new(&chain.graph).with_runtime(&chain.imported.runtime);
    let value = decode_value(&ctx, ty, bytes).map_err(|e| format!("decode: {e}"))?;
    encode_value(&ctx, ty, &value).map_err(|e| format!("encode of {value:?}: {e}"))
}

#[test]
fn real_constants_and_defaults_agree_byte_for_byte() {
    for chain in chains() {
        let mut checked = 0;
        for (what, id, bytes) in &chain.values {
            let Some(typed) = (chain.typed)(*id, bytes) else {
                continue; // no standalone Rust type for this id
            };
            let typed = typed.unwrap_or_else(|e| panic!("{}: {what}: typed: {e}", chain.name));
            assert_eq!(&typed, bytes, "{}: {what}: typed re-encoding", chain.name);
            let dynamic = dynamic_roundtrip(chain, *id, bytes)
                .unwrap_or_else(|e| panic!("{}: {what} (type {id}): dynamic: {e}", chain.name));
            assert_eq!(dynamic, typed, "{}: {what}: dynamic vs typed", chain.name);
            checked += 1;
        }
        println!("{}: {checked} real values agree byte for byte", chain.name);
        assert!(
            checked > 100,
            "{}: only {checked} values checked",
            chain.name
        );
    }
}

/// A mutation: at byte `at` (modulo the length) set `byte`, optionally cut
/// the tail after it.
fn mutate(bytes: &[u8], at: usize, byte: u8, cut: bool) -> Vec<u8> {
    let mut v = bytes.to_vec();
    if v.is_empty() {
        return vec![byte];
    }
    let i = at % v.len();
    v[i] = byte;
    if cut {
        v.truncate(i + 1);
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// Random typed values (mutated real values the typed path accepts, in
    /// their canonical encoding) go through the dynamic path unchanged.
    #[test]
    fn typed_values_survive_the_dynamic_path(
        chain_sel in 0usize..2,
        item in any::<prop::sample::Index>(),
        at in any::<usize>(),
        byte in any::<u8>(),
        cut in any::<bool>(),
    ) {
        let chain = &chains()[chain_sel];
        let (what, id, bytes) = &chain.values[item.index(chain.values.len())];
        let input = mutate(bytes, at, byte, cut);
        if let Some(Ok(canonical)) = (chain.typed)(*id, &input) {
            let dynamic = dynamic_roundtrip(chain, *id, &canonical)
                .map_err(|e| TestCaseError::fail(format!("{}: {what} (type {id}) {canonical:02x?}: {e}", chain.name)))?;
            prop_assert_eq!(dynamic, canonical, "{}: {}", chain.name, what);
        }
    }
}
