//! Typed decoding of the generated runtime types (`ferroscale-runtime-types`):
//! `RuntimeCall`, `RuntimeEvent` and the signed extrinsic of every generated
//! chain the fuzz package enables (Polkadot, Kusama, Bittensor, Asset Hub).
//!
//! Input: byte 0 picks the chain (`/ 3`) and the type (`% 3`); the rest is
//! decoded with [`ferroscale_runtime_types::decode_all`] (all bytes used,
//! nesting capped). A value that decodes must encode to bytes that decode
//! to the same value (the generated codecs agree with each other).

use std::fmt::Debug;

use ferroscale_runtime_types::{asset_hub, bittensor, kusama, polkadot};
use parity_scale_codec::{Decode, Encode};

pub use crate::typed_check::check;

/// Chains in selector order.
pub const CHAINS: [&str; 4] = ["polkadot", "kusama", "bittensor", "asset-hub"];

/// The three entry types of one chain, by `kind % 3`.
fn chain<C, E, X>(name: &str, kind: u8, payload: &[u8])
where
    C: Decode + Encode + PartialEq + Debug,
    E: Decode + Encode + PartialEq + Debug,
    X: Decode + Encode + PartialEq + Debug,
{
    match kind % 3 {
        0 => check::<C>(&format!("{name} RuntimeCall"), payload),
        1 => check::<E>(&format!("{name} RuntimeEvent"), payload),
        _ => check::<X>(&format!("{name} UncheckedExtrinsic"), payload),
    }
}

/// The `typed` fuzz target's entry point.
pub fn typed(data: &[u8]) {
    let [sel, payload @ ..] = data else {
        return;
    };
    match (sel / 3) % 4 {
        0 => chain::<polkadot::RuntimeCall, polkadot::RuntimeEvent, polkadot::UncheckedExtrinsic>(
            CHAINS[0], *sel, payload,
        ),
        1 => chain::<kusama::RuntimeCall, kusama::RuntimeEvent, kusama::UncheckedExtrinsic>(
            CHAINS[1], *sel, payload,
        ),
        2 => {
            chain::<bittensor::RuntimeCall, bittensor::RuntimeEvent, bittensor::UncheckedExtrinsic>(
                CHAINS[2], *sel, payload,
            )
        }
        _ => {
            chain::<asset_hub::RuntimeCall, asset_hub::RuntimeEvent, asset_hub::UncheckedExtrinsic>(
                CHAINS[3], *sel, payload,
            )
        }
    }
}

/// Seeds: for each chain and type, the first bytes of plausible values
/// (pallet/variant indices 0–7 with a little payload), and the extrinsics of
/// Polkadot block 10,000,000 (spec 9180: close to, not the same as, the
/// generated Polkadot runtime) as Polkadot extrinsics.
pub fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for chain in 0..4u8 {
        for kind in 0..3u8 {
            let sel = chain * 3 + kind;
            for pallet in 0..8u8 {
                out.push(vec![sel, pallet, 0, 0, 0, 0, 0, 0, 0, 0]);
            }
            out.push(vec![
                sel, 0x10, 0x04, 0x00, 0x0b, 0x99, 0xe0, 0x4d, 0x56, 0x80, 0x01,
            ]);
        }
    }
    let extrinsics: Vec<String> = serde_json::from_str(&ferroscale_fixtures::read_string(
        "payloads/polkadot-block-10000000/extrinsics.json",
    ))
    .expect("extrinsics.json is a list of hex strings");
    for x in &extrinsics {
        let mut v = vec![2u8];
        v.extend(ferroscale_fixtures::decode_hex(x).expect("hex extrinsic"));
        out.push(v);
        // the same call without the extrinsic framing, as a RuntimeCall
        let bytes = ferroscale_fixtures::decode_hex(x).expect("hex extrinsic");
        if bytes.len() > 3 {
            let mut call = vec![0u8];
            call.extend_from_slice(&bytes[bytes.len().min(3)..]);
            out.push(call);
        }
    }
    out
}
