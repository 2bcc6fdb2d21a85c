"""cyscale (async-substrate-interface's dependency) and py-scale-codec install
the same ``scalecodec`` package as ferroscale: importing ours refuses a folder
mixed with cyscale's compiled modules and warns when another distribution
claims the files. Each case imports a copy of the installed package laid out
as pip leaves it, in a fresh interpreter without site-packages."""
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import scalecodec

PACKAGE = Path(scalecodec.__file__).resolve().parent
EXT = sysconfig.get_config_var("EXT_SUFFIX")  # e.g. .cpython-311-x86_64-linux-gnu.so


def _site(tmp_path: Path, name: str = "site") -> Path:
    site = tmp_path / name
    shutil.copytree(PACKAGE, site / "scalecodec", ignore=shutil.ignore_patterns("__pycache__"))
    return site


def _import(*sites: Path, code: str = "import scalecodec; print(scalecodec.__version__)"):
    env = {"PYTHONPATH": os.pathsep.join(map(str, sites)), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-S", "-W", "error::RuntimeWarning", "-c", code],
                          capture_output=True, text=True, env=env, cwd=str(sites[0]), timeout=120)


def test_own_package_alone_imports_without_warnings(tmp_path):
    proc = _import(_site(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "ferroscale" in proc.stdout


def test_cyscale_compiled_modules_left_in_the_folder_refuse_import(tmp_path):
    """cyscale installed first, ferroscale over it: pip replaced cyscale's
    ``.py`` files but left its extension modules, which Python would import
    instead of ours (an extension wins over a ``.py`` of the same name)."""
    site = _site(tmp_path)
    for stray in ("base", "types", "_scale_bytes", "utils/_ss58"):
        (site / "scalecodec" / f"{stray}{EXT}").write_bytes(b"\x7fELF not really")
    (site / "cyscale-0.8.0.dist-info").mkdir()
    proc = _import(site)
    assert proc.returncode != 0
    assert "ImportError" in proc.stderr and f"base{EXT}" in proc.stderr and "pip uninstall" in proc.stderr


def test_another_distribution_claiming_the_files_warns(tmp_path):
    for dist in ("cyscale-0.8.0.dist-info", "scalecodec-1.2.12.dist-info"):
        site = _site(tmp_path, dist)
        (site / dist).mkdir()
        proc = _import(site)
        assert proc.returncode != 0 and "RuntimeWarning" in proc.stderr, proc.stderr
        assert dist in proc.stderr and "uninstalling that distribution would delete them" in proc.stderr
        # as a warning (not an error) the import goes on
        code = "import warnings; warnings.simplefilter('ignore'); import scalecodec; print(scalecodec.ScaleValue)"
        env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}
        ok = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env,
                            cwd=str(site), timeout=120)
        assert ok.returncode == 0 and "Union" in ok.stdout, ok.stderr


def test_another_scalecodec_package_on_the_path_warns(tmp_path):
    ours, other = _site(tmp_path, "first"), tmp_path / "second"
    (other / "scalecodec").mkdir(parents=True)
    (other / "scalecodec" / "__init__.py").write_text("raise SystemExit('the shadowed copy was imported')\n")
    proc = _import(ours, other)
    assert proc.returncode != 0 and "another scalecodec package is on sys.path" in proc.stderr
    assert str(other / "scalecodec") in proc.stderr
