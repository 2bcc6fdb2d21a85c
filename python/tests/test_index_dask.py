"""The Dask helper on a real ``distributed.LocalCluster`` (2 worker processes,
one thread each) over the real Polkadot blocks (10,000,000 on spec 9180 and
18,468,942 on spec 1000001, each repeated under the next block numbers to
give the cluster several ranges per runtime): the Parquet partitions the
workers write and the tables they return equal the index pipeline's output
(the Rust ``pipeline::run`` over the same JSON-lines file), and each worker
process built each runtime's registry at most once although it ran several
tasks of that runtime (the decoders are broadcast once, not shipped per task)."""
import json

import pyarrow.parquet as pq
from distributed import Client, LocalCluster

from test_index import canonical, decoders, real_blocks
from scalecodec.index import (
    TABLES,
    JsonLinesSource,
    block_ranges,
    index_json_lines,
    index_on_dask,
    index_decoder_stats,
    share_decoders,
)

COPIES = {9180: 4, 1_000_001: 8}


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


def test_dask_cluster_indexes_like_the_pipeline(tmp_path):
    source = write_source(tmp_path / "blocks.jsonl")
    width = 2
    ranges = block_ranges(10_000_000, 10_000_003, width) + block_ranges(18_468_942, 18_468_949, width)
    # 4 ranges of spec 1000001 on 2 workers: some worker runs two of them.
    assert len(ranges) == 6
    pipeline = index_json_lines(source, decoders(), tmp_path / "pipeline", partition_blocks=width)
    assert (pipeline["blocks"], pipeline["errors"], pipeline["partitions"]) == (12, 0, 6)

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      worker_dashboard_address=None) as cluster, Client(cluster) as client:
        shared = share_decoders(client, decoders())
        summaries = index_on_dask(client, shared, ranges, JsonLinesSource(source), out=tmp_path / "dask")
        tables = index_on_dask(client, shared, ranges, JsonLinesSource(source))
        rerun = index_on_dask(client, shared, ranges, JsonLinesSource(source), out=tmp_path / "dask")
        stats = client.run(index_decoder_stats)

    assert [(s["first"], s["last"], s["skipped"]) for s in summaries] == [(a, b, False) for a, b in ranges]
    assert sum(s["blocks"] for s in summaries) == 12 and sum(s["errors"] for s in summaries) == 0
    assert all(s["skipped"] for s in rerun), "finished partitions are skipped on a rerun"
    for name in TABLES:
        expected = canonical(pq.read_table(tmp_path / "pipeline" / name))
        assert canonical(pq.read_table(tmp_path / "dask" / name)) == expected, name
        assert canonical(tables[name]) == expected, name
        assert sorted(p.name for p in (tmp_path / "dask" / name).glob("*.parquet")) == sorted(
            p.name for p in (tmp_path / "pipeline" / name).glob("*.parquet")), name
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
