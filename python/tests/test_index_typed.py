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
