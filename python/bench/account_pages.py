"""Account-keyed query_map pages, accounts seen before against accounts never seen: the
`scalecodec` module of each interpreter given, side by side.

    python3 python/bench/account_pages.py PYTHON [PYTHON ...] [--pages N] [--rounds R]

A page is what async-substrate-interface's query_map hands to `batch_decode`: 100 keys of
type `([u8; 0], u16, [u8; 16], AccountId)` (`SubtensorModule.Uids`: an Identity netuid and a
Blake2_128Concat hotkey, as ASI builds the key type) and their 100 `u16` values, against
Bittensor's V15 metadata (spec 343). Two cases:

- *repeated*: the same page decoded again and again (what asi-bench times: a client that
  reads the same accounts every sync);
- *fresh*: N pages whose 100 accounts are all new (random ids, 100·N distinct), each decoded
  once: no account text can be reused.

Each interpreter runs in its own child process, the rounds alternate between them, and each
case keeps its best round. Prints µs per page and the ratio of the first interpreter to each
other (> 1: the other is faster). Fixtures come from $FERROSCALE_FIXTURES or ../shared/fixtures
beside the checkout.
"""
import sys
from pathlib import Path

from side_by_side import FIXTURES, best_rounds

METADATA = FIXTURES / "metadata" / "subtensor-v15-spec343.scale"

CHILD = r"""
import json, random, sys, time
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

raw = open(sys.argv[1], "rb").read()
pages = int(sys.argv[2])
rc = RuntimeConfigurationObject()
rc.update_type_registry(load_type_registry_preset("core"))
md = rc.create_scale_object("MetadataVersioned", ScaleBytes(raw))
md.decode()
rc.add_portable_registry(md)
rc.ss58_format = 42
item = md.get_metadata_pallet("SubtensorModule").get_storage_function("Uids")
value_type = item.get_value_type_string()
netuid_type, account_type = item.get_params_type_string()
key_type = f"([u8; 0], {netuid_type}, [u8; 16], {account_type})"
rng = random.Random(7)

def page():
    keys = [rng.randrange(1 << 16).to_bytes(2, "little") + rng.randbytes(16) + rng.randbytes(32)
            for _ in range(100)]
    values = [rng.randrange(1 << 16).to_bytes(2, "little") for _ in range(100)]
    return [key_type] * 100 + [value_type] * 100, keys + values

def best(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        n = fn()
        times.append((time.perf_counter() - t) / n * 1e6)
    return min(times)

same = page()
def repeated():
    for _ in range(pages):
        rc.batch_decode(*same)
    return pages

fresh_pages = [[page() for _ in range(pages)] for _ in range(3)]
rounds = iter(fresh_pages)
def fresh():
    batch = next(rounds)
    for ts, bl in batch:
        rc.batch_decode(ts, bl)
    return len(batch)

out = {"repeated": best(repeated), "fresh": best(fresh)}
check = rc.batch_decode(*same)
out["check"] = repr(check[:3] + check[-3:])
print(json.dumps(out))
"""


def main(argv):
    pythons, pages, rounds = [], 300, 2
    it = iter(argv)
    for arg in it:
        if arg == "--pages":
            pages = int(next(it))
        elif arg == "--rounds":
            rounds = int(next(it))
        else:
            pythons.append(arg)
    if not pythons:
        sys.exit(__doc__)
    if not METADATA.is_file():
        sys.exit(f"missing fixture {METADATA}")
    best = best_rounds(pythons, CHILD, [METADATA, pages], rounds)
    checks = {best[p]["check"] for p in pythons}
    first = pythons[0]
    print(f"{'case':<10} " + " ".join(f"{Path(p).parents[1].name:>16}" for p in pythons)
          + "   " + " ".join(f"{'first/' + Path(p).parents[1].name:>22}" for p in pythons[1:]))
    for case in ("repeated", "fresh"):
        row = " ".join(f"{best[p][case]:>13.1f} µs" for p in pythons)
        ratios = " ".join(f"{best[first][case] / best[p][case]:>21.2f}×" for p in pythons[1:])
        print(f"{case:<10} {row}   {ratios}")
    print("same values:", "yes" if len(checks) == 1 else "NO")


if __name__ == "__main__":
    main(sys.argv[1:])
