"""Spark's own task retry (issue 37): ``local[2,3]`` runs two tasks at once
and tries each up to three times. A range whose Python worker dies on its
first read (``os._exit``, past anything the helper catches) fails its task
once; Spark runs the task again and the dataset equals the pipeline's, every
block once. The same fault on ``local[2]``, which tries a task once, aborts
the job: the fault does reach Spark, and what recovers from it on
``local[2,3]`` is Spark's retry."""
import pytest

from index_cluster import assert_same_partitions, flaky_source, local_spark, source_and_reference
from test_index import decoders
from scalecodec.index import JsonLinesSource, check_index, index_on_spark


def run(master, source, ranges, out):
    """``index_on_spark`` on a session of its own (one Spark context a
    process at a time), no retries in the task: only Spark's count."""
    session = local_spark(master)
    try:
        return index_on_spark(session, decoders(), ranges, source, out, allow_gaps=True, retries=0)
    finally:
        session.stop()


def test_a_task_that_fails_once_is_run_again_by_spark(tmp_path):
    source, ranges = source_and_reference(tmp_path)
    (tmp_path / "markers").mkdir()
    dies = ranges[3]

    def killing_source():
        # Only the kill: every other range's first read succeeds, so the
        # one failure there is is the task's.
        flaky = flaky_source(source, tmp_path / "markers", kill_range=dies)
        clean = JsonLinesSource(source)
        return lambda first, last: (flaky if (first, last) == dies else clean)(first, last)

    with pytest.raises(Exception, match="(?i)task .* failed|aborted|Python worker exited"):
        run("local[2]", killing_source(), ranges, tmp_path / "once")
    assert (tmp_path / "markers" / f"{dies[0]}-{dies[1]}").exists(), "the worker died"

    (tmp_path / "markers" / f"{dies[0]}-{dies[1]}").unlink()
    summaries = run("local[2,3]", killing_source(), ranges, tmp_path / "spark")
    assert (tmp_path / "markers" / f"{dies[0]}-{dies[1]}").exists(), "the worker died"
    assert [(s["first"], s["last"], s["skipped"]) for s in summaries] == [(a, b, False) for a, b in ranges]
    assert all("error" not in s for s in summaries)
    assert_same_partitions(tmp_path / "spark", tmp_path)
    report = check_index(tmp_path / "spark", allow_gaps=True)
    assert report["ok"] and report["blocks"] == 12, report["text"]
