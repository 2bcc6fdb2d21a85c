"""Reads a metadata fixture through the metadata object API as clients do
(substrate-interface, Bittensor tooling) with whichever ``scalecodec`` this
interpreter imports, and prints every read as JSON: ``[[path, result], …]``.
For V14+ it also reads the type decomposition of every portable type.

Usage: ``metadata_reads.py FILE [FILE …]``. Run by
``test_metadata_object_api.py`` under py-scale-codec 1.2.12 (the reference
venv) and under ours; the test compares the reads one by one.

A result is rendered so that both implementations can be compared: a scale
object as ``{"object": value}``, bytes as ``{"bytearray" | "bytes": hex}``,
tuples as ``{"tuple": [...]}``, an exception as ``{"raises": class name}``.
"""
import json
import sys

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes, ScaleType
from scalecodec.type_registry import load_type_registry_preset


def render(x, depth=0):
    if depth > 40:
        return "<too deep>"
    if isinstance(x, ScaleType):
        return {"object": render(x.value, depth + 1)}
    if isinstance(x, bytearray):
        return {"bytearray": x.hex()}
    if isinstance(x, bytes):
        return {"bytes": x.hex()}
    if isinstance(x, tuple):
        return {"tuple": [render(v, depth + 1) for v in x]}
    if isinstance(x, list):
        return [render(v, depth + 1) for v in x]
    if isinstance(x, dict):
        return {str(k): render(v, depth + 1) for k, v in x.items()}
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return {"other": type(x).__name__}


class Reader:
    def __init__(self):
        self.reads = []

    def read(self, path, fn):
        """Records ``fn()`` (or the exception it raises) under ``path``."""
        try:
            result = render(fn())
        except Exception as e:  # the exception class is part of the answer
            result = {"raises": type(e).__name__}
        self.reads.append([path, result])

    def value(self, path, fn):
        """``fn()``, recorded, or ``None`` when it raises."""
        self.read(path, fn)
        try:
            return fn()
        except Exception:
            return None


def read_variant(r, path, v, param_info=True):
    r.read(f"{path}.name", lambda: v.name)
    r.read(f"{path}.docs", lambda: v.docs)
    r.read(f"{path}.value", lambda: v.value)
    r.read(f"{path}['index']", lambda: v["index"])
    r.read(f"{path}.is_scale_type", lambda: isinstance(v, ScaleType))
    args = r.value(f"{path}.args", lambda: v.args)
    for i, a in enumerate(args or []):
        ap = f"{path}.args[{i}]"
        r.read(f"{ap}.name", lambda: a.name)
        r.read(f"{ap}.type", lambda: a.type)
        r.read(f"{ap}.value", lambda: a.value)
        r.read(f"{ap}.docs", lambda: a.docs)
        r.read(f"{ap}.get_type_string()", lambda: a.get_type_string())
    if param_info:
        r.read(f"{path}.get_param_info()", lambda: v.get_param_info())


def read_storage(r, path, e):
    r.read(f"{path}.name", lambda: e.name)
    r.read(f"{path}.modifier", lambda: e.modifier)
    r.read(f"{path}.type", lambda: e.type)
    r.read(f"{path}.docs", lambda: e.docs)
    r.read(f"{path}.value", lambda: e.value)
    r.read(f"{path}.get_value_type_string()", lambda: e.get_value_type_string())
    r.read(f"{path}.get_params_type_string()", lambda: e.get_params_type_string())
    r.read(f"{path}.get_param_hashers()", lambda: e.get_param_hashers())
    r.read(f"{path}.get_param_info()", lambda: e.get_param_info())
    r.read(f"{path}.get_key_type_string()", lambda: e.get_key_type_string())
    r.read(f"{path}['default']", lambda: e["default"])
    r.read(f"{path}['default'].value_object", lambda: e["default"].value_object)
    r.read(f"{path}.value_object['default'].value_object", lambda: e.value_object["default"].value_object)


def read_pallet(r, path, p, md):
    r.read(f"{path}.name", lambda: p.name)
    r.read(f"{path}.get_identifier()", lambda: p.get_identifier())
    r.read(f"{path}['index']", lambda: p["index"])
    r.read(f"{path}.value['index']", lambda: p.value["index"])
    r.read(f"{path}.is_scale_type", lambda: isinstance(p, ScaleType))
    r.read(f"{path}.get_metadata_pallet(name) is same", lambda: md.get_metadata_pallet(p.name).value == p.value)
    r.read(f"{path}.get_pallet_by_index(index)", lambda: md.get_pallet_by_index(p.value["index"]).name)
    for field in ("calls", "events", "errors"):
        entries = r.value(f"{path}.{field}", lambda: getattr(p, field))
        r.read(f"{path}.{field} len", lambda: len(entries) if entries is not None else None)
        r.read(f"{path}.{field} is_scale_type", lambda: isinstance(entries, ScaleType))
        for i, v in enumerate(entries or []):
            read_variant(r, f"{path}.{field}[{i}]", v, param_info=field != "errors")
    constants = r.value(f"{path}.constants", lambda: p.constants)
    for i, c in enumerate(constants or []):
        cp = f"{path}.constants[{i}]"
        r.read(f"{cp}.name", lambda: c.name)
        r.read(f"{cp}.type", lambda: c.type)
        r.read(f"{cp}.docs", lambda: c.docs)
        r.read(f"{cp}.value", lambda: c.value)
        r.read(f"{cp}.constant_value", lambda: c.constant_value)
        r.read(f"{cp}['value'].value_object", lambda: c["value"].value_object)
    storage = r.value(f"{path}.storage names", lambda: None if p.storage is None else [e.name for e in p.storage])
    for i, e in enumerate(p.storage or []):
        read_storage(r, f"{path}.storage[{i}]", e)
        r.read(f"{path}.get_storage_function({e.name!r}).name", lambda: p.get_storage_function(e.name).name)
    if storage is not None:
        r.read(f"{path}.get_storage_function('PalletVersion')", lambda: p.get_storage_function("PalletVersion"))
    r.read(f"{path}.get_storage_function('NoSuchItem')", lambda: p.get_storage_function("NoSuchItem"))


def read_fixture(path: str) -> list:
    config = RuntimeConfigurationObject()
    config.update_type_registry(load_type_registry_preset("core"))
    with open(path, "rb") as f:
        md = config.create_scale_object("MetadataVersioned", data=ScaleBytes(f.read()))
    md.decode()
    if md.value_object[1].index >= 14:
        config.add_portable_registry(md)
    r = Reader()
    r.read("value_object[1].index", lambda: md.value_object[1].index)
    r.read("value_object[0]", lambda: md.value_object[0])
    r.read("value_object[1].value_object[0]", lambda: md.value_object[1].value_object[0])
    r.read("call_index", lambda: md.call_index)
    r.read("event_index", lambda: md.event_index)
    r.read("get_signed_extensions()", lambda: md.get_signed_extensions())
    r.read("portable_registry is_scale_type", lambda: isinstance(md.portable_registry, ScaleType))
    r.read("portable_registry['types'] len", lambda: len(md.portable_registry["types"]))
    r.read("value_object[1][1]['extrinsic']", lambda: md.value_object[1][1]["extrinsic"])
    r.read("value_object[1][1]['extrinsic']['signed_extensions']",
           lambda: md.value_object[1][1]["extrinsic"]["signed_extensions"])
    r.read("pallets len", lambda: len(md.pallets))
    r.read("get_metadata_pallet('NoSuchPallet')", lambda: md.get_metadata_pallet("NoSuchPallet"))
    r.read("get_pallet_by_index(255)", lambda: md.get_pallet_by_index(255))
    for p in md.pallets:
        read_pallet(r, f"pallets[{p.name}]", p, md)
        for i in range(len(p.errors or []) if "index" in p.value else 0):
            r.read(f"get_module_error({p.value['index']}, {i})",
                   lambda: md.get_module_error(p.value["index"], i))
    if md.value_object[1].index >= 14:
        read_type_registry(r, config, md)
    return r.reads


def read_type_registry(r, config, md):
    """Every portable type by its path (else ``scale_info::N``) and its
    ``generate_type_decomposition``, as async-substrate-interface's and
    substrate-interface's ``get_type_registry`` read them (depth 4, their
    default)."""
    for t in md.portable_registry["types"]:
        v = t.value
        path = v["type"].get("path") or []
        type_string = "::".join(path) if path else f"scale_info::{v['id']}"
        r.read(f"get_decoder_class({type_string!r}).generate_type_decomposition(max_recursion=4)",
               lambda: config.get_decoder_class(type_string).generate_type_decomposition(max_recursion=4))


def main() -> None:
    out = {path: read_fixture(path) for path in sys.argv[1:]}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
