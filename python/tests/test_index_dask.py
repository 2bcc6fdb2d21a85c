"""The Dask helper on a real ``distributed.LocalCluster`` (2 worker processes,
one thread each) over the real Polkadot blocks (10,000,000 on spec 9180 and
18,468,942 on spec 1000001, each repeated under the next block numbers to
give the cluster several ranges per runtime): the Parquet partitions the
workers write and the tables they return equal the index pipeline's output
(the Rust ``pipeline::run`` over the same JSON-lines file), and each worker
process built each runtime's registry at most once although it ran several
tasks of that runtime (the decoders are broadcast once, not shipped per task)."""
import pyarrow.parquet as pq
from distributed import Client, LocalCluster

import pytest

from index_cluster import assert_same_partitions, assert_summaries, flaky_source, source_and_reference
from test_index import canonical, decoders
from scalecodec.index import (
    TABLES,
    JsonLinesSource,
    PartitionsFailed,
    check_index,
    index_on_dask,
    index_decoder_stats,
    share_decoders,
)


def test_dask_cluster_indexes_like_the_pipeline(tmp_path):
    source, ranges = source_and_reference(tmp_path)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      worker_dashboard_address=None) as cluster, Client(cluster) as client:
        shared = share_decoders(client, decoders())
        summaries = index_on_dask(client, shared, ranges, JsonLinesSource(source), out=tmp_path / "dask")
        tables = index_on_dask(client, shared, ranges, JsonLinesSource(source))
        rerun = index_on_dask(client, shared, ranges, JsonLinesSource(source), out=tmp_path / "dask")
        stats = client.run(index_decoder_stats)

    assert_summaries(summaries, rerun, ranges)
    assert_same_partitions(tmp_path / "dask", tmp_path)
    for name in TABLES:
        assert canonical(tables[name]) == canonical(pq.read_table(tmp_path / "pipeline" / name)), name
    # Three runs of 6 tasks, each given both decoders: shipped with every
    # task they could be unpickled once per task. Broadcast, they reach each
    # worker once (Dask may deserialize broadcast data again on a worker when
    # it replicates it), and each worker builds each runtime's registry once.
    tasks = 3 * len(ranges)
    assert len(stats) == 2
    for spec in (9180, 1_000_001):
        unpickled = [s["unpickled"].get(spec, 0) for s in stats.values()]
        assert all(n >= 1 for n in unpickled) and sum(unpickled) < tasks / 2, (spec, stats)
    for worker, s in stats.items():
        assert set(s["built"]) <= {9180, 1_000_001} and all(n == 1 for n in s["built"].values()), (worker, s)
    assert {spec for s in stats.values() for spec in s["built"]} == {9180, 1_000_001}


def test_dask_retries_failed_tasks_and_dead_workers(tmp_path):
    """Every range's first read fails, and one kills its worker: the tasks
    are run again (the dead worker's on another, restarted, worker) and the
    dataset equals the pipeline's. A range that always fails is named in
    :class:`PartitionsFailed`, which keeps the other ranges' summaries, and
    their partitions are written."""
    source, ranges = source_and_reference(tmp_path)
    (tmp_path / "markers").mkdir()
    flaky = flaky_source(source, tmp_path / "markers", kill_range=ranges[2])
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      worker_dashboard_address=None) as cluster, Client(cluster) as client:
        summaries = index_on_dask(client, decoders(), ranges, flaky, out=tmp_path / "dask", retries=3)
        assert [(s["first"], s["last"], s["skipped"]) for s in summaries] == [(a, b, False) for a, b in ranges]
        assert_same_partitions(tmp_path / "dask", tmp_path)
        assert check_index(tmp_path / "dask", allow_gaps=True)["ok"]

        broken = flaky_source(source, tmp_path / "markers", broken_range=ranges[4])
        with pytest.raises(PartitionsFailed, match="1 of 6 block ranges failed") as failed:
            index_on_dask(client, decoders(), ranges, broken, out=tmp_path / "partial", retries=1)
    outcomes = failed.value.outcomes
    assert [("error" in o) for o in outcomes] == [i == 4 for i in range(6)]
    assert "injected permanent failure" in outcomes[4]["error"]
    report = check_index(tmp_path / "partial", allow_gaps=True)
    assert report["ok"] and report["blocks"] == 10, report["text"]


def test_dask_indexes_a_legacy_runtime_through_its_presets(tmp_path):
    """A legacy runtime's decoder (Polkadot V12, spec 30, with its presets)
    reaches the workers pickled with its presets: their tables, typed ones
    too, equal a local decode of the same blocks."""
    import json

    import pyarrow as pa

    from conftest import read, read_json
    from test_index import stand_in_hash
    from test_index_typed import typed_canonical
    from scalecodec.index import SpecDecoder, decode_blocks

    decoder = SpecDecoder(read("metadata/polkadot-v12-spec30.scale"), presets=["core", "legacy", "polkadot"])
    xts = read_json("payloads/polkadot-block-5000000/extrinsics.json")
    blocks = [{"number": n, "hash": stand_in_hash(n), "spec_version": 30, "extrinsics": xts, "events": None}
              for n in range(1, 21)]
    source = tmp_path / "blocks.jsonl"
    source.write_text("".join(json.dumps(b) + "\n" for b in blocks))
    ranges = [(1, 10), (11, 20)]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      worker_dashboard_address=None) as cluster, Client(cluster) as client:
        tables = index_on_dask(client, [decoder], ranges, JsonLinesSource(source), typed=True)

    local = decode_blocks(blocks, [decoder], typed=True)
    assert tables["errors"].num_rows == 0
    assert tables["extrinsics"].num_rows == 20 * len(xts)
    for name in TABLES:
        assert canonical(tables[name]) == canonical(pa.table(local.table(name))), name
    assert "calls/Timestamp.set" in local.typed_tables()
    for name, table in local.typed_tables().items():
        assert typed_canonical(tables["typed/" + name]) == typed_canonical(pa.table(table)), name
