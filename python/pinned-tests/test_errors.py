"""Bad input raises the exception classes py-scale-codec raises (or
ValueError/TypeError where it has none), quickly and with a message."""
import time

import pytest

from conftest import fresh_config
from scalecodec.base import ScaleBytes
from scalecodec.exceptions import InvalidScaleTypeValueException, RemainingScaleBytesNotEmptyException
from scalecodec.utils.ss58 import ss58_decode, ss58_encode


@pytest.fixture()
def config():
    return fresh_config("legacy")


@pytest.mark.parametrize("data", ["0xzz", "0x123", "not hex", 123, None, 1.5, ["0x00"]])
def test_malformed_scale_bytes(data):
    with pytest.raises(ValueError):
        ScaleBytes(data)


@pytest.mark.parametrize("type_string, value", [
    ("u32", "abc"), ("u32", -1), ("u32", 2 ** 32), ("u8", None), ("i16", -32769), ("bool", 2), ("bool", "yes"),
    ("Compact<u32>", "x"), pytest.param("Compact<u32>", -5, marks=pytest.mark.extension), ("H256", "0x1234"), ("H256", 5), ("[u8; 4]", "0x01"),
    ("Vec<u32>", 5), ("(u32, u64)", (1,)), ("Option<u32>", "abc"), ("Bytes", 5), ("f64", 1),
    ("AccountId", "not-an-address"), ("AccountId", 12), ("Era", "x"),
])
def test_wrong_python_values(config, type_string, value):
    with pytest.raises((ValueError, TypeError)):
        config.create_scale_object(type_string).encode(value)


@pytest.mark.parametrize("type_string, hex_data", [
    ("u32", "0x010203"), ("u128", "0x01"), ("H256", "0x00"), ("[u8; 4]", "0x010203"), ("Compact<u32>", "0x03"),
    ("Vec<u32>", "0x0c0100000002000000"), ("Bytes", "0x100102"), ("(u32, u64)", "0x01000000"),
    ("Option<u64>", "0x01"), ("AccountId", "0x" + "11" * 31),
    pytest.param("Era", "0x11", marks=pytest.mark.extension),  # py-scale-codec: ValueError
])
def test_truncated_bytes(config, type_string, hex_data):
    with pytest.raises(RemainingScaleBytesNotEmptyException):
        config.create_scale_object(type_string, data=ScaleBytes(hex_data)).decode()


def test_trailing_bytes_and_invalid_values(config):
    with pytest.raises(RemainingScaleBytesNotEmptyException):
        config.create_scale_object("u16", data=ScaleBytes("0x010203")).decode()
    with pytest.raises(InvalidScaleTypeValueException):
        config.create_scale_object("bool", data=ScaleBytes("0x02")).decode()
    with pytest.raises(InvalidScaleTypeValueException):
        config.create_scale_object("Compact<u32>", data=ScaleBytes("0x")).decode()
    with pytest.raises(ValueError):
        config.create_scale_object("Era", data=ScaleBytes("0x0101")).decode()
    with pytest.raises(ValueError):  # enum index beyond the variants
        config.create_scale_object("Phase", data=ScaleBytes("0x09")).decode()


@pytest.mark.parametrize("type_string", ["UnknownType123", "Foo<u32>", "[u8; x]", ""])
def test_unknown_type_strings(config, type_string):
    with pytest.raises(NotImplementedError):
        config.create_scale_object(type_string, data=ScaleBytes("0x00"))


def test_unknown_inner_type_fails_when_decoding(config):
    # like py-scale-codec, Vec<X> is created lazily; the unknown X surfaces on decode
    obj = config.create_scale_object("Vec<UnknownType123>", data=ScaleBytes("0x0400"))
    with pytest.raises(NotImplementedError):
        obj.decode()


@pytest.mark.extension  # py-scale-codec: AttributeError
def test_non_string_type_string(config):
    with pytest.raises(TypeError):
        config.create_scale_object(42)


@pytest.mark.parametrize("type_string", [
    "Vec<u32>", "Vec<u8>", "Bytes", "Vec<(u32, u64)>", "Vec<AccountId>", "BTreeMap<u32, u32>", "Str",
    # py-scale-codec loops over (or allocates for) the claimed length here
    pytest.param("BitVec", marks=pytest.mark.extension), pytest.param("Vec<Vec<u8>>", marks=pytest.mark.extension),
])
def test_hostile_length_prefixes(config, type_string):
    # compact 2**30 - 1 and 2**536-ish lengths with a handful of bytes behind them
    for prefix in ("0xfeffffff", "0x13ffffffffffffffff"):
        obj = config.create_scale_object(type_string, data=ScaleBytes(prefix + "00" * 8))
        started = time.perf_counter()
        with pytest.raises((RemainingScaleBytesNotEmptyException, ValueError)):
            obj.decode()
        assert time.perf_counter() - started < 1.0


@pytest.mark.extension  # py-scale-codec: AssertionError
def test_decode_requires_scale_bytes(config):
    # py-scale-codec asserts here; a TypeError or ValueError is the clean refusal
    obj = config.create_scale_object("u32")
    with pytest.raises((TypeError, ValueError)):
        obj.decode(b"\x01\x00\x00\x00")
    with pytest.raises((TypeError, ValueError)):
        config.create_scale_object("u32", data=b"\x01\x00\x00\x00")


@pytest.mark.extension  # py-scale-codec: AttributeError on None
def test_call_and_event_need_metadata(config):
    with pytest.raises(ValueError):
        config.create_scale_object("Call", data=ScaleBytes("0x0000")).decode()
    with pytest.raises(TypeError):
        config.create_scale_object("Call").encode("not a dict")


@pytest.mark.parametrize("address", ["", "0", "1" * 60, "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ",
                                     "OIl0", "\u00e9\u00e9\u00e9"])
def test_bad_ss58(address):
    with pytest.raises(ValueError):
        ss58_decode(address)


def test_bad_ss58_encode():
    with pytest.raises(ValueError):
        ss58_encode("0xzz")
    with pytest.raises(ValueError):
        ss58_encode("0x" + "00" * 31)
    with pytest.raises(ValueError):
        ss58_encode("0x" + "00" * 32, 16384)
