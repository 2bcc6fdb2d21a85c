"""The metadata object API, read as clients read it, against py-scale-codec
1.2.12 itself: ``reference_scripts/metadata_reads.py`` reads every pallet,
call, event, error, constant and storage entry of a metadata fixture through
the objects (``.pallets``, ``get_metadata_pallet``, ``.calls`` / ``.events`` /
``.errors`` with ``.name`` / ``.args`` / ``.docs`` / ``.value`` /
``get_param_info()``, constants' ``.type`` / ``.constant_value``, storage
entries' ``.type`` / ``get_value_type_string()`` / ``get_param_info()`` /
the default's ``value_object`` …), and for V14 every portable type's
``generate_type_decomposition`` by path (a client's ``get_type_registry``),
under the reference interpreter and under
ours, and every read must give the same answer (or raise the same exception
class).

Every V9–V14 fixture is read whole (py-scale-codec 1.2.12 knows no later
version). V15 and V16, which it cannot decode, are read with ours only: no
read may raise where the reference raises nothing on V14, and the V15
metadata of subtensor spec 343 must read exactly as 1.2.12 reads its V14
metadata (same runtime, same registry). The runs go side by side, in four
processes.
"""
import json
import re
import subprocess
import sys

import pytest

from conftest import REFERENCE_SCRIPTS, fixtures_dir, metadata_names, read, reference_python

SCRIPT = str(REFERENCE_SCRIPTS / "metadata_reads.py")


def _versions(version) -> list:
    names = [n for n in metadata_names() if read(n)[4] in version]
    assert names, f"no metadata fixture of version {version}"
    return names


def _start(python: str, names: list) -> subprocess.Popen:
    paths = [str(fixtures_dir() / n) for n in names]
    return subprocess.Popen([python, SCRIPT, *paths], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=str(REFERENCE_SCRIPTS))


def _finish(proc: subprocess.Popen, what: str) -> dict:
    out, err = proc.communicate(timeout=900)
    if proc.returncode != 0:
        pytest.fail(f"metadata reads under {what} failed:\n{err[-4000:]}")
    return {path.rsplit("/", 1)[-1]: reads for path, reads in json.loads(out).items()}


@pytest.fixture(scope="module")
def reads() -> dict:
    """``{"reference" | "ours" | "ours_newer": {fixture: [[path, result], …]}}``,
    the reference and our runs side by side."""
    v14, legacy, newer = _versions((14,)), _versions(range(9, 14)), _versions((15, 16))
    reference = _start(reference_python(), v14)
    reference_legacy = _start(reference_python(), legacy)
    ours = _start(sys.executable, v14 + legacy)
    ours_newer = _start(sys.executable, newer)
    return {"reference": _finish(reference, "py-scale-codec 1.2.12"),
            "reference_legacy": _finish(reference_legacy, "py-scale-codec 1.2.12 (V9–V13)"),
            "ours": _finish(ours, "ours"), "ours_newer": _finish(ours_newer, "ours (V15/V16)")}


def differences(reference: dict, ours: dict) -> list:
    """``(fixture, path, reference result, our result)`` for every read that differs."""
    out = []
    for fixture, ref_reads in reference.items():
        our_reads = dict(ours.get(fixture, []))
        for path, expected in ref_reads:
            got = our_reads.get(path, "<not read>")
            if got != expected:
                out.append((fixture, path, expected, got))
    return out


def _shape(path: str) -> str:
    """A read's path without names and numbers (``pallets[].calls[].name``)."""
    return re.sub(r"\(\d+, \d+\)", "()", re.sub(r"\[[^\]]*\]", "[]", path))


@pytest.mark.parametrize("which, versions", [("reference", (14,)), ("reference_legacy", range(9, 14))])
def test_every_read_matches_py_scale_codec_1_2_12(reads, which, versions):
    reference, ours = reads[which], reads["ours"]
    assert len(reference) == len(_versions(versions)) and set(reference) <= set(ours)
    for fixture, ref_reads in reference.items():
        # a real runtime: hundreds of pallets' worth of reads, each of them answered
        assert len(ref_reads) > 1000, fixture
    diffs = differences(reference, ours)
    total = sum(len(r) for r in reference.values())
    shown = "\n".join(f"{f}: {p}\n  1.2.12: {str(e)[:300]}\n  ours:   {str(g)[:300]}" for f, p, e, g in diffs[:25])
    assert not diffs, f"{len(diffs)} of {total} reads differ from py-scale-codec 1.2.12:\n{shown}"


def test_newer_metadata_reads_like_v14(reads):
    """V15/V16: no read raises unless the same read raises on V14 in 1.2.12."""
    allowed = {(_shape(p), r["raises"]) for f in reads["reference"].values() for p, r in f
               if isinstance(r, dict) and "raises" in r}
    # V16 renamed the extrinsic's signed extensions (transaction_extensions)
    allowed.add(("value_object[][][][]", "KeyError"))
    for fixture, our_reads in reads["ours_newer"].items():
        assert our_reads, fixture
        raised = sorted({(_shape(p), r["raises"]) for p, r in our_reads
                         if isinstance(r, dict) and "raises" in r} - allowed)
        assert not raised, f"{fixture}: reads that raise only here: {raised}"


def test_subtensor_v15_reads_as_its_v14_does_in_1_2_12(reads):
    v14 = dict(reads["reference"]["subtensor-v14-spec343.scale"])
    v15 = dict(reads["ours_newer"]["subtensor-v15-spec343.scale"])
    pallet_reads = [p for p in v14 if p.startswith(("pallets[", "get_module_error"))]
    assert len(pallet_reads) > 1000
    assert [p for p in pallet_reads if v15.get(p) != v14[p]] == []


def test_the_comparison_reports_a_changed_read(reads):
    fixture, ref_reads = next(iter(reads["reference"].items()))
    changed = {fixture: [[p, "changed" if i == 7 else r] for i, (p, r) in enumerate(ref_reads)]}
    assert [d[1] for d in differences({fixture: ref_reads}, changed)] == [ref_reads[7][0]]
