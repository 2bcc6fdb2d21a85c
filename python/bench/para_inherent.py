"""Polkadot block 18,468,942's 50 KB ``ParaInherent.enter`` extrinsic, and the
whole block (4 extrinsics + 58 events), decoded through py-scale-codec's
object API by whichever ``scalecodec`` the interpreter imports; run it under
each interpreter to compare (cyscale 0.8.0's venv: ../shared/bench/asi-bench
builds one in $BENCH_DIR/venv-cy):

    .venv/bin/python python/bench/para_inherent.py
    /tmp/asi-bench/venv-cy/bin/python python/bench/para_inherent.py

Also prints the time of the two BLAKE2b-256 hashes the value holds
(``extrinsic_hash`` over the extrinsic, ``call_hash`` over the call, each
~50 KB), which every decoder of this value pays.
"""
import hashlib
import json
import os
import time
from pathlib import Path

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

FIX = Path(os.environ.get("FERROSCALE_FIXTURES") or Path(__file__).resolve().parents[2].parent / "shared" / "fixtures")
BLOCK = FIX / "payloads/polkadot-block-18468942"

rc = RuntimeConfigurationObject(ss58_format=0)
rc.update_type_registry(load_type_registry_preset("core"))
md = rc.create_scale_object("MetadataVersioned",
                            data=ScaleBytes((FIX / "metadata/polkadot-v14-spec1000001.scale").read_bytes()))
md.decode()
rc.add_portable_registry(md)
extrinsics = [bytes.fromhex(x[2:]) for x in json.loads((BLOCK / "extrinsics.json").read_text())]
events = bytes.fromhex((BLOCK / "events.hex").read_text().strip().removeprefix("0x"))
para = max(extrinsics, key=len)
events_type = md.get_metadata_pallet("System").get_storage_function("Events").get_value_type_string()


def decode(type_string, data):
    obj = rc.create_scale_object(type_string, data=ScaleBytes(data), metadata=md)
    obj.decode()
    return obj.value


def para_inherent():
    return decode("Extrinsic", para)


def block():
    return [decode("Extrinsic", x) for x in extrinsics] + [decode(events_type, events)]


def hashes():
    return [hashlib.blake2b(b, digest_size=32).digest() for b in (para, para[3:])]


for fn in (para_inherent, block, hashes):
    fn()
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(30):
            fn()
        times.append((time.perf_counter() - t0) / 30)
    print(f"{fn.__name__:<14} {min(times) * 1e3:7.3f} ms (best of 5 × 30; {len(para)}-byte extrinsic)")
