//! A runtime made for the tests from a real one: Polkadot Asset Hub's
//! (statemint spec 2000003, V16) metadata with two more transaction-extension
//! versions than it lists — version 1 (`CheckNonce`, `CheckMortality`,
//! `ChargeAssetTxPayment`: a subset, out of order) and version 3 (no
//! extensions) — written to `$OUT_DIR/statemint-extension-versions.scale`
//! for `tests/extension_versions.rs`, whose types the proc-macro generates
//! from it. No runtime of the fixtures lists a version other than 0; this is
//! how typed general transactions of other versions are proven.

use frame_metadata::{RuntimeMetadata, RuntimeMetadataPrefixed};
use parity_scale_codec::{Compact, Decode, Encode};

const FIXTURE: &str = "metadata/statemint-v16-spec2000003-small.scale";

fn main() {
    let path = ferroscale_fixtures::path(FIXTURE);
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rerun-if-env-changed=FERROSCALE_FIXTURES");
    let bytes = ferroscale_fixtures::read(FIXTURE);
    let mut prefixed = RuntimeMetadataPrefixed::decode(&mut &bytes[..])
        .unwrap_or_else(|e| panic!("{FIXTURE}: {e}"));
    let RuntimeMetadata::V16(md) = &mut prefixed.1 else {
        panic!("{FIXTURE}: expected V16 metadata");
    };
    let index = |name: &str| {
        let i = md
            .extrinsic
            .transaction_extensions
            .iter()
            .position(|e| e.identifier == name)
            .unwrap_or_else(|| panic!("{FIXTURE}: no extension {name}"));
        Compact(i as u32)
    };
    let version_1 = vec![
        index("CheckNonce"),
        index("CheckMortality"),
        index("ChargeAssetTxPayment"),
    ];
    let by_version = &mut md.extrinsic.transaction_extensions_by_version;
    by_version.insert(1, version_1);
    by_version.insert(3, Vec::new());
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"))
        .join("statemint-extension-versions.scale");
    std::fs::write(&out, prefixed.encode())
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
