"""Memory of loaded runtimes: the `scalecodec` module of each interpreter given, side by side.

    python3 python/bench/memory.py PYTHON [PYTHON ...] [--runtimes N] [--metadata FILE]

Each interpreter runs in a fresh child process that loads N runtimes (default 3) the way
async-substrate-interface 2.2.1 keeps them: a V14+ metadata fixture (default Bittensor's V15) decoded as
`MetadataVersioned`, a `RuntimeConfigurationObject` with the core preset and the portable
registry added, the registry type walk ASI does after loading (the `.value` of every
PortableType, kept) and the runtime-API map (`get_metadata().value_object[1].value`, V15+), all
kept alive as ASI's runtime cache keeps them. It reports the growth of the resident set
(VmRSS: Python objects and native allocations alike) after the imports, per runtime, and
the ratio of each interpreter to the first. Fixtures come from $FERROSCALE_FIXTURES or
../shared/fixtures beside the checkout.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIX = Path(os.environ.get("FERROSCALE_FIXTURES") or REPO.parent / "shared" / "fixtures")
METADATA = FIX / "metadata" / "subtensor-v15-spec343.scale"

CHILD = r"""
import gc, json, sys
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])

raw = open(sys.argv[1], "rb").read()
runtimes = int(sys.argv[2])
core = load_type_registry_preset(name="core")
gc.collect()
before = rss_kib()
kept = []
for _ in range(runtimes):
    rc = RuntimeConfigurationObject(ss58_format=42)
    rc.clear_type_registry()
    rc.update_type_registry(core)
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(raw))
    md.decode()
    rc.implements_scale_info = True
    rc.set_active_spec_version_id(343)
    rc.add_portable_registry(md)
    types = [t.value for t in md.portable_registry.value_object["types"].value_object]
    apis = md.get_metadata().value_object[1].value.get("apis", [])  # V15+
    kept.append((rc, md, types, apis))
gc.collect()
after = rss_kib()
print(json.dumps({"per_runtime_mib": (after - before) / runtimes / 1024,
                  "total_mib": after / 1024, "types": len(kept[0][2])}))
"""


def measure(python: str, runtimes: int, metadata: Path) -> dict:
    out = subprocess.run([python, "-c", CHILD, str(metadata), str(runtimes)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main() -> None:
    args = sys.argv[1:]
    runtimes = 3
    if "--runtimes" in args:
        i = args.index("--runtimes")
        runtimes = int(args[i + 1])
        del args[i:i + 2]
    metadata = METADATA
    if "--metadata" in args:
        i = args.index("--metadata")
        metadata = Path(args[i + 1])
        del args[i:i + 2]
    if not args:
        sys.exit(__doc__)
    if not metadata.is_file():
        sys.exit(f"fixture missing: {metadata}")
    results = [measure(p, runtimes, metadata) for p in args]
    first = results[0]["per_runtime_mib"]
    print(f"{runtimes} runtimes of {metadata.name} kept alive, growth of VmRSS per runtime")
    print(f"{'interpreter':<60} {'MiB/runtime':>12} {'process MiB':>12} {'vs first':>9}")
    for python, r in zip(args, results):
        print(f"{python:<60} {r['per_runtime_mib']:>12.1f} {r['total_mib']:>12.1f} "
              f"{r['per_runtime_mib'] / first:>9.2f}")


if __name__ == "__main__":
    main()
