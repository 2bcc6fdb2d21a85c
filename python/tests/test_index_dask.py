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

from index_cluster import assert_same_partitions, assert_summaries, source_and_reference
from test_index import canonical, decoders
from scalecodec.index import (
    TABLES,
    JsonLinesSource,
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
