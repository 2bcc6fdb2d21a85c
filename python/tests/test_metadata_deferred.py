"""A runtime's metadata is read and checked at ``decode()``; its Python value
is built on first read, and its parts one by one as each is read
(python/src/objects/object/deferred.rs). A client's ``metadata.decode()``
statement pays only for the engine's reading, a read of one pallet for that
pallet, and every read gives the value an eager decode gives."""
import pickle
import threading

import pytest

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

from conftest import metadata_names, read

V15 = "metadata/subtensor-v15-spec343.scale"
LEGACY = "metadata/kusama-v13-spec9030.scale"


def config():
    rc = RuntimeConfigurationObject(ss58_format=42)
    rc.update_type_registry(load_type_registry_preset("core"))
    return rc


def decoded_as_statement(rc, raw):
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(raw))
    md.decode()
    return md


def eager_value(rc, raw):
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(raw))
    value = md.decode()
    assert not md._value_deferred
    return value


@pytest.mark.parametrize("name", metadata_names())
def test_the_deferred_value_equals_the_eager_one(name):
    raw = read(name)
    rc = config()
    md = decoded_as_statement(rc, raw)
    assert md._value_deferred, "a decode whose result is thrown away builds no value"
    assert md.data_end_offset == len(raw)
    assert md.value == eager_value(rc, raw)
    assert not md._value_deferred
    assert md.value is md.value, "built once, then kept"


def test_a_result_that_is_used_is_the_value_itself():
    raw = read(V15)
    rc = config()
    expected = eager_value(rc, raw)

    def returned():
        return rc.create_scale_object("MetadataVersioned", data=ScaleBytes(raw)).decode()

    for got in (
        returned(),
        [rc.create_scale_object("MetadataVersioned", data=ScaleBytes(raw)).decode()][0],
        (lambda: rc.create_scale_object("MetadataVersioned", data=ScaleBytes(raw)).decode())(),
    ):
        assert type(got) is tuple and got == expected


def test_parts_and_the_registry_are_read_without_building_the_value():
    raw = read(V15)
    rc = config()
    md = decoded_as_statement(rc, raw)
    rc.add_portable_registry(md)
    extensions = md.get_signed_extensions()
    assert "CheckNonce" in extensions
    assert md._value_deferred, "add_portable_registry and the signed extensions need no Python value"
    assert rc.create_scale_object("scale_info::0") is not None  # the runtime's types are there
    assert md.get_metadata_pallet("System").name == "System"
    assert md[1][1]["extrinsic"]["version"].value in (4, 5)
    assert md._value_deferred, "a part read builds that part's value, not the metadata's"
    assert md.value == eager_value(rc, raw)
    assert not md._value_deferred


def walk_parts(obj, value, path, seen, limit):
    """Compares the value of each part under ``obj`` (a typed part, its
    ``value_object`` read first, so that parts are made before any value)
    with ``value``, the same place in the eagerly decoded value; returns how
    many parts were compared."""
    if seen[0] >= limit:
        return
    parts = obj.value_object
    seen[0] += 1
    assert obj.value == value, f"the value at {path} differs"
    if isinstance(parts, dict) and isinstance(value, dict):
        for key, part in parts.items():
            if hasattr(part, "value_object") and key in value:
                walk_parts(part, value[key], f"{path}.{key}", seen, limit)
    elif isinstance(parts, list) and isinstance(value, (list, tuple)):
        for i, part in enumerate(parts):
            if hasattr(part, "value_object"):
                walk_parts(part, value[i], f"{path}[{i}]", seen, limit)
    elif isinstance(parts, tuple) and len(parts) == 2 and isinstance(value, dict) and len(value) == 1:
        name, part = parts
        if hasattr(part, "value_object") and name in value:
            walk_parts(part, value[name], f"{path}.{name}", seen, limit)


@pytest.mark.parametrize("name", metadata_names())
def test_parts_read_before_the_value_hold_the_eager_values(name):
    raw = read(name)
    rc = config()
    eager = eager_value(rc, raw)
    md = decoded_as_statement(rc, raw)
    magic, versioned = md.value_object
    assert md._value_deferred, "the metadata's parts are made without its value"
    assert magic.value == eager[0]
    seen = [0]
    walk_parts(versioned, eager[1], "value[1]", seen, limit=4000)
    assert seen[0] > 50, "the walk reached the pallets"
    assert md._value_deferred
    assert md.value == eager, "the whole value, made after its parts, is the eager one"


def test_a_storage_function_is_read_without_decoding_the_registry():
    """A client's first read (a pallet, a storage function, its value type)
    decodes the metadata without its portable registry, four fifths of its
    bytes: the registry is decoded when a part inside it is first read."""
    raw = read(V15)
    rc = config()
    md = decoded_as_statement(rc, raw)
    rc.add_portable_registry(md)
    account = md.get_metadata_pallet("System").get_storage_function("Account")
    assert account.get_value_type_string().startswith("scale_info::")
    registry = md.portable_registry
    assert md._registry_deferred, "the registry's own part needs none of its insides"
    eager = eager_value(config(), raw)
    first = registry["types"][0]
    assert not md._registry_deferred
    assert first.value == eager[1]["V15"]["types"]["types"][0]
    assert account.value in [e for p in eager[1]["V15"]["pallets"] if p["storage"] for e in p["storage"]["entries"]]
    assert md.value == eager


@pytest.mark.parametrize("name", metadata_names())
def test_pallets_read_before_the_registry_hold_the_eager_values(name):
    raw = read(name)
    rc = config()
    eager = eager_value(rc, raw)
    (version, inner), = eager[1].items()
    modern = int(version[1:]) >= 14
    md = decoded_as_statement(rc, raw)
    assert md._registry_deferred, "nothing is decoded before a read"
    pallets = [p.value for p in md.pallets]
    assert pallets == inner["pallets" if modern else "modules"]
    assert md._registry_deferred == modern, "the pallets are read without the registry"
    if modern:
        assert md.portable_registry.value == inner["types"]
        assert not md._registry_deferred
    assert md.value == eager


def test_a_pallet_call_lookup_builds_no_metadata_value():
    raw = read(V15)
    rc = config()
    md = decoded_as_statement(rc, raw)
    rc.add_portable_registry(md)
    balances = md.get_metadata_pallet("Balances")
    names = [call.name for call in balances.calls]
    assert "transfer_keep_alive" in names
    assert md._value_deferred, "the registry entry of the calls is made alone"
    eager = eager_value(config(), raw)
    types = eager[1]["V15"]["types"]["types"]
    ty = balances.value["calls"]["ty"]
    expected = [v["name"] for v in types[ty]["type"]["def"]["variant"]["variants"]]
    assert names == expected


def test_parts_pickle_with_their_values():
    raw = read(V15)
    md = decoded_as_statement(config(), raw)
    system = md.get_metadata_pallet("System")
    again = pickle.loads(pickle.dumps(system))
    assert again.value == system.value and again.value["name"] == "System"


def test_the_legacy_versions_defer_too():
    raw = read(LEGACY)
    rc = config()
    rc.update_type_registry(load_type_registry_preset("legacy"))
    md = decoded_as_statement(rc, raw)
    assert md._value_deferred
    assert md.value_object[1].index == 13
    assert md.value == eager_value(rc, raw)


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],  # truncated
        lambda raw: raw + b"\x00",  # a trailing byte
        lambda raw: b"atem" + raw[4:],  # no magic
        lambda raw: raw[:4] + b"\x08" + raw[5:],  # V8
    ],
    ids=["truncated", "trailing byte", "no magic", "unsupported version"],
)
def test_malformed_metadata_fails_at_decode_not_at_first_read(damage):
    rc = config()
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(damage(read(V15))))
    with pytest.raises(Exception) as failed:
        md.decode()
    assert str(failed.value), "the error says what is wrong"


def test_a_deferred_metadata_pickles_with_its_value():
    raw = read(V15)
    rc = config()
    md = decoded_as_statement(rc, raw)
    again = pickle.loads(pickle.dumps(md))
    assert again.value == eager_value(rc, raw)


def test_threads_reading_one_deferred_value_get_the_same_object():
    raw = read(V15)
    md = decoded_as_statement(config(), raw)
    start = threading.Barrier(8)
    seen = []

    def read_value():
        start.wait()
        seen.append(md.value)

    threads = [threading.Thread(target=read_value) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(seen) == 8 and all(v is seen[0] for v in seen)


def test_values_made_part_by_part_are_the_objects_of_the_whole_value():
    """A part's value read before the whole value is the object inside it
    (and the other way round), as the parts of one value are: a client that
    walks the registry's types, then reads the metadata, holds each type once."""
    raw = read(V15)
    md = decoded_as_statement(config(), raw)
    types = md.portable_registry["types"]
    first = types[0].value
    system = md.get_metadata_pallet("System").value
    whole = md.value
    assert whole[1]["V15"]["types"]["types"][0] is first
    assert system in whole[1]["V15"]["pallets"]
    assert any(p is system for p in whole[1]["V15"]["pallets"])
    later = md.get_metadata_pallet("Balances").value
    assert any(p is later for p in whole[1]["V15"]["pallets"]), "a part read after the whole value is inside it"
