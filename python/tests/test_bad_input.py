"""Hostile input: wrong Python types, malformed hex, truncated bytes, unknown
type strings, huge length prefixes, garbage metadata, and random bytes
against every type of a real registry. Only exceptions py-scale-codec would
raise (or ValueError/TypeError) may come out; never a crash or a Rust panic."""
import random

import pytest

from conftest import config_with_metadata
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.exceptions import InvalidScaleTypeValueException, RemainingScaleBytesNotEmptyException
from scalecodec.type_registry import load_type_registry_preset

EXPECTED = (ValueError, TypeError, NotImplementedError, InvalidScaleTypeValueException,
            RemainingScaleBytesNotEmptyException)


@pytest.fixture(scope="module")
def legacy():
    rc = RuntimeConfigurationObject()
    rc.update_type_registry(load_type_registry_preset("legacy"))
    rc.update_type_registry(load_type_registry_preset("kusama"))
    return rc


def test_scalebytes_rejects_what_is_not_bytes_or_hex():
    for bad in (123, "test", "0xzz", None, 1.5, ["0x00"]):
        with pytest.raises(ValueError):
            ScaleBytes(bad)


def test_objects_reject_non_scalebytes_data(legacy):
    with pytest.raises(ValueError):
        legacy.create_scale_object("u8", data=b"\x01")
    obj = legacy.create_scale_object("u8")
    with pytest.raises(ValueError):
        obj.decode("0x01")
    with pytest.raises(ValueError, match="No data"):
        obj.decode()


def test_unknown_and_malformed_type_strings(legacy):
    for bad in ("NoSuchType", "Vec<", "Vec<u8", "(u8,", "[u8; x]", "<>", ""):
        with pytest.raises(NotImplementedError):
            legacy.create_scale_object(bad)
        assert legacy.get_decoder_class(bad) is None
    # like py-scale-codec, an unknown type inside a known generic is found
    # when the value is decoded
    obj = legacy.create_scale_object("Option<Option<NoSuchType>>", ScaleBytes("0x0101"))
    with pytest.raises(NotImplementedError):
        obj.decode()


def test_truncated_and_trailing_bytes(legacy):
    with pytest.raises(RemainingScaleBytesNotEmptyException) as e:
        legacy.create_scale_object("u32", ScaleBytes("0x0102")).decode()
    assert isinstance(e.value, ValueError) and "needed 4 bytes" in str(e.value)
    with pytest.raises(RemainingScaleBytesNotEmptyException):
        legacy.create_scale_object("u8", ScaleBytes("0x0102")).decode()
    assert legacy.create_scale_object("u8", ScaleBytes("0x0102")).decode(check_remaining=False) == 1


def test_hostile_length_prefixes_fail_fast(legacy):
    # 2^30 - 1 elements announced, 8 bytes present: refused before allocating
    for ts in ("Vec<u64>", "Bytes", "Vec<Vec<u8>>", "BTreeMap<u32, u32>", "Text"):
        with pytest.raises(EXPECTED):
            legacy.create_scale_object(ts, ScaleBytes("0xfeffffff" + "00" * 8)).decode()
    # a compact announcing 2^536 elements
    with pytest.raises(EXPECTED):
        legacy.create_scale_object("Vec<u8>", ScaleBytes("0xff" + "ff" * 67)).decode()


def test_deep_nesting_is_capped(legacy):
    ts = "Vec<" * 300 + "u8" + ">" * 300
    with pytest.raises(EXPECTED):
        legacy.create_scale_object(ts, ScaleBytes("0x04" * 300 + "00")).decode()
    value = []
    for _ in range(400):
        value = [value]
    with pytest.raises(EXPECTED):
        legacy.create_scale_object("Vec<Vec<u8>>").encode(value)


def test_encode_rejects_wrong_python_types(legacy):
    cases = [("u8", 256), ("u8", -1), ("u8", "x"), ("bool", 2), ("Vec<u8>", object()),
             ("(u8, u8)", (1,)), ("[u8; 2]", "0x010203"), ("AccountId", "0x1234"), ("Option<u8>", {"Some": 1, "x": 2})]
    for ts, value in cases:
        with pytest.raises(EXPECTED):
            legacy.create_scale_object(ts).encode(value)


def test_garbage_metadata():
    rc = RuntimeConfigurationObject()
    rc.update_type_registry(load_type_registry_preset("core"))
    rng = random.Random(7)
    for blob in [b"", b"meta", b"meta\x0e", b"meta\x0e" + bytes(rng.getrandbits(8) for _ in range(300)),
                 b"xxxx\x0e\x00", b"meta\x63\x00"]:
        obj = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(blob))
        with pytest.raises(EXPECTED):
            obj.decode()


def test_random_bytes_against_every_type_of_polkadot_9180():
    rc, md = config_with_metadata("metadata/polkadot-v14-spec9180.scale", ss58_format=0)
    rng = random.Random(20240601)
    count = md._require()["type_count"]
    tried = failed = 0
    for type_id in range(count):
        ts = f"scale_info::{type_id}"
        for _ in range(4):
            blob = bytes(rng.getrandbits(8) for _ in range(rng.choice((0, 1, 3, 8, 33, 80))))
            tried += 1
            try:
                rc.create_scale_object(ts, data=ScaleBytes(blob), metadata=md).decode(check_remaining=False)
            except EXPECTED:
                failed += 1
    assert tried >= 2000 and 0 < failed < tried


def test_no_rust_panic_type_ever_surfaces(legacy):
    # PanicException derives from BaseException; none may reach the caller
    for ts, data in [("Era", "0x0101"), ("Call", "0x0000"), ("Extrinsic", "0xffffffff"), ("EventRecord", "0x00")]:
        try:
            legacy.create_scale_object(ts, ScaleBytes(data)).decode()
        except EXPECTED:
            pass
