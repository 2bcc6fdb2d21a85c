//! Every constant value and every storage default of a chain's metadata
//! decodes with the generated types and re-encodes to the same bytes.

use ferroscale_codegen::input::load;

type Roundtrip = fn(u32, &[u8]) -> Option<Result<Vec<u8>, parity_scale_codec::Error>>;

/// Round-trips every constant and storage default; returns (constants, defaults) checked.
fn check_chain(fixture: &str, roundtrip: Roundtrip) -> (usize, usize) {
    let input = load(&ferroscale_fixtures::read(fixture)).expect("metadata loads");
    let mut failures: Vec<String> = Vec::new();
    let check = |failures: &mut Vec<String>, what: String, ty: u32, bytes: &[u8]| match roundtrip(
        ty, bytes,
    ) {
        Some(Ok(again)) if again == bytes => {}
        Some(Ok(again)) => failures.push(format!(
            "{what} (type {ty}): re-encoded {again:02x?} != {bytes:02x?}"
        )),
        Some(Err(e)) => failures.push(format!("{what} (type {ty}): {e}")),
        None => failures.push(format!("{what}: type {ty} has no generated type")),
    };
    let (mut constants, mut defaults) = (0, 0);
    for p in &input.pallets {
        for (name, ty, value) in &p.constants {
            check(
                &mut failures,
                format!("{fixture} constant {}.{name}", p.name),
                *ty,
                value,
            );
            constants += 1;
        }
        for s in &p.storage {
            let what = format!("{fixture} storage default {}.{}", p.name, s.name);
            if s.optional {
                // An `OptionQuery` entry's default is `None`, a single zero byte.
                if s.default != [0] {
                    failures.push(format!("{what}: optional default is {:02x?}", s.default));
                }
            } else {
                check(&mut failures, what, s.value, &s.default);
            }
            defaults += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} values failed:\n{}",
        failures.len(),
        constants + defaults,
        failures.join("\n")
    );
    eprintln!("{fixture}: {constants} constants and {defaults} storage defaults round-trip");
    (constants, defaults)
}

#[test]
fn polkadot_1001002_constants_and_defaults_roundtrip() {
    let (c, d) = check_chain(
        "metadata/polkadot-v15-spec1001002.scale",
        ferroscale_runtime_types::polkadot::roundtrip_type,
    );
    assert!(c >= 100 && d >= 250, "{c} constants, {d} defaults");
}

#[test]
fn bittensor_343_constants_and_defaults_roundtrip() {
    let (c, d) = check_chain(
        "metadata/subtensor-v15-spec343.scale",
        ferroscale_runtime_types::bittensor::roundtrip_type,
    );
    assert!(c > 30 && d > 100, "{c} constants, {d} defaults");
}

#[test]
fn polkadot_9180_constants_and_defaults_roundtrip() {
    let (c, d) = check_chain(
        "metadata/polkadot-v14-spec9180.scale",
        ferroscale_typed_tests::polkadot_9180::roundtrip_type,
    );
    assert!(c >= 100 && d >= 250, "{c} constants, {d} defaults");
}

#[test]
fn kusama_1001002_constants_and_defaults_roundtrip() {
    let (c, d) = check_chain(
        "metadata/kusama-v15-spec1001002.scale",
        ferroscale_runtime_types::kusama::roundtrip_type,
    );
    assert!(c >= 100 && d >= 250, "{c} constants, {d} defaults");
}

#[test]
fn asset_hub_2000003_constants_and_defaults_roundtrip() {
    // The fixture is trimmed to one pallet (all 770 types kept).
    let (c, d) = check_chain(
        "metadata/statemint-v16-spec2000003-small.scale",
        ferroscale_runtime_types::asset_hub::roundtrip_type,
    );
    assert!(c >= 1 && d >= 10, "{c} constants, {d} defaults");
}

#[test]
fn substrate_node_268_constants_and_defaults_roundtrip() {
    let (c, d) = check_chain(
        "metadata/substrate-node-v15-spec268.scale",
        ferroscale_runtime_types::substrate_node::roundtrip_type,
    );
    assert!(c >= 200 && d >= 300, "{c} constants, {d} defaults");
}

#[test]
fn unknown_type_ids_are_refused() {
    assert!(ferroscale_runtime_types::polkadot::roundtrip_type(u32::MAX, &[]).is_none());
}
