"""Shared helpers: real chain data from the project's fixtures directory
(``$FERROSCALE_FIXTURES``, else ``../shared/fixtures`` beside the checkout),
each file checked against ``fixtures/manifest.tsv`` before use."""
import functools
import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset

REPO = Path(__file__).resolve().parents[2]
MANIFEST = REPO / "fixtures" / "manifest.tsv"


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


REFERENCE_SCRIPTS = Path(__file__).resolve().parent / "reference_scripts"


def _venv_python(variable: str, venv: str, package: str) -> str:
    """The interpreter ``$variable`` names, a venv holding ``package``; a
    test fails (never skips) without it, saying how to get one."""
    python = os.environ.get(variable)
    if not python or not Path(python).is_file():
        pytest.fail(f"{variable} does not name an interpreter with {package}: run `cargo xtask test`, or "
                    f"`python3 -m venv {venv} && {venv}/bin/pip install {package}` and set "
                    f"{variable}=$PWD/{venv}/bin/python")
    return python


def reference_python() -> str:
    """The interpreter of the reference venv (py-scale-codec 1.2.12), for differential tests."""
    return _venv_python("FERROSCALE_REF_PYTHON", ".venv-ref", "scalecodec==1.2.12")


def cyscale_python() -> str:
    """The interpreter of a venv with cyscale 0.8.0, for the check of its public additions."""
    return _venv_python("FERROSCALE_CYSCALE_PYTHON", ".venv-cyscale", "cyscale==0.8.0")


def run_reference_script(python: str, script: str, *args: str, timeout: float = 600) -> object:
    """Runs ``reference_scripts/<script>`` under ``python`` and returns the
    JSON it prints (a failure with its stderr when it does not finish)."""
    env = dict(os.environ, PYTHONPATH="")
    # never let the reference interpreter import our package from the checkout
    proc = subprocess.run([python, str(REFERENCE_SCRIPTS / script), *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=str(REFERENCE_SCRIPTS))
    if proc.returncode != 0:
        pytest.fail(f"{script} under {python} failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout)
