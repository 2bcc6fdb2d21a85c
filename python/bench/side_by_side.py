"""What the side-by-side benchmark scripts share: where the fixtures are, and running one
child script in several interpreters, rounds alternating between them, each case keeping its
best round (the load of a shared machine drifts; one pass per interpreter would charge the
drift to one side)."""
import json
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(os.environ.get("FERROSCALE_FIXTURES") or REPO.parent / "shared" / "fixtures")


def best_rounds(pythons, child, args, rounds):
    """Runs `child` (a script printing one JSON object of case -> number, plus any other keys)
    as `python -c child *args` in each interpreter, `rounds` times alternating; returns, per
    interpreter, the first round's output with each numeric case replaced by its minimum."""
    runs = {p: [] for p in pythons}
    for _ in range(rounds):
        for p in pythons:
            done = subprocess.run([p, "-c", child, *map(str, args)],
                                  capture_output=True, text=True, check=True)
            runs[p].append(json.loads(done.stdout))
    best = {}
    for p, outs in runs.items():
        first = dict(outs[0])
        for key, value in first.items():
            if isinstance(value, (int, float)):
                first[key] = min(o[key] for o in outs)
        best[p] = first
    return best
