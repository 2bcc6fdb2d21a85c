"""`GenericPalletMetadata.get_storage_function(name)`, the look-up a client does before every
storage query: the `scalecodec` module of each interpreter given, side by side.

    python3 python/bench/storage_lookup.py PYTHON [PYTHON ...] [--calls N] [--rounds R]

Against Bittensor spec 329's metadata (V14, `SubtensorModule`, 176 storage entries): µs per
call for the first entry (the storage-version entry py-scale-codec puts first), the middle one
and the last one. Each interpreter runs in its own child process, the rounds alternate between
them, and each case keeps its best round. Fixtures come from $FERROSCALE_FIXTURES or
../shared/fixtures beside the checkout.
"""
import sys

from side_by_side import FIXTURES, best_rounds

METADATA = FIXTURES / "metadata" / "bittensor-v14-spec329.scale"

CHILD = r"""
import json, sys, time
from scalecodec.base import RuntimeConfiguration, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

raw = open(sys.argv[1], "rb").read()
calls = int(sys.argv[2])
rc = RuntimeConfiguration()
rc.update_type_registry(load_type_registry_preset("core"))
rc.update_type_registry(load_type_registry_preset("legacy"))
md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(raw))
md.decode()
pallet = md.get_metadata_pallet("SubtensorModule")
names = [s.name for s in pallet.storage]
out = {}
for label, name in (("first", names[0]), ("middle", names[len(names) // 2]), ("last", names[-1])):
    assert pallet.get_storage_function(name).name == name
    t = time.perf_counter()
    for _ in range(calls):
        pallet.get_storage_function(name)
    out[f"{label} ({name})"] = (time.perf_counter() - t) / calls * 1e6
print(json.dumps(out))
"""


def main():
    args = sys.argv[1:]
    calls, rounds, pythons = 1000, 3, []
    while args:
        a = args.pop(0)
        if a == "--calls":
            calls = int(args.pop(0))
        elif a == "--rounds":
            rounds = int(args.pop(0))
        else:
            pythons.append(a)
    if not pythons:
        sys.exit(__doc__)
    if not METADATA.exists():
        sys.exit(f"fixture missing: {METADATA}")
    best = list(best_rounds(pythons, CHILD, [METADATA, calls], rounds).values())
    print("| case | " + " | ".join(pythons) + " |")
    print("|---|" + "---:|" * len(pythons))
    for case in best[0]:
        cells = [f"{b[case]:.2f} µs" + ("" if i == 0 else f" ({best[0][case] / b[case]:.1f}×)")
                 for i, b in enumerate(best)]
        print(f"| {case} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
