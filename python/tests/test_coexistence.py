"""ferroscale installed beside py-scale-codec 1.2.12 or cyscale 0.8.0 (which
both install a ``scalecodec/`` package), in fresh venvs, from the wheel
`cargo xtask test` built and installed into ``.venv`` (``$FERROSCALE_WHEEL``):

* neither distribution overwrites or removes a file of the other (their
  RECORDs share no path, and every file each RECORD lists is on disk with
  its recorded hash), and ``pip check`` is clean;
* ``import scalecodec`` gives the other distribution's package by default,
  ferroscale's after ``python -m ferroscale enable`` (or with
  ``FERROSCALE_SCALECODEC=1``), the other's again after ``disable`` (or with
  ``FERROSCALE_SCALECODEC=0``); ``import ferroscale`` always gives ours;
* pickles made by ``import ferroscale`` beside the other distribution name
  ferroscale's modules only, and load without importing the other's;
* uninstalling either leaves the other importable and decoding;
* with ferroscale alone, ``import scalecodec`` gives it.

Each combination is one venv (without pip of its own: this interpreter's
pip drives it with ``--python``), with ferroscale installed before or after
the other distribution, then one of the two uninstalled."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

OTHERS = {"py-scale-codec": ("scalecodec", "1.2.12"), "cyscale": ("cyscale", "0.8.0")}

# Which package `import <name>` gives, and that it decodes with its presets
# (package data found through the package's own folder).
PROBE = """
import importlib, json, os, sys
name = sys.argv[1]
m = importlib.import_module(name)
base = importlib.import_module(name + ".base")
presets = importlib.import_module(name + ".type_registry")
rc = base.RuntimeConfigurationObject()
rc.update_type_registry(presets.load_type_registry_preset("core"))
obj = rc.create_scale_object("Compact<u32>", base.ScaleBytes("0x08"))
print(json.dumps({"folder": os.path.basename(os.path.dirname(os.path.abspath(m.__file__))),
                  "version": getattr(m, "__version__", None), "decoded": obj.decode()}))
"""

# Every file of a distribution's RECORD: missing, or with another hash than recorded.
VERIFY = """
import base64, hashlib, json, sys
from importlib import metadata
dist = metadata.distribution(sys.argv[1])
bad, paths = [], []
for f in dist.files:
    paths.append(str(f))
    if f.hash is None:
        continue
    p = f.locate()
    try:
        digest = base64.urlsafe_b64encode(hashlib.new(f.hash.mode, p.read_bytes()).digest()).rstrip(b"=").decode()
    except OSError:
        bad.append(f"{f}: missing")
        continue
    if digest != f.hash.value:
        bad.append(f"{f}: changed")
print(json.dumps({"bad": bad, "paths": paths}))
"""


# Pickles made by ferroscale imported under its own name (beside another
# scalecodec) name only ferroscale's modules, and load in a fresh process
# without importing the other distribution's package.
PICKLE = """
import pickle, re, subprocess, sys
from ferroscale.base import RuntimeConfigurationObject, ScaleBytes
from ferroscale.type_registry import load_type_registry_preset
rc = RuntimeConfigurationObject()
rc.update_type_registry(load_type_registry_preset("core"))
obj = rc.create_scale_object("Vec<u32>", ScaleBytes("0x080100000002000000"))
obj.decode()
data = pickle.dumps({"rc": rc, "obj": obj, "decoder": rc.get_value_decoder("Vec<u32>")})
names = sorted({m.decode() for m in re.findall(rb"(?:ferroscale|scalecodec)[\\w.]*", data)})
load = ("import pickle, sys; d = pickle.loads(sys.stdin.buffer.read()); "
        "print(d['obj'].value, d['decoder'](bytes.fromhex('080100000002000000')), 'scalecodec' in sys.modules)")
out = subprocess.run([sys.executable, "-c", load], input=data, capture_output=True, check=True).stdout.decode()
print(names, out.strip())
"""


@pytest.fixture(scope="module")
def wheel() -> Path:
    path = os.environ.get("FERROSCALE_WHEEL")
    if not path or not Path(path).is_file():
        pytest.fail("FERROSCALE_WHEEL does not name ferroscale's wheel: run `cargo xtask test`, or build one "
                    "(`maturin build --release -m python/Cargo.toml -o DIR`) and set FERROSCALE_WHEEL=DIR/<wheel>")
    return Path(path)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory) -> Path:
    """py-scale-codec 1.2.12, cyscale 0.8.0 and their dependencies, fetched once."""
    folder = tmp_path_factory.mktemp("downloads")
    specs = [f"{dist}=={version}" for dist, version in OTHERS.values()]
    proc = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "-d", str(folder), *specs],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return folder


class Venv:
    def __init__(self, root: Path, wheel: Path, downloads: Path):
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=120)
        self.python = str(root / "bin" / "python")
        self.sources = ["--no-index", "--find-links", str(downloads), "--find-links", str(wheel.parent)]
        self.wheel = wheel
        self.cwd = root  # nothing importable there

    def run(self, *args: str, env: dict = None, check: bool = True) -> subprocess.CompletedProcess:
        base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FERROSCALE_SCALECODEC")}
        proc = subprocess.run(list(args), capture_output=True, text=True, timeout=600, cwd=str(self.cwd),
                              env={**base, **(env or {})})
        if check:
            assert proc.returncode == 0, f"{' '.join(args)}:\n{proc.stdout}\n{proc.stderr}"
        return proc

    def pip(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return self.run(sys.executable, "-m", "pip", "--python", self.python, *args, check=check)

    def install(self, who: str) -> None:
        if who == "ferroscale":
            self.pip("install", "--quiet", *self.sources, str(self.wheel))
        else:
            dist, version = OTHERS[who]
            self.pip("install", "--quiet", *self.sources, f"{dist}=={version}")

    def probe(self, name: str, **env: str) -> dict:
        proc = self.run(self.python, "-c", PROBE, name, env=env)
        return json.loads(proc.stdout)

    def verify(self, dist: str) -> dict:
        return json.loads(self.run(self.python, "-c", VERIFY, dist).stdout)


def _ours(found: dict) -> bool:
    return found["folder"] == "ferroscale" and "+ferroscale" in (found["version"] or "") and found["decoded"] == 2


def _theirs(found: dict) -> bool:
    return found["folder"] == "scalecodec" and "+ferroscale" not in (found["version"] or "") \
        and found["decoded"] == 2


def test_alone_import_scalecodec_gives_ours(tmp_path, wheel, downloads):
    venv = Venv(tmp_path / "venv", wheel, downloads)
    venv.install("ferroscale")
    assert _ours(venv.probe("scalecodec"))
    assert _ours(venv.probe("ferroscale"))
    status = venv.run(venv.python, "-m", "ferroscale", "status").stdout
    assert "import scalecodec gives: ferroscale" in status and "no other scalecodec is installed" in status
    # the explicit "never ours" leaves no scalecodec at all, and says so
    gone = venv.run(venv.python, "-c", "import scalecodec", env={"FERROSCALE_SCALECODEC": "0"}, check=False)
    assert gone.returncode != 0 and "ModuleNotFoundError" in gone.stderr
    assert _ours(venv.probe("ferroscale", FERROSCALE_SCALECODEC="0"))

    site = Path(venv.run(venv.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    # a `scalecodec/` folder without `__init__` (what an uninstall can leave) is no other package
    (site / "scalecodec" / "__pycache__").mkdir(parents=True)
    assert _ours(venv.probe("scalecodec"))
    # the start-up hook gone (a damaged install): the interpreter starts, silently
    (site / "_ferroscale_scalecodec.py").rename(site / "_ferroscale_scalecodec.py.away")
    started = venv.run(venv.python, "-c", "print('started')")
    assert started.stdout == "started\n" and started.stderr == ""


@pytest.mark.parametrize("remove", ["ferroscale", "other"])
@pytest.mark.parametrize("order", ["ferroscale first", "ferroscale last"])
@pytest.mark.parametrize("other", sorted(OTHERS))
def test_beside_another_scalecodec(tmp_path, wheel, downloads, other, order, remove):
    venv = Venv(tmp_path / "venv", wheel, downloads)
    for who in (["ferroscale", other] if order == "ferroscale first" else [other, "ferroscale"]):
        venv.install(who)
    other_dist = OTHERS[other][0]

    ours_files, theirs_files = venv.verify("ferroscale"), venv.verify(other_dist)
    assert ours_files["bad"] == [] and theirs_files["bad"] == []
    overlap = set(ours_files["paths"]) & set(theirs_files["paths"])
    assert overlap == set()
    check = venv.pip("check", check=False)
    assert check.returncode == 0, check.stdout + check.stderr

    # the other distribution's by default; ours when chosen, for good or one process
    assert _theirs(venv.probe("scalecodec"))
    assert _ours(venv.probe("ferroscale"))
    assert _ours(venv.probe("scalecodec", FERROSCALE_SCALECODEC="1"))
    pickled = venv.run(venv.python, "-c", PICKLE).stdout.strip()
    assert pickled == "['ferroscale._core', 'ferroscale.base'] [1, 2] [1, 2] False", pickled
    enabled = venv.run(venv.python, "-m", "ferroscale", "enable").stdout
    assert "import scalecodec gives: ferroscale" in enabled, enabled
    assert _ours(venv.probe("scalecodec")) and _ours(venv.probe("ferroscale"))
    assert _theirs(venv.probe("scalecodec", FERROSCALE_SCALECODEC="0"))
    disabled = venv.run(venv.python, "-m", "ferroscale", "disable").stdout
    assert f"import scalecodec gives: {other_dist} {OTHERS[other][1]}" in disabled, disabled
    assert _theirs(venv.probe("scalecodec")) and _ours(venv.probe("ferroscale"))

    if remove == "ferroscale":
        venv.pip("uninstall", "--yes", "ferroscale")
        assert venv.verify(other_dist)["bad"] == []
        assert _theirs(venv.probe("scalecodec"))
        assert venv.run(venv.python, "-c", "import ferroscale", check=False).returncode != 0
    else:
        venv.pip("uninstall", "--yes", other_dist)
        assert venv.verify("ferroscale")["bad"] == []
        assert _ours(venv.probe("scalecodec")) and _ours(venv.probe("ferroscale"))
    check = venv.pip("check", check=False)
    assert check.returncode == 0, check.stdout + check.stderr
