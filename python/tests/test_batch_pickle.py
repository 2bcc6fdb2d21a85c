"""batch_decode and pickling (registries ship to worker processes)."""
import multiprocessing
import pickle

import pytest

from conftest import config_with_metadata, read_json
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset


def _legacy_config():
    rc = RuntimeConfigurationObject(ss58_format=2)
    rc.update_type_registry(load_type_registry_preset("legacy"))
    rc.update_type_registry(load_type_registry_preset("kusama"))
    rc.set_active_spec_version_id(1045)
    return rc


def test_batch_decode_equals_one_by_one():
    rc = _legacy_config()
    types = ["u32", "Compact<Balance>", "Vec<AccountId>", "(u8, bool)", "Option<u64>", "u32"]
    data = ["0x01000000", "0x130080cd103d71bc22", "0x04" + "65" * 32, "0x0501", "0x01" + "ff" * 8, b"\x02\0\0\0"]
    one_by_one = []
    for t, d in zip(types, data):
        sb = ScaleBytes(d) if isinstance(d, str) else ScaleBytes(d)
        one_by_one.append(rc.create_scale_object(t, data=sb).decode())
    assert rc.batch_decode(types, data) == one_by_one
    assert one_by_one[0] == 1 and one_by_one[5] == 2 and one_by_one[4] == 2 ** 64 - 1


def test_batch_decode_any_iterable_many_types_equal_text():
    """Past the per-batch type cache (16 strings), equal text in distinct str
    objects, tuples and generators as the lists, every input form."""
    rc = _legacy_config()
    widths = {"u8": 1, "u16": 2, "u32": 4, "u64": 8, "u128": 16}
    types, data = [], []
    for i in range(60):
        name = ["u8", "u16", "u32", "u64", "u128"][i % 5]
        # Distinct objects with equal text for half the items; 20 distinct
        # array types so the cache overflows.
        t = "".join([name]) if i % 2 else name
        if i % 3 == 0:
            t = f"[u8; {i % 20 + 1}]"
            raw = bytes(range(i % 20 + 1))
        else:
            raw = (i * 7919).to_bytes(16, "little")[: widths[name]]
        types.append(t)
        data.append([raw, bytearray(raw), "0x" + raw.hex(), ScaleBytes(raw)][i % 4])
    one_by_one = [
        rc.create_scale_object(t, data=ScaleBytes(d) if not isinstance(d, ScaleBytes) else d).decode()
        for t, d in zip(types, data)
    ]
    assert rc.batch_decode(tuple(types), (d for d in data)) == one_by_one
    assert rc.batch_decode(types, data) == one_by_one
    assert (one_by_one[1], one_by_one[3], one_by_one[4]) == (7919, "0x00010203", 4 * 7919)
    with pytest.raises(TypeError, match="type string must be a str"):
        rc.batch_decode(["u8", 5], [b"\x01", b"\x02"])
    with pytest.raises(TypeError, match="expected bytes"):
        rc.batch_decode(["u8"], [1.5])


def test_batch_decode_accounts_in_groups_equal_one_by_one():
    """Account ids are rendered as SS58 in groups of 64: over several groups,
    between other types, under one- and two-byte formats and with none."""
    for fmt in (2, 42, 7391, None):
        rc = _legacy_config()
        rc.ss58_format = fmt
        types, data = [], []
        for i in range(150):
            types.append("AccountId")
            data.append(bytes((i * 31 + j * 7) % 256 for j in range(32)))
            if i % 5 == 0:
                types.append("u16")
                data.append(i.to_bytes(2, "little"))
        one_by_one = [rc.create_scale_object(t, data=ScaleBytes(d)).decode() for t, d in zip(types, data)]
        assert rc.batch_decode(types, data) == one_by_one
        if fmt is not None:
            from scalecodec.utils.ss58 import ss58_decode
            assert ss58_decode(one_by_one[0], valid_ss58_format=fmt) == data[0].hex()
        # A short account among them fails the batch as it fails alone.
        with pytest.raises(Exception) as alone:
            rc.create_scale_object("AccountId", data=ScaleBytes(data[3][:31])).decode()
        with pytest.raises(alone.type):
            rc.batch_decode(types[:3] + ["AccountId"], data[:3] + [data[3][:31]])


def test_batch_decode_rejects_mismatched_lengths():
    rc = _legacy_config()
    with pytest.raises(ValueError, match="2 type strings but 1 byte strings"):
        rc.batch_decode(["u8", "u8"], ["0x01"])
    with pytest.raises(ValueError):
        rc._registry.batch_decode(["u8"], [])


def test_batch_decode_reports_errors_like_decode():
    rc = _legacy_config()
    from scalecodec.exceptions import RemainingScaleBytesNotEmptyException
    with pytest.raises(RemainingScaleBytesNotEmptyException):
        rc.batch_decode(["u8", "u8"], ["0x01", "0x0102"])
    with pytest.raises(NotImplementedError):
        rc.batch_decode(["NoSuchType123"], ["0x01"])
    # The first failing item decides the error, as decoding one by one would.
    with pytest.raises(RemainingScaleBytesNotEmptyException):
        rc.batch_decode(["u8", "NoSuchType123"], ["0x0102", "0x01"])
    with pytest.raises(NotImplementedError):
        rc.batch_decode(["NoSuchType123", "u8"], ["0x01", "0x0102"])


def test_registry_pickles_as_its_inputs():
    rc = _legacy_config()
    rc.update_type_registry_types({"MyPair": "(u8, u16)"})
    clone = pickle.loads(pickle.dumps(rc))
    assert clone is not rc
    assert clone.ss58_format == 2 and clone.active_spec_version_id == 1045
    for t, d in [("MyPair", "0x010200"), ("AccountId", "0x" + "11" * 32), ("Compact<Balance>", "0x18")]:
        assert clone.create_scale_object(t, ScaleBytes(d)).decode() == rc.create_scale_object(t, ScaleBytes(d)).decode()


def test_scale_object_pickles_with_its_value():
    rc = _legacy_config()
    obj = rc.create_scale_object("Vec<u32>", ScaleBytes("0x080100000002000000"))
    obj.decode()
    clone = pickle.loads(pickle.dumps(obj))
    assert clone.value == [1, 2] and clone.type_string == "Vec<u32>"


def _decode_in_worker(args):
    rc, hexes = args
    from scalecodec.base import ScaleBytes as SB
    md = rc.metadata
    return [rc.create_scale_object("Extrinsic", data=SB(h), metadata=md).decode()["call"]["call_function"]
            for h in hexes]


def test_registry_with_metadata_in_worker_processes():
    rc, md = config_with_metadata("metadata/polkadot-v14-spec9180.scale", ss58_format=0)
    hexes = read_json("payloads/polkadot-block-10000000/extrinsics.json")
    clone = pickle.loads(pickle.dumps(rc))
    # the clone rebuilt its registry from the metadata bytes: same values
    for h in hexes:
        a = rc.create_scale_object("Extrinsic", data=ScaleBytes(h), metadata=md).decode()
        b = clone.create_scale_object("Extrinsic", data=ScaleBytes(h)).decode()
        assert a == b
    ctx = multiprocessing.get_context("spawn")
    rc.metadata = md
    with ctx.Pool(2) as pool:
        results = pool.map(_decode_in_worker, [(rc, hexes[:1]), (rc, hexes[1:])])
    assert results == [["set"], ["enter"]]


def test_encoded_object_pickles_with_its_value():
    rc = _legacy_config()
    rc.ss58_format = 42
    obj = rc.create_scale_object("AccountId")
    obj.encode("5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY")
    clone = pickle.loads(pickle.dumps(obj))
    assert clone.value == "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
    assert clone.public_key == "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"


def test_runtime_configuration_is_one_object_per_id():
    from scalecodec.base import RuntimeConfiguration
    assert RuntimeConfiguration() is RuntimeConfiguration(config_id="default")
    assert RuntimeConfiguration(config_id="custom-a") is RuntimeConfiguration("custom-a")
    assert RuntimeConfiguration(config_id="custom-a") is not RuntimeConfiguration()
