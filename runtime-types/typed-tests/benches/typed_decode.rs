//! Throughput of the generated types' derived `Decode` (and `Encode`) on real
//! data. Prints figures; asserts nothing about speed.
//!
//! `cargo bench -p ferroscale-typed-tests --bench typed_decode`

use std::time::{Duration, Instant};

use ferroscale_runtime_types::{decode_all, AccountId32};
use ferroscale_typed_tests::{polkadot_9180, subtensor_rpc};
use parity_scale_codec::{Decode, Encode};

type DelegateInfo =
    subtensor_rpc::runtime_types::pallet_subtensor::rpc_info::delegate_info::DelegateInfo<
        AccountId32,
    >;

/// Runs `f` over `inputs` repeatedly for about a second and prints MB/s.
fn bench(name: &str, inputs: &[Vec<u8>], mut f: impl FnMut(&[u8])) {
    let bytes_per_pass: usize = inputs.iter().map(Vec::len).sum();
    // Warm up.
    for i in inputs {
        f(i);
    }
    let start = Instant::now();
    let mut passes = 0u64;
    while start.elapsed() < Duration::from_secs(1) {
        for i in inputs {
            f(i);
        }
        passes += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let mb = bytes_per_pass as f64 * passes as f64 / 1e6;
    println!(
        "{name:<48} {:>9.1} MB/s  ({} bytes x {passes} passes, {:.3} ms/pass)",
        mb / secs,
        bytes_per_pass,
        secs * 1000.0 / passes as f64
    );
}

fn main() {
    let text = ferroscale_fixtures::read_string("payloads/polkadot-block-10000000/extrinsics.json");
    let hexes: Vec<String> = serde_json::from_str(&text).unwrap();
    let extrinsics: Vec<Vec<u8>> = hexes
        .iter()
        .map(|h| ferroscale_fixtures::decode_hex(h).unwrap())
        .collect();
    let delegates = vec![ferroscale_fixtures::read_hex(
        "payloads/subtensor/delegates_info.hex",
    )];

    bench(
        "decode block 10,000,000 extrinsics (spec 9180)",
        &extrinsics,
        |b| {
            let xt: polkadot_9180::UncheckedExtrinsic = decode_all(b).unwrap();
            std::hint::black_box(xt);
        },
    );
    bench(
        "decode delegates_info (Vec<DelegateInfo>, 360)",
        &delegates,
        |b| {
            let d: Vec<DelegateInfo> = decode_all(b).unwrap();
            std::hint::black_box(d);
        },
    );
    bench(
        "decode delegates_info, plain Decode (no limits)",
        &delegates,
        |b| {
            let d = Vec::<DelegateInfo>::decode(&mut &b[..]).unwrap();
            std::hint::black_box(d);
        },
    );
    let decoded: Vec<DelegateInfo> = decode_all(&delegates[0]).unwrap();
    bench("encode delegates_info", &delegates, |_| {
        std::hint::black_box(decoded.encode());
    });
}
