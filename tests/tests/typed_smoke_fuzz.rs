//! The bounded smoke fuzz of the generated runtime types, with every
//! `cargo test` (so in CI): the entry point of the cargo-fuzz `typed` target
//! (`fuzz/src/typed_check.rs`) over the shipped Polkadot and Bittensor
//! chains, run by the harness's smoke runner (`fuzz/src/harness/smoke.rs`,
//! included by path with the rest of the harness) on every seed and then on
//! a fixed number of inputs from the deterministic mutator. The dynamic
//! layer's targets run in `dynamic/tests/hardening_smoke_fuzz.rs`.

// The fuzz package's own modules: `pub` there is its API to the targets.
#[path = "../../fuzz/src/harness/mod.rs"]
#[allow(dead_code, unreachable_pub)]
mod harness;
#[path = "../../fuzz/src/typed_check.rs"]
#[allow(unreachable_pub)]
mod typed_check;

use harness::smoke::smoke_with;

/// Typed decoding of the generated `RuntimeCall`, `RuntimeEvent` and signed
/// extrinsic of Polkadot and Bittensor (the chains CI builds; the cargo-fuzz
/// `typed` target adds Kusama and Asset Hub). Byte 0 picks chain and type.
fn typed_entry(data: &[u8]) {
    use ferroscale_runtime_types::{bittensor as b, polkadot as p};
    use typed_check::check;
    let [sel, payload @ ..] = data else {
        return;
    };
    match sel % 6 {
        0 => check::<p::RuntimeCall>("polkadot RuntimeCall", payload),
        1 => check::<p::RuntimeEvent>("polkadot RuntimeEvent", payload),
        2 => check::<p::UncheckedExtrinsic>("polkadot UncheckedExtrinsic", payload),
        3 => check::<b::RuntimeCall>("bittensor RuntimeCall", payload),
        4 => check::<b::RuntimeEvent>("bittensor RuntimeEvent", payload),
        _ => check::<b::UncheckedExtrinsic>("bittensor UncheckedExtrinsic", payload),
    }
}

/// Seeds of [`typed_entry`]: pallet and variant indices with a little
/// payload for each chain and type, and the extrinsics of Polkadot block
/// 10,000,000 (an older spec than the generated one: close, not equal).
fn typed_seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for sel in 0..6u8 {
        for pallet in 0..64u8 {
            out.push(vec![sel, pallet, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        }
    }
    let extrinsics: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/extrinsics.json",
    ))
    .expect("extrinsics.json");
    for x in &extrinsics {
        let bytes = ferroscale_fixtures::decode_hex(x).expect("hex");
        out.push([vec![2u8], bytes.clone()].concat());
        out.push([vec![0u8], bytes[bytes.len().min(3)..].to_vec()].concat());
    }
    out
}

#[test]
fn smoke_fuzz_typed() {
    smoke_with("typed", typed_seeds(), typed_entry, 3_000_000);
}
