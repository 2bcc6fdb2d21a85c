//! SS58 on known addresses, every network format, every payload length, and
//! every single-character corruption.

use ferroscale_core::ss58::{self, MAX_ADDRESS_LEN, MAX_FORMAT, PAYLOAD_LENGTHS};

/// Alice's sr25519 public key (`//Alice`), whose addresses are printed in
/// Substrate's and Polkadot's documentation.
const ALICE: &str = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";

fn alice() -> Vec<u8> {
    ferroscale_core::hex::decode(ALICE).unwrap()
}

/// A deterministic, varied 32-byte payload for format `n`.
fn payload_for(n: u16, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (n as usize * 31 + i * 17 + (n as usize >> 3)) as u8)
        .collect()
}

#[test]
fn alice_on_polkadot_kusama_and_substrate() {
    let cases = [
        (0, "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"),
        (2, "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F"),
        (42, "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"),
    ];
    for (format, address) in cases {
        assert_eq!(ss58::encode(&alice(), format).unwrap(), address);
        let decoded = ss58::decode(address, Some(format)).unwrap();
        assert_eq!(decoded.format, format);
        assert_eq!(decoded.payload, alice());
        assert_eq!(ss58::format_of(address).unwrap(), format);
        assert!(ss58::is_valid(address, None));
        assert!(ss58::is_valid(address, Some(format)));
    }
}

#[test]
fn alice_on_two_byte_formats_as_py_scale_codec_prints_them() {
    // Printed by py-scale-codec 1.2.12's ss58_encode (an independent implementation).
    let cases = [
        (64, "cEaNSpz4PxFcZ7nT1VEKrKewH67rfx6MfcM6yKojyyPz7qaqp"),
        (255, "yGHXkYLYqxijLKKfd9Q2CB9shRVu8rPNBS53wvwGTutYg4zTg"),
        (7391, "unjKJQJrRd238pkUZZvzDQrfKuM39zBSnQ5zjAGAGcdRhaJTx"),
        (16383, "yNa8JpqfFB3q8A29rCwSgxvdU94ufJw2yKKxDgznS5m1PoFvn"),
    ];
    for (format, address) in cases {
        assert_eq!(ss58::encode(&alice(), format).unwrap(), address);
        assert_eq!(ss58::format_of(address).unwrap(), format);
        assert_eq!(ss58::decode(address, None).unwrap().payload, alice());
    }
}

#[test]
fn account_indices_as_py_scale_codec_prints_them() {
    assert_eq!(ss58::encode_account_index(1, 42).unwrap(), "F7NZ");
    assert_eq!(ss58::decode_account_index("F7NZ", Some(42)).unwrap(), 1);
    assert_eq!(
        ss58::encode_account_index(0xdead_beef, 0).unwrap(),
        "1U3ojRv3"
    );
    assert_eq!(
        ss58::decode_account_index("1U3ojRv3", None).unwrap(),
        0xdead_beef
    );
    // A key is not an account index.
    let key_address = ss58::encode(&alice(), 0).unwrap();
    assert!(ss58::decode_account_index(&key_address, None).is_err());
}

#[test]
fn every_format_round_trips_a_32_byte_payload() {
    let mut seen = std::collections::HashSet::new();
    for format in 0..=MAX_FORMAT {
        let payload = payload_for(format, 32);
        if ss58::RESERVED_FORMATS.contains(&format) {
            let err = ss58::encode(&payload, format).unwrap_err().to_string();
            assert!(err.contains("reserved"), "{format}: {err}");
            continue;
        }
        let address = ss58::encode(&payload, format).unwrap();
        assert!(address.len() <= MAX_ADDRESS_LEN);
        let decoded = ss58::decode(&address, Some(format))
            .unwrap_or_else(|e| panic!("format {format}: {address}: {e}"));
        assert_eq!(decoded.format, format);
        assert_eq!(decoded.payload, payload, "format {format}");
        assert!(seen.insert(address), "two formats gave one address");
    }
    assert_eq!(seen.len(), 16384 - 2);
    assert!(ss58::encode(&alice(), MAX_FORMAT + 1).is_err());
    assert!(ss58::encode(&alice(), u16::MAX).is_err());
}

#[test]
fn every_payload_length_round_trips_on_one_and_two_byte_formats() {
    for format in [0, 2, 42, 63, 64, 255, 1000, 16383] {
        for len in PAYLOAD_LENGTHS {
            let payload = payload_for(format ^ len as u16, len);
            let address = ss58::encode(&payload, format).unwrap();
            let decoded = ss58::decode(&address, None).unwrap();
            assert_eq!((decoded.format, decoded.payload), (format, payload));
        }
        for bad_len in [0usize, 3, 5, 16, 31, 34, 64] {
            let err = ss58::encode(&vec![7; bad_len], format)
                .unwrap_err()
                .to_string();
            assert!(err.contains(&format!("{bad_len} bytes")), "{err}");
        }
    }
}

#[test]
fn every_single_character_change_is_rejected() {
    const BASE58: &str = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    let addresses = [
        ss58::encode(&alice(), 0).unwrap(),
        ss58::encode(&alice(), 2).unwrap(),
        ss58::encode(&alice(), 42).unwrap(),
        ss58::encode(&alice(), 16383).unwrap(),
        ss58::encode(&payload_for(5, 33), 1234).unwrap(),
    ];
    let mut changes = 0;
    for address in &addresses {
        let original = ss58::decode(address, None).unwrap();
        let chars: Vec<char> = address.chars().collect();
        for at in 0..chars.len() {
            for c in BASE58.chars().filter(|&c| c != chars[at]) {
                let mut changed = chars.clone();
                changed[at] = c;
                let changed: String = changed.into_iter().collect();
                changes += 1;
                if let Ok(other) = ss58::decode(&changed, None) {
                    panic!("{address} with {c:?} at {at} decodes as {other:?} (was {original:?})");
                }
            }
            // Dropping a character is a corruption too.
            let mut shorter = chars.clone();
            shorter.remove(at);
            let shorter: String = shorter.into_iter().collect();
            assert!(ss58::decode(&shorter, None).is_err(), "{shorter}");
        }
    }
    assert!(changes > 5 * 46 * 57, "{changes}");
}

#[test]
fn wrong_network_is_named() {
    let address = ss58::encode(&alice(), 0).unwrap();
    let err = ss58::decode(&address, Some(2)).unwrap_err().to_string();
    assert!(err.contains("format 0, expected 2"), "{err}");
    assert!(!ss58::is_valid(&address, Some(2)));
}

#[test]
fn errors_say_what_is_wrong() {
    let good = ss58::encode(&alice(), 42).unwrap();
    let cases: [(String, &str); 6] = [
        (String::new(), "empty"),
        ("5Grwva0EF".into(), "'0' at position 6"),
        ("I".into(), "'I' at position 0"),
        (format!("{good}{good}"), "characters long"),
        // Format 42 followed by 19 bytes: no payload-and-checksum split has 19.
        (bs58::encode([42u8; 20]).into_string(), "19 bytes after"),
        (
            {
                // Same text with its last character moved one step: checksum breaks.
                let mut s = good.clone();
                let last = s.pop().unwrap();
                s.push(if last == 'Y' { 'Z' } else { 'Y' });
                s
            },
            "checksum mismatch",
        ),
    ];
    for (input, expected) in cases {
        let err = ss58::decode(&input, None).unwrap_err();
        assert!(
            matches!(err, ferroscale_core::Error::Ss58(_)),
            "{input}: {err:?}"
        );
        assert!(err.to_string().contains(expected), "{input:?}: {err}");
    }
}

#[test]
fn reserved_and_future_prefixes_are_rejected_on_decode() {
    // Hand-built addresses with a correct checksum but a forbidden first byte.
    use blake2::{Blake2b512, Digest};
    let build = |prefix: &[u8], payload: &[u8]| {
        let mut raw = prefix.to_vec();
        raw.extend_from_slice(payload);
        let hash = Blake2b512::new()
            .chain_update(b"SS58PRE")
            .chain_update(&raw)
            .finalize();
        raw.extend_from_slice(&hash[..2]);
        bs58::encode(raw).into_string()
    };
    for first in [46u8, 47] {
        let err = ss58::decode(&build(&[first], &alice()), None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("reserved"), "{err}");
    }
    for first in [0x80u8, 0xbf, 0xc0, 0xff] {
        let err = ss58::decode(&build(&[first, 0], &alice()), None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("128..=255"), "{err}");
    }
    // The two-byte spelling of format 0 is accepted (as Substrate and
    // py-scale-codec do) and re-encodes in the canonical one-byte form.
    let non_canonical = build(&[0x40, 0x00], &alice());
    let decoded = ss58::decode(&non_canonical, None).unwrap();
    assert_eq!(decoded.format, 0);
    assert_eq!(
        ss58::encode(&decoded.payload, 0).unwrap(),
        "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"
    );
}

#[test]
fn longer_checksums_of_the_spec_table_are_accepted_for_indices() {
    use blake2::{Blake2b512, Digest};
    // A 4-byte index with a 3-byte checksum (spec table: total length 8).
    let raw_body = [42u8, 0x78, 0x56, 0x34, 0x12];
    let hash = Blake2b512::new()
        .chain_update(b"SS58PRE")
        .chain_update(raw_body)
        .finalize();
    let mut raw = raw_body.to_vec();
    raw.extend_from_slice(&hash[..3]);
    let address = bs58::encode(&raw).into_string();
    assert_eq!(
        ss58::decode_account_index(&address, Some(42)).unwrap(),
        0x1234_5678
    );
    // Break the third checksum byte: rejected.
    raw[7] ^= 1;
    assert!(ss58::decode(&bs58::encode(&raw).into_string(), None).is_err());
}
