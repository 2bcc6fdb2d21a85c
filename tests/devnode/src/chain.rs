//! The chains the node serves: which fixture runtimes, which real blocks on
//! which numbers, and the accounts in storage.

use std::collections::BTreeMap;
use std::sync::Arc;

use ferroscale_core::hashing::{blake2_128, blake2_256, twox_128};
use ferroscale_fixtures::try_read;
use ferroscale_rpc::test_server::{TestBlock, TestNode, TestRuntime};
use parity_scale_codec::Encode;
use serde_json::{json, Value};

use crate::logic::{DevLogic, RuntimeLogic};

/// The dev account's ed25519 secret seed: RFC 8032's first test vector, a
/// key everybody can check (public key `d75a9801…511a`).
pub(crate) const DEV_SEED: [u8; 32] = [
    0x9d, 0x61, 0xb1, 0x9d, 0xef, 0xfd, 0x5a, 0x60, 0xba, 0x84, 0x4a, 0xf4, 0x92, 0xec, 0x2c, 0xc4,
    0x44, 0x49, 0xc5, 0x69, 0x7b, 0x32, 0x69, 0x19, 0x70, 0x3b, 0xac, 0x03, 0x1c, 0xae, 0x7f, 0x60,
];
/// The dev account's nonce in storage (not 0, so a client that ignores
/// it is caught).
const DEV_NONCE: u32 = 7;
/// Accounts besides the dev one: enough for three pages of the clients'
/// default `query_map` page size (100).
const OTHER_ACCOUNTS: u32 = 250;

/// A chain the node can serve.
pub(crate) struct ChainSpec {
    name: &'static str,
    /// `system_chain`.
    display: &'static str,
    /// Metadata files, one runtime each, oldest first.
    runtimes: &'static [&'static str],
    /// Runs of blocks from number 0.
    blocks: &'static [BlockRun],
    ss58: u16,
    decimals: u8,
    symbol: &'static str,
}

/// Blocks alike, one after another.
struct BlockRun {
    count: u64,
    /// The index of the runtime their state runs.
    runtime: usize,
    /// The fixture block whose extrinsics they carry, and whether its events
    /// too (`None`: empty blocks).
    fixture: Option<(&'static str, bool)>,
}

const fn run(count: u64, runtime: usize, fixture: Option<(&'static str, bool)>) -> BlockRun {
    BlockRun {
        count,
        runtime,
        fixture,
    }
}

const OLD_BLOCK: &str = "payloads/polkadot-block-10000000";
const NEW_BLOCK: &str = "payloads/polkadot-block-18468942";
const V14_OLD: &str = "metadata/polkadot-v14-spec9180.scale";
const V14_NEW: &str = "metadata/polkadot-v14-spec1000001.scale";

impl ChainSpec {
    pub(crate) fn named(name: &str) -> Result<&'static ChainSpec, String> {
        CHAINS.iter().find(|c| c.name == name).ok_or_else(|| {
            let known: Vec<&str> = CHAINS.iter().map(|c| c.name).collect();
            format!("unknown chain {name:?} (known: {})", known.join(", "))
        })
    }
}

const CHAINS: &[ChainSpec] = &[
    // Polkadot's real blocks across an upgrade: blocks 0–5 carry block
    // 10,000,000's extrinsics under spec 9180; block 6 enacts spec
    // 1,000,001 (its state runs it); blocks 7–12 carry block 18,468,942's
    // extrinsics and its 58 events. Its metadata is V14 throughout, which
    // py-scale-codec reads.
    ChainSpec {
        name: "polkadot",
        display: "Polkadot",
        runtimes: &[V14_OLD, V14_NEW],
        blocks: &[
            run(6, 0, Some((OLD_BLOCK, false))),
            run(1, 1, Some((OLD_BLOCK, false))),
            run(6, 1, Some((NEW_BLOCK, true))),
        ],
        ss58: 0,
        decimals: 10,
        symbol: "DOT",
    },
    // The same chain, then an upgrade to spec 1,001,002, whose metadata is
    // V15 (runtime APIs in the metadata, which async-substrate-interface
    // calls through): blocks 13–14, empty (no fixture holds its blocks).
    ChainSpec {
        name: "polkadot-v15",
        display: "Polkadot",
        runtimes: &[V14_OLD, V14_NEW, "metadata/polkadot-v15-spec1001002.scale"],
        blocks: &[
            run(6, 0, Some((OLD_BLOCK, false))),
            run(1, 1, Some((OLD_BLOCK, false))),
            run(6, 1, Some((NEW_BLOCK, true))),
            run(2, 2, None),
        ],
        ss58: 0,
        decimals: 10,
        symbol: "DOT",
    },
    // A V16 runtime (Polkadot spec 2,003,000) whose transactions carry
    // `CheckMetadataHash`; no fixture holds its blocks, so they are empty.
    ChainSpec {
        name: "polkadot-v16",
        display: "Polkadot",
        runtimes: &["metadata/polkadot-v16-spec2003000.scale"],
        blocks: &[run(8, 0, None)],
        ss58: 0,
        decimals: 10,
        symbol: "DOT",
    },
];

/// The node for `spec`, and the facts a test needs about it.
pub(crate) fn build(spec: &ChainSpec) -> Result<(TestNode, Value), String> {
    let mut runtimes = Vec::new();
    for file in spec.runtimes {
        runtimes.push(RuntimeLogic::load(
            file,
            try_read(file)?,
            spec.decimals,
            spec.symbol,
        )?);
    }
    let test_runtime = |rt: &RuntimeLogic| {
        let mut t = TestRuntime::new(&rt.spec_name, rt.spec_version, vec![rt.bytes.clone()]);
        t.transaction_version = rt.transaction_version;
        t
    };
    let mut node = TestNode::new(test_runtime(&runtimes[0]))
        .chain(spec.display)
        .properties(json!({
            "ss58Format": spec.ss58,
            "tokenDecimals": spec.decimals,
            "tokenSymbol": spec.symbol,
        }));
    for rt in &runtimes[1..] {
        node = node.runtime(test_runtime(rt));
    }
    let mut head = 0u64;
    for &BlockRun {
        count,
        runtime,
        fixture,
    } in spec.blocks
    {
        let block = match fixture {
            Some((dir, events)) => {
                let text = |name: &str| {
                    let bytes = try_read(&format!("{dir}/{name}"))?;
                    String::from_utf8(bytes).map_err(|e| format!("{dir}/{name}: {e}"))
                };
                let events = if events {
                    Some(text("events.hex")?)
                } else {
                    None
                };
                TestBlock::from_fixture(runtime, &text("extrinsics.json")?, events.as_deref())
                    .map_err(|e| format!("{dir}: {e}"))?
            }
            None => TestBlock {
                runtime,
                extrinsics: Vec::new(),
                events: None,
            },
        };
        for _ in 0..count {
            node = node.block(block.clone());
            head += 1;
        }
    }
    let head = head.checked_sub(1).ok_or("a chain without blocks")?;

    // Accounts, in the newest runtime's `AccountInfo` layout (the head's).
    let newest = runtimes.last().ok_or("a chain without runtimes")?;
    let dev_public = crate::logic::public_key(&DEV_SEED);
    let mut nonces = BTreeMap::new();
    nonces.insert(dev_public, DEV_NONCE);
    for i in 0..OTHER_ACCOUNTS {
        nonces.insert(blake2_256(&i.to_le_bytes()), i % 13);
    }
    let prefix = [twox_128(b"System"), twox_128(b"Account")].concat();
    for (account, &nonce) in &nonces {
        let value = account_info(nonce, free_balance(account));
        newest.check_account_info(&value, free_balance(account))?;
        let key = [&prefix[..], &blake2_128(account), account].concat();
        node = node.storage(key, value);
    }
    let facts = json!({
        "chain": spec.name,
        "head": head,
        "spec_versions": runtimes.iter().map(|r| r.spec_version).collect::<Vec<_>>(),
        "dev_seed": ferroscale_core::hex::encode_prefixed(&DEV_SEED),
        "dev_public": ferroscale_core::hex::encode_prefixed(&dev_public),
        "dev_nonce": DEV_NONCE,
        "accounts": nonces.len(),
    });
    let logic = DevLogic::new(runtimes, nonces);
    Ok((node.logic(Arc::new(logic)), facts))
}

/// An account's free balance: varied, and above 2^64 for some, so that
/// 128-bit balances are read exactly.
fn free_balance(account: &[u8; 32]) -> u128 {
    u128::from(u64::from_le_bytes(
        account[..8].try_into().unwrap_or_default(),
    )) * u128::from(account[8])
}

/// `AccountInfo { nonce, consumers, providers, sufficients, data: {free,
/// reserved, frozen, flags} }`, the layout of Polkadot's runtimes since
/// spec 9420 (the byte size is the older `misc_frozen`/`fee_frozen` one's too).
fn account_info(nonce: u32, free: u128) -> Vec<u8> {
    let flags: u128 = 1 << 127;
    (nonce, 0u32, 1u32, 0u32, (free, 0u128, 0u128, flags)).encode()
}
