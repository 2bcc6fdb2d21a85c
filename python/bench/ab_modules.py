"""Two (or more) builds of `scalecodec` timed side by side, in alternating
rounds, on the seed-bench cases that move most with the machine's load
(large `Bytes`, `batch_decode`, `MetadataVersioned`). For telling a real
regression from drift: run the old and the new module in one command.

    python3 python/bench/ab_modules.py OLD_VENV/bin/python NEW_VENV/bin/python [ROUNDS]

Each round runs every interpreter once (a child process per run, best of 7
repeats per case); the table gives each case's best over the rounds and the
ratio of every interpreter to the first. Fixtures come from
$FERROSCALE_FIXTURES or ../shared/fixtures beside the checkout.

AB_CLOCK=cpu times with the process's CPU time instead of the wall clock:
on a machine loaded far beyond its cores (other builds running), waiting
for a core then does not count, which keeps the ratios readable.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIX = Path(os.environ.get("FERROSCALE_FIXTURES") or REPO.parent / "shared" / "fixtures")

CHILD = r"""
import json, os, sys, time, timeit
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

# seed-bench's set-up (cyscale's bench.py): core + legacy, Kusama 1045, SS58 42
rc = RuntimeConfigurationObject()
for preset in ("core", "legacy"):
    rc.update_type_registry(load_type_registry_preset(preset))
rc.set_active_spec_version_id(1045)
rc.ss58_format = 42
hexes = json.load(open(sys.argv[1]))
result = {}

clock = time.process_time if os.environ.get("AB_CLOCK") == "cpu" else time.perf_counter

def case(name, fn, number):
    result[name] = min(timeit.repeat(fn, number=number, repeat=7, timer=clock)) / number * 1e6

def compact(n):
    if n < 1 << 30:
        return ((n << 2) | 2).to_bytes(4, "little")
    raise ValueError(n)

for kb in (1, 64, 512):
    data = bytearray(compact(kb * 1024) + bytes(range(256)) * (kb * 4))
    case(f"Bytes decode ({kb} KB)",
         lambda d=data: rc.create_scale_object("Bytes", ScaleBytes(d)).decode(),
         200 if kb > 64 else 2000)
account, u32, u128 = bytes([1] * 32), bytes([1, 2, 3, 4]), bytes(range(16))
mixed_types = ["AccountId", "u32", "u128"] * 33 + ["AccountId"]
mixed_bytes = [account, u32, u128] * 33 + [account]
case("batch_decode mixed ×100", lambda: rc.batch_decode(mixed_types, mixed_bytes), 500)
case("batch_decode AccountId ×1,000", lambda: rc.batch_decode(["AccountId"] * 1000, [account] * 1000), 50)
for version in ("V10", "V13"):
    blob = bytearray.fromhex(hexes[version][2:])
    case(f"MetadataVersioned decode ({version})",
         lambda b=blob: rc.create_scale_object("MetadataVersioned", ScaleBytes(b)).decode(), 5)
print(json.dumps(result))
"""


def main() -> None:
    args = sys.argv[1:]
    rounds = int(args.pop()) if args and args[-1].isdigit() else 3
    if len(args) < 2:
        sys.exit(__doc__)
    hexes = FIX / "metadata_hex.json"
    if not hexes.is_file():
        sys.exit(f"fixture missing: {hexes} (set FERROSCALE_FIXTURES)")
    best: list[dict[str, float]] = [{} for _ in args]
    for _ in range(rounds):
        for i, python in enumerate(args):
            out = subprocess.run([python, "-c", CHILD, str(hexes)], check=True,
                                 capture_output=True, text=True).stdout
            for name, us in json.loads(out).items():
                best[i][name] = min(us, best[i].get(name, float("inf")))
    head = " | ".join(f"#{i} µs" for i in range(len(args)))
    ratios = " | ".join(f"#0/#{i}" for i in range(1, len(args)))
    print(f"| case | {head} | {ratios} |")
    print("|---|" + "---:|" * (2 * len(args) - 1))
    for name in best[0]:
        cells = " | ".join(f"{b[name]:.2f}" for b in best)
        rel = " | ".join(f"{best[0][name] / b[name]:.2f}" for b in best[1:])
        print(f"| {name} | {cells} | {rel} |")
    for i, python in enumerate(args):
        print(f"#{i}: {python}")


if __name__ == "__main__":
    main()
