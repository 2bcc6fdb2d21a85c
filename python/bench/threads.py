"""Large decodes on 1 thread against 2 threads (a ThreadPoolExecutor), in one
run: the Rust type walk of a large value runs with the interpreter lock
released and the Python objects are made after it, so two threads overlap
their walks. Reports each case's wall time for N tasks on 1 and on 2
threads, and the speedup (1-thread time / 2-thread time; 2.0 is the most two
cores can give).

    python3 python/bench/threads.py [N]

Cases: MetadataVersioned decode + add_portable_registry (a fresh runtime
each task, as a client's init_runtime) of the Polkadot V14 (spec 1000001)
and V15 (spec 1001002) fixtures; the System.Events value of Polkadot block
18468942 (58 records, 23.7 KB) decoded as Vec<EventRecord>; batch_decode of
that value ×8 and of 2,000 account ids. Every task of a case uses one shared
configuration (the same registry object from both threads), except the
metadata loads. Fixtures come from $FERROSCALE_FIXTURES or ../shared/fixtures
beside the checkout.
"""
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

REPO = Path(__file__).resolve().parents[2]
FIX = Path(os.environ.get("FERROSCALE_FIXTURES") or REPO.parent / "shared" / "fixtures")


def config():
    rc = RuntimeConfigurationObject()
    rc.update_type_registry(load_type_registry_preset("core"))
    return rc


def load_runtime(blob):
    rc = config()
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(blob))
    md.decode()
    rc.add_portable_registry(md)
    return rc


def timed(task, n, threads):
    start = time.perf_counter()
    if threads == 1:
        for _ in range(n):
            task()
    else:
        with ThreadPoolExecutor(threads) as pool:
            for f in [pool.submit(task) for _ in range(n)]:
                f.result()
    return time.perf_counter() - start


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    v14 = (FIX / "metadata/polkadot-v14-spec1000001.scale").read_bytes()
    v15 = (FIX / "metadata/polkadot-v15-spec1001002.scale").read_bytes()
    events = bytes.fromhex((FIX / "payloads/polkadot-block-18468942/events.hex").read_text().strip()[2:])
    rc = load_runtime(v14)
    rc.ss58_format = 0
    accounts = [bytes([i % 256]) * 32 for i in range(2000)]
    cases = [
        ("metadata load V14 (Polkadot 1000001)", lambda: load_runtime(v14), max(2, n // 4)),
        ("metadata load V15 (Polkadot 1001002)", lambda: load_runtime(v15), max(2, n // 4)),
        ("Events decode, block 18468942 (58 records)",
         lambda: rc.create_scale_object("Vec<EventRecord>", ScaleBytes(events)).decode(), n * 16),
        ("batch_decode Events ×8", lambda: rc.batch_decode(["Vec<EventRecord>"] * 8, [events] * 8), n * 2),
        ("batch_decode AccountId ×2,000", lambda: rc.batch_decode(["AccountId"] * 2000, accounts), n * 4),
    ]
    print(f"{'case':46} {'tasks':>5} {'1 thread':>10} {'2 threads':>10} {'speedup':>8}")
    for name, task, count in cases:
        task()  # warm: classes, caches
        one = min(timed(task, count, 1) for _ in range(3))
        two = min(timed(task, count, 2) for _ in range(3))
        print(f"{name:46} {count:5} {one * 1e3:8.1f}ms {two * 1e3:8.1f}ms {one / two:7.2f}x")


if __name__ == "__main__":
    main()
