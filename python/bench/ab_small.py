"""Single small values (create_scale_object + decode / encode) under two builds of
`scalecodec`, side by side: a child process per build per round, 4 rounds alternating,
best of 7 x 20,000 calls per case; prints each build's best and old/new.

    python3 python/bench/ab_small.py OLD_VENV/bin/python NEW_VENV/bin/python
"""
import subprocess, sys, json
CHILD = r'''
import json, timeit
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset
rc = RuntimeConfigurationObject(ss58_format=42); rc.update_type_registry(load_type_registry_preset("legacy"))
cases = {
 "u8 decode": lambda: rc.create_scale_object("u8", ScaleBytes(b"\x01")).decode(),
 "u32 decode": lambda: rc.create_scale_object("u32", ScaleBytes(b"\x01\x00\x00\x00")).decode(),
 "u32 encode": lambda: rc.create_scale_object("u32").encode(7),
 "H256 encode": lambda: rc.create_scale_object("H256").encode("0x" + "ab"*32),
 "AccountId decode": lambda: rc.create_scale_object("AccountId", ScaleBytes(b"\x11"*32)).decode(),
 "(u32, u64, bool) decode": lambda: rc.create_scale_object("(u32, u64, bool)", ScaleBytes(b"\x01"*12 + b"\x01")).decode(),
}
out = {}
for k, f in cases.items():
    f()
    out[k] = min(timeit.repeat(f, number=20000, repeat=7)) / 20000 * 1e6
print(json.dumps(out))
'''
pys = sys.argv[1:3]
best = [{}, {}]
for r in range(4):
    for i, py in enumerate(pys):
        res = json.loads(subprocess.check_output([py, "-c", CHILD]))
        for k, v in res.items():
            best[i][k] = min(best[i].get(k, 1e9), v)
print(f"{'case':28} {'old µs':>8} {'new µs':>8} {'old/new':>8}")
for k in best[0]:
    print(f"{k:28} {best[0][k]:8.3f} {best[1][k]:8.3f} {best[0][k]/best[1][k]:8.2f}")
