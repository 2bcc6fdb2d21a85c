"""The Spark helpers on a real local Spark (``local[2]``: one JVM, Python
worker processes for the tasks) over the real Polkadot blocks, repeated under
the next block numbers as in the Dask test: the Parquet partitions the tasks
write and the DataFrames of each table equal the index pipeline's output (the
Rust ``pipeline::run`` over the same JSON-lines file), finished partitions are
skipped on a rerun, and each Python worker process built each runtime's
registry at most once although it ran several tasks (the decoders travel as
one broadcast variable, not with every task)."""
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from index_cluster import (assert_same_partitions, assert_summaries, flaky_source, local_spark,
                           source_and_reference)
from test_index import canonical, decoders
from scalecodec.index import (
    TABLES,
    JsonLinesSource,
    PartitionsFailed,
    _for_spark,
    check_index,
    index_on_spark,
    share_decoders_spark,
    spark_table,
)


@pytest.fixture(scope="module")
def spark():
    session = local_spark("local[2]")
    yield session
    session.stop()


def test_spark_indexes_like_the_pipeline(spark, tmp_path):
    source, ranges = source_and_reference(tmp_path)
    shared = share_decoders_spark(spark, decoders())
    summaries = index_on_spark(spark, shared, ranges, JsonLinesSource(source), tmp_path / "spark")
    rerun = index_on_spark(spark, shared, ranges, JsonLinesSource(source), tmp_path / "spark")

    assert_summaries(summaries, rerun, ranges)
    assert_same_partitions(tmp_path / "spark", tmp_path)

    # Every process that ran tasks built each runtime it met once, whatever
    # number of tasks it ran (the registry is kept per process).
    built = {}
    for s in summaries:
        built.setdefault(s["pid"], []).append(json.loads(s["built"]))
    for pid, snapshots in built.items():
        assert all(n == 1 for snap in snapshots for n in snap.values()), (pid, snapshots)
    assert {spec for snaps in built.values() for snap in snaps for spec in snap} == {"9180", "1000001"}
    assert len(built) < len(ranges), "Python workers are reused across tasks"

    for name in TABLES:
        frame = spark_table(spark, shared, ranges, JsonLinesSource(source), name)
        got = pa.Table.from_pylist([r.asDict(recursive=True) for r in frame.collect()])
        expected = pq.read_table(tmp_path / "pipeline" / name)
        assert frame.count() == expected.num_rows, name
        assert canonical(got) == canonical(expected), name
    events = spark_table(spark, shared, ranges, JsonLinesSource(source), "events")
    transfers = events.filter("pallet = 'Balances' AND name = 'Transfer'").count()
    assert transfers == 8 * 2, "two transfers in each copy of block 18,468,942"


def test_unsigned_columns_become_signed_or_fail_naming_the_column():
    t = _for_spark(pa.table({"a": pa.array([255], pa.uint8()), "b": pa.array([2**32 - 1], pa.uint32()),
                             "c": pa.array([2**63 - 1], pa.uint64()), "d": pa.array(["x"])}))
    assert [str(f.type) for f in t.schema] == ["int16", "int64", "int64", "string"]
    assert t.to_pylist() == [{"a": 255, "b": 2**32 - 1, "c": 2**63 - 1, "d": "x"}]
    with pytest.raises(ValueError, match="column 'nonce' does not fit Spark's int64"):
        _for_spark(pa.table({"nonce": pa.array([2**63], pa.uint64())}))


def test_spark_table_refuses_unknown_tables(spark):
    with pytest.raises(ValueError, match="no table 'event'"):
        spark_table(spark, decoders(), [(1, 2)], JsonLinesSource("x"), "event")


def test_spark_retries_failed_ranges_and_reports_the_rest(spark, tmp_path):
    """Every range's first read fails: each is tried again in its task
    (local Spark does not retry a task) and the dataset equals the
    pipeline's. A range that always fails is named in
    :class:`PartitionsFailed`; the others are written."""
    source, ranges = source_and_reference(tmp_path)
    (tmp_path / "markers").mkdir()
    flaky = flaky_source(source, tmp_path / "markers")
    summaries = index_on_spark(spark, decoders(), ranges, flaky, tmp_path / "spark", retries=2)
    assert [(s["first"], s["last"], s["skipped"]) for s in summaries] == [(a, b, False) for a, b in ranges]
    assert_same_partitions(tmp_path / "spark", tmp_path)

    broken = flaky_source(source, tmp_path / "markers", broken_range=ranges[1])
    with pytest.raises(PartitionsFailed, match="1 of 6 block ranges failed") as failed:
        index_on_spark(spark, decoders(), ranges, broken, tmp_path / "partial", retries=1)
    outcomes = failed.value.outcomes
    assert [("error" in o) for o in outcomes] == [i == 1 for i in range(6)]
    report = check_index(tmp_path / "partial", allow_gaps=True)
    assert report["ok"] and report["blocks"] == 10, report["text"]


def test_spark_writes_the_typed_partitions_of_the_command_line(spark, tmp_path):
    from scalecodec.index import index_json_lines
    from test_index_typed import assert_same_typed_partitions
    source, ranges = source_and_reference(tmp_path)
    index_json_lines(source, decoders(), tmp_path / "reference", partition_blocks=2,
                     allow_gaps=True, typed=True)
    summaries = index_on_spark(spark, decoders(), ranges, JsonLinesSource(source),
                               tmp_path / "spark", typed=True)
    assert [s["typed_errors"] for s in summaries] == [0] * len(ranges)
    assert_same_typed_partitions(tmp_path / "spark", tmp_path / "reference")
    # Spark reads a table over both runtimes as one, its columns merged by name.
    folder = tmp_path / "spark" / "typed" / "calls" / "Timestamp.set"
    frame = spark.read.option("mergeSchema", "true").parquet(str(folder))
    rows = frame.groupBy("spec_version").count().orderBy("spec_version").collect()
    assert [(r["spec_version"], r["count"]) for r in rows] == [(9180, 4), (1_000_001, 8)]


def test_spark_table_gives_each_typed_table_over_both_runtimes(spark, tmp_path):
    """Every typed table of the ranges as a Spark frame (``typed=True``): its
    columns are the table's over both runtimes, and its rows are the typed
    partitions the pipeline writes for the same blocks, in Spark's types."""
    from scalecodec.index import index_json_lines, typed_table_schema
    from test_index_typed import read_folder, typed_canonical, typed_folders
    source, ranges = source_and_reference(tmp_path)
    index_json_lines(source, decoders(), tmp_path / "reference", partition_blocks=2,
                     allow_gaps=True, typed=True)
    shared = share_decoders_spark(spark, decoders())
    folders = typed_folders(tmp_path / "reference")
    assert "calls/Timestamp.set" in folders and "events/Balances.Transfer" in folders
    for name, folder in folders.items():
        columns = pa.table(typed_table_schema(decoders(), name)).schema
        frame = spark_table(spark, shared, ranges, JsonLinesSource(source), name, typed=True)
        assert frame.columns == columns.names, name
        expected = _for_spark(read_folder(folder), columns)
        got = pa.Table.from_pylist([r.asDict(recursive=True) for r in frame.collect()],
                                   schema=expected.schema)
        assert got.num_rows == expected.num_rows > 0, name
        assert typed_canonical(got) == typed_canonical(expected), name
    # Timestamp.set has rows of both runtimes in one frame.
    now = spark_table(spark, shared, ranges, JsonLinesSource(source), "calls/Timestamp.set",
                      typed=True)
    rows = now.groupBy("spec_version").count().orderBy("spec_version").collect()
    assert [(r["spec_version"], r["count"]) for r in rows] == [(9180, 4), (1_000_001, 8)]
    with pytest.raises(KeyError, match="no runtime of the decoders has a typed table"):
        spark_table(spark, shared, ranges, JsonLinesSource(source), "events/Balances.Nothing",
                    typed=True)


def test_spark_indexes_a_legacy_runtime_through_its_presets(spark, tmp_path):
    """A legacy runtime's decoder (Polkadot V12, spec 30, with its presets)
    reaches Spark's Python workers in the broadcast, pickled with its
    presets: the partitions the tasks write, typed ones too, are the
    pipeline's for the same blocks."""
    from conftest import read, read_json
    from test_index import stand_in_hash
    from test_index_typed import assert_same_typed_partitions
    from scalecodec.index import SpecDecoder, index_json_lines

    decoder = SpecDecoder(read("metadata/polkadot-v12-spec30.scale"),
                          presets=["core", "legacy", "polkadot"])
    xts = read_json("payloads/polkadot-block-5000000/extrinsics.json")
    source = tmp_path / "blocks.jsonl"
    source.write_text("".join(
        json.dumps({"number": n, "hash": stand_in_hash(n), "spec_version": 30, "extrinsics": xts,
                    "events": None}) + "\n" for n in range(1, 21)))
    index_json_lines(source, [decoder], tmp_path / "pipeline", partition_blocks=10, typed=True)
    summaries = index_on_spark(spark, [decoder], [(1, 9), (10, 19), (20, 20)],
                               JsonLinesSource(source), tmp_path / "spark", typed=True)
    assert sum(s["blocks"] for s in summaries) == 20
    assert sum(s["errors"] for s in summaries) == 0
    for name in TABLES:
        expected = canonical(pq.read_table(tmp_path / "pipeline" / name))
        assert canonical(pq.read_table(tmp_path / "spark" / name)) == expected, name
    assert pq.read_table(tmp_path / "spark" / "extrinsics").num_rows == 20 * len(xts)
    assert_same_typed_partitions(tmp_path / "spark", tmp_path / "pipeline")
