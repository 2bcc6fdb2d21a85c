"""Decode of Bittensor's `delegates_info` runtime-API result (360
`DelegateInfo`, ~946 KB) with whichever `scalecodec` the interpreter imports.

Neither side imports the subtensor portable registry JSON directly here (our
registry cannot take a bare portable registry yet, see python/README.md), so
the registry JSON is turned into a py-scale-codec type-registry preset
(`SI<N>` per type id) that both load with `update_type_registry`.

    .venv/bin/python python/bench/delegates_info.py
    .venv-ref/bin/python python/bench/delegates_info.py
"""
import json
import os
import time
from pathlib import Path

import sys

import scalecodec
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from portable_preset import preset_from_portable  # noqa: E402

FIX = Path(os.environ.get("FERROSCALE_FIXTURES") or REPO.parent / "shared" / "fixtures")


def main():
    print(f"scalecodec from {os.path.dirname(scalecodec.__file__)}")
    registry = json.loads((FIX / "payloads/subtensor/test_types.json").read_text())
    ids = [t["id"] for t in registry["types"] if (t["type"].get("path") or [""])[-1] == "DelegateInfo"]
    rc = RuntimeConfigurationObject(ss58_format=42)
    rc.update_type_registry(load_type_registry_preset("legacy"))
    rc.update_type_registry(preset_from_portable(registry["types"]))
    text = (FIX / "payloads/subtensor/delegates_info.hex").read_text().strip()
    data = bytes.fromhex(text[2:] if text.startswith("0x") else text)
    type_string = f"Vec<SI{ids[0]}>"
    times = []
    for _ in range(5):
        obj = rc.create_scale_object(type_string, ScaleBytes(data))
        t0 = time.perf_counter()
        value = obj.decode()
        times.append(time.perf_counter() - t0)
    print(f"delegates_info: {len(value)} DelegateInfo, {len(data)} bytes, best of 5: {min(times) * 1e3:.1f} ms")
    print(json.dumps(value[0])[:160])


if __name__ == "__main__":
    main()
