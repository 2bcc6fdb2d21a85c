//! Prints the time per call of SS58 encode/decode, the storage hashers and
//! storage-key building/splitting: `cargo bench -p ferroscale-core --bench ss58_hashing`.
//!
//! A plain timing loop (no harness dependency): each case runs for about
//! half a second after a warm-up and reports the mean.

use std::hint::black_box;
use std::time::{Duration, Instant};

use blake2::Digest;
use ferroscale_core::hashing::{
    self, blake2b_block, split_storage_key, storage_key, StorageHasher,
};
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
    measure("ss58::encode_address (32 bytes, format 42)", || {
        black_box(ss58::encode_address(black_box(&account), 42).unwrap());
    });
    // 64 distinct accounts; divide by 64 for the time per address.
    let accounts: Vec<[u8; 32]> = (0..64u8).map(|k| [k ^ 0xd4; 32]).collect();
    measure("ss58::encode_addresses (64 x 32 bytes, format 42)", || {
        black_box(ss58::encode_addresses(black_box(&accounts), 42).unwrap());
    });
    measure("  same, encode_address each (64 x 32 bytes)", || {
        for account in black_box(&accounts) {
            black_box(ss58::encode_address(account, 42).unwrap());
        }
    });
    let mut raw35 = [0u8; 35];
    raw35[0] = 42;
    raw35[1..33].copy_from_slice(&account);
    raw35[33..].copy_from_slice(&[0x5a, 0xc3]);
    measure("ss58::base58_text (35 bytes)", || {
        black_box(ss58::base58_text(black_box(&raw35)).unwrap());
    });
    measure("ss58::base58_text (36 bytes)", || {
        black_box(ss58::base58_text(black_box(&[0x9fu8; 36])).unwrap());
    });
    measure("ss58::base58_text (40 bytes)", || {
        black_box(ss58::base58_text(black_box(&[0xffu8; 40])).unwrap());
    });
    measure("ss58::base58_text (5 bytes)", || {
        black_box(ss58::base58_text(black_box(&[0x2a, 0x07, 0x00, 0x11, 0x22])).unwrap());
    });
    measure("blake2_256 (40 bytes)", || {
        black_box(hashing::blake2_256(black_box(&[7u8; 40])));
    });
    // The SS58 checksum preimage: b"SS58PRE" ++ 2-byte format ++ 33 bytes.
    let preimage = [0x5au8; 42];
    measure("blake2b-512 (42 bytes, blake2 crate)", || {
        let hash: [u8; 64] = blake2::Blake2b512::digest(black_box(&preimage)).into();
        black_box(hash);
    });
    measure("blake2b_block::digest_into 64 (42 bytes)", || {
        let mut out = [0u8; 64];
        black_box(blake2b_block::digest_into(black_box(&preimage), &mut out));
        black_box(out);
    });
    // Batches of 64 preimages of 40-42 bytes; divide by 64 for the time per hash.
    let batch: Vec<&[u8]> = (0..64).map(|k| &preimage[..40 + k % 3]).collect();
    let mut digests = vec![[0u8; 64]; batch.len()];
    measure("blake2b_block::digest_many 64 (64 x 40-42 bytes)", || {
        black_box(blake2b_block::digest_many(black_box(&batch), &mut digests));
    });
    measure("  same, one digest_into each (64 x 40-42 bytes)", || {
        for (message, digest) in black_box(&batch).iter().zip(digests.iter_mut()) {
            black_box(blake2b_block::digest_into(message, digest));
        }
    });
    #[cfg(target_arch = "x86_64")]
    {
        let eight: [&[u8]; 8] = std::array::from_fn(|k| batch[k]);
        let four: [&[u8]; 4] = std::array::from_fn(|k| batch[k]);
        if blake2b_block::avx512::available() {
            measure("blake2b_block::avx512::digest_x8 64 (8 x 40-42)", || {
                black_box(blake2b_block::avx512::digest_x8::<64>(black_box(eight)));
            });
        }
        if blake2b_block::avx2::available() {
            measure("blake2b_block::avx2::digest_x4 64 (4 x 40-42)", || {
                black_box(blake2b_block::avx2::digest_x4::<64>(black_box(four)));
            });
        }
    }
    measure("blake2_256 (128 bytes, one block)", || {
        black_box(hashing::blake2_256(black_box(&[7u8; 128])));
    });
    measure("blake2_256 (129 bytes, blake2 crate)", || {
        black_box(hashing::blake2_256(black_box(&[7u8; 129])));
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
