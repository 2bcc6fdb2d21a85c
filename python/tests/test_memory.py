"""What a client lets go of is freed: a runtime configuration, the metadata
loaded into it and the objects decoded with it, on real chain data.

A configuration and the objects made with it refer to each other (a
configuration's ``type_registry['types']`` view, an object's
``runtime_config``, the class cache), so they are freed by CPython's cycle
collector, which finds a cycle only when every object in it reports what it
holds. Each test drops everything it made, collects, and checks through weak
references that nothing is left."""
import gc
import weakref

from conftest import read, read_hex, read_json

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

METADATA = "metadata/polkadot-v14-spec1000001.scale"
EVENTS = "payloads/polkadot-block-18468942/events.hex"
OLD_METADATA = "metadata/polkadot-v14-spec9180.scale"
OLD_EXTRINSICS = "payloads/polkadot-block-10000000/extrinsics.json"


def load_runtime(name, spec):
    """A client's runtime load: presets, the metadata decoded, its portable
    registry added, the spec version set."""
    rc = RuntimeConfigurationObject(ss58_format=0)
    rc.update_type_registry(load_type_registry_preset("core"))
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(read(name)))
    md.decode()
    rc.add_portable_registry(md)
    rc.set_active_spec_version_id(spec)
    return rc, md


def assert_freed(refs):
    gc.collect()
    alive = [r() for r in refs if r() is not None]
    assert not alive, f"{len(alive)} of {len(refs)} objects outlived every reference: " + ", ".join(
        sorted({type(o).__name__ for o in alive}))


def test_a_configuration_alone_is_freed():
    refs = [weakref.ref(RuntimeConfigurationObject(ss58_format=42)) for _ in range(3)]
    assert_freed(refs)


def test_a_loaded_runtime_and_its_metadata_are_freed():
    rc, md = load_runtime(METADATA, 1000001)
    # the metadata's value and object tree, built when first read
    assert md.value[1]["V14"]["pallets"][0]["name"] == "System"
    assert md.get_metadata_pallet("Balances").name == "Balances"
    refs = [weakref.ref(rc), weakref.ref(md)]
    del rc, md
    assert_freed(refs)


def test_decoded_events_and_extrinsics_are_freed_with_their_runtime():
    rc, md = load_runtime(METADATA, 1000001)
    events = rc.create_scale_object("Vec<EventRecord>", ScaleBytes(read_hex(EVENTS)))
    assert len(events.decode()) == 58
    first = events.value_object[0]
    old_rc, old_md = load_runtime(OLD_METADATA, 9180)
    extrinsics = [old_rc.create_scale_object("Extrinsic", ScaleBytes(h), metadata=old_md)
                  for h in read_json(OLD_EXTRINSICS)]
    assert [x.decode()["call"]["call_function"] for x in extrinsics] == ["set", "enter"]
    refs = [weakref.ref(o) for o in (rc, md, events, first, old_rc, old_md, *extrinsics)]
    del rc, md, events, first, old_rc, old_md, extrinsics
    assert_freed(refs)


def test_many_runtime_loads_do_not_accumulate():
    """Twenty loads of the same runtime leave no configuration behind (each
    held about 3 MB when cycles through an object's attributes leaked)."""
    gc.collect()
    before = sum(isinstance(o, RuntimeConfigurationObject) for o in gc.get_objects())
    for _ in range(20):
        rc, md = load_runtime(METADATA, 1000001)
        del rc, md
    gc.collect()
    after = sum(isinstance(o, RuntimeConfigurationObject) for o in gc.get_objects())
    assert after <= before
