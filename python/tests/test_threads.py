"""Decoding from two threads at once gives what one thread gives (real
chain data). Large decodes run their Rust type walk with the interpreter lock
released, against a snapshot of the registry, so the threads really overlap;
these tests check results, not timing (python/bench/threads.py times it)."""
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import config_with_metadata, read, read_hex, read_json

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

EVENTS = "payloads/polkadot-block-18468942/events.hex"
METADATA = "metadata/polkadot-v14-spec1000001.scale"
# a second Polkadot runtime, with extrinsics of one of its blocks
OLD_METADATA = "metadata/polkadot-v14-spec9180.scale"
OLD_EXTRINSICS = "payloads/polkadot-block-10000000/extrinsics.json"


def run_together(tasks, timeout=None):
    """Runs each task on its own thread, started together; their results,
    each awaited at most ``timeout`` seconds (a deadlock fails, not hangs)."""
    barrier = threading.Barrier(len(tasks))

    def start(task):
        barrier.wait()
        return task()

    with ThreadPoolExecutor(len(tasks)) as pool:
        return [f.result(timeout=timeout) for f in [pool.submit(start, t) for t in tasks]]


def run_both(*tasks):
    """Runs each task on its own thread, started together; their results."""
    return run_together(tasks)


def test_events_and_batches_from_two_threads_on_one_registry():
    rc, _md = config_with_metadata(METADATA)
    rc.ss58_format = 0
    events = read_hex(EVENTS)
    # one events value decodes with the lock held; a batch of three (71 KB,
    # over 64 KiB) with the lock released
    assert len(events) * 3 > 64 * 1024
    one = rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode()
    assert len(one) == 58
    accounts = [bytes([i]) * 32 for i in range(200)]
    batch_types = ["Vec<EventRecord>"] * 3 + ["AccountId"] * 200
    batch_items = [events] * 3 + accounts
    batch_one = rc.batch_decode(batch_types, batch_items)
    assert batch_one[:3] == [one] * 3 and batch_one[3].startswith("1")

    def events_task():
        return [rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode() for _ in range(20)]

    def batch_task():
        return [rc.batch_decode(batch_types, batch_items) for _ in range(10)]

    # the same registry object from both threads, both kinds of decode at once
    ev_a, ev_b = run_both(events_task, events_task)
    assert ev_a == ev_b == [one] * 20
    ev, batches = run_both(events_task, batch_task)
    assert ev == [one] * 20 and batches == [batch_one] * 10


def test_metadata_loads_from_two_threads():
    blob = read(METADATA)

    def load():
        rc = RuntimeConfigurationObject()
        rc.update_type_registry(load_type_registry_preset("core"))
        md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(blob))
        md.decode()
        rc.add_portable_registry(md)
        events = rc.create_scale_object("Vec<EventRecord>", ScaleBytes(read_hex(EVENTS))).decode()
        return md.value, events

    alone = load()
    a, b = run_both(load, load)
    assert a == alone and b == alone


def test_registry_changed_while_another_thread_decodes():
    """One thread decodes events while the other changes the same registry
    (SS58 format) and decodes with it: no error, and every value is one of
    the two renderings."""
    rc, _md = config_with_metadata(METADATA)
    events = read_hex(EVENTS)
    rendered = {}
    for fmt in (0, 42):
        rc.ss58_format = fmt
        rendered[fmt] = rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode()
    assert rendered[0] != rendered[42]

    def decoder():
        return [rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode() for _ in range(20)]

    def changer():
        for i in range(20):
            rc.ss58_format = (0, 42)[i % 2]
            rc.batch_decode(["Vec<EventRecord>"], [events])
        return True

    values, changed = run_both(decoder, changer)
    assert changed
    assert all(v in (rendered[0], rendered[42]) for v in values)


def test_sixteen_threads_share_one_configuration():
    """Sixteen threads on one RuntimeConfigurationObject and its loaded
    metadata, all at once: events decoded one by one and in batches, values
    encoded, and the runtime loaded again (``add_portable_registry``, as a
    client's ``init_runtime`` does on a runtime switch) while the others
    decode. Every value equals the single-threaded one; no thread errs or
    hangs (each must finish within two minutes)."""
    rc, md = config_with_metadata(METADATA)
    rc.ss58_format = 0
    events = read_hex(EVENTS)
    one = rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode()
    accounts = [bytes([i]) * 32 for i in range(100)]
    batch_types = ["Vec<EventRecord>"] * 2 + ["AccountId"] * 100
    batch_items = [events] * 2 + accounts
    batch_one = rc.batch_decode(batch_types, batch_items)
    amounts = [0, 1, 2**64, 2**128 - 1]
    encoded = [rc.create_scale_object("Compact<Balance>").encode(a).data for a in amounts]

    def decode_events():
        return [rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode() for _ in range(40)]

    def decode_batches():
        return [rc.batch_decode(batch_types, batch_items) for _ in range(20)]

    def encode():
        return [[rc.create_scale_object("Compact<Balance>").encode(a).data for a in amounts] for _ in range(100)]

    def switch_runtime():
        for _ in range(10):
            rc.add_portable_registry(md)
        return rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode()

    tasks = [decode_events] * 6 + [decode_batches] * 4 + [encode] * 4 + [switch_runtime] * 2
    results = run_together(tasks, timeout=120)
    for task, result in zip(tasks, results):
        if task is decode_events:
            assert result == [one] * 40
        elif task is decode_batches:
            assert result == [batch_one] * 20
        elif task is encode:
            assert result == [encoded] * 100
        else:
            assert result == one


def decoded_metadata(name):
    """A decoded ``MetadataVersioned`` object, as a client keeps one per runtime."""
    rc = RuntimeConfigurationObject()
    rc.update_type_registry(load_type_registry_preset("core"))
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(read(name)))
    md.decode()
    return md


def init_runtime(rc, md, spec):
    """What a client's ``init_runtime`` does to its configuration when it
    switches to another runtime (async-substrate-interface's
    ``Runtime.load_runtime``: presets reloaded, spec version, the metadata's
    portable registry, the weight type)."""
    rc.clear_type_registry()
    rc.update_type_registry(load_type_registry_preset("core"))
    rc.set_active_spec_version_id(spec)
    rc.add_portable_registry(md)
    try:
        rc.create_scale_object("sp_weights::weight_v2::Weight")
        rc.update_type_registry_types({"Weight": "sp_weights::weight_v2::Weight"})
    except NotImplementedError:
        rc.update_type_registry_types({"Weight": "WeightV1"})


def test_object_decodes_with_the_runtime_of_its_metadata_argument():
    """``create_scale_object(..., metadata=md)`` on a configuration that
    holds another runtime decodes with ``md``'s runtime, the first time as
    well: the object's class was made for the configuration's runtime, and
    its graph node (of that runtime) must not be used once ``md`` is loaded.
    An object made before a runtime switch and decoded after it decodes
    with the runtime loaded then, as a new object does."""
    md_new, md_old = decoded_metadata(METADATA), decoded_metadata(OLD_METADATA)
    events = read_hex(EVENTS)
    rc_new = RuntimeConfigurationObject(ss58_format=0)
    init_runtime(rc_new, md_new, 1000001)
    expected = rc_new.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode()
    assert len(expected) == 58

    rc = RuntimeConfigurationObject(ss58_format=0)
    init_runtime(rc, md_old, 9180)
    bound = rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events), metadata=md_new)
    assert bound.decode() == expected

    made_before = rc_new.create_scale_object("Vec<EventRecord>", ScaleBytes(events))
    init_runtime(rc_new, md_old, 9180)
    # these events do not decode with the older runtime (an event index it lacks)
    with pytest.raises(Exception) as fresh:
        rc_new.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode()
    with pytest.raises(type(fresh.value), match="not present in enum") as stale:
        made_before.decode()
    assert str(stale.value) == str(fresh.value)


def runtime_switch_fixture():
    """Two Polkadot runtimes (specs 9180 and 1000001), one decoded metadata
    object each, a configuration per runtime and a third one shared, with
    each value decoded alone on its own runtime's configuration."""
    md_new, md_old = decoded_metadata(METADATA), decoded_metadata(OLD_METADATA)
    events = read_hex(EVENTS)
    extrinsics = read_json(OLD_EXTRINSICS)
    rc_new, rc_old, shared = (RuntimeConfigurationObject(ss58_format=0) for _ in range(3))
    init_runtime(rc_new, md_new, 1000001)
    init_runtime(rc_old, md_old, 9180)
    init_runtime(shared, md_old, 9180)
    one = rc_new.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode()
    old_calls = [rc_old.create_scale_object("Extrinsic", ScaleBytes(h), metadata=md_old).decode()
                 for h in extrinsics]
    assert len(one) == 58 and [x["call"]["call_function"] for x in old_calls] == ["set", "enter"]
    return md_new, md_old, events, extrinsics, rc_new, rc_old, shared, one, old_calls


def switch_runtime(shared, md_new, md_old):
    """A client's ``init_runtime`` on ``shared``, between the two runtimes, 12 times."""
    for i in range(12):
        if i % 2:
            init_runtime(shared, md_old, 9180)
        else:
            init_runtime(shared, md_new, 1000001)
    return "switched"


def test_runtime_switches_while_other_threads_decode():
    """Sixteen threads, two Polkadot runtimes. Two threads switch one shared
    configuration between the runtimes, again and again, the way a client's
    ``init_runtime`` does. The others use a configuration per runtime (as
    async-substrate-interface keeps one per runtime): events decoded one by
    one and in batches, extrinsics decoded with ``metadata=``, values
    encoded, and metadata objects read for the first time by several
    threads at once. Every value equals the one decoded alone with the
    runtime of its block; no thread errs or hangs (each must finish within
    two minutes); the switched configuration decodes each runtime's values
    afterwards."""
    md_new, md_old, events, extrinsics, rc_new, rc_old, shared, one, old_calls = runtime_switch_fixture()
    batch_types = ["Vec<EventRecord>"] * 2 + ["AccountId"] * 50
    batch_items = [events] * 2 + [bytes([i]) * 32 for i in range(50)]
    batch_one = rc_new.batch_decode(batch_types, batch_items)
    amounts = [0, 1, 2**64, 2**128 - 1]
    encoded = [rc_new.create_scale_object("Compact<Balance>").encode(a).data for a in amounts]
    fresh = [decoded_metadata(METADATA), decoded_metadata(OLD_METADATA)]

    def read_metadata(md):
        return ([p.name for p in md.pallets],
                md.get_metadata_pallet("System").get_storage_function("Account").get_value_type_string())

    metadata_one = [read_metadata(md) for md in fresh]
    # the metadata objects the readers use have not been read yet: their
    # models are built on first use, by several threads at once
    readers = [decoded_metadata(METADATA), decoded_metadata(OLD_METADATA)]

    def switch():
        return switch_runtime(shared, md_new, md_old)

    def own_extrinsics():
        return [[rc_old.create_scale_object("Extrinsic", ScaleBytes(h), metadata=md_old).decode()
                 for h in extrinsics] for _ in range(15)]

    def own_events():
        return [rc_new.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode() for _ in range(15)]

    def own_batches():
        return [rc_new.batch_decode(batch_types, batch_items) for _ in range(8)]

    def own_encodes():
        return [[rc_new.create_scale_object("Compact<Balance>").encode(a).data for a in amounts]
                for _ in range(50)]

    def metadata_reads():
        return [read_metadata(md) for md in readers]

    expected = {
        switch: "switched",
        own_extrinsics: [old_calls] * 15,
        own_events: [one] * 15,
        own_batches: [batch_one] * 8,
        own_encodes: [encoded] * 50,
        metadata_reads: metadata_one,
    }
    tasks = ([switch] * 2 + [own_extrinsics] * 3 + [own_events] * 3
             + [own_batches] * 3 + [own_encodes] * 3 + [metadata_reads] * 2)
    assert len(tasks) == 16
    results = run_together(tasks, timeout=120)
    for task, result in zip(tasks, results):
        assert result == expected[task], task.__name__
    # the shared configuration still decodes each runtime's values
    assert shared.create_scale_object("Vec<EventRecord>", ScaleBytes(events), metadata=md_new).decode() == one
    assert [shared.create_scale_object("Extrinsic", ScaleBytes(h), metadata=md_old).decode()
            for h in extrinsics] == old_calls


def test_objects_bound_by_metadata_while_their_configuration_switches():
    """Threads decode and encode objects bound by ``metadata=`` on the very
    configuration two other threads switch between runtimes. Each value
    equals the one decoded alone with the runtime of its block, and each
    encoding the block's bytes: loading the object's metadata and decoding
    (or encoding) hold one lock of the registry, so a switch cannot come
    between them (before they did not, and about half
    the runs on a free-threaded build decoded some values with the runtime
    the switch left)."""
    md_new, md_old, events, extrinsics, _, _, shared, one, old_calls = runtime_switch_fixture()

    def switch():
        return switch_runtime(shared, md_new, md_old)

    def bound_events():
        return [shared.create_scale_object("Vec<EventRecord>", ScaleBytes(events), metadata=md_new).decode()
                for _ in range(15)]

    def bound_extrinsics():
        return [[shared.create_scale_object("Extrinsic", ScaleBytes(h), metadata=md_old).decode()
                 for h in extrinsics] for _ in range(15)]

    def bound_encodes():
        return [bytes(shared.create_scale_object("Vec<EventRecord>", metadata=md_new).encode(one).data)
                for _ in range(15)]

    expected = {switch: "switched", bound_events: [one] * 15, bound_extrinsics: [old_calls] * 15,
                bound_encodes: [bytes(events)] * 15}
    tasks = [switch] * 2 + [bound_events] * 2 + [bound_extrinsics] * 2 + [bound_encodes] * 2
    results = run_together(tasks, timeout=120)
    for task, result in zip(tasks, results):
        assert result == expected[task], task.__name__


def test_eight_threads_read_one_fresh_metadata_object():
    """Eight threads read one ``MetadataVersioned`` object just decoded, as a
    client's threads read the one metadata it keeps: its value, its object
    tree (built on first read, so the threads race to build it), a pallet,
    its calls, storage and events. Each thread sees what one thread alone
    sees."""

    def reads(md):
        system = md.get_metadata_pallet("System")
        return (
            md.value[1]["V14"]["pallets"][0]["name"],
            len(md.value_object[1][1]["pallets"]),
            system.name,
            [c.name for c in system.calls],
            [s.name for s in system.storage],
            [e.name for e in system.events],
            [(a.name, a.type) for c in md.get_metadata_pallet("Balances").calls for a in c.args],
        )

    alone = reads(decoded_metadata(METADATA))
    for _ in range(3):
        md = decoded_metadata(METADATA)
        assert run_together([lambda: reads(md)] * 8, timeout=120) == [alone] * 8
