"""Extrinsic format 5 on Polkadot 2003000's V16 metadata (formats 4 and 5):
a bare and a general transaction decode through ``Extrinsic`` objects with
their version, extension version and extensions, and re-encode byte for
byte; unknown formats are refused with a message naming them."""
import pytest

from conftest import config_with_metadata
from scalecodec.base import ScaleBytes


@pytest.fixture(scope="module")
def polkadot_2003000():
    return config_with_metadata("metadata/polkadot-v16-spec2003000.scale", ss58_format=0)


def _compact(n: int) -> bytes:
    assert n < 1 << 14
    return bytes([n << 2]) if n < 1 << 6 else ((n << 2) | 1).to_bytes(2, "little")


def _remark(rc, md, text: bytes) -> bytes:
    call = rc.create_scale_object("Call", metadata=md)
    encoded = call.encode({"call_module": "System", "call_function": "remark", "call_args": {"remark": "0x" + text.hex()}})
    return bytes(encoded.data)


def _decode(rc, md, raw: bytes):
    obj = rc.create_scale_object("Extrinsic", data=ScaleBytes(bytearray(raw)), metadata=md)
    obj.decode()
    again = rc.create_scale_object("Extrinsic", metadata=md).encode(obj.value)
    assert bytes(again.data) == raw, "re-encodes differently"
    return obj


def test_bare_format_5(polkadot_2003000):
    rc, md = polkadot_2003000
    body = b"\x05" + _remark(rc, md, b"bare")
    obj = _decode(rc, md, _compact(len(body)) + body)
    assert obj.version == 5
    assert obj.signed is False
    assert obj.value["call"]["call_function"] == "remark"
    assert "extension_version" not in obj.value


def test_general_format_5_with_its_extensions(polkadot_2003000):
    rc, md = polkadot_2003000
    # Extension version 0 of this runtime: CheckMortality (immortal: 0x00),
    # CheckNonce (Compact 5: 0x14), ChargeTransactionPayment (tip Compact 0),
    # CheckMetadataHash (mode Disabled: 0x00).
    body = b"\x45\x00" + b"\x00\x14\x00\x00" + _remark(rc, md, b"general")
    obj = _decode(rc, md, _compact(len(body)) + body)
    assert obj.version == 5
    assert obj.signed is False
    value = obj.value
    assert value["extension_version"] == 0
    assert value["nonce"] == 5
    assert value["tip"] == 0
    assert value["mode"] == {"mode": "Disabled"}  # CheckMetadataHash is a struct {mode}
    assert value["call"]["call_module"] == "System"
    assert obj.value_object["call"]["call_function"].name == "remark"


def test_format_4_keeps_py_scale_codec_shape(polkadot_2003000):
    rc, md = polkadot_2003000
    body = b"\x04" + _remark(rc, md, b"v4")
    obj = _decode(rc, md, _compact(len(body)) + body)
    assert obj.version == 4
    assert "version" not in obj.value


@pytest.mark.parametrize("first", [0x06, 0x85, 0x44])
def test_unknown_format_is_named(polkadot_2003000, first):
    rc, md = polkadot_2003000
    body = bytes([first]) + _remark(rc, md, b"x")
    obj = rc.create_scale_object("Extrinsic", data=ScaleBytes(bytearray(_compact(len(body)) + body)), metadata=md)
    with pytest.raises(Exception, match=f"unsupported extrinsic version {first & 0x3F}"):
        obj.decode()
