"""The Rust object paths (``ScaleBytes``, ``create_scale_object``, ``decode``,
``encode``): the fast path for classes that decode as their graph node must
give what the general path gives, and must step aside whenever the class,
the configuration or the registry says otherwise."""
import pickle

import pytest

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.exceptions import RemainingScaleBytesNotEmptyException
from scalecodec.type_registry import load_type_registry_preset

ALICE = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"
ALICE_42 = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"


def config(ss58_format=None) -> RuntimeConfigurationObject:
    rc = RuntimeConfigurationObject(ss58_format=ss58_format)
    rc.update_type_registry(load_type_registry_preset("core"))
    rc.update_type_registry(load_type_registry_preset("legacy"))
    return rc


def test_scale_bytes_inputs_and_reads():
    buf = bytearray(b"\x01\x02\x03")
    assert ScaleBytes(buf).data is buf  # kept as is, like py-scale-codec
    assert ScaleBytes(b"\x01\x02\x03").data == buf
    assert ScaleBytes("0x010203") == ScaleBytes(buf)
    with pytest.raises(ValueError, match="not valid hex"):
        ScaleBytes("0x0z")
    with pytest.raises(ValueError, match="provided 'int'"):
        ScaleBytes(5)
    with pytest.raises(ValueError, match="provided 'str'"):
        ScaleBytes("010203")
    sb = ScaleBytes(buf)
    assert sb.get_next_bytes(2) == bytearray(b"\x01\x02")
    assert sb.get_remaining_length() == 1
    with pytest.raises(RemainingScaleBytesNotEmptyException):
        sb.get_next_bytes(2)
    assert sb.get_remaining_bytes() == bytearray(b"\x03") and sb.offset == 3
    assert str(sb + "0x04") == "0x01020304" and len(sb + b"\x04\x05") == 5
    assert repr(ScaleBytes(b"\xab")) == "<ScaleBytes(data=0xab)>"
    assert hash(ScaleBytes(b"\xab")) == hash(b"\xab")
    copy = pickle.loads(pickle.dumps(sb))
    assert (copy.data, copy.offset, copy.length) == (buf, 3, 3)


def test_fast_and_general_paths_agree():
    rc = config()
    data = bytes.fromhex("01020304" + "0102030405060708" + "01")
    for type_string in ("u32", "(u32, u64, bool)", "Vec<u8>", "H256", "Compact<u32>"):
        raw = {"u32": data[:4], "(u32, u64, bool)": data, "Vec<u8>": b"\x08\x01\x02",
               "H256": b"\xab" * 32, "Compact<u32>": b"\xfe\xff\xff\xff"}[type_string]
        fast = rc.create_scale_object(type_string, ScaleBytes(raw))
        general = rc.create_scale_object(type_string, ScaleBytes(raw), metadata=None)
        assert fast.decode() == general.decode() == fast.value
        assert (fast.data_start_offset, fast.data_end_offset) == (0, len(raw))
        assert fast.data.offset == len(raw)
        encoded = rc.create_scale_object(type_string).encode(fast.value)
        assert bytes(encoded.data) == raw


def test_structs_and_tuples_take_the_fast_path_unless_a_hook_is_overridden():
    rc = config()
    rc.update_type_registry_types({"Pair": {"type": "struct", "type_mapping": [["a", "u32"], ["b", "bool"]]}})
    raw = b"\x07\x00\x00\x00\x01"
    for type_string, value in (("Pair", {"a": 7, "b": True}), ("(u32, bool)", (7, True))):
        cls = rc.get_decoder_class(type_string)
        assert "_fast_node" in cls.__dict__, type_string  # decoded by Rust without a Python hook
        fast = rc.create_scale_object(type_string, ScaleBytes(raw))
        general = rc.create_scale_object(type_string, ScaleBytes(raw), metadata=None)
        assert fast.decode() == general.decode() == value
        assert bytes(rc.create_scale_object(type_string).encode(value).data) == raw
    seen = []

    class Checked(rc.get_decoder_class("Pair")):
        def _decode_value(self, data, offset, check_remaining):
            seen.append(offset)
            return super()._decode_value(data, offset, check_remaining)

    assert "_fast_node" not in Checked.__dict__
    rc._classes["Checked"] = Checked
    assert rc.create_scale_object("Checked", ScaleBytes(raw)).decode() == {"a": 7, "b": True} and seen == [0]


def test_registry_change_is_seen_by_new_objects():
    rc = config()
    rc.update_type_registry_types({"MyNumber": "u8"})
    assert rc.create_scale_object("MyNumber", ScaleBytes(b"\x05")).decode() == 5
    rc.update_type_registry_types({"MyNumber": "u16"})
    assert rc.create_scale_object("MyNumber", ScaleBytes(b"\x05\x01")).decode() == 0x105


def test_changed_configuration_is_used():
    hex_config, ss58_config = config(), config(ss58_format=42)
    obj = hex_config.create_scale_object("AccountId", ScaleBytes(ALICE))
    obj.runtime_config = ss58_config
    assert obj.decode() == ALICE_42


def test_python_hooks_of_a_subclass_run():
    rc = config()
    base = rc.get_decoder_class("u32")
    seen = []

    class Audited(base):
        def _after_decode(self):
            seen.append(self.value)

    rc._classes["Audited"] = Audited
    obj = rc.create_scale_object("Audited", ScaleBytes(b"\x07\x00\x00\x00"))
    assert obj.decode() == 7 and seen == [7]


def test_decode_with_new_data_and_remaining_bytes():
    rc = config()
    obj = rc.create_scale_object("u16", ScaleBytes(b"\x01\x00"))
    assert obj.decode() == 1
    assert obj.decode(ScaleBytes(b"\x02\x00")) == 2
    with pytest.raises(RemainingScaleBytesNotEmptyException):
        rc.create_scale_object("u16", ScaleBytes(b"\x01\x00\x00")).decode()
    assert rc.create_scale_object("u16", ScaleBytes(b"\x01\x00\x00")).decode(check_remaining=False) == 1
    with pytest.raises(ValueError, match="supported format"):
        obj.decode(b"\x01\x00")


def test_account_id_attributes():
    for fmt, value in ((None, ALICE), (42, ALICE_42)):
        obj = config(fmt).create_scale_object("AccountId", ScaleBytes(ALICE))
        assert obj.decode() == value
        assert obj.public_key == ALICE
        assert obj.ss58_address == (ALICE_42 if fmt else None)
        enc = config(fmt).create_scale_object("AccountId")
        enc.encode(ALICE_42)
        assert (enc.value, enc.public_key, enc.ss58_address) == (value, ALICE, ALICE_42 if fmt else None)
    assert config().create_scale_object("AccountId").public_key is None


def test_large_bytes_render_as_hex():
    raw = bytes(range(256)) * 400 + b"\xff"
    length = len(raw)
    prefix = bytes([(length << 2 | 2) & 0xff, (length >> 6) & 0xff, (length >> 14) & 0xff, length >> 22])
    value = config().create_scale_object("Bytes", ScaleBytes(bytearray(prefix + raw))).decode()
    assert value == "0x" + raw.hex()


def test_batch_decode_inputs():
    rc = config(ss58_format=42)
    account = bytes.fromhex(ALICE[2:])
    items = [account, bytearray(account), ScaleBytes(account), ALICE]
    assert rc.batch_decode(["AccountId"] * 4, items) == [ALICE_42] * 4
    assert rc.batch_decode(("u8", "u16"), (b"\x01", b"\x02\x00")) == [1, 2]
    with pytest.raises(ValueError):
        rc.batch_decode(["u8"], ["01"])
    with pytest.raises(TypeError):
        rc.batch_decode(["u8"], [1])
    with pytest.raises(TypeError):
        rc.batch_decode([1], [b"\x01"])
    with pytest.raises(ValueError):
        rc.batch_decode(["u8", "u8"], [b"\x01"])
