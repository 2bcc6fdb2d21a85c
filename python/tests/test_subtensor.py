"""Bittensor runtime-API results (real data): decoded through a preset
derived from the subtensor portable registry, then re-encoded."""
import sys
from pathlib import Path

import pytest

from conftest import read_hex, read_json
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from portable_preset import preset_from_portable  # noqa: E402


@pytest.fixture(scope="module")
def subtensor():
    registry = read_json("payloads/subtensor/test_types.json")
    rc = RuntimeConfigurationObject(ss58_format=42)
    rc.update_type_registry(load_type_registry_preset("legacy"))
    rc.update_type_registry(preset_from_portable(registry["types"]))
    by_name = {}
    for t in registry["types"]:
        path = t["type"].get("path") or []
        if path:
            by_name.setdefault(path[-1], t["id"])
    return rc, by_name


def test_delegates_info(subtensor):
    rc, by_name = subtensor
    data = read_hex("payloads/subtensor/delegates_info.hex")
    ts = f"Vec<SI{by_name['DelegateInfo']}>"
    value = rc.create_scale_object(ts, ScaleBytes(data)).decode()
    assert len(value) == 360
    for d in value:
        assert d["delegate_ss58"].startswith("5") and d["owner_ss58"].startswith("5")
        assert 0 <= d["take"] <= 65535
    assert sum(len(d["nominators"]) for d in value) > 0
    assert rc.create_scale_object(ts).encode(value).data == data
    # batch_decode gives the same value
    assert rc.batch_decode([ts], [data]) == [value]


def test_delegated_info(subtensor):
    rc, by_name = subtensor
    data = read_hex("payloads/subtensor/delegated_info.hex")
    ts = f"Vec<(SI{by_name['DelegateInfo']}, Compact<u64>)>"
    value = rc.create_scale_object(ts, ScaleBytes(data)).decode()
    assert value and all(isinstance(stake, int) for _info, stake in value)
    assert rc.create_scale_object(ts).encode(value).data == data
