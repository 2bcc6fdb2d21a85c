"""A runtime's metadata is read and checked at ``decode()``; its Python value
is built on first read (python/src/objects/object/deferred.rs). A client's
``metadata.decode()`` statement pays only for the engine's reading, and every
read gives the value an eager decode gives."""
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
    assert not md._value_deferred


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
