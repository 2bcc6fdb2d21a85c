"""Large values are built with Python's cyclic collector paused
(python/src/sink.rs, ``GcPause``): whatever happens, the collector is in
the state it was in before the call, and the values are whole."""
import gc

import pytest

from scalecodec import ScaleBytes

from conftest import config_with_metadata, read_hex

EVENTS = "payloads/polkadot-block-18468942/events.hex"


@pytest.fixture(scope="module")
def events():
    rc, md = config_with_metadata("metadata/polkadot-v14-spec1000001.scale", ss58_format=0)
    events_type = md.get_metadata_pallet("System").get_storage_function("Events").get_value_type_string()
    raw = read_hex(EVENTS)
    assert len(raw) >= 2048, "the events must be large enough for the pause"
    return rc, events_type, raw


def decodes(rc, events_type, raw):
    """The three ways a large value reaches Python: a scale object, batch_decode, a failing decode."""
    value = rc.create_scale_object(events_type).decode(ScaleBytes(raw))
    batch = rc.batch_decode([events_type], [raw])[0]
    with pytest.raises(Exception):
        rc.batch_decode([events_type], [raw[:-7]])
    return value, batch


def test_the_collector_runs_again_after_a_large_decode(events):
    assert gc.isenabled()
    value, batch = decodes(*events)
    assert gc.isenabled()
    assert value == batch and len(value) == 58
    assert value[0]["event_id"] and value[-1]["module_id"] == "System"


def test_a_paused_collector_stays_paused(events):
    gc.disable()
    try:
        decodes(*events)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.fixture
def default_gc_thresholds():
    """CPython's default collector thresholds, whatever ran before in this
    process (mypy, which test_package_layout runs in-process, raises them)."""
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


@pytest.mark.usefixtures("default_gc_thresholds")
def test_collections_still_happen_after_the_build(events):
    rc, events_type, raw = events
    gc.collect()
    before = gc.get_stats()[0]["collections"]
    values = [rc.batch_decode([events_type], [raw])[0] for _ in range(20)]
    assert gc.isenabled()
    # Containers made outside a decode. A free-threaded interpreter's
    # collector waits for allocations in proportion to the objects alive
    # (the loaded runtime's values among them), not a fixed 2,000: 110,000
    # start it on either build.
    garbage = [[{} for _ in range(10)] for _ in range(10_000)]
    assert gc.get_stats()[0]["collections"] > before
    assert len(values) == 20 and len(garbage) == 10_000
