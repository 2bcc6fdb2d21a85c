"""Our `scalecodec` against bittensor-core (the Rust core of the Bittensor SDK 11), side by side:
each implementation's own fastest public call on the same bytes, values checked equal where the
two give the same shape.

    python3 python/bench/vs_bittensor_core.py OURS_PYTHON BTCORE_PYTHON [--rounds R]

OURS_PYTHON imports our `scalecodec` (the venv `cargo xtask test` makes: .venv/bin/python);
BTCORE_PYTHON imports `bittensor_core` (.venv-btcore/bin/python: `python3 -m venv .venv-btcore
&& .venv-btcore/bin/pip install bittensor-core==0.1.5`). The data is the Bittensor data
async-substrate-interface's maintainers recorded (../shared/bench/asi-bench.d, or
$ASI_BENCH_DATA): Subtensor's V15 (spec 393) and V14 metadata, the System.Events of two blocks,
two V14 query_map pages and two recorded V15 storage-map pages; plus 1,000 System.Account values
and 100 accounts made here (our encoder, fixed seed). Each interpreter runs vs_bittensor_core_child.py
in its own process, R rounds (default 3) alternating, each case keeping its best round. Prints a
Markdown table: µs per call, bittensor-core ÷ ours (> 1: ours is faster), and whether the values
agree. A full run takes about a minute per round.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from side_by_side import REPO, best_rounds

DATA = Path(os.environ.get("ASI_BENCH_DATA") or REPO.parent / "shared" / "bench" / "asi-bench.d")
CHILD = (Path(__file__).resolve().parent / "vs_bittensor_core_child.py").read_text()

# Made with our encoder in OURS_PYTHON: 1,000 System.Account values and 100 SS58 addresses.
MAKE_INPUTS = r"""
import json, random, sys
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.utils.ss58 import ss58_encode
recorded = json.load(open(sys.argv[1]))
opaque = bytes.fromhex(recorded["metadata_at_version_15"][2:])
n = {0: 1, 1: 2, 2: 4}[opaque[1] & 3]
raw = opaque[1 + n:1 + n + (int.from_bytes(opaque[1:1 + n], "little") >> 2)]
rc = RuntimeConfigurationObject(ss58_format=42)
md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(raw))
md.decode()
rc.add_portable_registry(md)
account_type = md.get_metadata_pallet("System").get_storage_function("Account").get_value_type_string()
rng = random.Random(40)
accounts = []
for i in range(1000):
    value = {"nonce": rng.randrange(1 << 16), "consumers": rng.randrange(4), "providers": 1,
             "sufficients": 0, "data": {"free": rng.randrange(1 << 50), "reserved": rng.randrange(1 << 30),
                                        "frozen": 0, "flags": 1 << 127}}
    accounts.append(bytes(rc.create_scale_object(account_type).encode(value).data).hex())
owners = [ss58_encode(rng.randbytes(32), 42) for _ in range(100)]
print(json.dumps({"accounts": accounts, "owners": owners}))
"""


def main(argv):
    rounds = 3
    if "--rounds" in argv:
        i = argv.index("--rounds")
        rounds = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if len(argv) != 2:
        sys.exit(__doc__)
    ours, btcore = argv
    made = subprocess.run([ours, "-c", MAKE_INPUTS, str(DATA / "asi_recorded.json")],
                          capture_output=True, text=True, check=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(made.stdout)
        inputs = f.name
    try:
        best = best_rounds([btcore, ours], CHILD, [DATA, inputs], rounds)
    finally:
        os.unlink(inputs)
    theirs, mine = best[btcore], best[ours]
    print(f"{theirs['implementation']} against {mine['implementation']}, best of {rounds} alternating rounds\n")
    print("| case | bittensor-core µs | ours µs | bittensor-core ÷ ours | values |")
    print("|---|---:|---:|---:|---|")
    for case, value in mine.items():
        if not isinstance(value, (int, float)) or case not in theirs:
            continue
        theirs_value, mine_value = theirs["values"].get(case), mine["values"].get(case)
        if theirs_value is None or mine_value is None:
            same = "—"
        else:
            same = "equal" if theirs_value == mine_value else "shapes differ"
        print(f"| {case} | {theirs[case]:,.1f} | {value:,.1f} | {theirs[case] / value:.2f}× | {same} |")


if __name__ == "__main__":
    main(sys.argv[1:])
