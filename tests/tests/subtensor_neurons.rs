//! The generated subtensor types against `neurons.hex` and `neurons_lite.hex`.
//!
//! `subtensor_rpc` is generated from `payloads/subtensor/test_types.json`
//! (September 2024). The two neuron files were recorded later (bt-decode,
//! January 2025), after subtensor added `total_stake`, `alpha_stake` and
//! `tao_stake` (`Compact<u64>` each) after `stake`; there is no generated
//! type for that layout (and no `SubnetInfo` at all, so `subnets_info.hex`
//! has no typed counterpart). The dynamic layer decodes all three with the
//! layouts described in `dynamic/tests/common/subtensor.rs`. This test pins
//! the mismatch down on the typed side: the generated neuron types refuse
//! the files, and the generated pieces they share with the newer layout
//! read every neuron, with the three stake fields, to the last byte.

use ferroscale_runtime_types::{decode_all, AccountId32};
use ferroscale_tests::subtensor_rpc::runtime_types::pallet_subtensor as st;
use parity_scale_codec::{Compact, Decode, Encode};

type NeuronInfo = st::rpc_info::neuron_info::NeuronInfo<AccountId32>;
type NeuronInfoLite = st::rpc_info::neuron_info::NeuronInfoLite<AccountId32>;

/// The fields both layouts share up to and including `stake`.
type Head = (
    AccountId32,
    AccountId32,
    Compact<u16>,
    Compact<u16>,
    bool,
    st::pallet::AxonInfo,
    st::pallet::PrometheusInfo,
    Vec<(AccountId32, Compact<u64>)>,
);

/// `rank` … `validator_permit` (seven compact u16/u64 fields, a compact
/// block number and a bool), as the generated types have them.
type Scores = (
    Compact<u16>,
    Compact<u64>,
    Compact<u16>,
    Compact<u16>,
    Compact<u16>,
    Compact<u16>,
    Compact<u16>,
    Compact<u64>,
    bool,
);

type Weights = Vec<(Compact<u16>, Compact<u16>)>;

#[test]
fn the_generated_neuron_types_refuse_the_newer_layout() {
    let neurons = ferroscale_fixtures::read_hex("payloads/subtensor/neurons.hex");
    let lite = ferroscale_fixtures::read_hex("payloads/subtensor/neurons_lite.hex");
    assert!(decode_all::<Vec<NeuronInfo>>(&neurons).is_err());
    assert!(decode_all::<Vec<NeuronInfoLite>>(&lite).is_err());
    // Not even the first neuron: its `rank` (Compact<u16>) would be the
    // 6-byte compact of `total_stake`.
    assert!(NeuronInfo::decode(&mut &neurons[1..]).is_err());
    assert!(NeuronInfoLite::decode(&mut &lite[1..]).is_err());
}

#[test]
fn generated_pieces_read_every_neuron_with_the_three_stake_fields() {
    for (file, full) in [
        ("payloads/subtensor/neurons.hex", true),
        ("payloads/subtensor/neurons_lite.hex", false),
    ] {
        let bytes = ferroscale_fixtures::read_hex(file);
        let input = &mut &bytes[..];
        let count = Compact::<u32>::decode(input).unwrap().0;
        let mut again = Compact(count).encode();
        for uid in 0..count {
            let head = Head::decode(input).unwrap_or_else(|e| panic!("{file} #{uid}: {e}"));
            assert_eq!(head.2 .0 as u32, uid, "{file}: uids count up");
            let split = <(Compact<u64>, Compact<u64>, Compact<u64>)>::decode(input).unwrap();
            let staked: u64 = head.7.iter().map(|(_, s)| s.0).sum();
            assert_eq!(split.0 .0, staked, "{file} #{uid}: total_stake");
            assert_eq!(
                split.1 .0 + split.2 .0,
                staked,
                "{file} #{uid}: alpha + tao"
            );
            let scores = Scores::decode(input).unwrap();
            let weights = if full {
                Some(<(Weights, Weights)>::decode(input).unwrap())
            } else {
                None
            };
            let pruning_score = Compact::<u16>::decode(input).unwrap();
            (head, split, scores).encode_to(&mut again);
            if let Some(w) = weights {
                w.encode_to(&mut again);
            }
            pruning_score.encode_to(&mut again);
        }
        assert!(input.is_empty(), "{file}: {} bytes left", input.len());
        assert_eq!(again, bytes, "{file} re-encodes differently");
    }
}
