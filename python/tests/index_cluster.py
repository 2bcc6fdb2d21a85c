"""What the distributed-engine tests (Dask, Spark) share: a JSON-lines file of
the real Polkadot blocks repeated under the next block numbers (several
block ranges per runtime), the ranges, the Rust pipeline's own output over
that file as the reference, and the comparison of an engine's partitions
with it."""
import json
import os
import sys

import pyarrow.parquet as pq

from test_index import canonical, decoders, real_blocks
from scalecodec.index import TABLES, block_ranges, index_json_lines, read_blocks

COPIES = {9180: 4, 1_000_001: 8}
WIDTH = 2


def write_source(path):
    lines = []
    for number, _, spec, extrinsics, events in real_blocks():
        for k in range(COPIES[spec]):
            n = number + k
            lines.append(json.dumps({
                "number": n, "hash": "0x" + n.to_bytes(32, "big").hex(), "spec_version": spec,
                "extrinsics": ["0x" + x.hex() for x in extrinsics],
                "events": None if events is None else "0x" + events.hex(),
            }))
    path.write_text("\n".join(lines) + "\n")
    return path


def source_and_reference(tmp_path):
    """The blocks file, its 6 ranges (2 of spec 9180, 4 of spec 1000001, so
    on 2 workers some worker runs several of a runtime) and the pipeline's
    partitions under ``tmp_path / "pipeline"``."""
    source = write_source(tmp_path / "blocks.jsonl")
    ranges = block_ranges(10_000_000, 10_000_003, WIDTH) + block_ranges(18_468_942, 18_468_949, WIDTH)
    assert len(ranges) == 6
    # Two runs of consecutive blocks far apart: a sample of the chain.
    pipeline = index_json_lines(source, decoders(), tmp_path / "pipeline", partition_blocks=WIDTH,
                                allow_gaps=True)
    assert (pipeline["blocks"], pipeline["errors"], pipeline["partitions"]) == (12, 0, 6)
    return source, ranges


def assert_summaries(summaries, rerun, ranges):
    """The first run wrote every range, the rerun skipped every one."""
    assert [(s["first"], s["last"], s["skipped"]) for s in summaries] == [(a, b, False) for a, b in ranges]
    assert sum(s["blocks"] for s in summaries) == 12 and sum(s["errors"] for s in summaries) == 0
    assert all(s["skipped"] for s in rerun), "finished partitions are skipped on a rerun"


def assert_same_partitions(out, tmp_path):
    """Every table under ``out`` has the pipeline's rows and partition files."""
    for name in TABLES:
        expected = canonical(pq.read_table(tmp_path / "pipeline" / name))
        assert canonical(pq.read_table(out / name)) == expected, name
        assert sorted(p.name for p in (out / name).glob("*.parquet")) == sorted(
            p.name for p in (tmp_path / "pipeline" / name).glob("*.parquet")), name


def flaky_source(path, markers, kill_range=None, broken_range=None):
    """A source that fails the first read of every range (an ``OSError``,
    once per range, remembered by a marker file under ``markers``, which
    every process sees), exits its process on the first read of
    ``kill_range`` (a worker dying mid-task), and always fails on
    ``broken_range``. A closure, so that Dask's and Spark's cloudpickle send
    it by value to workers that cannot import this test module."""
    path, markers = os.fspath(path), os.fspath(markers)

    def source(first, last):
        if (first, last) == broken_range:
            raise OSError(f"blocks {first}..={last}: injected permanent failure")
        marker = os.path.join(markers, f"{first}-{last}")
        if not os.path.exists(marker):
            open(marker, "w").close()
            if (first, last) == kill_range:
                os._exit(1)
            raise OSError(f"blocks {first}..={last}: injected transient failure")
        return read_blocks(path, first, last)

    return source


def local_spark(master):
    """A local Spark session on ``master`` (``local[2]``, ``local[2,3]``…),
    quiet, loopback only, the tasks' Python this interpreter."""
    # pyspark is a test dependency of the Spark tests only.
    from pyspark.sql import SparkSession

    # Spark starts the tasks' Python with this interpreter (the test's venv).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (SparkSession.builder.master(master).appName("ferroscale-index-test")
               .config("spark.ui.enabled", "false")
               # Loopback only: a CI machine's host name may resolve nowhere.
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.python.worker.reuse", "true")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    return session
