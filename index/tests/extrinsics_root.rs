//! The extrinsics root: the fixtures' real block 18,468,942 has the root
//! its real header holds, and the pipeline stops at a block whose
//! extrinsics are not the ones its header commits to (one byte flipped),
//! naming it; a block without extrinsics has the empty trie's root.

mod common;

use common::*;
use ferroscale_core::hashing::{header_hash, ordered_trie_root, TrieLayout};
use ferroscale_index::block::Header;
use ferroscale_index::{run, Block, Gaps, IndexError, Options};

/// Polkadot block 18,468,942's `extrinsicsRoot`, from its header (the
/// substrate-api-sidecar test data the fixture's extrinsics come from).
const ROOT_18468942: &str = "0xc58ba0e38feed447870398e0f45cd234e00dc4cd40200b1248e341ab9ea058e2";

/// Substrate's empty trie root: the extrinsics root of an empty body.
const EMPTY_ROOT: &str = "0x03170a2e7597b7b7e3d84c05391d139a62b157e78786d8c082f29dcf4c111314";

fn root(hex: &str) -> [u8; 32] {
    ferroscale_fixtures::decode_hex(hex)
        .expect("hex")
        .try_into()
        .expect("32 bytes")
}

/// `block` with a header of the given extrinsics root (stand-in parent and
/// state root, no digest) and the hash that header has: only the
/// extrinsics root can fail the chain checks.
fn with_header(mut block: Block, extrinsics_root: [u8; 32]) -> Block {
    let header = Header {
        parent_hash: [1; 32],
        state_root: [2; 32],
        extrinsics_root,
        digest: Vec::new(),
    };
    let hash = header_hash(
        &header.parent_hash,
        block.number,
        &header.state_root,
        &header.extrinsics_root,
        &header.digest,
    );
    block.hash = ferroscale_core::hex::encode_prefixed(&hash);
    block.header = Some(header);
    block
}

fn index(block: Block, name: &str) -> (Result<ferroscale_index::Summary, IndexError>, bool) {
    let dir = temp_dir(name);
    let out = dir.join("out");
    let mut options = Options::new(&out);
    options.gaps = Gaps::Allowed;
    let result = run(std::iter::once(Ok(block)), &mut decoders(), &options);
    let written = out.join("blocks").exists()
        && std::fs::read_dir(out.join("blocks"))
            .expect("blocks folder")
            .any(|e| {
                e.expect("entry")
                    .path()
                    .extension()
                    .is_some_and(|x| x == "parquet")
            });
    let _ = std::fs::remove_dir_all(&dir);
    (result, written)
}

#[test]
fn the_real_block_s_extrinsics_have_its_header_s_root() {
    let block = block_18468942();
    // Polkadot builds the root in trie layout V0 (its `system_version` is
    // below 2), although three of the four extrinsics are over 32 bytes,
    // where V1 would differ.
    assert_eq!(
        ordered_trie_root(&block.extrinsics, TrieLayout::V0),
        root(ROOT_18468942)
    );
    assert_ne!(
        ordered_trie_root(&block.extrinsics, TrieLayout::V1),
        root(ROOT_18468942)
    );
    let (result, written) = index(with_header(block, root(ROOT_18468942)), "xroot-real");
    let summary = result.expect("the real block passes");
    assert_eq!((summary.blocks, summary.extrinsics), (1, 4));
    assert!(written);
}

#[test]
fn one_byte_flipped_in_one_extrinsic_is_an_error_naming_the_block() {
    let mut block = block_18468942();
    // A byte inside `ParaInherent.enter`'s 50 KB: the extrinsic still
    // has its length, and would otherwise reach the decoder.
    let middle = block.extrinsics[1].len() / 2;
    block.extrinsics[1][middle] ^= 0x01;
    let (result, written) = index(with_header(block, root(ROOT_18468942)), "xroot-flipped");
    let error = result.expect_err("the flipped byte").to_string();
    assert!(
        error.starts_with("chain: block 18468942: its 4 extrinsics have the root ")
            && error.contains(&format!("not its header's extrinsics root {ROOT_18468942}")),
        "{error}"
    );
    assert!(!written, "nothing of the block is written");
}

#[test]
fn an_empty_body_has_the_empty_trie_s_root_and_nothing_else() {
    let mut block = block_10000000();
    block.extrinsics.clear();
    let (result, _) = index(with_header(block.clone(), root(EMPTY_ROOT)), "xroot-empty");
    assert_eq!(result.expect("an empty body").blocks, 1);
    // An empty body under a header committing to extrinsics: the body
    // was lost on the way.
    let (result, written) = index(with_header(block, root(ROOT_18468942)), "xroot-emptied");
    let error = result.expect_err("the lost body").to_string();
    assert!(
        error.contains("block 10000000: its 0 extrinsics have the root ")
            && error.contains(&EMPTY_ROOT[2..]),
        "{error}"
    );
    assert!(!written);
}
