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

Then the decode rate of that events value (runtime spec 1000001, the
metadata polkadot-v14-spec1000001.scale) on 1, 2 and 4 threads: each thread
decodes its share of N × 64 values (one by one:
create_scale_object("Vec<EventRecord>", ...).decode(); in batches:
batch_decode of 8 per call), all threads started together on one shared
configuration; best of 5 rounds, each round timing
1, 2 and 4 threads in turn. Speed-up = the rate ÷ the 1-thread rate (at most
the number of cores).
"""
import os
import sys
import threading
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
    print()
    rates(rc, events, n * 64)


def rate(task, per_call, total, threads):
    """Values per second when `threads` threads, started together, each call
    `task` (`per_call` values a call) until they made `total` values between
    them; and the cores the process kept busy meanwhile (its CPU time ÷ the
    wall time: what shows whether the threads ran at once, on a machine
    whose other load moves the wall time)."""
    calls = total // per_call // threads
    barrier = threading.Barrier(threads + 1)

    def work():
        barrier.wait()
        for _ in range(calls):
            task()

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    barrier.wait()
    start, cpu = time.perf_counter(), time.process_time()
    for w in workers:
        w.join()
    wall = time.perf_counter() - start
    return calls * threads * per_call / wall, (time.process_time() - cpu) / wall


def rates(rc, events, total):
    """The decode rate of the events value on 1, 2 and 4 threads."""
    ts = "Vec<EventRecord>"
    one_by_one = lambda: rc.create_scale_object(ts, ScaleBytes(events)).decode()
    batch = lambda: rc.batch_decode([ts] * 8, [events] * 8)
    assert batch() == [one_by_one()] * 8
    print(f"Events of block 18468942 ({len(events):,} bytes), {total} decodes, {os.cpu_count()} cores: "
          f"decodes/s (speed-up over 1 thread; cores busy)")
    print(f"{'how':20} {'1 thread':>20} {'2 threads':>26} {'4 threads':>26}")
    for name, task, per_call in [("one by one", one_by_one, 1), ("batch_decode of 8", batch, 8)]:
        task()  # warm
        got = {1: (0.0, 0.0), 2: (0.0, 0.0), 4: (0.0, 0.0)}
        for _ in range(5):  # rounds alternate the thread counts: a busy spell hits all of them
            for t in got:
                got[t] = max(got[t], rate(task, per_call, total, t))
        cells = [f"{got[1][0]:8.0f} (1.00x; {got[1][1]:.2f})"]
        cells += [f"{got[t][0]:8.0f} ({got[t][0] / got[1][0]:.2f}x; {got[t][1]:.2f})" for t in (2, 4)]
        print(f"{name:20} " + "   ".join(cells))


if __name__ == "__main__":
    main()
