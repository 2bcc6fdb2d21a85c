//! The `ferroscale` binary run as a user runs it, on real chain data: its
//! output is checked against the libraries' own answers for the same input
//! (the metadata model, the dynamic layer, SS58), its errors go to stderr
//! with exit code 1, usage errors exit with 2.

use std::path::PathBuf;
use std::process::{Command, Output};

use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::Metadata;

fn fixture(name: &str) -> PathBuf {
    // Verifies the file against the manifest (and fails clearly if absent).
    ferroscale_test_support::read(name);
    ferroscale_test_support::path(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ferroscale"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

const SPEC_9180: &str = "metadata/polkadot-v14-spec9180.scale";

#[test]
fn metadata_summary_lists_every_pallet() {
    let path = fixture(SPEC_9180);
    let md = Metadata::load(&ferroscale_test_support::read(SPEC_9180)).unwrap();
    let table = ok(&["metadata", path.to_str().unwrap()]);
    assert!(table.contains("spec:     polkadot 9180"), "{table}");
    for p in &md.pallets {
        assert!(
            table
                .lines()
                .any(|l| l.split_whitespace().nth(1) == Some(p.name.as_str())),
            "pallet {} missing",
            p.name
        );
    }
    let summary = json(&ok(&["metadata", path.to_str().unwrap(), "--json"]));
    assert_eq!(
        summary["pallets"].as_array().unwrap().len(),
        md.pallets.len()
    );
    let balances = json(&ok(&[
        "metadata",
        path.to_str().unwrap(),
        "--pallet",
        "Balances",
    ]));
    let model = md.pallet("Balances").unwrap();
    assert_eq!(
        balances["calls"].as_array().unwrap().len(),
        model.calls().len()
    );
    let ty = json(&ok(&[
        "metadata",
        path.to_str().unwrap(),
        "--type",
        "sp_runtime::DispatchError",
    ]));
    assert_eq!(
        ty["type"]["path"],
        serde_json::json!(["sp_runtime", "DispatchError"])
    );
}

#[test]
fn extrinsics_and_events_decode_as_the_dynamic_layer_does() {
    let metadata = fixture(SPEC_9180);
    let list: Vec<String> = serde_json::from_str(&ferroscale_test_support::read_string(
        "payloads/polkadot-block-10000000/extrinsics.json",
    ))
    .unwrap();
    let mut registry = Registry::new();
    registry
        .load_metadata(&ferroscale_test_support::read(SPEC_9180))
        .unwrap();
    for hex in &list {
        let printed = ok(&["extrinsic", hex, "--metadata", metadata.to_str().unwrap()]);
        let expected = registry
            .decode(
                "Extrinsic",
                &ferroscale_test_support::decode_hex(hex).unwrap(),
            )
            .unwrap();
        assert_eq!(json(&printed), json(&expected.to_string()));
    }

    let md_1000001 = fixture("metadata/polkadot-v14-spec1000001.scale");
    let events = fixture("payloads/polkadot-block-18468942/events.hex");
    let at_file = format!("@{}", events.display());
    let printed = json(&ok(&[
        "events",
        &at_file,
        "--metadata",
        md_1000001.to_str().unwrap(),
        "--ss58",
        "0",
    ]));
    let records = printed.as_array().expect("a list of event records");
    assert_eq!(records.len(), 58, "the block's 58 events");
    assert!(records
        .iter()
        .any(|r| r["module_id"] == "System" && r["event_id"] == "ExtrinsicSuccess"));
}

#[test]
fn encode_and_decode_are_inverse() {
    let hex = ok(&[
        "encode",
        "Vec<(u32, Compact<u128>)>",
        r#"[[1, 2], [4294967295, "340282366920938463463374607431768211455"]]"#,
    ]);
    let hex = hex.trim();
    let back = json(&ok(&["decode", "Vec<(u32, Compact<u128>)>", hex]));
    assert_eq!(back[1][0], 4294967295u64);
    // 2^128 - 1 is beyond JSON parsers' 64-bit integers: compare the text.
    let text = ok(&["decode", "Vec<(u32, Compact<u128>)>", hex]);
    assert!(
        text.contains("340282366920938463463374607431768211455"),
        "{text}"
    );
}

#[test]
fn ss58_round_trips_through_the_core_library() {
    let payload = [0xd4u8; 32];
    let hex = ferroscale_core::hex::encode_prefixed(&payload);
    let address = ok(&["ss58", "encode", &hex, "--format", "2"]);
    assert_eq!(
        address.trim(),
        ferroscale_core::ss58::encode(&payload, 2).unwrap()
    );
    let decoded = json(&ok(&["ss58", "decode", address.trim()]));
    assert_eq!(decoded["format"], 2);
    assert_eq!(decoded["payload"], hex);
    let wrong = run(&["ss58", "decode", address.trim(), "--format", "0"]);
    assert_eq!(wrong.status.code(), Some(1));
}

#[test]
fn generate_writes_the_module_codegen_renders() {
    let path = fixture("metadata/custom-values-v15.scale");
    let printed = ok(&["generate", path.to_str().unwrap()]);
    let generated = ferroscale_codegen::generate(&ferroscale_test_support::read(
        "metadata/custom-values-v15.scale",
    ))
    .unwrap();
    let expected = ferroscale_codegen::render(&generated.tokens).unwrap();
    assert_eq!(printed.trim_end(), expected.trim_end());
}

#[test]
fn errors_name_the_problem_on_stderr_with_exit_code_1() {
    let metadata = fixture(SPEC_9180);
    let cases: [(&[&str], &str); 5] = [
        (&["decode", "u32", "0x01"], "needed 4 bytes"),
        (&["decode", "u32", "zz"], "not hex"),
        (&["decode", "NoSuchType", "0x00"], "NoSuchType"),
        (&["encode", "u8", "1.5"], "no fractions"),
        (
            &["metadata", metadata.to_str().unwrap(), "--pallet", "Nope"],
            "no pallet \"Nope\"",
        ),
    ];
    for (args, wanted) in cases {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(wanted),
            "{args:?}: {stderr}"
        );
    }
    let legacy = fixture("metadata/polkadot-v12-spec30.scale");
    let out = run(&["extrinsic", "0x00", "--metadata", legacy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--presets"));
    // A usage error is clap's: exit code 2.
    assert_eq!(run(&["decode"]).status.code(), Some(2));
}

#[test]
fn storage_keys_are_the_chain_s_own() {
    // Real keys of Polkadot block 10,000,000: the account read back from each
    // key, given to the command, must give the key again.
    let metadata = fixture(SPEC_9180);
    let pairs: Vec<(String, String)> = serde_json::from_str(&ferroscale_test_support::read_string(
        "payloads/polkadot-block-10000000/storage_system_account.json",
    ))
    .unwrap();
    let mut registry = Registry::new();
    registry
        .load_metadata(&ferroscale_test_support::read(SPEC_9180))
        .unwrap();
    for (key, _) in pairs.iter().take(5) {
        let bytes = ferroscale_test_support::decode_hex(key).unwrap();
        let parts = registry
            .decode_storage_key("System", "Account", &bytes)
            .unwrap();
        let account = parts[0]
            .value
            .as_ref()
            .expect("a concat hasher keeps the key");
        let printed = ok(&[
            "storage-key",
            "System",
            "Account",
            &account.to_string(),
            "--metadata",
            metadata.to_str().unwrap(),
        ]);
        assert_eq!(printed.trim(), key);
    }
}

#[test]
fn runtime_api_requests_and_answers() {
    let v15 = fixture("metadata/polkadot-v15-spec1001002.scale");
    let v15 = v15.to_str().unwrap();
    let request = json(&ok(&[
        "runtime-api",
        "Metadata",
        "metadata_at_version",
        "15",
        "--metadata",
        v15,
    ]));
    assert_eq!(request["method"], "Metadata_metadata_at_version");
    assert_eq!(request["data"], "0x0f000000");
    let none = ok(&[
        "runtime-api",
        "Metadata",
        "metadata_at_version",
        "--answer",
        "0x00",
        "--metadata",
        v15,
    ]);
    assert_eq!(none.trim(), "null");
    let v14 = fixture(SPEC_9180);
    let out = run(&[
        "runtime-api",
        "Metadata",
        "metadata_versions",
        "--metadata",
        v14.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no runtime API metadata"));
}
