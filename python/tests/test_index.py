"""Columnar decoding from Python over real Polkadot blocks (10,000,000 on spec
9180, 18,468,942 on spec 1000001 with its 58 events): the tables reach
pyarrow through the Arrow PyCapsule interface without a copy, every JSON
column equals the value the module's own py-scale-codec API decodes for that
item, decoding releases the GIL, decoders pickle as their metadata and build
their registry once per process, the Parquet written equals the pipeline's,
and bad input is an error naming the block or a row of ``errors``."""
import hashlib
import json
import pickle
import subprocess
import sys
import threading
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import config_with_metadata, read, read_hex, read_json
from scalecodec.base import ScaleBytes
from scalecodec.index import (
    SpecDecoder,
    TABLES,
    decode_blocks,
    index_json_lines,
    check_index,
    index_decoder_stats,
    read_blocks,
    to_pyarrow,
)

META_9180 = "metadata/polkadot-v14-spec9180.scale"
META_1000001 = "metadata/polkadot-v14-spec1000001.scale"


def stand_in_hash(number: int) -> str:
    """The fixtures carry no header: the number's blake2-256, as the Rust tests use."""
    return "0x" + hashlib.blake2b(number.to_bytes(8, "little"), digest_size=32).hexdigest()


def real_blocks():
    """The two real blocks as tuples (number, hash, spec, extrinsics, events)."""
    xt_10m = [bytes.fromhex(x[2:]) for x in read_json("payloads/polkadot-block-10000000/extrinsics.json")]
    xt_18m = [bytes.fromhex(x[2:]) for x in read_json("payloads/polkadot-block-18468942/extrinsics.json")]
    events = read_hex("payloads/polkadot-block-18468942/events.hex")
    return [
        (10_000_000, stand_in_hash(10_000_000), 9180, xt_10m, None),
        (18_468_942, stand_in_hash(18_468_942), 1_000_001, xt_18m, events),
    ]


def decoders():
    return [SpecDecoder(read(META_9180)), SpecDecoder(read(META_1000001))]


def as_json(value):
    """A Python value as the JSON document it renders to (tuples become lists)."""
    return json.loads(json.dumps(value))


def canonical(table):
    """A table's rows in a fixed order, whatever order they were written in."""
    return sorted(json.dumps(r, sort_keys=True) for r in table.to_pylist())


def test_tables_reach_pyarrow_and_equal_the_dynamic_values():
    blocks = real_blocks()
    batch = decode_blocks(blocks, decoders())
    tables = to_pyarrow(batch)
    assert set(tables) == set(TABLES) == set(batch.tables)
    assert batch.num_rows == {name: t.num_rows for name, t in tables.items()}
    assert tables["errors"].num_rows == 0, tables["errors"].to_pylist()
    assert (batch.first_block, batch.last_block) == (10_000_000, 18_468_942)

    b = tables["blocks"].to_pylist()
    assert [(r["number"], r["hash"], r["spec_version"], r["extrinsic_count"], r["event_count"]) for r in b] == [
        (10_000_000, blocks[0][1], 9180, len(blocks[0][3]), None),
        (18_468_942, blocks[1][1], 1_000_001, 4, 58),
    ]

    events = tables["events"].to_pylist()
    assert len(events) == 58
    rc, md = config_with_metadata(META_1000001, ss58_format=0)
    ts = md.get_metadata_pallet("System").get_storage_function("Events").get_value_type_string()
    records = rc.create_scale_object(ts, data=ScaleBytes(blocks[1][4]), metadata=md).decode()
    for row in events:
        r = records[row["index"]]
        assert json.loads(row["args"]) == as_json(r["attributes"]), row["index"]
        assert (row["pallet"], row["name"], row["phase"], row["extrinsic_index"]) == (
            r["module_id"], r["event_id"], r["phase"], r["extrinsic_idx"])
        assert row["topics"] == r["topics"]
    keys = [(r["block_number"], r["index"]) for r in events]
    assert keys == sorted(keys), "rows in block order (the Parquet files sort by pallet and name)"

    xts = tables["extrinsics"].to_pylist()
    assert len(xts) == len(blocks[0][3]) + 4
    assert sum(r["signed"] for r in xts if r["block_number"] == 18_468_942) == 2
    for meta, (number, _, _, extrinsics, _) in zip((META_9180, META_1000001), blocks):
        rc, md = config_with_metadata(meta, ss58_format=0)
        for row in (r for r in xts if r["block_number"] == number):
            v = rc.create_scale_object("Extrinsic", data=ScaleBytes(extrinsics[row["index"]]), metadata=md).decode()
            assert json.loads(row["args"]) == as_json(v["call"]["call_args"]), (number, row["index"])
            assert (row["pallet"], row["call"]) == (v["call"]["call_module"], v["call"]["call_function"])
            assert row["hash"] == v["extrinsic_hash"] and row["length"] == v["extrinsic_length"]
            assert row["address"] == v.get("address")
            if row["signed"]:
                assert row["nonce"] == v["nonce"] and json.loads(row["tip"]) == as_json(v["tip"])
                for k, val in json.loads(row["extensions"]).items():
                    assert val == as_json(v[k]), k
            # success comes from the block's events (block 10,000,000 has none here)
            assert (row["success"] is None) == (number == 10_000_000)


def test_bytes_bytearray_and_hex_inputs_decode_alike():
    # `bytes` are read in place, a `bytearray` is copied (it may change
    # later), hex is decoded: the same block either way gives the same rows.
    n, h, spec, xts, events = real_blocks()[1]
    as_bytes = decode_blocks([(n, h, spec, xts, events)], decoders())
    as_bytearray = decode_blocks([(n, h, spec, [bytearray(x) for x in xts], bytearray(events))], decoders())
    as_hex = decode_blocks([(n, h, spec, ["0x" + x.hex() for x in xts], "0x" + events.hex())], decoders())
    for name in TABLES:
        expected = pa.table(as_bytes.table(name))
        assert expected.num_rows == as_bytes.num_rows[name]
        assert pa.table(as_bytearray.table(name)).equals(expected), name
        assert pa.table(as_hex.table(name)).equals(expected), name
    assert as_bytes.num_rows["events"] == 58 and as_bytes.num_rows["errors"] == 0


def test_exports_share_the_rust_buffers():
    batch = decode_blocks(real_blocks(), decoders())
    t = batch.table("events")
    assert (t.name, t.num_rows, len(t)) == ("events", 58, 58)
    # Two imports through the C stream see the same memory: pyarrow keeps the
    # Rust buffers instead of copying them.
    first = pa.table(t).column("args").chunk(0).buffers()[2]
    second = pa.table(t).column("args").chunk(0).buffers()[2]
    assert first.address == second.address and first.size == second.size > 0
    # The C array interface (a record batch) and a stream reader see them too.
    rb = pa.record_batch(t)
    assert rb.column(rb.schema.get_field_index("args")).buffers()[2].address == first.address
    reader = pa.RecordBatchReader.from_stream(t)
    assert reader.schema.names == t.column_names
    assert reader.read_all().equals(pa.table(t))
    assert pa.schema(t).names == t.column_names
    # The data outlives the batch and table objects that exported it.
    kept = pa.table(t)
    del batch, t, rb, reader
    assert kept.num_rows == 58 and kept.column("args").chunk(0).buffers()[2].address == first.address


def test_all_tables_built_side_by_side_equal_each_table_built_alone():
    blocks = real_blocks()
    one_by_one = decode_blocks(blocks, decoders())
    alone = {name: pa.table(one_by_one.table(name)) for name in TABLES}
    batch = decode_blocks(blocks, decoders())
    events = pa.table(batch.table("events"))  # built alone first
    tables = batch.all_tables()
    assert list(tables) == list(TABLES)
    for name in TABLES:
        assert tables[name].name == name
        assert pa.table(tables[name]).equals(alone[name]), name
        # Built once: later exports, by name or all again, share its buffers.
        again = pa.table(batch.all_tables()[name])
        by_name = pa.table(batch.table(name))
        assert again.equals(by_name)
    address = lambda t: t.column("args").chunk(0).buffers()[2].address
    assert address(pa.table(tables["events"])) == address(events), "a table built before is kept"
    assert address(pa.table(tables["extrinsics"])) == address(pa.table(batch["extrinsics"]))


def test_decoding_releases_the_gil():
    blocks = real_blocks() * 150
    dec = decoders()
    decode_blocks(blocks[:2], dec)  # registries built, caches warm
    seen = []
    window = {}

    def work():
        start = time.perf_counter()
        decode_blocks(blocks, dec)
        window["span"] = (start, time.perf_counter())

    worker = threading.Thread(target=work)
    worker.start()
    while worker.is_alive():
        seen.append(time.perf_counter())
    worker.join()
    start, end = window["span"]
    quarter = (end - start) / 4
    # With the GIL held for the whole call, this thread could run no Python
    # in the middle half of it.
    inside = [t for t in seen if start + quarter < t < end - quarter]
    assert inside, f"no Python ran during {end - start:.3f} s of decoding"


def test_decoder_pickles_as_metadata_and_builds_once_per_process():
    live = decoders()
    builds = index_decoder_stats()["built"]
    copy = pickle.loads(pickle.dumps(live[1]))
    assert not copy.built and copy.spec_version == 1_000_001 and copy.metadata == read(META_1000001)
    assert len(pickle.dumps(live[1])) < len(read(META_1000001)) + 200
    batch = decode_blocks(real_blocks()[1:], [copy])
    assert batch.num_rows["events"] == 58 and copy.built
    # The original is alive in this process: the copy shares its registry.
    assert index_decoder_stats()["built"] == builds
    # A decoder no block uses is not built.
    unused = pickle.loads(pickle.dumps(live[0]))
    decode_blocks(real_blocks()[1:], [unused, copy])
    assert not unused.built
    # Once every copy is gone, a new one still finds the registry (the
    # runtimes used last stay built in the process).
    metadata = read(META_9180)
    del live, copy, unused
    fresh = pickle.loads(pickle.dumps(SpecDecoder(metadata)))
    before = index_decoder_stats()["built"].get(9180, 0)
    decode_blocks(real_blocks()[:1], fresh)
    assert index_decoder_stats()["built"].get(9180, 0) == before


def test_parquet_equals_the_pipeline(tmp_path):
    blocks = real_blocks()
    source = tmp_path / "blocks.jsonl"
    source.write_text("".join(
        json.dumps({"number": n, "hash": h, "spec_version": s, "extrinsics": ["0x" + x.hex() for x in xt],
                    "events": None if e is None else "0x" + e.hex()}) + "\n"
        for n, h, s, xt, e in blocks))
    assert read_blocks(source) == [(n, h, s, xt, e) for n, h, s, xt, e in blocks]
    assert read_blocks(source, 18_000_000, 19_000_000) == blocks[1:]
    # Two blocks far apart: a sample, whose gap must be allowed.
    with pytest.raises(ValueError, match="block 10000001 is missing"):
        index_json_lines(source, decoders(), tmp_path / "refused", partition_blocks=1_000_000)
    summary = index_json_lines(source, decoders(), tmp_path / "pipeline", partition_blocks=1_000_000,
                               allow_gaps=True)
    assert (summary["blocks"], summary["events"], summary["errors"], summary["partitions"]) == (2, 58, 0, 2)
    batch = decode_blocks(read_blocks(source), decoders())
    with pytest.raises(ValueError, match="block 10000001 is missing"):
        batch.write_parquet(tmp_path / "py")
    assert batch.write_parquet(tmp_path / "py", allow_gaps=True) > 0
    report = check_index(tmp_path / "py")
    assert report["ok"] and report["blocks"] == 18_468_942 - 10_000_000 + 1, report["text"]
    # A partition over blocks another holds: refused, naming it.
    last_only = decode_blocks(read_blocks(source, 18_000_000, 19_000_000), decoders())
    with pytest.raises(ValueError, match="blocks 10000000..=18468942 are done already"):
        last_only.write_parquet(tmp_path / "py")
    written = tmp_path / "py" / "events" / "blocks_10000000_18468942.parquet"
    assert written.is_file()
    for name in TABLES:
        ours = pq.read_table(tmp_path / "py" / name)
        pipeline = pq.read_table(tmp_path / "pipeline" / name)
        # The pipeline wrote one partition per block (each sorted by pallet
        # and name), the batch one for both: the same rows.
        assert canonical(ours) == canonical(pipeline), name
        # The batch is in block order; its file sorts by pallet and name
        # (stable: block order within one pallet and name).
        rows = pa.table(batch.table(name)).to_pylist()
        key = {"extrinsics": "call", "calls": "name", "events": "name"}.get(name)
        if key:
            rows.sort(key=lambda r: (r["pallet"], r[key]))
        assert ours.to_pylist() == rows, name


def test_bad_input_is_an_error_or_an_errors_row():
    good = real_blocks()[1]
    with pytest.raises(ValueError, match="SpecDecoder: metadata"):
        SpecDecoder(b"meta\x0e" + b"\xff" * 20)
    with pytest.raises(TypeError, match="decoders"):
        decode_blocks([good], [object()])
    with pytest.raises(TypeError, match=r"blocks\[0\]"):
        decode_blocks([42], decoders())
    with pytest.raises(ValueError, match=r"blocks\[0\] \(number 5\): hash"):
        decode_blocks([(5, "0x12", 1, [], None)], decoders())
    with pytest.raises(TypeError, match=r"extrinsics\[1\]"):
        decode_blocks([(5, good[1], 1, [b"\x00", 7], None)], decoders())
    with pytest.raises(KeyError, match="no table"):
        decode_blocks([], decoders()).table("nope")
    # Undecodable items and unknown runtimes are rows of `errors`; the rest decodes.
    batch = decode_blocks([
        {"number": 1, "hash": good[1], "spec_version": 1_000_001, "extrinsics": [b"\x0c\xff\xff\xff"] + good[3],
         "events": b"\x04\xff"},
        (2, good[1], 77, [], None),
    ], decoders())
    errors = pa.table(batch.table("errors")).to_pylist()
    assert [(e["block_number"], e["item"]) for e in errors] == [(1, "events"), (1, "extrinsic 0"), (2, "block")]
    assert "no metadata for spec version 77" in errors[2]["error"]
    assert batch.num_rows["extrinsics"] == 4


def test_importing_does_not_import_pyarrow():
    code = "import sys, scalecodec, scalecodec.index; assert 'pyarrow' not in sys.modules, 'pyarrow imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_keep_freed_memory_is_opt_in_and_decoding_is_unchanged():
    """The allocator setting takes only when asked for, in a process of its own
    (it is process-wide), and the tables decoded after it are the same."""
    script = (
        "import json, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "import test_index as t\n"
        "from scalecodec.index import decode_blocks, keep_freed_memory\n"
        "import pyarrow as pa\n"
        "before = t.canonical(pa.table(decode_blocks(t.real_blocks(), t.decoders()).table('extrinsics')))\n"
        "took = keep_freed_memory()\n"
        "after = t.canonical(pa.table(decode_blocks(t.real_blocks(), t.decoders()).table('extrinsics')))\n"
        "print(json.dumps([took, before == after, len(after)]))\n"
    )
    tests_dir = str(__import__("pathlib").Path(__file__).parent)
    out = subprocess.run([sys.executable, "-c", script, tests_dir], capture_output=True, text=True,
                         cwd=tests_dir, check=True).stdout
    took, same, rows = json.loads(out)
    import platform
    assert took is (sys.platform == "linux" and platform.libc_ver()[0] == "glibc")
    assert same and rows == 6


def test_each_engine_is_one_install_line():
    """``pip install "ferroscale[arrow|dask|spark]"`` brings what each way of
    indexing imports: the installed distribution declares it."""
    from importlib.metadata import metadata

    meta = metadata("ferroscale")
    assert {"arrow", "dask", "spark"} <= set(meta.get_all("Provides-Extra"))
    needs = {}
    for requirement in meta.get_all("Requires-Dist"):
        name, _, marker = requirement.partition(";")
        extra = marker.split("extra ==")[-1].strip().strip("\"'")
        needs.setdefault(extra, set()).add(name.strip().split(">")[0].split("<")[0].split("=")[0])
    assert needs["arrow"] == {"pyarrow"}
    assert needs["dask"] == {"pyarrow", "distributed"}
    assert needs["spark"] == {"pyarrow", "pyspark", "pandas"}
