"""Shared helpers: real chain data from the project's fixtures directory
(``$FERROSCALE_FIXTURES``, else ``../shared/fixtures`` beside the checkout),
each file checked against ``test-support/manifest.tsv`` before use."""
import functools
import hashlib
import json
import os
from pathlib import Path

import pytest

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

REPO = Path(__file__).resolve().parents[2]
MANIFEST = REPO / "test-support" / "manifest.tsv"


def fixtures_dir() -> Path:
    env = os.environ.get("FERROSCALE_FIXTURES")
    return Path(env) if env else REPO.parent / "shared" / "fixtures"


@functools.lru_cache(maxsize=None)
def manifest() -> dict:
    entries = {}
    for line in MANIFEST.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        name, size, sha, *_ = line.split("\t")
        entries[name] = (int(size), sha)
    return entries


@functools.lru_cache(maxsize=None)
def read(name: str) -> bytes:
    """A fixture file's bytes, verified against the manifest."""
    size, sha = manifest()[name]
    path = fixtures_dir() / name
    if not path.is_file():
        pytest.fail(f"fixture {name} missing under {fixtures_dir()} (set FERROSCALE_FIXTURES)")
    data = path.read_bytes()
    assert len(data) == size and hashlib.sha256(data).hexdigest() == sha, f"{name} differs from the manifest"
    return data


def read_json(name: str):
    return json.loads(read(name))


def read_hex(name: str) -> bytes:
    text = read(name).decode().strip()
    return bytes.fromhex(text[2:] if text.startswith("0x") else text)


def metadata_names() -> list:
    return sorted(n for n in manifest() if n.startswith("metadata/") and n.endswith(".scale"))


def config_with_metadata(name: str, presets=("core",), spec=None, ss58_format=None):
    """A fresh configuration with presets, the decoded metadata, and (V14+)
    its portable registry added."""
    rc = RuntimeConfigurationObject(ss58_format=ss58_format)
    for p in presets:
        rc.update_type_registry(load_type_registry_preset(p))
    if spec is not None:
        rc.set_active_spec_version_id(spec)
    md = rc.create_scale_object("MetadataVersioned", data=ScaleBytes(read(name)))
    md.decode()
    if md.value_object[1].index >= 14:
        rc.add_portable_registry(md)
    return rc, md
