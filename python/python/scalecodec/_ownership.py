"""Whether the ``scalecodec`` files Python imports are all ferroscale's.

cyscale (which async-substrate-interface depends on) and py-scale-codec
install the same top-level package, ``scalecodec``; pip lets the one
installed last overwrite the other's files without a word. Two cases matter:

* cyscale installed, then ferroscale: our ``.py`` files replace cyscale's,
  but cyscale's compiled modules (``base.cpython-….so``, ``types…so`` …)
  stay, and Python imports an extension module before a ``.py`` of the same
  name, so ``scalecodec.base`` would silently be cyscale's under our
  ``__init__``. That is neither package: importing stops with an
  ``ImportError`` that says how to repair it.
* another distribution's metadata (``cyscale-*.dist-info``,
  ``scalecodec-*.dist-info``) beside our files, without stray compiled
  modules: what is imported is ours, but ``pip uninstall`` of that
  distribution would delete our files (it owns them by its RECORD). That is a
  ``RuntimeWarning``, as is another ``scalecodec`` package elsewhere on
  ``sys.path`` (shadowed, or shadowing us in another interpreter set-up).

(cyscale installed *after* ferroscale replaces our ``__init__``: this module
never runs then; ``scalecodec.__version__`` is missing, see python/README.md.)

The checks read two directory listings and stat one path per ``sys.path``
entry; this module imports nothing of the package.
"""
import os
import sys
import warnings
from typing import List

#: Distributions that install the ``scalecodec`` package too (PyPI names).
OTHER_DISTRIBUTIONS = ("cyscale", "scalecodec")

#: The one compiled module ferroscale ships (``scalecodec._core``).
OWN_EXTENSION = "_core"

_REPAIR = ("pip uninstall -y cyscale scalecodec ferroscale, then pip install ferroscale (its wheel or ./python) "
           "and install async-substrate-interface with --no-deps (see ferroscale's python/README.md)")


def foreign_extensions(package_dir: str) -> List[str]:
    """Compiled modules in the package (and its ``utils``) that ferroscale
    does not ship, as paths relative to the package."""
    found = []
    for sub in ("", "utils"):
        folder = os.path.join(package_dir, sub)
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if name.endswith((".so", ".pyd")) and name.split(".", 1)[0] != OWN_EXTENSION:
                found.append(os.path.join(sub, name) if sub else name)
    return sorted(found)


def other_distributions(package_dir: str) -> List[str]:
    """``*.dist-info`` / ``*.egg-info`` folders of other distributions that
    install ``scalecodec``, beside the package."""
    site = os.path.dirname(package_dir)
    try:
        names = os.listdir(site)
    except OSError:
        return []
    return sorted(n for n in names if n.endswith((".dist-info", ".egg-info"))
                  and n.split("-", 1)[0].lower().replace("_", "-") in OTHER_DISTRIBUTIONS)


def other_packages(package_dir: str) -> List[str]:
    """Other ``scalecodec`` package folders on ``sys.path``."""
    own = os.path.realpath(package_dir)
    found = []
    for entry in sys.path:
        candidate = os.path.join(entry or os.getcwd(), "scalecodec")
        if os.path.isfile(os.path.join(candidate, "__init__.py")) and os.path.realpath(candidate) != own:
            if candidate not in found:
                found.append(candidate)
    return found


def check(package_dir: str) -> None:
    """Raises ``ImportError`` for a package mixed with another's compiled
    modules; warns when other distributions or packages claim ``scalecodec``."""
    stray = foreign_extensions(package_dir)
    if stray:
        raise ImportError(
            f"the scalecodec package at {package_dir} mixes ferroscale with compiled modules of another "
            f"distribution ({', '.join(stray[:4])}{' …' if len(stray) > 4 else ''}; cyscale's, installed "
            f"before ferroscale), which Python would import instead of ferroscale's. Repair: {_REPAIR}")
    claims = other_distributions(package_dir)
    if claims:
        warnings.warn(
            f"ferroscale's scalecodec files at {package_dir} are also claimed by {', '.join(claims)}: "
            "uninstalling that distribution would delete them, and reinstalling it would replace them. "
            f"Repair: {_REPAIR}", RuntimeWarning, stacklevel=3)
    shadowed = other_packages(package_dir)
    if shadowed:
        warnings.warn(
            f"another scalecodec package is on sys.path ({', '.join(shadowed)}); this process imports "
            f"ferroscale's from {package_dir}", RuntimeWarning, stacklevel=3)
