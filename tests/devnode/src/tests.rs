//! The node's transaction check on a transfer the reference signed.

use std::collections::BTreeMap;

use ferroscale_core::hashing::blake2_256;
use ferroscale_rpc::test_server::{BlockAt, ErrorObjectOwned, NodeLogic};
use serde_json::Value as Json;

use crate::chain::{build, ChainSpec, DEV_SEED};
use crate::logic::{public_key, DevLogic, RuntimeLogic};

/// A transfer py-scale-codec 1.2.12 signed (through substrate-interface
/// 1.8.1) for the `polkadot` chain's dev account at its head, block 12:
/// mortal era of period 64, nonce 7. Signed again (`si_client.py`'s
/// `extrinsic`) when the node's headers began to commit to their
/// extrinsics: the genesis and era hashes it signs over changed.
const SIGNED_BY_THE_REFERENCE: &str = "4d028400d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a0027284de573f15ae7925d9d74167c1135d8b4bc72ba7333bd018d2383bbe2f8cd5722581f798d478dc7c34c7468be152ef0840d237f2000d2a0418924fccc3302c5001c00050300d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a13d20a1feb8ca954ab";

/// The answer of the `polkadot` chain's node to `bytes` submitted at its
/// head (the hashes are the node's, as the signer saw them).
fn submit(bytes: &[u8]) -> Result<Json, ErrorObjectOwned> {
    let (node, _) = build(ChainSpec::named("polkadot").unwrap()).unwrap();
    let server = node.start().unwrap();
    let hashes: Vec<[u8; 32]> = (0..=12).map(|n| server.block_hash(n).unwrap()).collect();
    let file = "metadata/polkadot-v14-spec1000001.scale";
    let bytes_of_metadata = ferroscale_fixtures::try_read(file).unwrap();
    let rt = RuntimeLogic::load(file, bytes_of_metadata, 10, "DOT").unwrap();
    let nonces = BTreeMap::from([(public_key(&DEV_SEED), 7)]);
    let logic = DevLogic::new(vec![rt], nonces);
    let runtime = ferroscale_rpc::test_server::TestRuntime::new("polkadot", 1_000_001, vec![]);
    let at = BlockAt {
        number: 12,
        hash: hashes[12],
        runtime: &runtime,
        chain: &hashes,
        first_number: 0,
    };
    let hex = Json::from(ferroscale_core::hex::encode_prefixed(bytes));
    logic.answer("author_submitExtrinsic", &[hex], at).unwrap()
}

#[test]
fn a_reference_signed_transfer_is_accepted_and_any_flipped_bit_refused() {
    let bytes = ferroscale_core::hex::decode(SIGNED_BY_THE_REFERENCE).unwrap();
    let hash = submit(&bytes).unwrap();
    assert_eq!(
        hash,
        Json::from(ferroscale_core::hex::encode_prefixed(&blake2_256(&bytes)))
    );
    // in the signature, the era, the nonce and the call
    for at in [40, 100, 101, 120] {
        let mut tampered = bytes.clone();
        tampered[at] ^= 1;
        let err = submit(&tampered).unwrap_err();
        assert!(
            err.code() == 1010 || err.code() == 1002,
            "byte {at}: {err:?}"
        );
    }
    // cut short: not decodable
    let err = submit(&bytes[..bytes.len() - 3]).unwrap_err();
    assert_eq!(err.code(), 1002, "{err:?}");
}
