//! Storage hashers on published vectors and against Python's `hashlib`
//! (reference venv), and storage keys built, split and fed garbage.

use ferroscale_core::hashing::{
    self, split_storage_key, split_storage_key_with, storage_key, storage_prefix, StorageHasher,
};
use ferroscale_core::hex::encode_prefixed as hex;
use serde_json::Value as Json;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

#[test]
fn twox128_of_well_known_pallet_and_item_names() {
    // These prefixes appear in every Substrate chain's storage and in its docs.
    let known = [
        ("System", "0x26aa394eea5630e07c48ae0c9558cef7"),
        ("Account", "0xb99d880ec681799c0cf30e8886371da9"),
        ("Timestamp", "0xf0c365c3cf59d671eb72da0e7a4113c4"),
        ("Now", "0x9f1f0515f462cdcf84e0f1d6045dfcbb"),
        ("Balances", "0xc2261276cc9d1f8598ea4b6a74b15c2f"),
        ("TotalIssuance", "0x57c875e4cff74148e4628f264b974c80"),
    ];
    for (name, expected) in known {
        assert_eq!(hex(&hashing::twox_128(name.as_bytes())), expected, "{name}");
        assert_eq!(
            hex(&StorageHasher::Twox128.hash(name.as_bytes())),
            expected,
            "{name}"
        );
    }
    assert_eq!(
        hex(&storage_prefix("Balances", "TotalIssuance")),
        "0xc2261276cc9d1f8598ea4b6a74b15c2f57c875e4cff74148e4628f264b974c80"
    );
}

#[test]
fn blake2_hashers_agree_with_python_hashlib() {
    const SCRIPT: &str = r#"
import sys, json, hashlib
out = []
for h in json.load(sys.stdin):
    data = bytes.fromhex(h)
    out.append([hashlib.blake2b(data, digest_size=16).hexdigest(),
                hashlib.blake2b(data, digest_size=32).hexdigest()])
json.dump(out, sys.stdout)
"#;
    let mut rng = Rng(0xb1a4e2);
    let inputs: Vec<Vec<u8>> = (0..1000)
        .map(|i| {
            let len = if i < 300 { i } else { rng.below(2000) as usize };
            rng.bytes(len)
        })
        .collect();
    let request = Json::from(
        inputs
            .iter()
            .map(|b| hex(b)[2..].to_owned())
            .collect::<Vec<_>>(),
    );
    let reply: Vec<[String; 2]> = serde_json::from_str(
        &ferroscale_test_support::reference::run_python(SCRIPT, request.to_string().as_bytes()),
    )
    .expect("reference reply");
    assert_eq!(reply.len(), inputs.len());
    for (data, [b128, b256]) in inputs.iter().zip(&reply) {
        assert_eq!(hex(&hashing::blake2_128(data))[2..], *b128);
        assert_eq!(hex(&hashing::blake2_256(data))[2..], *b256);
        let concat = StorageHasher::Blake2_128Concat.hash(data);
        assert_eq!(hex(&concat[..16])[2..], *b128);
        assert_eq!(&concat[16..], &data[..]);
        assert_eq!(hex(&StorageHasher::Blake2_256.hash(data))[2..], *b256);
    }
}

#[test]
fn random_keys_round_trip_through_build_and_split() {
    let mut rng = Rng(7);
    for round in 0..2000 {
        let count = rng.below(5) as usize;
        let hashers: Vec<StorageHasher> = (0..count)
            .map(|_| StorageHasher::ALL[rng.below(7) as usize])
            .collect();
        let keys: Vec<Vec<u8>> = (0..count)
            .map(|_| {
                let len = rng.below(40) as usize;
                rng.bytes(len)
            })
            .collect();
        let pairs: Vec<(StorageHasher, &[u8])> = hashers
            .iter()
            .zip(&keys)
            .map(|(h, k)| (*h, k.as_slice()))
            .collect();
        let full = storage_key("Pallet", "Item", &pairs);
        // Sizes known for all but (sometimes) the last key.
        let sizes: Vec<Option<usize>> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (i + 1 < count || round % 2 == 0).then_some(k.len()))
            .collect();
        let parts = split_storage_key(&full, "Pallet", "Item", &hashers, &sizes)
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(parts.len(), count);
        for ((part, hasher), key) in parts.iter().zip(&hashers).zip(&keys) {
            assert_eq!(part.hasher, *hasher);
            assert_eq!(part.digest, &hasher.digest(key)[..]);
            let expected_key = hasher.is_concat().then_some(key.as_slice());
            assert_eq!(part.key, expected_key);
        }
    }
}

#[test]
fn a_length_callback_finds_variable_keys_anywhere() {
    // Two compact-length-prefixed byte strings under concat hashers: the
    // callback reads each length prefix (single-byte compact mode here).
    let a = [3u8 << 2, 1, 2, 3];
    let b = [5u8 << 2, 9, 9, 9, 9, 9];
    let hashers = [StorageHasher::Twox64Concat, StorageHasher::Blake2_128Concat];
    let full = storage_key("P", "I", &[(hashers[0], &a), (hashers[1], &b)]);
    let parts = split_storage_key_with(&full, "P", "I", &hashers, |_, bytes| {
        Ok(bytes.first().map(|b| 1 + usize::from(b >> 2)))
    })
    .unwrap();
    assert_eq!(parts[0].key, Some(&a[..]));
    assert_eq!(parts[1].key, Some(&b[..]));
}

#[test]
fn garbage_keys_give_errors_not_panics() {
    let mut rng = Rng(99);
    let prefix = storage_prefix("System", "Account");
    let hashers = [StorageHasher::Blake2_128Concat, StorageHasher::Twox64Concat];
    let mut errors = 0;
    for _ in 0..5000 {
        let mut key = if rng.below(2) == 0 {
            prefix.to_vec()
        } else {
            Vec::new()
        };
        let len = rng.below(120) as usize;
        key.extend(rng.bytes(len));
        let sizes = [Some(rng.below(64) as usize), None];
        if split_storage_key(&key, "System", "Account", &hashers, &sizes).is_err() {
            errors += 1;
        }
    }
    // Random bytes essentially never carry a matching digest.
    assert_eq!(errors, 5000);
}
