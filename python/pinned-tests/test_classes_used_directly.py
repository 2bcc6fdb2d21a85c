"""Scale classes used the py-scale-codec way, without a type string from a
registry: instantiated directly (``Bytes().encode(…)``), subclassed with a
``sub_type``, or defined with ``type(...)`` and then named in type strings
(``Vec<MyStruct>``), as clients and py-scale-codec's own docs do. Every test
here also runs on py-scale-codec 1.2.12 itself (pinned)."""
import pytest

from conftest import decode_metadata, fixture_path, fresh_config
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset
from scalecodec.types import (
    Bool, Bytes, Compact, Enum, FixedLengthArray, H256, HexBytes, I64, Option, Set, String, Struct, Tuple, U16, U32,
    Vec,
)


@pytest.mark.parametrize("cls, value, encoded", [
    (Bytes, "0x1234", "0x081234"),
    (Bytes, "abc", "0x0c616263"),
    (U32, 70000, "0x70110100"),
    (I64, -2, "0xfeffffffffffffff"),
    (Bool, True, "0x01"),
    (Compact, 1000, "0xa10f"),
    (H256, "0x" + "ab" * 32, "0x" + "ab" * 32),
    (HexBytes, "0x0102", "0x080102"),
    (String, "text", "0x1074657874"),
])
def test_a_class_instantiated_directly_encodes_and_decodes(cls, value, encoded):
    assert str(cls().encode(value)) == encoded
    obj = cls(ScaleBytes(encoded))
    decoded = obj.decode()
    # py-scale-codec decodes Bytes as text when the bytes are UTF-8 ("\x124" here)
    assert decoded == (value if cls is not Bytes or value == "abc" else "\x124")


def test_bytes_value_object_is_the_bytes_and_it_shows_as_hex():
    obj = Bytes(ScaleBytes("0x0c616263"))
    assert obj.decode() == "abc"
    assert obj.value_object == bytearray(b"abc")
    assert obj.serialize() == "0x616263" and str(obj) == "0x616263"


@pytest.mark.parametrize("bases, attrs, data, value", [
    ((Vec,), {"sub_type": "u16"}, "0x0801000200", [1, 2]),
    ((Option,), {"sub_type": "u32"}, "0x0107000000", 7),
    ((Compact,), {"sub_type": "u32"}, "0x1c", 7),
    ((FixedLengthArray,), {"sub_type": "u8", "element_count": 2}, "0x0102", "0x0102"),
    ((FixedLengthArray,), {"sub_type": "u16", "element_count": 2}, "0x01000200", [1, 2]),
    ((Struct,), {"type_mapping": [["a", "u8"], ["b", "Vec<bool>"]]}, "0x07080100", {"a": 7, "b": [True, False]}),
    ((Tuple,), {"type_mapping": ["u8", "bool"]}, "0x0701", (7, True)),
    ((Enum,), {"type_mapping": [["A", "u8"], ["B", "Null"]]}, "0x0009", {"A": 9}),
    ((Enum,), {"type_mapping": [["A", "u8"], ["B", "Null"]]}, "0x01", "B"),
    ((Enum,), {"value_list": ["x", "y", "z"]}, "0x02", "z"),
])
def test_a_class_built_with_type_decodes_and_encodes(bases, attrs, data, value):
    cls = type("Built", bases, dict(attrs))
    assert cls(ScaleBytes(data)).decode() == value
    assert str(cls().encode(value)) == data


def test_a_set_built_with_type_decodes():
    cls = type("BuiltSet", (Set,), {"value_list": {"a": 1, "b": 2, "c": 4}, "value_type": "u8"})
    assert cls(ScaleBytes("0x05")).decode() == ["a", "c"]


def test_classes_built_with_type_are_found_by_name_in_type_strings():
    type("PinnedPoint", (Struct,), {"type_mapping": [["x", "u8"], ["y", "bool"]]})
    type("PinnedShape", (Enum,), {"type_mapping": [["Dot", "PinnedPoint"], ["Empty", "Null"]]})
    config = RuntimeConfigurationObject()
    assert config.get_decoder_class("PinnedPoint") is not None
    for type_string, data, value in [
        ("PinnedPoint", "0x0501", {"x": 5, "y": True}),
        ("Vec<PinnedPoint>", "0x0805010600", [{"x": 5, "y": True}, {"x": 6, "y": False}]),
        ("PinnedShape", "0x000701", {"Dot": {"x": 7, "y": True}}),
        ("Option<PinnedShape>", "0x0101", "Empty"),
    ]:
        assert config.create_scale_object(type_string, ScaleBytes(data)).decode() == value
        assert str(config.create_scale_object(type_string).encode(value)) == data


def test_an_enum_object_s_index_is_its_discriminant_byte():
    """Real events of Polkadot block 18,468,942 (58 records): the phase's and
    the event's ``index`` are the variants' bytes, also where the outer event
    enum skips indices (pallet 53, ``ParaInclusion``, after pallet 32)."""
    config = fresh_config()
    metadata = decode_metadata(config, "polkadot-v14-spec1000001.scale")
    events = metadata.get_metadata_pallet("System").get_storage_function("Events")
    record_id = int(config.get_decoder_class(events.get_value_type_string()).sub_type.split("::")[1])
    types = metadata.portable_registry.value["types"]
    fields = {f["name"]: f"scale_info::{f['type']}" for f in types[record_id]["type"]["def"]["composite"]["fields"]}
    raw = fixture_path("payloads/polkadot-block-18468942/events.hex").read_text().strip()
    data = ScaleBytes(raw)
    count = config.create_scale_object("Compact<u32>", data)
    count.decode(check_remaining=False)
    indexes = []
    for _ in range(count.value):
        phase, event, topics = (config.create_scale_object(fields[n], data) for n in ("phase", "event", "topics"))
        for obj in (phase, event, topics):
            obj.decode(check_remaining=False)
        indexes.append((phase.index, event.index, event.value["module_id"]))
    assert data.offset == len(data.data) and len(indexes) == 58
    pallets = {p.name: p.value["index"] for p in metadata.pallets}
    # every event's index is its pallet's index in the metadata
    assert all(index == pallets[name] for _, index, name in indexes)
    assert {phase for phase, _, _ in indexes} == {0, 2}  # ApplyExtrinsic, Initialization
    assert 53 in {index for _, index, _ in indexes}


def test_a_preset_alias_has_its_type_s_class():
    """py-scale-codec keeps one class per type: a name a preset defines as
    another type string is that type's class (``get_decoder_class("Index")
    is get_decoder_class("u32")``), also read from ``type_registry['types']``;
    a class put there is the name's class from then on, inside other types
    too (py-substrate-interface's type-registry tests do both)."""
    config = fresh_config("legacy")
    index = config.get_decoder_class("Index")
    assert index is config.get_decoder_class("u32")  # the legacy preset's "Index": "u32"
    assert config.type_registry["types"]["index"] is index
    assert config.get_decoder_class("AccountId") is config.get_decoder_class("GenericAccountId")
    u64 = config.get_decoder_class("u64")
    config.type_registry["types"]["index"] = u64
    assert config.get_decoder_class("Index") is u64
    obj = config.create_scale_object("(Index, u8)", data=ScaleBytes("0x" + "05" + "00" * 7 + "07"))
    assert obj.decode() == (5, 7)


def test_a_type_keeps_its_class_when_the_registry_is_loaded_again():
    """py-substrate-interface's ``reload_type_registry`` clears the registry
    and loads the presets again; a class read before (``u32``) is the class
    after, also where a user had put another class under an alias, and it
    decodes with the registry loaded again."""
    config = fresh_config("legacy")
    u32, u64 = config.get_decoder_class("u32"), config.get_decoder_class("u64")
    config.type_registry["types"]["index"] = u64
    assert config.get_decoder_class("Index") is u64
    config.clear_type_registry()
    config.update_type_registry(load_type_registry_preset("core"))
    config.update_type_registry(load_type_registry_preset("legacy"))
    assert config.get_decoder_class("u32") is u32
    assert config.get_decoder_class("Index") is u32
    assert config.create_scale_object("Index", data=ScaleBytes("0x05000000")).decode() == 5


@pytest.mark.extension  # py-scale-codec 1.2.12: AttributeError ('str' object has no attribute 'runtime_config')
def test_a_definition_put_in_type_registry_types_is_the_name_s_meaning():
    """Beside a class, ``type_registry['types'][name]`` takes a definition
    as presets write it (a type string, a struct dict), used inside other
    types too; a definition the registry refuses is refused there, with
    the mirror left as it was (``NotImplementedError`` naming the entry, as
    from ``update_type_registry_types``)."""
    config = fresh_config()
    config.type_registry["types"]["myindex"] = "u64"
    config.type_registry["types"]["mystruct"] = {"type": "struct", "type_mapping": [["a", "u8"], ["b", "MyIndex"]]}
    obj = config.create_scale_object("MyStruct", data=ScaleBytes("0x07" + "05" + "00" * 7))
    assert obj.decode() == {"a": 7, "b": 5}
    with pytest.raises(NotImplementedError, match="types.broken.type_mapping"):
        config.type_registry["types"]["broken"] = {"type": "struct", "type_mapping": 5}
    assert "broken" not in config.type_registry["types"]


def test_an_undecoded_object_in_a_value_encodes_as_its_bytes():
    """An object made from bytes and never decoded, given inside a value to
    encode, encodes as those bytes (bittensor-cli's commit hash of weights
    fills a ``Vec`` with ``U16(ScaleBytes(...))`` objects that way); here
    pairs of bytes of block 18,468,942's ``System.Events``, and one such
    object as a whole value."""
    events = bytes.fromhex(fixture_path("payloads/polkadot-block-18468942/events.hex").read_text().strip()[2:])
    pairs = [events[i:i + 2] for i in range(0, 16, 2)]
    vec = Vec(data=None, sub_type="U16")
    vec.value = [U16(ScaleBytes(bytearray(p))) for p in pairs]
    assert vec.encode().data == bytearray([len(pairs) << 2]) + bytearray(b"".join(pairs))
    assert str(U16().encode(U16(ScaleBytes(bytearray(pairs[1]))))) == "0x" + pairs[1].hex()
