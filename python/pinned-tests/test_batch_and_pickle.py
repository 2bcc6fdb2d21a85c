"""cyscale's additions: batch_decode and pickling of objects and configurations."""
import multiprocessing
import pickle

import pytest

from conftest import decode_metadata, fresh_config, read_json
from scalecodec.base import RuntimeConfiguration, ScaleBytes

ALICE = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"


def test_batch_decode_matches_one_by_one():
    config = fresh_config("legacy", ss58_format=42)
    type_strings = ["AccountId", "u32", "u128", "Vec<u32>", "(u8, bool)", "Option<u64>", "Compact<u32>"]
    payloads = [bytes.fromhex(ALICE[2:]), b"\x01\x02\x03\x04", bytes(range(16)), b"\x08\x01\0\0\0\x02\0\0\0",
                b"\x07\x01", b"\x01" + (5).to_bytes(8, "little"), b"\xfe\xff\xff\xff"]
    expected = [config.create_scale_object(t, ScaleBytes(b)).decode() for t, b in zip(type_strings, payloads)]
    assert config.batch_decode(type_strings, payloads) == expected
    assert expected[0] == "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
    # hex strings and bytearrays are accepted too
    assert config.batch_decode(["u32"], ["0x01020304"]) == [0x04030201]
    assert config.batch_decode(["u32"], [bytearray(b"\x01\0\0\0")]) == [1]
    assert config.batch_decode([], []) == []


def test_batch_decode_errors():
    config = fresh_config()
    with pytest.raises(ValueError):
        config.batch_decode(["u32", "u32"], [b"\0\0\0\0"])
    with pytest.raises((TypeError, ValueError)):  # a str is not a list of type strings
        config.batch_decode("u32", [b"\0\0\0\0"])
    with pytest.raises(NotImplementedError):
        config.batch_decode(["NoSuchType"], [b"\0"])
    with pytest.raises(Exception):
        config.batch_decode(["u32"], [b"\0"])


def test_batch_decode_real_storage(polkadot_9180):
    config, metadata = polkadot_9180
    entry = metadata.get_metadata_pallet("System").get_storage_function("Account")
    pairs = read_json("payloads/polkadot-block-10000000/storage_system_account.json")
    values = [bytes.fromhex(v[2:]) for _, v in pairs]
    type_string = entry.get_value_type_string()
    decoded = config.batch_decode([type_string] * len(values), values)
    assert decoded == [config.create_scale_object(type_string, ScaleBytes(v)).decode() for v in values]


def test_scale_objects_pickle():
    config = fresh_config("legacy")
    for type_string, data in [("u32", "0x01020304"), ("Vec<u32>", "0x080100000002000000"),
                              ("(u8, Compact<u32>)", "0x0104"), ("Option<Bytes>", "0x010c616263")]:
        obj = config.create_scale_object(type_string, ScaleBytes(data))
        obj.decode()
        clone = pickle.loads(pickle.dumps(obj))
        assert clone.value == obj.value
        assert clone.__class__.__name__ == obj.__class__.__name__
        assert bytes(clone.get_used_bytes()) == bytes(obj.get_used_bytes())
    stream = ScaleBytes("0x0102")
    stream.get_next_bytes(1)
    again = pickle.loads(pickle.dumps(stream))
    assert again == stream and again.offset == 1


def _decode_in_worker(args):
    config, type_string, data = args
    return config.create_scale_object(type_string, ScaleBytes(data)).decode()


def test_configuration_with_portable_registry_pickles_to_workers():
    config = fresh_config(ss58_format=0)
    metadata = decode_metadata(config, "polkadot-v14-spec9180.scale")
    entry = metadata.get_metadata_pallet("System").get_storage_function("Account")
    type_string = entry.get_value_type_string()
    _, value_hex = read_json("payloads/polkadot-block-10000000/storage_system_account.json")[0]
    expected = config.create_scale_object(type_string, ScaleBytes(value_hex)).decode()

    clone = pickle.loads(pickle.dumps(config))
    assert clone is not config
    assert clone.ss58_format == 0
    assert clone.create_scale_object(type_string, ScaleBytes(value_hex)).decode() == expected

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.map(_decode_in_worker, [(config, type_string, value_hex)]) == [expected]


def test_decoded_metadata_pickles():
    config = fresh_config()
    metadata = decode_metadata(config, "substrate-node-v14-spec267.scale")
    clone = pickle.loads(pickle.dumps(metadata))
    assert clone.value == metadata.value
    assert [p.name for p in clone.pallets] == [p.name for p in metadata.pallets]


def test_assigned_spec_version_pickles():
    config = fresh_config("polkadot")
    config.active_spec_version_id = 9180
    assert pickle.loads(pickle.dumps(config)).active_spec_version_id == 9180
    config.active_spec_version_id = None
    assert pickle.loads(pickle.dumps(config)).active_spec_version_id is None


def test_singleton_pickles():
    config = RuntimeConfiguration()
    config.update_type_registry({"types": {"PickledPair": "(u8, u16)"}})
    clone = pickle.loads(pickle.dumps(config))
    assert isinstance(clone, RuntimeConfiguration)
    assert clone.create_scale_object("PickledPair", ScaleBytes("0x010200")).decode() == (1, 2)
