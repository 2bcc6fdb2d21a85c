"""Columnar decoding: blocks into Arrow tables and Parquet, locally or on Dask.

The engine is Rust (``scalecodec._core``, the ``ferroscale-index`` crate);
this module only names it and maps it over a cluster.

Locally::

    from scalecodec.index import SpecDecoder, decode_blocks
    import pyarrow as pa

    decoder = SpecDecoder(metadata_bytes)           # one runtime (V14+; V9-V13: presets=[...])
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
import time

from ._core import (  # noqa: F401
    ArrowTable,
    IndexBatch,
    SpecDecoder,
    block_ranges,
    decode_blocks,
    index_json_lines,
    index_decoder_stats,
    check_index,
    keep_freed_memory,
    missing_blocks,
    read_blocks,
    typed_table_schema,
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


def index_range(block_range, decoders, source, out=None, allow_gaps=False, typed=False):
    """One task: decode the blocks of ``block_range`` from ``source``.

    With ``out``, writes the blocks of the range that the output's manifest
    does not list as done (a partition per run of them; none when all are
    done) and returns a summary dict; without, returns the tables as pyarrow
    tables by name. Every block of the range must come from ``source``
    (``allow_gaps``: a sample, whose missing blocks are recorded as absent):
    a block missing raises ``ValueError`` naming it, and nothing of that run
    is marked done.

    ``typed``: the typed tables too, written under ``out/typed/`` as the
    command line's ``--typed`` writes them (their columns named over every
    decoder given, so the ranges of one run agree column for column,
    starting from the names the folder's earlier runs gave, which are kept),
    or returned as ``"typed/<kind>/<Pallet>.<item>"`` pyarrow tables.
    """
    first, last = block_range
    if out is None:
        batch = decode_blocks(source(first, last), decoders, typed=typed)
        got = batch.num_rows["blocks"]
        if not allow_gaps and got != last - first + 1:
            raise ValueError(f"blocks {first}..={last}: the source gave {got} of "
                             f"{last - first + 1} blocks")
        tables = to_pyarrow(batch)
        if typed:
            pa = _pyarrow()
            tables.update({f"typed/{name}": pa.table(t)
                           for name, t in batch.typed_tables().items()})
        return tables
    summary = {"first": first, "last": last, "skipped": True, "pid": os.getpid(),
               "parquet_bytes": 0}
    summary.update({name: 0 for name in TABLES})
    if typed:
        summary["typed_errors"] = 0
    for a, b in missing_blocks(out, first, last):
        batch = decode_blocks(source(a, b), decoders, typed=typed,
                              names_of=os.fspath(out) if typed else None)
        summary["parquet_bytes"] += batch.write_parquet(out, a, b, source=repr(source),
                                                        allow_gaps=allow_gaps)
        summary["skipped"] = False
        for name, rows in batch.num_rows.items():
            summary[name] += rows
        if typed:
            summary["typed_errors"] += batch.typed_errors
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


class PartitionsFailed(Exception):
    """Some block ranges of a distributed run failed after their retries.

    ``outcomes`` holds every range's outcome, in the order given: the
    summary dict of each range that finished (its files and manifest entry
    written), and for each that failed ``{"first", "last", "error"}``. What
    finished is kept: a rerun writes only what is missing.
    """

    def __init__(self, outcomes):
        self.outcomes = outcomes
        failed = [o for o in outcomes if "error" in o]
        shown = "; ".join(f"blocks {o['first']}..={o['last']}: {o['error']}" for o in failed[:3])
        more = f" (and {len(failed) - 3} more)" if len(failed) > 3 else ""
        super().__init__(f"{len(failed)} of {len(outcomes)} block ranges failed: {shown}{more}")


def _raise_failed(outcomes):
    if any("error" in o for o in outcomes):
        raise PartitionsFailed(outcomes)
    return outcomes


def index_on_dask(client, decoders, ranges, source, out=None, allow_gaps=False, retries=2,
                  typed=False):
    """Decodes block ``ranges`` on a ``distributed`` cluster.

    ``decoders``: the future :func:`share_decoders` returned, or
    :class:`SpecDecoder` objects (every runtime the ranges use; shared for
    this run only); ``ranges``: ``(first, last)`` pairs (see
    :func:`block_ranges`), one task each; ``source``: a picklable callable
    ``(first, last) -> blocks`` such as :class:`JsonLinesSource`.

    A task that fails (a source error, a worker that died) is run again up
    to ``retries`` times; a range that still fails makes the call raise
    :class:`PartitionsFailed`, which holds every range's outcome.

    With ``out`` (a folder every worker sees), each task writes its range's
    Parquet partition (``out/<table>/blocks_<first>_<last>.parquet``, and its
    entry in ``out/_manifest``; blocks the manifest has are skipped on a
    rerun, whatever the ranges were then) and the per-task summaries are
    returned. Without it, the tables come back to the client as
    ``pyarrow.Table`` objects by name, ranges in the given order.

    ``typed``: the typed tables too (see :func:`index_range`): written under
    ``out/typed/`` as ``ferroscale index --typed`` writes them, or, without
    ``out``, returned as ``"typed/<kind>/<Pallet>.<item>"`` tables, each the
    ranges' tables joined by column name.
    """
    if isinstance(decoders, (SpecDecoder, list, tuple)):
        decoders = share_decoders(client, decoders)
    out = None if out is None else os.fspath(out)
    ranges = list(ranges)
    futures = client.map(index_range, ranges, decoders=decoders, source=source, out=out,
                         allow_gaps=allow_gaps, typed=typed, pure=False, retries=retries)
    # Every task's outcome, failed or not: gathering stops at the first
    # failure and would lose the summaries of the ranges that finished.
    importlib.import_module("distributed").wait(futures)
    outcomes = []
    for (first, last), future in zip(ranges, futures):
        if future.status == "finished":
            outcomes.append(future.result())
        else:
            outcomes.append({"first": first, "last": last, "error": repr(future.exception())})
    _raise_failed(outcomes)
    if out is not None:
        return outcomes
    return _concat_outcomes(outcomes)


def _concat_outcomes(outcomes):
    """The tables of every range, each joined over the ranges; a typed table
    by column name (a range whose runtimes lack a column has it NULL)."""
    pa = _pyarrow()
    tables = {name: pa.concat_tables([r[name] for r in outcomes]) for name in TABLES}
    typed = sorted({name for r in outcomes for name in r if name.startswith("typed/")})
    for name in typed:
        parts = [r[name] for r in outcomes if name in r]
        tables[name] = pa.concat_tables(parts, promote_options="default")
    return tables


def _index_with_retries(block_range, decoders, source, out, allow_gaps, retries, typed=False):
    """:func:`index_range` tried up to ``1 + retries`` times in this process
    (Spark's local mode does not retry a failed task), waiting 0.2 s, 0.4 s
    … between tries; the summary, or ``{"first", "last", "error"}``."""
    first, last = block_range
    for attempt in range(retries + 1):
        try:
            return index_range(block_range, decoders, source, out, allow_gaps, typed)
        except Exception as e:  # noqa: BLE001 - reported as the range's outcome
            error = repr(e)
            if attempt < retries:
                time.sleep(0.2 * 2 ** attempt)
    return {"first": first, "last": last, "error": error}


# --- Spark ---------------------------------------------------------------------------------------

# Spark has no unsigned integers: each unsigned column becomes the signed
# type that holds all its values (u64 the signed 64-bit one, checked: a value
# of 2^63 or more fails the task, naming the column, instead of wrapping).
_SIGNED_FOR = {"uint8": "int16", "uint16": "int32", "uint32": "int64", "uint64": "int64"}


def _spark_type(t):
    """The Arrow type Spark can read for ``t``, at any depth: an unsigned
    integer signed (:data:`_SIGNED_FOR`), an enum label (dictionary) its
    text, fixed-size binary (hashes, 20-byte accounts) binary; structs and
    lists of such types in kind."""
    pa = _pyarrow()
    if pa.types.is_dictionary(t):
        return _spark_type(t.value_type)
    if pa.types.is_fixed_size_binary(t):
        return pa.binary()
    if pa.types.is_struct(t):
        return pa.struct([t.field(i).with_type(_spark_type(t.field(i).type))
                          for i in range(t.num_fields)])
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(_spark_type(t.value_type)))
    signed = _SIGNED_FOR.get(str(t))
    return t if signed is None else pa.type_for_alias(signed)


def _for_spark(table, schema=None):
    """``table`` with the columns of ``schema`` (default: its own), each in
    the type Spark reads (:func:`_spark_type`); a column ``table`` lacks (a
    typed table's column of another runtime) is NULL. A ``ValueError``
    names the column when a value does not fit."""
    pa = _pyarrow()
    schema = table.schema if schema is None else schema
    fields, columns = [], []
    for field in schema:
        target = _spark_type(field.type)
        if field.name not in table.column_names:
            column = pa.nulls(table.num_rows, target)
        else:
            column = table.column(field.name)
        if column.type != target:
            try:
                column = column.cast(target, safe=True)
            except pa.ArrowInvalid as e:
                raise ValueError(f"column {field.name!r} does not fit Spark's {target}: {e}") from e
        fields.append(field.with_type(target))
        columns.append(column)
    return pa.table(columns, schema=pa.schema(fields))


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
                   + ", ".join(f"{name} long" for name in TABLES)
                   + ", typed_errors long, built string, error string")


def index_on_spark(spark, decoders, ranges, source, out, allow_gaps=False, retries=2,
                   typed=False):
    """Decodes block ``ranges`` on Spark, one task per range, each writing its
    range's Parquet partitions under ``out`` (a folder every executor sees;
    blocks the manifest has are skipped on a rerun). Returns the per-task
    summaries as dicts, ranges in the given order; ``built`` is the task's
    process's ``index_decoder_stats()["built"]`` as JSON.

    ``decoders``: :class:`SpecDecoder` objects or the broadcast
    :func:`share_decoders_spark` returned; ``source``: a picklable
    ``source(first, last) -> blocks`` such as :class:`JsonLinesSource`.

    A range that fails is tried again in its task up to ``retries`` times;
    one that still fails is reported, not fatal to the others: the call
    raises :class:`PartitionsFailed` with every range's outcome.

    ``typed``: the typed tables too, written under ``out/typed/`` as
    ``ferroscale index --typed`` writes them (``typed_errors`` in each
    summary: the events and calls that did not fit their typed table, each
    an ``errors`` row). Read a typed table's folder with
    ``spark.read.option("mergeSchema", "true").parquet(folder)``.
    """
    pa = _pyarrow()
    shared = _broadcast(spark, decoders)
    out = os.fspath(out)
    # Typed, not inferred: a column of None (no range failed) would be
    # Arrow's null type, which Spark cannot read as the string it declared.
    schema = pa.schema(
        [(key, pa.int64()) for key in ("first", "last")] + [("skipped", pa.bool_())]
        + [(key, pa.int64()) for key in ("pid", "parquet_bytes", *TABLES, "typed_errors")]
        + [("built", pa.string()), ("error", pa.string())])

    def run(batches):
        for first, last in _range_rows(batches):
            summary = _index_with_retries((first, last), shared.value, source, out, allow_gaps,
                                          retries, typed)
            keys = ("first", "last", "skipped", "pid", "parquet_bytes", "typed_errors", "error")
            row = {key: summary.get(key) for key in keys}
            row.update({name: summary.get(name) for name in TABLES})
            row["built"] = json.dumps(index_decoder_stats()["built"], sort_keys=True)
            yield pa.RecordBatch.from_pylist([row], schema=schema)

    rows = _ranges_frame(spark, ranges).mapInArrow(run, _SUMMARY_SCHEMA).collect()
    order = {(int(a), int(b)): i for i, (a, b) in enumerate(ranges)}
    outcomes = sorted((r.asDict() for r in rows), key=lambda r: order[(r["first"], r["last"])])
    for o in outcomes:
        if o["error"] is None:
            del o["error"]
        if not typed:
            del o["typed_errors"]
    return _raise_failed(outcomes)


def spark_table(spark, decoders, ranges, source, name, typed=False):
    """Table ``name`` (one of :data:`TABLES`) of block ``ranges`` as a lazy
    Spark DataFrame: each range is decoded by one task when the frame is
    computed. Unsigned columns are signed (see the module's Spark notes).

    ``typed``: ``name`` is a typed table's, as :meth:`IndexBatch.typed_tables`
    names them (``events/Balances.Transfer``, ``calls/Timestamp.set``). The
    frame has its columns over every runtime of ``decoders``
    (:func:`typed_table_schema`): a row's column its runtime lacks is NULL.
    Types Spark lacks are the nearest it has: unsigned integers signed, enum
    labels (dictionaries) their text, fixed-size binary binary; decimals
    stay ``decimal(38,0)``."""
    if not typed and name not in TABLES:
        raise ValueError(f"no table {name!r}; the tables are {', '.join(TABLES)}")
    # pyspark is there when a SparkSession is; loaded here, not on import.
    from_arrow_schema = importlib.import_module("pyspark.sql.pandas.types").from_arrow_schema
    pa = _pyarrow()
    shared = _broadcast(spark, decoders)
    if typed:
        columns = pa.table(typed_table_schema(list(shared.value), name)).schema
    else:
        columns = pa.table(decode_blocks([], list(shared.value)).table(name)).schema
    schema = from_arrow_schema(_for_spark(columns.empty_table()).schema)

    def run(batches):
        for first, last in _range_rows(batches):
            batch = decode_blocks(source(first, last), shared.value, typed=typed)
            if typed:
                found = batch.typed_tables().get(name)
                if found is None:
                    continue  # no event or call of this table in the range
                table = pa.table(found)
            else:
                table = pa.table(batch.table(name))
            yield from _for_spark(table, columns).to_batches()

    return _ranges_frame(spark, ranges).mapInArrow(run, schema)
