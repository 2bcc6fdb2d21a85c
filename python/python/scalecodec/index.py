"""Columnar decoding: blocks into Arrow tables and Parquet, locally or on Dask.

The engine is Rust (``scalecodec._core``, the ``ferroscale-index`` crate);
this module only names it and maps it over a cluster.

Locally::

    from scalecodec.index import SpecDecoder, decode_blocks
    import pyarrow as pa

    decoder = SpecDecoder(metadata_bytes)           # one runtime (V14+)
    batch = decode_blocks(blocks, [decoder])          # GIL released, every core
    events = pa.table(batch.table("events"))          # no copy (Arrow C stream)
    batch.write_parquet("out")                        # zstd Parquet partition

``blocks`` is an iterable of dicts or tuples ``(number, hash, spec_version,
extrinsics, events)`` (bytes or ``0x`` hex; ``events`` the ``System.Events``
value or ``None``). The tables are ``blocks``, ``extrinsics``, ``calls``,
``events`` and ``errors``; their JSON columns are the dynamic layer's values.
Importing this module does not import pyarrow: the tables implement the
Arrow PyCapsule interface, which pyarrow (or polars, DuckDB …) reads.

On a Dask cluster (:func:`index_on_dask`): the decoders are sent to every
worker once (``Client.scatter(..., broadcast=True)``), each worker process
builds each runtime's registry once, on first use, and each task decodes one
block range, writing its Parquet partition or returning pyarrow tables.
"""
import importlib
import os

from scalecodec._core import (  # noqa: F401
    ArrowTable,
    IndexBatch,
    SpecDecoder,
    block_ranges,
    decode_blocks,
    index_json_lines,
    index_decoder_stats,
    partition_finished,
    read_blocks,
)

TABLES = ("blocks", "extrinsics", "calls", "events", "errors")
"""The tables of an :class:`IndexBatch`, in the order they are written."""


def _pyarrow():
    # pyarrow is optional (the tables speak the Arrow PyCapsule interface to
    # any consumer): loaded when a helper that returns pyarrow objects runs,
    # never when the package is imported.
    return importlib.import_module("pyarrow")


def to_pyarrow(batch):
    """Every table of ``batch`` as a ``pyarrow.Table`` (no copy), by name."""
    pa = _pyarrow()
    return {name: pa.table(batch.table(name)) for name in TABLES}


class JsonLinesSource:
    """Blocks of a JSON-lines file (the index's file format) by number range.

    Picklable (only the path travels); each call parses only the lines of
    ``first..=last``, in Rust, through the file's line index, which each
    process builds once (a pass that reads only the block numbers). Any
    picklable callable ``source(first, last) -> blocks`` will do as well.
    """

    def __init__(self, path):
        self.path = os.fspath(path)

    def __call__(self, first, last):
        return read_blocks(self.path, first, last)

    def __repr__(self):
        return f"JsonLinesSource({self.path!r})"


def index_range(block_range, decoders, source, out=None):
    """One task: decode the blocks of ``block_range`` from ``source``.

    With ``out``, writes the range's Parquet partition (skipped when already
    finished) and returns a summary dict; without, returns the tables as
    pyarrow tables by name.
    """
    first, last = block_range
    if out is not None and partition_finished(out, first, last):
        return {"first": first, "last": last, "skipped": True, "pid": os.getpid()}
    batch = decode_blocks(source(first, last), decoders)
    if out is None:
        return to_pyarrow(batch)
    written = batch.write_parquet(out, first, last)
    summary = {"first": first, "last": last, "skipped": False, "pid": os.getpid(),
               "parquet_bytes": written}
    summary.update(batch.num_rows)
    return summary


def share_decoders(client, decoders):
    """Sends ``decoders`` (:class:`SpecDecoder` objects) to every worker of
    ``client`` once; returns the future to pass to :func:`index_on_dask`.

    Each worker unpickles them once (the metadata bytes) and builds each
    runtime's registry on first use. Keep the future for as long as more
    runs will come: the workers keep the decoders, and their registries,
    while it lives.
    """
    if isinstance(decoders, SpecDecoder):
        decoders = [decoders]
    [shared] = client.scatter([tuple(decoders)], broadcast=True, hash=False)
    return shared


def index_on_dask(client, decoders, ranges, source, out=None):
    """Decodes block ``ranges`` on a ``distributed`` cluster.

    ``decoders``: the future :func:`share_decoders` returned, or
    :class:`SpecDecoder` objects (every runtime the ranges use; shared for
    this run only); ``ranges``: ``(first, last)`` pairs (see
    :func:`block_ranges`), one task each; ``source``: a picklable callable
    ``(first, last) -> blocks`` such as :class:`JsonLinesSource`.

    With ``out`` (a folder every worker sees), each task writes its range's
    Parquet partition (``out/<table>/blocks_<first>_<last>.parquet``; finished
    partitions are skipped on a rerun) and the per-task summaries are
    returned. Without it, the tables come back to the client as
    ``pyarrow.Table`` objects by name, ranges in the given order.
    """
    if isinstance(decoders, SpecDecoder) or isinstance(decoders, (list, tuple)):
        decoders = share_decoders(client, decoders)
    out = None if out is None else os.fspath(out)
    futures = client.map(index_range, list(ranges), decoders=decoders, source=source, out=out,
                         pure=False)
    results = client.gather(futures)
    if out is not None:
        return results
    pa = _pyarrow()
    return {name: pa.concat_tables([r[name] for r in results]) for name in TABLES}
