//! Prints the time per call of SS58 encode/decode, the storage hashers and
//! storage-key building/splitting: `cargo bench -p ferroscale-core --bench ss58_hashing`.
//!
//! A plain timing loop (no harness dependency): each case runs for about
//! half a second after a warm-up and reports the mean.

use std::hint::black_box;
use std::time::{Duration, Instant};

use ferroscale_core::hashing::{self, split_storage_key, storage_key, StorageHasher};
use ferroscale_core::ss58;

fn measure(name: &str, mut f: impl FnMut()) {
    for _ in 0..1000 {
        f();
    }
    let budget = Duration::from_millis(500);
    let start = Instant::now();
    let mut runs = 0u64;
    while start.elapsed() < budget {
        for _ in 0..100 {
            f();
        }
        runs += 100;
    }
    let per_call = start.elapsed().as_nanos() as f64 / runs as f64;
    println!("{name:<44} {per_call:>10.1} ns/call  ({runs} calls)");
}

fn main() {
    let account = [0xd4u8; 32];
    let address = ss58::encode(&account, 0).unwrap();
    let two_byte = ss58::encode(&account, 7391).unwrap();
    let key = storage_key(
        "System",
        "Account",
        &[(StorageHasher::Blake2_128Concat, &account)],
    );
    let hashers = [StorageHasher::Blake2_128Concat];

    measure("ss58::encode (32 bytes, format 0)", || {
        black_box(ss58::encode(black_box(&account), 0).unwrap());
    });
    measure("ss58::decode (32 bytes, format 0)", || {
        black_box(ss58::decode(black_box(&address), Some(0)).unwrap());
    });
    measure("ss58::decode (32 bytes, format 7391)", || {
        black_box(ss58::decode(black_box(&two_byte), None).unwrap());
    });
    measure("ss58::decode (bad checksum)", || {
        black_box(
            ss58::decode(
                black_box("5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ"),
                None,
            )
            .is_err(),
        );
    });
    measure("twox_128 (6 bytes)", || {
        black_box(hashing::twox_128(black_box(b"System")));
    });
    measure("blake2_128 (32 bytes)", || {
        black_box(hashing::blake2_128(black_box(&account)));
    });
    measure("storage_key System.Account (Blake2_128Concat)", || {
        black_box(storage_key(
            "System",
            "Account",
            &[(StorageHasher::Blake2_128Concat, black_box(&account))],
        ));
    });
    measure("split_storage_key System.Account", || {
        black_box(
            split_storage_key(black_box(&key), "System", "Account", &hashers, &[Some(32)]).unwrap(),
        );
    });
}
