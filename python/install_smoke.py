"""Smoke test of an installed `scalecodec` (a wheel or the sdist, installed
offline by `cargo xtask wheels --check`): the module imports from the
environment (not from a source tree), carries the presets, and decodes a real
Polkadot block, its 58 events and 4 extrinsics, against the block's own
metadata.

    VENV/bin/python python/install_smoke.py [FIXTURES_DIR]

FIXTURES_DIR defaults to $FERROSCALE_FIXTURES, else ../shared/fixtures beside
the checkout. Exits non-zero, naming the check, on any failure.
"""
import json
import os
import sys
import sysconfig
from pathlib import Path


def fixtures_dir() -> Path:
    if len(sys.argv) > 1:
        return Path(sys.argv[1])
    env = os.environ.get("FERROSCALE_FIXTURES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared" / "fixtures"


def check(what: str, ok: bool) -> None:
    if not ok:
        sys.exit(f"install smoke test: {what}: FAILED")
    print(f"ok: {what}")


def main() -> None:
    import scalecodec
    from scalecodec import _core
    from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
    from scalecodec.type_registry import load_type_registry_preset

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    check(f"scalecodec imported from the environment ({Path(_core.__file__).name})",
          site in Path(_core.__file__).resolve().parents)
    import ferroscale
    # alone in the venv, ferroscale is the interpreter's scalecodec: the same modules under both names
    check("import ferroscale gives the same package", ferroscale is scalecodec and ferroscale._core is _core)

    polkadot = load_type_registry_preset("polkadot")
    check("preset 'polkadot' loads with its types", bool(polkadot and polkadot.get("types")))

    fix = fixtures_dir()
    metadata_file = fix / "metadata" / "polkadot-v14-spec1000001.scale"
    block = fix / "payloads" / "polkadot-block-18468942"
    if not metadata_file.is_file() or not block.is_dir():
        sys.exit(f"install smoke test: fixtures missing under {fix} (pass the fixtures folder)")

    rc = RuntimeConfigurationObject(ss58_format=0)
    rc.update_type_registry(load_type_registry_preset("core"))
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(metadata_file.read_bytes()))
    md.decode()
    rc.add_portable_registry(md)
    check("Polkadot metadata V14 (spec 1000001) decodes", md.value_object[1].index == 14)

    events_type = md.get_metadata_pallet("System").get_storage_function("Events").get_value_type_string()
    events_hex = (block / "events.hex").read_text().strip()
    events = rc.create_scale_object(events_type, data=ScaleBytes(events_hex), metadata=md).decode()
    check(f"block 18,468,942: {len(events)} events decode", len(events) == 58)

    extrinsics = [rc.create_scale_object("Extrinsic", data=ScaleBytes(h), metadata=md).decode()
                  for h in json.loads((block / "extrinsics.json").read_text())]
    calls = [f"{x['call']['call_module']}.{x['call']['call_function']}" for x in extrinsics]
    signed = sum(1 for x in extrinsics if x.get("signature"))
    check(f"block 18,468,942: 4 extrinsics decode ({', '.join(calls)}; {signed} signed)",
          len(extrinsics) == 4 and signed == 2 and "ParaInherent.enter" in calls)
    print(f"install smoke test passed: scalecodec from {Path(scalecodec.__file__).parent}")


if __name__ == "__main__":
    main()
