"""Decodes, for V9–V11 metadata, one event and one call under every pallet
byte with whichever ``scalecodec`` this interpreter imports, and prints the
results as JSON (``{case: result}``).

In V9–V11 calls count only the modules that have calls and events only the
modules that have events, so one byte names different modules in a call and
in an event (Kusama 1038: byte 2 is ``Timestamp``'s calls and ``Balances``'
events). Each case is the first item without arguments of the module under
that byte (the index dicts of the metadata name it), as an event record and
as a call: the decoded value, and whether encoding it gives the bytes back
(py-scale-codec cannot encode an event record; the test asks it of ours).

Usage: ``legacy_module_bytes.py FIXTURES_DIR METADATA_FILE…``. Run by
``test_legacy_module_bytes.py`` under py-scale-codec 1.2.12 (the reference
venv) and under ours.
"""
import json
import sys
from pathlib import Path

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

FIX = Path(sys.argv[1])


def attempt(f):
    try:
        return f()
    except Exception as e:  # a case the reference cannot do is compared as such
        return f"raises {type(e).__name__}"


def first_without_args(index):
    """{byte: (hex index, module name, item name)}: per byte, the item of
    least index among those without arguments."""
    out = {}
    for key, (module, item) in sorted(index.items()):
        byte = key[:2]
        if byte in out or item.args:
            continue
        out[byte] = (key, module.name, item.name)
    return out


results = {}
for name in sys.argv[2:]:
    chain = "kusama" if name.startswith("kusama") else None
    spec = int(name.split("-spec")[1].split(".")[0]) if "-spec" in name else None
    rc = RuntimeConfigurationObject()
    for preset in ("core", "legacy") + ((chain,) if chain else ()):
        rc.update_type_registry(load_type_registry_preset(preset))
    if spec:
        rc.set_active_spec_version_id(spec)
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes((FIX / "metadata" / name).read_bytes()))
    md.decode()
    for byte, (key, module, event) in first_without_args(md.event_index).items():
        data = "0x04" + "00" + "01000000" + key + "00"
        obj = rc.create_scale_object("Vec<EventRecord<Event, Hash>>", data=ScaleBytes(data), metadata=md)
        value = attempt(obj.decode)
        again = rc.create_scale_object("Vec<EventRecord<Event, Hash>>", metadata=md)
        results[f"{name} event {byte}"] = {
            "index": f"{module}.{event}", "value": value,
            "encodes back": attempt(lambda: str(again.encode(value)) == data),
        }
    for byte, (key, module, call) in first_without_args(md.call_index).items():
        obj = rc.create_scale_object("Call", data=ScaleBytes("0x" + key), metadata=md)
        value = attempt(obj.decode)
        again = rc.create_scale_object("Call", metadata=md)
        results[f"{name} call {byte}"] = {
            "index": f"{module}.{call}", "value": value,
            "encodes back": attempt(lambda: str(again.encode(value)) == "0x" + key),
        }
print(json.dumps(results, default=str))
