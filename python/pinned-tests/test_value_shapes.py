"""Value shapes where ferroscale once differed from py-scale-codec 1.2.12,
pinned on py-scale-codec itself (these run against it too): an empty byte
array, 256-bit signed integers of 128 bits or more, and scale classes
declared the py-scale-codec way, ``type("X", (Struct,), {"type_mapping": …})``."""
import pytest

from conftest import fresh_config
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.types import Enum, Struct, Tuple


def test_empty_arrays_are_empty_lists():
    config = fresh_config("legacy")
    for type_string in ("[u8; 0]", "[u32; 0]", "[AccountId; 0]"):
        obj = config.create_scale_object(type_string, ScaleBytes("0x"))
        assert obj.decode() == [] and obj.value_object == []
    for value in ([], "0x", b""):
        assert config.create_scale_object("[u8; 0]").encode(value).data == bytearray()
    # a non-empty byte array stays hex
    assert config.create_scale_object("[u8; 2]", ScaleBytes("0x0a0b")).decode() == "0x0a0b"
    # nested: a struct field of zero bytes
    config.update_type_registry_types({"PinnedEmptyField": {"type": "struct", "type_mapping": [
        ["nothing", "[u8; 0]"], ["n", "u8"]]}})
    assert config.create_scale_object("PinnedEmptyField", ScaleBytes("0x07")).decode() == {"nothing": [], "n": 7}


@pytest.mark.parametrize("value", [
    2 ** 127, 2 ** 128 - 1, 2 ** 128, 2 ** 200 + 12345, 2 ** 255 - 1,
    -(2 ** 127) - 1, -(2 ** 128), -(2 ** 255), -1, 0,
])
def test_i256_encodes_its_whole_range(value):
    config = fresh_config()
    encoded = config.create_scale_object("i256").encode(value)
    assert bytes(encoded.data) == value.to_bytes(32, "little", signed=True)
    assert config.create_scale_object("i256", ScaleBytes(bytes(encoded.data))).decode() == value


@pytest.mark.parametrize("value", [2 ** 255, 2 ** 256 - 1, -(2 ** 255) - 1])
def test_i256_refuses_values_out_of_range(value):
    config = fresh_config()
    with pytest.raises((ValueError, OverflowError)):  # py-scale-codec: OverflowError from int.to_bytes
        config.create_scale_object("i256").encode(value)


def test_u256_of_128_bits_or_more():
    config = fresh_config()
    for value in (2 ** 128, 2 ** 256 - 1):
        encoded = config.create_scale_object("u256").encode(value)
        assert bytes(encoded.data) == value.to_bytes(32, "little")
        assert config.create_scale_object("u256", ScaleBytes(bytes(encoded.data))).decode() == value


# Declared at import, before any configuration of the tests below exists.
PinnedPair = type("PinnedPair", (Struct,), {"type_mapping": [["a", "u8"], ["b", "Compact<u32>"]]})
PinnedChoice = type("PinnedChoice", (Enum,), {"type_mapping": [["Nothing", "Null"], ["Pair", "PinnedPair"]]})
PinnedColour = type("PinnedColour", (Enum,), {"value_list": ["Red", "Green", "Blue"]})
PinnedTriple = type("PinnedTriple", (Tuple,), {"type_mapping": ["u8", "u16", "bool"]})


@pytest.mark.parametrize("type_string, data, value", [
    ("PinnedPair", "0x0704", {"a": 7, "b": 1}),
    ("pinnedpair", "0x0704", {"a": 7, "b": 1}),
    ("Vec<PinnedPair>", "0x0807040908", [{"a": 7, "b": 1}, {"a": 9, "b": 2}]),
    ("Option<PinnedPair>", "0x010704", {"a": 7, "b": 1}),
    ("(PinnedPair, u8)", "0x070405", ({"a": 7, "b": 1}, 5)),
    ("PinnedChoice", "0x010704", {"Pair": {"a": 7, "b": 1}}),
    ("PinnedChoice", "0x00", "Nothing"),
    ("PinnedColour", "0x02", "Blue"),
    ("PinnedTriple", "0x07010001", (7, 1, True)),
])
def test_declared_classes_resolve_by_name(type_string, data, value):
    """py-scale-codec registers every scale class it knows, by lower-cased
    name, when a configuration is created: declared classes are type strings
    of their own, inside other types and presets' definitions too."""
    config = fresh_config("legacy")
    obj = config.create_scale_object(type_string, ScaleBytes(data))
    assert obj.decode() == value
    assert config.create_scale_object(type_string).encode(value).data == ScaleBytes(data).data
    config.update_type_registry_types({"PinnedOuter": f"Vec<{type_string}>"})
    assert config.create_scale_object("PinnedOuter", ScaleBytes("0x04" + data[2:])).decode() == [value]


def test_declared_class_is_the_class_of_its_name():
    config = RuntimeConfigurationObject()
    cls = config.get_decoder_class("PinnedPair")
    assert issubclass(cls, PinnedPair) and issubclass(cls, Struct)
    assert isinstance(config.create_scale_object("PinnedChoice"), Enum)


def test_declared_classes_instantiated_directly():
    config = fresh_config("legacy")
    for cls, data, value in [(PinnedPair, "0x0704", {"a": 7, "b": 1}),
                             (PinnedChoice, "0x010704", {"Pair": {"a": 7, "b": 1}}),
                             (PinnedColour, "0x01", "Green"),
                             (PinnedTriple, "0x07010001", (7, 1, True))]:
        assert cls(data=ScaleBytes(data), runtime_config=config).decode() == value
        assert cls(runtime_config=config).encode(value).data == ScaleBytes(data).data


def test_class_declared_after_the_configuration():
    """py-scale-codec knows a class by name only in configurations created
    after it; instantiated directly it decodes in any configuration."""
    config = fresh_config("legacy")
    late = type("PinnedLateEnum", (Enum,), {"type_mapping": [["A", "Null"], ["B", "u16"]]})
    with pytest.raises(NotImplementedError):
        config.create_scale_object("PinnedLateEnum", ScaleBytes("0x010100")).decode()
    assert late(data=ScaleBytes("0x010100"), runtime_config=config).decode() == {"B": 1}
    assert fresh_config("legacy").create_scale_object("PinnedLateEnum", ScaleBytes("0x00")).decode() == "A"


def test_later_definition_replaces_a_declared_class():
    config = fresh_config("legacy")
    config.update_type_registry_types({"PinnedPair": "u16"})
    assert config.create_scale_object("PinnedPair", ScaleBytes("0x0100")).decode() == 1
