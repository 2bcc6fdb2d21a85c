"""``python -m ferroscale status|enable|disable``: which ``scalecodec`` this
environment's ``import scalecodec`` gives, and the switch between
ferroscale's and another installed one (py-scale-codec, cyscale).

``enable`` writes a marker beside the start-up hook in site-packages
(``_ferroscale_scalecodec``), ``disable`` removes it; either takes effect in
the next interpreter. ``FERROSCALE_SCALECODEC=1``/``0`` overrides both for
one process. Exits 0, or 2 with a message on stderr (a bad command, a
site-packages folder that cannot be written, a missing hook).
"""
import os
import subprocess
import sys
from importlib import metadata

try:
    import _ferroscale_scalecodec
except ImportError:  # said by main(): the hook is part of the installation
    _ferroscale_scalecodec = None  # type: ignore[assignment]

_USAGE = "usage: python -m ferroscale {status|enable|disable}"
#: This package's folder: what `import scalecodec` loads when it gives ferroscale's.
_FOLDER = os.path.dirname(os.path.abspath(__file__))
# The folder of the package a fresh interpreter of this environment imports as `scalecodec`.
_PROBE = "import os, scalecodec; print(os.path.dirname(os.path.abspath(scalecodec.__file__)))"


def _owners(folder):
    """The distributions (name and version) that installed ``folder/__init__.py``."""
    target = os.path.join(folder, "__init__.py")
    owners = []
    for dist in metadata.distributions():
        for f in dist.files or ():
            if str(f).replace("\\", "/").endswith("scalecodec/__init__.py") and \
                    os.path.abspath(str(dist.locate_file(f))) == target:
                owners.append(f"{dist.metadata['Name']} {dist.version}")
    return owners


def status(hook) -> None:
    ours, reason = hook.decide()
    probe = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True)
    if probe.returncode != 0:
        print("import scalecodec: fails in this environment")
        print(f"  why: {reason}")
    else:
        folder = probe.stdout.strip()
        who = "ferroscale" if folder == _FOLDER else ", ".join(_owners(folder)) or "another distribution"
        print(f"import scalecodec gives: {who} ({folder})")
        print(f"  why: {reason}")
    other = hook.other_scalecodec()
    if other is not None:
        folder = os.path.dirname(other)
        print(f"other scalecodec installed: {', '.join(_owners(folder)) or 'unknown'} ({folder})")
    print(f"enabled marker: {'present' if os.path.exists(hook.MARKER) else 'absent'} ({hook.MARKER})")
    env = os.environ.get(hook.ENV_VAR)
    if env is not None:
        print(f"{hook.ENV_VAR}={env} (1: ferroscale's, 0: never ferroscale's; overrides the marker)")
    print("import ferroscale always gives ferroscale; switch with `python -m ferroscale enable|disable`")


def main(argv) -> int:
    if len(argv) != 1 or argv[0] not in ("status", "enable", "disable"):
        print(_USAGE, file=sys.stderr)
        return 2
    hook = _ferroscale_scalecodec
    if hook is None:
        print("ferroscale: its start-up hook (_ferroscale_scalecodec) is not installed in this environment; "
              "reinstall ferroscale with pip", file=sys.stderr)
        return 2
    command = argv[0]
    try:
        if command == "enable":
            with open(hook.MARKER, "w", encoding="utf-8") as f:
                f.write("import scalecodec gives ferroscale's package (python -m ferroscale disable undoes it)\n")
        elif command == "disable" and os.path.exists(hook.MARKER):
            os.remove(hook.MARKER)
    except OSError as e:
        print(f"ferroscale {command}: {e} (set {hook.ENV_VAR}=1 or 0 instead for one process)", file=sys.stderr)
        return 2
    status(hook)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
