"""Real extrinsics and storage values: Polkadot blocks 10,000,000 (V14,
spec 9180) and 5,000,000 (V12, spec 30, legacy presets)."""
import pytest

from conftest import config_with_metadata, read_json
from scalecodec.base import ScaleBytes


@pytest.fixture(scope="module")
def polkadot_9180():
    return config_with_metadata("metadata/polkadot-v14-spec9180.scale", ss58_format=0)


@pytest.fixture(scope="module")
def polkadot_30():
    return config_with_metadata("metadata/polkadot-v12-spec30.scale", presets=("legacy", "polkadot"), spec=30,
                                ss58_format=0)


def _roundtrip_extrinsics(rc, md, hexes):
    calls = []
    for h in hexes:
        obj = rc.create_scale_object("Extrinsic", data=ScaleBytes(h), metadata=md)
        value = obj.decode()
        assert obj.get_used_bytes().hex() == h[2:]
        again = rc.create_scale_object("Extrinsic", metadata=md).encode(value)
        assert str(again) == h, f"{value['call']['call_module']}.{value['call']['call_function']} re-encodes differently"
        calls.append((value["call"]["call_module"], value["call"]["call_function"]))
    return calls


def test_block_10000000_extrinsics_decode_and_roundtrip(polkadot_9180):
    rc, md = polkadot_9180
    hexes = read_json("payloads/polkadot-block-10000000/extrinsics.json")
    calls = _roundtrip_extrinsics(rc, md, hexes)
    assert calls[0] == ("Timestamp", "set")
    assert ("ParaInherent", "enter") in calls


def test_block_5000000_legacy_extrinsics_decode_and_roundtrip(polkadot_30):
    rc, md = polkadot_30
    hexes = read_json("payloads/polkadot-block-5000000/extrinsics.json")
    calls = _roundtrip_extrinsics(rc, md, hexes)
    assert calls[0] == ("Timestamp", "set")
    signed = [rc.create_scale_object("Extrinsic", data=ScaleBytes(h), metadata=md).decode() for h in hexes[1:]]
    # signers render as SS58 of format 0 (Polkadot) and transfers name a destination
    for value in signed:
        assert value["call"]["call_module"] == "Balances"
        assert value["signature"]


def test_system_account_storage_values(polkadot_9180):
    rc, md = polkadot_9180
    pairs = read_json("payloads/polkadot-block-10000000/storage_system_account.json")
    entry = md.get_metadata_pallet("System").get_storage_function("Account")
    type_string = entry.get_value_type_string()
    values = rc.batch_decode([type_string] * len(pairs), [v for _k, v in pairs])
    assert len(values) == len(pairs) > 0
    for (key, raw), value in zip(pairs, values):
        assert set(value) == {"nonce", "consumers", "providers", "sufficients", "data"}
        assert str(rc.create_scale_object(type_string).encode(value)) == raw
        # the key ends with blake2_128(account) ++ account; the account decodes as one
        account = rc.create_scale_object(entry.get_params_type_string()[0], data=ScaleBytes("0x" + key[-64:]))
        assert account.decode().startswith("1")  # Polkadot SS58 addresses start with 1


def test_staking_validators_storage_values(polkadot_30):
    rc, md = polkadot_30
    pairs = read_json("payloads/polkadot-block-5000000/storage_staking_validators.json")
    entry = md.get_metadata_pallet("Staking").get_storage_function("Validators")
    for _key, raw in pairs:
        obj = rc.create_scale_object(entry.get_value_type_string(), data=ScaleBytes(raw))
        value = obj.decode()
        assert set(value) == {"commission", "blocked"}
        assert 0 <= value["commission"] <= 1_000_000_000
