"""Block ranges of one JSON-lines file, as a distributed run's tasks read them
(``scalecodec.index.read_blocks(path, first, last)``, what ``JsonLinesSource``
calls): 2,000 copies of Polkadot block 18,468,942 (300 MB), 20 ranges of 100
blocks, against one whole-file read (what each task paid when every call
parsed the whole file).

    .venv/bin/python python/bench/line_index.py [FILE]   (default /tmp/lines-2000.jsonl, written if absent)
"""
import json
import os
import sys
import time
from pathlib import Path

from scalecodec.index import read_blocks

FIX = Path(os.environ.get("FERROSCALE_FIXTURES") or Path(__file__).resolve().parents[2].parent / "shared" / "fixtures")
BLOCK = FIX / "payloads/polkadot-block-18468942"
path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/lines-2000.jsonl"
if not os.path.exists(path):
    extrinsics = json.loads((BLOCK / "extrinsics.json").read_text())
    events = (BLOCK / "events.hex").read_text().strip()
    events = events if events.startswith("0x") else "0x" + events
    with open(path, "w") as f:
        for i in range(2000):
            f.write(json.dumps({"number": 18468942 + i, "hash": "0x" + "11" * 32, "spec_version": 1000001,
                                "extrinsics": extrinsics, "events": events}) + "\n")
print(f"{path}: {os.path.getsize(path) // 1_000_000} MB")
ranges = [(18468942 + i * 100, 18468942 + i * 100 + 99) for i in range(20)]
t0 = time.perf_counter()
whole = read_blocks(path)
whole_s = time.perf_counter() - t0
print(f"whole file, once: {whole_s:.3f} s ({len(whole)} blocks); 20 tasks each parsing it: ~{20 * whole_s:.1f} s")
t0 = time.perf_counter()
parts = [read_blocks(path, a, b) for a, b in ranges]
print(f"20 ranges through the line index, the first building it: {time.perf_counter() - t0:.3f} s")
t0 = time.perf_counter()
parts = [read_blocks(path, a, b) for a, b in ranges]
print(f"20 ranges again (index kept by the process): {time.perf_counter() - t0:.3f} s")
assert [b for p in parts for b in p] == whole
