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

On Spark (:func:`index_on_spark`, :func:`spark_table`): the decoders are a
broadcast variable (unpickled once per Python worker process), and each
block range is one row of a DataFrame mapped with ``mapInArrow``: its tasks
write the Parquet partitions, or one table becomes a Spark DataFrame.
"""
import importlib
import json
import os

from ._core import (  # noqa: F401
    ArrowTable,
    IndexBatch,
    SpecDecoder,
    block_ranges,
    decode_blocks,
    index_json_lines,
    index_decoder_stats,
    keep_freed_memory,
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
    return {name: pa.table(table) for name, table in batch.all_tables().items()}


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


def _decoder_tuple(decoders):
    """One :class:`SpecDecoder` or several, as the tuple the engines ship."""
    return (decoders,) if isinstance(decoders, SpecDecoder) else tuple(decoders)


def share_decoders(client, decoders):
    """Sends ``decoders`` (:class:`SpecDecoder` objects) to every worker of
    ``client`` once; returns the future to pass to :func:`index_on_dask`.

    Each worker unpickles them once (the metadata bytes) and builds each
    runtime's registry on first use. Keep the future for as long as more
    runs will come: the workers keep the decoders, and their registries,
    while it lives.
    """
    [shared] = client.scatter([_decoder_tuple(decoders)], broadcast=True, hash=False)
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
    if isinstance(decoders, (SpecDecoder, list, tuple)):
        decoders = share_decoders(client, decoders)
    out = None if out is None else os.fspath(out)
    futures = client.map(index_range, list(ranges), decoders=decoders, source=source, out=out,
                         pure=False)
    results = client.gather(futures)
    if out is not None:
        return results
    pa = _pyarrow()
    return {name: pa.concat_tables([r[name] for r in results]) for name in TABLES}


# --- Spark ---------------------------------------------------------------------------------------

# Spark has no unsigned integers: each unsigned column becomes the signed
# type that holds all its values (u64 the signed 64-bit one, checked: a value
# of 2^63 or more fails the task, naming the column, instead of wrapping).
_SIGNED_FOR = {"uint8": "int16", "uint16": "int32", "uint32": "int64", "uint64": "int64"}


def _for_spark(table):
    """``table`` with every unsigned integer column cast to a signed type (a
    ``ValueError`` naming the column when a value does not fit)."""
    pa = _pyarrow()
    for i, field in enumerate(table.schema):
        signed = _SIGNED_FOR.get(str(field.type))
        if signed is None:
            continue
        try:
            column = table.column(i).cast(pa.type_for_alias(signed), safe=True)
        except pa.ArrowInvalid as e:
            raise ValueError(f"column {field.name!r} does not fit Spark's {signed}: {e}") from e
        table = table.set_column(i, field.with_type(column.type), column)
    return table


def share_decoders_spark(spark, decoders):
    """``decoders`` as a Spark broadcast variable, to pass to
    :func:`index_on_spark` and :func:`spark_table` (each Python worker process
    unpickles it once and builds each runtime's registry on first use)."""
    return spark.sparkContext.broadcast(_decoder_tuple(decoders))


def _broadcast(spark, decoders):
    if isinstance(decoders, (SpecDecoder, list, tuple)):
        return share_decoders_spark(spark, decoders)
    return decoders


def _ranges_frame(spark, ranges):
    """One row ``(first, last)`` per range, one range per partition (task)."""
    ranges = [(int(a), int(b)) for a, b in ranges]
    rdd = spark.sparkContext.parallelize(ranges, max(1, len(ranges)))
    return spark.createDataFrame(rdd, "first long, last long")


def _range_rows(batches):
    for rb in batches:
        yield from zip(rb.column("first").to_pylist(), rb.column("last").to_pylist())


_SUMMARY_SCHEMA = ("first long, last long, skipped boolean, pid long, parquet_bytes long, "
                   + ", ".join(f"{name} long" for name in TABLES) + ", built string")


def index_on_spark(spark, decoders, ranges, source, out):
    """Decodes block ``ranges`` on Spark, one task per range, each writing its
    range's Parquet partitions under ``out`` (a folder every executor sees;
    finished partitions are skipped on a rerun). Returns the per-task
    summaries as dicts, ranges in the given order; ``built`` is the task's
    process's ``index_decoder_stats()["built"]`` as JSON.

    ``decoders``: :class:`SpecDecoder` objects or the broadcast
    :func:`share_decoders_spark` returned; ``source``: a picklable
    ``source(first, last) -> blocks`` such as :class:`JsonLinesSource`.
    """
    pa = _pyarrow()
    shared = _broadcast(spark, decoders)
    out = os.fspath(out)

    def run(batches):
        for first, last in _range_rows(batches):
            summary = index_range((first, last), shared.value, source, out)
            row = {key: summary.get(key) for key in ("first", "last", "skipped", "pid", "parquet_bytes")}
            row.update({name: summary.get(name) for name in TABLES})
            row["built"] = json.dumps(index_decoder_stats()["built"], sort_keys=True)
            yield pa.RecordBatch.from_pylist([row])

    rows = _ranges_frame(spark, ranges).mapInArrow(run, _SUMMARY_SCHEMA).collect()
    order = {(int(a), int(b)): i for i, (a, b) in enumerate(ranges)}
    return sorted((r.asDict() for r in rows), key=lambda r: order[(r["first"], r["last"])])


def spark_table(spark, decoders, ranges, source, name):
    """Table ``name`` (one of :data:`TABLES`) of block ``ranges`` as a lazy
    Spark DataFrame: each range is decoded by one task when the frame is
    computed. Unsigned columns are signed (see the module's Spark notes)."""
    if name not in TABLES:
        raise ValueError(f"no table {name!r}; the tables are {', '.join(TABLES)}")
    # pyspark is there when a SparkSession is; loaded here, not on import.
    from_arrow_schema = importlib.import_module("pyspark.sql.pandas.types").from_arrow_schema
    pa = _pyarrow()
    shared = _broadcast(spark, decoders)
    empty = _for_spark(pa.table(decode_blocks([], list(shared.value)).table(name)))
    schema = from_arrow_schema(empty.schema)

    def run(batches):
        for first, last in _range_rows(batches):
            batch = decode_blocks(source(first, last), shared.value)
            yield from _for_spark(pa.table(batch.table(name))).to_batches()

    return _ranges_frame(spark, ranges).mapInArrow(run, schema)
