//! Throughput of the generated types' `Decode` (and `Encode`) on real
//! data, and of the dynamic layer with and without the fallback onto them.
//! Prints figures; asserts nothing about speed.
//!
//! `cargo bench -p ferroscale-tests --bench typed_decode`

use std::time::{Duration, Instant};

use ferroscale_runtime_types::{decode_all, AccountId32};
use ferroscale_tests::{polkadot_9180, subtensor_rpc};
use ferroscale_typed_fallback::RegistryExt;
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
    fallback(&delegates);
}

/// The dynamic layer to a `Value`, alone and with the generated types'
/// `TYPED_DECODERS` attached (`ferroscale-typed-fallback`), side by side.
fn fallback(delegates: &[Vec<u8>]) {
    use ferroscale_dynamic::registry::Registry;
    let json = ferroscale_fixtures::read_string("payloads/subtensor/test_types.json");
    let types: scale_info::PortableRegistry = serde_json::from_str(&json).unwrap();
    let delegate = types
        .types
        .iter()
        .find(|t| t.ty.path.segments.last().map(String::as_str) == Some("DelegateInfo"))
        .unwrap()
        .id;
    let ty = format!("Vec<scale_info::{delegate}>");
    for typed in [false, true] {
        let mut r = Registry::new();
        if typed {
            r.attach_typed_decoders(subtensor_rpc::TYPED_DECODERS);
        }
        r.load_portable_registry(&types).unwrap();
        let name = format!(
            "dynamic{}: delegates_info to Value",
            if typed { "+typed" } else { "" }
        );
        bench(&name, delegates, |b| {
            std::hint::black_box(r.decode(&ty, b).unwrap());
        });
    }

    // Every constant and storage default of Polkadot spec 1001002.
    let metadata = ferroscale_fixtures::read("metadata/polkadot-v15-spec1001002.scale");
    let input = ferroscale_codegen::input::load(&metadata).unwrap();
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for p in &input.pallets {
        for (_, ty, value) in &p.constants {
            cases.push((format!("scale_info::{ty}"), value.clone()));
        }
        for s in p.storage.iter().filter(|s| !s.optional) {
            cases.push((format!("scale_info::{}", s.value), s.default.clone()));
        }
    }
    let all: Vec<Vec<u8>> = vec![cases.iter().flat_map(|(_, b)| b.clone()).collect()];
    for typed in [false, true] {
        let mut r = Registry::new();
        if typed {
            r.attach_typed_decoders(ferroscale_runtime_types::polkadot::TYPED_DECODERS);
        }
        r.load_metadata(&metadata).unwrap();
        let name = format!(
            "dynamic{}: polkadot constants+defaults ({})",
            if typed { "+typed" } else { "" },
            cases.len()
        );
        bench(&name, &all, |_| {
            for (ty, b) in &cases {
                std::hint::black_box(r.decode(ty, b).unwrap());
            }
        });
    }
    let started = Instant::now();
    let mut r = Registry::new();
    r.attach_typed_decoders(ferroscale_runtime_types::polkadot::TYPED_DECODERS);
    r.load_metadata(&metadata).unwrap();
    let with = started.elapsed();
    let started = Instant::now();
    let mut r = Registry::new();
    r.load_metadata(&metadata).unwrap();
    let without = started.elapsed();
    println!(
        "load polkadot metadata: {:.2} ms, with typed decoders attached {:.2} ms",
        without.as_secs_f64() * 1e3,
        with.as_secs_f64() * 1e3
    );
}
