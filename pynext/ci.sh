#!/usr/bin/env bash
# CI for the `scalecodec` Python package in pynext/ (to be wired into
# `cargo xtask test` by the lead):
#   1. a fresh venv (default /work/main/.venv-next, or $VENV),
#   2. the presets copied into the package (fetch_presets.sh),
#   3. a wheel built by maturin and installed (non-editable, as users get it),
#   4. our pytest suite (pynext/tests),
#   5. py-scale-codec 1.2.12's own suite with the known-failures ratchet:
#      fails when a test not listed in compat/known-failures.txt fails, and
#      when a listed test passes.
# Extra arguments go to maturin build (e.g. --release).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
venv=${VENV:-$root/.venv-next}
suite=${SUITE:-$root/../shared/compat/pyscalecodec-suite}
suite_dir=${SUITE_DIR:-${TMPDIR:-/tmp}/pyscalecodec-suite-pynext}

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet "maturin>=1.7,<2" pytest

"$here/fetch_presets.sh"

wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
# VIRTUAL_ENV pins maturin to our venv (it would otherwise pick the
# workspace's .venv, which belongs to python/).
(cd "$here" && VIRTUAL_ENV="$venv" "$venv/bin/maturin" build --quiet --interpreter "$venv/bin/python" --out "$wheels" "$@")
"$venv/bin/pip" install --quiet --force-reinstall --no-deps "$wheels"/*.whl

(cd "$here" && "$venv/bin/python" -m pytest tests -q -p no:cacheprovider)

report=$(mktemp)
set +e
PYTHON="$venv/bin/python" SUITE_DIR="$suite_dir" "$suite" -q -rA >"$report" 2>&1
set -e
"$venv/bin/python" - "$report" "$here/compat/known-failures.txt" <<'PY'
import re, sys
report, known_file = sys.argv[1], sys.argv[2]
text = open(report, encoding="utf-8", errors="replace").read()
passed = set(re.findall(r"^PASSED (\S+)", text, re.M))
failed = set(re.findall(r"^(?:FAILED|ERROR) (\S+?)(?: - .*)?$", text, re.M))
known = {l.strip() for l in open(known_file) if l.strip() and not l.startswith("#")}
total = len(passed) + len(failed)
print(f"py-scale-codec suite: {len(passed)}/{total} passed, {len(failed)} failed, {len(known)} listed as known failures")
if total == 0:
    print(text[-3000:])
    sys.exit("the suite did not run")
new = sorted(failed - known)
fixed = sorted(known & passed)
missing = sorted(known - passed - failed)
for t in new:
    print(f"  NEW FAILURE: {t}")
for t in fixed:
    print(f"  NOW PASSES (remove from known-failures.txt): {t}")
for t in missing:
    print(f"  LISTED BUT NOT RUN: {t}")
sys.exit(1 if new or fixed or missing else 0)
PY
