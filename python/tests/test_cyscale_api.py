"""cyscale 0.8's additions as async-substrate-interface 2.2.1 uses them, and
the py-scale-codec 1.2.12 pieces it reaches, on real chain data:
``ScaleValue``, ``ScaleType[...]``, ``get_value_decoder``,
``MetadataVersioned.get_metadata()`` and ``Vec.elements``."""
import typing

import pytest

from conftest import config_with_metadata, read_hex, read_json
from scalecodec import ScaleValue
from scalecodec.base import ScaleBytes, ScaleDecoder, ScaleType
from scalecodec.exceptions import RemainingScaleBytesNotEmptyException


@pytest.fixture(scope="module")
def polkadot():
    return config_with_metadata("metadata/polkadot-v14-spec9180.scale", ss58_format=0)


def _system_accounts():
    return [bytes.fromhex(v[2:]) for _k, v in read_json("payloads/polkadot-block-10000000/storage_system_account.json")]


def test_scale_value_is_the_union_of_decoded_value_types(polkadot):
    import scalecodec
    from scalecodec.base import ScaleValue as from_base
    from scalecodec.constants import ScaleValue as from_constants, TYPE_DECOMP_MAX_RECURSIVE
    assert ScaleValue is from_base is from_constants is scalecodec.ScaleValue
    assert TYPE_DECOMP_MAX_RECURSIVE == 9  # py-scale-codec's constant
    members = set(typing.get_args(ScaleValue))
    assert members == {int, float, bool, str, type(None), dict, list, tuple}
    # every value of a real storage map is one of them, all the way down
    rc, md = polkadot
    ts = md.get_metadata_pallet("System").get_storage_function("Account").get_value_type_string()

    def check(v):
        assert type(v) in members, type(v)
        for child in (v.values() if isinstance(v, dict) else v if isinstance(v, (list, tuple)) else ()):
            check(child)
    for raw in _system_accounts():
        check(rc.create_scale_object(ts, ScaleBytes(raw)).decode())


def test_scale_classes_subscript_for_annotations():
    alias = ScaleType[ScaleValue]
    assert typing.get_origin(alias) is ScaleType and typing.get_args(alias) == (ScaleValue,)
    assert typing.get_origin(ScaleDecoder[int]) is ScaleDecoder
    from scalecodec.types import GenericMetadataVersioned, Vec
    assert typing.get_origin(Vec[typing.Any]) is Vec
    assert typing.get_origin(typing.Optional[GenericMetadataVersioned[typing.Any]]) is typing.Union

    # as async-substrate-interface annotates its functions (evaluated at definition)
    def decode(type_string: str, data: bytes) -> ScaleType[typing.Any]:
        return ScaleType  # pragma: no cover
    assert typing.get_type_hints(decode)["return"] == ScaleType[typing.Any]


def test_value_decoder_equals_decode_and_batch_decode(polkadot):
    rc, md = polkadot
    ts = md.get_metadata_pallet("System").get_storage_function("Account").get_value_type_string()
    assert ts.startswith("scale_info::")
    decoder = rc.get_value_decoder(ts)
    assert decoder is rc.get_value_decoder(ts)  # made once per type string
    assert decoder.type_string == ts
    raws = _system_accounts()
    values = [decoder(raw) for raw in raws]
    assert values == rc.batch_decode([ts] * len(raws), raws)
    assert values == [rc.create_scale_object(ts, ScaleBytes(raw)).decode() for raw in raws]
    assert {"nonce", "consumers", "providers", "data"} <= set(values[0])
    assert values[0]["data"]["free"] == 1751837099988
    # bytearray and memoryview read the same bytes
    assert decoder(bytearray(raws[0])) == decoder(memoryview(raws[0])) == values[0]
    # a decoder pickles with its registry (as clients cache it)
    import pickle
    clone = pickle.loads(pickle.dumps(decoder))
    assert clone.type_string == ts and [clone(raw) for raw in raws[:20]] == values[:20]


def test_value_decoder_decode_at_and_leftover_bytes(polkadot):
    rc, md = polkadot
    ts = md.get_metadata_pallet("System").get_storage_function("Account").get_value_type_string()
    decoder = rc.get_value_decoder(ts)
    raws = _system_accounts()[:5]
    joined, offset, values = b"".join(raws), 0, []
    while offset < len(joined):
        value, offset = decoder.decode_at(joined, offset)
        values.append(value)
    assert values == [decoder(r) for r in raws] and offset == len(joined)
    with pytest.raises(RemainingScaleBytesNotEmptyException):
        decoder(raws[0] + b"\x00")
    with pytest.raises(TypeError, match="bytes, bytearray or memoryview"):
        decoder("0x00")


def test_value_decoder_of_unknown_type_is_none(polkadot):
    rc, _md = polkadot
    assert rc.get_value_decoder("NoSuchType123") is None
    assert rc.get_value_decoder("Vec<u8") is None
    assert rc.get_value_decoder("scale_info::999999") is None


def test_value_decoder_follows_registry_changes():
    from scalecodec.base import RuntimeConfigurationObject
    rc = RuntimeConfigurationObject()
    rc.update_type_registry_types({"MyNum": "u8"})
    decoder = rc.get_value_decoder("MyNum")
    assert decoder(b"\x07") == 7
    rc.update_type_registry_types({"MyNum": "u16"})
    assert decoder(b"\x07\x01") == 0x107


def test_value_decoder_on_subtensor_runtime_api_result():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from portable_preset import preset_from_portable
    from scalecodec.base import RuntimeConfigurationObject
    from scalecodec.type_registry import load_type_registry_preset
    registry = read_json("payloads/subtensor/test_types.json")
    rc = RuntimeConfigurationObject(ss58_format=42)
    rc.update_type_registry(load_type_registry_preset("legacy"))
    rc.update_type_registry(preset_from_portable(registry["types"]))
    delegate = next(t["id"] for t in registry["types"] if (t["type"].get("path") or [""])[-1] == "DelegateInfo")
    data = read_hex("payloads/subtensor/delegates_info.hex")
    ts = f"Vec<SI{delegate}>"
    value = rc.get_value_decoder(ts)(data)
    assert len(value) == 360 and value == rc.create_scale_object(ts, ScaleBytes(data)).decode()


@pytest.mark.parametrize("name,version", [
    ("metadata/polkadot-v14-spec9180.scale", 14),
    ("metadata/subtensor-v15-spec343.scale", 15),
    ("metadata/statemint-v16-spec2000003-small.scale", 16),
    ("metadata/kusama-v13-spec9030.scale", 13),
])
def test_get_metadata_is_the_version_enum(name, version):
    """py-scale-codec 1.2.12: ``get_metadata()`` is ``value_object[1]``, the
    version enum (``index`` the version) whose ``value_object`` is
    ``("V<n>", <metadata struct object>)``; async-substrate-interface reads
    ``get_metadata().value_object[1].value["apis"]``."""
    _rc, md = config_with_metadata(name, presets=("legacy", "kusama") if version < 14 else ("core",))
    enum = md.get_metadata()
    assert enum is md.value_object[1]
    assert enum.index == version and enum.value == md.value[1]
    variant, struct = enum.value_object
    assert variant == f"V{version}"
    assert struct.value == md.value[1][variant]
    assert struct.value_object["pallets" if version >= 14 else "modules"][0].name == md.pallets[0].name
    assert enum[1] is struct and struct["extrinsic"].value == struct.value["extrinsic"]
    if version >= 14:
        assert struct["types"].value == md.portable_registry.value
    if version == 15:
        apis = {a["name"]: {m["name"] for m in a["methods"]} for a in struct.value["apis"]}
        assert "Metadata_metadata_at_version" not in apis  # names are split: api, then method
        assert "metadata_at_version" in apis["Metadata"]
        assert "get_delegates" in apis["DelegateInfoRuntimeApi"]


def test_vec_elements_are_the_decoded_element_objects(polkadot):
    rc, _md = polkadot
    obj = rc.create_scale_object("Vec<AccountId>")
    assert obj.elements == []
    accounts = [bytes.fromhex(k[2:])[-32:] for k, _v in read_json(
        "payloads/polkadot-block-10000000/storage_system_account.json")[:3]]
    obj = rc.create_scale_object("Vec<AccountId>", ScaleBytes(b"\x0c" + b"".join(accounts)))
    obj.decode()
    assert [e.value for e in obj.elements] == obj.value and len(obj.elements) == 3
    assert obj.elements[1].value.startswith("1")  # SS58, format 0


def test_fixed_point_readers_on_subtensor_fixed_types():
    """cyscale's ``scalecodec.utils.math`` readers, which Bittensor imports
    at module level: a ``substrate_fixed`` value of subtensor's registry, as
    the module decodes it (``{'bits': n}``), read back as float and Decimal;
    the raw integer and the decimal (mantissa/exponent) shape too."""
    from decimal import Decimal
    from scalecodec.utils.math import FixedPoint, FixedPointV2, fixed_to_decimal, fixed_to_float
    rc, md = config_with_metadata("metadata/subtensor-v15-spec343.scale", ss58_format=42)
    fixed = {"::".join(t.value["type"].get("path") or []): t.value["id"] for t in md.portable_registry["types"]}
    u64f64 = f"scale_info::{fixed['substrate_fixed::FixedU128']}"
    data = rc.create_scale_object(u64f64).encode({"bits": (7 << 64) + (1 << 62)})
    value: FixedPoint = rc.create_scale_object(u64f64, data).decode()
    assert value == {"bits": (7 << 64) + (1 << 62)}
    assert fixed_to_float(value) == 7.25 and fixed_to_decimal(value) == Decimal("7.25")
    assert fixed_to_float(value["bits"]) == 7.25
    # U32F32 by its fraction width; a third is rounded by the context, not exactly
    assert fixed_to_float((5 << 32) + (1 << 31), frac_bits=32) == 5.5
    assert fixed_to_decimal((1 << 64) // 3) == Decimal(6148914691236517205) / Decimal(1 << 64)
    v2: FixedPointV2 = {"mantissa": 12345, "exponent": -3}
    assert fixed_to_decimal(v2) == Decimal("12.345") and fixed_to_float(v2) == 12.345


def test_get_next_u8_reads_a_real_extrinsic_byte_by_byte():
    """cyscale's ``ScaleBytes.get_next_u8``: the bytes of block 18,468,942's
    first extrinsic one at a time (its compact length, then its version
    byte), and past the end the error ``get_next_bytes`` raises (cyscale
    0.8 returns 0 there)."""
    first = read_json("payloads/polkadot-block-18468942/extrinsics.json")[0]
    data = ScaleBytes(first)
    raw = bytes.fromhex(first[2:])
    assert [data.get_next_u8() for _ in range(3)] == list(raw[:3]) and data.offset == 3
    data.get_next_bytes(len(raw) - 3)
    with pytest.raises(RemainingScaleBytesNotEmptyException):
        data.get_next_u8()
    assert data.offset == len(raw)
