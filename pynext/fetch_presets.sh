#!/usr/bin/env bash
# Copies the 21 py-scale-codec 1.2.12 preset JSON files into the package
# (python/scalecodec/type_registry/, gitignored). `cargo xtask presets` fetches
# the pinned wheel and checks every file's sha256; we take the checked files
# from the wheel it cached under target/presets.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
(cd "$root" && cargo xtask presets)
python3 - "$root/target/presets/scalecodec-1.2.12-py3-none-any.whl" "$here/python/scalecodec/type_registry" <<'PY'
import os, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.startswith("scalecodec/type_registry/") and n.endswith(".json")]
    for n in names:
        with open(os.path.join(out, os.path.basename(n)), "wb") as f:
            f.write(z.read(n))
print(f"{len(names)} presets in {out}")
PY
