//! The README's "Use it from Rust" program is this crate (`cargo xtask docs`
//! checks that the README shows `src/main.rs`), and it works: the program
//! decodes real block 18,468,942 typed and dynamically (its own `assert`s
//! check that the two agree), and it needs no dependency but the facade.

use std::process::Command;

const MANIFEST: &str = include_str!("../Cargo.toml");

#[test]
fn the_example_needs_the_facade_only() {
    // One dependency: nothing else under [dependencies].
    let deps = MANIFEST
        .split("[dependencies]")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap();
    let names: Vec<&str> = deps
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn the_example_decodes_block_18468942_typed_and_dynamically() {
    let fixtures = ferroscale_fixtures::dir();
    // Verified against the manifest (present, right digest).
    let extrinsics =
        ferroscale_fixtures::read_string("payloads/polkadot-block-18468942/extrinsics.json");
    let events = ferroscale_fixtures::read_string("payloads/polkadot-block-18468942/events.hex");
    ferroscale_fixtures::read("metadata/polkadot-v14-spec1000001.scale");
    ferroscale_fixtures::read("metadata/polkadot-v14-spec9180.scale");

    let out = Command::new(env!("CARGO_BIN_EXE_ferroscale-example-indexer"))
        .arg(&fixtures)
        .output()
        .expect("the example runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "example failed:\n{stdout}\n{stderr}");

    // What the fixture holds, read independently: each extrinsic's version
    // byte (after a one- to four-byte compact length) says whether it is signed.
    let hexes: Vec<&str> = extrinsics
        .split('"')
        .filter(|s| s.starts_with("0x"))
        .collect();
    let signed = hexes
        .iter()
        .filter(|h| {
            let b = ferroscale_fixtures::decode_hex(h).unwrap();
            let len = [1, 2, 4][(b[0] & 3) as usize];
            b[len] & 0x80 != 0
        })
        .count();
    let lines: Vec<&str> = stdout.lines().collect();
    let xt_lines: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("extrinsic "))
        .collect();
    assert_eq!(xt_lines.len(), hexes.len(), "{stdout}");
    assert_eq!(
        xt_lines
            .iter()
            .filter(|l| l.contains("signed=true"))
            .count(),
        signed,
        "{stdout}"
    );
    assert!(signed > 0 && signed < hexes.len());
    // Each call by its pallet's and its own name (the block's second is the
    // 50 KB parachain inherent).
    assert!(xt_lines[0].ends_with(" Timestamp.set"), "{stdout}");
    assert!(xt_lines[1].ends_with(" ParaInherent.enter"), "{stdout}");
    let event_count = ferroscale_fixtures::decode_hex(events.trim()).unwrap()[0] as usize >> 2;
    assert!(
        stdout.contains(&format!("{event_count} events; fee payer 1")),
        "{stdout}"
    );
    assert!(stdout.contains(&format!(
        "System.Events by name and by type string: {event_count} records"
    )));
    // Another spec's metadata is refused before anything is decoded with these types.
    assert!(
        stdout.contains(
            "refused: types generated for polkadot spec 1000001 do not fit \
             this metadata (polkadot spec 9180)"
        ),
        "{stdout}"
    );
    let payer = stdout
        .lines()
        .find_map(|l| l.split("fee payer ").nth(1))
        .unwrap();
    assert!(stdout.contains(&format!("System.Account key of Some(\"{payer}\")")));
}
