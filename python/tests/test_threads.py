"""Decoding from two threads at once gives what one thread gives (real
chain data). Large decodes run their Rust type walk with the interpreter lock
released, against a snapshot of the registry, so the threads really overlap;
these tests check results, not timing (python/bench/threads.py times it)."""
import threading
from concurrent.futures import ThreadPoolExecutor

from conftest import config_with_metadata, read, read_hex

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

EVENTS = "payloads/polkadot-block-18468942/events.hex"
METADATA = "metadata/polkadot-v14-spec1000001.scale"


def run_both(*tasks):
    """Runs each task on its own thread, started together; their results."""
    barrier = threading.Barrier(len(tasks))

    def start(task):
        barrier.wait()
        return task()

    with ThreadPoolExecutor(len(tasks)) as pool:
        return [f.result() for f in [pool.submit(start, t) for t in tasks]]


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
    barrier = threading.Barrier(len(tasks))

    def start(task):
        barrier.wait()
        return task()

    with ThreadPoolExecutor(len(tasks)) as pool:
        futures = [pool.submit(start, t) for t in tasks]
        results = [f.result(timeout=120) for f in futures]
    for task, result in zip(tasks, results):
        if task is decode_events:
            assert result == [one] * 40
        elif task is decode_batches:
            assert result == [batch_one] * 20
        elif task is encode:
            assert result == [encoded] * 100
        else:
            assert result == one
