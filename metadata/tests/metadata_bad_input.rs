//! Bad metadata gives a clear error (what and where), never a panic: every
//! prefix of real blobs, thousands of seeded random mutations, and the
//! specific malformed framings (magic, version, wrappers, hex, trailing bytes).

use ferroscale_metadata::Error;
use ferroscale_metadata::Metadata;
use ferroscale_test_support::Xorshift;
use parity_scale_codec::Encode;

fn fixture(name: &str) -> Vec<u8> {
    ferroscale_fixtures::read(&format!("metadata/{name}"))
}

/// The error's offset, asserting it is a metadata error with a message.
fn metadata_error(result: Result<Metadata, Error>, context: &str) -> (String, usize) {
    match result {
        Err(Error::Metadata { what, offset }) => {
            assert!(!what.is_empty(), "{context}: empty message");
            (what, offset)
        }
        Err(other) => panic!("{context}: expected Error::Metadata, got {other:?}"),
        Ok(_) => panic!("{context}: expected an error, got Ok"),
    }
}

/// Every strict prefix of `blob` (or every `stride`-th one, plus all of the
/// first 2 KiB and the last 64 bytes) fails with an offset inside the prefix.
fn every_prefix_fails(name: &str, stride: usize) {
    let blob = fixture(name);
    assert!(
        Metadata::from_bytes(&blob).is_ok(),
        "{name} itself must load"
    );
    let head = 2048.min(blob.len());
    let tail = blob.len().saturating_sub(64);
    let lengths = (0..blob.len()).filter(|&n| n < head || n >= tail || n % stride == 0);
    let mut checked = 0;
    for n in lengths {
        let (what, offset) =
            metadata_error(Metadata::from_bytes(&blob[..n]), &format!("{name}[..{n}]"));
        assert!(
            offset <= n,
            "{name}[..{n}]: offset {offset} beyond the input ({what})"
        );
        checked += 1;
    }
    assert!(checked >= blob.len().min(head + 64));
}

#[test]
fn every_prefix_of_a_v12_blob_fails_cleanly() {
    every_prefix_fails("node-template-v12.scale", 1);
}

#[test]
fn every_prefix_of_a_v15_blob_fails_cleanly() {
    every_prefix_fails("custom-values-v15.scale", 1);
}

#[test]
fn a_stride_of_prefixes_of_large_blobs_fails_cleanly() {
    every_prefix_fails("polkadot-v14-spec9180.scale", 997);
    every_prefix_fails("kusama-v9-spec1021.scale", 97);
    every_prefix_fails("statemint-v16-spec2000003-small.scale", 1009);
}

#[test]
fn truncation_errors_name_what_failed() {
    let blob = fixture("polkadot-v14-spec9180.scale");
    let (what, offset) = metadata_error(Metadata::from_bytes(&blob[..1000]), "cut at 1000");
    assert!(what.contains("cannot decode metadata V14"), "{what}");
    assert!(what.contains("RuntimeMetadataV14::types"), "{what}");
    assert!(what.to_lowercase().contains("not enough data"), "{what}");
    assert!(offset > 900 && offset <= 1000, "{offset}");
}

/// One random corruption: flip bits, overwrite, insert, delete, truncate, or
/// plant a large compact length. The generator is seeded, so a failing case
/// can be replayed.
fn mutate(blob: &[u8], rng: &mut Xorshift) -> Vec<u8> {
    let mut out = blob.to_vec();
    let at = rng.below(out.len());
    match rng.below(7) {
        0 => out[at] ^= 1 << rng.below(8),
        1 => out[at] = rng.next_u8(),
        2 => out.insert(at, rng.next_u8()),
        3 => {
            out.remove(at);
        }
        4 => out.truncate(at),
        5 => {
            // A 4-byte-mode compact length: up to 2^30 - 1.
            let big = ((rng.next_u64() as u32) | 0x0100_0000) & 0x3fff_ffff;
            let encoded = parity_scale_codec::Compact(big).encode();
            let end = (at + encoded.len()).min(out.len());
            out.splice(at..end, encoded);
        }
        _ => {
            for i in at..(at + 8).min(out.len()) {
                out[i] = rng.next_u8();
            }
        }
    }
    out
}

fn mutations_never_panic(name: &str, count: usize, seed: u64) -> (usize, usize) {
    let blob = fixture(name);
    let mut rng = Xorshift::new(seed);
    let (mut ok, mut err) = (0, 0);
    for i in 0..count {
        let mutated = mutate(&blob, &mut rng);
        let result = std::panic::catch_unwind(|| Metadata::from_bytes(&mutated));
        match result {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(e)) => {
                assert!(!e.to_string().is_empty());
                err += 1;
            }
            Err(_) => panic!("{name}: mutation {i} (seed {seed}) panicked"),
        }
    }
    (ok, err)
}

#[test]
fn thousands_of_mutations_of_a_v14_blob_never_panic() {
    let (ok, err) = mutations_never_panic("bittensor-v14-spec329.scale", 3000, 0x5eed_0001);
    // Both outcomes occur: corrupted docs still load, corrupted structure does not.
    assert!(ok > 0 && err > 0, "ok {ok}, err {err}");
}

#[test]
fn mutations_of_legacy_and_v16_blobs_never_panic() {
    mutations_never_panic("node-template-v12.scale", 1500, 0x5eed_0002);
    mutations_never_panic("kusama-v13-spec9030.scale", 500, 0x5eed_0003);
    mutations_never_panic("statemint-v16-spec2000003-small.scale", 500, 0x5eed_0004);
    mutations_never_panic("custom-values-v15.scale", 1500, 0x5eed_0005);
}

#[test]
fn empty_input_and_wrong_magic() {
    let (what, offset) = metadata_error(Metadata::from_bytes(&[]), "empty");
    assert!(what.contains("empty"), "{what}");
    assert_eq!(offset, 0);

    let mut blob = fixture("node-template-v12.scale");
    blob[0] = b'M';
    let (what, offset) = metadata_error(Metadata::from_bytes(&blob), "wrong magic");
    assert!(what.contains("magic"), "{what}");
    assert_eq!(offset, 0);

    let (what, _) = metadata_error(Metadata::from_bytes(b"meta"), "magic only");
    assert!(what.contains("truncated"), "{what}");

    let (what, _) = metadata_error(Metadata::from_bytes(&[0]), "None");
    assert!(what.contains("None"), "{what}");
}

#[test]
fn unsupported_versions_are_named() {
    let blob = fixture("node-template-v12.scale");
    for version in [0u8, 1, 7, 8, 17, 18, 255] {
        let mut with_magic = blob.clone();
        with_magic[4] = version;
        let (what, offset) =
            metadata_error(Metadata::from_bytes(&with_magic), &format!("V{version}"));
        assert_eq!(
            what,
            format!("unsupported metadata version {version} (supported: 9–16)")
        );
        assert_eq!(offset, 4);
    }
    // A real V8-shaped header without magic is not mistaken for anything.
    let (what, _) = metadata_error(Metadata::from_bytes(&[8, 0, 0]), "bare V8");
    assert!(what.contains("version byte 9–16"), "{what}");
}

#[test]
fn trailing_bytes_are_an_error() {
    let mut blob = fixture("custom-values-v15.scale");
    let len = blob.len();
    blob.extend_from_slice(&[0, 1, 2]);
    let (what, offset) = metadata_error(Metadata::from_bytes(&blob), "trailing");
    assert!(what.contains("3 trailing bytes"), "{what}");
    assert_eq!(offset, len);
}

#[test]
fn rpc_wrappings_with_wrong_lengths() {
    let blob = fixture("custom-values-v15.scale");
    let option = Some(blob.clone()).encode();
    let (what, _) = metadata_error(
        Metadata::from_bytes(&option[..option.len() - 1]),
        "short Option<OpaqueMetadata>",
    );
    assert!(what.contains("declares"), "{what}");
    let mut long = blob.clone().encode();
    long.push(0);
    let (what, offset) = metadata_error(Metadata::from_bytes(&long), "long OpaqueMetadata");
    assert!(what.contains("trailing"), "{what}");
    assert_eq!(offset, long.len() - 1);
}

#[test]
fn bad_hex_text() {
    assert!(matches!(
        Metadata::from_hex("0x6d65746"),
        Err(Error::Hex(_))
    ));
    assert!(matches!(Metadata::from_hex("0x6d65zz"), Err(Error::Hex(_))));
    let (what, _) = metadata_error(Metadata::from_hex("0x6d657461"), "hex magic only");
    assert!(what.contains("truncated"), "{what}");
    // `load` reads non-hex text as binary: plain text is not metadata.
    let (what, _) = metadata_error(Metadata::load(b"hello world"), "text");
    assert!(what.contains("magic"), "{what}");
}

/// Re-encodes polkadot 9180 after `edit` changed the decoded V14 metadata.
fn edited_v14(edit: impl FnOnce(&mut frame_metadata::v14::RuntimeMetadataV14)) -> Vec<u8> {
    use parity_scale_codec::Decode;
    let blob = fixture("polkadot-v14-spec9180.scale");
    let mut prefixed = frame_metadata::RuntimeMetadataPrefixed::decode(&mut &blob[..]).unwrap();
    let frame_metadata::RuntimeMetadata::V14(m) = &mut prefixed.1 else {
        panic!("not V14")
    };
    edit(m);
    prefixed.encode()
}

fn content_error(bytes: &[u8]) -> String {
    match Metadata::from_bytes(bytes) {
        Err(Error::MetadataContent(what)) => what,
        other => panic!("expected Error::MetadataContent, got {other:?}"),
    }
}

#[test]
fn type_ids_that_do_not_resolve_are_refused() {
    // Re-encoding unchanged metadata loads (the edits below are the only cause).
    assert!(Metadata::from_bytes(&edited_v14(|_| {})).is_ok());

    let what = content_error(&edited_v14(|m| m.types.types[3].id = 7));
    assert!(what.contains("ids must equal positions"), "{what}");

    let what = content_error(&edited_v14(|m| m.ty = 690.into()));
    assert!(
        what.contains("runtime type") && what.contains("690"),
        "{what}"
    );

    let what = content_error(&edited_v14(|m| {
        let balances = m.pallets.iter_mut().find(|p| p.name == "Balances").unwrap();
        let constant = &mut balances.constants[0];
        constant.ty = 100_000.into();
    }));
    assert!(what.contains("constant Balances."), "{what}");

    // A pallet's call type that exists but is not an enum.
    let what = content_error(&edited_v14(|m| {
        let calls = m.pallets[0].calls.as_mut().unwrap();
        calls.ty = m.ty; // the Runtime struct
    }));
    assert!(
        what.contains("pallet System: calls type") && what.contains("not an enum"),
        "{what}"
    );

    // A field inside the registry pointing past its end.
    let what = content_error(&edited_v14(|m| {
        let last = m.types.types.len() as u32;
        let t = m
            .types
            .types
            .iter_mut()
            .find(|t| matches!(t.ty.type_def, scale_info::TypeDef::Sequence(_)))
            .unwrap();
        t.ty.type_def =
            scale_info::TypeDef::Sequence(scale_info::TypeDefSequence::new(last.into()));
    }));
    assert!(what.contains("refers to type 690"), "{what}");
}
