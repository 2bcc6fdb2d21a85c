"""Reads what clients read from decoded calls and block digests, with
whichever ``scalecodec`` this interpreter imports, and prints the reads as
JSON (``{name: result}``):

- each call argument of every extrinsic of Polkadot block 18468942 (V14
  metadata), as ``extrinsic['call']['call_args']`` holds it: the field
  objects with their ``value_object['value']`` (py-scale-codec 1.2.12's
  ``GenericCall.value_object``);
- the call and length parts of those extrinsics: whether they are a
  ``GenericCall`` and a ``Compact`` (clients check the call's class), and
  their ``get_used_bytes()``;
- a V13 (Kusama spec 9030) call's ``call_args``, a dict of the arguments'
  objects by name;
- a block author's lookup as async-substrate-interface and
  substrate-interface do it on the digest logs of the header in that
  block's ``ParaInherent.enter`` (real BABE pre-runtime and seal items):
  ``bytes(log[1][0])`` the engine, ``RawBabePreDigest`` decoded from
  ``bytes(log[1][1])``, its ``[1].value['authority_index']``;
- the same logs and an Aura pre-runtime item decoded as ``DigestItem`` of
  the legacy types (runtimes before V14), as those clients read them there:
  ``value['PreRuntime']['engine']`` and ``['data']['authority_index']``.

Usage: ``client_reads.py FIXTURES_DIR``. Run by ``test_client_reads.py``
under py-scale-codec 1.2.12 (the reference venv) and under ours.
"""
import json
import sys
from pathlib import Path

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset
from scalecodec.types import Compact, GenericCall

FIX = Path(sys.argv[1])
READS = {}


def record(name, fn):
    try:
        READS[name] = fn()
    except Exception as e:  # the exception class is part of the answer
        READS[name] = {"raises": type(e).__name__}


def config(*presets):
    rc = RuntimeConfigurationObject()
    for preset in presets:
        rc.update_type_registry(load_type_registry_preset(preset))
    return rc


def with_metadata(rc, name):
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes((FIX / "metadata" / name).read_bytes()))
    md.decode()
    if md.portable_registry:
        rc.add_portable_registry(md)
    return md


def compact(n):
    return bytes([n << 2]) if n < 64 else ((n << 2) | 1).to_bytes(2, "little")


def digest_item(index, engine, data):
    return bytes([index]) + engine + compact(len(data)) + data


# V14: the arguments of real calls
rc = config("core")
md = with_metadata(rc, "polkadot-v14-spec1000001.scale")
block = json.loads((FIX / "payloads" / "polkadot-block-18468942" / "extrinsics.json").read_text())
parent_header = None
for i, raw in enumerate(block):
    ex = rc.create_scale_object("Extrinsic", data=ScaleBytes(raw), metadata=md)
    value = ex.decode()
    call = ex["call"]

    def call_args(call=call):
        out = []
        for field in call["call_args"]:
            arg = field.value_object["value"]
            out.append([field.value["name"], sorted(field.value_object), arg.value])
        return out

    # a large argument is compared by its length and a slice of its text
    record(f"v14 extrinsic {i} call_args", lambda: json.loads(json.dumps(call_args(), default=str))[:1]
           if i != 1 else [[a[0], a[1], len(json.dumps(a[2]))] for a in call_args()])
    record(f"v14 extrinsic {i} arg count", lambda call=call: len(call["call_args"]))
    # the parts clients check the class of, and their bytes
    record(f"v14 extrinsic {i} parts", lambda call=call, ex=ex: {
        "call is a GenericCall": isinstance(call, GenericCall),
        "call bytes": call.get_used_bytes().hex(),
        "length is a Compact": isinstance(ex["extrinsic_length"], Compact),
        "length bytes": ex["extrinsic_length"].get_used_bytes().hex(),
    })
    if value["call"]["call_function"] == "enter":
        parent_header = value["call"]["call_args"][0]["value"]["parent_header"]

# the author of a block, as the clients find it (V14+)
logs = []
for log in parent_header["digest"]["logs"]:
    (kind, (engine, data)), = log.items()
    logs.append(digest_item({"PreRuntime": 6, "Seal": 5, "Consensus": 4}[kind], bytes.fromhex(engine[2:]),
                             bytes.fromhex(data[2:])))
aura = digest_item(6, b"aura", (283633129).to_bytes(8, "little"))
for n, raw in enumerate(logs + [aura]):
    def author(raw=raw):
        item = rc.get_decoder_class("sp_runtime::generic::digest::DigestItem")(data=ScaleBytes(raw))
        item.decode()
        out = {"value": item.value, "index": item.index}
        if "PreRuntime" in item.value:
            engine = bytes(item[1][0])
            out["engine"] = engine.hex()
            inner = "RawBabePreDigest" if engine == b"BABE" else "RawAuraPreDigest"
            pre = rc.create_scale_object(type_string=inner, data=ScaleBytes(bytes(item[1][1])))
            pre.decode()
            out["pre"] = pre.value
            out["slot"] = pre.value["slot_number"] if engine == b"aura" else pre[1].value["slot_number"]
            if engine == b"BABE":
                out["authority_index"] = pre[1].value["authority_index"]
        return out

    record(f"v14 digest log {n}", author)

# V13: the arguments by name
legacy = config("core", "legacy", "kusama")
md13 = with_metadata(legacy, "kusama-v13-spec9030.scale")
call = legacy.create_scale_object("Call", metadata=md13)
data = call.encode({"call_module": "Balances", "call_function": "transfer",
                    "call_args": {"dest": "EaG2CRhJWPb7qmdcJvy3LiWdh26Jreu9Dx6R1rXxPmYXoDk", "value": 12345}})
decoded = legacy.create_scale_object("Call", data=data, metadata=md13)
decoded.decode()
record("v13 call_args", lambda: {k: v.value for k, v in decoded["call_args"].items()})

# the digest logs of legacy runtimes
for n, raw in enumerate(logs + [aura]):
    def legacy_log(raw=raw):
        item = legacy.create_scale_object("DigestItem", data=ScaleBytes(raw))
        item.decode()
        return item.value

    record(f"legacy digest log {n}", legacy_log)

print(json.dumps(READS, default=str))
