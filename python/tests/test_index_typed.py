"""Typed tables from Python: ``decode_blocks(..., typed=True)`` gives a
table per event variant and per call with a column per field, reaching
pyarrow without a copy; a transfer's amount is a decimal that sums exactly
and equals the amount in the generic ``events`` table's JSON, and
``index_json_lines(..., typed=True)`` writes them under ``out/typed/``."""
import json
from decimal import Decimal

import pyarrow as pa
import pyarrow.parquet as pq

from test_index import decoders, real_blocks
from scalecodec.index import decode_blocks, index_json_lines


def test_typed_tables_hold_the_fields_in_arrow_types():
    batch = decode_blocks(real_blocks(), decoders(), typed=True)
    typed = batch.typed_tables()
    assert "events/Balances.Transfer" in typed and "calls/Timestamp.set" in typed
    assert decode_blocks(real_blocks(), decoders()).typed_tables() == {}

    transfers = pa.table(typed["events/Balances.Transfer"])
    assert transfers.schema.field("amount").type == pa.decimal128(38, 0)
    assert transfers.schema.field("from").type == pa.string()
    assert transfers.column("amount__text").null_count == transfers.num_rows

    # The same transfers in the generic table, as JSON.
    events = pa.table(batch.table("events")).to_pylist()
    generic = [
        (e["index"], json.loads(e["args"]))
        for e in events
        if (e["pallet"], e["name"]) == ("Balances", "Transfer")
    ]
    rows = transfers.to_pylist()
    assert [r["event_index"] for r in rows] == [i for i, _ in generic]
    for r, (_, args) in zip(rows, generic):
        assert (r["from"], r["to"], r["amount"]) == (args["from"], args["to"], Decimal(args["amount"]))

    now = pa.table(typed["calls/Timestamp.set"])
    assert now.schema.field("now").type == pa.uint64()
    assert sorted(now.column("spec_version").to_pylist()) == [9180, 1_000_001]


def test_index_json_lines_writes_typed_partitions(tmp_path):
    source = tmp_path / "blocks.jsonl"
    with open(source, "w") as f:
        for number, hash_, spec, xts, events in real_blocks():
            f.write(json.dumps({
                "number": number, "hash": hash_, "spec_version": spec,
                "extrinsics": ["0x" + x.hex() for x in xts],
                "events": None if events is None else "0x" + events.hex(),
            }) + "\n")
    out = tmp_path / "out"
    index_json_lines(source, decoders(), out, partition_blocks=100_000_000, allow_gaps=True, typed=True)
    files = sorted((out / "typed" / "events" / "Balances.Transfer").glob("*.parquet"))
    assert [f.name for f in files] == ["blocks_10000000_18468942.parquet"]
    table = pq.read_table(files[0])
    assert table.num_rows == 2
    assert b"ferroscale.typed" in table.schema.metadata


# --- a range across a runtime upgrade, in partitions -------------------------------------------

def typed_canonical(table):
    """A typed table's rows in a fixed order (decimals and bytes as text)."""
    return sorted(json.dumps(r, sort_keys=True, default=str) for r in table.to_pylist())


def typed_folders(out):
    """Every typed table's folder under ``out``, by ``<kind>/<Pallet>.<item>``."""
    return {f"{d.parent.name}/{d.name}": d for d in sorted((out / "typed").glob("*/*"))}


def read_folder(folder):
    """A typed table's partitions as one pyarrow table: the files' schemas
    unified by column name (what ``union_by_name`` does)."""
    import pyarrow.dataset as ds
    files = sorted(folder.glob("*.parquet"))
    schemas = [pq.read_schema(f) for f in files]
    # A name holds one type in every file, or the union would cast.
    types = {}
    for s in schemas:
        for field in s:
            assert types.setdefault(field.name, field.type) == field.type, (folder, field)
    schema = pa.unify_schemas([s.remove_metadata() for s in schemas])
    return ds.dataset([str(f) for f in files], schema=schema).to_table()


def test_a_range_across_the_upgrade_in_partitions_reads_back_as_one_table_per_item(tmp_path):
    """Blocks of spec 9180 then of spec 1000001, one partition per two
    blocks (each partition one runtime) and one partition for all: every
    typed table read with pyarrow (schemas unified by name) and with DuckDB
    (``union_by_name=true``) is the one partition's table, row for row."""
    import duckdb
    from index_cluster import WIDTH, write_source
    source = write_source(tmp_path / "blocks.jsonl")
    split = index_json_lines(source, decoders(), tmp_path / "split", partition_blocks=WIDTH,
                             allow_gaps=True, typed=True)
    whole = index_json_lines(source, decoders(), tmp_path / "whole", partition_blocks=10 ** 9,
                             allow_gaps=True, typed=True)
    assert (split["partitions"], whole["partitions"]) == (6, 1)
    assert split["errors"] == whole["errors"] == split["typed_errors"] == 0
    a, b = typed_folders(tmp_path / "split"), typed_folders(tmp_path / "whole")
    assert a.keys() == b.keys()
    both = []
    for name, folder in a.items():
        one = pq.read_table(next(b[name].glob("*.parquet")))
        joined = read_folder(folder)
        assert sorted(joined.column_names) == sorted(one.column_names), name
        assert typed_canonical(joined) == typed_canonical(one), name
        glob = str(folder / "*.parquet")
        rows = duckdb.sql(f"SELECT count(*), count(DISTINCT spec_version) FROM "
                          f"read_parquet('{glob}', union_by_name=true)").fetchall()[0]
        assert rows[0] == one.num_rows, name
        if rows[1] == 2:
            both.append(name)
    assert {"calls/Timestamp.set", "calls/ParaInherent.enter"} <= set(both), both
    # Timestamp.set over both runtimes: one `now` column, summed by DuckDB.
    glob = str(a["calls/Timestamp.set"] / "*.parquet")
    per_spec = duckdb.sql(f"SELECT spec_version, count(*), min(now) FROM read_parquet('{glob}', "
                          f"union_by_name=true) GROUP BY 1 ORDER BY 1").fetchall()
    assert [(s, n) for s, n, _ in per_spec] == [(9180, 4), (1_000_001, 8)]
    # Columns are named over every runtime given, whichever a partition's
    # rows use: ExtrinsicSuccess's dispatch_info changed type after spec
    # 9180, so spec 1000001's is `dispatch_info__v1000001` in every file,
    # although only spec 1000001 blocks have events here.
    for out in ("split", "whole"):
        for f in (tmp_path / out / "typed/events/System.ExtrinsicSuccess").glob("*.parquet"):
            names = pq.read_schema(f).names
            assert "dispatch_info__v1000001" in names and "dispatch_info" not in names, (f, names)


def assert_same_typed_partitions(out, reference):
    """Every typed table under ``out`` has ``reference``'s files, rows and
    (byte for byte) Arrow schemas."""
    a, b = typed_folders(out), typed_folders(reference)
    assert a.keys() == b.keys() and a, (a.keys(), b.keys())
    for name in a:
        files = sorted(p.name for p in a[name].glob("*.parquet"))
        assert files == sorted(p.name for p in b[name].glob("*.parquet")), name
        for f in files:
            x, y = pq.read_table(a[name] / f), pq.read_table(b[name] / f)
            assert x.schema.metadata == y.schema.metadata and x.schema == y.schema, (name, f)
            assert typed_canonical(x) == typed_canonical(y), (name, f)


def test_dask_writes_the_typed_partitions_of_the_command_line(tmp_path):
    from distributed import Client, LocalCluster
    from index_cluster import source_and_reference
    from scalecodec.index import JsonLinesSource, index_on_dask
    source, ranges = source_and_reference(tmp_path)
    reference = index_json_lines(source, decoders(), tmp_path / "reference", partition_blocks=2,
                                 allow_gaps=True, typed=True)
    assert reference["partitions"] == len(ranges)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      worker_dashboard_address=None) as cluster, Client(cluster) as client:
        summaries = index_on_dask(client, decoders(), ranges, JsonLinesSource(source),
                                  out=tmp_path / "dask", typed=True)
        tables = index_on_dask(client, decoders(), ranges, JsonLinesSource(source), typed=True)
    assert [s["typed_errors"] for s in summaries] == [0] * len(ranges)
    assert_same_typed_partitions(tmp_path / "dask", tmp_path / "reference")
    # Returned, each typed table is the ranges' tables joined by name.
    for name, folder in typed_folders(tmp_path / "reference").items():
        assert typed_canonical(tables[f"typed/{name}"]) == typed_canonical(read_folder(folder)), name


def events_9180(n):
    """``System.Events`` of a spec 9180 block of ``n`` extrinsics (the fixture
    has none for block 10,000,000): an ``ExtrinsicSuccess`` each, written in
    spec 9180's types (phase ``ApplyExtrinsic(i)``, ``DispatchInfo { weight:
    u64, class: Mandatory, pays_fee: Yes }``, no topics), as the Rust
    ``typed_upgrade`` test writes them. Its ``dispatch_info`` is another Arrow
    type in spec 1000001 (``weight`` became a struct)."""
    v = bytearray([n << 2])
    for i in range(n):
        v += b"\x00" + i.to_bytes(4, "little") + b"\x00\x00"
        v += (1_000_000 * (i + 1)).to_bytes(8, "little") + b"\x02\x00" + b"\x00"
    return bytes(v)


def test_a_later_range_into_the_folder_keeps_its_column_names(tmp_path):
    """``index_range`` over blocks of spec 1000001 (its decoder alone), then
    over blocks of spec 9180 into the same folder (both decoders): the names
    the folder's files have are kept (saved in its manifest), spec 9180's
    retyped ``dispatch_info`` gets a column of its own, and every column holds
    one type in every file. Alone, the earlier range names spec 9180's field
    ``dispatch_info``."""
    from test_index import stand_in_hash
    from scalecodec.index import index_range
    (_, _, _, xt_10m, _), (_, _, _, xt_18m, events) = real_blocks()
    blocks = {n: (n, stand_in_hash(n), 9180, xt_10m, events_9180(len(xt_10m))) for n in (100, 101)}
    blocks.update({n: (n, stand_in_hash(n), 1_000_001, xt_18m, events) for n in (200, 201)})

    def source(first, last):
        return [blocks[n] for n in range(first, last + 1) if n in blocks]

    d9180, d1000001 = decoders()
    out, alone = tmp_path / "out", tmp_path / "alone"
    assert index_range((200, 201), [d1000001], source, out, typed=True)["errors"] == 0
    assert index_range((100, 101), [d9180, d1000001], source, out, typed=True)["errors"] == 0
    assert index_range((100, 101), [d9180, d1000001], source, alone, typed=True)["errors"] == 0

    def column_types(folder):
        types = {}
        for f in sorted(folder.glob("typed/events/System.ExtrinsicSuccess/*.parquet")):
            for field in pq.read_schema(f):
                types.setdefault(field.name, set()).add(str(field.type))
        return types

    own = column_types(alone)
    assert "dispatch_info" in own and "dispatch_info__v9180" not in own, own
    kept = column_types(out)
    assert all(len(t) == 1 for t in kept.values()), kept
    assert kept["dispatch_info"] != own["dispatch_info"], "spec 1000001's type kept the name"
    assert kept["dispatch_info__v9180"] == own["dispatch_info"], kept
    assert (out / "_manifest" / "typed_columns.json").is_file()


def test_a_legacy_runtime_decodes_through_its_presets():
    """Polkadot block 5,000,000 (V12 metadata, spec 30): its type strings
    resolve through py-scale-codec's presets, given to the decoder; the
    generic and typed tables hold what the module's own decode of each
    extrinsic gives, and the decoder pickles with its presets."""
    import pickle

    import pytest
    from conftest import read, read_json
    from test_index import stand_in_hash
    from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
    from scalecodec.index import SpecDecoder
    from scalecodec.type_registry import load_type_registry_preset

    meta = read("metadata/polkadot-v12-spec30.scale")
    presets = ["core", "legacy", "polkadot"]
    with pytest.raises(ValueError, match="presets"):
        SpecDecoder(meta)
    decoder = SpecDecoder(meta, presets=presets)
    assert (decoder.spec_version, decoder.presets) == (30, presets)
    again = pickle.loads(pickle.dumps(decoder))
    assert again.presets == presets and not again.built

    xts = [bytes.fromhex(x[2:]) for x in read_json("payloads/polkadot-block-5000000/extrinsics.json")]
    blocks = [(5_000_000, stand_in_hash(5_000_000), 30, xts, None)]
    batch = decode_blocks(blocks, [again], typed=True)
    assert pa.table(batch.table("errors")).num_rows == 0
    rows = pa.table(batch.table("extrinsics")).to_pylist()
    assert len(rows) == len(xts)

    rc = RuntimeConfigurationObject(ss58_format=0)  # the index renders Polkadot's addresses
    for name in presets:
        rc.update_type_registry(load_type_registry_preset(name))
    rc.set_active_spec_version_id(30)
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(meta))
    md.decode()
    for row in rows:
        v = rc.create_scale_object("Extrinsic", data=ScaleBytes(xts[row["index"]]), metadata=md).decode()
        assert (row["pallet"], row["call"]) == (v["call"]["call_module"], v["call"]["call_function"])
        assert json.loads(row["args"]) == json.loads(json.dumps(v["call"]["call_args"]))

    now = pa.table(batch.typed_tables()["calls/Timestamp.set"]).to_pylist()
    timestamp = next(r for r in rows if (r["pallet"], r["call"]) == ("Timestamp", "set"))
    assert [r["now"] for r in now] == [json.loads(timestamp["args"])[0]["value"]]


def write_typed_events(metadata_file, ss58_format, events, out):
    """``events`` (pallet, event, its fields' values) as one block's event
    records (phase Finalization, no topics), each field encoded by the
    module's own encoder for its registry type, decoded into the typed
    tables without an error row and written as Parquet under ``out``."""
    from conftest import config_with_metadata, read
    from test_index import stand_in_hash
    from scalecodec.index import SpecDecoder

    rc, metadata = config_with_metadata(metadata_file, presets=(), ss58_format=ss58_format)

    def record(pallet_name, event_name, values):
        pallet = metadata.get_metadata_pallet(pallet_name)
        event = next(e.value for e in pallet.events if e.value["name"] == event_name)
        fields = b"".join(
            bytes(rc.create_scale_object(f"scale_info::{f['type']}").encode(values[f["name"]]).data)
            for f in event["fields"])
        return b"\x01" + bytes([pallet.value["index"], event["index"]]) + fields + b"\x00"

    records = [record(*e) for e in events]
    assert len(records) < 64  # one byte of compact length
    decoder = SpecDecoder(read(metadata_file), ss58_format=ss58_format)
    block = {"number": 1, "hash": stand_in_hash(1), "spec_version": decoder.spec_version,
             "extrinsics": [],
             "events": "0x" + bytes([len(records) << 2]).hex() + b"".join(records).hex()}
    batch = decode_blocks([block], [decoder], typed=True)
    assert pa.table(batch.table("errors")).num_rows == 0
    batch.write_parquet(out)


def rows_by_reader(folder, columns):
    """The ``columns`` of the Parquet files in ``folder``, row by row in
    event order, as pyarrow, DuckDB and Polars each read them."""
    import duckdb
    import polars as pl

    table = pq.read_table(folder).sort_by("event_index")
    names = ", ".join(f'"{c}"' for c in columns)
    return {
        "pyarrow": [tuple(r[c] for c in columns) for r in table.to_pylist()],
        "duckdb": duckdb.sql(f"SELECT {names} FROM '{folder}/*.parquet' "
                             f"ORDER BY event_index").fetchall(),
        "polars": list(pl.read_parquet(f"{folder}/*.parquet").sort("event_index")
                       .select(columns).iter_rows()),
    }


def test_edge_values_read_back_exactly_through_duckdb_polars_and_pyarrow(tmp_path):
    """Karura spec 2032's `Currencies` events hold a u128 (`Transferred`)
    and an i128 (`BalanceUpdated`): events with the edge values, encoded by
    the module's own encoder, go through the typed tables into Parquet and
    come back exact from DuckDB, Polars and pyarrow: the decimal below
    10^38, the `__text` column's digits from there (u128::MAX, i128::MIN)."""
    who = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
    limit = 10 ** 38
    unsigned = [0, 1, limit - 1, limit, 2 ** 128 - 1]
    signed = [-2 ** 127, -(limit - 1), -limit, -1, 0, limit - 1, limit, 2 ** 127 - 1]
    events = [("Currencies", "Transferred",
               {"currency_id": {"Token": "KAR"}, "from": who, "to": who, "amount": v})
              for v in unsigned]
    events += [("Currencies", "BalanceUpdated",
                {"currency_id": {"Token": "KAR"}, "who": who, "amount": v}) for v in signed]
    write_typed_events("metadata/karura-v14-spec2032.scale", 8, events, tmp_path)

    def exact(decimal, text):
        return int(decimal) if decimal is not None else int(text)

    for name, expected in [("Transferred", unsigned), ("BalanceUpdated", signed)]:
        folder = tmp_path / "typed" / "events" / f"Currencies.{name}"
        table = pq.read_table(folder).sort_by("event_index")
        assert table.schema.field("amount").type == pa.decimal128(38, 0)
        for reader, rows in rows_by_reader(folder, ["amount", "amount__text"]).items():
            assert [exact(d, t) for d, t in rows] == expected, (name, reader)
        # Within 10^38 the decimal column alone holds the value.
        assert [r["amount__text"] is None for r in table.to_pylist()] == [abs(v) < limit for v in expected]


def test_nested_values_read_back_alike_through_duckdb_polars_and_pyarrow(tmp_path):
    """Polkadot spec 1000001's events with empty and full lists, an option of
    a tuple as None and Some, nested enums with data (`DispatchResult`'s
    `Err(Module {..})`, `Err(BadOrigin)`, `Err(Token(..))`), an optional
    fixed-size array and empty bytes, encoded by the module's own encoder,
    come back from Parquet the same from DuckDB, Polars and pyarrow, and as
    they went in."""
    who = "15gq3Ln9s8jVTyHqwX8WYf8Nwu3maJo946fCHDNS5ePFFZVq"
    results = [(None, {"Ok": None}),
               ("0x" + "ab" * 32, {"Err": {"Module": {"index": 5, "error": "0x02000000"}}}),
               (None, {"Err": "BadOrigin"}),
               (None, {"Err": {"Token": "FundsUnavailable"}})]
    events = [("FastUnstake", "BatchChecked", {"eras": v}) for v in ([], [0, 2 ** 32 - 1])]
    events += [("NominationPools", "PoolCommissionUpdated", {"pool_id": 7, "current": v})
               for v in (None, (10 ** 9, who))]
    events += [("Scheduler", "Dispatched", {"task": (1, 2), "id": i, "result": r})
               for i, r in results]
    events += [("Crowdloan", "MemoUpdated", {"who": who, "para_id": 2000, "memo": v})
               for v in ("0x", "0x00ff")]
    write_typed_events("metadata/polkadot-v14-spec1000001.scale", 0, events, tmp_path)

    def err(variant, **data):
        row = {"variant": variant, "Module": None, "Token": None, "Arithmetic": None,
               "Transactional": None}
        return {"variant": "Err", "Ok": None, "Err": {**row, **data}}

    expected = {
        "FastUnstake.BatchChecked": [([],), ([0, 2 ** 32 - 1],)],
        "NominationPools.PoolCommissionUpdated": [(7, None), (7, {"_0": 10 ** 9, "_1": who})],
        "Scheduler.Dispatched": [
            ({"_0": 1, "_1": 2}, None, {"variant": "Ok", "Ok": "[]", "Err": None}),
            ({"_0": 1, "_1": 2}, b"\xab" * 32,
             err("Module", Module={"index": 5, "error": b"\x02\x00\x00\x00"})),
            ({"_0": 1, "_1": 2}, None, err("BadOrigin")),
            ({"_0": 1, "_1": 2}, None, err("Token", Token="FundsUnavailable")),
        ],
        "Crowdloan.MemoUpdated": [(who, 2000, b""), (who, 2000, b"\x00\xff")],
    }
    place = {"block_number", "block_hash", "extrinsic_index", "event_index", "phase", "spec_version"}
    for name, rows in expected.items():
        folder = tmp_path / "typed" / "events" / name
        data = [c for c in pq.read_schema(next(folder.glob("*.parquet"))).names if c not in place]
        for reader, values in rows_by_reader(folder, data).items():
            assert values == rows, (name, reader)
