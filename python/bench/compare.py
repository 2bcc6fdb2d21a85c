"""Side-by-side timings of the `scalecodec` the running interpreter imports
(ours or py-scale-codec 1.2.12): run it under each and compare.

    .venv/bin/python python/bench/compare.py
    .venv-ref/bin/python python/bench/compare.py

Prints best-of-N wall times; fixtures come from $FERROSCALE_FIXTURES or
../shared/fixtures beside the checkout.
"""
import json
import os
import sys
import time
from pathlib import Path

import scalecodec
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

REPO = Path(__file__).resolve().parents[2]
FIX = Path(os.environ.get("FERROSCALE_FIXTURES") or REPO.parent / "shared" / "fixtures")


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def report(name, seconds, per=1):
    value = seconds / per
    unit, scale = ("µs", 1e6) if value < 1e-3 else ("ms", 1e3)
    print(f"{name:<48} {value * scale:10.2f} {unit}")


def main():
    print(f"scalecodec from {os.path.dirname(scalecodec.__file__)}")
    rc = RuntimeConfigurationObject(ss58_format=42)
    rc.update_type_registry(load_type_registry_preset("legacy"))

    n = 20000
    report("u32 decode (create + decode)", best(lambda: [rc.create_scale_object("u32", ScaleBytes(b"\x01\x02\x03\x04")).decode() for _ in range(n)], 3), n)

    vec_small = bytes([0x01, 0x10]) + b"\x01\x00\x00\x00" * 1024  # compact 1024
    report("Vec<u32> of 1,024", best(lambda: rc.create_scale_object("Vec<u32>", ScaleBytes(vec_small)).decode(), 20))
    vec_big = bytes([0x02, 0x00, 0x01, 0x00]) + b"\x07\x00\x00\x00" * 16384  # compact 16384
    report("Vec<u32> of 16,384", best(lambda: rc.create_scale_object("Vec<u32>", ScaleBytes(vec_big)).decode(), 5))

    def metadata_and_registry(name):
        def run():
            cfg = RuntimeConfigurationObject(implements_scale_info=True)
            cfg.update_type_registry(load_type_registry_preset("core"))
            md = cfg.create_scale_object("MetadataVersioned", data=ScaleBytes((FIX / name).read_bytes()))
            md.decode()
            cfg.add_portable_registry(md)
        return run
    report("bittensor metadata decode + add_portable_registry", best(metadata_and_registry("metadata/bittensor-v14-spec329.scale"), 3))
    report("polkadot 9180 metadata decode + add_portable_registry", best(metadata_and_registry("metadata/polkadot-v14-spec9180.scale"), 3))

    cfg = RuntimeConfigurationObject(implements_scale_info=True, ss58_format=0)
    cfg.update_type_registry(load_type_registry_preset("core"))
    md = cfg.create_scale_object("MetadataVersioned", data=ScaleBytes((FIX / "metadata/polkadot-v14-spec9180.scale").read_bytes()))
    md.decode()
    cfg.add_portable_registry(md)
    xs = json.loads((FIX / "payloads/polkadot-block-10000000/extrinsics.json").read_text())
    report("block 10,000,000 extrinsics (2, 30 KB)", best(lambda: [cfg.create_scale_object("Extrinsic", data=ScaleBytes(h), metadata=md).decode() for h in xs], 5))
    pairs = json.loads((FIX / "payloads/polkadot-block-10000000/storage_system_account.json").read_text())
    ts = md.get_metadata_pallet("System").get_storage_function("Account").get_value_type_string()
    report("System.Account values (100, one by one)", best(lambda: [cfg.create_scale_object(ts, data=ScaleBytes(v)).decode() for _k, v in pairs], 5))
    if hasattr(cfg, "batch_decode"):
        try:
            raw = [bytes.fromhex(v[2:]) for _k, v in pairs]
            report("System.Account values (100, batch_decode)", best(lambda: cfg.batch_decode([ts] * len(raw), raw), 5))
        except Exception as e:  # py-scale-codec has no batch_decode
            print(f"batch_decode: {type(e).__name__}")


if __name__ == "__main__":
    sys.exit(main())
