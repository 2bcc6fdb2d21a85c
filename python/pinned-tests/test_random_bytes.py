"""A few thousand random byte strings thrown at every type of a real
registry: each decode either returns a value or raises an ordinary
``Exception`` (never a crash, a hang, or a Rust ``PanicException``, which is a
``BaseException``)."""
import random
import time

from scalecodec.base import ScaleBytes, ScaleDecoder


def _walk_value_objects(obj, depth: int = 0) -> int:
    """Reads ``value_object`` of ``obj`` and of the objects in it, a few
    levels down; returns how many were read."""
    if depth > 6:
        return 0
    parts = obj.value_object
    items = parts.values() if isinstance(parts, dict) else parts if isinstance(parts, (list, tuple)) else [parts]
    return 1 + sum(_walk_value_objects(p, depth + 1) for p in items if isinstance(p, ScaleDecoder))


def _byte_strings(rng: random.Random, count: int):
    for index in range(count):
        length = rng.choice((0, 1, 2, 3, 4, 8, 16, 33, 64, 200))
        raw = bytes(rng.getrandbits(8) for _ in range(length))
        if index % 3 == 0 and raw:
            # a plausible small length prefix up front reaches deeper into containers
            raw = bytes([rng.randrange(0, 16) << 2]) + raw[1:]
        yield raw


def test_random_bytes_at_every_registry_type(polkadot_9180):
    config, metadata = polkadot_9180
    type_ids = [entry["id"] for entry in metadata.value[1]["V14"]["types"]["types"]]
    rng = random.Random(20261130)
    outcomes = {"ok": 0, "error": 0}
    walked = 0
    started = time.perf_counter()
    for type_id in type_ids:
        type_string = f"scale_info::{type_id}"
        for raw in _byte_strings(rng, 5):
            obj = config.create_scale_object(type_string, data=ScaleBytes(raw), metadata=metadata)
            try:
                obj.decode(check_remaining=False)
            except Exception:  # noqa: BLE001 - any ordinary exception is a clean refusal
                outcomes["error"] += 1
            else:
                outcomes["ok"] += 1
                # what decoded has its parts as objects too, without error
                walked += _walk_value_objects(obj)
    assert sum(outcomes.values()) == 5 * len(type_ids) >= 3000
    assert walked >= outcomes["ok"]
    assert outcomes["ok"] > 0 and outcomes["error"] > 0
    # no single pathological input may stall the loop (generous: ~1 ms per decode here)
    assert time.perf_counter() - started < 120


def test_random_bytes_at_preset_types():
    from conftest import fresh_config

    config = fresh_config("legacy", "kusama")
    names = sorted(config.type_registry["types"])
    rng = random.Random(7)
    tried = 0
    for name in names:
        for raw in _byte_strings(rng, 2):
            try:
                obj = config.create_scale_object(name, data=ScaleBytes(raw))
                obj.decode(check_remaining=False)
            except Exception:  # noqa: BLE001
                pass
            tried += 1
    assert tried >= 1000
