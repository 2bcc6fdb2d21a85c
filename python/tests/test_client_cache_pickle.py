"""What clients cache on disk round-trips through pickle into a fresh
interpreter and is usable there.

async-substrate-interface 2.x pickles its ``Runtime`` (``Runtime.__getstate__``):
the decoded ``MetadataVersioned`` object, the runtime configuration it was
decoded in, and plain maps built from the metadata's values (the V15
runtime-API map from ``get_metadata().value_object[1].value["apis"]``). On
loading it unpickles with a restricted unpickler that resolves only
``scalecodec.*`` classes (and a few builtins), builds a fresh configuration,
``add_portable_registry(metadata)`` and sets ``runtime_config`` on every
object of the metadata's ``value_object`` tree. The child process below does
the same and then decodes real storage values and extrinsics with it."""
import json
import pickle
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO, config_with_metadata, fixtures_dir, read_json
from scalecodec.base import ScaleBytes, ScaleType

CHILD = textwrap.dedent('''
    import builtins, io, json, pickle, sys
    from scalecodec.base import RuntimeConfigurationObject, ScaleBytes, ScaleType
    from scalecodec.type_registry import load_type_registry_preset

    class Restricted(pickle.Unpickler):
        # async-substrate-interface's rule: scalecodec's own classes and a few builtins
        def find_class(self, module, name):
            if module == "builtins" and name in {"dict", "list", "tuple", "set", "frozenset", "bytes",
                                                 "bytearray", "int", "float", "str", "bool", "getattr"}:
                return getattr(builtins, name)
            if module == "scalecodec" or module.startswith("scalecodec."):
                return super().find_class(module, name)
            raise pickle.UnpicklingError(f"refused {module}.{name}")

    with open(sys.argv[1], "rb") as f:
        state = Restricted(io.BytesIO(f.read())).load()
    job = json.loads(sys.argv[2])
    md, old_rc = state["metadata"], state["runtime_config"]

    # as Runtime.__setstate__: a fresh configuration around the unpickled metadata
    rc = RuntimeConfigurationObject(ss58_format=state["ss58_format"], implements_scale_info=True)
    rc.update_type_registry(load_type_registry_preset("core"))
    rc.add_portable_registry(md)
    seen = set()
    def propagate(obj):
        if id(obj) in seen or not isinstance(obj, ScaleType):
            return
        seen.add(id(obj))
        obj.runtime_config = rc
        vo = obj.value_object
        for child in (vo.values() if isinstance(vo, dict) else vo if isinstance(vo, (list, tuple)) else [vo]):
            propagate(child)
    propagate(md)

    out = {"version": md.get_metadata().index, "propagated": len(seen),
           "apis": state["runtime_api_map"] == {a["name"]: {m["name"]: m for m in a["methods"]}
                                                for a in md.get_metadata().value_object[1].value.get("apis", [])},
           "pallets": [p.name for p in md.pallets]}
    if "storage" in job:
        pallet, entry, values = job["storage"]
        ts = md.get_metadata_pallet(pallet).get_storage_function(entry).get_value_type_string()
        raws = [bytes.fromhex(v[2:]) for v in values]
        out["storage"] = [rc.create_scale_object(ts, ScaleBytes(r)).decode() for r in raws]
        out["storage_old_rc"] = old_rc.batch_decode([ts] * len(raws), raws)
        out["storage_value_decoder"] = [state["value_decoder"](r) for r in raws]
    if "extrinsics" in job:
        out["extrinsics"] = [rc.create_scale_object("Extrinsic", ScaleBytes(h), metadata=md).decode()
                             for h in job["extrinsics"]]
    print(json.dumps(out, default=repr))
''')


def _runtime_state(name, ss58_format, value_type=None):
    """What async-substrate-interface's ``Runtime.__getstate__`` holds."""
    rc, md = config_with_metadata(name, ss58_format=ss58_format)
    rc.implements_scale_info = True
    apis = md.get_metadata().value_object[1].value.get("apis", [])
    return {
        "metadata": md,
        "runtime_config": rc,
        "ss58_format": ss58_format,
        "type_registry": {"types": {}},
        "runtime_api_map": {a["name"]: {m["name"]: m for m in a["methods"]} for a in apis},
        "value_decoder": rc.get_value_decoder(value_type) if value_type else None,
    }


def _in_fresh_interpreter(tmp_path, state, job):
    path = tmp_path / "runtime.pickle"
    path.write_bytes(pickle.dumps(state))
    env = {"FERROSCALE_FIXTURES": str(fixtures_dir()), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path), json.dumps(job)], capture_output=True,
                          text=True, env=env, cwd=str(REPO), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _jsonable(value):
    return json.loads(json.dumps(value, default=repr))


def test_polkadot_runtime_unpickles_and_decodes_in_a_fresh_process(tmp_path):
    name = "metadata/polkadot-v14-spec9180.scale"
    rc, md = config_with_metadata(name, ss58_format=0)
    ts = md.get_metadata_pallet("System").get_storage_function("Account").get_value_type_string()
    values = [v for _k, v in read_json("payloads/polkadot-block-10000000/storage_system_account.json")[:40]]
    extrinsics = read_json("payloads/polkadot-block-10000000/extrinsics.json")
    out = _in_fresh_interpreter(tmp_path, _runtime_state(name, 0, ts),
                                {"storage": ["System", "Account", values], "extrinsics": extrinsics})
    here = [rc.create_scale_object(ts, ScaleBytes(v)).decode() for v in values]
    assert out["version"] == 14 and out["apis"] is True
    assert out["pallets"] == [p.name for p in md.pallets]
    assert out["storage"] == out["storage_old_rc"] == out["storage_value_decoder"] == _jsonable(here)
    assert out["storage"][0]["data"]["free"] == 1751837099988
    here_ext = [rc.create_scale_object("Extrinsic", ScaleBytes(h), metadata=md).decode() for h in extrinsics]
    assert out["extrinsics"] == _jsonable(here_ext)
    assert [e["call"]["call_function"] for e in out["extrinsics"]] == ["set", "enter"]
    # the walk over value_object reached the pallets, their entries and the registry's types
    assert out["propagated"] > 1000


def test_subtensor_v15_runtime_unpickles_with_its_runtime_apis(tmp_path):
    name = "metadata/subtensor-v15-spec343.scale"
    state = _runtime_state(name, 42)
    assert "get_delegates" in state["runtime_api_map"]["DelegateInfoRuntimeApi"]
    out = _in_fresh_interpreter(tmp_path, state, {})
    assert out["version"] == 15 and out["apis"] is True
    assert "SubtensorModule" in out["pallets"]


@pytest.mark.parametrize("name", ["metadata/subtensor-v15-spec343.scale", "metadata/kusama-v13-spec9030.scale"])
def test_metadata_parts_pickle_with_their_values(name):
    """Objects taken out of a decoded metadata object (the version enum, its
    struct, pallets, storage entries, calls) pickle as what they are."""
    presets = ("core",) if "v15" in name else ("legacy", "kusama")
    _rc, md = config_with_metadata(name, presets=presets)
    enum = pickle.loads(pickle.dumps(md.get_metadata()))
    assert enum.index == md.get_metadata().index and enum.value == md.value[1]
    struct = enum.value_object[1]
    assert struct.value == md.get_metadata().value_object[1].value
    pallets = struct["pallets" if enum.index >= 14 else "modules"]
    assert [p.name for p in pallets] == [p.name for p in md.pallets]
    assert all(isinstance(p, ScaleType) for p in pallets)
    for pallet in md.pallets[:4]:  # each pickle carries (and rebuilds) its configuration: a few suffice
        for part in [pallet, *(pallet.storage or [])[:3], *(pallet.calls or [])[:3]]:
            clone = pickle.loads(pickle.dumps(part))
            assert type(clone) is type(part) and clone.value == part.value and clone.name == part.name
